/**
 * The request pipeline of the API bases: record → fault → rate limit → route → auth → answer.
 * It reads a request that has arrived whole and says what to do with the connection (answer it,
 * reset it, or nothing when the sandbox stopped meanwhile); server.ts does the HTTP.
 */
import { BASE_DEFAULT_POLICY, evaluateAuth } from './auth';
import { describeFault, faultReply, type FaultQueue } from './faults';
import { SANDBOX_BASE_PREFIX } from './fixtures';
import { apiError, errorStyleFor, isFormType, mediaTypeOf, parseFormPairs, unauthorizedMessage } from './http';
import type { AccountRateLimit, RateOutcome } from './rate-gate';
import type { RequestLog } from './request-log';
import type { Router, RouteMatch } from './router';
import type { SandboxState } from './state';
import type { AuthOutcome, AuthPolicy, CallbackHooks, ErrorStyle, Fault, RecordedRequest, Reply, RequestContext, SandboxBase } from './types';
import { twilioResponse } from './xml';

/** Bodies above this are answered 413 without being processed. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** A request as it arrived (headers lower-cased). */
export interface ApiRequest {
	method: string;
	url: URL;
	headers: Record<string, string>;
	body: Buffer;
	/** over MAX_BODY_BYTES: the body holds only its start */
	tooLarge: boolean;
}

/** What to do with the connection. */
export type ApiOutcome =
	| { kind: 'answer'; status: number; headers: Record<string, string>; payload: string | Buffer }
	/** destroy the socket (an injected reset) */
	| { kind: 'reset' }
	/** nothing: the sandbox stopped while the request waited */
	| { kind: 'dropped' };

/** What the pipeline works with; the sandbox (server.ts) hands it its parts. */
export interface PipelineParts {
	router: Router;
	state: SandboxState;
	faults: FaultQueue;
	rate: AccountRateLimit;
	log: RequestLog;
	callbacks: CallbackHooks;
	timeScale: number;
	origin: () => string;
	latencyMs: () => number;
	sleep: (ms: number) => Promise<void>;
	running: () => boolean;
	/** Something the state file keeps may have changed. */
	changed: () => void;
}

/** What is decided for a request on arrival, before the latency. */
interface Plan {
	method: string;
	fault?: Fault;
	rate?: RateOutcome;
	match: RouteMatch;
	policy: AuthPolicy;
	errorStyle: ErrorStyle;
	/** live mode: the v1 API answers XML unless the path ends in .json */
	xml: boolean;
}

function splitBase(pathname: string): { base: SandboxBase; path: string } {
	for (const [base, prefix] of Object.entries(SANDBOX_BASE_PREFIX) as Array<[SandboxBase, string]>) {
		if (prefix && (pathname === prefix || pathname.startsWith(`${prefix}/`))) {
			return { base, path: pathname.slice(prefix.length) || '/' };
		}
	}
	return { base: 'base', path: pathname };
}

function queryOf(params: URLSearchParams): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [key, value] of params) {
		const existing = out[key];
		if (existing === undefined) out[key] = value;
		else if (Array.isArray(existing)) existing.push(value);
		else out[key] = [existing, value];
	}
	return out;
}

/** The record of a request as it arrived (its body parsed when it is a form or JSON). */
function recordOf(id: number, request: ApiRequest): RecordedRequest {
	const { base, path } = splitBase(request.url.pathname);
	const contentType = mediaTypeOf(request.headers['content-type']);
	const rawBody = request.body.toString('utf8');
	const record: RecordedRequest = {
		id,
		time: Date.now(),
		base,
		method: request.method.toUpperCase(),
		path,
		query: queryOf(request.url.searchParams),
		headers: request.headers,
		auth: { scheme: 'none', ok: false },
		rawBody,
		status: 0,
	};
	if (contentType) record.contentType = contentType;
	if (isFormType(contentType)) {
		record.form = parseFormPairs(rawBody);
	} else if (rawBody.trim() && contentType !== 'multipart/form-data') {
		try {
			record.json = JSON.parse(rawBody);
		} catch {
			// not JSON: the raw body is recorded
		}
	}
	return record;
}

export class RequestPipeline {
	constructor(private readonly parts: PipelineParts) {}

	async handle(request: ApiRequest): Promise<ApiOutcome> {
		const { log, latencyMs, sleep, running, changed } = this.parts;
		const record = recordOf(log.nextId++, request);
		log.add(record);
		const plan = this.plan(record);
		const wait = latencyMs() + (plan.fault?.kind === 'delay' ? plan.fault.ms : 0);
		if (wait > 0) await sleep(wait);
		if (!running()) return { kind: 'dropped' };
		if (plan.fault?.kind === 'reset' && plan.fault.when !== 'after') return { kind: 'reset' };
		const { reply, bodyAsGiven } = await this.answer(plan, record, request);
		// a handler may have stored a message, a call or a configuration
		if (plan.match.kind === 'found') changed();
		// 'after': the work is done (state changed), the answer is lost.
		if (plan.fault?.kind === 'reset') return { kind: 'reset' };
		return this.wire(record, this.finish(plan, reply, bodyAsGiven));
	}

