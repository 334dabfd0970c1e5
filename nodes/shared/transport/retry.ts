// When an attempt that failed goes again: server errors without the service's reason, and lost connections.
import type { ExotelRequest } from './endpoint';
import type { Exchange } from './exchange';
import { isReasonedRefusal, retryAfterMs } from './throttle';

/** A refusal for the limit is paced instead (pacing.ts) and counts no attempt. */
export const RETRY_POLICY = {
	/** Attempts in all, the first included. */
	attempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 10_000,
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxRetryAfterMs: 60_000,
};

/**
 * Whether the request may be sent again after a lost connection: true except for POST unless the
 * request says otherwise, as a POST whose answer was lost may already have been accepted.
 */
export function isIdempotent(request: ExotelRequest): boolean {
	return request.idempotent ?? request.endpoint.method !== 'POST';
}

/** Whether what the attempt met is worth another: a 5xx without the service's reason, or a lost connection that duplicates nothing. */
export function isRetryable(met: Exchange, request: ExotelRequest): boolean {
	if (met.response) return met.response.statusCode >= 500 && !isReasonedRefusal(met.response);
	return isIdempotent(request) || met.networkError?.code === 'ECONNREFUSED';
}

/** The wait before the next attempt, or undefined when there is none: attempts used up, or a Retry-After too long to wait. */
export function retryDelayOf(met: Exchange, request: ExotelRequest, attempt: number): number | undefined {
	if (!isRetryable(met, request) || attempt >= RETRY_POLICY.attempts) return undefined;
	const delay = retryAfterMs(met.response?.headers['retry-after']) ?? backoff(attempt);
	return delay <= RETRY_POLICY.maxRetryAfterMs ? delay : undefined;
}

function backoff(attempt: number): number {
	const exponential = RETRY_POLICY.baseDelayMs * 2 ** (attempt - 1);
	// Jitter keeps parallel requests that met a 5xx together from trying again in lockstep.
	return Math.min(RETRY_POLICY.maxDelayMs, exponential * (0.8 + Math.random() * 0.4));
}
