/**
 * The control API under `/__sandbox/` (no auth, never recorded, never faulted), for tests that
 * drive a sandbox running in another process.
 *
 *   GET    /__sandbox/health              {ok, origin, requests, messages, pendingFaults, loginCount, liveSessions, latencyMs, rateLimited}
 *   GET    /__sandbox/requests            recorded requests; query base, method, pathIncludes
 *   DELETE /__sandbox/requests            clears the log
 *   POST   /__sandbox/faults              JSON {fault, count?, match?}
 *   DELETE /__sandbox/faults              drops pending faults
 *   POST   /__sandbox/sessions/expire     invalidates every contact-center session
 *   POST   /__sandbox/reset               state, log and faults
 *   GET    /__sandbox/messages            accepted SMS messages
 *   GET    /__sandbox/allocations         allocations (active and vault)
 *   GET    /__sandbox/rcs-messages        accepted RCS messages
 *   GET    /__sandbox/chatapp-messages    accepted chat-app messages
 *   GET    /__sandbox/chatapp-webhook     {webhook: <configuration or null>}
 *   POST   /__sandbox/latency             JSON {ms}
 *   GET    /__sandbox/live                {ok, live}: whether live mode is on (README, "Live mode")
 *   POST   /__sandbox/live                JSON {live: boolean} → {ok, live}
 *   GET    /__sandbox/rate-limit          {ok, rateLimit: <config or null>, limited, counted, byCategory (documented mode)}
 *   POST   /__sandbox/rate-limit          JSON {limit, windowMs, retryAfter?, bases?} (a sliding window), or
 *                                         {mode: 'documented', timeFactor?, headers?, smsStatus?, limits?}
 *                                         (the documented limits); new windows → the same
 *   DELETE /__sandbox/rate-limit          turns the rate limit off → the same
 *   POST   /__sandbox/rate-limit/fill     JSON {category?, count}: another client has just made `count`
 *                                         accepted requests (documented mode: in `category`, required),
 *                                         met by the next counted request (fillRateLimit) → the same
 *   GET    /__sandbox/callbacks           callback attempts; query kind, url, outcome, messageSid
 *   DELETE /__sandbox/callbacks           clears the callback log and failing marks
 *   GET    /__sandbox/failing-webhooks    URLs marked failing (4 retries failed)
 *   GET    /__sandbox/callbacks/status    {callbacks, pendingCallbacks, failingWebhooks} (counts)
 *   POST   /__sandbox/chatapp-incoming    JSON, see postChatAppIncoming               → {ok, callback}
 *   POST   /__sandbox/chatapp-callback    JSON, see postChatAppCallback               → {ok, callback}
 *   POST   /__sandbox/rcs-incoming        JSON, see postRcsIncoming                   → {ok, callback}
 *   POST   /__sandbox/sms-callback        JSON, see postSmsCallback                   → {ok, callback}
 *   POST   /__sandbox/click-callback      JSON, see postClickCallback                 → {ok, callback}
 *   POST   /__sandbox/callback            JSON, see postCallback (any payload)        → {ok, callback}
 *   POST   /__sandbox/reply               JSON, see reply (the person answers a message) → {ok, callback}
 *   POST   /__sandbox/open-link           JSON, see openLink (an SMS link is opened)   → {ok, sid, as, link, pages, stopped?}
 *   POST   /__sandbox/end-call            JSON, see endCall (a placed call ends now)   → {ok, callback (null: nothing to post)}
 *   POST   /__sandbox/call-flow           JSON {flow, from, to, callSid?, customField?, press?, callees?,
 *                                         conversationSeconds?, budgetMs?, repeatEachRequest?}: an incoming
 *                                         call played through the flow (playCallFlow) → {ok, call} once it ended
 *   GET    /__sandbox/call-flows          {calls}: the last 200 calls played through flows, oldest first
 * rateLimited / limited: refusals answered by the rate limiter (429s; 503s for SMS with smsStatus 503);
 * counted: requests it let through (both since the last reset or rate-limit change). The POST callback endpoints answer once the first attempt has finished (`callback` is that
 * attempt: status, outcome, body...), 400 {ok: false, error} for a bad body; so does call-flow (naming
 * the bad field, a URL not on loopback among them).
 */
