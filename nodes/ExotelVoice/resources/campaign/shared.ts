import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../../../shared/limits';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, normalizePhone, valuesOf, type FieldCheck } from '../../../shared/validation';
import { idLocator } from '../../methods/locators';

const C = LIMITS.campaign;

const CAMPAIGN_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Dynamic', value: 'dynamic' },
	{ name: 'Static', value: 'static' },
];
const FLOW_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Greeting', value: 'greeting', description: 'Play a greeting (see Greeting Text)' },
	{ name: 'IVR', value: 'ivr', description: 'Run the call flow of Flow URL' },
];
const MODE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Auto', value: 'auto', description: 'The service paces the calls' },
	{ name: 'Custom', value: 'custom', description: 'Calls per minute set by Throttle' },
];
// an expression in a dropdown can yield anything: these are what the service takes
const CAMPAIGN_TYPE_VALUES = valuesOf(CAMPAIGN_TYPE_OPTIONS);
const FLOW_TYPE_VALUES = valuesOf(FLOW_TYPE_OPTIONS);
const MODE_VALUES = valuesOf(MODE_OPTIONS);

/**
 * Campaign endpoints live under `{base_url}/v2/accounts/<sid>/campaigns`. The spec shows the
 * method and path of create, list, update (PUT) and call details only; Get Campaign Details and
 * Delete Campaign are not shown, so the node uses GET and DELETE on `campaigns/<campaign_id>`.
 */
export const CAMPAIGNS_PATH = '/v2/accounts/{accountSid}/campaigns';

export const campaignPath = (campaignId: string) => `${CAMPAIGNS_PATH}/${encodeURIComponent(campaignId)}`;

/** The campaign, picked from the account or by ID; read it with `extractValue: true`. */
export const campaignIdField = (operations: string[]): INodeProperties =>
	idLocator({
		displayName: 'Campaign',
		name: 'campaignId',
		noun: 'campaign',
		searchListMethod: 'searchCampaigns',
		placeholder: 'a8c3f6e2d1b04c9e8f7a6b5c4d3e2f10',
		displayOptions: { show: { resource: ['campaign'], operation: operations } },
	});


const asObject = (value: unknown): IDataObject | undefined =>
	value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;

/**
 * The one object of a v2 answer, whichever envelope carries it: `response: [{code, status, data}]`
 * (create), `response: {code, status, data}`, `response: <object>` or the bare object.
 */
export function dataOf(body: unknown): IDataObject {
	const root = asObject(body) ?? {};
	const response = root.response;
	if (Array.isArray(response)) {
		const first = asObject(response[0]) ?? {};
		return asObject(first.data) ?? first;
	}
	const inner = asObject(response);
	if (inner) return asObject(inner.data) ?? inner;
	return root;
}

/** Entries of a v2 listing: `response: [object]` or `response: [{code, status, data}]`. */
export function itemsOf(body: unknown): IDataObject[] {
	const response = asObject(body)?.response;
	if (!Array.isArray(response)) return [];
	return response.map((entry) => {
		const object = asObject(entry) ?? {};
		return asObject(object.data) ?? object;
	});
}

/** `in-progress`, `InProgress`, `IN_PROGRESS` all read as `inprogress`. */
export const statusKey = (status: unknown) => String(status ?? '').toLowerCase().replace(/[^a-z]/g, '');

export async function getCampaign(context: IExecuteFunctions, campaignId: string, itemIndex: number): Promise<IDataObject> {
	const response = await exotelRequest.call(context, { base: 'base', method: 'GET', path: campaignPath(campaignId), itemIndex });
	return dataOf(response.body);
}

/**
 * Whether a campaign is past its `send_at`, after which only the three callbacks can change. A
 * campaign without `send_at` starts when created, so it is; so is one the service reports running
 * or finished.
 */
