/**
 * Voice: connect a number to a call flow (v1, form), one call and the bulk call query (v1), call
 * details of the contact-center management API (ccm, shapes A and B), voice logs (v3) and the
 * signed recording URLs they hand out (served without auth under `/__recordings/`).
 *
 * Calls are kept in `state.calls`: SANDBOX_SEEDED_CALLS seeded on first use after a reset (over
 * the last weeks, relative to that moment), plus every call placed with Calls/connect. A placed
 * call is `in-progress` until its simulated end (× timeScale), then takes the outcome that the
 * last digits of its From number choose (SANDBOX_CALL_RULES); its status callbacks go through the
 * callback dispatcher (loopback URLs only).
 */
import { createHash, createHmac } from 'crypto';

import type { CallStatusReport } from '../callbacks';
import { isoWithOffset } from '../callbacks';
import { SANDBOX_ACCOUNT, SANDBOX_REFUSED_CALLER } from '../fixtures';
import {
	fail,
	FormShapeError,
	FormValue,
	firstQueryValue,
	INDIA_OFFSET_MINUTES,
	indexedEntries,
	isFormObject,
	isFormType,
	isoTimestamp,
	json,
	nestForm,
	randomHex,
	v1DateTime,
} from '../http';
import type { SandboxState } from '../state';
import type { CallOutcome, StoredCall, StoredCallLeg } from '../stored';
import type { Reply, RequestContext, RouteDefinition } from '../types';
import { ccmUsersOf, userPhone } from './users';

// ---------------------------------------------------------------- data

export const SANDBOX_SEEDED_CALLS = 230;

/** Virtual numbers of the account (PhoneNumberSid of the seeded calls). */
export const SANDBOX_VIRTUAL_NUMBERS: readonly string[] = ['+918047112233', '+918047112234', '+912247110000'];

/** Customer numbers of the seeded calls: `+9199887000` + 01..12. */
export const SANDBOX_CALL_CUSTOMERS: readonly string[] = Array.from({ length: 12 }, (_, i) => `+9199887000${String(i + 1).padStart(2, '0')}`);

/**
 * Outcome of a call placed with Calls/connect, by the last four digits of From (whitespace removed):
 * `0011` → no-answer (rings TimeOut seconds, default 30), `0022` → busy (after 3 s), `0033` → failed
 * (after 1 s); any other → answered after 5 s, talks min(30, TimeLimit) seconds, completed, recorded.
 * Two more play the callbacks' edge cases: `0044` fails at once and posts its terminal status
 * callback before the connect is answered (so it reaches a waiting execution before n8n has saved
 * it, and n8n answers 409); `0055` is completed as usual but its status callbacks are lost (never
 * posted). The service does not send call callbacks again in either case.
 */
export const SANDBOX_CALL_RULES = { noAnswerSuffix: '0011', busySuffix: '0022', failedSuffix: '0033', racingSuffix: '0044', lostSuffix: '0055' } as const;

/** Simulated seconds of a placed call (multiplied by timeScale for the real clock and the callbacks). */
export const CALL_TIMING = { answerAfterS: 5, talkS: 30, defaultRingS: 30, busyAfterS: 3, failedAfterS: 1 } as const;

/** A call sid starting with this character is answered in shape B by the management API, any other in shape A. */
export const SHAPE_B_PREFIX = 'b';

export const CALLS_PAGE_SIZE = { default: 50, max: 100 } as const;
/** The spec's window in calendar months: 6 back, 1 per request (Nov 24 → May 24; Jan 31 + 1 → Feb 28). */
export const CALL_QUERY_LIMITS = { sids: 100, numbers: 5, historyMonths: 6, rangeMonths: 1 } as const;
export const RECORDING_URL_VALIDITY = { min: 5, max: 60, default: 60 } as const;
export const TIME_LIMIT_MAX = 14400;

const PHONE = /^\+?\d{6,15}$/;
const E164 = /^\+[1-9]\d{7,14}$/;
const DAY_MS = 86_400_000;

