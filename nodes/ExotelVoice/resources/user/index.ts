import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { limitOf, returnAllOrLimit } from '../../../shared/descriptions';
import { LIMITS } from '../../../shared/limits';
import { outputOf, prepareItems, sendEach, type ExotelOperation } from '../../../shared/operation';
import { exotelRequest, exotelRequestAllItems } from '../../../shared/transport';
import { fieldsError, valuesOf } from '../../../shared/validation';
import { idLocator } from '../../methods/locators';
import { text } from '../campaign/shared';

const showGet = { resource: ['user'], operation: ['get'] };
const showGetMany = { resource: ['user'], operation: ['getMany'] };

/** Users live on the contact-center management API: `{ccm_base_url}/v2/accounts/<sid>/users`. */
export const USERS_PATH = '/v2/accounts/{accountSid}/users';

/** Users come wrapped as `response: [{code, status, data: User}]`. */
export const usersOf = (body: unknown) =>
	(((body ?? {}) as IDataObject).response as IDataObject[] | undefined ?? []).map((entry) => (entry.data ?? entry) as IDataObject);

const EXTRA_FIELD_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Active Call', value: 'active_call' },
	{ name: 'Devices', value: 'devices' },
	{ name: 'Last Login', value: 'last_login' },
];
// an expression in a dropdown can yield anything: these are what the service takes
const EXTRA_FIELD_VALUES = valuesOf(EXTRA_FIELD_OPTIONS);

const fieldsOption: INodeProperties = {
	displayName: 'Extra Fields',
	name: 'fields',
	type: 'multiOptions',
	options: EXTRA_FIELD_OPTIONS,
	default: [],
	description: 'Fields the service adds to each user only when asked',
};

const get: ExotelOperation = {
	description: [
		idLocator({
			displayName: 'User',
			name: 'userId',
			noun: 'user',
			searchListMethod: 'searchUsers',
			placeholder: 'a1f3c5e7b9d24f6a8c0e2b4d6f8a0c1e',
			displayOptions: { show: showGet },
		}),
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const userId = text(this.getNodeParameter('userId', itemIndex, '', { extractValue: true }));
			return fieldsError(this.getNode(), itemIndex, [[userId, { label: 'User ID', required: true }]]) ?? { itemIndex, userId };
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, userId }) => {
			const response = await exotelRequest.call(this, {
				base: 'ccm',
				method: 'GET',
				path: `${USERS_PATH}/${encodeURIComponent(userId)}`,
				itemIndex,
			});
			return usersOf(response.body)[0] ?? {};
		});
		return outputOf(this, [...failures, ...outcomes]);
	},
};

const getMany: ExotelOperation = {
	description: [
		...returnAllOrLimit(showGetMany, LIMITS.users.listLimit),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: { show: showGetMany },
			options: [
				{ displayName: 'Device Number', name: 'contactUri', type: 'string', default: '', placeholder: '+919876543210', description: 'Only the user with a device on this number' },
				{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
				{ ...fieldsOption },
			],
		},
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
			const limit = limitOf(this, itemIndex);
			const qs: IDataObject = {};
			const contactUri = String(filters.contactUri ?? '').trim();
			if (Array.isArray(filters.fields) && filters.fields.length) qs.fields = filters.fields.join(',');
			if (contactUri) qs['devices.contact_uri'] = contactUri;
			if (filters.email) qs.email = String(filters.email).trim();
			return (
				fieldsError(this.getNode(), itemIndex, [
					[contactUri, { label: 'Device Number', format: 'e164' }],
					[limit, { label: 'Limit', integer: true, min: 1 }],
					[filters.fields, { label: 'Extra Fields', oneOf: EXTRA_FIELD_VALUES }],
				]) ?? { itemIndex, qs, limit }
			);
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, qs, limit }) =>
			await exotelRequestAllItems.call(
				this,
				{ base: 'ccm', method: 'GET', path: USERS_PATH, qs, itemIndex },
				{ pageSize: LIMITS.users.listLimit, limit, itemsOf: usersOf },
			),
		);
		return outputOf(this, [...failures, ...outcomes]);
	},
};

export const operations: Record<string, ExotelOperation> = { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{ name: 'Get', value: 'get', action: 'Get a user', description: 'Get a user with their devices' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many users', description: 'List users, by device number or email' },
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];