export function pastSendTime(campaign: IDataObject, now = Date.now()): { passed: boolean; sendAt?: string } {
	const sendAt = asObject(campaign.schedule)?.send_at;
	const status = statusKey(campaign.status);
	const running = ['inprogress', 'completed', 'archived', 'failed', 'canceled', 'cancelled', 'deleted'].includes(status);
	if (typeof sendAt !== 'string' || !sendAt) return { passed: true };
	const at = Date.parse(sendAt);
	return { passed: running || !Number.isFinite(at) || at <= now, sendAt };
}

// ---------------------------------------------------------------- dates

function offsetMinutes(timeZone: string, utcMs: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return Math.round((wall - utcMs) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An RFC 3339 date-time for the schedule. A value with an offset (or Z) is kept as given; a value
 * without one (what the date picker gives) is read in the workflow's time zone and gets its offset.
 */
export function toRfc3339(value: unknown, timeZone: string): string | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s = '00', fraction = '', zone] = match;
	const wall = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}`;
	if (zone) {
		const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
		return `${wall}${offset}`;
	}
	const guess = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
	if (!Number.isFinite(guess)) return undefined;
	let offset = offsetMinutes(timeZone, guess);
	offset = offsetMinutes(timeZone, guess - offset * 60_000);
	const sign = offset < 0 ? '-' : '+';
	const abs = Math.abs(offset);
	return `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// ---------------------------------------------------------------- parameters shared by create and update

const triggerHint = (callback: string) =>
	`Paste the Exotel Voice Trigger's URL here with ?callback=${callback} added, so the trigger knows which callback it got`;

