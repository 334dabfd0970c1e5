import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { encodeForm, type FormValue } from './encoding';
import { serviceApiError } from './errors';
import { cmsBaseUrlFrom, REGION_HOSTS } from './hosts';
import { retryAfterMs } from './pacing';
import { perMinuteOf, rateCategoryOf } from './rateLimits';
import { pacerFor, runOf } from './run';
import { redact, secretsOf } from './secrets';
import { looksLikeXml, readServiceXml } from './xml';

/** The spec's base URLs, each served by one credential type. */
export type ExotelBase = 'base' | 'ccm' | 'integrations' | 'cms' | 'cc' | 'alloc';

export type ExotelCredentialType =
	| 'exotelApi'
	| 'exotelBearerTokenApi'
	| 'exotelContactCenterApi'
	| 'exotelAllocationApi';

export type ExotelContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

const CREDENTIAL_OF_BASE: Record<ExotelBase, ExotelCredentialType> = {
	base: 'exotelApi',
	ccm: 'exotelApi',
	integrations: 'exotelBearerTokenApi',
	cms: 'exotelBearerTokenApi',
	cc: 'exotelContactCenterApi',
	alloc: 'exotelAllocationApi',
};

export interface ExotelRequest {
	base: ExotelBase;
	method: IHttpRequestMethods;
	/** Path under the base; `{accountSid}` is replaced by the credential's account SID. */
	path: string;
	qs?: IDataObject;
	/** v1 body: sent form-encoded with bracket keys (`To[]`, `Messages[0][To]`). */
	form?: Record<string, FormValue>;
	/** v2/v3 body: sent as JSON. */
	body?: IDataObject | IDataObject[];
	/** A body already encoded (multipart uploads), sent as is with its content type. */
	rawBody?: { data: Buffer; contentType: string };
	/** Answer as raw bytes (recordings) instead of parsed JSON. */
	binary?: boolean;
	/** A base URL given explicitly (e.g. a configuration server derived from the contact-center URL). */
	baseUrl?: string;
	/** Another credential for the same base, e.g. a bearer token for contact upload on `ccm`. */
	credentialType?: ExotelCredentialType;
	itemIndex?: number;
	/**
	 * Whether the request may be sent again after a lost connection. Defaults to true except for
	 * POST: a POST whose answer was lost may already have been accepted (messages sent, calls made).
	 */
	idempotent?: boolean;
	timeout?: number;
	/** Secrets the request carries besides the credential's (a verify token), kept out of errors. */
	secrets?: string[];
}

export interface ExotelResponse<T = unknown> {
	statusCode: number;
	headers: IDataObject;
	body: T;
}

/**
 * Server errors without the service's reason, and lost connections; a 429 is paced instead
 * (pacing.ts) and counts no attempt.
 */
export const RETRY_POLICY = {
	/** Attempts in all, the first included. */
	attempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 10_000,
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxRetryAfterMs: 60_000,
};

/** How long one attempt may wait for an answer (an object so tests can shorten it). */
export const TIMEOUT_POLICY = {
	requestMs: 60_000,
};

/**
 * Headers the spec's authentication table asks of every request to a base, body or not. The
 * configuration lookup wants Content-Type and Accept set to application/json even on its GET;
 * elsewhere Content-Type goes only with a body (set from the body's encoding below).
 */
export const HEADERS_OF_BASE: Partial<Record<ExotelBase, Record<string, string>>> = {
	cms: { Accept: 'application/json', 'Content-Type': 'application/json' },
};

/** Headers before the body's own: JSON answers asked for, except a raw-bytes download; then the base's rule. */
export function requestHeaders(request: Pick<ExotelRequest, 'base' | 'binary'>): Record<string, string> {
	// A download answers audio bytes: asking it for JSON is asking for what it cannot give.
	const accept = request.binary ? '*/*' : 'application/json';
	return { Accept: accept, ...HEADERS_OF_BASE[request.base] };
}

function trimSlash(url: unknown): string {
	return String(url ?? '').trim().replace(/\/+$/, '');
}

// The `cms.` host rule lives in hosts.ts beside its expression form; tests import it from here too.
export { cmsBaseUrlFrom };

