import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { prepareNamed } from '../../../shared/items/byId';
import { fieldsError } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { CONTACT_CENTER_USERS } from '../../endpoints';
import { eachUserRequest } from './api';
import { USER, USER_ID, USER_SETTINGS } from './fields';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update a contact center user',
	description: 'Change the fields of a user',
};

export const description: INodeProperties[] = [
	USER_ID,
	{
		displayName: 'Update Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		// the fields Create asks for first, then the settings Create has among its options
		options: [
			{ displayName: 'Contact Center ID', name: 'contactCenterId', type: 'number', default: 0 },
			{ displayName: 'User Name', name: 'userName', type: 'string', default: '' },
			{ displayName: 'User Type', name: 'userType', type: 'string', default: '', placeholder: 'Agent' },
			...USER_SETTINGS,
			{ displayName: 'User Data', name: 'userData', type: 'string', typeOptions: { password: true }, default: '', description: "The user's password or credential data" },
		],
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachUserRequest(
		this,
		run,
		items,
		prepareNamed(this, [USER], ([userId], itemIndex) => {
			const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
			const invalid = fieldsError(this.getNode(), itemIndex, [
				[Object.keys(extra).length ? 'set' : '', { label: 'At least one field to update', required: true }],
				[extra.contactCenterId, { label: 'Contact Center ID', integer: true, min: 1 }],
				[extra.maxAllowedLogins, { label: 'Max Allowed Logins', integer: true, min: 1 }],
			]);
			return invalid ?? { userId, body: { userId, ...extra } };
		}),
		// The spec shows this path both with and without <userId>: the node uses the path form of
		// the heading and also sends userId in the body, which satisfies both readings.
		({ userId, body }) => ({ endpoint: CONTACT_CENTER_USERS.update, params: { userId }, body }),
	);
}
