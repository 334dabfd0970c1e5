// What an answer says about the account's rate limit: a refusal for it, how long to wait, and the service's counters.
import type { IDataObject } from 'n8n-workflow';

import type { RateCategory } from './rateLimits';

/** The code the service's rate-limit page gives a refusal for the limit (on a 429, and on the older SMS 503). */
const RATE_LIMIT_CODE = 'RATE_LIMIT_EXCEEDED';

/** An answer as it is read here (an ExotelResponse of exchange.ts): its status, headers and body. */
export interface Answer {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** The service's three counters of the account's window: its limit, what is left, and when it resets (ms since the epoch). */
export interface Counters {
	limit: number;
	remaining: number;
	resetMs: number;
}

/** An answer as the pacer reads it: the counters when it carries them, whether it refused the request for the limit, and for how long. */
export interface ThrottleReading {
	counters?: Counters;
	throttle: boolean;
	retryAfterMs?: number;
}

/**
 * A server error that gives the service's reason (`RestException` with a `Code`, as a caller number
 * refused with 35008) is a refusal, not a passing overload: sending it again would meet the same
 * answer. The rate-limit code is no such reason: it says to wait.
 */
export function isReasonedRefusal(response: Answer): boolean {
	if (response.statusCode < 500) return false;
	const code = (response.body as { RestException?: { Code?: unknown } } | null)?.RestException?.Code;
	return code !== undefined && code !== null && code !== '' && String(code).toUpperCase() !== RATE_LIMIT_CODE;
}

/** Reads an answer for the pacer: a 429 refuses the request for the limit, and on SMS so does a bare 503. */
export function throttleReading(response: Answer, category: RateCategory): ThrottleReading {
	// Older material has an SMS limit breach answer 503: on SMS a bare one is the same refusal as a 429.
	const smsOverload = response.statusCode === 503 && !isReasonedRefusal(response) && (category === 'sms' || category === 'bulkSms');
	const throttle = response.statusCode === 429 || smsOverload;
	return { counters: rateLimitHeaders(response.headers), throttle, retryAfterMs: throttle ? retryAfterMs(response.headers['retry-after']) : undefined };
}

/** The service's three counters, read from an answer's headers; undefined unless all three make sense. */
export function rateLimitHeaders(headers: IDataObject | undefined): Counters | undefined {
	if (!headers) return undefined;
	const limit = Number(headers['x-ratelimit-limit']);
	const remaining = Number(headers['x-ratelimit-remaining']);
	const reset = Number(headers['x-ratelimit-reset']);
	if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(remaining) || remaining < 0 || !Number.isFinite(reset) || reset <= 0) {
		return undefined;
	}
	return { limit, remaining: Math.min(remaining, limit), resetMs: reset * 1000 };
}

/** `Retry-After` in milliseconds (seconds form; an HTTP date is read too), or undefined. */
export function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value).trim();
	const seconds = Number(text);
	if (text !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(text);
	return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
