import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { v1CallItem } from '../../../shared/output/vocabulary';
import { LIMITS } from '../../../shared/rules/limits';
import { addMonths, dateWindowProblem, fieldsError, formatServiceDate, isTimeZone, itemError, monthWindows, parseServiceDate, serviceDateInZone, type FieldCheck } from '../../../shared/rules/validation';
import { exotelCredentials } from '../../../shared/transport/address';
import { accountTimeZoneOf } from '../../../shared/transport/live';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CALLS } from '../../endpoints';
import { CALL_STATUS_OPTIONS } from '../../fields';
import { listingFields } from '../../listing';

const V = LIMITS.voice;

const DIRECTION_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Inbound', value: 'inbound' },
	{ name: 'Outbound API', value: 'outbound-api' },
	{ name: 'Outbound Dial', value: 'outbound-dial' },
];

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many calls',
	description: 'Search calls by date, number, status, duration and price',
};

export const description: INodeProperties[] = listingFields(V.bulkQueryPageSize, [
	{ displayName: 'Call SIDs', name: 'sid', type: 'string', default: '', description: `Comma-separated call SIDs, at most ${V.bulkQuerySids}` },
	{ displayName: 'Created After', name: 'dateCreatedFrom', type: 'dateTime', default: '', hint: `Within the last ${V.bulkQueryHistoryMonths} months; a range longer than ${V.bulkQueryRangeMonths} month needs Return All (fetched month by month)` },
	{ displayName: 'Created Before', name: 'dateCreatedTo', type: 'dateTime', default: '' },
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: DIRECTION_OPTIONS,
		default: 'inbound',
	},
	{ displayName: 'From', name: 'from', type: 'string', default: '', placeholder: '+919876543210', description: `Comma-separated, at most ${V.bulkQueryNumbers}` },
	{ displayName: 'Max Duration (Seconds)', name: 'durationMax', type: 'number', default: 0 },
	{ displayName: 'Max Price', name: 'priceMax', type: 'number', typeOptions: { numberPrecision: 4 }, default: 0 },
	{ displayName: 'Min Duration (Seconds)', name: 'durationMin', type: 'number', default: 0 },
	{ displayName: 'Min Price', name: 'priceMin', type: 'number', typeOptions: { numberPrecision: 4 }, default: 0 },
	{ displayName: 'Oldest First', name: 'oldestFirst', type: 'boolean', default: true, description: 'Whether to sort by creation date ascending (the default order is newest first)' },
	{ displayName: 'Page Size', name: 'pageSize', type: 'number', typeOptions: { minValue: 1, maxValue: V.bulkQueryPageSize }, default: 50, description: `Calls per request, at most ${V.bulkQueryPageSize}` },
	{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '', placeholder: '+918047112233', description: `Virtual numbers, comma-separated, at most ${V.bulkQueryNumbers}` },
	{
		displayName: 'Recording URL Validity (Minutes)',
		name: 'recordingUrlValidity',
		type: 'number',
		typeOptions: { minValue: V.recordingUrlValidityMin, maxValue: V.recordingUrlValidityMax },
		default: 10,
		description: `How long the pre-signed recording URLs stay valid, ${V.recordingUrlValidityMin} to ${V.recordingUrlValidityMax} minutes`,
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: CALL_STATUS_OPTIONS,
		default: 'completed',
	},
	{ displayName: 'To', name: 'to', type: 'string', default: '', placeholder: '+919876543210', description: `Comma-separated, at most ${V.bulkQueryNumbers}` },
]);

const list = (value: unknown) =>
	String(value ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);

/** The zones a date filter is read in and written in; no account zone: the dates go as typed. */
interface DateZones {
	workflow: string;
	account?: string;
}

/**
 * `YYYY-MM-DD HH:MM:SS`, the service's date format: the user's date converted to the account's zone
 * (the live v1 API reads its filters as India time), or as typed where the account's zone is unknown.
 */
function serviceDate(value: unknown, zones: DateZones): string {
	const text = String(value);
	const converted = zones.account === undefined ? undefined : serviceDateInZone(text, zones.workflow, zones.account);
	return converted ?? (/^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 19).replace('T', ' ') : text);
}

function range(min: string | undefined, max: string | undefined): string | undefined {
	const parts = [min && `gte:${min}`, max && `lte:${max}`].filter(Boolean);
	return parts.length ? parts.join(';') : undefined;
}

const WINDOW = {
	fromLabel: 'Created After',
	toLabel: 'Created Before',
	historyMonths: V.bulkQueryHistoryMonths,
	spanMonths: V.bulkQueryRangeMonths,
};

interface CallQuery {
	qs: IDataObject;
	/** `[from, to]` when the range is longer than one request may ask for (Return All only). */
	split?: { from: number; to: number };
}

