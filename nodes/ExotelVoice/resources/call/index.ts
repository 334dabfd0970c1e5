import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as connect from './connect';
import * as get from './get';
import * as getDetails from './getDetails';
import * as getMany from './getMany';

export const operations: Record<string, ExotelOperation> = { connect, get, getDetails, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['call'] } },
		options: [
			{ name: 'Connect to Flow', value: 'connect', action: 'Connect a number to a call flow', description: 'Call a number and connect it to a flow once answered' },
			{ name: 'Get', value: 'get', action: 'Get a call', description: 'Get a call, with its legs' },
			{ name: 'Get Details', value: 'getDetails', action: 'Get call details', description: 'Get a call from the contact-center management API' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many calls', description: 'Search calls by date, number, status, duration and price' },
		],
		default: 'connect',
	},
	...connect.description,
	...get.description,
	...getDetails.description,
	...getMany.description,
];
