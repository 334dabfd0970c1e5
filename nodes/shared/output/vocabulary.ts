import type { IDataObject, INode, JsonObject, NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ItemOutcome } from '../items/outcomes';
import { parseServiceDate } from '../rules/validation';

/**
 * The package's one output vocabulary. Every item about a message (each send's result, each
 * messaging-trigger event) and every item about a call (connect, get, get many, details, campaign
 * call records, voice-trigger events) starts with the same keys, whichever channel or API it came
 * from, and keeps the service's own object, untouched, under `raw`. A failed item also carries
 * `error` (operation.ts), and `deliveryUnknown: true` when the service may have acted on it.
 */

export type Channel = 'sms' | 'rcs' | 'chatapp';

export interface MessageFields {
	messageSid: string | null;
	status: string | null;
	channel: string;
	to: string | null;
	from: string | null;
	code: number | string | null;
}

export interface CallFields {
	callSid: string | null;
	status: string | null;
	from: string | null;
	to: string | null;
	direction: string | null;
	startTime: string | null;
	endTime: string | null;
	duration: number | null;
	recordingUrl: string | null;
}

/** A value as text, with absent and empty both null. */
export function textOf(value: unknown): string | null {
	return value === undefined || value === null || value === '' ? null : String(value);
}

/** Seconds as a number (the v1 API sends them as text), null when absent or not a number. */
export function secondsOf(value: unknown): number | null {
	if (value === undefined || value === null || value === '') return null;
	const seconds = Number(value);
	return Number.isFinite(seconds) ? seconds : null;
}

/** A service code as the service wrote it (a number in most answers, text in some callbacks). */
export function codeOf(value: unknown): number | string | null {
	return value === undefined || value === null || value === '' ? null : (value as number | string);
}

/** The vocabulary first, then what is particular to the operation or event, then the service's object. */
export function messageItem(fields: MessageFields, raw: unknown, extra: IDataObject = {}): IDataObject {
	return { ...fields, ...extra, raw: (raw ?? null) as IDataObject };
}

export function callItem(fields: Partial<CallFields>, raw: unknown, extra: IDataObject = {}): IDataObject {
	const call: CallFields = {
		callSid: null,
		status: null,
		from: null,
		to: null,
		direction: null,
		startTime: null,
		endTime: null,
		duration: null,
		recordingUrl: null,
		...fields,
	};
	return { ...call, ...extra, raw: (raw ?? null) as IDataObject };
}

/** A v1 Call object (connect, get, get many); `Details` (legs) adds the conversation duration. */
export function v1CallItem(call: IDataObject): IDataObject {
	const details = call.Details as IDataObject | undefined;
	return callItem(
		{
			callSid: textOf(call.Sid),
			status: textOf(call.Status),
			from: textOf(call.From),
			to: textOf(call.To),
			direction: textOf(call.Direction),
			startTime: textOf(call.StartTime),
			endTime: textOf(call.EndTime),
			duration: secondsOf(call.Duration),
			recordingUrl: textOf(call.RecordingUrl),
		},
		call,
		details && typeof details === 'object' ? { conversationDuration: secondsOf(details.ConversationDuration) } : {},
	);
}

/**
 * A call's legs in the status callback's words, whoever told them: `OnCallDuration` in seconds (a
 * number), `Status` and `AnsweredBy` as text, null where not told.
 */
export function callLegs(legs: IDataObject[]): IDataObject[] {
	return legs.map((leg) => ({ OnCallDuration: secondsOf(leg.OnCallDuration), Status: textOf(leg.Status), AnsweredBy: textOf(leg.AnsweredBy) }));
}

/**
 * The legs of a call's details (`details=true`: `Legs[i].Leg.OnCallDuration`, `Leg1Status`,
 * `Leg2Status`) in the callback's words; the details do not say who answered.
 */
export function detailLegs(details: IDataObject | undefined): IDataObject[] {
	const legs = Array.isArray(details?.Legs) ? (details.Legs as IDataObject[]) : [];
	return callLegs(
		legs.map((entry, index) => ({
			OnCallDuration: (entry?.Leg as IDataObject | undefined)?.OnCallDuration,
			Status: details?.[`Leg${index + 1}Status`],
		})),
	);
}

/**
 * A v1 call status callback (form fields, `Legs[i][...]` already nested): where a Voice Trigger's
 * callStatus event and a call waited on both come from.
 */