/** The same wall-clock time `months` calendar months later (earlier if negative), kept inside the month. */
export function addCalendarMonths(ms: number, months: number): number {
	const d = new Date(ms);
	const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
	target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
	return target.getTime() + (ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

export function callOutcomeFor(from: string): CallOutcome {
	const n = from.replace(/\s+/g, '');
	if (n.endsWith(SANDBOX_CALL_RULES.noAnswerSuffix)) return 'no-answer';
	if (n.endsWith(SANDBOX_CALL_RULES.busySuffix)) return 'busy';
	if (n.endsWith(SANDBOX_CALL_RULES.failedSuffix) || n.endsWith(SANDBOX_CALL_RULES.racingSuffix)) return 'failed';
	return 'completed';
}

const priceOf = (outcome: CallOutcome, seconds: number) => (outcome === 'completed' ? (Math.ceil(seconds / 60) * 0.5).toFixed(2) : '0.00');

function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Seeded sid i: 32 hex, every fifth one starting with `b` (shape B), the others never. */
export function seededCallSid(i: number): string {
	const h = createHash('sha256').update(`sandbox-call-${i}`).digest('hex').slice(0, 32);
	if (i % 5 === 0) return `${SHAPE_B_PREFIX}${h.slice(1)}`;
	return h[0] === SHAPE_B_PREFIX ? `a${h.slice(1)}` : h;
}

/**
 * The seeded calls, newest first: the newest 15 minutes before `now`, then 2 to 6 hours apart
 * (about 38 days back). Directions cycle inbound, outbound-api, outbound-dial; outcomes are about
 * 70 % completed, 12 % no-answer, 10 % busy, 8 % failed; most completed calls have a recording.
 */
export function seedCalls(now: number): StoredCall[] {
	const rng = mulberry32(2026);
	const pick = <T>(list: readonly T[]) => list[Math.floor(rng() * list.length)];
	const calls: StoredCall[] = [];
	// Whole seconds, as DateCreated shows them, so a DateCreated bound equal to a call's date includes it.
	let at = Math.floor((now - 15 * 60_000) / 1000) * 1000;
	for (let i = 0; i < SANDBOX_SEEDED_CALLS; i++) {
		if (i > 0) at -= Math.round((2 + rng() * 4) * 3600) * 1000;
		const direction = (['inbound', 'outbound-api', 'outbound-dial'] as const)[i % 3];
		const roll = rng();
		const outcome: CallOutcome = roll < 0.7 ? 'completed' : roll < 0.82 ? 'no-answer' : roll < 0.92 ? 'busy' : 'failed';
		const virtual = pick(SANDBOX_VIRTUAL_NUMBERS);
		const customer = pick(SANDBOX_CALL_CUSTOMERS);
		const agentN = 1 + Math.floor(rng() * 120);
		const agent = userPhone(agentN);
		const inbound = direction === 'inbound';
		const agentMissed = outcome === 'no-answer' && !inbound && rng() < 0.3;
		let answeredAfter: number | null = null;
		let endedAfter: number;
		const legs: StoredCallLeg[] = [];
		if (outcome === 'completed') {
			answeredAfter = 3 + Math.floor(rng() * 13);
			const talk = 10 + Math.floor(rng() * 590);
			endedAfter = answeredAfter + talk;
			legs.push({ status: 'completed', onCallDuration: endedAfter, answeredBy: 'NA' });
			legs.push({ status: 'completed', onCallDuration: talk, answeredBy: rng() < 0.9 ? 'Human' : 'Machine' });
		} else if (outcome === 'no-answer') {
			endedAfter = 30 + Math.floor(rng() * 16);
			legs.push({ status: agentMissed ? 'no-answer' : 'completed', onCallDuration: agentMissed ? 0 : endedAfter, answeredBy: 'NA' });
			if (!agentMissed) legs.push({ status: 'no-answer', onCallDuration: 0, answeredBy: 'NA' });
		} else if (outcome === 'busy') {
			endedAfter = 2 + Math.floor(rng() * 4);
			legs.push({ status: 'completed', onCallDuration: endedAfter, answeredBy: 'NA' });
			legs.push({ status: 'busy', onCallDuration: 0, answeredBy: 'NA' });
		} else {
			endedAfter = Math.floor(rng() * 2);
			legs.push({ status: 'failed', onCallDuration: 0, answeredBy: 'NA' });
		}
		calls.push({
			sid: seededCallSid(i),
			accountSid: SANDBOX_ACCOUNT.accountSid,
			parentCallSid: null,
			from: inbound ? customer : agent,
			to: inbound ? virtual : customer,
			phoneNumberSid: virtual,
			direction,
			createdAt: at,
			outcome,
			answeredAfter,
			endedAfter,
			endsAt: 0,
			price: priceOf(outcome, endedAfter),
			recording: outcome === 'completed' && i % 9 !== 4,
			answeredBy: outcome === 'completed' ? legs[1].answeredBy as 'Human' | 'Machine' : null,
			legs,
			agentFirst: !inbound,
			agentUserId: `user-${agentN}`,
			customField: direction === 'outbound-api' ? `order-${1000 + i}` : undefined,
		});
	}
	return calls;
}

/** The calls of the account, seeded on first use after a reset. */
export function callsOf(state: SandboxState): Map<string, StoredCall> {
	if (!state.callsSeeded) {
		state.callsSeeded = true;
		for (const call of seedCalls(Date.now())) state.calls.set(call.sid, call);
	}
	return state.calls;
}

// ---------------------------------------------------------------- recordings

/** Key of the sandbox's recording URL signatures (HMAC-SHA256 over `sid|format|channel|expires`). */
const RECORDING_SIGNING_KEY = 'sbx-recording-url-key';

export type RecordingFormat = 'mp3' | 'wav';
export type RecordingChannel = 'single' | 'dual';

export function recordingSignature(sid: string, format: string, channel: string, expires: number | string): string {
	return createHmac('sha256', RECORDING_SIGNING_KEY).update(`${sid}|${format}|${channel}|${expires}`).digest('hex');
}

/** `<origin>/__recordings/<sid>.<format>?channel=&expires=<epoch s>&sig=` (no auth; 403 once expired). */
export function recordingUrl(origin: string, sid: string, format: RecordingFormat, channel: RecordingChannel, expires: number): string {
	const query = new URLSearchParams({ channel, expires: String(expires), sig: recordingSignature(sid, format, channel, expires) });
	return `${origin}/__recordings/${sid}.${format}?${query.toString()}`;
}

/**
 * The bytes served for a recording: deterministic, a placeholder of one second rather than the
 * whole call. wav: a valid RIFF header (8 kHz, 8-bit PCM, 1 or 2 channels) and 8000 bytes per
 * channel; mp3: an empty ID3v2.4 tag and 4000 bytes per channel.
 */
export function recordingBytes(sid: string, format: RecordingFormat, channel: RecordingChannel): Buffer {
	const channels = channel === 'dual' ? 2 : 1;
	const size = (format === 'wav' ? 8000 : 4000) * channels;
	const chunks: Buffer[] = [];
	let block = createHash('sha256').update(`${sid}|${format}|${channel}`).digest();
	for (let total = 0; total < size; total += block.length) {
		chunks.push(block);
		block = createHash('sha256').update(block).digest();
	}
	const data = Buffer.concat(chunks).subarray(0, size);
	if (format === 'mp3') return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), data]);
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + size, 4);
	header.write('WAVE', 8, 'ascii');
	header.write('fmt ', 12, 'ascii');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20);
	header.writeUInt16LE(channels, 22);
	header.writeUInt32LE(8000, 24);
	header.writeUInt32LE(8000 * channels, 28);
	header.writeUInt16LE(channels, 32);
	header.writeUInt16LE(8, 34);
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(size, 40);
	return Buffer.concat([header, data]);
}

export const RECORDING_CONTENT_TYPE: Record<RecordingFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' };

function s3Error(status: number, code: string, message: string): Reply {
	return {
		status,
		body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
		contentType: 'application/xml',
	};
}

