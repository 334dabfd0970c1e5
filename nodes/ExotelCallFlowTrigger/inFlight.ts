// The call-flow requests this process holds or answered a moment ago, so that a repeat starts nothing.
import type { HeldAnswer } from './answering';

/** How long an answer is given again to a repeat of its request. */
export const REPEAT_WINDOW_MS = 120_000;
/** At most this many requests remembered: the oldest go first. */
const MOST_REMEMBERED = 10_000;

/**
 * Module memory, on purpose: an entry is an HTTP request this very process holds open (or just
 * answered), which lives nowhere else; in queue mode the requests are held by the main or webhook
 * process, never a worker. No execution's state is kept here.
 */
const REQUESTS = new Map<string, { answered: Promise<HeldAnswer>; at: number }>();

function forgetOld(now: number): void {
	for (const [key, entry] of REQUESTS) {
		if (now - entry.at < REPEAT_WINDOW_MS && REQUESTS.size <= MOST_REMEMBERED) break;
		REQUESTS.delete(key);
	}
}

/** The answer (given, or still to come) to an earlier request with this key, if one came within the window. */
export function earlierAnswer(key: string, now = Date.now()): Promise<HeldAnswer> | undefined {
	forgetOld(now);
	const earlier = REQUESTS.get(key);
	return earlier && now - earlier.at < REPEAT_WINDOW_MS ? earlier.answered : undefined;
}

/** Keeps a held request's answer for its repeats. */
export function rememberRequest(key: string, answered: Promise<HeldAnswer>, now = Date.now()): void {
	REQUESTS.set(key, { answered, at: now });
	forgetOld(now);
}

/**
 * A request's key: the trigger, the call and every parameter but the clock (`CurrentTime` differs
 * between a request and its repeat). Another visit of the same applet in a call differs in what the
 * call did since (digits, dial status, legs); one that does not differs is given the same answer.
 */
export function requestKey(trigger: string, params: Record<string, unknown>): string | undefined {
	const callSid = params.CallSid;
	if (typeof callSid !== 'string' || callSid === '') return undefined;
	const rest = Object.keys(params)
		.filter((name) => name !== 'CurrentTime')
		.sort()
		.map((name) => [name, params[name]]);
	return `${trigger}\n${callSid}\n${JSON.stringify(rest)}`;
}
