import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as send from './send';

export const operations: Record<string, ExotelOperation> = { send };

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
		],
		default: 'send',
	},
	...send.description,
];
