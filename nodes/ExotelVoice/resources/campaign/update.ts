import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import {
	campaignBody,
	campaignOptions,
	campaignPath,
	crossCheck,
	dataOf,
	getCampaign,
	lockedFields,
	pastSendTime,
	text,
} from './shared';

const show = { resource: ['campaign'], operation: ['update'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		hint: 'Before the campaign’s send time any field can change; after it only the three callback URLs',
		displayOptions: { show },
		options: campaignOptions(true),
	},
];

/**
 * Reads the campaign first: past its `send_at` only the callbacks may change, so other fields are
 * refused (named) before anything is sent; otherwise PUTs the changed parameters.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const campaignId = text(this.getNodeParameter('campaignId', itemIndex, '', { extractValue: true }));
		const values = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const invalid = fieldsError(node, itemIndex, [[campaignId, { label: 'Campaign ID', required: true }]]);
		if (invalid) return invalid;
		if (Object.keys(values).length === 0) {
			return new NodeOperationError(node, `Add at least one field to update (item ${itemIndex})`, { itemIndex });
		}
		const built = campaignBody(this, itemIndex, values, 'update');
		if (!('body' in built)) return built;
		if (Object.keys(built.body).length === 0) {
			return new NodeOperationError(node, `The fields to update are all empty (item ${itemIndex})`, { itemIndex });
		}
		return { itemIndex, campaignId, body: built.body, locked: lockedFields(built.body) };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, campaignId, body, locked }) => {
		const current = await getCampaign(this, campaignId, itemIndex);
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
		const response = await exotelRequest.call(this, { base: 'base', method: 'PUT', path: campaignPath(campaignId), body, itemIndex });
		const updated = dataOf(response.body);
		// The spec does not show the update's answer: without a campaign in it, the fields sent say what changed.
		return updated.id !== undefined ? updated : { id: campaignId, ...body };
	});
	return outputOf(this, [...failures, ...outcomes]);
}
