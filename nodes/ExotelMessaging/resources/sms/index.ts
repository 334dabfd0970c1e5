import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as send from './send';
import * as sendToMany from './sendToMany';

export const operations: Record<string, ExotelOperation> = { send, sendToMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sms'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				action: 'Send an SMS',
				description: 'Send one SMS per input item, batched 100 to a request',
			},
			{
				name: 'Send to Many',
				value: 'sendToMany',
				action: 'Send an SMS to many recipients',
				description: 'Send the same SMS to a list of recipients, 100 to a request (static bulk; dynamic bulk when an option static bulk lacks is set)',
			},
		],
		default: 'send',
	},
	...send.description,
	...sendToMany.description,
];
