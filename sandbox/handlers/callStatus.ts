/**
 * The v1 status callbacks of a call placed with Calls/connect (callConnect.ts), in the spec's
 * order, handed to the callback dispatcher (callbacks/voice.ts posts them), and the end of a placed
 * call that is still running (endPlacedCall: endCall of the sandbox, server.ts).
 */
import { CallbackInputError, endCallInput, type CallbackAttempt, type CallStatusReport } from '../callbacks';
import { v1DateTime } from '../http';
import type { CallOutcome, StoredCall } from '../stored';
import type { RequestContext } from '../types';
import { conversationOf, priceOf, RECORDING_URL_VALIDITY, recordingUrl, SANDBOX_CALL_RULES, simulated } from './calls';

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
	cancelCallStatus(callSid: string): boolean;
	postCallStatus(report: { url: string; callSid: string; fields: Array<[string, string]> }): Promise<CallbackAttempt>;
}

/** The `0044` call: its terminal status callback, posted now and answered before the connect is. */
export async function raceTerminal(ctx: RequestContext, call: StoredCall): Promise<void> {
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

export function scheduleCallbacks(ctx: RequestContext, call: StoredCall): void {
	const hooks = ctx.callbacks as Partial<CallStatusHooks> | undefined;
	if (!hooks?.callStatusScheduled) return;
	const reports = callStatusReportsOf(call, ctx.origin, () => ctx.state.live);
	if (reports.length) hooks.callStatusScheduled(reports);
}

/**
 * `endCall` of the sandbox, `{callSid, status? ('completed')}`: a placed call still running ends now.
 * Its status callbacks not posted yet are cancelled and its terminal callback is posted at once when
 * it has a StatusCallback and `terminal` is among its events: resolves with that first attempt, or
 * null. Throws a CallbackInputError for an unknown call or one that has ended.
 */
export function endPlacedCall(
	input: Record<string, unknown>,
	clock: Pick<RequestContext, 'state' | 'timeScale' | 'origin'>,
	hooks: CallStatusHooks,
): Promise<CallbackAttempt | null> {
	const { callSid, status } = endCallInput(input);
	const call = clock.state.calls.get(callSid);
	if (!call) throw new CallbackInputError(`no call has sid '${callSid}'`);
	const now = Date.now();
	if (now >= call.endsAt) throw new CallbackInputError(`call ${callSid} has already ended (${call.outcome})`);
	hooks.cancelCallStatus(callSid);
	endCallNow(call, status, now, clock.timeScale);
	const url = call.connect?.statusCallback;
	if (!url || !callStatusEventsOf(call).includes('terminal')) return Promise.resolve(null);
	return hooks.postCallStatus({ url, callSid, fields: callStatusFields(call, 'terminal', clock.origin, clock.state.live) });
}
