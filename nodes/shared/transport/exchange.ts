// One attempt on the wire: n8n sends it with the credential, and whatever happens comes back as data, never thrown.
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ExotelContext } from './address';
import type { ExotelCredentialType } from './endpoint';
import { looksLikeXml, readServiceXml } from './xml';

export interface ExotelResponse<T = unknown> {
	statusCode: number;
	headers: IDataObject;
	body: T;
}

/** What one attempt met: an answer, a lost connection, or the session credential's failed login. */
export interface Exchange {
	response?: ExotelResponse;
	networkError?: { code: string; message: string };
	/** The session credential's login failed (thrown by its preAuthentication): final, never retried. */
	loginFailure?: { status?: number; message: string; request: string };
}

export async function exchange(
	context: ExotelContext,
	credentialType: ExotelCredentialType,
	options: IHttpRequestOptions,
	binary: boolean | undefined,
): Promise<Exchange> {
	try {
		let raw = (await context.helpers.httpRequestWithAuthentication.call(context, credentialType, {
			...options,
			headers: { ...options.headers },
		})) as { statusCode: number; headers: IDataObject; body: unknown };
		// The session credential logs in again only when n8n sees a 401 thrown: that request goes again
		// throwing (a 401 was not acted on), so every other answer keeps its headers (Retry-After, the
		// X-RateLimit counters), which n8n's thrown errors drop.
		if (raw.statusCode === 401 && credentialType === 'exotelContactCenterApi') {
			raw = (await context.helpers.httpRequestWithAuthentication.call(context, credentialType, {
				...options,
				headers: { ...options.headers },
				ignoreHttpStatusErrors: false,
			})) as typeof raw;
		}
		return { response: { statusCode: raw.statusCode, headers: raw.headers ?? {}, body: parseBody(raw.body, binary, raw.statusCode) } };
	} catch (error) {
		return thrownExchange(error, binary);
	}
}

/** What n8n threw, read back into an answer where it carries one. */
function thrownExchange(error: unknown, binary: boolean | undefined): Exchange {
	const cause = errorCause(error);
	const loginFailure = loginFailureIn(error);
	// A login refused by the account's rate limit is not a wrong token: it is paced like any 429.
	if (loginFailure?.status === 429) return { response: { statusCode: 429, headers: {}, body: { message: loginFailure.message } } };
	if (loginFailure) return { loginFailure };
	const response = cause.response;
	if (response && typeof response.status === 'number') {
		return { response: { statusCode: response.status, headers: (response.headers ?? {}) as IDataObject, body: parseBody(response.data, binary, response.status) } };
	}
	// On the session credential n8n throws HTTP errors as a NodeApiError: its HTTP code, and the
	// response body in context.data (absent when a re-login itself failed).
	const httpCode = Number((error as { httpCode?: unknown }).httpCode);
	if (Number.isInteger(httpCode) && httpCode >= 400) {
		const data = (error as { context?: { data?: unknown } }).context?.data;
		return { response: { statusCode: httpCode, headers: {}, body: parseBody(data, binary, httpCode) } };
	}
	return { networkError: { code: cause.code ?? 'UNKNOWN', message: cause.code ? `${cause.code}` : cause.message ?? 'request failed' } };
}

function errorCause(error: unknown): { response?: IDataObject; code?: string; message?: string } {
	const cause = (error as { cause?: unknown })?.cause ?? error;
	return (cause ?? {}) as { response?: IDataObject; code?: string; message?: string };
}

/** A login failure thrown by the session credential, however deep n8n wrapped it. */
function loginFailureIn(error: unknown): Exchange['loginFailure'] {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current; depth++) {
		const found = (current as { context?: { loginFailure?: { status?: number | null; message?: unknown; request?: unknown } } }).context?.loginFailure;
		if (found) {
			return {
				status: typeof found.status === 'number' ? found.status : undefined,
				message: String(found.message ?? 'login failed'),
				request: String(found.request ?? 'the login'),
			};
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** JSON, or the JSON twin of the v1 API's XML (the live service's answer on paths without `.json`), else the text. */
function parseBody(data: unknown, binary: boolean | undefined, statusCode: number): unknown {
	if (typeof data === 'string') return fromXml(data);
	if (!Buffer.isBuffer(data)) return data;
	if (binary && statusCode < 400) return data;
	const textBody = data.toString('utf8');
	try {
		return JSON.parse(textBody) as unknown;
	} catch {
		return fromXml(textBody);
	}
}

function fromXml(text: string): unknown {
	return looksLikeXml(text) ? (readServiceXml(text) ?? text) : text;
}
