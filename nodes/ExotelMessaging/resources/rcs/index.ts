import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as sendTemplate from './sendTemplate';

export const operations: Record<string, ExotelOperation> = { sendTemplate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['rcs'] } },
		options: [
			{
				name: 'Send Template',
				value: 'sendTemplate',
				action: 'Send an RCS template message',
				description: 'Send an approved RCS template per input item, with an optional SMS fallback',
			},
		],
		default: 'sendTemplate',
	},
	...sendTemplate.description,
];
