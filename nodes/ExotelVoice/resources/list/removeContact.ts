import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachWith } from '../../../shared/items/byId';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { LIST_SID, listSidField } from './fields';

export const option: OperationOption = {
	name: 'Remove Contact',
	value: 'removeContact',
	action: 'Remove a contact from a list',
	description: 'Take a contact out of a list; the contact itself stays',
};

export const description: INodeProperties[] = [
	listSidField,
	{
		displayName: 'Contact ID',
		name: 'contactSid',
		type: 'string',
		required: true,
		default: '',
		description: 'The contact’s sid',
		hint: 'The contact is only taken out of this list: it is not deleted and stays in its other lists',
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const contact = { name: 'contactSid', label: 'Contact ID' };
	return await eachWith(this, items, [LIST_SID, contact], async ([listSid, contactSid], itemIndex) => {
		await exotelRequest(this, run, { endpoint: LISTS.removeContact, params: { listSid, contactSid }, itemIndex });
		return { listSid, contactSid, removed: true };
	});
}
