import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { listPath, text } from './shared';

export const description: INodeProperties[] = [];

/** Deletes the list (the spec does not show the answer's body). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const listSid = text(this.getNodeParameter('listSid', itemIndex, '', { extractValue: true }));
		return fieldsError(this.getNode(), itemIndex, [[listSid, { label: 'List ID', required: true }]]) ?? { itemIndex, listSid };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, listSid }) => {
		await exotelRequest.call(this, { base: 'base', method: 'DELETE', path: listPath(listSid), itemIndex });
		return { sid: listSid, deleted: true };
	});
	return outputOf(this, [...failures, ...outcomes]);
}
