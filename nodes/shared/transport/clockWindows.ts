// Pacing on the clock's windows, when the service gives no counters: the documented windows assumed, the run's share of each, a refusal waiting for the next.
import { PACING_POLICY, type EdgeMargin, type Flight, type Pace, type PacingClock } from './pace';
import { ShareWithoutCounters, type ClockWindow } from './share';
import type { ThrottleReading } from './throttle';

/**
 * The windows are the clock's (the documented minute, or the credential's own window), kept clear
 * of their edges; what the run sends in each is its share (share.ts). A refusal means the window
 * is full: the run waits for the next one's opening, and runs refused together resume together.
 */
export class ClockPace implements Pace {
	/** When the window in hand ends on this clock, margin included, or the gap at its edge does. */
	private end = 0;

	/** The window in hand; absent in the gap kept at a window's edge. */
	private window?: ClockWindow;

	/** What the run allows itself per window. */
	private readonly share: ShareWithoutCounters;

	/** When the pause of the run's last refusal ends. */
	private resumesAt = 0;

	/** The round trip of this run's accepted requests (a moving average; 0 before the first). */
	private roundTripMs = 0;

	constructor(
		perWindow: number,
		private windowMs: number,
		/** Whether the credential named the window (Custom Rate Limits, `50/30s`): then it is not learnt. */
		private readonly windowNamed: boolean,
		private readonly edge: EdgeMargin,
		private readonly clock: PacingClock,
	) {
		this.share = new ShareWithoutCounters(perWindow, windowMs);
	}

	/** The account's limit per window, when the service says it. */
	limitIs(perWindow: number): void {
		this.share.limitIs(perWindow);
	}

	/** Paced on the clock again after the counters: a new window, the one left behind not read as a share. */
	restart(): void {
		this.end = 0;
		this.window = undefined;
	}

	room(now: number, inFlight: number): number {
		if (now >= this.end) this.nextWindow(now);
		return this.window ? this.share.room(this.window, inFlight, now, this.roundTripMs) : 0;
	}

	sent(now: number): Flight {
		const { window } = this;
		if (window) {
			window.sent++;
			window.inFlight++;
			window.firstSentAt ??= now;
			window.lastSentAt = now;
		}
		return { sentAt: now, window };
	}

	wakeAt(now: number): number {
		// a chance to ask for more, or a turn of the share, may come before the window's end
		const chance = this.window && this.share.nextChance(this.window);
		return Math.min(chance !== undefined && chance > now ? chance : Infinity, this.end);
	}

	answered(now: number, flight: Flight | undefined, reading: ThrottleReading | undefined): void {
		const window = flight?.window;
		if (flight && reading && !reading.throttle) {
			const roundTrip = now - flight.sentAt;
			this.roundTripMs = this.roundTripMs === 0 ? roundTrip : 0.8 * this.roundTripMs + 0.2 * roundTrip;
		}
		if (!window) return;
		window.inFlight--;
		if (reading?.throttle) window.refused = true;
		else if (reading) window.accepted++;
		// A window that is over tells the share what it learnt once its last answer is in: a refusal
		// read after it ended (a late answer on a busy n8n) still counts for it.
		if (window.over && window.inFlight === 0) this.share.ended(window);
	}

	/**
	 * The window is full until the next opens, unless a brief Retry-After says otherwise; the runs
	 * refused as it filled resume together (and a little apart), and the last try goes out at the Max
	 * Wait deadline. One that found it full before sending anything met faster runs: past a
	 * Retry-After that ends after the next opening, their requests fill that window too, so it waits
	 * for the one after.
	 */
	pauseFor(now: number, retryAfterMs: number | undefined, flight: Flight | undefined, leftMs: number): number {
		this.learnWindow(now, retryAfterMs);
		const { windowMs } = this;
		const margin = this.edge.ms;
		const resumes = now + (retryAfterMs ?? 0);
		const opening = (time: number) => Math.floor(time / windowMs) * windowMs + margin;
		const brief = retryAfterMs !== undefined && retryAfterMs < PACING_POLICY.briefRetryAfterShare * windowMs;
		const fullBefore = flight?.window?.accepted === 0;
		const opens = brief ? resumes : fullBefore ? opening(resumes - margin + windowMs - 1) : Math.max(resumes, opening(now) + windowMs);
		const jitter = this.share.resumeJitter(this.clock.random());
		const pause = Math.min(opens - now + jitter, Math.max(retryAfterMs ?? 0, leftMs));
		this.resumesAt = Math.max(this.resumesAt, now + pause);
		return pause;
	}

	/**
	 * A Retry-After other than the documented half window says the service counts in shorter windows
	 * than the one assumed (nothing named one): twice the Retry-After, when that is a whole share of
	 * the minute, as windows on the clock's minutes are. A Retry-After that is rather the time left
	 * in the window seldom makes one; brief ones are taken at their word, and longer windows are
	 * never learnt (the refusal's wait is honoured whatever its length).
	 */
	private learnWindow(now: number, retryAfterMs: number | undefined): void {
		if (this.windowNamed || retryAfterMs === undefined || retryAfterMs < PACING_POLICY.briefRetryAfterShare * this.windowMs) return;
		const windowMs = retryAfterMs / PACING_POLICY.documentedRetryAfterShare;
		if (windowMs >= this.windowMs || PACING_POLICY.windowMs % windowMs !== 0) return;
		this.windowMs = windowMs;
		this.share.windowIs(windowMs);
		// the window in hand ends with the shorter one the refusal came in
		this.end = Math.min(this.end, Math.floor(now / windowMs) * windowMs + windowMs - this.edge.ms);
	}

	/** The window that ended tells the share what it learnt; the next is kept clear of both its edges. */
	private nextWindow(now: number): void {
		const { windowMs } = this;
		const margin = this.edge.ms;
		if (this.window) this.close(this.window);
		const start = Math.floor(now / windowMs) * windowMs;
		// A request sent in a window's last moments may land in the next.
		if (now < start + margin || now >= start + windowMs - margin) {
			this.window = undefined;
			this.end = now < start + margin ? start + margin : start + windowMs + margin;
			return;
		}
		const opensAt = Math.max(start + margin, this.resumesAt > start ? this.resumesAt : 0);
		this.window = { start, openingAt: start + margin, opensAt, sent: 0, accepted: 0, refused: false, inFlight: 0, over: false, probing: false };
		this.end = start + windowMs - margin;
	}

	/** The window has ended: the share reads it now, or once the answers still out for it are in. */
	private close(window: ClockWindow): void {
		window.over = true;
		if (window.inFlight === 0) this.share.ended(window);
	}
}
