import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { dataOf, listPath, text } from './shared';

export const description: INodeProperties[] = [];

/** The list's metadata, with its contact count. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const listSid = text(this.getNodeParameter('listSid', itemIndex, '', { extractValue: true }));
		return fieldsError(this.getNode(), itemIndex, [[listSid, { label: 'List ID', required: true }]]) ?? { itemIndex, listSid };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, listSid }) => {
		const response = await exotelRequest.call(this, { base: 'base', method: 'GET', path: listPath(listSid), itemIndex });
		return dataOf(response.body);
	});
	return outputOf(this, [...failures, ...outcomes]);
}
