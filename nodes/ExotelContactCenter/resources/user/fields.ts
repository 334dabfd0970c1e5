// The fields of a contact-center user that Create and Update share.
import type { INodeProperties } from 'n8n-workflow';

import type { IdParameter } from '../../../shared/items/byId';

export const USER_ID: INodeProperties = { displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '' };
/** The user that Update and Delete are about: the User ID parameter and its label in messages. */
export const USER: IdParameter = { name: USER_ID.name, label: USER_ID.displayName };

/** The settings a user has whether it is being created or updated. */
export const USER_SETTINGS: INodeProperties[] = [
	{ displayName: 'Default Ready', name: 'defaultReady', type: 'boolean', default: false, description: 'Whether the user logs in as Ready' },
	{
		displayName: 'Login Policy',
		name: 'loginPolicy',
		type: 'options',
		options: [
			{ name: 'Disallow After Limit', value: 'disallow.after.limit' },
			{ name: 'Verify Before Force Login', value: 'verify.before.force.login' },
		],
		default: 'disallow.after.limit',
	},
	{ displayName: 'Mapping User ID', name: 'mappingUserId', type: 'string', default: '', description: 'Login ID of the user in an external application' },
	{ displayName: 'Max Allowed Logins', name: 'maxAllowedLogins', type: 'number', typeOptions: { minValue: 1 }, default: 1, description: 'Concurrent logins allowed' },
	{ displayName: 'System User Type', name: 'systemUserType', type: 'string', default: '', description: 'Usually the same as User Type' },
];
