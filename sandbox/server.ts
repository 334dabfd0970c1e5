/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a local HTTP server with a state file (http, net, fs, path, process, timers); never shipped */
/**
 * A local HTTP simulator of the Exotel service, written from the spec (Node built-ins only).
 *
 * One origin serves every base URL of the spec under a path prefix (see fixtures.ts); requests are
 * recorded, faults can be injected, an account rate limit can be switched on (rate-limit.ts), and
 * `/__sandbox/` is a control API for other processes.
 * Routes live in handlers/ (one file per group); this file holds only the request pipeline.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';
import * as path from 'path';

import { BASE_DEFAULT_POLICY, evaluateAuth } from './auth';
import { CallbackDispatcher, CallbackInputError, endCallInput, type CallbackAttempt, type CallbackFilter, type FailingWebhook, type OpenLinkResult } from './callbacks';
import { handleControl } from './control';
import { describeFault, FaultQueue } from './faults';
import { SANDBOX_ACCOUNT, SANDBOX_BASE_PREFIX } from './fixtures';
import { allRoutes } from './handlers';
import { scheduleCampaigns } from './handlers/campaigns';
import { callStatusEventsOf, callStatusFields, callStatusReportsOf, endCallNow } from './handlers/callStatus';
import { apiError, errorStyleFor, isFormType, mediaTypeOf, parseFormPairs, statusText, unauthorizedMessage } from './http';
import { SHORT_CODE_PATTERN, SHORT_LINK_PREFIX } from './links';
import { readSavedState, restoreState, snapshotState, writeSavedState, type SavedState } from './persist';
import { categoryOf, DocumentedRateLimiter, parseRateLimitConfig, parseRateLimitFill, RateLimiter } from './rate-limit';
import { Router, type RouteMatch } from './router';
import { SandboxState } from './state';
import type { Allocation, ChatAppWebhookConfig, StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './stored';
import { budget } from './timing';
import type {
	AnyRateLimitConfig,
	AuthOutcome,
	ErrorStyle,
	Fault,
	FaultMatch,
	RateCategory,
	RateLimitStats,
	RecordedRequest,
	Reply,
	RequestContext,
	RequestFilter,
	RouteDefinition,
	SandboxBase,
	SandboxOptions,
} from './types';
import { twilioResponse } from './xml';

export type {
	AnyRateLimitConfig,
	DocumentedRateLimitConfig,
	Fault,
	FaultMatch,
	RateCategory,
	RateCategoryStats,
	RateLimitConfig,
	RateLimitStats,
	RecordedRequest,
	RequestFilter,
	SandboxBase,
	SandboxOptions,
} from './types';
export type { CallbackAttempt, CallbackFilter, CallbackKind, CallbackOutcome, FailingWebhook, OpenedPage, OpenLinkResult } from './callbacks';
export type { ShortLink } from './links';
export type {
	Allocation,
	ChatAppWebhookConfig,
	StoredChatAppMessage,
	StoredRcsMessage,
	StoredSmsMessage,
} from './stored';

/** Bodies above this are answered 413 without being processed. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** How soon after a change the records are written to the state file (changes come in bursts). */
const SAVE_DELAY_MS = 200;

const CONTROL_PREFIX = '/__sandbox';

function splitBase(pathname: string): { base: SandboxBase; path: string } {
	for (const [base, prefix] of Object.entries(SANDBOX_BASE_PREFIX) as Array<[SandboxBase, string]>) {
		if (prefix && (pathname === prefix || pathname.startsWith(`${prefix}/`))) {
			return { base, path: pathname.slice(prefix.length) || '/' };
		}
	}
	return { base: 'base', path: pathname };
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
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

function readBody(req: http.IncomingMessage): Promise<{ body: Buffer; tooLarge: boolean }> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () => resolve({ body: Buffer.concat(chunks), tooLarge: size > MAX_BODY_BYTES }));
		req.on('error', reject);
	});
}

export function matchesFilter(record: RecordedRequest, filter: RequestFilter = {}): boolean {
	if (filter.base !== undefined && record.base !== filter.base) return false;
	if (filter.method !== undefined && record.method.toUpperCase() !== filter.method.toUpperCase()) return false;
	if (filter.pathIncludes !== undefined && !record.path.includes(filter.pathIncludes)) return false;
	return true;
}