/** Resolves `{base_url}`-style placeholders from a credential, as the spec's base table names them. */
export function baseUrlOf(base: ExotelBase, credentials: ICredentialDataDecryptedObject): string {
	const region = credentials.region as keyof typeof REGION_HOSTS | 'custom' | undefined;
	const regional = (field: 'baseUrl' | 'ccmBaseUrl') =>
		region === 'custom' || region === undefined
			? trimSlash(credentials[field])
			: REGION_HOSTS[region][field];
	switch (base) {
		case 'base':
			return regional('baseUrl');
		case 'ccm':
			return regional('ccmBaseUrl');
		case 'integrations':
			return trimSlash(credentials.integrationsBaseUrl);
		case 'cms':
			if (trimSlash(credentials.cmsBaseUrl)) return trimSlash(credentials.cmsBaseUrl);
			return credentials.ccBaseUrl ? cmsBaseUrlFrom(String(credentials.ccBaseUrl)) : '';
		case 'cc':
			return trimSlash(credentials.ccBaseUrl);
		case 'alloc':
			return trimSlash(credentials.allocBaseUrl);
	}
}

/** The wait before a server error's next attempt: its Retry-After (read as throttles read it), else backoff. */
function retryDelay(attempt: number, retryAfter: unknown): number {
	const asked = retryAfterMs(retryAfter);
	if (asked !== undefined) return asked;
	const exponential = RETRY_POLICY.baseDelayMs * 2 ** (attempt - 1);
	// Jitter keeps parallel requests that met a 5xx together from trying again in lockstep.
	return Math.min(RETRY_POLICY.maxDelayMs, exponential * (0.8 + Math.random() * 0.4));
}

interface RawOutcome {
	response?: ExotelResponse;
	networkError?: { code: string; message: string };
	/** The session credential's login failed (thrown by its preAuthentication): final, never retried. */
	loginFailure?: { status?: number; message: string; request: string };
}

function errorCause(error: unknown): { response?: IDataObject; code?: string; message?: string } {
	const cause = (error as { cause?: unknown })?.cause ?? error;
	return (cause ?? {}) as { response?: IDataObject; code?: string; message?: string };
}

