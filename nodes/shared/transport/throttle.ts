// What counts as a refusal for the account's rate limit, and the words of giving up on one.
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Address } from './address';
import type { ExotelRequest } from './endpoint';
import { serviceApiError } from './errors';
import type { ExotelResponse } from './exchange';
import { retryAfterMs } from './pacing';
import type { RateCategory } from './rateLimits';
import type { NodeRun } from './run';

/** The code the service's rate-limit page gives a refusal for the limit (on a 429, and on the older SMS 503). */
const RATE_LIMIT_CODE = 'RATE_LIMIT_EXCEEDED';

/**
 * A server error that gives the service's reason (`RestException` with a `Code`, as a caller number
 * refused with 35008) is a refusal, not a passing overload: sending it again would meet the same
 * answer. The rate-limit code is no such reason: it says to wait.
 */
export function isReasonedRefusal(response: ExotelResponse): boolean {
	if (response.statusCode < 500) return false;
	const code = (response.body as { RestException?: { Code?: unknown } } | null)?.RestException?.Code;
	return code !== undefined && code !== null && code !== '' && String(code).toUpperCase() !== RATE_LIMIT_CODE;
}

/** An answer as the pacer reads it: its headers, whether it refused the request for the limit, and for how long. */
export function throttleReading(response: ExotelResponse, category: RateCategory): { headers: ExotelResponse['headers']; throttle: boolean; retryAfterMs?: number } {
	// Older material has an SMS limit breach answer 503: on SMS a bare one is the same refusal as a 429.
	const smsOverload = response.statusCode === 503 && !isReasonedRefusal(response) && (category === 'sms' || category === 'bulkSms');
	const throttle = response.statusCode === 429 || smsOverload;
	return { headers: response.headers, throttle, retryAfterMs: throttle ? retryAfterMs(response.headers['retry-after']) : undefined };
}

/** Where the node's panel shows Max Wait; outside an execution there is none to raise. */
function orRaise(run: NodeRun): string {
	return run.maxWait.setting ? `, or raise ${run.maxWait.setting}` : '';
}

/** The pacer gave up before the request's turn: nothing went out. */
export function notSentInTime(node: INode, run: NodeRun, request: ExotelRequest, address: Address, refused: string): NodeApiError {
	return new NodeApiError(node, { httpCode: '429' } as JsonObject, {
		message: "Not sent: the account's rate limit did not lift in time",
		description: `${refused}. ${request.endpoint.method} ${address.path} was never sent, so nothing was done for this item; run it again later${orRaise(run)}.`,
		httpCode: '429',
		itemIndex: request.itemIndex,
	});
}

/** The service kept refusing the request for the limit past Max Wait. */
export function limitDidNotLift(node: INode, run: NodeRun, request: ExotelRequest, address: Address, response: ExotelResponse, givenUp: string): NodeApiError {
	const limited = serviceApiError(node, {
		base: request.endpoint.base,
		statusCode: response.statusCode,
		body: response.body,
		method: request.endpoint.method,
		url: address.path,
		itemIndex: request.itemIndex,
		secrets: address.secrets,
		hint: `${givenUp}. The service did not act on this request; run it again later${orRaise(run)}.`,
	});
	// The service's wording varies by API ("Too many requests (code 1029)", "RATE_LIMITED"): the
	// message says what happened, the service's own words after it.
	limited.message = `The account's rate limit did not lift in time: ${limited.message}`;
	return limited;
}
