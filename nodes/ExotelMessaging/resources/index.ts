import type { INodeProperties } from 'n8n-workflow';

import type { ResourceMap } from '../../shared/operation';
import * as sms from './sms';

export const resources: ResourceMap = { sms: sms.operations };

export const resourceDescription: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [{ name: 'SMS', value: 'sms' }],
		default: 'sms',
	},
	...sms.description,
];
