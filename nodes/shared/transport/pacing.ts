// A run's pace in one rate-limit category of one account: a turn before each attempt, its answer handed in after, and the waits a refusal asks for.
import { sleep } from 'n8n-workflow';

import { ClockPace } from './clockWindows';
import { CountedPace } from './counted';
import { EdgeMargin, PACING_POLICY, type Flight, type Pace, type PacingClock } from './pace';
import type { Rate } from './rateLimits';
import type { ThrottleReading } from './throttle';

export { PACING_POLICY, type PacingClock } from './pace';

const REAL_CLOCK: PacingClock = Object.freeze({ now: () => Date.now(), sleep: async (ms: number) => await sleep(ms), random: () => Math.random() });

/** A request's turn: when it went out, or why it must not be sent at all. */
export type Turn = { sentAt: number; ticket: number } | { refused: string };

/** How the pacer reads an answer: `throttled` when the request was refused for the limit and may go again. */
export type Verdict = { throttled: false } | { throttled: true; givenUp?: string };

/** One attempt in its turn: what the send met and the pacer's verdict, or why it gave up before sending (nothing went out). */
export type PacedAttempt<T> = { sent: false; givenUp: string } | { sent: true; met: T; throttled: boolean; givenUp?: string };

/**
 * The pace of one category of one account within one run. Requests ask for a turn before each
 * attempt and hand in the answer. The service's counters pace the run once an answer carries them
 * (counted.ts); until then, and if they stop, the clock's windows do (clockWindows.ts). A refusal
 * pauses every request of the run, so a full window costs one refusal rather than one per request
 * in flight, and the run gives up once its Max Wait has passed with nothing accepted.
 */
export class CategoryPacer {
	private readonly counted: CountedPace;

	private readonly onTheClock: ClockPace;

	/** The pace in hand: by the counters, or on the clock. */
	private pace: Pace;

	/** Requests in flight, with what their answers are read against. */
	private readonly inFlight = new Map<number, Flight>();

	private lastTicket = 0;

	/** Whether the service has answered this run at all. */
	private heard = false;

	private pausedUntil = 0;

	/** Start of the current run of refusals with nothing accepted in between. */
	private limitedSince?: number;

	private givenUp?: string;

	private answered = deferred();

	private readonly timers = new Map<number, Promise<void>>();

	constructor(
		rate: Rate,
		readonly maxWaitMs: number,
		private readonly clock: PacingClock = REAL_CLOCK,
	) {
		// The window's length without counters: the documented minute, or the credential's own.
		const windowMs = typeof rate === 'number' ? PACING_POLICY.windowMs : rate.windowMs;
		const perWindow = typeof rate === 'number' ? Math.max(1, Math.round((rate * PACING_POLICY.windowMs) / 60_000)) : rate.limit;
		const edge = new EdgeMargin();
		this.counted = new CountedPace(windowMs, edge);
		this.onTheClock = new ClockPace(perWindow, windowMs, typeof rate !== 'number', edge, clock);
		this.pace = this.onTheClock;
	}

	/**
	 * An attempt in its turn: waits for it, sends, and hands in what the send met as `read` reads it
	 * (undefined: no answer). `givenUp` says the run gave up on the limit, before sending or on a refusal.
	 */
	async attempt<T>(send: () => Promise<T>, read: (met: T) => ThrottleReading | undefined): Promise<PacedAttempt<T>> {
		const turn = await this.turn();
		if ('refused' in turn) return { sent: false, givenUp: turn.refused };
		const met = await send();
		const verdict = this.answer(turn, read(met));
		return { sent: true, met, throttled: verdict.throttled, givenUp: verdict.throttled ? verdict.givenUp : undefined };
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
			const inFlight = this.inFlight.size;
			// The run's first request goes alone: its answer says whether the service counts, and how
			// much of the window others have left, before a burst could meet a full window.
			if (this.pace.room(now, inFlight) > 0 && (this.heard || inFlight === 0)) {
				const ticket = ++this.lastTicket;
				this.inFlight.set(ticket, this.pace.sent(now, inFlight + 1));
				return { sentAt: now, ticket };
			}
			// An answer in flight may show room; otherwise the pace says when to look again.
			const wake = this.pace.wakeAt(now);
			await (inFlight > 0 ? Promise.race([this.answered.promise, this.until(wake)]) : this.until(wake));
		}
	}

	/**
	 * Hands in how the service answered a turn (undefined: no answer, the connection failed), as
	 * throttle.ts reads it: its counters, and whether it refused the request for the limit.
	 */
	answer(turn: { sentAt: number; ticket: number }, reading: ThrottleReading | undefined): Verdict {
		const flight = this.inFlight.get(turn.ticket);
		this.inFlight.delete(turn.ticket);
		const now = this.clock.now();
		if (reading) {
			this.heard = true;
			this.choosePace(reading, now);
		}
		this.pace.answered(now, flight, reading);
		let verdict: Verdict = { throttled: false };
		if (reading?.throttle) verdict = { throttled: true, givenUp: this.refused(now, reading.retryAfterMs, flight) };
		// The service answered anything but a refusal: it is taking requests from this account.
		else if (reading) this.limitedSince = undefined;
		const { resolve } = this.answered;
		this.answered = deferred();
		resolve();
		return verdict;
	}

	/** Counters pace the run by them; a window of theirs whose first answer comes without them goes back to the clock. */
	private choosePace(reading: ThrottleReading, now: number): void {
		if (reading.counters) {
			this.onTheClock.limitIs(reading.counters.limit);
			if (this.counted.read(reading.counters, reading.throttle, this.inFlight.size, now)) this.pace = this.counted;
		} else if (this.pace === this.counted && this.counted.unread) {
			this.onTheClock.restart();
			this.pace = this.onTheClock;
		}
	}

	/** A refusal: pause the run as the pace says, or give up when the wait would pass the run's Max Wait. */
	private refused(now: number, retryAfterMs: number | undefined, flight: Flight | undefined): string | undefined {
		this.limitedSince ??= now;
		const waited = now - this.limitedSince;
		if (retryAfterMs !== undefined && waited + retryAfterMs > this.maxWaitMs) {
			this.givenUp = `The service asked to wait ${Math.ceil(retryAfterMs / 1000)} s (Retry-After), past the Max Wait of ${formatMs(this.maxWaitMs)}`;
		} else if (waited >= this.maxWaitMs) {
			this.givenUp = `The account's rate limit held for ${formatMs(waited)} with nothing accepted (Max Wait: ${formatMs(this.maxWaitMs)})`;
		}
		if (this.givenUp) return this.givenUp;
		this.pausedUntil = Math.max(this.pausedUntil, now + this.pace.pauseFor(now, retryAfterMs, flight, this.maxWaitMs - waited));
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
