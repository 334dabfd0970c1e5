import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { campaignPath, text } from './shared';

export const description: INodeProperties[] = [];

/** Deletes the campaign (DELETE on the campaign's path; the spec shows only "HTTP 200 on success"). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const campaignId = text(this.getNodeParameter('campaignId', itemIndex, '', { extractValue: true }));
		return fieldsError(this.getNode(), itemIndex, [[campaignId, { label: 'Campaign ID', required: true }]]) ?? { itemIndex, campaignId };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, campaignId }) => {
		await exotelRequest.call(this, { base: 'base', method: 'DELETE', path: campaignPath(campaignId), itemIndex });
		return { id: campaignId, deleted: true };
	});
	return outputOf(this, [...failures, ...outcomes]);
}
