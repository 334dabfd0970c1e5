import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemsOf } from '../../../shared/output/envelope';
import { callItem, secondsOf, textOf } from '../../../shared/output/vocabulary';
import { LIMITS } from '../../../shared/rules/limits';
import { trimmed } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';
import { CALL_STATUS_OPTIONS } from '../../fields';
import { limitCheck, listEach, listingFields } from '../../listing';
import { CAMPAIGN_ID, campaignIdField } from './fields';

export const option: OperationOption = {
	name: 'Get Call Details',
	value: 'getCallDetails',
	action: 'Get the calls of a campaign',
	description: 'Get the call records of a campaign',
};

const SORT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Date Created (Newest First)', value: 'date_created:desc' },
	{ name: 'Date Created (Oldest First)', value: 'date_created:asc' },
];

export const description: INodeProperties[] = [
	campaignIdField,
	// The spec gives the call-details page size a default (20) but no maximum; the node asks for
	// pages as large as the campaign listing allows.
	...listingFields(LIMITS.campaign.listLimit, [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: SORT_OPTIONS,
			default: 'date_created:desc',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: CALL_STATUS_OPTIONS,
			default: 'completed',
		},
	]),
];

/** A campaign call record in the call vocabulary: the campaign dialled `number` from `caller_id`. */
function campaignCallItem(record: IDataObject): IDataObject {
	return callItem(
		{
			callSid: textOf(record.call_sid),
			status: textOf(record.status),
			from: textOf(record.caller_id),
			to: textOf(record.number),
			direction: textOf(record.direction),
			startTime: textOf(record.start_time),
			endTime: textOf(record.end_time),
			duration: secondsOf(record.duration),
			recordingUrl: textOf(record.recording_url),
		},
		record,
		{ name: textOf(record.name), digit: textOf(record.digit), dateCreated: textOf(record.date_created) },
	);
}

/** The campaign's call records (number, status, duration, digit, recording...), one item each. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const listing = { endpoint: CAMPAIGNS.getCallDetails, pageSize: LIMITS.campaign.listLimit, itemsOf: (body: unknown) => itemsOf(body).map(campaignCallItem) };
	return await listEach(this, run, items, listing, (itemIndex, limit) => {
		const campaignId = trimmed(this.getNodeParameter(CAMPAIGN_ID.name, itemIndex, '', { extractValue: true }));
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs: IDataObject = {};
		if (filters.status) qs.status = filters.status;
		if (filters.sortBy) qs.sort_by = filters.sortBy;
		return {
			params: { campaignId },
			qs,
			checks: [
				[campaignId, { label: CAMPAIGN_ID.label, required: true }],
				limitCheck(limit),
				[filters.status, { label: 'Status', choices: CALL_STATUS_OPTIONS }],
				[filters.sortBy, { label: 'Sort By', choices: SORT_OPTIONS }],
			],
		};
	});
}
