import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { CALL_STATUS_OPTIONS, limitOf, returnAllOrLimit } from '../../../shared/descriptions';
import { LIMITS } from '../../../shared/limits';
import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequestAllItems } from '../../../shared/transport';
import { fieldsError, valuesOf } from '../../../shared/validation';
import { callItem, secondsOf, textOf } from '../../../shared/vocabulary';
import { campaignPath, itemsOf, text } from './shared';

const show = { resource: ['campaign'], operation: ['getCallDetails'] };

const SORT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Date Created (Newest First)', value: 'date_created:desc' },
	{ name: 'Date Created (Oldest First)', value: 'date_created:asc' },
];
// an expression in a dropdown can yield anything: these are what the service takes
const SORT_VALUES = valuesOf(SORT_OPTIONS);
const CALL_STATUS_VALUES = valuesOf(CALL_STATUS_OPTIONS);

export const description: INodeProperties[] = [
	// The spec gives the call-details page size a default (20) but no maximum; the node asks for
	// pages as large as the campaign listing allows.
	...returnAllOrLimit(show, LIMITS.campaign.listLimit),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
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
		],
	},
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
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const campaignId = text(this.getNodeParameter('campaignId', itemIndex, '', { extractValue: true }));
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const limit = limitOf(this, itemIndex);
		const qs: IDataObject = {};
		if (filters.status) qs.status = filters.status;
		if (filters.sortBy) qs.sort_by = filters.sortBy;
		return (
			fieldsError(this.getNode(), itemIndex, [
				[campaignId, { label: 'Campaign ID', required: true }],
				[limit, { label: 'Limit', integer: true, min: 1 }],
				[filters.status, { label: 'Status', oneOf: CALL_STATUS_VALUES }],
				[filters.sortBy, { label: 'Sort By', oneOf: SORT_VALUES }],
			]) ?? { itemIndex, campaignId, qs, limit }
		);
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, campaignId, qs, limit }) =>
		await exotelRequestAllItems.call(
			this,
			{ base: 'base', method: 'GET', path: `${campaignPath(campaignId)}/call-details`, qs, itemIndex },
			{ pageSize: LIMITS.campaign.listLimit, limit, itemsOf: (body) => itemsOf(body).map(campaignCallItem) },
		),
	);
	return outputOf(this, [...failures, ...outcomes]);
}
