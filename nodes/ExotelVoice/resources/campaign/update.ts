import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { prepareNamed } from '../../../shared/items/byId';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { dataOf, statusKey } from '../../../shared/output/envelope';
import { objectOf } from '../../../shared/rules/values';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';
import { getCampaign } from './api';
import { campaignBody, crossCheck, lockedFields } from './body';
import { CAMPAIGN_ID, campaignIdField, campaignOptions } from './fields';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update a campaign',
	description: 'Change a campaign’s parameters (only its callbacks after the send time)',
};

export const description: INodeProperties[] = [
	campaignIdField,
	optionsCollection(campaignOptions(true), {
		displayName: 'Update Fields',
		name: 'updateFields',
		placeholder: 'Add Field',
		hint: 'Before the campaign’s send time any field can change; after it only the three callback URLs',
	}),
];

/**
 * Whether a campaign is past its `send_at`, after which only the three callbacks can change. A
 * campaign without `send_at` starts when created, so it is; so is one the service reports running
 * or finished.
 */
export function pastSendTime(campaign: IDataObject, now = Date.now()): { passed: boolean; sendAt?: string } {
	const sendAt = objectOf(campaign.schedule)?.send_at;
	const status = statusKey(campaign.status);
	const running = ['inprogress', 'completed', 'archived', 'failed', 'canceled', 'cancelled', 'deleted'].includes(status);
	if (typeof sendAt !== 'string' || !sendAt) return { passed: true };
	const at = Date.parse(sendAt);
	return { passed: running || !Number.isFinite(at) || at <= now, sendAt };
}

/**
 * Reads the campaign first: past its `send_at` only the callbacks may change, so other fields are
 * refused (named) before anything is sent; otherwise PUTs the changed parameters.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	return await requestPerItem(
		this,
		items,
		prepareNamed(this, [CAMPAIGN_ID], ([campaignId], itemIndex) => {
			const values = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
			if (Object.keys(values).length === 0) {
				return new NodeOperationError(node, `Add at least one field to update (item ${itemIndex})`, { itemIndex });
			}
			const built = campaignBody(this, itemIndex, values, 'update');
			if (!('body' in built)) return built;
			if (Object.keys(built.body).length === 0) {
				return new NodeOperationError(node, `The fields to update are all empty (item ${itemIndex})`, { itemIndex });
			}
			return { campaignId, body: built.body, locked: lockedFields(built.body) };
		}),
		async ({ itemIndex, campaignId, body, locked }) => {
			const current = await getCampaign(this, run, campaignId, itemIndex);
			const { passed, sendAt } = pastSendTime(current);
			if (passed && locked.length > 0) {
				const names = locked.join(', ');
				throw new NodeOperationError(
					node,
					`Campaign ${campaignId} is past its send time, so only the callback URLs can change; not updatable now: ${names} (item ${itemIndex})`,
					{
						itemIndex,
						description: `${sendAt ? `Its send_at was ${sendAt}` : 'It has no send_at, so it started when it was created'} (status ${String(current.status ?? 'unknown')}). Nothing was sent. Only Status Callback URL, Call Status Callback URL and Call Schedule Callback URL can be updated after the send time.`,
					},
				);
			}
			const problem = crossCheck(this, itemIndex, body, current);
			if (problem) throw problem;
			const response = await exotelRequest(this, run, { endpoint: CAMPAIGNS.update, params: { campaignId }, body, itemIndex });
			const updated = dataOf(response.body);
			// The spec does not show the update's answer: without a campaign in it, the fields sent say what changed.
			return updated.id !== undefined ? updated : { id: campaignId, ...body };
		},
	);
}
