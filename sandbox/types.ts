/**
 * Types shared by the sandbox core, its router and the handler groups.
 * The public ones (RecordedRequest, Fault, FaultMatch, SandboxOptions, the rate-limit types)
 * are re-exported by server.ts.
 */
import type { SandboxBase } from './fixtures';
import type { SandboxState } from './state';
import type { StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './stored';

export type { SandboxBase };

export type AuthScheme = 'basic' | 'bearer' | 'session' | 'none';

export interface AuthOutcome {
	scheme: AuthScheme;
	/** Basic user name, or the contact-center user of a session (never a password or token). */
	user?: string;
	ok: boolean;
}

export interface RecordedRequest {
	id: number;
	/** ms epoch */
	time: number;
	/** which prefix it hit */
	base: SandboxBase;
	method: string;
	/** without prefix and query, e.g. '/v1/Accounts/exotelsandbox1/Sms/bulksend' */
	path: string;
	query: Record<string, string | string[]>;
	/** lower-cased names */
	headers: Record<string, string>;
	/** media type only, e.g. 'application/x-www-form-urlencoded' */
	contentType?: string;
	auth: AuthOutcome;
	/** utf8 */
	rawBody: string;
	/** ordered decoded pairs for form bodies (order and duplicates kept) */
	form?: Array<[string, string]>;
	json?: unknown;
	/** what the sandbox answered (0 when reset) */
	status: number;
	/** e.g. 'status:429', 'delay:200', 'reset:before' */
	fault?: string;
	/**
	 * true when the account rate limit refused it: 429 (or 503 for SMS in the documented mode's
	 * `smsStatus: 503`); the handler did not run (see rate-limit.ts)
	 */
	rateLimited?: true;
	/** documented mode only: the category the limiter counted or refused it under (unset when uncategorised) */
	category?: RateCategory;
}

/** Which recorded requests to list (ExotelSandbox.requests, the control API's GET /requests). */
export type RequestFilter = Partial<Pick<RecordedRequest, 'base' | 'method'>> & { pathIncludes?: string };

export type Fault =
	| { kind: 'status'; status: number; retryAfterSeconds?: number; body?: unknown }
	/** waits, then processes normally */
	| { kind: 'delay'; ms: number }
	/** destroys the socket; 'after' = the request was processed but the answer is lost */
	| { kind: 'reset'; when?: 'before' | 'after' };

export interface FaultMatch {
	base?: SandboxBase;
	method?: string;
	pathIncludes?: string;
}

export interface SandboxOptions {
	/** 0 (or unset) = a random free port */
	port?: number;
	/** fixed delay added to every answer */
	latencyMs?: number;
	/**
	 * Real milliseconds per simulated millisecond for work the service does over time
	 * (contact-upload processing, callback delays and retries; not the acknowledgement timeout).
	 * Default 1; 0 = instantly.
	 */
	timeScale?: number;
	/**
	 * Real ms a callback receiver (and each request of openLink) has to answer before the attempt
	 * counts as failed. Default: the spec's 5000, not scaled by timeScale (any value given here is used as is).
	 */
	callbackTimeoutMs?: number;
	/** the account rate-limit mode (off when unset): a sliding window or the documented limits; see setRateLimit */
	rateLimit?: AnyRateLimitConfig;
	/**
	 * Green VNs in the allocation pool: the fixture's 4 (SANDBOX_GREENVN_POOL), then generated
	 * ones (`greenvnPool`) up to this size, for runs that allocate more; kept across reset().
	 */
	greenvnPoolSize?: number;
	/**
	 * A file that keeps what the sandbox sent (messages, short links, the chat-app webhook
	 * configuration, placed calls) across restarts: read on start, written soon after each change
	 * and on stop (persist.ts). Unset: in memory only.
	 */
	stateFile?: string;
	/**
	 * DLT content templates by id (`{#var#}` for each variable): an SMS sent with one of these
	 * DltTemplateIds whose text does not match fails with 23185 DLT_TEMPLATE_DOES_NOT_MATCH (dlt.ts).
	 */
	dltTemplates?: Record<string, string>;
	/**
	 * Live mode: behave as the live service's recorded traffic shows (XML on v1 paths without `.json`,
	 * India-time v1 dates, the `whatsapp` envelope, no rate-limit headers, no signatures; README,
	 * "Live mode") instead of the spec. Default false; setLive() flips it; reset() keeps it.
	 */
	live?: boolean;
}

/** The sliding-window mode (the original one): `mode` absent. */
export interface RateLimitConfig {
	mode?: undefined;
	/** requests accepted per window (a positive integer) */
	limit: number;
	/** window length in ms (a positive integer) */
	windowMs: number;
	/** send `Retry-After` (whole seconds until a slot frees) with each 429; default false, as the spec */
	retryAfter?: boolean;
	/** bases whose requests are counted and limited; default every base */
	bases?: SandboxBase[];
}

/** The endpoint categories of the service's rate-limiting page (see categoryOf in rate-limit.ts). */
export type RateCategory = 'bulkSms' | 'sms' | 'voice' | 'chatApp' | 'exoPhone' | 'campaign' | 'userManagement' | 'generalGet';

/** The documented mode: per-category fixed windows of a minute (scaled by timeFactor). */
export interface DocumentedRateLimitConfig {
	mode: 'documented';
	/** windows last 60 s / timeFactor and Retry-After is ceil(30 / timeFactor) s; 60 / timeFactor must be whole; default 1 */
	timeFactor?: number;
	/** send X-RateLimit-Limit, -Remaining and -Reset; default true (the spec promises none) */
	headers?: boolean;
	/** what an SMS or Bulk SMS breach answers: 429 (default, the rate-limiting page) or 503 (older material) */
	smsStatus?: 429 | 503;
	/** requests per window by category, overriding DOCUMENTED_LIMITS (enterprise accounts differ) */
	limits?: Partial<Record<RateCategory, number>>;
}

export type AnyRateLimitConfig = RateLimitConfig | DocumentedRateLimitConfig;

export interface RateCategoryStats {
	/** refusals (429 or 503) in this category */
	limited: number;
	/** requests accepted in this category */
	counted: number;
}

export interface RateLimitStats {
	/** refusals answered by the limiter (429s, and 503s in the documented mode's SMS 503 option) */
	limited: number;
	/** requests counted in a window (accepted by the limiter) */
	counted: number;
	/** documented mode only: the same per category (every category, zeros included) */
	byCategory?: Record<RateCategory, RateCategoryStats>;
}

/** What the send handlers tell the callback dispatcher (callbacks/dispatcher.ts) after accepting messages. */
export interface CallbackHooks {
	/** Accepted SMS (those without StatusCallback are ignored). */
	smsAccepted(messages: readonly StoredSmsMessage[]): void;
	/** Accepted RCS messages (those without an effective status_callback are ignored). */
	rcsAccepted(messages: readonly StoredRcsMessage[]): void;
	/** An accepted chat-app message (reports go to its status_callback, else the configured one). */
	chatAppAccepted(message: StoredChatAppMessage): void;
}

/** Which error body family a path answers with. */
export type ErrorStyle = 'v1' | 'v2' | 'cms' | 'integrations' | 'cc' | 'alloc';

/**
 * How a route authenticates:
 * - basic: API key and token (HTTP basic), and a `:sid` path parameter must be the sandbox account
 * - basicOrBearer: the same, or `Authorization: Bearer <bearerToken>`
 * - bearer: `Authorization: Bearer <bearerToken>`
 * - session: header `sessionId` holding a live contact-center session
 * - allocBasic: HTTP basic with the allocation user name and password
 * - none: no check (the handler may record its own outcome, e.g. the session login)
 */
export type AuthPolicy = 'basic' | 'basicOrBearer' | 'bearer' | 'session' | 'allocBasic' | 'none';

/** What a handler answers. `json` is serialised; `body` is sent as is. */
export interface Reply {
	status: number;
	json?: unknown;
	body?: string | Buffer;
	contentType?: string;
	headers?: Record<string, string>;
}

export interface RequestContext {
	/** The record being built for this request; handlers may read it (form, json, query...). */
	readonly request: RecordedRequest;
	/** Decoded `:name` parameters of the route pattern. */
	readonly params: Record<string, string>;
	readonly state: SandboxState;
	/** The body as received (the record keeps its utf8 text). */
	readonly rawBody: Buffer;
	readonly errorStyle: ErrorStyle;
	readonly origin: string;
	readonly timeScale: number;
	/** Schedules delivery reports; absent when a handler is run outside a sandbox. */
	readonly callbacks?: CallbackHooks;
	/** Replace the recorded auth outcome (for routes that authenticate in the body). */
	setAuth(outcome: AuthOutcome): void;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface RouteDefinition {
	base: SandboxBase;
	method: string;
	/** Path under the base prefix; `:name` matches one segment (or part of one: `:callSid.json`). */
	path: string;
	auth: AuthPolicy;
	/** Defaults from the base and the path version (see errorStyleFor). */
	errorStyle?: ErrorStyle;
	/** Whether a `:sid` parameter must equal the sandbox account (default true; basic policies only). */
	checkAccount?: boolean;
	/** Only in live mode (true) or only in spec mode (false); unset: in both. Elsewhere the path is unknown (404). */
	live?: boolean;
	handler: Handler;
}
