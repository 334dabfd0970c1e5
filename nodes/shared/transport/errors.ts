import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { trimmed } from '../rules/validation';
import { objectOf } from '../rules/values';
import { redact } from './secrets';

/** What the service said about a failure, whichever of its error shapes it used. */
export interface ServiceError {
	message: string;
	code?: string | number;
	description?: string;
}

/** The allocation API's `code` table, in words a user can act on. */
export const ALLOCATION_CODES: Record<number, string> = {
	0: 'The allocation service had an internal error',
	1: 'No allocation (GreenVN) with this id',
	2: 'The search filters are not supported',
	3: 'A mandatory parameter is missing',
	4: 'No free virtual number is available to allocate: add numbers to the pool or relax the preferences',
	5: 'A parameter is missing or malformed',
	7: 'Authentication failed: check the allocation user name and password',
	8: 'These credentials may not perform this operation',
	9: 'The operation is not supported',
	13: 'The duplicate check failed',
	14: 'The request repeats a number or pin',
	15: 'The preferred region is not supported',
	16: 'A number is invalid',
	17: 'Too many requests: slow down',
	18: 'This connection id is already allocated: use a new connection id or deallocate the old one',
	19: 'A number or pin is already in the group',
};

/** Code 1 answers an id the service does not know (GET or DELETE of a GreenVN). */
export const ALLOCATION_NOT_FOUND = 1;
/** A deallocation after the deallocation already happened: HTTP 400 with code 5 (the id exists, in the vault). */
export const ALLOCATION_ALREADY_DEALLOCATED = 5;

const HTTP_MEANING: Record<number, string> = {
	400: 'The service rejected the request as malformed',
	401: 'Authentication failed: check the credential',
	402: 'The feature is not on the plan, or a usage limit was exceeded',
	403: 'The credential has no access to this resource',
	404: 'The resource does not exist',
	409: 'Conflict with an existing resource',
	413: 'The payload is too large',
	429: 'Rate limit exceeded (about 200 requests a minute per account)',
};

/** The allocation API's own meanings of its statuses (its status list), where they differ from the messaging ones above. */
const ALLOCATION_HTTP_MEANING: Record<number, string> = {
	// Its 400s include an unknown id (code 1) and a second deallocation (code 5), not only malformed requests.
	400: 'The allocation service refused the request',
	402: 'Unauthorized request: check the allocation user name and password',
	429: 'The allocation throttle limit was exceeded',
	499: 'The allocation service timed out before answering',
};

/** What to check when a base answers 401, by the credential that base is called with (transport's ExotelBase). */
const UNAUTHORIZED_MEANING: Record<string, string> = {
	base: "Authentication failed: check the credential's API key and token",
	ccm: "Authentication failed: check the credential's API key and token",
	integrations: "Authentication failed: check the credential's token",
	cms: "Authentication failed: check the credential's token",
	cc: 'Authentication failed: check the contact-center user ID and token',
	alloc: 'Authentication failed: check the allocation user name and password',
};

/** What an HTTP status means on the API of `base` (the allocation API words some of its own). */
function httpMeaning(statusCode: number, base: string | undefined): string {
	if (statusCode === 401 && base && UNAUTHORIZED_MEANING[base]) return UNAUTHORIZED_MEANING[base];
	const own = base === 'alloc' ? ALLOCATION_HTTP_MEANING[statusCode] : undefined;
	return own ?? HTTP_MEANING[statusCode] ?? (statusCode >= 500 ? 'The service had a server error' : 'Request failed');
}

/**
 * Reads the service's own message and code out of every error body the spec documents:
 * v1 `RestException`, v2 envelopes with `error_data` (request level or first failed message),
 * allocation `{success:false, code, message}`, configuration `{errorCode, errorMessage}`
 * and the contact-center `{status, message}`.
 */
