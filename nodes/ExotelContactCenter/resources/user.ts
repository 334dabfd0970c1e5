import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach, SESSION_REQUESTS, type ExotelOperation } from '../../shared/operation';
import { exotelRequest } from '../../shared/transport';
import { fieldsError, type FieldCheck } from '../../shared/validation';

const show = (operation: string[]) => ({ show: { resource: ['user'], operation } });

const userFields = (operation: string): INodeProperties[] => [
	{
		// create: the user's optional settings; update: the fields to change (n8n's two labels)
		displayName: operation === 'update' ? 'Update Fields' : 'Options',
		name: 'additionalFields',
		type: 'collection',
		placeholder: operation === 'update' ? 'Add Field' : 'Add Option',
		default: {},
		displayOptions: show([operation]),
		options: [
			...(operation === 'update'
				? ([
						{ displayName: 'Contact Center ID', name: 'contactCenterId', type: 'number', default: 0 },
						{ displayName: 'User Name', name: 'userName', type: 'string', default: '' },
						{ displayName: 'User Type', name: 'userType', type: 'string', default: '', placeholder: 'Agent' },
					] as INodeProperties[])
				: []),
			{ displayName: 'Default Ready', name: 'defaultReady', type: 'boolean', default: false, description: 'Whether the user logs in as Ready' },
			...(operation === 'create'
				? ([{ displayName: 'Description', name: 'description', type: 'string', default: '' }] as INodeProperties[])
				: []),
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
			{
				displayName: 'User Data',
				name: 'userData',
				type: 'string',
				typeOptions: { password: operation === 'update' },
				default: '',
				description: operation === 'update' ? "The user's password or credential data" : 'Extra data or notes',
			},
		],
	},
];

const create: ExotelOperation = {
	description: [
		{ displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '', placeholder: 'asha.rao', description: 'Unique login ID', displayOptions: show(['create']) },
		{ displayName: 'User Name', name: 'userName', type: 'string', required: true, default: '', placeholder: 'Asha Rao', displayOptions: show(['create']) },
		{ displayName: 'User Type', name: 'userType', type: 'string', required: true, default: 'Agent', placeholder: 'Agent', description: 'For example Agent, Supervisor, Executive or Professional Agent', displayOptions: show(['create']) },
		{ displayName: 'Contact Center ID', name: 'contactCenterId', type: 'number', required: true, default: 1, displayOptions: show(['create']) },
		...userFields('create'),
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const param = (name: string, fallback: unknown = '') => this.getNodeParameter(name, itemIndex, fallback);
			const extra = param('additionalFields', {}) as IDataObject;
			const body: IDataObject = {
				userId: String(param('userId')).trim(),
				userType: String(param('userType')).trim(),
				userName: String(param('userName')).trim(),
				contactCenterId: Number(param('contactCenterId')),
				...extra,
			};
			// The create body carries maxAllowedLogins as a string, as the spec shows it.
			if (extra.maxAllowedLogins !== undefined) body.maxAllowedLogins = String(extra.maxAllowedLogins);
			const checks: FieldCheck[] = [
				[body.userId, { label: 'User ID', required: true }],
				[body.userType, { label: 'User Type', required: true }],
				[body.userName, { label: 'User Name', required: true }],
				[body.contactCenterId, { label: 'Contact Center ID', required: true, integer: true, min: 1 }],
			];
			return fieldsError(this.getNode(), itemIndex, checks) ?? { itemIndex, body };
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, body }) => {
			const response = await exotelRequest.call(this, { base: 'cc', method: 'POST', path: '/servicerestapi/cc/contactCenterUsers', body, itemIndex });
			return response.body as IDataObject;
		}, SESSION_REQUESTS);
		return outputOf(this, [...failures, ...outcomes]);
	},
};

const update: ExotelOperation = {
	description: [
		{ displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '', displayOptions: show(['update']) },
		...userFields('update'),
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const userId = String(this.getNodeParameter('userId', itemIndex, '')).trim();
			const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
			const body: IDataObject = { userId, ...extra };
			const invalid = fieldsError(this.getNode(), itemIndex, [
				[userId, { label: 'User ID', required: true }],
				[Object.keys(extra).length ? 'set' : '', { label: 'At least one field to update', required: true }],
				[extra.contactCenterId, { label: 'Contact Center ID', integer: true, min: 1 }],
				[extra.maxAllowedLogins, { label: 'Max Allowed Logins', integer: true, min: 1 }],
			]);
			return invalid ?? { itemIndex, userId, body };
		});
		// The spec shows this path both with and without <userId>: the node uses the path form of
		// the heading and also sends userId in the body, which satisfies both readings.
		const outcomes = await sendEach(prepared, async ({ itemIndex, userId, body }) => {
			const response = await exotelRequest.call(this, {
				base: 'cc',
				method: 'PUT',
				path: `/servicerestapi/cc/contactCenterUsers/${encodeURIComponent(userId)}`,
				body,
				itemIndex,
			});
			return response.body as IDataObject;
		}, SESSION_REQUESTS);
		return outputOf(this, [...failures, ...outcomes]);
	},
};

const remove: ExotelOperation = {
	description: [
		{
			displayName: 'Deleting is permanent: the user loses their sessions and credentials and can no longer log in or be assigned to queues, campaigns or roles',
			name: 'deleteNotice',
			type: 'notice',
			default: '',
			displayOptions: show(['delete']),
		},
		{ displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '', displayOptions: show(['delete']) },
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const userId = String(this.getNodeParameter('userId', itemIndex, '')).trim();
			return fieldsError(this.getNode(), itemIndex, [[userId, { label: 'User ID', required: true }]]) ?? { itemIndex, userId };
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, userId }) => {
			const response = await exotelRequest.call(this, {
				base: 'cc',
				method: 'DELETE',
				path: `/servicerestapi/user/users/${encodeURIComponent(userId)}`,
				itemIndex,
			});
			return response.body as IDataObject;
		}, SESSION_REQUESTS);
		return outputOf(this, [...failures, ...outcomes]);
	},
};

export const operations: Record<string, ExotelOperation> = { create, delete: remove, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{ name: 'Create', value: 'create', action: 'Create a contact center user', description: 'Create an agent, supervisor or other user' },
			{ name: 'Delete', value: 'delete', action: 'Delete a contact center user', description: 'Delete a user permanently' },
			{ name: 'Update', value: 'update', action: 'Update a contact center user', description: 'Change the fields of a user' },
		],
		default: 'create',
	},
	...create.description,
	...update.description,
	...remove.description,
];