// ---------------------------------------------------------------- views

const ended = (call: StoredCall, now: number) => now >= call.endsAt;
const simulated = (call: StoredCall, seconds: number) => new Date(call.createdAt + seconds * 1000);
const conversationOf = (call: StoredCall) => (call.answeredAfter === null ? 0 : call.endedAfter - call.answeredAfter);

/** Simulated seconds since the start, never past the end. */
function elapsedOf(call: StoredCall, now: number, timeScale: number): number {
	if (ended(call, now)) return call.endedAfter;
	if (timeScale <= 0) return call.endedAfter;
	return Math.min(call.endedAfter, Math.floor((now - call.createdAt) / timeScale / 1000));
}

interface V1Options {
	origin: string;
	validityMinutes: number;
	details?: boolean;
	uri?: boolean;
	/** live mode: dates in India wall-clock time */
	live?: boolean;
}

/** A v1 Call object, every field (Uri on connect, Details with details=true). */
export function v1CallView(call: StoredCall, now: number, options: V1Options): Record<string, unknown> {
	const done = ended(call, now);
	const v1Date = (date: Date) => v1DateTime(date, options.live === true);
	const end = done ? v1Date(simulated(call, call.endedAfter)) : null;
	const view: Record<string, unknown> = {
		Sid: call.sid,
		ParentCallSid: call.parentCallSid,
		DateCreated: v1Date(new Date(call.createdAt)),
		DateUpdated: end ?? v1Date(new Date(call.createdAt)),
		AccountSid: call.accountSid,
		To: call.to,
		From: call.from,
		PhoneNumberSid: call.phoneNumberSid,
		Status: done ? call.outcome : 'in-progress',
		StartTime: v1Date(new Date(call.createdAt)),
		EndTime: end,
		Duration: done ? String(call.endedAfter) : null,
		Price: done ? call.price : null,
		Direction: call.direction,
		AnsweredBy: done ? call.answeredBy : null,
		RecordingUrl:
			done && call.recording
				? recordingUrl(options.origin, call.sid, 'mp3', 'single', Math.floor(now / 1000) + options.validityMinutes * 60)
				: null,
	};
	if (options.uri) view.Uri = `/v1/Accounts/${call.accountSid}/Calls.json/${call.sid}`;
	if (options.details) {
		view.Details = done
			? {
					ConversationDuration: conversationOf(call),
					Leg1Status: call.legs[0]?.status ?? null,
					Leg2Status: call.legs[1]?.status ?? null,
					Legs: call.legs.map((leg, i) => ({ Leg: { Id: i + 1, OnCallDuration: leg.onCallDuration } })),
				}
			: { ConversationDuration: 0, Leg1Status: 'in-progress', Leg2Status: null, Legs: [{ Leg: { Id: 1, OnCallDuration: 0 } }] };
	}
	return view;
}

function customerOf(call: StoredCall): string {
	if (call.connect) return call.from;
	return call.direction === 'inbound' ? call.from : (call.to ?? call.from);
}

/** Management API status of an ended call, shape A or B (States: Call). */
export function managementStatus(call: StoredCall, shape: 'A' | 'B'): string {
	switch (call.outcome) {
		case 'completed':
			return 'completed';
		case 'no-answer':
			return call.agentFirst && call.legs[0]?.status === 'no-answer' ? 'agent_unanswered' : 'customer_unanswered';
		case 'busy':
			return 'customer_unanswered';
		case 'failed':
			if (shape === 'A') return 'failed';
			return call.direction === 'inbound' ? 'agent_no_dial' : 'customer_no_dial';
	}
}

/** `call_details` of the management API: shape B for sids starting with SHAPE_B_PREFIX, else shape A. */
export function managementCallView(call: StoredCall, state: SandboxState, now: number, timeScale: number, origin: string): { shape: 'A' | 'B'; details: Record<string, unknown> } {
	const done = ended(call, now);
	const elapsed = elapsedOf(call, now, timeScale);
	const talk = call.answeredAfter === null ? 0 : Math.max(0, elapsed - call.answeredAfter);
	const agent = call.agentUserId ? ccmUsersOf(state).get(call.agentUserId) : undefined;
	const recording = done && call.recording ? recordingUrl(origin, call.sid, 'mp3', 'single', Math.floor(now / 1000) + RECORDING_URL_VALIDITY.default * 60) : undefined;
	const start = isoWithOffset(new Date(call.createdAt));
	const end = done ? isoWithOffset(simulated(call, call.endedAfter)) : null;
	if (call.sid.startsWith(SHAPE_B_PREFIX)) {
		const details: Record<string, unknown> = {
			sid: call.sid,
			direction: call.direction,
			virtual_number: call.phoneNumberSid,
			state: done ? 'terminal' : 'active',
			status: done ? managementStatus(call, 'B') : null,
			assigned_agent_details: agent ? { user_id: agent.id, contact_uri: agent.devices[0].contact_uri } : null,
			customer_details: { number: customerOf(call) },
			created_time: start,
			updated_time: end ?? start,
			start_time: start,
			end_time: end,
			total_duration: elapsed,
			total_talk_time: talk,
			recording: recording ? { available: true, url: recording } : { available: false, url: null },
		};
		if (call.customField !== undefined) details.custom_field = call.customField;
		details.legs = `/v2/accounts/${call.accountSid}/calls/${call.sid}/legs`;
		return { shape: 'B', details };
	}
	const details: Record<string, unknown> = {
		call_sid: call.sid,
		call_state: done ? 'terminal' : 'active',
		call_status: done ? managementStatus(call, 'A') : null,
		direction: call.direction === 'inbound' ? 'inbound' : 'outbound',
		virtual_number: call.phoneNumberSid,
		from: call.from,
		to: call.to,
		start_time: start,
		end_time: end,
		duration: elapsed,
		talk_time: talk,
	};
	if (recording) details.recording_url = recording;
	if (call.customField !== undefined) details.custom_field = call.customField;
	details.agent_details = agent ? { user_id: agent.id, name: `${agent.first_name} ${agent.last_name}`, email: agent.email } : null;
	details.customer_details = { number: customerOf(call) };
	return { shape: 'A', details };
}

