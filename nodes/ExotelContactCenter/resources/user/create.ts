import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { preparedBody } from '../../../shared/items/parameters';
import { trimmed } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { CONTACT_CENTER_USERS } from '../../endpoints';
import { eachUserRequest } from './api';
import { USER_SETTINGS } from './fields';

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create a contact center user',
	description: 'Create an agent, supervisor or other user',
};

export const description: INodeProperties[] = [
	{ displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '', placeholder: 'asha.rao', description: 'Unique login ID' },
	{ displayName: 'User Name', name: 'userName', type: 'string', required: true, default: '', placeholder: 'Asha Rao' },
	{ displayName: 'User Type', name: 'userType', type: 'string', required: true, default: 'Agent', placeholder: 'Agent', description: 'For example Agent, Supervisor, Executive or Professional Agent' },
	{ displayName: 'Contact Center ID', name: 'contactCenterId', type: 'number', required: true, default: 1 },
	optionsCollection(
		[
			...USER_SETTINGS,
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{ displayName: 'User Data', name: 'userData', type: 'string', typeOptions: { password: false }, default: '', description: 'Extra data or notes' },
		],
		{ name: 'additionalFields' },
	),
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachUserRequest(
		this,
		run,
		items,
		preparedBody(this, (param, extra) => {
			const body: IDataObject = {
				userId: trimmed(param('userId')),
				userType: trimmed(param('userType')),
				userName: trimmed(param('userName')),
				contactCenterId: Number(param('contactCenterId')),
				...extra,
			};
			// The create body carries maxAllowedLogins as a string, as the spec shows it.
			if (extra.maxAllowedLogins !== undefined) body.maxAllowedLogins = String(extra.maxAllowedLogins);
			return {
				body,
				checks: [
					[body.userId, { label: 'User ID', required: true }],
					[body.userType, { label: 'User Type', required: true }],
					[body.userName, { label: 'User Name', required: true }],
					[body.contactCenterId, { label: 'Contact Center ID', required: true, integer: true, min: 1 }],
				],
			};
		}),
		({ body }) => ({ endpoint: CONTACT_CENTER_USERS.create, body }),
	);
}