function query(context: IExecuteFunctions, itemIndex: number, returnAll: boolean, zones: DateZones): CallQuery | NodeOperationError {
	const f = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const sids = list(f.sid);
	const to = list(f.to);
	const from = list(f.from);
	const phoneNumbers = list(f.phoneNumber);
	const checks: FieldCheck[] = [
		[sids, { label: 'Call SIDs', maxItems: V.bulkQuerySids }],
		[to, { label: 'To', maxItems: V.bulkQueryNumbers, format: 'e164' }],
		[from, { label: 'From', maxItems: V.bulkQueryNumbers, format: 'e164' }],
		[phoneNumbers, { label: 'Phone Number', maxItems: V.bulkQueryNumbers }],
		[f.status, { label: 'Status', choices: CALL_STATUS_OPTIONS }],
		[f.direction, { label: 'Direction', choices: DIRECTION_OPTIONS }],
		[f.pageSize, { label: 'Page Size', integer: true, min: 1, max: V.bulkQueryPageSize }],
		[f.recordingUrlValidity, { label: 'Recording URL Validity', integer: true, min: V.recordingUrlValidityMin, max: V.recordingUrlValidityMax }],
	];
	const fieldProblem = fieldsError(context.getNode(), itemIndex, checks);
	if (fieldProblem) return fieldProblem;
	const qs: IDataObject = { PageSize: f.pageSize ?? 50 };
	if (sids.length) qs.Sid = sids.join(',');
	if (to.length) qs.To = to.join(',');
	if (from.length) qs.From = from.join(',');
	if (phoneNumbers.length) qs.PhoneNumber = phoneNumbers.join(',');
	if (f.status) qs.Status = f.status;
	if (f.direction) qs.Direction = f.direction;
	if (f.oldestFirst === true) qs.SortBy = 'DateCreated:asc';
	if (f.recordingUrlValidity !== undefined) qs.RecordingUrlValidity = f.recordingUrlValidity;
	if ((f.dateCreatedFrom || f.dateCreatedTo) && zones.account !== undefined && !isTimeZone(zones.account)) {
		return itemError(context.getNode(), itemIndex, `Account Time Zone "${zones.account}" on the credential is not a time zone; use a name such as Asia/Kolkata`);
	}
	const createdFrom = f.dateCreatedFrom ? serviceDate(f.dateCreatedFrom, zones) : undefined;
	const createdTo = f.dateCreatedTo ? serviceDate(f.dateCreatedTo, zones) : undefined;
	// The service answers 400 for a bound older than its history or a range over a month: say so first.
	const fromMs = createdFrom === undefined ? undefined : parseServiceDate(createdFrom);
	const toMs = createdTo === undefined ? undefined : parseServiceDate(createdTo);
	const windowProblem = dateWindowProblem(fromMs, toMs, WINDOW, Date.now(), returnAll);
	if (windowProblem) return itemError(context.getNode(), itemIndex, windowProblem);
	const created = range(createdFrom, createdTo);
	if (created) qs.DateCreated = created;
	const duration = range(f.durationMin ? `${Number(f.durationMin)}s` : undefined, f.durationMax ? `${Number(f.durationMax)}s` : undefined);
	if (duration) qs.Duration = duration;
	const price = range(f.priceMin ? String(f.priceMin) : undefined, f.priceMax ? String(f.priceMax) : undefined);
	if (price) qs.Price = price;
	const long = fromMs !== undefined && toMs !== undefined && toMs > addMonths(fromMs, V.bulkQueryRangeMonths);
	return long ? { qs, split: { from: fromMs, to: toMs } } : { qs };
}

/**
 * The DateCreated ranges to ask for, in the order the calls come out. Return All over more than a
 * month is split into month-sized ranges rather than refused: the service's cap is per request,
 * the ranges do not overlap, and each is paged to its end before the next starts, so the output is
 * the same calls in the same order as one query over the whole range would give.
 */
function createdRanges({ qs, split }: CallQuery): Array<string | undefined> {
	if (!split) return [qs.DateCreated as string | undefined];
	const windows = monthWindows(split.from, split.to, V.bulkQueryRangeMonths);
	// Newest first unless the query asks for oldest first, as the service sorts within a request.
	if (qs.SortBy !== 'DateCreated:asc') windows.reverse();
	return windows.map(([start, end]) => `gte:${formatServiceDate(start)};lte:${formatServiceDate(end)}`);
}

/** The calls of one item's query: each created range followed along `Metadata.NextPageUri` (its `After` cursor) until the limit or the last page. */
async function callsOf(context: IExecuteFunctions, run: NodeRun, itemIndex: number, ranges: Array<string | undefined>, qs: IDataObject, limit: number): Promise<IDataObject[]> {
	const calls: IDataObject[] = [];
	for (const created of ranges) {
		let pageQuery: IDataObject = { ...qs };
		if (created !== undefined) pageQuery.DateCreated = created;
		if (Number.isFinite(limit)) pageQuery.PageSize = Math.min(Number(qs.PageSize), limit);
		for (;;) {
			const response = await exotelRequest(context, run, { endpoint: CALLS.getMany, qs: pageQuery, itemIndex });
			const body = response.body as IDataObject;
			calls.push(...((body.Calls ?? []) as IDataObject[]));
			const next = (body.Metadata as IDataObject | undefined)?.NextPageUri;
			if (!next || calls.length >= limit) break;
			// The next page is the same query with the cursor the service gives in NextPageUri.
			pageQuery = Object.fromEntries(new URL(String(next), 'http://cursor.invalid').searchParams.entries());
			// With a limit, the last page asks only for the calls still wanted.
			if (Number.isFinite(limit)) pageQuery.PageSize = Math.min(Number(pageQuery.PageSize ?? qs.PageSize), limit - calls.length);
		}
		if (calls.length >= limit) break;
	}
	return calls.slice(0, limit).map(v1CallItem);
}

/** One query per item, its calls paged by cursor and split by month when Return All covers more. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const zones: DateZones = { workflow: this.getTimezone(), account: accountTimeZoneOf(await exotelCredentials(this, run, 'exotelApi')) };
	return await requestPerItem(
		this,
		items,
		(itemIndex) => {
			const returnAll = this.getNodeParameter('returnAll', itemIndex, false) === true;
			const callQuery = query(this, itemIndex, returnAll, zones);
			if (callQuery instanceof NodeOperationError) return callQuery;
			const limit = returnAll ? Infinity : Number(this.getNodeParameter('limit', itemIndex, 50));
			return { itemIndex, ranges: createdRanges(callQuery), qs: callQuery.qs, limit };
		},
		async ({ itemIndex, ranges, qs, limit }) => await callsOf(this, run, itemIndex, ranges, qs, limit),
	);
}
