// Sending a few requests at a time: batches by request-level values, one request per prepared item, results in order.
import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from './outcomes';

/**
 * Requests in flight at once: enough to hide the service's latency. The account's rate limit is
 * kept by the run's pacing (pacing.ts), not by this number; more in flight only adds a few 429s
 * at the first full window.
 */
export const REQUESTS_IN_FLIGHT = 6;

/** Groups entries that may share a request (same key), then cuts each group to the service's size limit. */
export function batchesOf<T>(entries: T[], keyOf: (entry: T) => string, size: number): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = keyOf(entry);
		const group = groups.get(key);
		if (group) group.push(entry);
		else groups.set(key, [entry]);
	}
	const batches: T[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += size) batches.push(group.slice(start, start + size));
	}
	return batches;
}

/**
 * Sends one request per prepared item, a few at a time. A result that is a list gives one output
 * item per entry (list operations); a thrown error becomes that item's failure, marked when the
 * service may have acted on it anyway.
 */
export async function sendEach<T extends { itemIndex: number }>(
	prepared: T[],
	send: (entry: T) => Promise<IDataObject | IDataObject[]>,
	options: { inFlight?: number; firstAlone?: boolean } = {},
): Promise<ItemOutcome[]> {
	const run = async (entry: T): Promise<ItemOutcome[]> => {
		try {
			const result = await send(entry);
			const list = Array.isArray(result) ? result : [result];
			return list.map((json) => ({ itemIndex: entry.itemIndex, json }));
		} catch (error) {
			const json: IDataObject = error.context?.deliveryUnknown === true ? { deliveryUnknown: true } : {};
			return [{ itemIndex: entry.itemIndex, json, error }];
		}
	};
	// With a session credential the first request logs in; the others then reuse that session
	// instead of each logging in at the same time.
	const head = options.firstAlone && prepared.length > 1 ? [await run(prepared[0])] : [];
	const rest = await inParallel(
		prepared.slice(head.length).map((entry) => async () => await run(entry)),
		options.inFlight ?? REQUESTS_IN_FLIGHT,
	);
	return [...head, ...rest].flat();
}

/** For session-credential requests: the first one logs in, the rest reuse its session. */
export const SESSION_REQUESTS = { firstAlone: true };

/** Runs tasks with at most `limit` in flight, keeping results in task order. */
export async function inParallel<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
	const results = new Array<T>(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
	return results;
}
