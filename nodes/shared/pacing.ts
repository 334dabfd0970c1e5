import { sleep } from 'n8n-workflow';

/**
 * How a run paces itself to the account's rate limit. The service allows about 200 requests a
 * minute per account and promises no Retry-After, so after the first 429 the run slows to that
 * rate and then follows what the service answers: a 429 while paced slows it further, a stretch
 * of accepted requests speeds it up again (additive increase, multiplicative decrease).
 */
export const PACING_POLICY = {
	/** The published account limit, with a margin: the pace right after the first 429. */
	startRequestsPerMinute: 180,
	/** Never slower than this, however many executions share the account. */
	minRequestsPerMinute: 6,
	/** A 429 while paced multiplies the rate by this. */
	decrease: 0.7,
	/** Every accepted request while paced adds this many requests a minute. */
	increasePerAccepted: 0.1,
	/** The pause after a 429 without Retry-After; it doubles while 429s follow each other. */
	firstPauseMs: 1_000,
	maxPauseMs: 5_000,
	/** The default of the node option Rate Limit → Max Wait. */
	defaultMaxWaitMs: 15 * 60_000,
	/** Outside an execution (dropdowns, credential tests, triggers) nobody should wait long. */
	interactiveMaxWaitMs: 30_000,
};

export interface PacingClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: PacingClock = Object.freeze({ now: () => Date.now(), sleep: async (ms: number) => await sleep(ms) });

/** A request's turn: when it may be sent, or why it must not be sent at all. */
export type Turn = { sentAt: number } | { refused: string };

/**
 * The pace of one account within one run. Requests ask for a turn before each attempt and report
 * how the service answered; a 429 pauses every request of the run, then the first one through is
 * the probe, so a full window costs one 429 per pause rather than one per request in flight.
 */
export class AccountPacer {
	/** Time between request starts; 0 until the service first answers 429. */
	private intervalMs = 0;

	private nextSlot = 0;

	private pausedUntil = 0;

	/** Changes with every pause, so turns handed out before it are taken again after it. */
	private epoch = 0;

	private lastLimitAt = -Infinity;

	private pauses = 0;

	/** Start of the current run of 429s with nothing accepted in between. */
	private limitedSince?: number;

	private givenUp?: string;

	constructor(
		readonly maxWaitMs: number,
		private readonly clock: PacingClock = REAL_CLOCK,
	) {}

	/** Waits for this request's turn; refused once the run has given up on the limit. */
	async turn(): Promise<Turn> {
		for (;;) {
			if (this.givenUp) return { refused: this.givenUp };
			const epoch = this.epoch;
			const now = this.clock.now();
			const slot = Math.max(now, this.pausedUntil, this.nextSlot);
			this.nextSlot = slot + this.intervalMs;
			if (slot > now) await this.clock.sleep(slot - now);
			if (this.epoch === epoch && !this.givenUp) return { sentAt: this.clock.now() };
		}
	}

	/** The service answered anything but 429: it is taking requests from this account. */
	accepted(): void {
		this.pauses = 0;
		this.limitedSince = undefined;
		if (this.intervalMs > 0) this.setRate(60_000 / this.intervalMs + PACING_POLICY.increasePerAccepted);
	}

	/**
	 * The service answered 429 to a request sent at `sentAt`. Slows the run and pauses it, and
	 * returns why to give up instead when the wait would go past the run's Max Wait.
	 */
	rateLimited(sentAt: number, retryAfterMs?: number): string | undefined {
		const now = this.clock.now();
		this.limitedSince ??= now;
		// A 429 for a request sent before the run last reacted tells nothing new.
		const fresh = sentAt > this.lastLimitAt;
		let pause = 0;
		if (fresh) {
			if (this.intervalMs === 0) this.setRate(PACING_POLICY.startRequestsPerMinute);
			// Only a 429 that follows accepted requests says the pace itself is too fast; probes
			// refused during a pause only say the window is still full.
			else if (this.pauses === 0) this.setRate((60_000 / this.intervalMs) * PACING_POLICY.decrease);
			this.lastLimitAt = now;
			pause = Math.min(PACING_POLICY.maxPauseMs, PACING_POLICY.firstPauseMs * 2 ** this.pauses);
			this.pauses++;
		}
		const waited = now - this.limitedSince;
		if (retryAfterMs !== undefined && waited + retryAfterMs > this.maxWaitMs) {
			this.givenUp = `The service asked to wait ${Math.ceil(retryAfterMs / 1000)} s (Retry-After), past the Rate Limit → Max Wait of ${formatMs(this.maxWaitMs)}`;
		} else if (waited >= this.maxWaitMs) {
			this.givenUp = `The account's rate limit held for ${formatMs(waited)} with nothing accepted (Rate Limit → Max Wait: ${formatMs(this.maxWaitMs)})`;
		}
		if (this.givenUp) return this.givenUp;
		// The last probe goes out at the deadline rather than giving up early.
		pause = retryAfterMs ?? Math.min(pause, this.maxWaitMs - waited);
		if (now + pause > this.pausedUntil) {
			this.pausedUntil = now + pause;
			this.nextSlot = this.pausedUntil;
			this.epoch++;
		}
		return undefined;
	}

	private setRate(perMinute: number): void {
		const bounded = Math.min(Math.max(perMinute, PACING_POLICY.minRequestsPerMinute), PACING_POLICY.startRequestsPerMinute * 4);
		this.intervalMs = 60_000 / bounded;
	}
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