// ---------------------------------------------------------------- connect

/** What Calls/connect was given: what a placed call keeps (StoredCall.connect), the number to call and the custom field. */
type ConnectInput = NonNullable<StoredCall['connect']> & {
	from: string;
	customField?: string;
};

class ConnectError extends Error {}

function absoluteHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

function readConnect(ctx: RequestContext): ConnectInput {
	if (!isFormType(ctx.request.contentType)) throw new ConnectError('The body must be application/x-www-form-urlencoded');
	let form;
	try {
		form = nestForm(ctx.request.form ?? []);
	} catch (error) {
		if (error instanceof FormShapeError) throw new ConnectError(error.message);
		throw error;
	}
	const text = (key: string, required = false): string | undefined => {
		const value: FormValue | undefined = form[key];
		if (value === undefined || value === '') {
			if (required) throw new ConnectError(`Missing parameter ${key}`);
			return undefined;
		}
		if (typeof value !== 'string') throw new ConnectError(`${key} must be a single value`);
		return value;
	};
	const integer = (key: string, min: number, max?: number): number | undefined => {
		const raw = text(key);
		if (raw === undefined) return undefined;
		const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
		if (!(n >= min) || (max !== undefined && n > max)) {
			throw new ConnectError(`${key} must be an integer from ${min}${max !== undefined ? ` to ${max}` : ' up'} (got '${raw}')`);
		}
		return n;
	};
	const from = text('From', true)!.replace(/\s+/g, '');
	if (!PHONE.test(from)) throw new ConnectError(`From is not a valid phone number (got '${from}')`);
	const callerId = text('CallerId', true)!.replace(/\s+/g, '');
	if (!PHONE.test(callerId)) throw new ConnectError(`CallerId is not a valid virtual number (got '${callerId}')`);
	const url = text('Url', true)!;
	if (!absoluteHttpUrl(url)) throw new ConnectError(`Url must be an absolute http(s) URL (got '${url}')`);
	const flow = /^\/([^/]+)\/(?:flowml|exoml)\/start_voice\/([^/]+)\/?$/.exec(new URL(url).pathname);
	if (!flow) throw new ConnectError(`Url must be a flow URL {flow_host}/<account_sid>/flowml/start_voice/<app_id> (got '${url}')`);
	if (decodeURIComponent(flow[1]) !== ctx.params.sid) {
		throw new ConnectError(`Url names account '${decodeURIComponent(flow[1])}'; the flow must belong to ${ctx.params.sid}`);
	}
	const callType = text('CallType');
	if (callType !== undefined && callType !== 'trans') throw new ConnectError(`CallType must be 'trans' (got '${callType}')`);
	const timeLimit = integer('TimeLimit', 1, TIME_LIMIT_MAX);
	const timeOut = integer('TimeOut', 1);
	const statusCallback = text('StatusCallback');
	if (statusCallback !== undefined && !absoluteHttpUrl(statusCallback)) {
		throw new ConnectError(`StatusCallback must be an absolute http(s) URL (got '${statusCallback}')`);
	}
	const eventsRaw = form.StatusCallbackEvents;
	let events: FormValue[] = [];
	if (typeof eventsRaw === 'string') events = [eventsRaw];
	else if (Array.isArray(eventsRaw)) events = eventsRaw;
	else if (isFormObject(eventsRaw)) {
		const entries = indexedEntries(eventsRaw);
		if (!entries) throw new ConnectError('StatusCallbackEvents must be a list (StatusCallbackEvents[]=terminal)');
		events = entries.map(([, value]) => value);
	}
	const statusCallbackEvents: Array<'answered' | 'terminal'> = [];
	for (const event of events) {
		if (event !== 'answered' && event !== 'terminal') {
			throw new ConnectError(`StatusCallbackEvents values must be terminal or answered (got '${typeof event === 'string' ? event : JSON.stringify(event)}')`);
		}
		if (!statusCallbackEvents.includes(event)) statusCallbackEvents.push(event);
	}
	const customField = text('CustomField');
	return { from, callerId, url, callType, timeLimit, timeOut, statusCallback, statusCallbackEvents, customField };
}

/** The live service's code of the 503 refusing SANDBOX_REFUSED_CALLER. */
export const REFUSED_CALLER_CODE = 35008;

/** Whether From or CallerId is SANDBOX_REFUSED_CALLER (digits compared, national form too): Calls/connect answers 503. */
function isRefusedCaller(input: Pick<ConnectInput, 'from' | 'callerId'>): boolean {
	const refused = SANDBOX_REFUSED_CALLER.replace(/\D/g, '').slice(-10);
	return [input.from, input.callerId].some((number) => {
		const digits = number.replace(/\D/g, '');
		return digits.slice(-10) === refused && /^(?:91|0)?$/.test(digits.slice(0, -10));
	});
}

function placeCall(input: ConnectInput, now: number, timeScale: number): StoredCall {
	const outcome = callOutcomeFor(input.from);
	let answeredAfter: number | null = null;
	let endedAfter: number;
	if (outcome === 'completed') {
		answeredAfter = CALL_TIMING.answerAfterS;
		endedAfter = answeredAfter + Math.min(CALL_TIMING.talkS, input.timeLimit ?? Infinity);
	} else if (outcome === 'no-answer') {
		endedAfter = input.timeOut ?? CALL_TIMING.defaultRingS;
	} else if (input.from.endsWith(SANDBOX_CALL_RULES.racingSuffix)) {
		endedAfter = 0;
	} else {
		endedAfter = outcome === 'busy' ? CALL_TIMING.busyAfterS : CALL_TIMING.failedAfterS;
	}
	const conversation = answeredAfter === null ? 0 : endedAfter - answeredAfter;
	return {
		sid: randomHex(32),
		accountSid: SANDBOX_ACCOUNT.accountSid,
		parentCallSid: null,
		from: input.from,
		to: null,
		phoneNumberSid: input.callerId,
		direction: 'outbound-api',
		createdAt: Math.floor(now / 1000) * 1000,
		outcome,
		answeredAfter,
		endedAfter,
		endsAt: now + endedAfter * 1000 * timeScale,
		price: priceOf(outcome, endedAfter),
		recording: outcome === 'completed',
		answeredBy: null,
		legs: [{ status: outcome, onCallDuration: conversation, answeredBy: 'NA' }],
		agentFirst: false,
		customField: input.customField,
		connect: {
			callerId: input.callerId,
			url: input.url,
			callType: input.callType,
			timeLimit: input.timeLimit,
			timeOut: input.timeOut,
			statusCallback: input.statusCallback,
			statusCallbackEvents: input.statusCallbackEvents,
		},
	};
}

