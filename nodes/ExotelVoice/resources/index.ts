import type { INodeProperties } from 'n8n-workflow';

import type { ResourceMap } from '../../shared/operation';
import * as call from './call';
import * as user from './user';
import * as userDevice from './userDevice';
import * as voiceLog from './voiceLog';

export const resources: ResourceMap = {
	call: call.operations,
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
			{ name: 'User', value: 'user' },
			{ name: 'User Device', value: 'userDevice' },
			{ name: 'Voice Log', value: 'voiceLog' },
		],
		default: 'call',
	},
	...call.description,
	...user.description,
	...userDevice.description,
	...voiceLog.description,
];
