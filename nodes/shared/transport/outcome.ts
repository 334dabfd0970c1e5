// The request's outcome when it fails: the last attempt's answer, a login, or a rate limit that did not lift, in the service's words.
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Address } from './address';
import type { ExotelRequest } from './endpoint';
import { serviceApiError } from './errors';
import type { Exchange, ExotelResponse } from './exchange';
import { isIdempotent, isRetryable } from './retry';
import type { NodeRun } from './run';
import { redact } from './secrets';

/** The session credential's login failed: the error is the login's, its status and words, not those of the request it was for. */
export function loginFailed(node: INode, request: ExotelRequest, address: Address, failure: NonNullable<Exchange['loginFailure']>): NodeApiError {
	const status = failure.status === undefined ? undefined : String(failure.status);
	return new NodeApiError(node, { httpCode: status ?? null, request: failure.request } as JsonObject, {
		message: redact(`Contact-center login failed: ${failure.message}`, address.secrets),
		description: redact(
			`${status ? `HTTP ${status} from ${failure.request}` : failure.request} (the login). Check the user ID and token in the contact-center credential; a failed login is not tried again.`,
			address.secrets,
		),
		httpCode: status,
		itemIndex: request.itemIndex,
	});
}

/** What failed for good after `attempts`: the service's answer, or the connection. */
export function failureOf(node: INode, request: ExotelRequest, address: Address, met: Exchange, attempts: number): NodeApiError {
	const { method } = request.endpoint;
	if (met.response) {
		return serviceApiError(node, {
			base: request.endpoint.base,
			statusCode: met.response.statusCode,
			body: met.response.body,
			method,
			url: address.path,
			itemIndex: request.itemIndex,
			secrets: address.secrets,
			hint: isRetryable(met, request) ? `Gave up after ${attempts} attempts.` : undefined,
		});
	}
	const idempotent = isIdempotent(request);
	const error = new NodeApiError(node, { code: met.networkError?.code ?? 'UNKNOWN' } as JsonObject, {
		message: redact(`Could not reach the service: ${met.networkError?.message ?? 'connection failed'}`, address.secrets),
		description: idempotent
			? `${method} ${address.path} failed after ${attempts} attempts.`
			: `${method} ${address.path} lost its connection. The service may have accepted it, so it was not sent again (that could duplicate messages or calls); check before resending.`,
		itemIndex: request.itemIndex,
	});
	error.context.deliveryUnknown = !idempotent && met.networkError?.code !== 'ECONNREFUSED';
	return error;
}

/** Where the node's panel shows Max Wait; outside an execution there is none to raise. */
function orRaise(run: NodeRun): string {
	return run.maxWait.setting ? `, or raise ${run.maxWait.setting}` : '';
}

/**
 * The run gave up on the account's rate limit past Max Wait: before the request's turn (no
 * `response`: nothing went out), or when the service refused it once more.
 */
export function limitDidNotLift(node: INode, run: NodeRun, request: ExotelRequest, address: Address, givenUp: string, response?: ExotelResponse): NodeApiError {
	if (!response) {
		return new NodeApiError(node, { httpCode: '429' } as JsonObject, {
			message: "Not sent: the account's rate limit did not lift in time",
			description: `${givenUp}. ${request.endpoint.method} ${address.path} was never sent, so nothing was done for this item; run it again later${orRaise(run)}.`,
			httpCode: '429',
			itemIndex: request.itemIndex,
		});
	}
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
