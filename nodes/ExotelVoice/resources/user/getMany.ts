import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemsOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { trimmed } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { USERS } from '../../endpoints';
import { limitCheck, listEach, listingFields } from '../../listing';

const EXTRA_FIELD_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Active Call', value: 'active_call' },
	{ name: 'Devices', value: 'devices' },
	{ name: 'Last Login', value: 'last_login' },
];

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many users',
	description: 'List users, by device number or email',
};

export const description: INodeProperties[] = listingFields(LIMITS.users.listLimit, [
	{ displayName: 'Device Number', name: 'contactUri', type: 'string', default: '', placeholder: '+919876543210', description: 'Only the user with a device on this number' },
	{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
	{
		displayName: 'Extra Fields',
		name: 'fields',
		type: 'multiOptions',
		options: EXTRA_FIELD_OPTIONS,
		default: [],
		description: 'Fields the service adds to each user only when asked',
	},
]);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await listEach(this, run, items, { endpoint: USERS.getMany, pageSize: LIMITS.users.listLimit, itemsOf }, (itemIndex, limit) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs: IDataObject = {};
		const contactUri = trimmed(filters.contactUri);
		if (Array.isArray(filters.fields) && filters.fields.length) qs.fields = filters.fields.join(',');
		if (contactUri) qs['devices.contact_uri'] = contactUri;
		if (filters.email) qs.email = trimmed(filters.email);
		return {
			qs,
			checks: [
				[contactUri, { label: 'Device Number', format: 'e164' }],
				limitCheck(limit),
				[filters.fields, { label: 'Extra Fields', choices: EXTRA_FIELD_OPTIONS }],
			],
		};
	});
}
