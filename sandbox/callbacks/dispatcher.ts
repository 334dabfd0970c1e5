/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- posts callbacks to loopback receivers on timers (http, https, setTimeout, process.stderr); never shipped */
/**
 * The callback dispatcher: delivery reports after accepted sends (SMS StatusCallback, RCS dlr with
 * SMS fallback, chat-app status, call status), a campaign's steps on its own timeline and its
 * callbacks in order (handlers/campaigns.ts decides them), incoming messages and other callbacks on
 * demand, with the acknowledgement timeout and the retry schedule of messaging.md, scaled by `timeScale`.
 * What each callback carries is built per channel (sms.ts, rcs.ts, chat-app.ts, voice.ts); here
 * it is queued, signed, posted, retried and logged.
 *
 * SAFETY: only loopback URLs (hosts 127.0.0.1, localhost, ::1) are ever contacted. Any other URL is
 * logged with outcome `skipped-non-loopback` and never sent; `localhost` is connected as 127.0.0.1
 * (no name is ever resolved); redirects are never followed (a 3xx is just "not 200").
 */
import { createHmac } from 'crypto';
import * as http from 'http';
import * as https from 'https';

import type { SandboxState } from '../state';
import type { StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from '../stored';
import type { CallbackHooks } from '../types';
import { openLinkAs, type LinkFetch, type OpenLinkResult } from './browser';
import { chatAppIncomingRequest, chatAppStatusReports, chatAppStatusRequest } from './chat-app';
import { formPost, inputObject, jsonPost, optString, payloadOption, signatureOption } from './payload';
import { openLinkPlan, replyRequest } from './person';
import { rcsDlrReports, rcsIncomingRequest } from './rcs';
import { clickCallbackRequest, smsCallbackRequest, smsStatusReports } from './sms';
import { CALLBACK_TIMING, CallbackInputError, type CallbackAttempt, type CallbackFilter, type CallbackKind, type DeliveryRequest, type FailingWebhook, type ScheduledReport } from './types';
import { callStatusReports, type CallStatusReport } from './voice';

/** The log keeps at most this many attempts (the oldest are dropped). */
export const CALLBACK_LOG_LIMIT = 100_000;

/** The longest delay setTimeout keeps (a longer one fires at once): a step further ahead is re-armed then. */
const MAX_TIMER_MS = 2_147_483_647;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether the sandbox may post to this URL: http(s) to 127.0.0.1, localhost or ::1, any port. */
export function isLoopbackUrl(url: string): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK_HOSTS.has(parsed.hostname.toLowerCase());
}