/** A login failure thrown by the session credential, however deep n8n wrapped it. */
function loginFailureIn(error: unknown): RawOutcome['loginFailure'] {
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

/** The code the service's rate-limit page gives a refusal for the limit (on a 429, and on the older SMS 503). */
const RATE_LIMIT_CODE = 'RATE_LIMIT_EXCEEDED';

/**
 * A server error that gives the service's reason (`RestException` with a `Code`, as a caller number
 * refused with 35008) is a refusal, not a passing overload: sending it again would meet the same
 * answer. The rate-limit code is no such reason: it says to wait.
 */
function isReasonedRefusal(response: ExotelResponse): boolean {
	if (response.statusCode < 500) return false;
	const code = (response.body as { RestException?: { Code?: unknown } } | null)?.RestException?.Code;
	return code !== undefined && code !== null && code !== '' && String(code).toUpperCase() !== RATE_LIMIT_CODE;
}

/** A credential, read once a run where there is one (n8n decrypts it on every read). */
export async function exotelCredentials(context: ExotelContext, credentialType: ExotelCredentialType): Promise<ICredentialDataDecryptedObject> {
	const run = runOf(context);
	// A session credential changes when n8n logs in again: its secrets must be read fresh to be redacted.
	return run && credentialType !== 'exotelContactCenterApi'
		? await run.credentialsOf(credentialType, async () => await context.getCredentials<ICredentialDataDecryptedObject>(credentialType))
		: await context.getCredentials<ICredentialDataDecryptedObject>(credentialType);
}

/**
 * The one place that talks to the service: builds the URL for the base, authenticates through
 * the credential, encodes the body, paces 429s to the account's limit, retries 5xx without a
 * reason with bounded backoff, and turns every failure into a NodeApiError carrying the service's
 * own message and code, secrets removed.
 */
export async function exotelRequest<T = unknown>(
	this: ExotelContext,
	request: ExotelRequest,
): Promise<ExotelResponse<T>> {
	const credentialType = request.credentialType ?? CREDENTIAL_OF_BASE[request.base];
	const credentials = await exotelCredentials(this, credentialType);
	const secrets = [...secretsOf(credentials), ...(request.secrets ?? []).filter((secret) => secret.length >= 4)];
	const node = this.getNode();
	const baseUrl = request.baseUrl ? trimSlash(request.baseUrl) : baseUrlOf(request.base, credentials);
	if (!baseUrl) {
		throw new NodeOperationError(node, `The credential has no base URL for the ${request.base} API`, {
			itemIndex: request.itemIndex,
			description: `Fill in the matching base URL in the "${credentialType}" credential.`,
		});
	}
	const path = request.path.replace('{accountSid}', encodeURIComponent(String(credentials.accountSid ?? '')));
	const url = `${baseUrl}${path}`;
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		qs: request.qs,
		headers: requestHeaders(request),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeout ?? TIMEOUT_POLICY.requestMs,
	};
	if (request.form) {
		options.headers!['Content-Type'] = 'application/x-www-form-urlencoded';
		options.body = encodeForm(request.form);
	} else if (request.rawBody) {
		options.headers!['Content-Type'] = request.rawBody.contentType;
		options.body = request.rawBody.data;
	} else if (request.body !== undefined) {
		options.headers!['Content-Type'] = 'application/json';
		options.body = request.body as IDataObject;
		options.json = true;
	}
	if (request.binary) options.encoding = 'arraybuffer';
	const idempotent = request.idempotent ?? request.method !== 'POST';
	const category = rateCategoryOf(request);
	const perMinute = perMinuteOf(credentials, category);
	if (typeof perMinute === 'string') {
		throw new NodeOperationError(node, perMinute, { itemIndex: request.itemIndex, description: `Nothing was sent: fix the value in the "${credentialType}" credential, or turn Custom Rate Limits off for the service's defaults.` });
	}
	const account = credentials.accountSid ? `account:${String(credentials.accountSid)}` : baseUrl;
	const pacer = pacerFor(this, `${account}|${category ?? 'other'}`, perMinute);
	// Where the node's panel shows Max Wait; outside a run (dropdowns, credential tests) there is none to raise.
	const setting = runOf(this)?.maxWait.setting;
	const orRaise = setting ? `, or raise ${setting}` : '';

	for (let attempt = 1; ; attempt++) {
		const turn = await pacer.turn();
		if ('refused' in turn) {
			throw new NodeApiError(node, { httpCode: '429' } as JsonObject, {
				message: "Not sent: the account's rate limit did not lift in time",
				description: `${turn.refused}. ${request.method} ${path} was never sent, so nothing was done for this item; run it again later${orRaise}.`,
				httpCode: '429',
				itemIndex: request.itemIndex,
			});
		}
		const outcome = await send(this, credentialType, options, request.binary);
		const { response, networkError, loginFailure } = outcome;
		const refusal = response !== undefined && isReasonedRefusal(response);
		// Older material has an SMS limit breach answer 503: on SMS a bare one is the same refusal as a 429.
		const throttle = response?.statusCode === 429 || (response?.statusCode === 503 && !refusal && (category === 'sms' || category === 'bulkSms'));
		const verdict = pacer.answer(
			turn,
			response && { headers: response.headers, throttle, retryAfterMs: throttle ? retryAfterMs(response.headers['retry-after']) : undefined },
		);
		if (loginFailure) {
			// The error is the login's: its status and words, not those of the request it was for.
			const status = loginFailure.status === undefined ? undefined : String(loginFailure.status);
			throw new NodeApiError(node, { httpCode: status ?? null, request: loginFailure.request } as JsonObject, {
				message: redact(`Contact-center login failed: ${loginFailure.message}`, secrets),
				description: redact(
					`${status ? `HTTP ${status} from ${loginFailure.request}` : loginFailure.request} (the login). Check the user ID and token in the contact-center credential; a failed login is not tried again.`,
					secrets,
				),
				httpCode: status,
				itemIndex: request.itemIndex,
			});
		}
		if (response && verdict.throttled) {
			if (verdict.givenUp) {
				const limited = serviceApiError(node, {
					base: request.base,
					statusCode: response.statusCode,
					body: response.body,
					method: request.method,
					url: path,
					itemIndex: request.itemIndex,
					secrets,
					hint: `${verdict.givenUp}. The service did not act on this request; run it again later${orRaise}.`,
				});
				// The service's wording varies by API ("Too many requests (code 1029)", "RATE_LIMITED"):
				// the message says what happened, the service's own words after it.
				limited.message = `The account's rate limit did not lift in time: ${limited.message}`;
				throw limited;
			}
			// A refusal for the limit is a request the service did not act on, so sending it again duplicates nothing.
			attempt--;
			continue;
		}
		const retryable = response ? response.statusCode >= 500 && !refusal : idempotent || networkError?.code === 'ECONNREFUSED';
		if (retryable && attempt < RETRY_POLICY.attempts) {
			const delay = retryDelay(attempt, response?.headers['retry-after']);
			if (delay <= RETRY_POLICY.maxRetryAfterMs) {
				await sleep(delay);
				continue;
			}
		}
		if (response && response.statusCode < 400) return response as ExotelResponse<T>;
		if (response) {
			throw serviceApiError(node, {
				base: request.base,
				statusCode: response.statusCode,
				body: response.body,
				method: request.method,
				url: path,
				itemIndex: request.itemIndex,
				secrets,
				hint: retryable ? `Gave up after ${attempt} attempts.` : undefined,
			});
		}
		const error = new NodeApiError(
			node,
			{ code: networkError?.code ?? 'UNKNOWN' } as JsonObject,
			{
				message: redact(`Could not reach the service: ${networkError?.message ?? 'connection failed'}`, secrets),
				description: idempotent
					? `${request.method} ${path} failed after ${attempt} attempts.`
					: `${request.method} ${path} lost its connection. The service may have accepted it, so it was not sent again (that could duplicate messages or calls); check before resending.`,
				itemIndex: request.itemIndex,
			},
		);
		error.context.deliveryUnknown = !idempotent && networkError?.code !== 'ECONNREFUSED';
		throw error;
	}
}

