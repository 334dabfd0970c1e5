/**
 * A run's share of the account's limit when the service gives no counters. Nothing is shared
 * between runs, executions or workers: a refusal is the only sign that others are spending, and
 * every run reads it the same way, so together they settle on the whole window and no more.
 *
 * - Alone (never refused), a run sends the whole limit from each window's opening, one request at a
 *   time (more only when one at a time could not send it in the first half of the window): when
 *   the window fills, it meets one refusal, not one per request in flight.
 * - A refusal it did not expect (its first window, or someone new) makes the run contest the next
 *   window: from its opening, or from the end of the Retry-After that the runs refused together
 *   share, up to the whole limit at a pace every run of the category keeps (a turn each 40 % of the
 *   window ÷ the limit). Runs contesting together take equal turns, so when the window fills each
 *   keeps what it got as its share, and the shares add up to the window. A run that found a window
 *   full before sending anything contests twice: in the first the others learn of it.
 * - A run with a share sends it at that same pace, so that a contest beside it is fair too; runs
 *   refused together resume up to half a turn apart, not all at the same instant.
 * - Only after whole windows without a refusal does it ask for more: one request at a time, past
 *   the middle of the window, when the others' requests of the window are done. A refusal then
 *   costs that one request and doubles the windows before the next try; room found is kept, so a
 *   run left alone takes the window back.
 */

/** A window of the clock as one run saw it. */
export interface ClockWindow {
	/** When the window starts on this clock (its edge, before any margin), and when it opens (past the margin). */
	start: number;
	openingAt: number;
	/**
	 * When this run could first send in it: its opening, past the margin, or the end of the pause of
	 * a refusal in the window before. Runs refused when that window filled resume together.
	 */
	opensAt: number;
	/** Requests of this run sent in it, and how many of them the service accepted. */
	sent: number;
	accepted: number;
	/** Whether the service refused a request of this run sent in it. */
	refused: boolean;
	/** Requests of this run sent in it and not answered yet; once it is over, the last answer closes it. */
	inFlight: number;
	over: boolean;
	/** When this run's first request in it went. */
	firstSentAt?: number;
	/** Whether this run asked for more than its share in it. */
	probing: boolean;
	/** When this run's last request in it went. */
	lastSentAt?: number;
}

export const SHARING_POLICY = {
	/** A run sent from a window's opening when its first request in it went within this share of it (after the margin). */
	openingShare: 0.05,
	/** The share of the window a run's requests may spread over before it sends more than one at a time. */
	spreadShare: 0.5,
	/** A contest sends the whole limit over this share of the window, whatever the round trip, so runs of unequal speed take equal turns. */
	contestShare: 0.4,
	/** More is asked for only past this share of the window. */
	probeShare: 0.5,
	/** Windows without a refusal before more is first asked for; each refused ask doubles them, up to the last. */
	firstProbeAfter: 3,
	maxProbeAfter: 16,
};

export class ShareWithoutCounters {
	/** Requests per window this run allows itself. */
	private allowance: number;

	/** How many windows from the next are contested (the share measured again), the last one measured. */
	private contests = 0;

	private get contest(): boolean {
		return this.contests > 0;
	}

	/** What this run got in the last window that refused it: with the others' there, the window's limit. */
	private filledWith = 0;

	/** Whether the service has refused this run: others spend the account's limit too. */
	private met = false;

	private cleanWindows = 0;

	private probeAfter = SHARING_POLICY.firstProbeAfter;

	constructor(
		private perWindow: number,
		private windowMs: number,
	) {
		this.allowance = perWindow;
	}

	/** The window's length, when the service's refusals show it is not the one assumed. */
	windowIs(windowMs: number): void {
		this.windowMs = windowMs;
	}

	/** The account's limit per window, when the service says it. */
	limitIs(perWindow: number): void {
		this.perWindow = perWindow;
		this.allowance = Math.min(this.allowance, perWindow);
	}

	/** How many requests may go now, given this run's round trip (0 before the first answer). */
	room(window: ClockWindow, inFlight: number, now: number, roundTripMs: number): number {
		// A refused window needs no check here: the pacer's pause lasts past it, unless Max Wait ends
		// first, and then the last try goes.
		const allowance = Math.floor(this.allowance);
		if (this.contest || this.sharing(window)) {
			// At the contest's pace, so that runs contesting beside it take equal turns with it; more
			// than one at a time only when a round trip is longer than a turn.
			const next = this.nextContestTurn(window);
			const atOnce = Math.max(1, Math.ceil(roundTripMs / this.contestTurn()));
			return Number(window.sent < this.paced(window) && inFlight < atOnce && (next === undefined || now >= next));
		}
		if (window.sent < allowance) {
			const atOnce = Math.max(1, Math.ceil((allowance * roundTripMs) / (SHARING_POLICY.spreadShare * this.windowMs)));
			return Math.min(allowance - window.sent, atOnce - inFlight);
		}
		if (!window.probing && (this.cleanWindows < this.probeAfter || now < this.probeAt(window))) return 0;
		if (inFlight > 0) return 0;
		window.probing = true;
		return 1;
	}