/** `sha256=<hex HMAC-SHA256 of the payload keyed with the secret>`. */
export function signPayload(payload: string | Buffer, secret: string): string {
	return `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

/** The log entry of one attempt to post `request`, delivery `id`. */
function attemptEntry(
	id: number,
	request: DeliveryRequest,
	fields: Omit<CallbackAttempt, 'id' | 'url' | 'kind' | 'body' | 'messageSid' | 'nextAttemptInMs'>,
): CallbackAttempt {
	const { attempt, status, outcome, signed, headers, time, durationMs, ...rest } = fields;
	const entry: CallbackAttempt = {
		id,
		url: request.url,
		kind: request.kind,
		attempt,
		status,
		outcome,
		signed,
		body: request.body,
		headers,
		time,
		durationMs,
		...rest,
	};
	if (request.messageSid !== undefined) entry.messageSid = request.messageSid;
	return entry;
}

export interface DispatcherOptions {
	state: SandboxState;
	timeScale: number;
	signingSecret: string;
	accountSid: string;
	/** Overrides the acknowledgement timeout in real ms (default the spec's 5000, not scaled). */
	ackTimeoutMs?: number;
	/** Called after a campaign's step ran on its own (the state moved: the state file saves it). */
	stateChanged?: () => void;
}

interface SendResult {
	status: number;
	error?: string;
}

/** What one request to a loopback URL got back (the body only when asked for, up to a cap). */
export interface ExchangeResult {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	error?: string;
}

/** A series of scheduled reports (one send, one call) that can be stopped before its next report. */
interface SeriesHandle {
	cancel(): void;
}

export class CallbackDispatcher implements CallbackHooks {
	private log: CallbackAttempt[] = [];

	private readonly failing = new Map<string, FailingWebhook>();

	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly inflight = new Set<http.ClientRequest>();

	private nextId = 1;

	/** The scheduled status callbacks of each placed call still running, by CallSid (see endCall). */
	private readonly callSeries = new Map<string, SeriesHandle>();

	/** Each campaign's next step on its own timeline (handlers/campaigns.ts, scheduleCampaign), by campaign id. */
	private readonly campaignTimers = new Map<string, NodeJS.Timeout>();

	/** Each campaign's latest callback: the next one is posted once that one's first attempt has finished. */
	private readonly campaignQueues = new Map<string, Promise<void>>();

	/** Campaign callbacks waiting behind an earlier one of their campaign (counted as pending). */
	private queuedCampaignPosts = 0;

	/** Bumped by cancelAll(): work of an older generation stops where it is. */
	private generation = 0;

	constructor(private readonly options: DispatcherOptions) {}

	// ------------------------------------------------ reading

	attempts(filter: CallbackFilter = {}): CallbackAttempt[] {
		return this.log
			.filter(
				(a) =>
					(filter.kind === undefined || a.kind === filter.kind) &&
					(filter.url === undefined || a.url === filter.url) &&
					(filter.outcome === undefined || a.outcome === filter.outcome) &&
					(filter.messageSid === undefined || a.messageSid === filter.messageSid),
			)
			.map((a) => ({ ...a, headers: { ...a.headers } }));
	}

	failingWebhooks(): FailingWebhook[] {
		return [...this.failing.values()].map((f) => ({ ...f }));
	}

	/** Timers (scheduled reports, campaign steps, retries, timeouts), campaign callbacks queued, and requests in flight. */
	get pending(): number {
		return this.timers.size + this.queuedCampaignPosts + this.inflight.size;
	}

	get ackTimeoutMs(): number {
		if (this.options.ackTimeoutMs !== undefined) return this.options.ackTimeoutMs;
		return CALLBACK_TIMING.ackTimeoutMs;
	}

	/** Resolves with the log once `predicate(log)` holds; rejects after `timeoutMs`. Polls every 5 ms. */
	waitFor(predicate: (log: CallbackAttempt[]) => boolean, timeoutMs = 5000): Promise<CallbackAttempt[]> {
		const deadline = Date.now() + timeoutMs;
		return new Promise((resolve, reject) => {
			const check = () => {
				const snapshot = this.attempts();
				let ok = false;
				try {
					ok = predicate(snapshot);
				} catch (error) {
					reject(error);
					return;
				}
				if (ok) {
					resolve(snapshot);
				} else if (Date.now() >= deadline) {
					const summary = snapshot.map((a) => `#${a.id}.${a.attempt} ${a.kind} ${a.outcome} ${a.status} ${a.url}`);
					reject(new Error(`waitForCallbacks: not satisfied within ${timeoutMs} ms; log:\n${summary.join('\n') || '(empty)'}`));
				} else {
					setTimeout(check, 5);
				}
			};
			check();
		});
	}

	// ------------------------------------------------ lifecycle

	/** Cancels every scheduled report, retry and request in flight (nothing of them is logged). */
	cancelAll(): void {
		this.generation++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.inflight) request.destroy();
		this.inflight.clear();
		this.callSeries.clear();
		this.campaignTimers.clear();
		this.campaignQueues.clear();
		this.queuedCampaignPosts = 0;
	}

	/** cancelAll(), then clears the log and the failing marks; ids restart at 1. */
	reset(): void {
		this.cancelAll();
		this.log = [];
		this.failing.clear();
		this.nextId = 1;
	}

	clearLog(): void {
		this.log = [];
		this.failing.clear();
	}

	// ------------------------------------------------ hooks called by the handlers

	smsAccepted(messages: readonly StoredSmsMessage[]): void {
		this.schedule(smsStatusReports(messages, this.options.state.dltTemplates, () => this.options.state.live));
	}

	rcsAccepted(messages: readonly StoredRcsMessage[]): void {
		this.schedule(rcsDlrReports(messages));
	}

	chatAppAccepted(message: StoredChatAppMessage): void {
		this.schedule(chatAppStatusReports(message, this.options));
	}

	/** v1 call status callbacks of a call placed with Calls/connect (answered, terminal), in order. */
	callStatusScheduled(reports: readonly CallStatusReport[]): void {
		if (!reports.length) return;
		const callSid = reports[0].callSid;
		const handle = this.schedule(callStatusReports(reports), () => {
			if (this.callSeries.get(callSid) === handle) this.callSeries.delete(callSid);
		});
		this.callSeries.set(callSid, handle);
	}

	/** Cancels the status callbacks of a placed call not posted yet (a report already in flight goes on). */
	cancelCallStatus(callSid: string): boolean {
		const handle = this.callSeries.get(callSid);
		if (!handle) return false;
		handle.cancel();
		this.callSeries.delete(callSid);
		return true;
	}

	/** Posts one v1 call status callback now (form-encoded, unsigned, kind call-status); resolves with the first attempt. */
	postCallStatus(report: Omit<CallStatusReport, 'delayMs' | 'fields'> & { fields: Array<[string, string]> }): Promise<CallbackAttempt> {
		return this.deliver(formPost(report.url, 'call-status', report.fields, { messageSid: report.callSid }));
	}

	/**
	 * A campaign's next step (handlers/campaigns.ts): `step` runs at real ms epoch `at` (at once when
	 * past), replacing the step the campaign had; null only cancels it. Counted as pending; reset()
	 * and stop() cancel it.
	 */
	campaignStep(campaignId: string, at: number | null, step: () => void): void {
		const previous = this.campaignTimers.get(campaignId);
		if (previous) {
			clearTimeout(previous);
			this.timers.delete(previous);
			this.campaignTimers.delete(campaignId);
		}
		if (at === null) return;
		const generation = this.generation;
		const timer = this.after(Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())), () => {
			if (this.campaignTimers.get(campaignId) === timer) this.campaignTimers.delete(campaignId);
			if (generation !== this.generation) return;
			try {
				step();
			} catch (error) {
				process.stderr.write(`Exotel sandbox: campaign ${campaignId} could not move on: ${(error as Error)?.message ?? String(error)}\n`);
			}
			this.options.stateChanged?.();
		});
		this.campaignTimers.set(campaignId, timer);
	}

	/**
	 * A campaign callback (JSON, unsigned, kind custom), posted once the campaign's previous callback
	 * has had its first attempt: they arrive in the order the campaign made them. reset() and stop()
	 * drop those still queued (not logged).
	 */
	postCampaignCallback(campaignId: string, url: string, payload: Record<string, unknown>): void {
		const request = jsonPost(url, 'custom', payload, false);
		const generation = this.generation;
		this.queuedCampaignPosts++;
		const previous = this.campaignQueues.get(campaignId) ?? Promise.resolve();
		const posted = previous
			.then(async () => {
				// cancelled: cancelAll() has set the count to 0 already
				if (generation !== this.generation) return;
				this.queuedCampaignPosts--;
				await this.deliver(request);
			})
			.catch(() => undefined);
		this.campaignQueues.set(campaignId, posted);
		void posted.then(() => {
			if (this.campaignQueues.get(campaignId) === posted) this.campaignQueues.delete(campaignId);
		});
	}

	// ------------------------------------------------ on demand (the payloads: chat-app.ts, rcs.ts, sms.ts)

	/** A signed chat-app incoming message (chatAppIncomingRequest). */
	async postChatAppIncoming(input: unknown): Promise<CallbackAttempt> {
		return this.deliver(chatAppIncomingRequest(input, this.options));
	}

	/** A signed chat-app status callback (chatAppStatusRequest). */
	async postChatAppCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliver(chatAppStatusRequest(input, this.options));
	}

	/** An RCS incoming message, unsigned (rcsIncomingRequest). */
	async postRcsIncoming(input: unknown): Promise<CallbackAttempt> {
		return this.deliver(rcsIncomingRequest(input, this.options));
	}

	/** An SMS StatusCallback, unsigned (smsCallbackRequest). */
	async postSmsCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliver(smsCallbackRequest(input, this.options));
	}

	/** A click-tracking callback, unsigned (clickCallbackRequest). */
	async postClickCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliver(clickCallbackRequest(input, this.options));
	}

	/** The person answers a sent chat-app or RCS message (person.ts, replyRequest). */
	async postReply(input: unknown): Promise<CallbackAttempt> {
		return this.deliver(replyRequest(input, this.options));
	}

	/**
	 * The person (or a link-preview bot) opens a link of a sent SMS (person.ts picks the link,
	 * browser.ts browses). Every request goes to loopback only, with the acknowledgement timeout.
	 */
	async openLink(input: unknown): Promise<OpenLinkResult> {
		const plan = openLinkPlan(input, this.options);
		if (!isLoopbackUrl(plan.link.longUrl)) {
			throw new CallbackInputError(
				`the link ${plan.link.longUrl} is not a loopback URL (127.0.0.1, localhost, ::1): the sandbox never opens it`,
			);
		}
		const generation = this.generation;
		const fetchLink: LinkFetch = async (url, init) => {
			if (generation !== this.generation) return { status: 0, headers: {}, body: Buffer.alloc(0), error: 'cancelled' };
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				return { status: 0, headers: {}, body: Buffer.alloc(0), error: 'not a URL' };
			}
			if (!isLoopbackUrl(url)) return { status: 0, headers: {}, body: Buffer.alloc(0), error: 'not a loopback URL: never sent' };
			const result = await this.exchange(target, { ...init, readBody: init.method !== 'HEAD' });
			if (generation !== this.generation) return { ...result, error: 'cancelled' };
			return result;
		};
		return openLinkAs(plan, fetchLink);
	}

	/**
	 * Any body to any (loopback) URL. Input: `{url, payload (object → JSON, string as is),
	 * contentType? ('application/json'), kind? ('custom'), sign? (false), signature?}`.
	 */
	async postCallback(raw: unknown): Promise<CallbackAttempt> {
		const input = inputObject(raw);
		const url = optString(input, 'url');
		if (!url) throw new CallbackInputError('url is required');
		const custom = payloadOption(input);
		if (!custom) throw new CallbackInputError('payload is required');
		const kindIn = input.kind ?? 'custom';
		const kinds: CallbackKind[] = ['sms-status', 'rcs-dlr', 'chatapp-status', 'chatapp-incoming', 'chatapp-reply', 'rcs-incoming', 'click', 'custom', 'call-status'];
		if (typeof kindIn !== 'string' || !kinds.includes(kindIn as CallbackKind)) {
			throw new CallbackInputError(`kind must be one of: ${kinds.join(', ')}`);
		}
		if (input.sign !== undefined && typeof input.sign !== 'boolean') throw new CallbackInputError('sign must be a boolean');
		return this.deliver({
			url,
			kind: kindIn as CallbackKind,
			...custom,
			contentType: optString(input, 'contentType') ?? 'application/json',
			signByDefault: input.sign === true,
			signature: signatureOption(input),
		});
	}

	// ------------------------------------------------ scheduling and posting

	private after(ms: number, fn: () => void): NodeJS.Timeout {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		this.timers.add(timer);
		return timer;
	}

	/**
	 * Posts the reports of one send: grouped by base delay, each group at acceptance + delay ×
	 * timeScale, and never before the first attempts of the previous group have finished. The
	 * handle stops the series before its next group (`done` runs when it ends on its own).
	 */
	private schedule(reports: ScheduledReport[], done?: () => void): SeriesHandle {
		const groups = new Map<number, ScheduledReport[]>();
		for (const report of reports) {
			const group = groups.get(report.delayMs);
			if (group) group.push(report);
			else groups.set(report.delayMs, [report]);
		}
		const ordered = [...groups.entries()].sort((a, b) => a[0] - b[0]);
		const generation = this.generation;
		const acceptedAt = Date.now();
		let cancelled = false;
		let timer: NodeJS.Timeout | undefined;
		const next = (i: number) => {
			if (cancelled || generation !== this.generation) return;
			if (i >= ordered.length) {
				done?.();
				return;
			}
			const [delayMs, group] = ordered[i];
			const wait = Math.max(0, acceptedAt + delayMs * this.options.timeScale - Date.now());
			timer = this.after(wait, () => {
				timer = undefined;
				const go = () => next(i + 1);
				void Promise.all(group.map((report) => this.deliver(report.make()))).then(go, go);
			});
		};
		next(0);
		return {
			cancel: () => {
				cancelled = true;
				if (timer) {
					clearTimeout(timer);
					this.timers.delete(timer);
					timer = undefined;
				}
			},
		};
	}

	/** Posts once now (retrying on its own schedule); resolves with the first attempt. */
	private deliver(request: DeliveryRequest): Promise<CallbackAttempt> {
		const id = this.nextId++;
		const generation = this.generation;
		const correct = signPayload(request.body, this.options.signingSecret);
		const headers: Record<string, string> = {
			'content-type': request.contentType,
			'content-length': String(Buffer.byteLength(request.body)),
			'user-agent': 'Exotel-Sandbox-Callbacks/1.0',
			'x-sandbox-callback-id': String(id),
		};
		// live mode: no signature unless one is asked for (no public trace of any on the live service's webhooks)
		const signByDefault = request.signByDefault && !this.options.state.live;
		const signature = request.signature === undefined ? (signByDefault ? correct : null) : request.signature;
		if (signature !== null) headers['x-service-signature'] = signature;
		let target: URL | undefined;
		try {
			target = new URL(request.url);
		} catch {
			target = undefined;
		}
		if (!target || !isLoopbackUrl(request.url)) {
			const entry = attemptEntry(id, request, {
				attempt: 1,
				status: 0,
				outcome: 'skipped-non-loopback',
				signed: signature === correct,
				headers,
				time: Date.now(),
				durationMs: 0,
				error: 'not a loopback URL (127.0.0.1, localhost, ::1): never sent',
			});
			this.record(entry);
			return Promise.resolve({ ...entry });
		}
		return this.attempt(id, generation, target, request, headers, signature === correct, 1);
	}

	private async attempt(
		id: number,
		generation: number,
		target: URL,
		request: DeliveryRequest,
		headers: Record<string, string>,
		signed: boolean,
		attempt: number,
	): Promise<CallbackAttempt> {
		const time = Date.now();
		const sent = { ...headers, 'x-sandbox-callback-attempt': String(attempt) };
		const result = await this.send(target, sent, request.body);
		const entry = attemptEntry(id, request, {
			attempt,
			status: result.status,
			outcome: 'delivered',
			signed,
			headers: sent,
			time,
			durationMs: Date.now() - time,
		});
		if (generation !== this.generation) {
			// Cancelled by reset() or stop(): not logged, nothing more scheduled.
			return { ...entry, outcome: 'failed', error: 'cancelled' };
		}
		if (result.status !== 200 || result.error) {
			entry.error = result.error ?? `HTTP ${result.status}`;
			// Nothing public promises call status callbacks again (service-facts.md): one attempt each.
			const delay = request.kind === 'call-status' ? undefined : CALLBACK_TIMING.retryDelaysMs[attempt - 1];
			if (delay !== undefined) {
				entry.outcome = 'retry-scheduled';
				entry.nextAttemptInMs = delay * this.options.timeScale;
				this.after(entry.nextAttemptInMs, () => {
					void this.attempt(id, generation, target, request, headers, signed, attempt + 1);
				});
			} else {
				entry.outcome = 'failed';
				const failing: FailingWebhook = {
					url: request.url,
					kind: request.kind,
					deliveryId: id,
					markedAt: Date.now(),
					lastStatus: result.status,
				};
				if (entry.error) failing.lastError = entry.error;
				this.failing.set(request.url, failing);
			}
		}
		this.record(entry);
		return { ...entry, headers: { ...entry.headers } };
	}

	private record(entry: CallbackAttempt): void {
		this.log.push(entry);
		if (this.log.length > CALLBACK_LOG_LIMIT * 1.1) this.log.splice(0, this.log.length - CALLBACK_LOG_LIMIT);
	}

	/** One POST to a loopback URL (checked by the caller and again here); settles on the answer's status line. */
	private async send(target: URL, headers: Record<string, string>, body: string): Promise<SendResult> {
		const result = await this.exchange(target, { method: 'POST', headers, body, readBody: false });
		return result.error === undefined ? { status: result.status } : { status: result.status, error: result.error };
	}

	/**
	 * One request to a loopback URL (checked here too: any other host is refused without a
	 * connection). `localhost` is connected as 127.0.0.1, redirects are not followed, the
	 * acknowledgement timeout applies, and reset()/stop() destroy it. With `readBody` it settles
	 * once the answer's body has been read (up to `maxBodyBytes`), else on the status line.
	 */
	private exchange(
		target: URL,
		init: { method: string; headers: Record<string, string>; body?: string | Buffer; readBody: boolean; maxBodyBytes?: number },
	): Promise<ExchangeResult> {
		const hostname = target.hostname.toLowerCase();
		const empty = Buffer.alloc(0);
		if (!LOOPBACK_HOSTS.has(hostname)) return Promise.resolve({ status: 0, headers: {}, body: empty, error: 'not a loopback URL' });
		// Never resolve a name: localhost is 127.0.0.1.
		const host = hostname === 'localhost' ? '127.0.0.1' : hostname === '[::1]' ? '::1' : hostname;
		const secure = target.protocol === 'https:';
		const timeoutMs = this.ackTimeoutMs;
		const maxBodyBytes = init.maxBodyBytes ?? 1024 * 1024;
		return new Promise<ExchangeResult>((resolve) => {
			let settled = false;
			let status = 0;
			let headers: http.IncomingHttpHeaders = {};
			let answered = false;
			const chunks: Buffer[] = [];
			let size = 0;
			const finish = (error?: string) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				this.timers.delete(timer);
				const result: ExchangeResult = { status, headers, body: Buffer.concat(chunks) };
				if (error !== undefined) result.error = error;
				resolve(result);
			};
			const options: https.RequestOptions = {
				host,
				port: target.port || (secure ? 443 : 80),
				path: `${target.pathname}${target.search}`,
				method: init.method,
				headers: { ...init.headers, host: target.host, connection: 'close' },
				agent: false,
			};
			if (target.username || target.password) {
				options.auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
			}
			if (secure) options.rejectUnauthorized = false;
			let request: http.ClientRequest;
			// started before the request is made: a request that cannot be made finishes (and clears it) at once
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				if (!answered) status = 0;
				finish(`timeout after ${timeoutMs} ms`);
				request.destroy();
			}, timeoutMs);
			this.timers.add(timer);
			try {
				request = (secure ? https : http).request(options, (res) => {
					answered = true;
					status = res.statusCode ?? 0;
					headers = res.headers;
					res.on('error', () => undefined);
					if (!init.readBody) {
						res.resume();
						finish();
						return;
					}
					res.on('data', (chunk: Buffer) => {
						if (size < maxBodyBytes) chunks.push(chunk.subarray(0, maxBodyBytes - size));
						size += chunk.length;
					});
					res.on('end', () => finish());
				});
			} catch (error) {
				finish((error as Error).message);
				return;
			}
			this.inflight.add(request);
			request.on('error', (error: NodeJS.ErrnoException) => {
				if (!answered) status = 0;
				finish(error.code ?? error.message);
			});
			request.on('close', () => {
				this.inflight.delete(request);
				finish(answered ? undefined : 'connection closed without an answer');
			});
			request.end(init.body);
		});
	}
}
