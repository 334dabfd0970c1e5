import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, normalizePhone, trimmed, type FieldCheck, type FieldRule } from '../../../shared/rules/validation';
import { toRfc3339 } from './dates';
import { CAMPAIGN_TYPE_OPTIONS, FLOW_TYPE_OPTIONS, MODE_OPTIONS } from './fields';

const C = LIMITS.campaign;

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

/** A part of the body (its fields in the spec's order) and the checks of its values. */
interface BodyPart {
	body: IDataObject;
	checks: FieldCheck[];
}

/** The list limit of a campaign's type: 5 lists for a static campaign, 1 for a dynamic one. */
const listsRule = (dynamic: boolean): FieldRule => ({
	label: `List IDs (${dynamic ? 'dynamic' : 'static'} campaign)`,
	maxItems: dynamic ? C.listsDynamic : C.listsStatic,
});

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
	if (values.from !== undefined && values.lists !== undefined) {
		// The service calls numbers or lists, never both.
		return new NodeOperationError(node, `Give Numbers or List IDs, not both (item ${itemIndex})`, { itemIndex });
	}
	// a date that is not one is told before the other fields' problems
	const schedule = scheduleOf(values, context.getTimezone());
	if (typeof schedule === 'string') return new NodeOperationError(node, `${schedule} (item ${itemIndex})`, { itemIndex });

	const parts = [
		recipientsOf(values),
		campaignOf(values, kind),
		retriesOf(values),
		schedule,
		callbacksOf(values),
		pacingOf(values),
	];
	const body: IDataObject = {};
	for (const part of parts) Object.assign(body, part.body);
	const invalid = fieldsError(node, itemIndex, parts.flatMap((part) => part.checks));
	if (invalid) return invalid;
	if (kind === 'create') {
		const problem = crossCheck(context, itemIndex, body, {});
		if (problem) return problem;
	}
	return { body };
}

/** `from` (the numbers called, sent as digits) or `lists` (the lists called, at most the limit of the campaign's type). */
function recipientsOf(values: IDataObject): BodyPart {
	const part: BodyPart = { body: {}, checks: [] };
	if (values.from !== undefined) {
		const typed = entriesOf(values.from);
		part.checks.push([typed, { label: 'Numbers', required: true, maxItems: C.fromNumbers, format: 'phone' }]);
		part.body.from = typed.map(normalizePhone).join(',');
	}
	if (values.lists !== undefined) {
		const lists = entriesOf(values.lists);
		part.checks.push([lists, { ...listsRule(trimmed(values.campaignType) === 'dynamic'), required: true }]);
		part.body.lists = lists;
	}
	return part;
}

/** The campaign's own fields: `caller_id` (always on a create), `campaign_type`, the flow, `name`, `type`, `call_duplicate_numbers`. */
function campaignOf(values: IDataObject, kind: 'create' | 'update'): BodyPart {
	const body: IDataObject = {};
	const checks: FieldCheck[] = [];
	if (kind === 'create' || trimmed(values.callerId)) {
		body.caller_id = normalizePhone(trimmed(values.callerId));
		checks.push([body.caller_id, { label: 'Caller ID', required: true }]);
	}
	if (trimmed(values.campaignType)) {
		body.campaign_type = trimmed(values.campaignType);
		checks.push([body.campaign_type, { label: 'Campaign Type', choices: CAMPAIGN_TYPE_OPTIONS }]);
	}
	if (values.flowType !== undefined) {
		body.flow_type = values.flowType;
		checks.push([values.flowType, { label: 'Flow Type', choices: FLOW_TYPE_OPTIONS }]);
	}
	if (trimmed(values.url)) {
		body.url = trimmed(values.url);
		checks.push([body.url, { label: 'Flow URL', format: 'url' }]);
	}
	if (trimmed(values.readViaText)) body.read_via_text = String(values.readViaText);
	if (trimmed(values.name)) {
		body.name = trimmed(values.name);
		checks.push([body.name, { label: 'Name', minLength: C.nameMinLength }]);
	}
	if (values.type !== undefined) body.type = values.type;
	if (values.callDuplicateNumbers !== undefined) body.call_duplicate_numbers = values.callDuplicateNumbers === true;
	return { body, checks };
}