async function send(
	context: ExotelContext,
	credentialType: ExotelCredentialType,
	options: IHttpRequestOptions,
	binary: boolean | undefined,
): Promise<RawOutcome> {
	try {
		let raw = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			credentialType,
			{ ...options, headers: { ...options.headers } },
		)) as { statusCode: number; headers: IDataObject; body: unknown };
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
		return {
			response: {
				statusCode: raw.statusCode,
				headers: raw.headers ?? {},
				body: parseBody(raw.body, binary, raw.statusCode),
			},
		};
	} catch (error) {
		const cause = errorCause(error);
		const loginFailure = loginFailureIn(error);
		// A login refused by the account's rate limit is not a wrong token: it is paced like any 429.
		if (loginFailure?.status === 429) return { response: { statusCode: 429, headers: {}, body: { message: loginFailure.message } } };
		if (loginFailure) return { loginFailure };
		const response = cause.response;
		if (response && typeof response.status === 'number') {
			return {
				response: {
					statusCode: response.status,
					headers: (response.headers ?? {}) as IDataObject,
					body: parseBody(response.data, binary, response.status),
				},
			};
		}
		// On the session credential n8n throws HTTP errors as a NodeApiError: its HTTP code, and the
		// response body in context.data (absent when a re-login itself failed).
		const httpCode = Number((error as { httpCode?: unknown }).httpCode);
		if (Number.isInteger(httpCode) && httpCode >= 400) {
			const data = (error as { context?: { data?: unknown } }).context?.data;
			return { response: { statusCode: httpCode, headers: {}, body: parseBody(data, binary, httpCode) } };
		}
		return {
			networkError: {
				code: cause.code ?? 'UNKNOWN',
				message: cause.code ? `${cause.code}` : cause.message ?? 'request failed',
			},
		};
	}
}

/**
 * Every item of an offset/limit listing (v2 campaigns, lists, users, call details): pages of
 * `pageSize` until `limit` items or a short page. `itemsOf` picks the items out of one answer.
 */
export async function exotelRequestAllItems(
	this: ExotelContext,
	request: ExotelRequest,
	options: { pageSize: number; limit?: number; itemsOf: (body: unknown) => IDataObject[] },
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	let offset = Number(request.qs?.offset ?? 0);
	for (;;) {
		const wanted = options.limit === undefined ? options.pageSize : Math.min(options.pageSize, options.limit - items.length);
		const response = await exotelRequest.call(this, { ...request, qs: { ...request.qs, offset, limit: wanted } });
		const page = options.itemsOf(response.body);
		items.push(...page);
		offset += page.length;
		if (page.length < wanted || (options.limit !== undefined && items.length >= options.limit)) return items;
	}
}
