/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the machine's load (os, process.env); never shipped */
/**
 * Timing budgets that hold on a busy machine, for the sandbox's own waits and its tests (the
 * package's test harness re-exports them): a bound written for a quiet machine, stretched by how
 * busy this one is now.
 */
import * as os from 'os';

/**
 * How much slower than a quiet machine this one is now: the 1-minute load average per core when it
 * is above 1, or `TEST_TIME_FACTOR` (set by `npm run test:load` to the CPU burners' share), whichever
 * is higher; at most 8.
 */
export function loadFactor(): number {
	const perCore = os.loadavg()[0] / Math.max(1, os.cpus().length);
	const declared = Number(process.env.TEST_TIME_FACTOR ?? 1);
	return Math.min(8, Math.max(1, perCore, Number.isFinite(declared) ? declared : 1));
}

/** A timing budget of a wait: `ms` on a quiet machine, stretched by loadFactor() on a busy one. */
export function budget(ms: number): number {
	return Math.round(ms * loadFactor());
}
