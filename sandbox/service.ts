/**
 * The simulated service as tests see and steer it, before any HTTP: what it remembers (state.ts) and
 * has received (request-log.ts), and how it answers: injected faults (faults.ts), latency, the
 * account rate limit (rate-gate.ts), extra routes (router.ts) and live mode; and the incoming calls
 * it plays through call flows (callFlows/), asking the customer's loopback URLs as the call goes.
 * ExotelSandbox (server.ts) serves it over HTTP, with its callbacks and its state file.
 */
import { CallFlows, type CallFlowResult } from './callFlows';
import { FaultQueue } from './faults';
import { allRoutes } from './handlers';
import { AccountRateLimit } from './rate-gate';
import { RequestLog } from './request-log';
import { Router } from './router';
import { SandboxState } from './state';
import type { Allocation, ChatAppWebhookConfig, StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './stored';
import type { AnyRateLimitConfig, Fault, FaultMatch, RateCategory, RateLimitStats, RecordedRequest, RequestFilter, RouteDefinition, SandboxOptions } from './types';

export class SandboxService {
	protected readonly state: SandboxState;

	protected readonly log = new RequestLog();

	protected readonly faults = new FaultQueue();

	protected readonly rate: AccountRateLimit;

	protected readonly router = new Router();

	/** The calls played through flows (kept in memory only; reset and stop cancel those playing). */
	protected readonly calls = new CallFlows();

	protected latencyMs: number;

	constructor(options: SandboxOptions) {
		this.latencyMs = Math.max(0, options.latencyMs ?? 0);
		this.rate = new AccountRateLimit(options.rateLimit);
		this.state = new SandboxState(options.greenvnPoolSize);
		for (const [id, text] of Object.entries(options.dltTemplates ?? {})) this.state.dltTemplates.set(id, text);
		this.state.live = options.live === true;
		this.router.addAll(allRoutes);
	}

	// ------------------------------------------------ how it answers

	get latency(): number {
		return this.latencyMs;
	}

	setLatency(ms: number): void {
		this.latencyMs = Math.max(0, ms);
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

	/** The next `count` requests matching `match` get `fault` (one fault per request, oldest first). */
	injectFaults(fault: Fault, count = 1, match: FaultMatch = {}): void {
		this.faults.add(fault, count, match);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	/** How many faulted answers are still pending. */
	get pendingFaults(): number {
		return this.faults.size;
	}

	/**
	 * Turns the account rate limit on (new, empty windows and zero counters, also when one was on),
	 * as a sliding window or, with `mode: 'documented'`, the service's documented limits; or off with
	 * null. Throws on an invalid configuration.
	 */
	setRateLimit(config: AnyRateLimitConfig | null): void {
		this.rate.set(config);
	}

	/**
	 * Another client on the account has just made `count` accepted requests (documented mode: in
	 * `category`): the next request the limiter counts (in that category) meets them in its window, at
	 * most the limit; no window turns in between, so a test can make that request meet a spent window
	 * without timing. Not in rateLimitStats(). Throws when no rate limit is on or the fill does not
	 * fit the mode (a category in the documented mode only, and one there).
	 */
	fillRateLimit(fill: { category?: RateCategory; count: number }): void {
		this.rate.fill(fill);
	}

	/**
	 * The rate-limit configuration, or null when off: sliding with retryAfter filled in, documented
	 * with every option filled in and the full `limits` map in effect. A copy.
	 */
	get rateLimit(): AnyRateLimitConfig | null {
		return this.rate.config;
	}

	/**
	 * Refusals answered by the limiter and requests it counted, since the last reset() or
	 * setRateLimit(); in the documented mode also `byCategory`.
	 */
	rateLimitStats(): RateLimitStats {
		return this.rate.stats();
	}

	/** Adds a route (checked after the built-in ones). */
	addRoute(route: RouteDefinition): void {
		this.router.add(route);
	}

	// ------------------------------------------------ call flows (callFlows/; README, "Call flows")

	/**
	 * An incoming call played through a flow of applets: `{flow, from, to, callSid?, customField?,
	 * press?, callees?, conversationSeconds?, budgetMs?, repeatEachRequest?}`. Resolves once the call
	 * has ended with what happened; rejects (CallFlowInputError) naming a bad field, a non-loopback URL.
	 */
	playCallFlow(input: unknown): Promise<CallFlowResult> {
		return this.calls.play(input);
	}

	/** The last 200 calls played through flows, oldest first (an async Passthru's late answer included). */
	callFlows(): CallFlowResult[] {
		return this.calls.list();
	}

	// ------------------------------------------------ what it has received and remembers

	requests(filter?: RequestFilter): RecordedRequest[] {
		return this.log.list(filter);
	}

	clearRequests(): void {
		this.log.clear();
	}

	/** Where the records of what it sent begin, and why there (the state file, a reset, a start in memory). */
	get records(): { since: number; why: string } {
		return { ...this.state.records };
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

	/** Successful contact-center logins since the last reset. */
	get loginCount(): number {
		return this.state.loginCount;
	}

	liveSessionCount(): number {
		let n = 0;
		for (const session of this.state.sessions.values()) if (session.live) n++;
		return n;
	}

	/** Every issued contact-center session id becomes invalid (401). Returns how many were live. */
	expireSessions(): number {
		return this.state.expireSessions();
	}
}
