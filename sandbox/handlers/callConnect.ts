/**
 * Connect to Flow (v1, form): `POST /v1/Accounts/<sid>/Calls/connect` places a call, kept with the
 * seeded ones (calls.ts). A placed call is `in-progress` until its simulated end (× timeScale),
 * then takes the outcome that the last digits of its From number choose (SANDBOX_CALL_RULES); its
 * status callbacks go through the callback dispatcher (callStatus.ts; loopback URLs only).
 */
import { SANDBOX_ACCOUNT, SANDBOX_REFUSED_CALLER } from '../fixtures';
import { fail, FormShapeError, FormValue, indexedEntries, isFormObject, isFormType, json, nestForm, randomHex } from '../http';
import type { CallOutcome, StoredCall } from '../stored';
import type { Handler, Reply, RequestContext, RouteDefinition } from '../types';
import { callsOf, priceOf, RECORDING_URL_VALIDITY, SANDBOX_CALL_RULES, v1CallView } from './calls';
import { raceTerminal, scheduleCallbacks } from './callStatus';

/** Simulated seconds of a placed call (multiplied by timeScale for the real clock and the callbacks). */
export const CALL_TIMING = { answerAfterS: 5, talkS: 30, defaultRingS: 30, busyAfterS: 3, failedAfterS: 1 } as const;

export const TIME_LIMIT_MAX = 14400;

const PHONE = /^\+?\d{6,15}$/;

export function callOutcomeFor(from: string): CallOutcome {
	const n = from.replace(/\s+/g, '');
	if (n.endsWith(SANDBOX_CALL_RULES.noAnswerSuffix)) return 'no-answer';
	if (n.endsWith(SANDBOX_CALL_RULES.busySuffix)) return 'busy';
	if (n.endsWith(SANDBOX_CALL_RULES.failedSuffix) || n.endsWith(SANDBOX_CALL_RULES.racingSuffix)) return 'failed';
	return 'completed';
}

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
	// a FormShapeError answers 400 as a ConnectError does (guarded)
	const form = nestForm(ctx.request.form ?? []);
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

/** A ConnectError, or a form of the wrong shape, answers 400 with its message; anything else stays a failure. */
function guarded(handler: (ctx: RequestContext) => Promise<Reply>): Handler {
	return (ctx) =>
		handler(ctx).catch((error: unknown) => {
			if (error instanceof ConnectError || error instanceof FormShapeError) return fail(ctx, 400, error.message);
			throw error;
		});
}

export const callConnectRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'POST',
		path: '/v1/Accounts/:sid/Calls/connect',
		auth: 'basic',
		handler: guarded(async (ctx) => {
			const input = readConnect(ctx);
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
		}),
	},
];