	/** When this run may ask for more in the window, if it will (else undefined). */
	nextChance(window: ClockWindow): number | undefined {
		if (this.contest || this.sharing(window)) return this.nextContestTurn(window);
		if (window.probing || this.cleanWindows < this.probeAfter || this.allowance >= this.perWindow) return undefined;
		return this.probeAt(window);
	}

	/**
	 * How many the run sends in the window at the contest's pace: its share, or in a contest up to the
	 * whole limit. A contest entered late (the run's pause ran into the window) would not be even, so
	 * there the run sends only what it got in the window that refused it: with what the others got
	 * there, the window's limit, and nothing measured. The contest is the next window's, from its
	 * opening.
	 */
	private paced(window: ClockWindow): number {
		if (!this.contest) return Math.floor(this.allowance);
		return this.late(window) ? this.filledWith : this.perWindow;
	}

	/**
	 * A share of the limit not all sent yet in the window. Once the run has met others (a refusal),
	 * the whole limit is a share too, sent at the contest's pace: a run that took a window back while
	 * another sat out a pause would otherwise outpace that one's contest beside it.
	 */
	private sharing(window: ClockWindow): boolean {
		return window.sent < Math.floor(this.allowance) && (this.met || this.allowance < this.perWindow);
	}

	/** What the window that ended says about this run's share. */
	ended(window: ClockWindow): void {
		const usedAll = window.sent >= Math.floor(this.allowance);
		if (window.refused) {
			this.cleanWindows = 0;
			if (window.probing) {
				this.probeAfter = Math.min(SHARING_POLICY.maxProbeAfter, this.probeAfter * 2);
				this.allowance = Math.min(this.perWindow, Math.max(this.allowance, window.accepted));
			} else if (window.accepted === 0) {
				// Full before it sent anything: the runs that filled it do not know of this one until
				// the next window fills with its requests too, so only the one after measures.
				this.contests = 2;
			} else if (this.contests === 1 && this.contestedWhole(window)) {
				this.allowance = window.accepted;
				this.contests = 0;
			} else {
				this.contests = Math.max(1, this.contests - 1);
			}
			this.filledWith = window.accepted;
			this.met = true;
			return;
		}
		// A contest not sent from the window's opening (entered late, or paused through it) says
		// nothing of the others.
		if (this.contest && !this.contestedWhole(window)) return;
		if (this.contest) {
			// Nobody filled the window: the others have stopped, or send less.
			this.allowance = Math.min(this.perWindow, Math.max(this.allowance, window.accepted));
			this.contests = 0;
			return;
		}
		if (window.probing) {
			this.allowance = Math.min(this.perWindow, Math.max(this.allowance, window.accepted));
			this.probeAfter = SHARING_POLICY.firstProbeAfter;
		}
		if (usedAll) this.cleanWindows++;
	}

	/**
	 * Whether the run contested the whole window, from its own opening, where the runs refused
	 * together in the window before all start. One whose pause ran into the window (a Retry-After
	 * that ended past the opening, read later than the others read theirs) would have taken fewer
	 * turns than the others, who took theirs alone: it sent only what it got before (paced()).
	 */
	private contestedWhole(window: ClockWindow): boolean {
		const { firstSentAt } = window;
		return !this.late(window) && firstSentAt !== undefined && firstSentAt <= window.openingAt + SHARING_POLICY.openingShare * this.windowMs;
	}

	/** Whether the run's pause after a refusal ran into the window: its Retry-After ended past the opening. */
	private late(window: ClockWindow): boolean {
		return window.opensAt >= window.openingAt + this.resumeJitter(1);
	}

	/** How late a run resumes after a refusal, from `random` in [0, 1): less than a contest's turn, which keeps the turns equal. */
	resumeJitter(random: number): number {
		return (random * this.contestTurn()) / 2;
	}

	private contestTurn(): number {
		return (SHARING_POLICY.contestShare * this.windowMs) / this.perWindow;
	}

	private nextContestTurn(window: ClockWindow): number | undefined {
		return window.lastSentAt === undefined ? undefined : window.lastSentAt + this.contestTurn();
	}

	private probeAt(window: ClockWindow): number {
		return window.start + SHARING_POLICY.probeShare * this.windowMs;
	}
}
