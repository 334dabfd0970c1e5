import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { deleteEach } from '../../../shared/items/byId';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';
import { CAMPAIGN_ID, campaignIdField } from './fields';

export const option: OperationOption = { name: 'Delete', value: 'delete', action: 'Delete a campaign' };

export const description: INodeProperties[] = [campaignIdField];

/** Deletes the campaign (DELETE on the campaign's path; the spec shows only "HTTP 200 on success"). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await deleteEach(this, run, items, CAMPAIGN_ID, { endpoint: CAMPAIGNS.delete, placeholder: 'campaignId', key: 'id' });
}
