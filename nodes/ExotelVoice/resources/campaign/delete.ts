import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { deleteEach } from '../../../shared/items/byId';
import { campaignPath } from './api';
import { CAMPAIGN_ID, campaignIdField } from './fields';

export const option: OperationOption = { name: 'Delete', value: 'delete', action: 'Delete a campaign' };

export const description: INodeProperties[] = [campaignIdField];

/** Deletes the campaign (DELETE on the campaign's path; the spec shows only "HTTP 200 on success"). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await deleteEach(this, items, CAMPAIGN_ID, { base: 'base', pathOf: campaignPath, key: 'id' });
}
