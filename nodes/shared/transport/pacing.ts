import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Rate } from './rateLimits';
import { ShareWithoutCounters, type ClockWindow } from './share';

/**
 * How a run paces itself to one rate-limit category of the account. The service counts requests
 * per category in one-minute windows. When its answers carry `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (the account's own counters, shared by every execution and worker), a run
 * sends exactly what is left and waits for the reset. Without them it assumes the documented
 * windows on the clock's minutes and sends its share of the limit in each (share.ts).
 */
export const PACING_POLICY = {
	/** The documented window: limits are per minute. */
	windowMs: 60_000,
	/**
	 * Without counters, a Retry-After shorter than this share of the window is taken at its word: it
	 * is not the window filling (the documented one is half the window, or the time left in it) but
	 * a brief refusal, and waiting for the next window would idle up to a window for each.
	 */
	briefRetryAfterShare: 0.1,
	/** Kept clear of a window's edge, for the difference between this clock and the service's. */
	edgeMarginMs: 100,
	/** Never more than this margin, however often the service's clock seems ahead. */
	maxEdgeMarginMs: 5_000,
	/** Gaps between the others' requests (in this run's answers) with nothing of theirs, after which they have stopped. */
	quietAnswers: 2,
	/** The default of the node's Max Wait (Options → Rate Limit Max Wait; Rate Limit → Max Wait in version 1). */
	defaultMaxWaitMs: 15 * 60_000,
	/** Outside an execution (dropdowns, credential tests, triggers) nobody should wait long. */
	interactiveMaxWaitMs: 30_000,
};

export interface PacingClock {
	now(): number;
	sleep(ms: number): Promise<void>;
	/** From 0 (included) to 1, for the jitter after a refusal. */
	random(): number;
}

/** Resets within this of each other name the same window (they are whole seconds). */
const SAME_WINDOW_MS = 1_000;

const REAL_CLOCK: PacingClock = Object.freeze({ now: () => Date.now(), sleep: async (ms: number) => await sleep(ms), random: () => Math.random() });

/** A request's turn: when it went out, or why it must not be sent at all. */
export type Turn = { sentAt: number; ticket: number } | { refused: string };

/** How the pacer reads an answer: `throttled` when the request was refused for the limit and may go again. */
export type Verdict = { throttled: false } | { throttled: true; givenUp?: string };

/** The service's three counters, read from an answer's headers; undefined unless all three make sense. */
export function rateLimitHeaders(headers: IDataObject | undefined): { limit: number; remaining: number; resetMs: number } | undefined {
	if (!headers) return undefined;
	const limit = Number(headers['x-ratelimit-limit']);
	const remaining = Number(headers['x-ratelimit-remaining']);
	const reset = Number(headers['x-ratelimit-reset']);
	if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(remaining) || remaining < 0 || !Number.isFinite(reset) || reset <= 0) {
		return undefined;
	}
	return { limit, remaining: Math.min(remaining, limit), resetMs: reset * 1000 };
}

interface Window {
	/** When this window ends on this clock, margin included. */
	end: number;
	/** Whether the service's counters describe it; otherwise the clock's minutes are assumed. */
	counted: boolean;
	/** The lowest Remaining read in it. */
	remaining?: number;
	/** The first Remaining read in it, and this run's answers since: what others spent is the rest. */
	firstRemaining?: number;
	answersSinceFirst: number;
	/** This run's requests that may have been counted since the first Remaining: in flight then, or sent since. */
	mineSinceFirst: number;
	/**
	 * This run's answers in a row, one request at a time, that found nothing of the others counted
	 * between them (-1 until such a row starts: with more in flight the order says nothing).
	 */
	quietAnswers: number;
	/** The most of those answers seen between two of the others' requests in this window. */
	othersGap: number;
	/** The others' requests seen between this run's answers one at a time, and since when. */
	othersSeen: number;
	sequentialSince?: number;
	/** Without counters, the clock's window as this run saw it; absent for the gap kept at a window's edge. */
	clock?: ClockWindow;
}

/**
 * The pace of one category of one account within one run. Requests ask for a turn before each
 * attempt and hand in the answer; a 429 pauses every request of the run, so a full window costs one
 * refusal rather than one per request in flight.
 */
export class CategoryPacer {
	private perWindow: number;

	/** The window's length without counters: the documented minute, or the credential's own. */
	private readonly windowMs: number;

	/** What the run allows itself per window without counters. */
	private readonly share: ShareWithoutCounters;

	private window: Window = { end: 0, counted: false, answersSinceFirst: 0, mineSinceFirst: 0, quietAnswers: 0, othersGap: 1, othersSeen: 0 };