function newLimiter(input: AnyRateLimitConfig): RateLimiter | DocumentedRateLimiter {
	// validated first, so that an unknown mode from untyped callers is an error, not a sliding window
	const config = parseRateLimitConfig(input as unknown);
	return config.mode === 'documented' ? new DocumentedRateLimiter(config) : new RateLimiter(config);
}

/** What the limiter decided for a request it saw (see checkRateLimit). */
interface RateOutcome {
	category?: RateCategory;
	/** added to whatever answers the request */
	headers?: Record<string, string>;
	/** set when refused */
	refuse?: (style: ErrorStyle, method: string) => Reply;
}

export class ExotelSandbox {
	private server?: http.Server;

	private originValue?: string;

	private readonly sockets = new Set<Socket>();

	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly router = new Router();

	private readonly state: SandboxState;

	private readonly faults = new FaultQueue();

	private log: RecordedRequest[] = [];

	private nextId = 1;

	private latencyMs: number;

	private limiter?: RateLimiter | DocumentedRateLimiter;

	private readonly port: number;

	private readonly timeScale: number;

	private readonly dispatcher: CallbackDispatcher;

	private readonly stateFile?: string;

	private saveTimer?: NodeJS.Timeout;

	constructor(options: SandboxOptions = {}) {
		this.port = options.port ?? 0;
		this.stateFile = options.stateFile;
		this.latencyMs = Math.max(0, options.latencyMs ?? 0);
		this.timeScale = Math.max(0, options.timeScale ?? 1);
		if (options.rateLimit) this.limiter = newLimiter(options.rateLimit);
		this.state = new SandboxState(options.greenvnPoolSize);
		for (const [id, text] of Object.entries(options.dltTemplates ?? {})) this.state.dltTemplates.set(id, text);
		this.state.live = options.live === true;
		this.router.addAll(allRoutes);
		this.dispatcher = new CallbackDispatcher({
			state: this.state,
			timeScale: this.timeScale,
			signingSecret: SANDBOX_ACCOUNT.webhookSigningSecret,
			accountSid: SANDBOX_ACCOUNT.accountSid,
			ackTimeoutMs: options.callbackTimeoutMs,
		});
	}

	/** e.g. 'http://127.0.0.1:43123'; throws before start(). */
	get origin(): string {
		if (!this.originValue) throw new Error('The sandbox is not started');
		return this.originValue;
	}

	/** Successful contact-center logins since the last reset. */
	get loginCount(): number {
		return this.state.loginCount;
	}

	get latency(): number {
		return this.latencyMs;
	}

	/** Whether the sandbox is in live mode (README, "Live mode"). */
	get live(): boolean {
		return this.state.live;
	}

	/**
	 * Live mode on or off, at once for the next request and the next callback posted (a report already
	 * scheduled is built when it is posted). Configuration: reset() keeps it.
	 */
	setLive(on: boolean): void {
		this.state.live = on === true;
	}

	/** How many faulted answers are still pending. */
	get pendingFaults(): number {
		return this.faults.size;
	}