/**
 * The v1 call status callback (Events), form pairs in the spec's order. The answered event has
 * Status `in-progress`, empty EndTime and no RecordingUrl; `To` is empty for a flow call (null).
 * Live mode: dates in India wall-clock time, and the answered event's legs have an empty Status (as
 * the live service's answered callbacks: only the call reads in-progress).
 */
export function callStatusFields(call: StoredCall, event: 'answered' | 'terminal', origin: string, live = false): Array<[string, string]> {
	const terminal = event === 'terminal';
	const at = terminal ? call.endedAfter : (call.answeredAfter ?? 0);
	const v1Date = (date: Date) => v1DateTime(date, live);
	const pairs: Array<[string, string]> = [
		['CallSid', call.sid],
		['DateUpdated', v1Date(simulated(call, at))],
		['Status', terminal ? call.outcome : 'in-progress'],
	];
	if (terminal && call.recording) {
		const expires = Math.floor(Date.now() / 1000) + RECORDING_URL_VALIDITY.default * 60;
		pairs.push(['RecordingUrl', recordingUrl(origin, call.sid, 'mp3', 'single', expires)]);
	}
	pairs.push(
		['EventType', event],
		['DateCreated', v1Date(new Date(call.createdAt))],
		['To', call.to ?? ''],
		['From', call.from],
		['PhoneNumberSid', call.phoneNumberSid],
		['StartTime', v1Date(new Date(call.createdAt))],
		['EndTime', terminal ? v1Date(simulated(call, call.endedAfter)) : ''],
		['ConversationDuration', String(terminal ? conversationOf(call) : 0)],
		['Direction', call.direction],
	);
	if (call.customField !== undefined) pairs.push(['CustomField', call.customField]);
	call.legs.forEach((leg, i) => {
		pairs.push(
			[`Legs[${i}][OnCallDuration]`, String(terminal ? leg.onCallDuration : 0)],
			[`Legs[${i}][Status]`, terminal ? leg.status : live ? '' : 'in-progress'],
			[`Legs[${i}][AnsweredBy]`, leg.answeredBy],
		);
	});
	return pairs;
}

/** The events a placed call's StatusCallback receives: as selected, else only `terminal`. */
export function callStatusEventsOf(call: StoredCall): Array<'answered' | 'terminal'> {
	const events = call.connect?.statusCallbackEvents ?? [];
	return events.length ? events : ['terminal'];
}

/**
 * Ends a placed call that is still running, now (`endCall`: the person hangs up, or the line
 * fails): Duration is the simulated seconds from the connect to now; `completed` keeps the answer
 * time when the call was already answered (else it is answered now, with no conversation) and is
 * recorded; the other outcomes were never answered. The caller checks that the call still runs.
 */
export function endCallNow(call: StoredCall, status: CallOutcome, now: number, timeScale: number): void {
	// The real moment of the connect (createdAt is rounded down to the second).
	const connectedAt = call.endsAt - call.endedAfter * 1000 * timeScale;
	const elapsed = timeScale > 0 ? Math.min(call.endedAfter, Math.max(0, Math.floor((now - connectedAt) / 1000 / timeScale))) : call.endedAfter;
	const answeredAfter = status === 'completed' ? Math.min(call.answeredAfter ?? elapsed, elapsed) : null;
	const conversation = answeredAfter === null ? 0 : elapsed - answeredAfter;
	call.outcome = status;
	call.answeredAfter = answeredAfter;
	call.endedAfter = elapsed;
	call.endsAt = now;
	call.price = priceOf(status, elapsed);
	call.recording = status === 'completed';
	call.legs = [{ status, onCallDuration: conversation, answeredBy: 'NA' }];
}

/** Hooks of the callback dispatcher (callbacks/dispatcher.ts; the posts: callbacks/voice.ts) for call status reports. */
interface CallStatusHooks {
	callStatusScheduled(reports: readonly CallStatusReport[]): void;
	postCallStatus(report: { url: string; callSid: string; fields: Array<[string, string]> }): Promise<unknown>;
}

/** The `0044` call: its terminal status callback, posted now and answered before the connect is. */
async function raceTerminal(ctx: RequestContext, call: StoredCall): Promise<void> {
	const url = call.connect?.statusCallback;
	const hooks = ctx.callbacks as Partial<CallStatusHooks> | undefined;
	if (!url || !hooks?.postCallStatus || !callStatusEventsOf(call).includes('terminal')) return;
	await hooks.postCallStatus({ url, callSid: call.sid, fields: callStatusFields(call, 'terminal', ctx.origin, ctx.state.live) });
}

/**
 * The status callbacks a placed call posts on its own, each `delayMs` simulated ms after the connect
 * (none without StatusCallback, for a lost call, or for a racing one, whose terminal went at once).
 * `isLive` is read when each is posted (live mode's fields, callStatusFields).
 */
