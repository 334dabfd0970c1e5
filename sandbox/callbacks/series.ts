/**
 * The reports of one send or one placed call, posted in order on their timeline: grouped by base
 * delay, each group at acceptance + delay × timeScale, never before the first attempts of the
 * previous group have finished (so they arrive in order even with timeScale 0). A placed call's
 * series can be stopped before its next report (endCall).
 */
import type { CallbackWork, Deliver, ScheduledReport } from './types';
import { callStatusReports, type CallStatusReport } from './voice';

/** A series of scheduled reports (one send, one call) that can be stopped before its next report. */
export interface SeriesHandle {
	cancel(): void;
}

/** The reports grouped by base delay, the earliest group first. */
function groupsOf(reports: ScheduledReport[]): Array<[number, ScheduledReport[]]> {
	const groups = new Map<number, ScheduledReport[]>();
	for (const report of reports) {
		const group = groups.get(report.delayMs);
		if (group) group.push(report);
		else groups.set(report.delayMs, [report]);
	}
	return [...groups.entries()].sort((a, b) => a[0] - b[0]);
}

export class ReportSeries {
	/** The scheduled status callbacks of each placed call still running, by CallSid (see endCall). */
	private readonly calls = new Map<string, SeriesHandle>();

	constructor(
		private readonly work: CallbackWork,
		private readonly deliver: Deliver,
		private readonly timeScale: number,
	) {}

	/** Posts the reports of one send on their timeline; `done` runs when the series ends on its own. */
	schedule(reports: ScheduledReport[], done?: () => void): SeriesHandle {
		const ordered = groupsOf(reports);
		const generation = this.work.generation;
		const acceptedAt = Date.now();
		let cancelled = false;
		let timer: NodeJS.Timeout | undefined;
		const next = (i: number) => {
			if (cancelled || generation !== this.work.generation) return;
			if (i >= ordered.length) {
				done?.();
				return;
			}
			const [delayMs, group] = ordered[i];
			const wait = Math.max(0, acceptedAt + delayMs * this.timeScale - Date.now());
			timer = this.work.after(wait, () => {
				timer = undefined;
				const go = () => next(i + 1);
				void Promise.all(group.map((report) => this.deliver(report.make()))).then(go, go);
			});
		};
		next(0);
		return {
			cancel: () => {
				cancelled = true;
				if (timer) this.work.cancel(timer);
				timer = undefined;
			},
		};
	}

	/** v1 call status callbacks of a call placed with Calls/connect (answered, terminal), in order. */
	callStatusScheduled(reports: readonly CallStatusReport[]): void {
		if (!reports.length) return;
		const callSid = reports[0].callSid;
		const handle = this.schedule(callStatusReports(reports), () => {
			if (this.calls.get(callSid) === handle) this.calls.delete(callSid);
		});
		this.calls.set(callSid, handle);
	}

	/** Cancels the status callbacks of a placed call not posted yet (a report already in flight goes on). */
	cancelCallStatus(callSid: string): boolean {
		const handle = this.calls.get(callSid);
		if (!handle) return false;
		handle.cancel();
		this.calls.delete(callSid);
		return true;
	}

	/** Forgets every call's series (their timers are cancelled with all the others). */
	clear(): void {
		this.calls.clear();
	}
}
