/**
 * The query parameters the service appends to an applet's URL (call-flows.md): which ones each applet
 * gets, numbers in the national form, India wall-clock times, the end-time placeholder, the digits of
 * the latest Gather in literal double quotes. The call's state as the requests read it lives here too.
 */
import { nationalForm } from '../handlers/sms';
import { v1DateTime } from '../http';

/** tenant_id of every request (the sandbox account's, as the live service sends a number). */
export const CALL_FLOW_TENANT_ID = '40411';

/** flow_id when the flow gives no `id`. */
export const DEFAULT_FLOW_ID = '926';

/** EndTime while a call runs: a constant placeholder, India's epoch. */
export const END_TIME_PLACEHOLDER = '1970-01-01 05:30:00';

/** One dial attempt of a Connect: a leg. */
export interface Leg {
	/** E.164 (or sip:...). */
	number: string;
	status: 'completed' | 'no-answer' | 'busy';
	onCallSeconds: number;
	/** E.164: the caller id the callee saw. */
	callerId: string;
}

/** What the latest Connect did, as the next requests report it. */
export interface DialState {
	/** DialCallStatus: the answered leg's, else the last attempt's. */
	status: Leg['status'];
	/** DialWhomNumber: the number that answered, else the last one tried. */
	whom: string;
	durationSeconds: number;
	answered: boolean;
	legs: Leg[];
}

/** The call as the requests read it; the applets update digits, dial and the simulated clock. */
export interface CallState {
	callSid: string;
	from: string;
	to: string;
	customField?: string;
	flowId: string;
	startedAt: Date;
	/** Simulated time the call has spent talking (conversations are not waited for). */
	simulatedMs: number;
	/** What was pressed at the latest Gather ('' when nothing was), undefined before any. */
	digits?: string;
	dial?: DialState;
}

type Pairs = Array<[string, string]>;

const INDIAN = /^\+91(\d{10})$/;

/** `+918041234567` → `8041234567`: the same call gives `To` without the 0 that `CallTo` has. */
function localNumber(number: string): string {
	return INDIAN.exec(number)?.[1] ?? number;
}

/** A number as a URL's answer may write it (`09812340001`, `9812340001`, `919812340001`) in E.164; `sip:` and others as they are. */
export function e164Of(number: string): string {
	const n = number.trim();
	if (/^0\d{10}$/.test(n)) return `+91${n.slice(1)}`;
	if (/^[6-9]\d{9}$/.test(n)) return `+91${n}`;
	if (/^91\d{10}$/.test(n)) return `+${n}`;
	return n;
}

/** India wall clock `YYYY-MM-DD HH:mm:ss` (UTC+5:30 whatever the machine's zone). */
export function indiaTime(date: Date): string {
	return v1DateTime(date, true);
}

function callType(call: CallState): string {
	if (!call.dial) return 'call-attempt';
	return call.dial.answered ? 'completed' : 'incomplete';
}

function legPairs(legs: Leg[]): Pairs {
	return legs.flatMap((leg, i): Pairs => [
		[`Legs[${i}][Number]`, nationalForm(leg.number)],
		[`Legs[${i}][OnCallDuration]`, String(leg.onCallSeconds)],
		[`Legs[${i}][CallerId]`, nationalForm(leg.callerId)],
	]);
}

/** CallSid … To, the parameters of the Passthru and the classic Connect alike, in the notes' order. */
function callPairs(call: CallState, classic: boolean): Pairs {
	const pairs: Pairs = [['CallSid', call.callSid], ['CallFrom', nationalForm(call.from)], ['CallTo', nationalForm(call.to)]];
	// the classic Dial Whom URL's list has CallStatus; a call in its flow is in progress
	if (classic) pairs.push(['CallStatus', 'in-progress']);
	pairs.push(['Direction', 'incoming'], ['Created', indiaTime(call.startedAt)]);
	if (call.dial) pairs.push(['DialCallDuration', String(call.dial.durationSeconds)]);
	pairs.push(
		['StartTime', indiaTime(call.startedAt)],
		['EndTime', END_TIME_PLACEHOLDER],
		['CallType', callType(call)],
		['DialWhomNumber', call.dial ? nationalForm(call.dial.whom) : ''],
		['From', nationalForm(call.from)],
		['To', localNumber(call.to)],
	);
	return pairs;
}

function customField(call: CallState): Pairs {
	return call.customField === undefined ? [] : [['CustomField', call.customField]];
}

/** Passthru, programmable Connect and Gather: the call's parameters, what the latest Connect and Gather did. */
export function flowParams(call: CallState, now: Date = new Date()): Pairs {
	const pairs = callPairs(call, false);
	pairs.push(['CurrentTime', indiaTime(new Date(now.getTime() + call.simulatedMs))]);
	if (call.dial) pairs.push(['DialCallStatus', call.dial.status], ...legPairs(call.dial.legs));
	if (call.digits !== undefined) pairs.push(['digits', `"${call.digits}"`]);
	pairs.push(['flow_id', call.flowId], ['tenant_id', CALL_FLOW_TENANT_ID], ...customField(call));
	return pairs;
}

/** The classic Connect's Dial Whom URL: the notes' list (no CurrentTime, digits or flow ids). */
export function classicConnectParams(call: CallState): Pairs {
	return [...callPairs(call, true), ...customField(call)];
}

/** Greeting text from a URL: CallSid, From, To, DialWhomNumber, CustomField only. */
export function greetingParams(call: CallState): Pairs {
	return [
		['CallSid', call.callSid],
		['From', nationalForm(call.from)],
		['To', localNumber(call.to)],
		['DialWhomNumber', call.dial ? nationalForm(call.dial.whom) : ''],
		...customField(call),
	];
}

/** The applet's URL with the service's parameters as its query (a query it had is replaced; the path stays). */
export function withQuery(url: string, pairs: Pairs): string {
	const target = new URL(url);
	target.search = new URLSearchParams(pairs).toString();
	target.hash = '';
	return target.toString();
}