export function callStatusReportsOf(call: StoredCall, origin: string, isLive: () => boolean = () => false): CallStatusReport[] {
	const url = call.connect?.statusCallback;
	if (!url) return [];
	if (call.from.endsWith(SANDBOX_CALL_RULES.lostSuffix) || call.from.endsWith(SANDBOX_CALL_RULES.racingSuffix)) return [];
	const events = callStatusEventsOf(call);
	const reports: CallStatusReport[] = [];
	if (events.includes('answered') && call.answeredAfter !== null) {
		reports.push({ delayMs: call.answeredAfter * 1000, url, callSid: call.sid, fields: () => callStatusFields(call, 'answered', origin, isLive()) });
	}
	if (events.includes('terminal')) {
		reports.push({ delayMs: call.endedAfter * 1000, url, callSid: call.sid, fields: () => callStatusFields(call, 'terminal', origin, isLive()) });
	}
	return reports;
}

function scheduleCallbacks(ctx: RequestContext, call: StoredCall): void {
	const hooks = ctx.callbacks as Partial<CallStatusHooks> | undefined;
	if (!hooks?.callStatusScheduled) return;
	const reports = callStatusReportsOf(call, ctx.origin, () => ctx.state.live);
	if (reports.length) hooks.callStatusScheduled(reports);
}

// ---------------------------------------------------------------- bulk query

type RangeOp = 'gte' | 'lte' | 'gt' | 'lt' | 'eq';
type Range = Partial<Record<RangeOp, number>>;

class QueryError extends Error {}

function parseRange(name: string, raw: string, ops: readonly RangeOp[], value: (text: string) => number | undefined, example: string): Range {
	const range: Range = {};
	for (const part of raw.split(';')) {
		const m = /^([a-z]+):(.+)$/.exec(part.trim());
		if (!m || !(ops as readonly string[]).includes(m[1])) {
			throw new QueryError(`${name} must look like ${example} (operators ${ops.join(', ')}; got '${raw}')`);
		}
		const op = m[1] as RangeOp;
		if (range[op] !== undefined) throw new QueryError(`${name} gives '${op}' twice`);
		const v = value(m[2].trim());
		if (v === undefined) throw new QueryError(`${name} has an invalid value '${m[2]}' (e.g. ${example})`);
		range[op] = v;
	}
	return range;
}

function inRange(v: number, r: Range): boolean {
	return (
		(r.gte === undefined || v >= r.gte) &&
		(r.lte === undefined || v <= r.lte) &&
		(r.gt === undefined || v > r.gt) &&
		(r.lt === undefined || v < r.lt) &&
		(r.eq === undefined || v === r.eq)
	);
}

/** A DateCreated bound: UTC (spec mode), or India wall-clock time in live mode (`offsetMinutes` 330). */
function parseServiceDate(text: string, offsetMinutes = 0): number | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
	if (!m) return undefined;
	const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
	return Number.isNaN(ms) ? undefined : ms - offsetMinutes * 60_000;
}

function numberList(name: string, raw: string): string[] {
	const list = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
	if (list.length > CALL_QUERY_LIMITS.numbers) {
		throw new QueryError(`${name} has ${list.length} numbers; at most ${CALL_QUERY_LIMITS.numbers} are allowed`);
	}
	for (const entry of raw.split(',')) {
		if (!E164.test(entry.trim())) {
			const hint = /^ \d/.test(entry) ? " (a '+' sent unencoded in a query reads as a space: encode it as %2B)" : '';
			throw new QueryError(`${name} values must be E.164 numbers (got '${entry}')${hint}`);
		}
	}
	return list;
}

const cursorOf = (call: StoredCall) => Buffer.from(`${call.createdAt}:${call.sid}`).toString('base64url');

function parseCursor(name: string, raw: string): { createdAt: number; sid: string } {
	const decoded = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
	const m = /^(\d+):([0-9a-z]+)$/.exec(decoded);
	if (!m) throw new QueryError(`${name} is not a cursor of this query (take it from PrevPageUri or NextPageUri)`);
	return { createdAt: Number(m[1]), sid: m[2] };
}

const STATUSES: readonly string[] = ['completed', 'failed', 'busy', 'no-answer'];
const DIRECTIONS: readonly string[] = ['inbound', 'outbound-dial', 'outbound-api'];
const QUERY_KEYS = ['Sid', 'DateCreated', 'To', 'From', 'Status', 'Duration', 'Price', 'Direction', 'PhoneNumber', 'PageSize', 'SortBy', 'Before', 'After', 'RecordingUrlValidity'] as const;