export function callStatusItem(payload: IDataObject): IDataObject {
	const legs = callLegs(Array.isArray(payload.Legs) ? (payload.Legs as IDataObject[]) : []);
	// The callback has no Duration: the call's is from its start to its end, when both are given.
	const start = parseServiceDate(String(payload.StartTime ?? ''));
	const end = parseServiceDate(String(payload.EndTime ?? ''));
	return callItem(
		{
			callSid: textOf(payload.CallSid),
			status: textOf(payload.Status),
			from: textOf(payload.From),
			to: textOf(payload.To),
			direction: textOf(payload.Direction),
			startTime: textOf(payload.StartTime),
			endTime: textOf(payload.EndTime),
			duration: start !== undefined && end !== undefined && end >= start ? (end - start) / 1000 : null,
			recordingUrl: textOf(payload.RecordingUrl),
		},
		payload,
		{
			eventType: textOf(payload.EventType),
			conversationDuration: secondsOf(payload.ConversationDuration),
			customField: textOf(payload.CustomField),
			answeredBy: legs.map((leg) => leg.AnsweredBy),
			legs,
		},
	);
}

/**
 * A contact-center management API call status callback. `status` is the call's status (call_status, or status in
 * the second call_details shape), as Get Details gives it; the callback's call_state (active, terminal) is `state`,
 * as there too.
 */
export function managementCallItem(payload: IDataObject): IDataObject {
	return callItem(
		{
			callSid: textOf(payload.call_sid),
			status: textOf(payload.call_status ?? payload.status),
			duration: secondsOf(payload.duration),
			recordingUrl: textOf(payload.recording_url),
		},
		payload,
		{ eventType: textOf(payload.event_type), state: textOf(payload.call_state ?? payload.state) },
	);
}

/** A campaign callback, or any payload the Voice Trigger passes on: the call it names, the number called (`number`), the campaign. */
export function campaignCallItem(payload: IDataObject): IDataObject {
	return callItem(
		{ callSid: textOf(payload.call_sid), from: textOf(payload.from), to: textOf(payload.number ?? payload.to), status: textOf(payload.status) },
		payload,
		{ campaignSid: textOf(payload.campaign_sid ?? payload.id) },
	);
}

/**
 * A send's status on every channel: `failed` for any message the service refused (SMS `failed`,
 * `failed-dnd`; RCS and chat-app `failure`), `accepted` for an RCS or chat-app `success`, and the
 * SMS words (`queued`, `sending`, `submitted`, `sent`) as they are.
 */
export function sendStatusOf(status: unknown): string | null {
	const value = textOf(status)?.toLowerCase() ?? null;
	if (value === null) return null;
	if (value.startsWith('fail')) return 'failed';
	if (value === 'success') return 'accepted';
	return value;
}

/** A message the service did not answer for: only what was sent is known. */
function unanswered(channel: Channel, sent: { to?: unknown; from?: unknown }, mayHaveReached: boolean): IDataObject {
	const fields = { messageSid: null, status: mayHaveReached ? 'unknown' : 'failed', channel, to: textOf(sent.to), from: textOf(sent.from), code: null };
	return { ...messageItem(fields, null), ...(mayHaveReached ? { deliveryUnknown: true } : {}) };
}

/**
 * The items of messages whose request failed as a whole: every one shares the cause, and its
 * status is `unknown` (with `deliveryUnknown: true`) when the service may have acted on it.
 */
export function unsentMessages(
	channel: Channel,
	messages: Array<{ itemIndex: number; to: unknown; from: unknown }>,
	error: NodeApiError | NodeOperationError,
): ItemOutcome[] {
	const mayHaveReached = (error as { context?: IDataObject }).context?.deliveryUnknown === true;
	return messages.map(({ itemIndex, to, from }) => ({ itemIndex, json: unanswered(channel, { to, from }, mayHaveReached), error }));
}

/**
 * The item of a message the service's answer has no entry for, with the error that says so.
 * `shortfall` names the answer and what it lacked ("The envelope had fewer entries").
 */
export function unansweredEntry(
	node: INode,
	channel: Channel,
	itemIndex: number,
	sent: { to?: unknown; from?: unknown },
	shortfall: string,
	extra: IDataObject = {},
): ItemOutcome {
	return {
		itemIndex,
		json: { ...unanswered(channel, sent, true), ...extra },
		error: new NodeApiError(node, {}, {
			message: 'The service answered without an entry for this message',
			description: `${shortfall} than messages sent; the message may or may not have been accepted.`,
			itemIndex,
		}),
	};
}

/**
 * The item of a message the service refused (its `status` is `failed`): the keys above, and an
 * error giving the service's reason with its entry (the item's `raw`) as the response.
 */
export function refusedEntry(
	node: INode,
	itemIndex: number,
	json: IDataObject,
	refusal: { reason: string; description: string; httpCode: string },
): ItemOutcome {
	return {
		itemIndex,
		json,
		error: new NodeApiError(node, { ...(json.raw as JsonObject) }, {
			message: `Message not accepted: ${refusal.reason}`,
			description: refusal.description,
			httpCode: refusal.httpCode,
			itemIndex,
		}),
	};
}