/** Fields of Options (create) and Update Fields (update), in the service's terms. */
export function campaignOptions(forUpdate: boolean): INodeProperties[] {
	const options: INodeProperties[] = [
		{
			displayName: 'Call Duplicate Numbers',
			name: 'callDuplicateNumbers',
			type: 'boolean',
			default: false,
			description: 'Whether a number given more than once is called more than once',
		},
		{
			displayName: 'Call Schedule Callback URL',
			name: 'callScheduleCallback',
			type: 'string',
			default: '',
			placeholder: 'https://your-n8n.example.com/webhook/exotel-voice?callback=campaignCallSchedule',
			description: 'Webhook called for a number once all its retries are done',
			hint: triggerHint('campaignCallSchedule'),
		},
		{
			displayName: 'Call Status Callback URL',
			name: 'callStatusCallback',
			type: 'string',
			default: '',
			placeholder: 'https://your-n8n.example.com/webhook/exotel-voice?callback=campaignCallStatus',
			description: 'Webhook called with the status of each call',
			hint: triggerHint('campaignCallStatus'),
		},
		{
			displayName: 'Call Type',
			name: 'type',
			type: 'options',
			options: [{ name: 'Transactional', value: 'trans' }],
			default: 'trans',
		},
		{
			displayName: 'Custom Field',
			name: 'customField',
			type: 'string',
			default: '',
			description: 'Your own metadata for the application',
		},
		{
			displayName: 'End At',
			name: 'endAt',
			type: 'dateTime',
			default: '',
			description: 'When the campaign stops calling; read in the workflow time zone unless it carries an offset',
		},
		{
			displayName: 'Flow Type',
			name: 'flowType',
			type: 'options',
			options: FLOW_TYPE_OPTIONS,
			default: 'ivr',
		},
		{
			displayName: 'Flow URL',
			name: 'url',
			type: 'string',
			default: '',
			placeholder: 'http://my.exotel.com/acme1/exoml/start_voice/926',
			description: 'URL of the call flow; its app ID is in the dashboard app list',
		},
		{
			displayName: 'Greeting Text',
			name: 'readViaText',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Text read out to the callee; @@ColumnName inserts a column of a dynamic list',
		},
		{
			displayName: 'Mode',
			name: 'mode',
			type: 'options',
			options: MODE_OPTIONS,
			default: 'auto',
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: `At least ${C.nameMinLength} characters; the service makes one up when empty`,
		},
		{
			displayName: 'Repeat Menu Attempts',
			name: 'repeatMenuAttempts',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'How many times the IVR menu is repeated',
		},
		{
			displayName: 'Retries',
			name: 'retries',
			type: 'fixedCollection',
			default: {},
			placeholder: 'Add Retries',
			options: [
				{
					displayName: 'Settings',
					name: 'settings',
					values: [
						{
							displayName: 'Number of Retries',
							name: 'numberOfRetries',
							type: 'number',
							typeOptions: { minValue: 0, maxValue: C.retriesMax },
							default: 1,
							description: `From 0 to ${C.retriesMax}`,
						},
						{
							displayName: 'Interval (Minutes)',
							name: 'intervalMins',
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 10,
							description: 'Minutes between attempts',
						},
						{
							displayName: 'Mechanism',
							name: 'mechanism',
							type: 'options',
							options: [
								{ name: 'Exponential', value: 'Exponential', description: 'The interval doubles each time' },
								{ name: 'Linear', value: 'Linear', description: 'The same interval each time' },
							],
							default: 'Linear',
						},
						{
							displayName: 'Retry On',
							name: 'onStatus',
							type: 'multiOptions',
							options: [
								{ name: 'Busy', value: 'busy' },
								{ name: 'Failed', value: 'failed' },
								{ name: 'No Answer', value: 'no-answer' },
							],
							default: ['busy', 'no-answer'],
							description: 'Call outcomes that are retried',
						},
					],
				},
			],
		},
		{
			displayName: 'Send At',
			name: 'sendAt',
			type: 'dateTime',
			default: '',
			description: 'When the campaign starts calling (empty: at once); read in the workflow time zone unless it carries an offset',
			hint: 'After this time only the three callback URLs can be changed',
		},
		{
			displayName: 'Status Callback URL',
			name: 'statusCallback',
			type: 'string',
			default: '',
			placeholder: 'https://your-n8n.example.com/webhook/exotel-voice?callback=campaignStatus',
			description: 'Webhook called when the campaign completes',
			hint: triggerHint('campaignStatus'),
		},
		{
			displayName: 'Throttle (Calls per Minute)',
			name: 'throttle',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 10,
			description: 'Calls per minute, from 1 to the account limit minus 1; needs Mode set to Custom',
		},
	];
	if (!forUpdate) return options;
	const recipients: INodeProperties[] = [
		{
			displayName: 'Caller ID',
			name: 'callerId',
			type: 'string',
			default: '',
			placeholder: '+918047112233',
			description: 'Virtual number that places the calls',
		},
		{
			displayName: 'Campaign Type',
			name: 'campaignType',
			type: 'options',
			options: CAMPAIGN_TYPE_OPTIONS,
			default: 'static',
		},
		{
			displayName: 'List IDs',
			name: 'lists',
			type: 'string',
			default: '',
			description: `Replaces the numbers or lists called: list IDs separated by commas, at most ${C.listsStatic} (static) or ${C.listsDynamic} (dynamic)`,
		},
		{
			displayName: 'Numbers',
			name: 'from',
			type: 'string',
			default: '',
			description: `Replaces the numbers or lists called: numbers separated by commas or new lines, at most ${C.fromNumbers}`,
		},
	];
	return [...options, ...recipients].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The node's label of each body field, for messages that name them. */
export const FIELD_LABELS: Record<string, string> = {
	from: 'Numbers',
	lists: 'List IDs',
	caller_id: 'Caller ID',
	campaign_type: 'Campaign Type',
	flow_type: 'Flow Type',
	url: 'Flow URL',
	read_via_text: 'Greeting Text',
	name: 'Name',
	type: 'Call Type',
	call_duplicate_numbers: 'Call Duplicate Numbers',
	retries: 'Retries',
	send_at: 'Send At',
	end_at: 'End At',
	mode: 'Mode',
	throttle: 'Throttle',
	custom_field: 'Custom Field',
	repeat_menu_attempts: 'Repeat Menu Attempts',
};

/** The three fields that stay updatable after `send_at`. */
export const CALLBACK_FIELDS = ['status_callback', 'call_status_callback', 'call_schedule_callback'] as const;

/** Body fields other than the callbacks, by the node's labels (`schedule` by its parts). */
export function lockedFields(body: IDataObject): string[] {
	const names: string[] = [];
	for (const [field, value] of Object.entries(body)) {
		if ((CALLBACK_FIELDS as readonly string[]).includes(field)) continue;
		if (field === 'schedule') names.push(...Object.keys(value as IDataObject).map((part) => FIELD_LABELS[part] ?? part));
		else names.push(FIELD_LABELS[field] ?? field);
	}
	return names;
}

/** Entries of a list given as text (commas, semicolons, new lines) or as an array. */
export function entriesOf(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : String(value ?? '').split(/[,;\n]/);
	return entries.map((entry) => String(entry).trim()).filter(Boolean);
}

/** A parameter's text, trimmed; an expression that gave nothing (undefined, null) is empty. */
export const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/**
 * The JSON body of a create or an update from the node's values, in the spec's field names, and the
 * first problem with them (named by the node's labels). Only fields that were given are sent; empty
 * optional text is left out. Checks that need the campaign as it is (Mode and Throttle, the list
 * limit of its type) are left to `crossCheck` for an update.
 */
export function campaignBody(
	context: IExecuteFunctions,
	itemIndex: number,
	values: IDataObject,
	kind: 'create' | 'update',
): { body: IDataObject } | NodeOperationError {
	const node = context.getNode();
	const body: IDataObject = {};
	const checks: FieldCheck[] = [];
	const has = (name: string) => values[name] !== undefined;
	const campaignType = text(values.campaignType) || undefined;
	if (has('from') && has('lists')) {
		// The service calls numbers or lists, never both.
		return new NodeOperationError(node, `Give Numbers or List IDs, not both (item ${itemIndex})`, { itemIndex });
	}

	if (has('from')) {
		const numbers = entriesOf(values.from).map(normalizePhone);
		checks.push([numbers, { label: 'Numbers', required: true, maxItems: C.fromNumbers, format: 'phone' }]);
		body.from = numbers.join(',');
	}
	if (has('lists')) {
		const lists = entriesOf(values.lists);
		const dynamic = campaignType === 'dynamic';
		checks.push([
			lists,
			{
				label: `List IDs (${dynamic ? 'dynamic' : 'static'} campaign)`,
				required: true,
				maxItems: dynamic ? C.listsDynamic : C.listsStatic,
			},
		]);
		body.lists = lists;
	}
	if (kind === 'create' || text(values.callerId)) {
		body.caller_id = normalizePhone(text(values.callerId));
		checks.push([body.caller_id, { label: 'Caller ID', required: true }]);
	}
	if (campaignType) {
		body.campaign_type = campaignType;
		checks.push([campaignType, { label: 'Campaign Type', oneOf: CAMPAIGN_TYPE_VALUES }]);
	}
	if (has('flowType')) {
		body.flow_type = values.flowType;
		checks.push([values.flowType, { label: 'Flow Type', oneOf: FLOW_TYPE_VALUES }]);
	}
	if (text(values.url)) {
		body.url = text(values.url);
		checks.push([body.url, { label: 'Flow URL', format: 'url' }]);
	}
	if (text(values.readViaText)) body.read_via_text = String(values.readViaText);
	if (text(values.name)) {
		body.name = text(values.name);
		checks.push([body.name, { label: 'Name', minLength: C.nameMinLength }]);
	}
	if (has('type')) body.type = values.type;
	if (has('callDuplicateNumbers')) body.call_duplicate_numbers = values.callDuplicateNumbers === true;

	const retries = (values.retries as IDataObject | undefined)?.settings as IDataObject | undefined;
	if (retries) {
		const onStatus = Array.isArray(retries.onStatus) ? (retries.onStatus as string[]) : entriesOf(retries.onStatus);
		checks.push(
			[retries.numberOfRetries, { label: 'Number of Retries', required: true, integer: true, min: 0, max: C.retriesMax }],
			[retries.intervalMins, { label: 'Retry Interval (Minutes)', integer: true, min: 1 }],
			[retries.mechanism, { label: 'Retry Mechanism', oneOf: ['Linear', 'Exponential'] }],
			[onStatus, { label: 'Retry On', oneOf: ['busy', 'no-answer', 'failed'] }],
		);
		body.retries = {
			number_of_retries: Number(retries.numberOfRetries),
			...(retries.intervalMins !== undefined ? { interval_mins: Number(retries.intervalMins) } : {}),
			...(retries.mechanism !== undefined ? { mechanism: retries.mechanism } : {}),
			...(onStatus.length ? { on_status: onStatus } : {}),
		};
	}

	const timeZone = context.getTimezone();
	const schedule: IDataObject = {};
	for (const [name, field, label] of [
		['sendAt', 'send_at', 'Send At'],
		['endAt', 'end_at', 'End At'],
	] as const) {
		if (!text(values[name])) continue;
		const at = toRfc3339(values[name], timeZone);
		if (!at || !Number.isFinite(Date.parse(at))) {
			return new NodeOperationError(node, `${label} must be a date and time such as 2026-03-01T10:00:00+05:30 (got "${text(values[name])}") (item ${itemIndex})`, {
				itemIndex,
			});
		}
		schedule[field] = at;
	}
	if (schedule.send_at && schedule.end_at && Date.parse(String(schedule.end_at)) <= Date.parse(String(schedule.send_at))) {
		return new NodeOperationError(node, `End At must be after Send At (item ${itemIndex})`, { itemIndex });
	}
	if (Object.keys(schedule).length) body.schedule = schedule;

	for (const [name, field, label] of [
		['callStatusCallback', 'call_status_callback', 'Call Status Callback URL'],
		['callScheduleCallback', 'call_schedule_callback', 'Call Schedule Callback URL'],
		['statusCallback', 'status_callback', 'Status Callback URL'],
	] as const) {
		if (!text(values[name])) continue;
		body[field] = text(values[name]);
		checks.push([body[field], { label, format: 'url' }]);
	}

	if (has('mode')) {
		body.mode = values.mode;
		checks.push([values.mode, { label: 'Mode', oneOf: MODE_VALUES }]);
	}
	if (has('throttle')) {
		checks.push([values.throttle, { label: 'Throttle', integer: true, min: 1 }]);
		body.throttle = Number(values.throttle);
	}
	if (text(values.customField)) body.custom_field = String(values.customField);
	if (has('repeatMenuAttempts')) {
		checks.push([values.repeatMenuAttempts, { label: 'Repeat Menu Attempts', integer: true, min: 0 }]);
		body.repeat_menu_attempts = Number(values.repeatMenuAttempts);
	}

	const invalid = fieldsError(node, itemIndex, checks);
	if (invalid) return invalid;
	if (kind === 'create') {
		const problem = crossCheck(context, itemIndex, body, {});
		if (problem) return problem;
	}
	return { body };
}

/**
 * Rules between fields, checked with the campaign as it is for an update: a throttle only in
 * custom mode, custom mode only with a throttle, and the list limit of the campaign's type.
 */
export function crossCheck(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	current: IDataObject,
): NodeOperationError | undefined {
	const node = context.getNode();
	const mode = body.mode ?? current.mode ?? 'auto';
	const throttle = body.throttle ?? (body.mode === undefined ? current.throttle : undefined);
	if (body.throttle !== undefined && mode !== 'custom') {
		// The service takes a throttle only in custom mode.
		return new NodeOperationError(node, `Throttle needs Mode set to Custom (item ${itemIndex})`, { itemIndex });
	}
	if (mode === 'custom' && (throttle === undefined || throttle === null)) {
		return new NodeOperationError(node, `Mode Custom needs Throttle (calls per minute) (item ${itemIndex})`, { itemIndex });
	}
	if (Array.isArray(body.lists)) {
		const dynamic = (body.campaign_type ?? current.campaign_type) === 'dynamic';
		return fieldsError(node, itemIndex, [
			[body.lists, { label: `List IDs (${dynamic ? 'dynamic' : 'static'} campaign)`, maxItems: dynamic ? C.listsDynamic : C.listsStatic }],
		]);
	}
	return undefined;
}
