/**
 * The callback dispatcher: delivery reports after accepted sends (SMS StatusCallback, RCS dlr with
 * SMS fallback, chat-app status, call status), a campaign's steps on its own timeline and its
 * callbacks in order, incoming messages and other callbacks on demand, with the acknowledgement
 * timeout and the retry schedule of messaging.md, scaled by `timeScale`.
 *
 * This is its face, what the sandbox and the handlers call. What each callback carries is built per
 * channel (sms.ts, rcs.ts, chat-app.ts, voice.ts, person.ts); when it goes, series.ts and
 * campaign-queue.ts decide; delivery.ts signs, posts and retries it; log.ts keeps the attempts;
 * work.ts holds the timers and requests on Node's clock and network.
 *
 * SAFETY: only loopback URLs (hosts 127.0.0.1, localhost, ::1) are ever contacted (delivery.ts
 * checks, and every request of work.ts checks again); `localhost` is connected as 127.0.0.1 (no
 * name is ever resolved); redirects are never followed (a 3xx is just "not 200").
 */
import type { SandboxState } from '../state';
import type { StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from '../stored';
import type { CallbackHooks } from '../types';
import { openLinkAs, type LinkFetch, type OpenLinkResult } from './browser';
import { CampaignQueue } from './campaign-queue';
import { chatAppIncomingRequest, chatAppStatusReports, chatAppStatusRequest } from './chat-app';
import { Deliveries, isLoopbackUrl } from './delivery';
import { CallbackLog } from './log';
import { customCallbackRequest, formPost } from './payload';
import { openLinkPlan, replyRequest } from './person';
import { rcsDlrReports, rcsIncomingRequest } from './rcs';
import { ReportSeries } from './series';
import { clickCallbackRequest, smsCallbackRequest, smsStatusReports } from './sms';
import { CALLBACK_TIMING, CallbackInputError, type CallbackAttempt, type CallbackFilter, type DeliveryRequest, type FailingWebhook } from './types';
import type { CallStatusReport } from './voice';
import { NodeWork } from './work';

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

export class CallbackDispatcher implements CallbackHooks {
	private readonly work: NodeWork;

	private readonly log = new CallbackLog();

	private readonly deliveries: Deliveries;

	private readonly series: ReportSeries;

	private readonly campaigns: CampaignQueue;

	constructor(private readonly options: DispatcherOptions) {
		this.work = new NodeWork(options.ackTimeoutMs ?? CALLBACK_TIMING.ackTimeoutMs);
		const { log, work } = this;
		this.deliveries = new Deliveries({ log, work, signingSecret: options.signingSecret, timeScale: options.timeScale, isLive: () => options.state.live });
		const deliver = (request: DeliveryRequest) => this.deliveries.deliver(request);
		this.series = new ReportSeries(work, deliver, options.timeScale);
		this.campaigns = new CampaignQueue({
			work,
			deliver,
			stateChanged: () => options.stateChanged?.(),
			warn: (text) => this.work.warn(text),
		});
	}

	// ------------------------------------------------ reading

	attempts(filter: CallbackFilter = {}): CallbackAttempt[] {
		return this.log.attempts(filter);
	}

	failingWebhooks(): FailingWebhook[] {
		return this.log.failingWebhooks();
	}

	/** Timers (scheduled reports, campaign steps, retries, timeouts), campaign callbacks queued, and requests in flight. */
	get pending(): number {
		return this.work.size + this.campaigns.pending;
	}

	get ackTimeoutMs(): number {
		return this.work.timeoutMs;
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
					this.work.later(5, check);
				}
			};
			check();
		});
	}

	// ------------------------------------------------ lifecycle

	/** Cancels every scheduled report, retry and request in flight (nothing of them is logged). */
	cancelAll(): void {
		this.work.cancelAll();
		this.series.clear();
		this.campaigns.clear();
	}

	/** cancelAll(), then clears the log and the failing marks; ids restart at 1. */
	reset(): void {
		this.cancelAll();
		this.log.reset();
	}

	clearLog(): void {
		this.log.clear();
	}

	// ------------------------------------------------ hooks called by the handlers

	smsAccepted(messages: readonly StoredSmsMessage[]): void {
		this.series.schedule(smsStatusReports(messages, this.options.state.dltTemplates, () => this.options.state.live));
	}

	rcsAccepted(messages: readonly StoredRcsMessage[]): void {
		this.series.schedule(rcsDlrReports(messages));
	}

	chatAppAccepted(message: StoredChatAppMessage): void {
		this.series.schedule(chatAppStatusReports(message, this.options));
	}

	/** v1 call status callbacks of a call placed with Calls/connect (answered, terminal), in order. */
	callStatusScheduled(reports: readonly CallStatusReport[]): void {
		this.series.callStatusScheduled(reports);
	}

	/** Cancels the status callbacks of a placed call not posted yet (a report already in flight goes on). */
	cancelCallStatus(callSid: string): boolean {
		return this.series.cancelCallStatus(callSid);
	}

	/** Posts one v1 call status callback now (form-encoded, unsigned, kind call-status); resolves with the first attempt. */
	postCallStatus(report: Omit<CallStatusReport, 'delayMs' | 'fields'> & { fields: Array<[string, string]> }): Promise<CallbackAttempt> {
		return this.deliveries.deliver(formPost(report.url, 'call-status', report.fields, { messageSid: report.callSid }));
	}

	/**
	 * A campaign's next step (handlers/campaigns.ts): `step` runs at real ms epoch `at` (at once when
	 * past), replacing the step the campaign had; null only cancels it. Counted as pending; reset()
	 * and stop() cancel it.
	 */
	campaignStep(campaignId: string, at: number | null, step: () => void): void {
		this.campaigns.step(campaignId, at, step);
	}

	/**
	 * A campaign callback (JSON, unsigned, kind custom), posted once the campaign's previous callback
	 * has had its first attempt: they arrive in the order the campaign made them. reset() and stop()
	 * drop those still queued (not logged).
	 */
	postCampaignCallback(campaignId: string, url: string, payload: Record<string, unknown>): void {
		this.campaigns.post(campaignId, url, payload);
	}

	// ------------------------------------------------ on demand (the payloads: chat-app.ts, rcs.ts, sms.ts, payload.ts)

	/** A signed chat-app incoming message (chatAppIncomingRequest). */
	async postChatAppIncoming(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(chatAppIncomingRequest(input, this.options));
	}

	/** A signed chat-app status callback (chatAppStatusRequest). */
	async postChatAppCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(chatAppStatusRequest(input, this.options));
	}

	/** An RCS incoming message, unsigned (rcsIncomingRequest). */
	async postRcsIncoming(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(rcsIncomingRequest(input, this.options));
	}

	/** An SMS StatusCallback, unsigned (smsCallbackRequest). */
	async postSmsCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(smsCallbackRequest(input, this.options));
	}

	/** A click-tracking callback, unsigned (clickCallbackRequest). */
	async postClickCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(clickCallbackRequest(input, this.options));
	}

	/** Any body to any (loopback) URL (customCallbackRequest). */
	async postCallback(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(customCallbackRequest(input));
	}

	/** The person answers a sent chat-app or RCS message (person.ts, replyRequest). */
	async postReply(input: unknown): Promise<CallbackAttempt> {
		return this.deliveries.deliver(replyRequest(input, this.options));
	}

	/**
	 * The person (or a link-preview bot) opens a link of a sent SMS (person.ts picks the link,
	 * browser.ts browses). Every request goes to loopback only, with the acknowledgement timeout.
	 */
	async openLink(input: unknown): Promise<OpenLinkResult> {
		const plan = openLinkPlan(input, this.options);
		if (!isLoopbackUrl(plan.link.longUrl)) {
			throw new CallbackInputError(`the link ${plan.link.longUrl} is not a loopback URL (127.0.0.1, localhost, ::1): the sandbox never opens it`);
		}
		const generation = this.work.generation;
		const fetchLink: LinkFetch = async (url, init) => {
			const refused = (error: string) => ({ status: 0, headers: {}, body: Buffer.alloc(0), error });
			if (generation !== this.work.generation) return refused('cancelled');
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				return refused('not a URL');
			}
			if (!isLoopbackUrl(url)) return refused('not a loopback URL: never sent');
			const result = await this.work.exchange(target, { ...init, readBody: init.method !== 'HEAD' });
			return generation !== this.work.generation ? { ...result, error: 'cancelled' } : result;
		};
		return openLinkAs(plan, fetchLink);
	}
}