import { CallbackInputError } from './callbacks';
import type { CallbackAttempt, CallbackFilter, CallbackKind, CallbackOutcome, FailingWebhook, OpenLinkResult } from './callbacks';
import { CallFlowInputError, type CallFlowResult } from './callFlows';
import { parseFaultRequest } from './faults';
import { SANDBOX_BASE_PREFIX } from './fixtures';
import { parseRateLimitConfig } from './rate-limit';
import type { Allocation, ChatAppWebhookConfig, StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './stored';
import type { AnyRateLimitConfig, Fault, FaultMatch, RateCategory, RateLimitStats, RecordedRequest, RequestFilter, SandboxBase } from './types';

/**
 * The sandbox as the control API drives it: what ExotelSandbox (server.ts) offers, declared here so
 * that the server hands itself in and the control API needs nothing from the server above it.
 */
export interface ControlledSandbox {
	readonly origin: string;
	readonly loginCount: number;
	readonly latency: number;
	readonly live: boolean;
	readonly pendingFaults: number;
	readonly pendingCallbacks: number;
	readonly rateLimit: AnyRateLimitConfig | null;
	requests(filter?: RequestFilter): RecordedRequest[];
	clearRequests(): void;
	injectFaults(fault: Fault, count?: number, match?: FaultMatch): void;
	clearFaults(): void;
	expireSessions(): number;
	reset(): void;
	setLatency(ms: number): void;
	setLive(on: boolean): void;
	setRateLimit(config: AnyRateLimitConfig | null): void;
	fillRateLimit(fill: { category?: RateCategory; count: number }): void;
	rateLimitStats(): RateLimitStats;
	liveSessionCount(): number;
	messages(): StoredSmsMessage[];
	allocations(): Allocation[];
	rcsMessages(): StoredRcsMessage[];
	chatAppMessages(): StoredChatAppMessage[];
	chatAppWebhook(): ChatAppWebhookConfig | null;
	callbacks(filter?: CallbackFilter): CallbackAttempt[];
	clearCallbacks(): void;
	failingWebhooks(): FailingWebhook[];
	postChatAppIncoming(input: Record<string, unknown>): Promise<CallbackAttempt>;
	postChatAppCallback(input: Record<string, unknown>): Promise<CallbackAttempt>;
	postRcsIncoming(input: Record<string, unknown>): Promise<CallbackAttempt>;
	postSmsCallback(input: Record<string, unknown>): Promise<CallbackAttempt>;
	postClickCallback(input: Record<string, unknown>): Promise<CallbackAttempt>;
	postCallback(input: Record<string, unknown>): Promise<CallbackAttempt>;
	reply(input: Record<string, unknown>): Promise<CallbackAttempt>;
	openLink(input: Record<string, unknown>): Promise<OpenLinkResult>;
	endCall(input: Record<string, unknown>): Promise<CallbackAttempt | null>;
	playCallFlow(input: Record<string, unknown>): Promise<CallFlowResult>;
	callFlows(): CallFlowResult[];
}

export interface ControlReply {
	status: number;
	json: unknown;
}

function ok(extra: Record<string, unknown> = {}): ControlReply {
	return { status: 200, json: { ok: true, ...extra } };
}

function bad(status: number, error: string): ControlReply {
	return { status, json: { ok: false, error } };
}

function parseJson(body: Buffer): { value?: unknown; error?: string } {
	const text = body.toString('utf8').trim();
	if (!text) return { value: undefined };
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { error: `body is not JSON: ${(error as Error).message}` };
	}
}

type CallbackPost = (sandbox: ControlledSandbox, input: Record<string, unknown>) => Promise<CallbackAttempt | null>;

const CALLBACK_POSTS: Record<string, CallbackPost> = {
	'POST /chatapp-incoming': (sandbox, input) => sandbox.postChatAppIncoming(input),
	'POST /chatapp-callback': (sandbox, input) => sandbox.postChatAppCallback(input),
	'POST /rcs-incoming': (sandbox, input) => sandbox.postRcsIncoming(input),
	'POST /sms-callback': (sandbox, input) => sandbox.postSmsCallback(input),
	'POST /click-callback': (sandbox, input) => sandbox.postClickCallback(input),
	'POST /callback': (sandbox, input) => sandbox.postCallback(input),
	'POST /reply': (sandbox, input) => sandbox.reply(input),
	'POST /end-call': (sandbox, input) => sandbox.endCall(input),
};

