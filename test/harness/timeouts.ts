/* eslint-disable @n8n/community-nodes/no-restricted-globals -- waits by the harness bounds (timers); never shipped */
/**
 * Every bound the real-n8n harness waits by: each wait of install.ts, process.ts and instance.ts is
 * one of these, and JEST_TIMEOUTS gives the hooks and tests that use the harness room for them.
 * A test's own timing budget comes from `budget()`, which stretches it on a busy machine.
 */
import { budget } from '../../sandbox/timing';

// the sandbox owns the load-aware budget (its own waits use it); the harness shares it
export { budget, loadFactor } from '../../sandbox/timing';

/**
 * Polls `check` every `intervalMs` until it returns a value (not undefined), within budget(`timeoutMs`);
 * then throws naming `what`, the budget, and `describe()` of the last state when given.
 */
export async function pollFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, describe?: () => Promise<string>, intervalMs = 250): Promise<T> {
	const allowed = budget(timeoutMs);
	const deadline = Date.now() + allowed;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) {
			const state = describe ? await describe().catch((error: unknown) => String(error)) : '';
			throw new Error(`Waited ${allowed} ms for ${what}; gave up.${state ? ` ${state}` : ''}`);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** All timeouts in milliseconds. Generous, but every wait is bounded. */
export const TIMEOUTS = {
	/** Cold `npm install n8n@2.8.4`: measured 4.1 min (warm npm cache) to 6 min. */
	n8nInstall: 15 * 60_000,
	/** Waiting for another process's install lock: longer than one install. */
	lockWait: 20 * 60_000,
	/** `n8n --version`. */
	version: 60_000,
	/** `npm pack`. */
	pack: 120_000,
	/** `npm install --omit=peer <tarball>` into the user folder. */
	packageInstall: 180_000,
	/** `n8n import:*`, `n8n publish:workflow` (first call also runs DB migrations, ~6 s). */
	cli: 120_000,
	/** `n8n execute`: measured 4.5 to 6.5 s per call (process start included). */
	execute: 180_000,
	/** n8n answering 503 "Database is not ready!" (its database check failing) before a request is given up. */
	databaseReady: 60_000,
	/** `n8n start` until "Editor is now accessible": measured 5 to 6.5 s. */
	start: 120_000,
	/** Between SIGTERM and SIGKILL. n8n stopped in 0.3 to 2 s. */
	stopGrace: 15_000,
	/** After SIGKILL, waiting for the process group to disappear. */
	killWait: 10_000,
	/** One HTTP request to the running instance. */
	http: 30_000,
	/** Default for `waitForExecutions`. */
	executionWait: 30_000,
} as const;

/** Jest timeouts for hooks/tests that use this harness (ensureN8n may install cold). */
export const JEST_TIMEOUTS = {
	ensureN8n: TIMEOUTS.lockWait + TIMEOUTS.n8nInstall + 2 * 60_000,
	createInstance: TIMEOUTS.pack + TIMEOUTS.packageInstall + 60_000,
	execute: TIMEOUTS.execute + 30_000,
	server: TIMEOUTS.start + TIMEOUTS.cli * 2 + 60_000,
	dispose: TIMEOUTS.stopGrace + TIMEOUTS.killWait * 2 + 30_000,
} as const;
