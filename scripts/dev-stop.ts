/* eslint-disable @n8n/community-nodes/no-restricted-globals -- watches its parent process and signals (process, setInterval); never shipped */
/**
 * How `npm run dev` learns that it should stop. npm passes SIGINT and SIGTERM on to the shell of a
 * script only, and Debian's sh (dash) dies of them without passing them on: that left this process
 * and its n8n running after a `kill <npm pid>`. The script now `exec`s (package.json), so npm's
 * signals reach this process; and beside SIGINT, SIGTERM and SIGHUP, its parent going away (npm
 * killed outright, a shell of another launcher) asks it to stop too: the process is then
 * re-parented, and its parent pid changes.
 */
export interface StopWatchOptions {
	/** Default SIGINT, SIGTERM, SIGHUP. */
	signals?: NodeJS.Signals[];
	/** The parent to watch (default: this process's parent now). */
	parentPid?: number;
	/** How often the parent is checked (default 500 ms). */
	pollMs?: number;
}

/**
 * Calls `handler(reason)` for each stop request: a signal (`SIGTERM`), or `parent gone` once. Returns
 * a function that stops watching. Nothing here keeps the process alive.
 */
export function onStopRequest(handler: (reason: string) => void, options: StopWatchOptions = {}): () => void {
	const parent = options.parentPid ?? process.ppid;
	const listeners = (options.signals ?? ['SIGINT', 'SIGTERM', 'SIGHUP']).map((signal) => {
		const listener = () => handler(signal);
		process.on(signal, listener);
		return { signal, listener };
	});
	const poll = setInterval(() => {
		if (process.ppid === parent) return;
		clearInterval(poll);
		handler(`its parent process (${parent}) ended`);
	}, options.pollMs ?? 500);
	poll.unref();
	return () => {
		clearInterval(poll);
		for (const { signal, listener } of listeners) process.off(signal, listener);
	};
}