function bulkQuery(ctx: RequestContext): Reply {
	const q: Partial<Record<(typeof QUERY_KEYS)[number], string>> = {};
	for (const key of QUERY_KEYS) {
		const raw = ctx.request.query[key];
		if (Array.isArray(raw)) return fail(ctx, 400, `${key} is given ${raw.length} times; give it once (comma-separated where a list is allowed)`);
		if (raw !== undefined) q[key] = raw;
	}
	const now = Date.now();
	const live = ctx.state.live;
	const filters: Array<(call: StoredCall) => boolean> = [];
	let pageSize: number = CALLS_PAGE_SIZE.default;
	let validity: number = RECORDING_URL_VALIDITY.default;
	let ascending = false;
	try {
		if (q.PageSize !== undefined) {
			pageSize = /^\d+$/.test(q.PageSize) ? Number(q.PageSize) : NaN;
			if (!(pageSize >= 1 && pageSize <= CALLS_PAGE_SIZE.max)) {
				throw new QueryError(`PageSize must be an integer from 1 to ${CALLS_PAGE_SIZE.max} (got '${q.PageSize}')`);
			}
		}
		if (q.Sid !== undefined) {
			const sids = q.Sid.split(',').map((s) => s.trim());
			if (sids.length > CALL_QUERY_LIMITS.sids) throw new QueryError(`Sid has ${sids.length} call ids; at most ${CALL_QUERY_LIMITS.sids} are allowed`);
			if (sids.some((s) => !s)) throw new QueryError('Sid has an empty entry');
			const set = new Set(sids);
			filters.push((call) => set.has(call.sid));
		}
		if (q.DateCreated !== undefined) {
			const offset = live ? INDIA_OFFSET_MINUTES : 0;
			const range = parseRange('DateCreated', q.DateCreated, ['gte', 'lte', 'gt', 'lt'], (text) => parseServiceDate(text, offset), 'gte:2026-01-01 00:00:00;lte:2026-01-31 23:59:59');
			const lower = range.gte ?? range.gt;
			const upper = range.lte ?? range.lt;
			const oldest = addCalendarMonths(now, -CALL_QUERY_LIMITS.historyMonths);
			if ((lower !== undefined && lower < oldest) || (upper !== undefined && upper < oldest)) {
				throw new QueryError('DateCreated reaches back more than 6 months; older calls cannot be queried');
			}
			if (lower !== undefined && upper !== undefined) {
				if (upper < lower) throw new QueryError('DateCreated ends before it starts');
				if (upper > addCalendarMonths(lower, CALL_QUERY_LIMITS.rangeMonths)) {
					throw new QueryError(`DateCreated spans ${Math.ceil((upper - lower) / DAY_MS)} days; at most one month per request`);
				}
			}
			filters.push((call) => inRange(call.createdAt, range));
		}
		for (const [key, pick] of [
			['To', (call: StoredCall) => call.to],
			['From', (call: StoredCall) => call.from],
			['PhoneNumber', (call: StoredCall) => call.phoneNumberSid],
		] as const) {
			const raw = q[key];
			if (raw === undefined) continue;
			const set = new Set(numberList(key, raw));
			filters.push((call) => set.has(pick(call) ?? ''));
		}
		if (q.Status !== undefined) {
			if (!STATUSES.includes(q.Status)) throw new QueryError(`Status must be one of ${STATUSES.join(', ')} (got '${q.Status}')`);
			filters.push((call) => ended(call, now) && call.outcome === q.Status);
		}
		if (q.Direction !== undefined) {
			if (!DIRECTIONS.includes(q.Direction)) throw new QueryError(`Direction must be one of ${DIRECTIONS.join(', ')} (got '${q.Direction}')`);
			filters.push((call) => call.direction === q.Direction);
		}
		if (q.Duration !== undefined) {
			const range = parseRange('Duration', q.Duration, ['gte', 'lte', 'gt', 'lt', 'eq'], (t) => (/^\d+s$/.test(t) ? Number(t.slice(0, -1)) : undefined), 'gte:10s;lte:45s or eq:30s');
			filters.push((call) => ended(call, now) && inRange(call.endedAfter, range));
		}
		if (q.Price !== undefined) {
			const range = parseRange('Price', q.Price, ['gte', 'lte', 'gt', 'lt', 'eq'], (t) => (/^\d+(\.\d+)?$/.test(t) ? Number(t) : undefined), 'gte:0.50;lte:2.00');
			filters.push((call) => ended(call, now) && inRange(Number(call.price), range));
		}
		if (q.SortBy !== undefined) {
			if (q.SortBy !== 'DateCreated:asc' && q.SortBy !== 'DateCreated:desc') {
				throw new QueryError(`SortBy must be DateCreated:asc or DateCreated:desc (got '${q.SortBy}')`);
			}
			ascending = q.SortBy === 'DateCreated:asc';
		}
		if (q.RecordingUrlValidity !== undefined) {
			validity = /^\d+$/.test(q.RecordingUrlValidity) ? Number(q.RecordingUrlValidity) : NaN;
			if (!(validity >= RECORDING_URL_VALIDITY.min && validity <= RECORDING_URL_VALIDITY.max)) {
				throw new QueryError(`RecordingUrlValidity must be an integer from ${RECORDING_URL_VALIDITY.min} to ${RECORDING_URL_VALIDITY.max} minutes (got '${q.RecordingUrlValidity}')`);
			}
		}
		if (q.Before !== undefined && q.After !== undefined) throw new QueryError('Give Before or After, not both');
	} catch (error) {
		if (error instanceof QueryError) return fail(ctx, 400, error.message);
		throw error;
	}
	let before: { createdAt: number; sid: string } | undefined;
	let after: { createdAt: number; sid: string } | undefined;
	try {
		if (q.Before !== undefined) before = parseCursor('Before', q.Before);
		if (q.After !== undefined) after = parseCursor('After', q.After);
	} catch (error) {
		return fail(ctx, 400, (error as Error).message);
	}

	type Key = { createdAt: number; sid: string };
	const asc = (a: Key, b: Key) => a.createdAt - b.createdAt || (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);
	const order = ascending ? asc : (a: Key, b: Key) => asc(b, a);
	const matched = [...callsOf(ctx.state).values()].filter((call) => filters.every((f) => f(call))).sort(order);
	let start = 0;
	let end: number;
	if (after) {
		start = matched.findIndex((call) => order(call, after!) > 0);
		if (start < 0) start = matched.length;
		end = Math.min(matched.length, start + pageSize);
	} else if (before) {
		end = matched.findIndex((call) => order(call, before!) >= 0);
		if (end < 0) end = matched.length;
		start = Math.max(0, end - pageSize);
	} else {
		end = Math.min(matched.length, pageSize);
	}
	const page = matched.slice(start, end);

	const path = `/v1/Accounts/${ctx.params.sid}/Calls.json`;
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(ctx.request.query)) {
		if (key === 'Before' || key === 'After') continue;
		for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
	}
	if (!params.has('PageSize')) params.append('PageSize', String(pageSize));
	const uri = (cursor?: [string, string]) => {
		const p = new URLSearchParams(params);
		if (cursor) p.append(cursor[0], cursor[1]);
		return `${path}?${p.toString()}`;
	};
	const nextCursor = page.length ? cursorOf(page[page.length - 1]) : undefined;
	const prevCursor = page.length ? cursorOf(page[0]) : q.After;
	return json(200, {
		Metadata: {
			Total: matched.length,
			PageSize: pageSize,
			FirstPageUri: uri(),
			PrevPageUri: start > 0 && prevCursor ? uri(['Before', prevCursor]) : null,
			NextPageUri: end < matched.length && nextCursor ? uri(['After', nextCursor]) : null,
		},
		Calls: page.map((call) => v1CallView(call, now, { origin: ctx.origin, validityMinutes: validity, live })),
	});
}

