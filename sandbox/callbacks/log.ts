/**
 * The callback log: every attempt the dispatcher finished, in that order, with the delivery ids that
 * tie a callback's attempts together, and the URLs marked failing (README, "Acknowledgement, retries,
 * the log"). Tests and the control API read it; delivery.ts writes it.
 */
import type { CallbackAttempt, CallbackFilter, DeliveryRequest, FailingWebhook } from './types';

/** The log keeps at most this many attempts (the oldest are dropped). */
export const CALLBACK_LOG_LIMIT = 100_000;

/** What one attempt adds to its delivery's request in the log. */
export type AttemptFields = Omit<CallbackAttempt, 'id' | 'url' | 'kind' | 'body' | 'messageSid' | 'nextAttemptInMs'>;

/** The log entry of one attempt to post `request`, delivery `id`. */
export function attemptEntry(id: number, request: DeliveryRequest, fields: AttemptFields): CallbackAttempt {
	const { attempt, status, outcome, signed, headers, time, durationMs, ...rest } = fields;
	const entry: CallbackAttempt = {
		id,
		url: request.url,
		kind: request.kind,
		attempt,
		status,
		outcome,
		signed,
		body: request.body,
		headers,
		time,
		durationMs,
		...rest,
	};
	if (request.messageSid !== undefined) entry.messageSid = request.messageSid;
	return entry;
}

export class CallbackLog {
	private entries: CallbackAttempt[] = [];

	private readonly failing = new Map<string, FailingWebhook>();

	private nextId = 1;

	/** A new delivery id, shared by the attempts of one callback. */
	newId(): number {
		return this.nextId++;
	}

	record(entry: CallbackAttempt): void {
		this.entries.push(entry);
		if (this.entries.length > CALLBACK_LOG_LIMIT * 1.1) this.entries.splice(0, this.entries.length - CALLBACK_LOG_LIMIT);
	}

	/** The URL of a delivery whose last attempt failed is failing (one mark per URL, the latest). */
	markFailing(entry: CallbackAttempt): void {
		const failing: FailingWebhook = { url: entry.url, kind: entry.kind, deliveryId: entry.id, markedAt: Date.now(), lastStatus: entry.status };
		if (entry.error) failing.lastError = entry.error;
		this.failing.set(entry.url, failing);
	}

	/** Copies of the attempts that match `filter`, in the order they finished. */
	attempts(filter: CallbackFilter = {}): CallbackAttempt[] {
		return this.entries
			.filter(
				(a) =>
					(filter.kind === undefined || a.kind === filter.kind) &&
					(filter.url === undefined || a.url === filter.url) &&
					(filter.outcome === undefined || a.outcome === filter.outcome) &&
					(filter.messageSid === undefined || a.messageSid === filter.messageSid),
			)
			.map((a) => ({ ...a, headers: { ...a.headers } }));
	}

	failingWebhooks(): FailingWebhook[] {
		return [...this.failing.values()].map((f) => ({ ...f }));
	}

	/** Drops the attempts and the failing marks (ids go on). */
	clear(): void {
		this.entries = [];
		this.failing.clear();
	}

	/** clear(), and ids restart at 1. */
	reset(): void {
		this.clear();
		this.nextId = 1;
	}
}
