import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, normalizePhone, trimmed, type FieldCheck } from '../../../shared/rules/validation';
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
	const campaignType = trimmed(values.campaignType) || undefined;
	if (has('from') && has('lists')) {
		// The service calls numbers or lists, never both.
		return new NodeOperationError(node, `Give Numbers or List IDs, not both (item ${itemIndex})`, { itemIndex });
	}

	if (has('from')) {
		const typed = entriesOf(values.from);
		const numbers = typed.map(normalizePhone);
		checks.push([typed, { label: 'Numbers', required: true, maxItems: C.fromNumbers, format: 'phone' }]);
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
	if (kind === 'create' || trimmed(values.callerId)) {
		body.caller_id = normalizePhone(trimmed(values.callerId));
		checks.push([body.caller_id, { label: 'Caller ID', required: true }]);
	}
	if (campaignType) {
		body.campaign_type = campaignType;
		checks.push([campaignType, { label: 'Campaign Type', choices: CAMPAIGN_TYPE_OPTIONS }]);
	}
	if (has('flowType')) {
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
		if (!trimmed(values[name])) continue;
		const at = toRfc3339(values[name], timeZone);
		if (!at || !Number.isFinite(Date.parse(at))) {
			return new NodeOperationError(node, `${label} must be a date and time such as 2026-03-01T10:00:00+05:30 (got "${trimmed(values[name])}") (item ${itemIndex})`, {
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
		if (!trimmed(values[name])) continue;
		body[field] = trimmed(values[name]);
		checks.push([body[field], { label, format: 'url' }]);
	}

	if (has('mode')) {
		body.mode = values.mode;
		checks.push([values.mode, { label: 'Mode', choices: MODE_OPTIONS }]);
	}
	if (has('throttle')) {
		checks.push([values.throttle, { label: 'Throttle', integer: true, min: 1 }]);
		body.throttle = Number(values.throttle);
	}
	if (trimmed(values.customField)) body.custom_field = String(values.customField);
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
