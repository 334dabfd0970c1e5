/**
 * The account's calls, as every call route reads them: SANDBOX_SEEDED_CALLS seeded on first use
 * after a reset (over the last weeks, relative to that moment), plus every call placed with
 * Calls/connect, all in `state.calls`. Here too what more than one route needs of a call: its
 * clock, its v1 Call object, the signed URL of its recording and the v2 envelope. The routes:
 * callConnect.ts (and callStatus.ts, its status callbacks), callQuery.ts, callDetails.ts, voiceLogs.ts.
 */
import { createHash, createHmac } from 'crypto';

import { SANDBOX_ACCOUNT } from '../fixtures';
import { json, randomHex, v1DateTime } from '../http';
import type { SandboxState } from '../state';
import type { CallOutcome, StoredCall, StoredCallLeg } from '../stored';
import type { Reply, RequestContext } from '../types';
import { userPhone } from './users';

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

/** A call sid starting with this character is answered in shape B by the management API, any other in shape A. */
export const SHAPE_B_PREFIX = 'b';

export const RECORDING_URL_VALIDITY = { min: 5, max: 60, default: 60 } as const;

export const priceOf = (outcome: CallOutcome, seconds: number) => (outcome === 'completed' ? (Math.ceil(seconds / 60) * 0.5).toFixed(2) : '0.00');

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

/** A seeded call's timing and legs for its outcome (the agent misses some outbound calls nobody answered). */
function seededLegs(outcome: CallOutcome, inbound: boolean, rng: () => number): { answeredAfter: number | null; endedAfter: number; legs: StoredCallLeg[] } {
	const agentMissed = outcome === 'no-answer' && !inbound && rng() < 0.3;
	if (outcome === 'completed') {
		const answeredAfter = 3 + Math.floor(rng() * 13);
		const talk = 10 + Math.floor(rng() * 590);
		const endedAfter = answeredAfter + talk;
		const legs: StoredCallLeg[] = [
			{ status: 'completed', onCallDuration: endedAfter, answeredBy: 'NA' },
			{ status: 'completed', onCallDuration: talk, answeredBy: rng() < 0.9 ? 'Human' : 'Machine' },
		];
		return { answeredAfter, endedAfter, legs };
	}
	if (outcome === 'no-answer') {
		const endedAfter = 30 + Math.floor(rng() * 16);
		const legs: StoredCallLeg[] = [{ status: agentMissed ? 'no-answer' : 'completed', onCallDuration: agentMissed ? 0 : endedAfter, answeredBy: 'NA' }];
		if (!agentMissed) legs.push({ status: 'no-answer', onCallDuration: 0, answeredBy: 'NA' });
		return { answeredAfter: null, endedAfter, legs };
	}
	if (outcome === 'busy') {
		const endedAfter = 2 + Math.floor(rng() * 4);
		return {
			answeredAfter: null,
			endedAfter,
			legs: [
				{ status: 'completed', onCallDuration: endedAfter, answeredBy: 'NA' },
				{ status: 'busy', onCallDuration: 0, answeredBy: 'NA' },
			],
		};
	}
	return { answeredAfter: null, endedAfter: Math.floor(rng() * 2), legs: [{ status: 'failed', onCallDuration: 0, answeredBy: 'NA' }] };
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
		const { answeredAfter, endedAfter, legs } = seededLegs(outcome, inbound, rng);
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

// ---------------------------------------------------------------- recording URLs

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

// ---------------------------------------------------------------- views

export const ended = (call: StoredCall, now: number) => now >= call.endsAt;
export const simulated = (call: StoredCall, seconds: number) => new Date(call.createdAt + seconds * 1000);
export const conversationOf = (call: StoredCall) => (call.answeredAfter === null ? 0 : call.endedAfter - call.answeredAfter);

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

export function v2Envelope(ctx: RequestContext, response: Record<string, unknown>, withMethod = true): Reply {
	const body: Record<string, unknown> = { request_id: randomHex(32) };
	if (withMethod) body.method = ctx.request.method;
	body.http_code = 200;
	body.response = response;
	return json(200, body);
}
