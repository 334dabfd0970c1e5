import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { fieldsError } from '../../../shared/validation';
import { getCampaign, text } from './shared';

export const description: INodeProperties[] = [];

/** The campaign with its current status and stats. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const campaignId = text(this.getNodeParameter('campaignId', itemIndex, '', { extractValue: true }));
		return fieldsError(this.getNode(), itemIndex, [[campaignId, { label: 'Campaign ID', required: true }]]) ?? { itemIndex, campaignId };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, campaignId }) => await getCampaign(this, campaignId, itemIndex));
	return outputOf(this, [...failures, ...outcomes]);
}
