import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationModule, OperationOption } from '../../../shared/descriptions/resource';
import { eachById } from '../../../shared/items/byId';
import { dataOf, statusKey } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';
import { getCampaign } from './api';
import { CAMPAIGN_ID, campaignIdField } from './fields';

export type CampaignAction = 'pause' | 'resume' | 'complete' | 'archive';

/** The spec's transitions table: the statuses each action may start from. */
export const ALLOWED_FROM: Record<CampaignAction, readonly string[]> = {
	pause: ['Created', 'InProgress'],
	resume: ['Paused'],
	complete: ['Paused'],
	archive: ['Completed'],
};

/**
 * One of the campaign actions as an operation (its entry's value names the action): reads the
 * campaign, refuses (naming its status and what is allowed) when the transitions table does not
 * allow the action, else PUTs `{action}`. Statuses compare without case or punctuation
 * (`in-progress` is `InProgress`).
 */
export function campaignAction(option: OperationOption & { value: CampaignAction }): OperationModule {
	const action = option.value;
	const allowed = ALLOWED_FROM[action];
	return {
		option,
		description: [campaignIdField],
		async execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun) {
			const node = this.getNode();
			return await eachById(this, items, CAMPAIGN_ID, async (campaignId, itemIndex) => {
				const current = await getCampaign(this, run, campaignId, itemIndex);
				if (!allowed.map(statusKey).includes(statusKey(current.status))) {
					throw new NodeOperationError(
						node,
						`Cannot ${action} campaign ${campaignId}: its status is ${String(current.status ?? 'unknown')}; ${action} is allowed only from ${allowed.join(' or ')} (item ${itemIndex})`,
						{ itemIndex, description: 'Nothing was sent. The service moves a campaign only along its transitions: pause from Created or InProgress, resume and complete from Paused, archive from Completed.' },
					);
				}
				const response = await exotelRequest(this, run, { endpoint: CAMPAIGNS.update, params: { campaignId }, body: { action }, itemIndex });
				const updated = dataOf(response.body);
				return updated.id !== undefined ? updated : { id: campaignId, action, previousStatus: current.status ?? null };
			});
		},
	};
}
