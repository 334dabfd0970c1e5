import type { INodeProperties } from 'n8n-workflow';

import type { ResourceMap } from '../../shared/operation';
import * as call from './call';
import * as campaign from './campaign';
import * as contact from './contact';
import * as list from './list';
import * as user from './user';
import * as userDevice from './userDevice';
import * as voiceLog from './voiceLog';

export const resources: ResourceMap = {
	call: call.operations,
	campaign: campaign.operations,
	contact: contact.operations,
	list: list.operations,
	user: user.operations,
	userDevice: userDevice.operations,
	voiceLog: voiceLog.operations,
};

export const resourceDescription: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Call', value: 'call' },
			{ name: 'Campaign', value: 'campaign' },
			{ name: 'Contact', value: 'contact' },
			{ name: 'List', value: 'list' },
			{ name: 'User', value: 'user' },
			{ name: 'User Device', value: 'userDevice' },
			{ name: 'Voice Log', value: 'voiceLog' },
		],
		default: 'call',
	},
	...call.description,
	...campaign.description,
	...contact.description,
	...list.description,
	...user.description,
	...userDevice.description,
	...voiceLog.description,
];