	/** Requests in flight, with the clock's window each went in (without counters). */
	private readonly inFlight = new Map<number, ClockWindow | undefined>();

	private lastTicket = 0;

	/** The most requests this run had in flight at once, to size its reserve near a window's end. */
	private peakInFlight = 1;

	/** Others' requests per request of this run, as the counters showed in the last window. */
	private othersRatio = 0;

	private edgeMarginMs = PACING_POLICY.edgeMarginMs;

	private pausedUntil = 0;

	/** Start of the current run of refusals with nothing accepted in between. */
	private limitedSince?: number;

	private givenUp?: string;

	private answered = deferred();

	/** How many answers of this run, one at a time, the others' requests came apart at most in the last window. */
	private othersGap = 1;

	/** The time the others took per request in the last window this run saw them send. */
	private othersInterval?: number;

	private lastAnswerAt = 0;

	/** Until when the run leaves its turn to the others. */
	private holdUntil = 0;

	/** Whether the service has answered this run at all. */
	private heard = false;

	/** The round trip of this run's accepted requests (a moving average; 0 before the first). */
	private roundTripMs = 0;

	private readonly timers = new Map<number, Promise<void>>();

	constructor(
		rate: Rate,
		readonly maxWaitMs: number,
		private readonly clock: PacingClock = REAL_CLOCK,
	) {
		this.windowMs = typeof rate === 'number' ? PACING_POLICY.windowMs : rate.windowMs;
		this.perWindow = typeof rate === 'number' ? Math.max(1, Math.round((rate * PACING_POLICY.windowMs) / 60_000)) : rate.limit;
		this.share = new ShareWithoutCounters(this.perWindow, this.windowMs);
	}

	/** Waits for this request's turn; refused once the run has given up on the limit. */
	async turn(): Promise<Turn> {
		for (;;) {
			if (this.givenUp) return { refused: this.givenUp };
			const now = this.clock.now();
			if (now < this.pausedUntil) {
				await this.until(this.pausedUntil);
				continue;
			}
			if (now >= this.window.end) this.nextWindow(now);
			if (this.room() > 0) {
				const ticket = ++this.lastTicket;
				const { clock } = this.window;
				this.inFlight.set(ticket, clock);
				this.peakInFlight = Math.max(this.peakInFlight, this.inFlight.size);
				this.window.mineSinceFirst++;
				if (clock) {
					clock.sent++;
					clock.firstSentAt ??= now;
					clock.lastSentAt = now;
				}
				return { sentAt: now, ticket };
			}
			// An answer in flight may show room; otherwise the end of a turn left to the others, a
			// chance to ask for more, or the next window.
			const chance = this.window.clock && this.share.nextChance(this.window.clock);
			const wake = Math.min(this.holdUntil > now ? this.holdUntil : Infinity, chance !== undefined && chance > now ? chance : Infinity, this.window.end);
			await (this.inFlight.size > 0 ? Promise.race([this.answered.promise, this.until(wake)]) : this.until(wake));
		}
	}

	/**
	 * Hands in how the service answered a turn (undefined: no answer, the connection failed).
	 * `throttle` says the answer refused the request for the limit (a 429; a 503 on SMS).
	 */
	answer(turn: { sentAt: number; ticket: number }, answer: { headers?: IDataObject; throttle: boolean; retryAfterMs?: number } | undefined): Verdict {
		const sentIn = this.inFlight.get(turn.ticket);
		this.inFlight.delete(turn.ticket);
		if (answer) this.heard = true;
		const answeredAt = this.clock.now();
		const counters = rateLimitHeaders(answer?.headers);
		if (counters) this.read(counters, answer?.throttle === true);
		// A window waiting for counters that do not come is paced by the clock's minutes instead.
		else if (answer && this.window.counted && this.window.remaining === undefined) this.window = { ...this.window, end: 0, counted: false };
		let verdict: Verdict = { throttled: false };
		if (answer?.throttle) {
			if (sentIn) sentIn.refused = true;
			verdict = { throttled: true, givenUp: this.limited(answer.retryAfterMs, counters !== undefined, sentIn?.accepted === 0) };
		} else if (answer) {
			if (sentIn) sentIn.accepted++;
			this.roundTripMs = this.roundTripMs === 0 ? answeredAt - turn.sentAt : 0.8 * this.roundTripMs + 0.2 * (answeredAt - turn.sentAt);
			this.accepted();
		}
		this.lastAnswerAt = answeredAt;
		const { resolve } = this.answered;
		this.answered = deferred();
		resolve();
		return verdict;
	}

