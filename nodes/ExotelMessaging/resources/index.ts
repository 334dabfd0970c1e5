import type { INodeProperties } from 'n8n-workflow';

import type { ResourceMap } from '../../shared/operation';
import * as chatApp from './chatApp';
import * as rcs from './rcs';
import * as sms from './sms';

export const resources: ResourceMap = { chatApp: chatApp.operations, rcs: rcs.operations, sms: sms.operations };

export const resourceDescription: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Chat App Message (WhatsApp)', value: 'chatApp' },
			{ name: 'RCS Message', value: 'rcs' },
			{ name: 'SMS', value: 'sms' },
		],
		default: 'sms',
	},
	...chatApp.description,
	...rcs.description,
	...sms.description,
];
