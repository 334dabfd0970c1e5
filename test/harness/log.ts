/* eslint-disable @n8n/community-nodes/no-restricted-globals -- writes the harness log to stderr (process); never shipped */
/**
 * Where the harness says what it does. The test stages read it on stderr, each line prefixed
 * `[n8n-e2e] ` (the default); `npm run dev` routes it through its own log instead (`setHarnessLog`).
 * The long waits (n8n's install, the install lock) also say how far they are whenever a caller asks
 * (`progressNow`): npm run dev's log asks when it has been quiet for a while.
 */
export type HarnessLog = (text: string) => void;

const TESTS_LOG: HarnessLog = (text) => process.stderr.write(`[n8n-e2e] ${text}\n`);

let current: HarnessLog = TESTS_LOG;

/** One line, without prefix or newline. */
export function harnessLog(text: string): void {
	current(text);
}

/** Routes the harness's lines (undefined: back to the tests' stderr lines). */
export function setHarnessLog(log: HarnessLog | undefined): void {
	current = log ?? TESTS_LOG;
}

/** `45 s`, `3 min 05 s`: how long a wait has lasted, for people. */
export function formatElapsed(ms: number): string {
	const seconds = Math.max(0, Math.round(ms / 1000));
	if (seconds < 60) return `${seconds} s`;
	return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** The waits under way, each able to say how far it is. */
const waits = new Set<() => string>();

/** Runs `work`; while it runs, `progressNow()` includes `describe(elapsedMs)`. */
export async function withProgress<T>(describe: (elapsedMs: number) => string, work: () => Promise<T>): Promise<T> {
	const started = Date.now();
	const wait = () => describe(Date.now() - started);
	waits.add(wait);
	try {
		return await work();
	} finally {
		waits.delete(wait);
	}
}

/** What each wait under way says about itself now, oldest first (one that cannot tell is left out). */
export function progressNow(): string[] {
	const lines: string[] = [];
	for (const wait of waits) {
		try {
			lines.push(wait());
		} catch {
			// a wait whose folder vanished meanwhile says nothing this time
		}
	}
	return lines;
}
