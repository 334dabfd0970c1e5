import type { INodeProperties } from 'n8n-workflow';

import type { IdParameter } from '../../../shared/items/byId';

/** Whose devices: the integration's customer and app, and the user (both operations). */
export const deviceUserFields: INodeProperties[] = [
	{ displayName: 'Customer ID', name: 'customerId', type: 'string', required: true, default: '', description: 'Customer ID of the integration' },
	{ displayName: 'App ID', name: 'appId', type: 'string', required: true, default: '', description: 'App ID of the integration the token belongs to' },
	{ displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '' },
];

/** Those fields as required parameters, with their labels in messages. */
export const DEVICE_USER: IdParameter[] = deviceUserFields.map(({ name, displayName }) => ({ name, label: displayName }));