/** Runs an on-demand action with the JSON body; a CallbackInputError or CallFlowInputError answers 400 {ok: false, error}. */
async function onDemand(body: Buffer, run: (input: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<ControlReply> {
	const parsed = parseJson(body);
	if (parsed.error) return bad(400, parsed.error);
	const input = parsed.value ?? {};
	if (typeof input !== 'object' || input === null || Array.isArray(input)) return bad(400, 'body must be a JSON object');
	return run(input as Record<string, unknown>).then(ok, (error: unknown) => {
		if (error instanceof CallbackInputError || error instanceof CallFlowInputError) return bad(400, error.message);
		throw error;
	});
}

function postCallback(sandbox: ControlledSandbox, post: CallbackPost, body: Buffer): Promise<ControlReply> {
	return onDemand(body, async (input) => ({ callback: await post(sandbox, input) }));
}

function rateLimitReply(sandbox: ControlledSandbox): ControlReply {
	return ok({ rateLimit: sandbox.rateLimit, ...sandbox.rateLimitStats() });
}

/** Runs `apply` with the JSON body; a body that is not JSON, or an Error of `apply`, answers 400 with its message. */
function withJson(body: Buffer, apply: (value: unknown) => ControlReply): ControlReply {
	const parsed = parseJson(body);
	if (parsed.error) return bad(400, parsed.error);
	try {
		return apply(parsed.value);
	} catch (error) {
		return bad(400, (error as Error).message);
	}
}

/** The JSON body's `key` when `valid`, else a 400 saying what the body must be. */
function jsonField<T>(body: Buffer, key: string, valid: (value: unknown) => value is T, shape: string): { value: T } | { reply: ControlReply } {
	const parsed = parseJson(body);
	const value = (parsed.value as Record<string, unknown> | undefined)?.[key];
	if (parsed.error || !valid(value)) return { reply: bad(400, `body must be JSON ${shape}`) };
	return { value };
}

function requestFilterOf(query: URLSearchParams): RequestFilter | string {
	const filter: RequestFilter = {};
	const base = query.get('base');
	if (base !== null) {
		if (!(base in SANDBOX_BASE_PREFIX)) return `base must be one of ${Object.keys(SANDBOX_BASE_PREFIX).join(', ')}`;
		filter.base = base as SandboxBase;
	}
	const method = query.get('method');
	if (method !== null) filter.method = method;
	const pathIncludes = query.get('pathIncludes');
	if (pathIncludes !== null) filter.pathIncludes = pathIncludes;
	return filter;
}

function callbackFilterOf(query: URLSearchParams): CallbackFilter {
	const filter: CallbackFilter = {};
	const kind = query.get('kind');
	if (kind !== null) filter.kind = kind as CallbackKind;
	const url = query.get('url');
	if (url !== null) filter.url = url;
	const outcome = query.get('outcome');
	if (outcome !== null) filter.outcome = outcome as CallbackOutcome;
	const messageSid = query.get('messageSid');
	if (messageSid !== null) filter.messageSid = messageSid;
	return filter;
}

const isLatency = (value: unknown): value is number => typeof value === 'number' && value >= 0;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

function setLatency(sandbox: ControlledSandbox, body: Buffer): ControlReply {
	const field = jsonField(body, 'ms', isLatency, '{ms: number >= 0}');
	if ('reply' in field) return field.reply;
	sandbox.setLatency(field.value);
	return ok({ latencyMs: field.value });
}

function setLive(sandbox: ControlledSandbox, body: Buffer): ControlReply {
	const field = jsonField(body, 'live', isBoolean, '{live: true | false}');
	if ('reply' in field) return field.reply;
	sandbox.setLive(field.value);
	return ok({ live: field.value });
}

type ControlAction = (sandbox: ControlledSandbox, query: URLSearchParams, body: Buffer) => ControlReply | Promise<ControlReply>;

/** The other endpoints, by `METHOD /path` (see the list at the top). */
const CONTROL_ACTIONS: Record<string, ControlAction> = {
	// the result's own `ok: true` is the one ok() puts first
	'POST /open-link': (sandbox, _query, body) => onDemand(body, async (input) => ({ ...(await sandbox.openLink(input)) })),
	'POST /call-flow': (sandbox, _query, body) => onDemand(body, async (input) => ({ call: await sandbox.playCallFlow(input) })),
	'GET /call-flows': (sandbox) => ({ status: 200, json: { calls: sandbox.callFlows() } }),
	'GET /health': (sandbox) =>
		ok({
			origin: sandbox.origin,
			requests: sandbox.requests().length,
			messages: sandbox.messages().length,
			pendingFaults: sandbox.pendingFaults,
			loginCount: sandbox.loginCount,
			liveSessions: sandbox.liveSessionCount(),
			latencyMs: sandbox.latency,
			rateLimited: sandbox.rateLimitStats().limited,
		}),
	'GET /requests': (sandbox, query) => {
		const filter = requestFilterOf(query);
		return typeof filter === 'string' ? bad(400, filter) : { status: 200, json: sandbox.requests(filter) };
	},
	'DELETE /requests': (sandbox) => {
		sandbox.clearRequests();
		return ok();
	},
	'POST /faults': (sandbox, _query, body) =>
		withJson(body, (value) => {
			const { fault, count, match } = parseFaultRequest(value);
			sandbox.injectFaults(fault, count, match);
			return ok({ pendingFaults: sandbox.pendingFaults });
		}),
	'DELETE /faults': (sandbox) => {
		sandbox.clearFaults();
		return ok();
	},
	'POST /sessions/expire': (sandbox) => ok({ expired: sandbox.expireSessions() }),
	'POST /reset': (sandbox) => {
		sandbox.reset();
		return ok();
	},
	'GET /messages': (sandbox) => ({ status: 200, json: sandbox.messages() }),
	'GET /allocations': (sandbox) => ({ status: 200, json: sandbox.allocations() }),
	'GET /rcs-messages': (sandbox) => ({ status: 200, json: sandbox.rcsMessages() }),
	'GET /chatapp-messages': (sandbox) => ({ status: 200, json: sandbox.chatAppMessages() }),
	'GET /chatapp-webhook': (sandbox) => ({ status: 200, json: { webhook: sandbox.chatAppWebhook() } }),
	'POST /latency': (sandbox, _query, body) => setLatency(sandbox, body),
	'GET /live': (sandbox) => ok({ live: sandbox.live }),
	'POST /live': (sandbox, _query, body) => setLive(sandbox, body),
	'GET /rate-limit': (sandbox) => rateLimitReply(sandbox),
	'POST /rate-limit': (sandbox, _query, body) =>
		withJson(body, (value) => {
			sandbox.setRateLimit(parseRateLimitConfig(value));
			return rateLimitReply(sandbox);
		}),
	'DELETE /rate-limit': (sandbox) => {
		sandbox.setRateLimit(null);
		return rateLimitReply(sandbox);
	},
	'POST /rate-limit/fill': (sandbox, _query, body) =>
		withJson(body, (value) => {
			sandbox.fillRateLimit(value as { category?: RateCategory; count: number });
			return rateLimitReply(sandbox);
		}),
	'GET /callbacks': (sandbox, query) => ({ status: 200, json: sandbox.callbacks(callbackFilterOf(query)) }),
	'GET /callbacks/status': (sandbox) =>
		ok({
			callbacks: sandbox.callbacks().length,
			pendingCallbacks: sandbox.pendingCallbacks,
			failingWebhooks: sandbox.failingWebhooks().length,
		}),
	'DELETE /callbacks': (sandbox) => {
		sandbox.clearCallbacks();
		return ok();
	},
	'GET /failing-webhooks': (sandbox) => ({ status: 200, json: sandbox.failingWebhooks() }),
};

/** Where the control API lives under the sandbox origin. */
export const CONTROL_PREFIX = '/__sandbox';

/** The control API's path under its prefix (`/health`), or undefined when the request is not for it. */
export function controlPathOf(pathname: string): string | undefined {
	if (pathname !== CONTROL_PREFIX && !pathname.startsWith(`${CONTROL_PREFIX}/`)) return undefined;
	return pathname.slice(CONTROL_PREFIX.length) || '/';
}

export async function handleControl(
	sandbox: ControlledSandbox,
	method: string,
	path: string,
	query: URLSearchParams,
	body: Buffer,
): Promise<ControlReply> {
	const route = `${method.toUpperCase()} ${path.replace(/\/+$/, '') || '/'}`;
	const post = CALLBACK_POSTS[route];
	if (post) return postCallback(sandbox, post, body);
	const action = CONTROL_ACTIONS[route];
	return action ? action(sandbox, query, body) : bad(404, `Unknown control endpoint: ${route}`);
}