export function parseServiceError(body: unknown): ServiceError | undefined {
	if (typeof body === 'string') return trimmed(body) ? { message: body.slice(0, 500) } : undefined;
	const root = objectOf(body);
	if (!root) return undefined;

	const rest = objectOf(root.RestException);
	if (rest) {
		// The live service ends some of its words with a separator ("Service Unavailable; ").
		return { message: trimmed(rest.Message).replace(/[\s;,]+$/, '') || 'Request failed', code: rest.Code as number | undefined };
	}
	if (trimmed(root.errorCode) || trimmed(root.errorMessage)) {
		return { message: trimmed(root.errorMessage) || 'Request failed', code: root.errorCode as string };
	}
	const response = objectOf(root.response);
	const errorData =
		objectOf(response?.error_data) ??
		firstMessageError(objectOf(response?.rcs)) ??
		firstMessageError(objectOf(response?.chatapp)) ??
		firstMessageError(objectOf(response?.whatsapp)) ??
		objectOf(root.error_data) ??
		objectOf(root.error);
	if (errorData) {
		return {
			message: trimmed(errorData.message) || 'Request failed',
			code: errorData.code as number | undefined,
			description: trimmed(errorData.description) || undefined,
		};
	}
	if (root.success === false || trimmed(root.message)) {
		const code = (root.code ?? undefined) as number | undefined;
		const meaning = typeof code === 'number' ? ALLOCATION_CODES[code] : undefined;
		if (meaning) return { message: meaning, code, description: trimmed(root.message) || undefined };
		return { message: trimmed(root.message) || 'Request failed', code };
	}
	return undefined;
}

function firstMessageError(channel: IDataObject | undefined): IDataObject | undefined {
	const messages = channel?.messages;
	if (!Array.isArray(messages)) return undefined;
	for (const entry of messages) {
		const errorData = objectOf(objectOf(entry)?.error_data);
		if (errorData) return errorData;
	}
	return undefined;
}

/** Builds the NodeApiError for an HTTP failure, with the service's words first and secrets removed. */
export function serviceApiError(
	node: INode,
	options: {
		statusCode: number;
		body: unknown;
		method: string;
		url: string;
		itemIndex?: number;
		secrets: string[];
		hint?: string;
		/** The base the request went to (transport's ExotelBase): its API may give a status its own meaning. */
		base?: string;
	},
): NodeApiError {
	const { statusCode, body, method, url, itemIndex, secrets, hint, base } = options;
	const service = parseServiceError(body);
	const meaning = httpMeaning(statusCode, base);
	const codePart = service?.code !== undefined && service.code !== null ? ` (code ${service.code})` : '';
	// A 401's own words are a login page's ("Authentication is required to view this page."): the
	// headline says what to check, the service's words follow.
	const unauthorized = statusCode === 401 && service !== undefined;
	const message = unauthorized ? `${meaning}${codePart}` : service ? `${service.message}${codePart}` : meaning;
	const details = [
		unauthorized
			? `The service said: "${service.message}". HTTP ${statusCode} from ${method} ${url}.`
			: service
				? `${meaning}. HTTP ${statusCode} from ${method} ${url}.`
				: `HTTP ${statusCode} from ${method} ${url}.`,
		service?.description,
		hint,
	]
		.filter(Boolean)
		.join(' ');
	const response: JsonObject = {
		httpCode: statusCode,
		serviceCode: (service?.code ?? null) as string | number | null,
		serviceMessage: service?.message ?? null,
		body: (typeof body === 'object' || trimmed(body) ? body : null) as JsonObject | null,
	};
	const error = new NodeApiError(node, redact(response, secrets), {
		message: redact(message, secrets),
		description: redact(details, secrets),
		httpCode: String(statusCode),
		itemIndex,
	});
	// The service's own code, for an operation that words a failure by it (allocation code 1 vs 5).
	error.context.serviceCode = service?.code ?? null;
	return error;
}

/** The service's code carried by an error from `serviceApiError`, or undefined. */
export function serviceCodeOf(error: unknown): string | number | undefined {
	const code = (error as { context?: { serviceCode?: unknown } })?.context?.serviceCode;
	return typeof code === 'string' || typeof code === 'number' ? code : undefined;
}
