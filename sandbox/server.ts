/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a local HTTP server (http, net, setTimeout); never shipped */
/**
 * A local HTTP simulator of the Exotel service, written from the spec (Node built-ins only).
 *
 * One origin serves every base URL of the spec under a path prefix (see fixtures.ts); requests are
 * recorded, faults can be injected, an account rate limit can be switched on (rate-limit.ts), and
 * `/__sandbox/` is a control API for other processes.
 * ExotelSandbox is the face tests and scripts use: the service as they steer and read it
 * (service.ts: state, request log, faults, latency, rate limit, routes, live mode), served here
 * over HTTP, with its callbacks (callbacks/) and its state file (persist.ts). Each request goes to
 * its room: the control API (control.ts), a short link (links.ts), or the API pipeline
 * (pipeline.ts: record, fault, rate limit, route, auth, answer). Routes live in handlers/.
 */
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';

import { CallbackDispatcher, type CallbackAttempt, type CallbackFilter, type FailingWebhook, type OpenLinkResult } from './callbacks';
import { controlPathOf, handleControl } from './control';
import { SANDBOX_ACCOUNT } from './fixtures';
import { endPlacedCall } from './handlers/callStatus';
import { SHORT_LINK_PREFIX, shortLinkAnswer } from './links';
import { StateFileKeeper } from './persist';
import { MAX_BODY_BYTES, RequestPipeline } from './pipeline';
import { SandboxService } from './service';
import { budget } from './timing';
import type { SandboxOptions } from './types';

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
export { CallFlowInputError } from './callFlows';
export type { AppletRequest, CalleeBehaviour, CallFlowResult, CallFlowStep, DialledNumber } from './callFlows';
export type { ShortLink } from './links';
export type { Allocation, ChatAppWebhookConfig, StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './stored';
export { MAX_BODY_BYTES } from './pipeline';
export { matchesFilter } from './request-log';

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
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

function resetConnection(req: http.IncomingMessage): void {
	try {
		req.socket.resetAndDestroy();
	} catch {
		req.socket.destroy();
	}
}

/** Listens on 127.0.0.1 only; resolves once listening. */
function listen(server: http.Server, port: number): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
}

export class ExotelSandbox extends SandboxService {
	private server?: http.Server;

	private originValue?: string;

	private readonly sockets = new Set<Socket>();

	/** The latency waits of requests in flight (stop() clears them). */
	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly port: number;

	private readonly timeScale: number;

	private readonly dispatcher: CallbackDispatcher;

	private readonly stateFile?: StateFileKeeper;

	private readonly pipeline: RequestPipeline;

	constructor(options: SandboxOptions = {}) {
		super(options);
		this.port = options.port ?? 0;
		this.timeScale = Math.max(0, options.timeScale ?? 1);
		const { accountSid, webhookSigningSecret: signingSecret } = SANDBOX_ACCOUNT;
		const ackTimeoutMs = options.callbackTimeoutMs;
		this.dispatcher = new CallbackDispatcher({ state: this.state, timeScale: this.timeScale, signingSecret, accountSid, ackTimeoutMs });
		const parts = { state: this.state, timeScale: this.timeScale, callbacks: this.dispatcher };
		if (options.stateFile) this.stateFile = new StateFileKeeper(options.stateFile, { ...parts, ids: this.log });
		this.pipeline = new RequestPipeline({
			...parts,
			router: this.router,
			faults: this.faults,
			rate: this.rate,
			log: this.log,
			origin: () => this.originValue ?? '',
			latencyMs: () => this.latencyMs,
			sleep: (ms) => this.sleep(ms),
			running: () => this.server !== undefined,
			changed: () => this.changed(),
		});
	}

	/** e.g. 'http://127.0.0.1:43123'; throws before start(). */
	get origin(): string {
		if (!this.originValue) throw new Error('The sandbox is not started');
		return this.originValue;
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
		await listen(server, this.port);
		this.server = server;
		this.originValue = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		// before any request is handled: the listen callback and this run in the same turn
		this.stateFile?.load(this.originValue);
		return this.originValue;
	}

	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		// the records as they are now, before anything is cancelled: a call's callbacks not posted yet stay due
		this.stateFile?.flush();
		this.server = undefined;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.dispatcher.cancelAll();
		this.calls.cancelAll();
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			for (const socket of this.sockets) socket.destroy();
			this.sockets.clear();
			server.closeAllConnections();
		});
	}

	/**
	 * Clears state, the request log, pending faults, the callback log and pending callbacks, the calls
	 * played through flows (those playing hang up), and the rate limit's window and counters (latency
	 * and the rate-limit configuration stay as set).
	 */
	reset(): void {
		this.dispatcher.reset();
		this.calls.reset();
		this.state.reset();
		this.log.reset();
		this.faults.clear();
		this.rate.clear();
		this.changed();
	}

	// ------------------------------------------------ callbacks (callbacks/; README, "Callbacks")

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
	 * or null when there is nothing to post (handlers/callStatus.ts, endPlacedCall).
	 */
	async endCall(input: Record<string, unknown>): Promise<CallbackAttempt | null> {
		const ended = endPlacedCall(input, { state: this.state, timeScale: this.timeScale, origin: this.originValue ?? '' }, this.dispatcher);
		this.changed();
		return ended;
	}

	// ------------------------------------------------ serving

	/** Something the state file keeps may have changed (it is written soon). */
	private changed(): void {
		if (this.server) this.stateFile?.changed();
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

	/** The control API, a short link, or the API pipeline. */
	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const { body, tooLarge } = await readBody(req);
		const method = req.method ?? 'GET';
		const controlPath = controlPathOf(url.pathname);
		if (controlPath !== undefined) {
			const reply = await handleControl(this, method, controlPath, url.searchParams, body);
			res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' });
			res.end(JSON.stringify(reply.json));
			return;
		}
		if (url.pathname.startsWith(SHORT_LINK_PREFIX)) {
			const answer = shortLinkAnswer(method, url.pathname.slice(SHORT_LINK_PREFIX.length), (code) => this.state.shortLinks.get(code));
			res.writeHead(answer.status, answer.headers);
			res.end(answer.body);
			return;
		}
		const outcome = await this.pipeline.handle({ method, url, headers: flattenHeaders(req.headers), body, tooLarge });
		if (outcome.kind === 'reset') resetConnection(req);
		if (outcome.kind !== 'answer' || res.destroyed) return;
		res.writeHead(outcome.status, outcome.headers);
		res.end(outcome.payload);
	}
}
