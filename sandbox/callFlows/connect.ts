/**
 * Connect: the URL (then the Fallback URL) says who to dial; the numbers are tried in order, each as
 * the call's `callees` says it behaves (answers, no-answer, busy; a conversation is simulated time,
 * never waited for), until one answers. With `fetch_after_attempt` the URL is asked again after each
 * failed attempt, with that attempt's DialCallStatus and Legs, and its answer says who is next.
 * Transitions: ended (someone answered), noAnswer (dialled, nobody answered), notDialled.
 */
import { classicJudge, programmableJudge, type ConnectAnswer } from './connect-answer';
import { EXOTEL_VERSION_HEADER, getPlan, type AppletContext, type StepEnd } from './context';
import { classicConnectParams, e164Of, flowParams, withQuery, type DialState, type Leg } from './params';
import type { Verdict } from './requests';
import type { ConnectApplet } from './types';

/** Dial attempts of one Connect at most (a fetch_after_attempt URL that never gives up). */
export const MAX_DIAL_ATTEMPTS = 20;

/** One attempt: how the callee behaves, recorded in `dialled`. */
function dialOne(number: string, answer: ConnectAnswer, ctx: AppletContext): Leg {
	const callerId = answer.callerId ?? ctx.call.to;
	const behaviour = ctx.callees[e164Of(number)] ?? 'answers';
	const status = behaviour === 'answers' ? 'completed' : behaviour;
	const talk = Math.min(ctx.conversationSeconds, answer.maxConversationSeconds ?? Infinity);
	ctx.dialled.push({ number, callerId, result: status });
	return { number: e164Of(number), status, onCallSeconds: status === 'completed' ? talk : 0, callerId };
}

/** What the next requests report of the Connect: the answered leg, else the last one tried. */
function dialStateOf(legs: Leg[]): DialState {
	const answered = legs.find((leg) => leg.status === 'completed');
	const shown = answered ?? legs[legs.length - 1];
	return { status: shown.status, whom: shown.number, durationSeconds: answered?.onCallSeconds ?? 0, answered: answered !== undefined, legs };
}

function fetchAnswer(applet: ConnectApplet, ctx: AppletContext): Promise<Verdict<ConnectAnswer>> {
	const classic = applet.style === 'classic';
	const plan = (url: string) =>
		classic ? getPlan(withQuery(url, classicConnectParams(ctx.call))) : getPlan(withQuery(url, flowParams(ctx.call)), { ...EXOTEL_VERSION_HEADER });
	return ctx.fetcher.fetchFirst([applet.url, applet.fallbackUrl], plan, ctx.requests, classic ? classicJudge : programmableJudge);
}

/** The URL asked again after a failed attempt, with that attempt as the call's latest dial. */
function fetchAfterAttempt(applet: ConnectApplet, ctx: AppletContext, leg: Leg): Promise<Verdict<ConnectAnswer>> {
	ctx.call.dial = { status: leg.status, whom: leg.number, durationSeconds: 0, answered: false, legs: [leg] };
	return fetchAnswer(applet, ctx);
}

/** Dials until someone answers: the legs, the answer in effect at the last one, why dialling stopped early (a failed fetch after an attempt). */
async function dialAll(applet: ConnectApplet, ctx: AppletContext, first: ConnectAnswer): Promise<{ legs: Leg[]; answer: ConnectAnswer; reason?: string }> {
	const legs: Leg[] = [];
	let answer = first;
	let queue = [...answer.numbers];
	while (queue.length && legs.length < MAX_DIAL_ATTEMPTS) {
		const leg = dialOne(queue.shift() as string, answer, ctx);
		legs.push(leg);
		if (leg.status === 'completed') break;
		if (!answer.fetchAfterAttempt) continue;
		const again = await fetchAfterAttempt(applet, ctx, leg);
		if ('fail' in again) return { legs, answer, reason: again.fail };
		answer = again.value;
		queue = [...answer.numbers];
	}
	return { legs, answer };
}

export async function playConnect(applet: ConnectApplet, ctx: AppletContext): Promise<StepEnd> {
	const verdict = await fetchAnswer(applet, ctx);
	if ('fail' in verdict) return { outcome: 'notDialled', reason: verdict.fail, next: applet.next.notDialled };
	if (!verdict.value.numbers.length) return { outcome: 'notDialled', reason: 'destination.numbers is empty: nobody to dial', next: applet.next.notDialled };
	const { legs, answer, reason } = await dialAll(applet, ctx, verdict.value);
	const dial = dialStateOf(legs);
	ctx.call.dial = dial;
	if (dial.answered) {
		ctx.call.simulatedMs += dial.durationSeconds * 1000;
		if (answer.playback !== undefined) ctx.heard.push(answer.playback);
	}
	const end: StepEnd = { outcome: 'dialled', next: dial.answered ? applet.next.ended : applet.next.noAnswer };
	if (reason !== undefined) end.reason = reason;
	return end;
}
