import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachById } from '../../../shared/items/byId';
import type { NodeRun } from '../../../shared/transport/run';
import { getCampaign } from './api';
import { CAMPAIGN_ID, campaignIdField } from './fields';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get a campaign',
	description: 'Get a campaign with its status and stats',
};

export const description: INodeProperties[] = [campaignIdField];

/** The campaign with its current status and stats. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachById(this, items, CAMPAIGN_ID, async (campaignId, itemIndex) => await getCampaign(this, run, campaignId, itemIndex));
}