/** `retries` from the Retries settings: how many, the interval, the mechanism and the call outcomes retried. */
function retriesOf(values: IDataObject): BodyPart {
	const retries = (values.retries as IDataObject | undefined)?.settings as IDataObject | undefined;
	if (!retries) return { body: {}, checks: [] };
	const onStatus = Array.isArray(retries.onStatus) ? (retries.onStatus as string[]) : entriesOf(retries.onStatus);
	const checks: FieldCheck[] = [
		[retries.numberOfRetries, { label: 'Number of Retries', required: true, integer: true, min: 0, max: C.retriesMax }],
		[retries.intervalMins, { label: 'Retry Interval (Minutes)', integer: true, min: 1 }],
		[retries.mechanism, { label: 'Retry Mechanism', oneOf: ['Linear', 'Exponential'] }],
		[onStatus, { label: 'Retry On', oneOf: ['busy', 'no-answer', 'failed'] }],
	];
	const body: IDataObject = {
		retries: {
			number_of_retries: Number(retries.numberOfRetries),
			...(retries.intervalMins !== undefined ? { interval_mins: Number(retries.intervalMins) } : {}),
			...(retries.mechanism !== undefined ? { mechanism: retries.mechanism } : {}),
			...(onStatus.length ? { on_status: onStatus } : {}),
		},
	};
	return { body, checks };
}

/**
 * `schedule`: Send At and End At in RFC 3339, read in the workflow's time zone unless they carry an
 * offset; or the problem with them (not a date, or End At not after Send At).
 */
function scheduleOf(values: IDataObject, timeZone: string): BodyPart | string {
	const schedule: IDataObject = {};
	for (const [name, field, label] of [
		['sendAt', 'send_at', 'Send At'],
		['endAt', 'end_at', 'End At'],
	] as const) {
		if (!trimmed(values[name])) continue;
		const at = toRfc3339(values[name], timeZone);
		if (!at || !Number.isFinite(Date.parse(at))) {
			return `${label} must be a date and time such as 2026-03-01T10:00:00+05:30 (got "${trimmed(values[name])}")`;
		}
		schedule[field] = at;
	}
	if (schedule.send_at && schedule.end_at && Date.parse(String(schedule.end_at)) <= Date.parse(String(schedule.send_at))) {
		return 'End At must be after Send At';
	}
	return { body: Object.keys(schedule).length ? { schedule } : {}, checks: [] };
}

/** The three callback URLs, the fields that stay updatable after `send_at`. */
function callbacksOf(values: IDataObject): BodyPart {
	const part: BodyPart = { body: {}, checks: [] };
	for (const [name, field, label] of [
		['callStatusCallback', 'call_status_callback', 'Call Status Callback URL'],
		['callScheduleCallback', 'call_schedule_callback', 'Call Schedule Callback URL'],
		['statusCallback', 'status_callback', 'Status Callback URL'],
	] as const) {
		if (!trimmed(values[name])) continue;
		part.body[field] = trimmed(values[name]);
		part.checks.push([part.body[field], { label, format: 'url' }]);
	}
	return part;
}

/** How fast the calls go (`mode`, `throttle` in calls per minute), then `custom_field` and `repeat_menu_attempts`. */
function pacingOf(values: IDataObject): BodyPart {
	const body: IDataObject = {};
	const checks: FieldCheck[] = [];
	if (values.mode !== undefined) {
		body.mode = values.mode;
		checks.push([values.mode, { label: 'Mode', choices: MODE_OPTIONS }]);
	}
	if (values.throttle !== undefined) {
		checks.push([values.throttle, { label: 'Throttle', integer: true, min: 1 }]);
		body.throttle = Number(values.throttle);
	}
	if (trimmed(values.customField)) body.custom_field = String(values.customField);
	if (values.repeatMenuAttempts !== undefined) {
		checks.push([values.repeatMenuAttempts, { label: 'Repeat Menu Attempts', integer: true, min: 0 }]);
		body.repeat_menu_attempts = Number(values.repeatMenuAttempts);
	}
	return { body, checks };
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
		return fieldsError(node, itemIndex, [[body.lists, listsRule(dynamic)]]);
	}
	return undefined;
}
