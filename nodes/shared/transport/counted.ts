// Pacing by the service's counters: what is left of the account's window, shared by every run that uses the account.
import { PACING_POLICY, type EdgeMargin, type Flight, type Pace } from './pace';
import type { Counters } from './throttle';

/** Resets within this of each other name the same window (they are whole seconds). */
const SAME_WINDOW_MS = 1_000;

/** A window of the service's, as the counters in this run's answers describe it. */
interface CountedWindow {
	/** When it ends on this clock, margin included. */
	end: number;
	/** The lowest Remaining read in it; undefined until its first answer. */
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
}

const windowEnding = (end: number, counters?: { remaining: number; mine: number }): CountedWindow => ({
	end,
	remaining: counters?.remaining,
	firstRemaining: counters?.remaining,
	answersSinceFirst: 0,
	mineSinceFirst: counters?.mine ?? 0,
	quietAnswers: 0,
	othersGap: 1,
	othersSeen: 0,
});

/**
 * Alone on the account a run sends exactly what the counters leave; beside others (the counters
 * drop by more than its own requests) one request at a time, taking turns with them, and leaving
 * the window's last request to them while they send.
 */
export class CountedPace implements Pace {
	private window = windowEnding(0);

	/** The most requests this run had in flight at once, to size its reserve near a window's end. */
	private peakInFlight = 1;

	/** Others' requests per request of this run, as the counters showed in the last window. */
	private othersRatio = 0;

	/** How many answers of this run, one at a time, the others' requests came apart at most in the last window. */
	private othersGap = 1;

	/** The time the others took per request in the last window this run saw them send. */
	private othersInterval?: number;

	private lastAnswerAt = 0;

	/** Until when the run leaves its turn to the others. */
	private holdUntil = 0;

	constructor(
		private readonly windowMs: number,
		private readonly edge: EdgeMargin,
	) {}

	/** Whether the window in hand waits for its counters: no answer has read them yet. */
	get unread(): boolean {
		return this.window.remaining === undefined;
	}

	room(now: number, inFlight: number): number {
		if (now >= this.window.end) this.nextWindow(now);
		const { window } = this;
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
		if (window.quietAnswers >= 1 && interval !== undefined && now < this.lastAnswerAt + interval) {
			this.holdUntil = this.lastAnswerAt + interval;
			return 0;
		}
		return window.remaining - 1;
	}

	sent(now: number, inFlight: number): Flight {
		this.peakInFlight = Math.max(this.peakInFlight, inFlight);
		this.window.mineSinceFirst++;
		return { sentAt: now };
	}

	wakeAt(now: number): number {
		return Math.min(this.holdUntil > now ? this.holdUntil : Infinity, this.window.end);
	}

	answered(now: number): void {
		this.lastAnswerAt = now;
	}

	/** The counters know the window's reset. */
	pauseFor(now: number, retryAfterMs: number | undefined): number {
		return retryAfterMs ?? Math.max(0, this.window.end - now);
	}

	/**
	 * Reads the counters of an answer, `inFlight` of this run's requests still out; false when they
	 * describe a window already over (the service's clock is behind this one).
	 */
	read(counters: Counters, refused: boolean, inFlight: number, now: number): boolean {
		const end = counters.resetMs + this.edge.ms;
		const { window } = this;
		if (end <= now) {
			if (refused) this.edge.widen();
			return false;
		}
		const known = window.remaining !== undefined;
		if (known && Math.abs(end - window.end) <= SAME_WINDOW_MS) {
			this.readAgain(window, counters.remaining, inFlight);
		} else if (!known || end > window.end) {
			// A window newer than the one in hand (an answer from an older one has ended already, above).
			this.window = windowEnding(end, { remaining: counters.remaining, mine: inFlight });
		}
		return true;
	}

	/** Another answer in the window in hand: what the others spent since this run's last. */
	private readAgain(window: CountedWindow, remaining: number, inFlight: number): void {
		const before = window.remaining!;
		window.remaining = Math.min(before, remaining);
		window.answersSinceFirst++;
		// One request at a time, each answer follows the last in the service's count: a drop of
		// one is this run's own request alone. With more in flight the order says nothing.
		if (inFlight > 0) {
			window.quietAnswers = -1;
		} else if (window.sequentialSince === undefined) {
			window.sequentialSince = this.lastAnswerAt;
			window.quietAnswers = 0;
		} else if (before - remaining <= 1) {
			window.quietAnswers = Math.max(0, window.quietAnswers) + 1;
		} else {
			// How many of this run's answers the others' requests come apart, at most.
			if (window.quietAnswers >= 0) window.othersGap = Math.max(window.othersGap, window.quietAnswers + 1);
			window.othersSeen += before - remaining - 1;
			window.quietAnswers = 0;
		}
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

	/** The service's next window, learnt from the last; its counters arrive with the first answer. */
	private nextWindow(now: number): void {
		const previous = this.window;
		this.othersRatio = this.othersNow();
		this.othersGap = previous.othersGap;
		if (previous.othersSeen >= 2) this.othersInterval = (this.lastAnswerAt - previous.sequentialSince!) / previous.othersSeen;
		this.window = windowEnding(now + this.windowMs);
	}
}
