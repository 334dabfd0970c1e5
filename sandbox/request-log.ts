/**
 * The requests the sandbox received (`requests()`, the control API's GET /requests), in arrival
 * order, and the ids they get: the state file keeps the next id, so ids go on rising across restarts.
 */
import type { RecordedRequest, RequestFilter } from './types';

export function matchesFilter(record: RecordedRequest, filter: RequestFilter = {}): boolean {
	if (filter.base !== undefined && record.base !== filter.base) return false;
	if (filter.method !== undefined && record.method.toUpperCase() !== filter.method.toUpperCase()) return false;
	if (filter.pathIncludes !== undefined && !record.path.includes(filter.pathIncludes)) return false;
	return true;
}

export class RequestLog {
	/** The id of the next request. */
	nextId = 1;

	private records: RecordedRequest[] = [];

	add(record: RecordedRequest): void {
		this.records.push(record);
	}

	list(filter?: RequestFilter): RecordedRequest[] {
		return this.records.filter((record) => matchesFilter(record, filter));
	}

	/** Drops the records (ids go on). */
	clear(): void {
		this.records = [];
	}

	/** clear(), and ids restart at 1. */
	reset(): void {
		this.clear();
		this.nextId = 1;
	}
}
