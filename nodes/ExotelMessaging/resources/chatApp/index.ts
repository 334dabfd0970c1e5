import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as send from './send';
import * as setWebhooks from './setWebhooks';

export const operations: Record<string, ExotelOperation> = { send, setWebhooks };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['chatApp'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				action: 'Send a chat app message',
				description: 'Send a text, media, location, contacts or interactive message per input item',
			},
			{
				name: 'Set Webhooks',
				value: 'setWebhooks',
				action: 'Set the chat app webhooks',
				description: 'Set the account-wide URLs for incoming messages and status callbacks',
			},
		],
		default: 'send',
	},
	...send.description,
	...setWebhooks.description,
];