	async start(): Promise<string> {
		if (this.server) throw new Error('The sandbox is already started');
		const server = http.createServer((req, res) => {
			this.handle(req, res).catch((error: unknown) => {
				if (!res.headersSent && !res.destroyed) {
					res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
					res.end(JSON.stringify({ error: `Sandbox failure: ${(error as Error)?.message ?? String(error)}` }));
				}
			});
		});
		// Idle connections are closed by the client only: a server timing them out races a client
		// reusing one (fetch's idle timer is coarse, and under load both fire late), and the client's
		// next request dies of ECONNRESET. stop() destroys whatever is still open.
		server.keepAliveTimeout = 0;
		server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(this.port, '127.0.0.1', () => {
				server.off('error', reject);
				resolve();
			});
		});
		this.server = server;
		this.originValue = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		// before any request is handled: the listen callback and this run in the same turn
		if (this.stateFile) this.loadState(this.stateFile, this.originValue);
		return this.originValue;
	}

	/** Where the records of what it sent begin, and why there (the state file, a reset, a start in memory). */
	get records(): { since: number; why: string } {
		return { ...this.state.records };
	}

	/**
	 * Reads the state file: its records come back (the short links moved to this origin, the request
	 * ids going on from where they were) and the status callbacks its placed calls had not posted are
	 * scheduled again; those that fell due while it was down go at once. A file that cannot be read is
	 * moved aside and the sandbox starts empty, saying why in its records.
	 */
	private loadState(file: string, origin: string): void {
		const { saved, problem } = readSavedState(file);
		// `.dev/sandbox-state.json` under the project, the full path elsewhere
		const relative = path.relative(process.cwd(), file);
		const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
		if (!saved) {
			let why = `when it started with no saved records in ${shown}`;
			if (problem) {
				const aside = `${file}.unreadable-${Date.now()}`;
				try {
					fs.renameSync(file, aside);
					why = `when it started: its saved records in ${shown} could not be read (${problem}) and were moved to ${path.basename(aside)}`;
				} catch {
					why = `when it started: its saved records in ${shown} could not be read (${problem})`;
				}
			}
			this.state.records = { since: Date.now(), why };
			return;
		}
		restoreState(this.state, saved, origin);
		this.nextId = Math.max(this.nextId, saved.nextRequestId);
		this.state.records = { since: saved.recordsSince, why: `its records, kept in ${shown} across restarts, begin then` };
		this.rescheduleCalls(saved);
		// a restored campaign goes on: what fell due while the sandbox was down runs at once, in order
		scheduleCampaigns({ state: this.state, timeScale: this.timeScale, callbacks: this.dispatcher });
	}

	/** A restored call's status callbacks timed after the save (not posted then), at their times or at once when overdue. */
	private rescheduleCalls(saved: SavedState): void {
		const now = Date.now();
		for (const call of this.state.calls.values()) {
			if (!call.connect) continue;
			const connectedAt = call.endsAt - call.endedAfter * 1000 * saved.timeScale;
			let previous = -1;
			const pending = callStatusReportsOf(call, this.originValue ?? '', () => this.state.live)
				.map((report) => ({ report, at: connectedAt + report.delayMs * saved.timeScale }))
				.filter(({ at }) => at > saved.savedAt)
				.map(({ report, at }) => {
					// distinct delays keep the order (answered before terminal) when both are overdue
					const delayMs = Math.max(previous + 1, this.timeScale > 0 ? Math.max(0, at - now) / this.timeScale : 0);
					previous = delayMs;
					return { ...report, delayMs };
				});
			if (pending.length) this.dispatcher.callStatusScheduled(pending);
		}
	}

	/** Something the records hold may have changed: written soon, once for a burst of changes. */
	private changed(): void {
		if (!this.stateFile || this.saveTimer || !this.server) return;
		this.saveTimer = setTimeout(() => {
			this.saveTimer = undefined;
			this.saveState();
		}, SAVE_DELAY_MS);
		this.saveTimer.unref();
	}

	private saveState(): void {
		if (!this.stateFile || !this.originValue) return;
		try {
			writeSavedState(this.stateFile, snapshotState(this.state, { origin: this.originValue, timeScale: this.timeScale, nextRequestId: this.nextId }));
		} catch (error) {
			// the sandbox goes on in memory; the next change tries again
			process.stderr.write(`Exotel sandbox: could not save its records to ${this.stateFile}: ${(error as Error).message}\n`);
		}
	}

	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		// the records as they are now, before anything is cancelled: a call's callbacks not posted yet stay due
		clearTimeout(this.saveTimer);
		this.saveTimer = undefined;
		this.saveState();
		this.server = undefined;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.dispatcher.cancelAll();
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			for (const socket of this.sockets) socket.destroy();
			this.sockets.clear();
			server.closeAllConnections();
		});
	}

	requests(filter?: RequestFilter): RecordedRequest[] {
		return this.log.filter((record) => matchesFilter(record, filter));
	}

	clearRequests(): void {
		this.log = [];
	}

	/** The next `count` requests matching `match` get `fault` (one fault per request, oldest first). */
	injectFaults(fault: Fault, count = 1, match: FaultMatch = {}): void {
		this.faults.add(fault, count, match);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	/** Every issued contact-center session id becomes invalid (401). Returns how many were live. */
	expireSessions(): number {
		return this.state.expireSessions();
	}

	/**
	 * Clears state, the request log, pending faults, the callback log and pending callbacks, and the
	 * rate limit's window and counters (latency and the rate-limit configuration stay as set).
	 */
	reset(): void {
		this.dispatcher.reset();
		this.state.reset();
		this.log = [];
		this.nextId = 1;
		this.faults.clear();
		this.limiter?.clear();
		this.changed();
	}

	setLatency(ms: number): void {
		this.latencyMs = Math.max(0, ms);
	}

	/**
	 * Turns the account rate limit on (new, empty windows and zero counters, also when one was on),
	 * as a sliding window or, with `mode: 'documented'`, the service's documented limits; or off with
	 * null. Throws on an invalid configuration.
	 */
	setRateLimit(config: AnyRateLimitConfig | null): void {
		this.limiter = config ? newLimiter(config) : undefined;
	}

	/**
	 * Another client on the account has just made `count` accepted requests (documented mode: in
	 * `category`): the next request the limiter counts (in that category) meets them in its window, at
	 * most the limit; no window turns in between, so a test can make that request meet a spent window
	 * without timing. Not in rateLimitStats(). Throws when no rate limit is on or the fill does not
	 * fit the mode (a category in the documented mode only, and one there).
	 */
	fillRateLimit(fill: { category?: RateCategory; count: number }): void {
		const limiter = this.limiter;
		if (!limiter) throw new Error('no rate limit is on (set one first)');
		const documented = limiter instanceof DocumentedRateLimiter;
		const { category, count } = parseRateLimitFill(fill, documented);
		if (limiter instanceof DocumentedRateLimiter) limiter.fill(category!, count);
		else limiter.fill(count);
	}

	/**
	 * The rate-limit configuration, or null when off: sliding with retryAfter filled in, documented
	 * with every option filled in and the full `limits` map in effect. A copy.
	 */
	get rateLimit(): AnyRateLimitConfig | null {
		if (!this.limiter) return null;
		if (this.limiter instanceof DocumentedRateLimiter) {
			const config = this.limiter.config;
			return { ...config, limits: { ...config.limits } };
		}
		const { bases, ...rest } = this.limiter.config;
		return bases ? { ...rest, bases: [...bases] } : { ...rest };
	}

	/**
	 * Refusals answered by the limiter and requests it counted, since the last reset() or
	 * setRateLimit(); in the documented mode also `byCategory`.
	 */
	rateLimitStats(): RateLimitStats {
		return this.limiter?.stats() ?? { limited: 0, counted: 0 };
	}

	/** Every SMS accepted since the last reset, in acceptance order (with StatusCallback and CustomField). */
	messages(): StoredSmsMessage[] {
		return [...this.state.smsMessages.values()];
	}

	message(sid: string): StoredSmsMessage | undefined {
		return this.state.smsMessages.get(sid);
	}

	/** Every RCS message accepted since the last reset, in acceptance order (effective custom_data and status_callback). */
	rcsMessages(): StoredRcsMessage[] {
		return [...this.state.rcsMessages.values()].map((m) => structuredClone(m));
	}

	/** Every chat-app message accepted since the last reset, in acceptance order. */
	chatAppMessages(): StoredChatAppMessage[] {
		return [...this.state.chatAppMessages.values()].map((m) => structuredClone(m));
	}

	/** The chat-app webhook configuration set by PUT .../chatapp/webhook, or null. */
	chatAppWebhook(): ChatAppWebhookConfig | null {
		return this.state.chatAppWebhook ? { ...this.state.chatAppWebhook } : null;
	}

	/** Every allocation since the last reset (active and vault). */
	allocations(): Allocation[] {
		return [...this.state.allocations.values()].map((record) => ({ ...record.allocation }));
	}

	liveSessionCount(): number {
		let n = 0;
		for (const session of this.state.sessions.values()) if (session.live) n++;
		return n;
	}

	// ------------------------------------------------ callbacks (callbacks/)

	/** Every callback attempt since the last reset, in the order they finished. */
	callbacks(filter?: CallbackFilter): CallbackAttempt[] {
		return this.dispatcher.attempts(filter);
	}

	/** Clears the callback log and the failing marks (pending deliveries go on). */
	clearCallbacks(): void {
		this.dispatcher.clearLog();
	}

	/** URLs whose callback failed its first try and all 4 retries. */
	failingWebhooks(): FailingWebhook[] {
		return this.dispatcher.failingWebhooks();
	}

	/** Scheduled reports, retries and timeouts plus requests in flight (0 when idle). */
	get pendingCallbacks(): number {
		return this.dispatcher.pending;
	}

	/**
	 * Resolves with the callback log once `predicate(log)` holds; rejects after `timeoutMs` with the
	 * log (polls every 5 ms). The default only catches a callback that never comes, and stretches on a
	 * busy machine (timing.ts), which may take seconds to deliver what a quiet one delivers in milliseconds.
	 */
	waitForCallbacks(predicate: (log: CallbackAttempt[]) => boolean, timeoutMs = budget(30_000)): Promise<CallbackAttempt[]> {
		return this.dispatcher.waitFor(predicate, timeoutMs);
	}

	/** Posts a signed chat-app incoming message (see callbacks/chat-app.ts); resolves with the first attempt. */
	postChatAppIncoming(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postChatAppIncoming(input);
	}

	/** Posts a signed chat-app status callback; resolves with the first attempt. */
	postChatAppCallback(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postChatAppCallback(input);
	}

	/** Posts an RCS incoming message; resolves with the first attempt. */
	postRcsIncoming(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postRcsIncoming(input);
	}

	/** Posts an SMS StatusCallback; resolves with the first attempt. */
	postSmsCallback(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postSmsCallback(input);
	}

	/** Posts a click-tracking callback; resolves with the first attempt. */
	postClickCallback(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postClickCallback(input);
	}

	/** Posts any payload to a (loopback) URL, kind 'custom' by default; resolves with the first attempt. */
	postCallback(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postCallback(input);
	}

	// ------------------------------------------------ acting as the person (callbacks/person.ts, browser.ts)

	/**
	 * The person answers a sent chat-app or RCS message: a signed `icm` entry (kind chatapp-reply) to
	 * the chat-app message's status_callback, or an RCS incoming_message (kind rcs-incoming) to the
	 * RCS message's status_callback. Input: `{sid? | to?, from?, name?, button? | listRow? | text? |
	 * suggestion?, signature?}` (sandbox/README.md, "Acting as the person"). Resolves with the first attempt;
	 * rejects (CallbackInputError) naming the problem.
	 */
	reply(input: Record<string, unknown>): Promise<CallbackAttempt> {
		return this.dispatcher.postReply(input);
	}

	/**
	 * A person (or a link-preview bot, `as: 'bot'`) opens a link of a sent SMS: `{sid? | to?, link? |
	 * match?, as?}`. Loopback links only; resolves with `{ok, sid, as, link, pages, stopped?}`.
	 */
	openLink(input: Record<string, unknown>): Promise<OpenLinkResult> {
		return this.dispatcher.openLink(input);
	}

	/**
	 * A placed call (Calls/connect) still running ends now: `{callSid, status? ('completed')}`. Its
	 * status callbacks not posted yet are cancelled and its terminal callback is posted at once (when
	 * it has a StatusCallback and `terminal` is among its events); resolves with that first attempt,
	 * or null when there is nothing to post.
	 */
	async endCall(input: Record<string, unknown>): Promise<CallbackAttempt | null> {
		const { callSid, status } = endCallInput(input);
		const call = this.state.calls.get(callSid);
		if (!call) throw new CallbackInputError(`no call has sid '${callSid}'`);
		const now = Date.now();
		if (now >= call.endsAt) throw new CallbackInputError(`call ${callSid} has already ended (${call.outcome})`);
		this.dispatcher.cancelCallStatus(callSid);
		endCallNow(call, status, now, this.timeScale);
		this.changed();
		const url = call.connect?.statusCallback;
		if (!url || !callStatusEventsOf(call).includes('terminal')) return null;
		return this.dispatcher.postCallStatus({ url, callSid, fields: callStatusFields(call, 'terminal', this.originValue ?? '', this.state.live) });
	}

	/** Adds a route (checked after the built-in ones). */
	addRoute(route: RouteDefinition): void {
		this.router.add(route);
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const { body, tooLarge } = await readBody(req);
		if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
			const reply = await handleControl(this, req.method ?? 'GET', url.pathname.slice(CONTROL_PREFIX.length) || '/', url.searchParams, body);
			res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' });
			res.end(JSON.stringify(reply.json));
			return;
		}
		if (url.pathname.startsWith(SHORT_LINK_PREFIX)) {
			this.answerShortLink(req.method ?? 'GET', url.pathname.slice(SHORT_LINK_PREFIX.length), res);
			return;
		}

		const { base, path } = splitBase(url.pathname);
		const method = (req.method ?? 'GET').toUpperCase();
		const headers = flattenHeaders(req.headers);
		const contentType = mediaTypeOf(headers['content-type']);
		const rawBody = body.toString('utf8');
		const record: RecordedRequest = {
			id: this.nextId++,
			time: Date.now(),
			base,
			method,
			path,
			query: queryOf(url.searchParams),
			headers,
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
		this.log.push(record);

		const fault = this.faults.take(base, method, path);
		if (fault) record.fault = describeFault(fault);
		// A status fault or a reset before processing replaces the service's answer, so the limiter
		// never sees that request; a delay or a reset 'after' only alters delivery, so it goes through it.
		const replacedByFault = fault?.kind === 'status' || (fault?.kind === 'reset' && fault.when !== 'after');
		const live = this.state.live;
		// live mode serves v1 routes with and without .json (routeOf): both count in the same category
		const ratePath = live ? path.replace(/\.json(\/?)$/, '$1') : path;
		// Decided on arrival (before latency), so concurrent requests are counted in arrival order.
		const rate = replacedByFault ? undefined : this.checkRateLimit(base, method, ratePath, record.time);
		if (rate?.category) record.category = rate.category;
		const refuse = rate?.refuse;
		if (refuse) record.rateLimited = true;
		const match = this.routeOf(base, method, path, live);
		const route = match.kind === 'found' ? match.route : undefined;
		const params = match.kind === 'found' ? match.params : {};
		const policy = route?.auth ?? BASE_DEFAULT_POLICY[base];
		record.auth = evaluateAuth(policy, headers, this.state, params, route?.checkAccount ?? true);
		const errorStyle: ErrorStyle = route?.errorStyle ?? errorStyleFor(base, path);
		// live mode: the v1 API answers XML unless the path ends in .json
		const xml = live && errorStyle === 'v1' && !/\.json\/?$/.test(path);

		const wait = this.latencyMs + (fault?.kind === 'delay' ? fault.ms : 0);
		if (wait > 0) await this.sleep(wait);
		if (!this.server) return;

		if (fault?.kind === 'reset' && fault.when !== 'after') {
			this.resetConnection(req);
			return;
		}

		let reply: Reply;
		// a body an injected fault gives is sent as given (never turned into XML)
		let bodyAsGiven = false;
		if (fault?.kind === 'status') {
			reply = this.faultReply(fault, errorStyle, method);
			bodyAsGiven = fault.body !== undefined;
		} else if (refuse) {
			// the handler does not run: nothing is stored, and the request did not enter the window
			reply = refuse(errorStyle, method);
		} else if (tooLarge) {
			reply = apiError(errorStyle, 413, `The body is larger than ${MAX_BODY_BYTES} bytes`, { method });
		} else if (match.kind === 'none') {
			reply = apiError(errorStyle, 404, `No such endpoint: ${method} ${SANDBOX_BASE_PREFIX[base]}${path}`, { method });
		} else if (match.kind === 'method') {
			reply = apiError(errorStyle, 405, `${method} is not allowed here; allowed: ${match.allowed.join(', ')}`, {
				method,
				headers: { allow: match.allowed.join(', ') },
			});
		} else if (!record.auth.ok && policy !== 'none') {
			reply = apiError(errorStyle, 401, unauthorizedMessage(errorStyle), { method });
		} else {
			const ctx: RequestContext = {
				request: record,
				params,
				state: this.state,
				rawBody: body,
				errorStyle,
				origin: this.originValue ?? '',
				timeScale: this.timeScale,
				callbacks: this.dispatcher,
				setAuth: (outcome: AuthOutcome) => {
					record.auth = outcome;
				},
			};
			try {
				reply = await match.route.handler(ctx);
			} catch (error) {
				reply = apiError(errorStyle, 500, `Sandbox handler failed: ${(error as Error)?.message ?? String(error)}`, {
					method,
				});
			}
		}

		// a handler may have stored a message, a call or a configuration
		if (match.kind === 'found') this.changed();
		if (fault?.kind === 'reset') {
			// 'after': the work is done (state changed), the answer is lost.
			this.resetConnection(req);
			return;
		}
		if (rate?.headers) reply = { ...reply, headers: { ...reply.headers, ...rate.headers } };
		if (xml && reply.json !== undefined && !bodyAsGiven) {
			const { json: body, ...rest } = reply;
			reply = { ...rest, body: twilioResponse(body), contentType: 'application/xml' };
		}
		this.send(res, record, reply);
	}

	/**
	 * The route of a request. In live mode a v1 path is also tried with `.json` added or removed, as the
	 * live service serves both (the suffix only chooses JSON over XML): `Sms/send.json`, `Calls/<sid>`.
	 */
	private routeOf(base: SandboxBase, method: string, path: string, live: boolean): RouteMatch {
		const match = this.router.match(base, method, path, live);
		if (!live || match.kind === 'found' || errorStyleFor(base, path) !== 'v1') return match;
		const trimmed = path.replace(/\/$/, '');
		const other = trimmed.endsWith('.json') ? trimmed.slice(0, -'.json'.length) : `${trimmed}.json`;
		const alternative = this.router.match(base, method, other, live);
		return alternative.kind === 'found' || match.kind === 'none' ? alternative : match;
	}

	/**
	 * `GET /s/<code>`: a short link of an SMS sent with ShortenUrl=true answers 302 to its long URL.
	 * Served like the control API (a handset's visit, not an API request): no auth, never recorded,
	 * faulted or rate limited. HEAD answers the same without a body; an unknown code 404.
	 */
	private answerShortLink(method: string, code: string, res: http.ServerResponse): void {
		const link = SHORT_CODE_PATTERN.test(code) ? this.state.shortLinks.get(code) : undefined;
		const upper = method.toUpperCase();
		let status: number;
		let body: string;
		const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
		if (upper !== 'GET' && upper !== 'HEAD') {
			status = 405;
			body = `${upper} is not allowed on a short link; allowed: GET, HEAD`;
			headers.allow = 'GET, HEAD';
		} else if (!link) {
			status = 404;
			body = `No such short link: ${SHORT_LINK_PREFIX}${code}`;
		} else {
			status = 302;
			body = `Found: ${link.longUrl}`;
			headers.location = link.longUrl;
		}
		res.writeHead(status, headers);
		res.end(upper === 'HEAD' ? undefined : body);
	}

	/**
	 * Counts the request when the limiter applies to it. Undefined when it does not; else the
	 * headers every answer to it carries (documented mode), its category (documented mode), and,
	 * when it is refused, the answer that replaces the handler's.
	 */
	private checkRateLimit(base: SandboxBase, method: string, path: string, now: number): RateOutcome | undefined {
		const limiter = this.limiter;
		if (!limiter) return undefined;
		if (limiter instanceof DocumentedRateLimiter) {
			const category = categoryOf(base, method, path);
			if (!category) return undefined;
			const decision = limiter.check(category, now);
			const refusal = decision.limited ? limiter.refusal(category) : undefined;
			return { category, headers: limiter.headersFor(decision), refuse: refusal && (() => refusal) };
		}
		if (!limiter.applies(base)) return undefined;
		const decision = limiter.check(now);
		if (!decision.limited) return {};
		const { limit, windowMs, retryAfter } = limiter.config;
		const headers: Record<string, string> = retryAfter ? { 'retry-after': String(decision.retryAfterSeconds) } : {};
		// in the error family of the path, known once routed
		return {
			refuse: (style, method) => apiError(style, 429, `Rate limit exceeded: ${limit} requests per ${windowMs} ms`, { method, headers }),
		};
	}

	private faultReply(fault: Extract<Fault, { kind: 'status' }>, style: ErrorStyle, method: string): Reply {
		const headers: Record<string, string> = {};
		if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
		if (fault.body !== undefined) {
			return typeof fault.body === 'string'
				? { status: fault.status, body: fault.body, contentType: faultContentType(fault.body), headers }
				: { status: fault.status, json: fault.body, headers };
		}
		return apiError(style, fault.status, `${statusText(fault.status)} (injected by the sandbox)`, { method, headers });
	}

	private resetConnection(req: http.IncomingMessage): void {
		const socket = req.socket;
		try {
			socket.resetAndDestroy();
		} catch {
			socket.destroy();
		}
	}

	private send(res: http.ServerResponse, record: RecordedRequest, reply: Reply): void {
		const headers: Record<string, string> = { 'x-sandbox-request-id': String(record.id) };
		for (const [name, value] of Object.entries(reply.headers ?? {})) {
			// the live service's answers carry no X-RateLimit-* (Retry-After stays)
			if (this.state.live && name.toLowerCase().startsWith('x-ratelimit-')) continue;
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
		if (res.destroyed) return;
		res.writeHead(reply.status, headers);
		res.end(payload);
	}
}

/** An injected text body is served as the service would serve it: a recorded XML answer as XML. */
function faultContentType(body: string): string {
	return body.trimStart().startsWith('<?xml') || /^\s*<[A-Za-z]/.test(body) ? 'application/xml' : 'text/plain; charset=utf-8';
}
