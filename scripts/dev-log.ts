/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a progress timer (setInterval); never shipped */
/**
 * `npm run dev`'s log: `[dev] ` lines. No silent minute: while a step runs and nothing has been said
 * for `quietMs`, it says how far the step is: what the harness's long waits report (n8n's install:
 * elapsed time and packages unpacked), else the step and its elapsed time.
 */
import { formatElapsed, progressNow } from '../test/harness/log';

export interface DevLog {
	line(text: string): void;
	/** Runs one step of the start, saying what it does, how far it is while it is quiet, and how long it took. */
	step<T>(what: string, work: () => Promise<T> | T): Promise<T>;
}

export interface DevLogOptions {
	/** Longest quiet while a step runs (default 14 s, so a line comes at least every 15 s). */
	quietMs?: number;
	/** How often the quiet is checked. */
	checkMs?: number;
	/** What the long waits under way say about themselves (default: the harness's). */
	progress?: () => string[];
}

export function createDevLog(write: (text: string) => void, options: DevLogOptions = {}): DevLog {
	const quietMs = options.quietMs ?? 14_000;
	const progress = options.progress ?? progressNow;
	let lastLine = Date.now();
	const line = (text: string) => {
		lastLine = Date.now();
		write(`[dev] ${text}\n`);
	};
	const running: Array<{ what: string; started: number }> = [];
	let timer: NodeJS.Timeout | undefined;
	const check = () => {
		if (Date.now() - lastLine < quietMs || !running.length) return;
		const reports = progress();
		const current = running[running.length - 1];
		for (const report of reports.length ? reports : [`${current.what}: ${formatElapsed(Date.now() - current.started)} so far`]) line(report);
	};
	return {
		line,
		async step<T>(what: string, work: () => Promise<T> | T): Promise<T> {
			const entry = { what, started: Date.now() };
			line(`${what}...`);
			running.push(entry);
			if (!timer) {
				timer = setInterval(check, options.checkMs ?? 1000);
				timer.unref();
			}
			try {
				const result = await work();
				line(`${what}: done in ${((Date.now() - entry.started) / 1000).toFixed(1)} s`);
				return result;
			} finally {
				running.splice(running.indexOf(entry), 1);
				if (!running.length && timer) {
					clearInterval(timer);
					timer = undefined;
				}
			}
		},
	};
}