	/** Fault, rate limit, route and auth, decided on arrival (so concurrent requests are counted in arrival order). */
	private plan(record: RecordedRequest): Plan {
		const { base, method, path } = record;
		const fault = this.parts.faults.take(base, method, path);
		if (fault) record.fault = describeFault(fault);
		// A status fault or a reset before processing replaces the service's answer, so the limiter
		// never sees that request; a delay or a reset 'after' only alters delivery, so it goes through it.
		const replacedByFault = fault?.kind === 'status' || (fault?.kind === 'reset' && fault.when !== 'after');
		const live = this.parts.state.live;
		// live mode serves v1 routes with and without .json (routeOf): both count in the same category
		const ratePath = live ? path.replace(/\.json(\/?)$/, '$1') : path;
		const rate = replacedByFault ? undefined : this.parts.rate.check(base, method, ratePath, record.time);
		if (rate?.category) record.category = rate.category;
		if (rate?.refuse) record.rateLimited = true;
		const match = this.routeOf(base, method, path, live);
		const route = match.kind === 'found' ? match.route : undefined;
		const params = match.kind === 'found' ? match.params : {};
		const policy = route?.auth ?? BASE_DEFAULT_POLICY[base];
		record.auth = evaluateAuth(policy, record.headers, this.parts.state, params, route?.checkAccount ?? true);
		const errorStyle: ErrorStyle = route?.errorStyle ?? errorStyleFor(base, path);
		const xml = live && errorStyle === 'v1' && !/\.json\/?$/.test(path);
		return { method, fault, rate, match, policy, errorStyle, xml };
	}

	/**
	 * The route of a request. In live mode a v1 path is also tried with `.json` added or removed, as the
	 * live service serves both (the suffix only chooses JSON over XML): `Sms/send.json`, `Calls/<sid>`.
	 */
	private routeOf(base: SandboxBase, method: string, path: string, live: boolean): RouteMatch {
		const { router } = this.parts;
		const match = router.match(base, method, path, live);
		if (!live || match.kind === 'found' || errorStyleFor(base, path) !== 'v1') return match;
		const trimmed = path.replace(/\/$/, '');
		const other = trimmed.endsWith('.json') ? trimmed.slice(0, -'.json'.length) : `${trimmed}.json`;
		const alternative = router.match(base, method, other, live);
		return alternative.kind === 'found' || match.kind === 'none' ? alternative : match;
	}

	/** The answer: a fault's, the limiter's refusal, an error of the request's shape, or the handler's. */
	private async answer(plan: Plan, record: RecordedRequest, request: ApiRequest): Promise<{ reply: Reply; bodyAsGiven: boolean }> {
		const { method, fault, match, errorStyle, policy } = plan;
		// a body an injected fault gives is sent as given (never turned into XML)
		if (fault?.kind === 'status') return { reply: faultReply(fault, errorStyle, method), bodyAsGiven: fault.body !== undefined };
		const error = (status: number, message: string, headers?: Record<string, string>) => ({
			reply: apiError(errorStyle, status, message, headers ? { method, headers } : { method }),
			bodyAsGiven: false,
		});
		// the handler does not run: nothing is stored, and the request did not enter the window
		if (plan.rate?.refuse) return { reply: plan.rate.refuse(errorStyle, method), bodyAsGiven: false };
		if (request.tooLarge) return error(413, `The body is larger than ${MAX_BODY_BYTES} bytes`);
		if (match.kind === 'none') return error(404, `No such endpoint: ${method} ${SANDBOX_BASE_PREFIX[record.base]}${record.path}`);
		if (match.kind === 'method') {
			return error(405, `${method} is not allowed here; allowed: ${match.allowed.join(', ')}`, { allow: match.allowed.join(', ') });
		}
		if (!record.auth.ok && policy !== 'none') return error(401, unauthorizedMessage(errorStyle));
		return { reply: await this.run(match, plan, record, request), bodyAsGiven: false };
	}

	/** The route's handler; a handler that throws answers 500. */
	private async run(found: Extract<RouteMatch, { kind: 'found' }>, plan: Plan, record: RecordedRequest, request: ApiRequest): Promise<Reply> {
		const { state, timeScale, callbacks, origin } = this.parts;
		const ctx: RequestContext = {
			request: record,
			params: found.params,
			state,
			rawBody: request.body,
			errorStyle: plan.errorStyle,
			origin: origin(),
			timeScale,
			callbacks,
			setAuth: (outcome: AuthOutcome) => {
				record.auth = outcome;
			},
		};
		try {
			return await found.route.handler(ctx);
		} catch (error) {
			return apiError(plan.errorStyle, 500, `Sandbox handler failed: ${(error as Error)?.message ?? String(error)}`, { method: plan.method });
		}
	}

	/** The limiter's headers on every answer it counted; live mode's XML in place of a v1 JSON answer. */
	private finish(plan: Plan, reply: Reply, bodyAsGiven: boolean): Reply {
		let finished = reply;
		if (plan.rate?.headers) finished = { ...finished, headers: { ...finished.headers, ...plan.rate.headers } };
		if (plan.xml && finished.json !== undefined && !bodyAsGiven) {
			const { json, ...rest } = finished;
			finished = { ...rest, body: twilioResponse(json), contentType: 'application/xml' };
		}
		return finished;
	}

	/** The reply as sent: its status recorded, headers lower-cased, JSON serialised. */
	private wire(record: RecordedRequest, reply: Reply): ApiOutcome {
		const headers: Record<string, string> = { 'x-sandbox-request-id': String(record.id) };
		for (const [name, value] of Object.entries(reply.headers ?? {})) {
			// the live service's answers carry no X-RateLimit-* (Retry-After stays)
			if (this.parts.state.live && name.toLowerCase().startsWith('x-ratelimit-')) continue;
			headers[name.toLowerCase()] = value;
		}
		let payload: string | Buffer = '';
		if (reply.json !== undefined) {
			payload = JSON.stringify(reply.json);
			headers['content-type'] = 'application/json; charset=utf-8';
		} else if (reply.body !== undefined) {
			payload = reply.body;
			if (reply.contentType) headers['content-type'] = reply.contentType;
		}
		record.status = reply.status;
		return { kind: 'answer', status: reply.status, headers, payload };
	}
}
