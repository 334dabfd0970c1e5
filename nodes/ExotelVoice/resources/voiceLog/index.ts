import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as get from './get';

export const operations: Record<string, ExotelOperation> = { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['voiceLog'] } },
		options: [{ name: 'Get', value: 'get', action: 'Get a voice log', description: 'Get the recording of a call, optionally downloaded' }],
		default: 'get',
	},
	...get.description,
];
