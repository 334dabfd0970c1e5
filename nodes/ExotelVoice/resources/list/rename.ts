import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { dataOf, listPath, text } from './shared';

// List ID and New Name are shared with Bulk Rename (index.ts).
export const description: INodeProperties[] = [];

/** PUT `{name}` on the list, one request per item. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const listSid = text(this.getNodeParameter('listSid', itemIndex, '', { extractValue: true }));
		const name = text(this.getNodeParameter('name', itemIndex, ''));
		return (
			fieldsError(this.getNode(), itemIndex, [
				[listSid, { label: 'List ID', required: true }],
				[name, { label: 'New Name', required: true }],
			]) ?? { itemIndex, listSid, name }
		);
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, listSid, name }) => {
		const response = await exotelRequest.call(this, { base: 'base', method: 'PUT', path: listPath(listSid), body: { name }, itemIndex });
		const list = dataOf(response.body);
		// The spec does not show the answer: without a list in it, the request says what changed.
		return list.sid !== undefined ? list : { sid: listSid, name };
	});
	return outputOf(this, [...failures, ...outcomes]);
}
