import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { listPath, text } from './shared';

const show = { resource: ['list'], operation: ['removeContact'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Contact ID',
		name: 'contactSid',
		type: 'string',
		required: true,
		default: '',
		description: 'The contact’s sid',
		hint: 'The contact is only taken out of this list: it is not deleted and stays in its other lists',
		displayOptions: { show },
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const listSid = text(this.getNodeParameter('listSid', itemIndex, '', { extractValue: true }));
		const contactSid = text(this.getNodeParameter('contactSid', itemIndex, ''));
		return (
			fieldsError(this.getNode(), itemIndex, [
				[listSid, { label: 'List ID', required: true }],
				[contactSid, { label: 'Contact ID', required: true }],
			]) ?? { itemIndex, listSid, contactSid }
		);
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, listSid, contactSid }) => {
		await exotelRequest.call(this, {
			base: 'base',
			method: 'DELETE',
			path: `${listPath(listSid)}/contacts/${encodeURIComponent(contactSid)}`,
			itemIndex,
		});
		return { listSid, contactSid, removed: true };
	});
	return outputOf(this, [...failures, ...outcomes]);
}
