// What a pace is: the two ways a run keeps to a category's limit, by the service's counters or on the clock's windows without them, as the pacer asks them.
import type { ClockWindow } from './share';
import type { ThrottleReading } from './throttle';

/**
 * How a run paces itself to one rate-limit category of the account. The service counts requests
 * per category in one-minute windows. When its answers carry `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (the account's own counters, shared by every execution and worker), a run
 * sends exactly what is left and waits for the reset (counted.ts). Without them it assumes the
 * documented windows on the clock's minutes and sends its share of the limit in each
 * (clockWindows.ts, share.ts).
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
	/**
	 * The documented Retry-After (30 s) is this share of the documented window. A refusal that names
	 * another, with no counters and no window in the credential, says the service counts in other
	 * windows: this many times shorter (the sandbox's scaled time, an account on shorter windows).
	 */
	documentedRetryAfterShare: 0.5,
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

/** A request of the run in flight: when it went, and the clock's window it went in (without counters). */
export interface Flight {
	sentAt: number;
	window?: ClockWindow;
}

/**
 * The margin kept clear of a window's edge, for the difference between this clock and the
 * service's: both paces keep it, and it widens when the counters show the service's clock behind.
 */
export class EdgeMargin {
	ms = PACING_POLICY.edgeMarginMs;

	/** An answer refused in a window this run thought over: the service's clock is behind this one. */
	widen(): void {
		this.ms = Math.min(PACING_POLICY.maxEdgeMarginMs, this.ms * 2);
	}
}

/** One way of pacing a category; the pacer asks the one in hand before each request and tells it each answer. */
export interface Pace {
	/** How many requests may go at `now` with `inFlight` of the run's in flight; a window that has ended gives way to the next first. */
	room(now: number, inFlight: number): number;
	/** A request goes at `now`, `inFlight` of the run's in flight with it: what its answer is read against. */
	sent(now: number, inFlight: number): Flight;
	/** With no room, when to look again if no answer comes first: the window's end, or a turn or a chance before it. */
	wakeAt(now: number): number;
	/** The service answered a request (`reading` undefined: no answer, the connection failed). */
	answered(now: number, flight: Flight | undefined, reading: ThrottleReading | undefined): void;
	/** How long a refusal read at `now` pauses the run, with `leftMs` of its Max Wait left. */
	pauseFor(now: number, retryAfterMs: number | undefined, flight: Flight | undefined, leftMs: number): number;
}