	private room(): number {
		const { window } = this;
		const inFlight = this.inFlight.size;
		if (!window.counted) {
			if (!window.clock) return 0;
			const room = this.share.room(window.clock, inFlight, this.clock.now(), this.roundTripMs);
			// The run's first request goes alone: its answer says whether the service counts, and how
			// much of the window others have left, before a burst could meet a full window.
			return this.heard ? room : Math.min(room, inFlight === 0 ? 1 : 0);
		}
		// A new window of the service's not read yet: one request asks for its counters.
		if (window.remaining === undefined) return inFlight === 0 ? 1 : 0;
		if (this.othersNow() === 0) {
			// Alone on the account, the counters and this run's requests in flight say exactly what is
			// left; near its end one at a time, so a run not met yet costs one refusal at most.
			if (window.remaining - inFlight > this.peakInFlight) return window.remaining - inFlight;
			return inFlight > 0 ? 0 : window.remaining;
		}
		// Shared: one request at a time, each after the last answer, so the runs take turns and end
		// together; the last request of the window is left to the others while they send, so two runs
		// never both take it. Answers in a row with nothing of theirs counted: they have stopped.
		if (inFlight > 0) return 0;
		const quiet = window.quietAnswers >= PACING_POLICY.quietAnswers + Math.max(window.othersGap, this.othersGap) - 1;
		if (quiet) return window.remaining;
		// Turns: when the last answer found none of theirs since this run's previous request, give the
		// others about the time they take per request before going again, so a faster run does not end
		// a window ahead and leave the other alone with a request held back for it.
		const interval = this.othersIntervalNow();
		if (window.quietAnswers >= 1 && interval !== undefined && this.clock.now() < this.lastAnswerAt + interval) {
			this.holdUntil = this.lastAnswerAt + interval;
			return 0;
		}
		return window.remaining - 1;
	}

	/** The time the others take per request, one at a time: this window's once seen, else the last one's. */
	private othersIntervalNow(): number | undefined {
		const { window } = this;
		return window.othersSeen >= 2 ? (this.lastAnswerAt - window.sequentialSince!) / window.othersSeen : this.othersInterval;
	}

	/** Others' requests per request of this run: this window's once it has enough answers, else the last one's. */
	private othersNow(): number {
		const { window } = this;
		if (window.firstRemaining === undefined || window.remaining === undefined) return this.othersRatio;
		// At least this many were the others': the drop less every request of this run that it may hold.
		const others = window.firstRemaining - window.remaining - window.mineSinceFirst;
		const ratio = others > 0 ? others / Math.max(1, window.answersSinceFirst) : 0;
		return window.answersSinceFirst >= 10 ? ratio : Math.max(ratio, this.othersRatio);
	}

	private nextWindow(now: number): void {
		const previous = this.window;
		if (previous.counted) {
			this.othersRatio = this.othersNow();
			this.othersGap = previous.othersGap;
			if (previous.othersSeen >= 2) this.othersInterval = (this.lastAnswerAt - previous.sequentialSince!) / previous.othersSeen;
		}
		if (previous.counted) {
			// The service's next window; its counters arrive with the first answer.
			this.window = { end: now + this.windowMs, counted: true, answersSinceFirst: 0, mineSinceFirst: 0, quietAnswers: 0, othersGap: 1, othersSeen: 0 };
			return;
		}
		const { windowMs } = this;
		const margin = this.edgeMarginMs;
		if (previous.clock) this.share.ended(previous.clock);
		const start = Math.floor(now / windowMs) * windowMs;
		// Kept clear of both edges of the window: a request sent in its last moments may land in the next.
		if (now < start + margin || now >= start + windowMs - margin) {
			const opens = now < start + margin ? start + margin : start + windowMs + margin;
			this.window = { end: opens, counted: false, answersSinceFirst: 0, mineSinceFirst: 0, quietAnswers: 0, othersGap: 1, othersSeen: 0 };
			return;
		}
		const opensAt = Math.max(start + margin, this.pausedUntil > start ? this.pausedUntil : 0);
		const clock: ClockWindow = { start, opensAt, sent: 0, accepted: 0, refused: false, probing: false };
		this.window = { end: start + windowMs - margin, counted: false, answersSinceFirst: 0, mineSinceFirst: 0, quietAnswers: 0, othersGap: 1, othersSeen: 0, clock };
	}