// ---------------------------------------------------------------- routes

function v2Envelope(ctx: RequestContext, response: Record<string, unknown>, withMethod = true): Reply {
	const body: Record<string, unknown> = { request_id: randomHex(32) };
	if (withMethod) body.method = ctx.request.method;
	body.http_code = 200;
	body.response = response;
	return json(200, body);
}

export const voiceRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'POST',
		path: '/v1/Accounts/:sid/Calls/connect',
		auth: 'basic',
		handler: async (ctx) => {
			let input: ConnectInput;
			try {
				input = readConnect(ctx);
			} catch (error) {
				if (error instanceof ConnectError) return fail(ctx, 400, error.message);
				throw error;
			}
			if (isRefusedCaller(input)) {
				// a refusal with a reason, not a passing overload: nothing is placed
				return fail(ctx, 503, 'Service Unavailable; ', { code: REFUSED_CALLER_CODE });
			}
			const now = Date.now();
			const call = placeCall(input, now, ctx.timeScale);
			callsOf(ctx.state).set(call.sid, call);
			scheduleCallbacks(ctx, call);
			if (call.from.endsWith(SANDBOX_CALL_RULES.racingSuffix)) await raceTerminal(ctx, call);
			// The answer always reads in-progress, also when timeScale 0 ends the call at once.
			const view = v1CallView(call, Math.min(now, call.endsAt - 1), { origin: ctx.origin, validityMinutes: RECORDING_URL_VALIDITY.default, uri: true, live: ctx.state.live });
			return json(200, { Call: view });
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: '/v1/Accounts/:sid/Calls.json',
		auth: 'basic',
		handler: bulkQuery,
	},
	{
		base: 'base',
		method: 'GET',
		path: '/v1/Accounts/:sid/Calls/:callSid.json',
		auth: 'basic',
		handler: (ctx) => {
			const raw = ctx.request.query.details;
			const details = firstQueryValue(raw);
			if (Array.isArray(raw) || (details !== undefined && details !== 'true' && details !== 'false')) {
				return fail(ctx, 400, `details must be true or false (got '${String(raw)}')`);
			}
			const call = callsOf(ctx.state).get(ctx.params.callSid);
			if (!call) return fail(ctx, 404, `Call ${ctx.params.callSid} does not exist in this account`);
			return json(200, {
				Call: v1CallView(call, Date.now(), { origin: ctx.origin, validityMinutes: RECORDING_URL_VALIDITY.default, details: details === 'true', live: ctx.state.live }),
			});
		},
	},
	{
		base: 'ccm',
		method: 'GET',
		path: '/v2/accounts/:sid/calls/:callSid',
		auth: 'basic',
		handler: (ctx) => {
			const call = callsOf(ctx.state).get(ctx.params.callSid);
			if (!call) return fail(ctx, 404, `Call ${ctx.params.callSid} does not exist for this account`);
			const { shape, details } = managementCallView(call, ctx.state, Date.now(), ctx.timeScale, ctx.origin);
			return shape === 'A'
				? v2Envelope(ctx, { code: 200, status: 'success', call_details: details }, false)
				: v2Envelope(ctx, { call_details: details });
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: '/v3/accounts/:sid/calls/:callSid/voice-logs',
		auth: 'basic',
		handler: (ctx) => {
			const format = firstQueryValue(ctx.request.query.format) ?? 'mp3';
			const channel = firstQueryValue(ctx.request.query.channel) ?? 'single';
			if (Array.isArray(ctx.request.query.format) || (format !== 'mp3' && format !== 'wav')) {
				return fail(ctx, 400, `format must be mp3 or wav (got '${String(ctx.request.query.format)}')`);
			}
			if (Array.isArray(ctx.request.query.channel) || (channel !== 'single' && channel !== 'dual')) {
				return fail(ctx, 400, `channel must be single or dual (got '${String(ctx.request.query.channel)}')`);
			}
			const call = callsOf(ctx.state).get(ctx.params.callSid);
			if (!call) return fail(ctx, 404, `Call ${ctx.params.callSid} does not exist for this account`);
			const now = Date.now();
			if (!ended(call, now)) return fail(ctx, 404, `Call ${call.sid} is still in progress: its recording is not available yet (processing)`);
			if (!call.recording) return fail(ctx, 404, `Call ${call.sid} has no recording (not_available)`);
			const expires = Math.floor(now / 1000) + RECORDING_URL_VALIDITY.default * 60;
			return v2Envelope(ctx, {
				voice_log: {
					call_sid: call.sid,
					recording_url: recordingUrl(ctx.origin, call.sid, format, channel, expires),
					recording_duration: conversationOf(call),
					recording_size_bytes: recordingBytes(call.sid, format, channel).length,
					format,
					channel,
					created_at: isoTimestamp(simulated(call, call.endedAfter)),
					expires_at: isoTimestamp(new Date(expires * 1000)),
				},
			});
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: '/__recordings/:callSid.:format',
		auth: 'none',
		handler: (ctx) => {
			const { callSid, format } = ctx.params;
			const query = ctx.request.query;
			const channel = firstQueryValue(query.channel) ?? 'single';
			const expires = firstQueryValue(query.expires) ?? '';
			const sig = firstQueryValue(query.sig) ?? '';
			const call = callsOf(ctx.state).get(callSid);
			if (!call || !call.recording || !ended(call, Date.now()) || (format !== 'mp3' && format !== 'wav') || (channel !== 'single' && channel !== 'dual')) {
				return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
			}
			if (!/^\d+$/.test(expires) || sig !== recordingSignature(callSid, format, channel, expires)) {
				return s3Error(403, 'SignatureDoesNotMatch', 'The request signature does not match.');
			}
			if (Number(expires) * 1000 < Date.now()) return s3Error(403, 'AccessDenied', 'Request has expired');
			return { status: 200, body: recordingBytes(callSid, format, channel), contentType: RECORDING_CONTENT_TYPE[format] };
		},
	},
];