	private read(counters: { limit: number; remaining: number; resetMs: number }, refused: boolean): void {
		this.perWindow = counters.limit;
		this.share.limitIs(counters.limit);
		const now = this.clock.now();
		const end = counters.resetMs + this.edgeMarginMs;
		const { window } = this;
		if (end <= now) {
			// Counted in a window this run thought over: the service's clock is behind this one.
			if (refused) this.edgeMarginMs = Math.min(PACING_POLICY.maxEdgeMarginMs, this.edgeMarginMs * 2);
			return;
		}
		const known = window.counted && window.remaining !== undefined;
		if (known && Math.abs(end - window.end) <= SAME_WINDOW_MS) {
			const before = window.remaining!;
			window.remaining = Math.min(before, counters.remaining);
			window.answersSinceFirst++;
			// One request at a time, each answer follows the last in the service's count: a drop of
			// one is this run's own request alone. With more in flight the order says nothing.
			if (this.inFlight.size > 0) {
				window.quietAnswers = -1;
			} else if (window.sequentialSince === undefined) {
				window.sequentialSince = this.lastAnswerAt;
				window.quietAnswers = 0;
			} else if (before - counters.remaining <= 1) {
				window.quietAnswers = Math.max(0, window.quietAnswers) + 1;
			} else {
				// How many of this run's answers the others' requests come apart, at most.
				if (window.quietAnswers >= 0) window.othersGap = Math.max(window.othersGap, window.quietAnswers + 1);
				window.othersSeen += before - counters.remaining - 1;
				window.quietAnswers = 0;
			}
			return;
		}
		// A window newer than the one in hand (an answer from an older one has ended already, above).
		if (!known || end > window.end) {
			this.window = { end, counted: true, remaining: counters.remaining, firstRemaining: counters.remaining, answersSinceFirst: 0, mineSinceFirst: this.inFlight.size, quietAnswers: 0, othersGap: 1, othersSeen: 0 };
		}
	}

	/** The service answered anything but a refusal: it is taking requests from this account. */
	private accepted(): void {
		this.limitedSince = undefined;
	}

	/**
	 * A refusal: pause the run, for Retry-After when given, and without
	 * counters until the next window opens. Returns why to give up instead when the wait would pass
	 * the run's Max Wait.
	 */
	private limited(retryAfterMs: number | undefined, counted: boolean, fullBefore: boolean): string | undefined {
		const now = this.clock.now();
		this.limitedSince ??= now;
		const waited = now - this.limitedSince;
		if (retryAfterMs !== undefined && waited + retryAfterMs > this.maxWaitMs) {
			this.givenUp = `The service asked to wait ${Math.ceil(retryAfterMs / 1000)} s (Retry-After), past the Max Wait of ${formatMs(this.maxWaitMs)}`;
		} else if (waited >= this.maxWaitMs) {
			this.givenUp = `The account's rate limit held for ${formatMs(waited)} with nothing accepted (Max Wait: ${formatMs(this.maxWaitMs)})`;
		}
		if (this.givenUp) return this.givenUp;
		let pause: number;
		if (counted) {
			// The counters know the window's reset.
			pause = retryAfterMs ?? Math.max(0, this.window.end - now);
		} else {
			// Without them the window is full until the next opens, unless a brief Retry-After says
			// otherwise; the runs refused as it filled resume together (and a little apart), and the
			// last try goes out at the Max Wait deadline. One that found it full before sending anything
			// met faster runs: past a Retry-After that ends after the next opening, their requests fill
			// that window too, so it waits for the one after.
			const resumes = now + (retryAfterMs ?? 0);
			const opening = (time: number) => Math.floor(time / this.windowMs) * this.windowMs + this.edgeMarginMs;
			const brief = retryAfterMs !== undefined && retryAfterMs < PACING_POLICY.briefRetryAfterShare * this.windowMs;
			const opens = brief ? resumes : fullBefore ? opening(resumes - this.edgeMarginMs + this.windowMs - 1) : Math.max(resumes, opening(now) + this.windowMs);
			const jitter = this.share.resumeJitter(this.clock.random());
			pause = Math.min(opens - now + jitter, Math.max(retryAfterMs ?? 0, this.maxWaitMs - waited));
		}
		this.pausedUntil = Math.max(this.pausedUntil, now + pause);
		return undefined;
	}

	/** Resolves at `time`; waiters for the same moment share one timer. */
	private async until(time: number): Promise<void> {
		let timer = this.timers.get(time);
		if (!timer) {
			timer = this.clock.sleep(Math.max(0, time - this.clock.now())).finally(() => this.timers.delete(time));
			this.timers.set(time, timer);
		}
		await timer;
	}
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
	let resolve!: () => void;
	const promise = new Promise<void>((done) => {
		resolve = done;
	});
	return { promise, resolve };
}

function formatMs(ms: number): string {
	if (ms >= 120_000) return `${Math.round(ms / 60_000)} min`;
	return `${Math.round(ms / 1000)} s`;
}

/** `Retry-After` in milliseconds (seconds form; an HTTP date is read too), or undefined. */
export function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value).trim();
	const seconds = Number(text);
	if (text !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(text);
	return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
