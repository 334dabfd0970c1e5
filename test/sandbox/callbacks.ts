/**
 * The callback dispatcher: delivery reports after accepted sends (SMS StatusCallback, RCS dlr with
 * SMS fallback, chat-app status), incoming messages and other callbacks on demand, with the
 * acknowledgement timeout and the retry schedule of messaging.md, scaled by `timeScale`.
 *
 * SAFETY: only loopback URLs (hosts 127.0.0.1, localhost, ::1) are ever contacted. Any other URL is
 * logged with outcome `skipped-non-loopback` and never sent; `localhost` is connected as 127.0.0.1
 * (no name is ever resolved); redirects are never followed (a 3xx is just "not 200").
 */
import { createHash, createHmac, randomBytes } from 'crypto';
import * as http from 'http';
import * as https from 'https';

import {
	chatAppDeliveryFails,
	rcsReachabilityOf,
	SANDBOX_CHATAPP_BUSINESS_NUMBER,
	SANDBOX_CHATAPP_CUSTOMER,
	SANDBOX_RCS_BOT_ID,
	smsOutcomeFor,
} from './fixtures';
import type { SandboxState, StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './state';
import type { CallbackHooks } from './types';

// ---------------------------------------------------------------- public types

export type CallbackKind =
	| 'sms-status'
	| 'rcs-dlr'
	| 'chatapp-status'
	| 'chatapp-incoming'
	| 'rcs-incoming'
	| 'click'
	| 'custom'
	/** v1 call status callback of a call placed with Calls/connect (handlers/voice.ts). */
	| 'call-status';

export type CallbackOutcome = 'delivered' | 'retry-scheduled' | 'failed' | 'skipped-non-loopback';

/** One attempt to post one callback (the log holds every attempt). */
export interface CallbackAttempt {
	/** Delivery id: the same on every attempt of one callback (1, 2, ... since the last reset). */
	id: number;
	url: string;
	kind: CallbackKind;
	/** 1 = first try, 2..5 = the retries. */
	attempt: number;
	/** HTTP status answered, 0 when none (timeout, connection error, skipped). */
	status: number;
	outcome: CallbackOutcome;
	/** Whether it carried the correct `X-Service-Signature` for its exact bytes. */
	signed: boolean;
	/** The exact payload sent (utf8). */
	body: string;
	/** Request headers sent, lower-cased. */
	headers: Record<string, string>;
	/** ms epoch at which the attempt started. */
	time: number;
	/** How long until the answer (or the failure). */
	durationMs: number;
	/** Why it is not delivered: 'timeout after 50 ms', 'ECONNREFUSED', 'HTTP 500', ... */
	error?: string;
	/** For retry-scheduled: real ms until the next attempt. */
	nextAttemptInMs?: number;
	/** The message it reports on (SMS, RCS or chat-app sid) when there is one. */
	messageSid?: string;
}

export interface FailingWebhook {
	url: string;
	kind: CallbackKind;
	/** The delivery whose 4th retry failed last. */
	deliveryId: number;
	/** ms epoch */
	markedAt: number;
	lastStatus: number;
	lastError?: string;
}

export interface CallbackFilter {
	kind?: CallbackKind;
	url?: string;
	outcome?: CallbackOutcome;
	messageSid?: string;
}

/** Thrown for a bad argument of the post* methods (the control API answers 400). */
export class CallbackInputError extends Error {}

// ---------------------------------------------------------------- timing

/**
 * Base delays in real-world ms; every one is multiplied by `timeScale` (0 = at once, in order).
 * Reports are timed from acceptance; a report is never posted before the first attempt of the
 * previous report of the same send has finished, so they arrive in order even with timeScale 0.
 */
export const CALLBACK_TIMING = {
	/** SMS StatusCallback on the terminal state. */
	smsReportMs: 1000,
	/** RCS and chat-app: sent, delivered, seen (a failure report takes the second slot, 2 s). */
	sentMs: 1000,
	deliveredMs: 2000,
	seenMs: 3000,
	/**
	 * The client must answer HTTP 200 within this. It is not scaled by timeScale: how fast a receiver
	 * answers is real time, and a busy machine can take a healthy n8n past half a second, which a
	 * scaled budget would turn into a spurious retry (SandboxOptions.callbackTimeoutMs sets any
	 * value, e.g. 50 for a test of timeouts).
	 */
	ackTimeoutMs: 5000,
	/** Retries after a failed attempt, measured from the end of that attempt. */
	retryDelaysMs: [30_000, 120_000, 600_000, 3_600_000] as readonly number[],
} as const;

/** The log keeps at most this many attempts (the oldest are dropped). */
export const CALLBACK_LOG_LIMIT = 100_000;

// ---------------------------------------------------------------- status tables

export const RCS_STATUS = {
	sent: { code: 40001, name: 'EX_MESSAGE_SENT', description: 'Message sent to the user' },
	delivered: { code: 40002, name: 'EX_MESSAGE_DELIVERED', description: 'Message delivered to the user' },
	seen: { code: 40003, name: 'EX_MESSAGE_SEEN', description: 'Message seen by the user' },
	failed: { code: 40004, name: 'EX_SYSTEM_ERROR', description: 'Delivery failed: the recipient is not RCS capable' },
} as const;

/** From the service's public exo_status_code list (service-facts.md). */
export const CHATAPP_STATUS_CODES: Readonly<Record<number, string>> = {
	30001: 'EX_MESSAGE_SENT',
	30002: 'EX_MESSAGE_DELIVERED',
	30003: 'EX_MESSAGE_SEEN',
	30004: 'EX_SYSTEM_ERROR',
	30005: 'NUMBER_ERROR',
	30006: 'SETUP_ERROR',
	30007: 'RATE_LIMIT_HIT',
	30008: 'SPAM_RATE_LIMIT_HIT',
	30009: 'TOO_MANY_REQUEST',
	30010: 'INVALID_REQUEST',
	30011: 'UNKNOWN_ERROR',
	30012: 'INVALID_RECIPIENT',
	30013: 'INCAPABLE_RECIPIENT',
	30014: 'RECIPIENT_BLOCKED',
	30015: 'UNSUPPORTED_MESSAGE',
	30016: 'MEDIA_DOWNLOAD_ERROR',
	30017: 'MEDIA_UPLOAD_ERROR',
	30018: 'REENGAGEMENT_ERROR',
	30019: 'INVALID_PARAM',
	30020: 'MISSING_PARAM',
};

const CHATAPP_DESCRIPTIONS: Readonly<Record<number, string>> = {
	30001: 'Message sent to the user',
	30002: 'Message delivered to the user',
	30003: 'Message seen by the user',
	30004: 'Delivery failed (system error)',
};

/** SMS terminal states by sandbox outcome (DetailedStatus codes from the service's public list). */
export const SMS_TERMINAL = {
	sent: { status: 'sent', code: 20005, name: 'DELIVERED_TO_HANDSET', description: 'Delivered to the handset' },
	failed_dnd: { status: 'failed_dnd', code: 23005, name: 'FAILED_DND', description: 'The recipient is on the DND registry' },
	failed: { status: 'failed', code: 24105, name: 'FAILED_HANDSET_ERROR', description: 'The handset could not take the message' },
	fallbackNotTriggered: {
		status: 'failed',
		code: 24010,
		name: 'FAILED_SYSTEM_ERROR',
		description: 'The SMS fallback could not be triggered',
	},
} as const;

// ---------------------------------------------------------------- helpers

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

function hex(n: number): string {
	return randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO 8601 with an offset, by default India's: `2026-01-31T15:30:00+05:30`. */
export function isoWithOffset(date: Date = new Date(), offsetMinutes = 330): string {
	const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
	const sign = offsetMinutes < 0 ? '-' : '+';
	const abs = Math.abs(offsetMinutes);
	return `${shifted.toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `YYYY-MM-DD HH:MM:SS` UTC, like the v1 dates of the sandbox. */
function v1Date(date: Date = new Date()): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * SMS units, approximately: 160 characters (153 per part when longer) for plain text, 70 (67) when
 * the body has any non-ASCII character or the encoding is unicode.
 */
export function smsUnitsOf(body: string, encoding?: string): number {
	const chars = Array.from(body);
	// eslint-disable-next-line no-control-regex
	const unicode = encoding === 'unicode' || /[^\x00-\x7f]/.test(body);
	const [single, part] = unicode ? [70, 67] : [160, 153];
	return chars.length <= single ? 1 : Math.ceil(chars.length / part);
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shallow merge of a caller object over a default; anything else given replaces the default. */
function overlay(defaults: unknown, given: unknown): unknown {
	if (given === undefined) return defaults;
	if (isObj(defaults) && isObj(given)) return { ...defaults, ...given };
	return given;
}

function optString(input: Obj, key: string): string | undefined {
	const value = input[key];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || value === '') throw new CallbackInputError(`${key} must be a non-empty string`);
	return value;
}

/** `signature`: absent = the kind's default, null = no header, a string = that header value. */
function signatureOption(input: Obj): string | null | undefined {
	const value = input.signature;
	if (value === undefined || value === null || typeof value === 'string') return value;
	throw new CallbackInputError('signature must be a string (the X-Service-Signature value) or null (no header)');
}

function payloadOption(input: Obj): { body: string } | undefined {
	if (input.payload === undefined) return undefined;
	return { body: typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload) };
}

function latest<T>(values: Iterable<T>, test: (value: T) => boolean): T | undefined {
	let found: T | undefined;
	for (const value of values) if (test(value)) found = value;
	return found;
}

// ---------------------------------------------------------------- incoming chat-app messages

export const CHATAPP_INCOMING_TYPES = [
	'text',
	'image',
	'video',
	'audio',
	'document',
	'location',
	'contacts',
	'sticker',
	'button',
	'list_reply',
	'order',
] as const;

export type ChatAppIncomingType = (typeof CHATAPP_INCOMING_TYPES)[number];

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/** Default type objects; the spec shows text, image, location and button, the others are the sandbox's choice. */
function chatAppTypeDefaults(type: ChatAppIncomingType): unknown {
	const mediaId = hex(16);
	switch (type) {
		case 'text':
			return { body: 'Hello from the sandbox' };
		case 'image':
			return { id: mediaId, mime_type: 'image/jpeg', sha256: sha256Of(mediaId), caption: 'Sandbox image' };
		case 'video':
			return { id: mediaId, mime_type: 'video/mp4', sha256: sha256Of(mediaId), caption: 'Sandbox video' };
		case 'audio':
			return { id: mediaId, mime_type: 'audio/ogg; codecs=opus', sha256: sha256Of(mediaId), voice: true };
		case 'document':
			return {
				id: mediaId,
				mime_type: 'application/pdf',
				sha256: sha256Of(mediaId),
				filename: 'invoice.pdf',
				caption: 'Sandbox document',
			};
		case 'sticker':
			return { id: mediaId, mime_type: 'image/webp', sha256: sha256Of(mediaId), animated: false };
		case 'location':
			return { latitude: 12.9716, longitude: 77.5946, name: 'Sandbox office', address: 'MG Road, Bengaluru 560001' };
		case 'contacts':
			return [
				{
					name: { formatted_name: 'Asha Rao', first_name: 'Asha', last_name: 'Rao' },
					phones: [{ phone: '+919812300001', wa_id: '919812300001', type: 'MOBILE' }],
					emails: [{ email: 'asha.rao@example.invalid', type: 'WORK' }],
					org: { company: 'Sandbox Traders', title: 'Buyer' },
				},
			];
		case 'button':
			return { text: 'Yes', payload: 'CONFIRM_YES' };
		case 'list_reply':
			return { id: 'row-1', title: 'Tomorrow 10-12', description: 'Morning slot' };
		case 'order':
			return {
				catalog_id: 'sandbox-catalog-1',
				text: 'Please deliver before 6 pm',
				product_items: [{ product_retailer_id: 'SKU-1001', quantity: 2, item_price: 249.5, currency: 'INR' }],
			};
	}
}

/** Types that carry `context {from, id}` (the message replied to) by default. */
const CHATAPP_CONTEXT_TYPES: readonly string[] = ['button', 'list_reply'];

// ---------------------------------------------------------------- RCS incoming messages

export const RCS_INCOMING_TYPES = ['text', 'file', 'location', 'suggested', 'error'] as const;

export type RcsIncomingType = (typeof RCS_INCOMING_TYPES)[number];

function rcsContentDefault(type: RcsIncomingType): unknown {
	const id = hex(12);
	switch (type) {
		case 'text':
			return 'Hello from the sandbox';
		case 'file':
			return {
				url: `https://media.sandbox.invalid/rcs/${id}.jpg`,
				name: 'photo.jpg',
				type: 'image/jpeg',
				size: 48213,
				thumbnail_url: `https://media.sandbox.invalid/rcs/${id}-thumb.jpg`,
				thumbnail_type: 'image/jpeg',
				thumbnail_size: 2048,
			};
		case 'location':
			return { latitude: 12.9716, longitude: 77.5946 };
		case 'suggested':
			return { response: { reply: { text: 'Yes', postback_data: 'CONFIRM_YES' } } };
		case 'error':
			return { code: 'UNSUPPORTED_CONTENT', message: 'The user sent content the bot cannot receive' };
	}
}

// ---------------------------------------------------------------- the dispatcher

interface DeliveryRequest {
	url: string;
	kind: CallbackKind;
	body: string;
	contentType: string;
	/** Whether the kind is signed by default (chat-app events). */
	signByDefault: boolean;
	/** undefined = the default; null = no header; a string = that header value. */
	signature?: string | null;
	messageSid?: string;
}

/**
 * One v1 call status callback of a connected call (handlers/voice.ts builds the form pairs, in the
 * spec's order): posted form-encoded and unsigned at `delayMs` (before timeScale) after the connect.
 */
export interface CallStatusReport {
	delayMs: number;
	url: string;
	callSid: string;
	fields: () => Array<[string, string]>;
}

/** One report of a scheduled series: at `delayMs` (base, before timeScale) after acceptance. */
interface ScheduledReport {
	delayMs: number;
	make: () => DeliveryRequest;
}

export interface DispatcherOptions {
	state: SandboxState;
	timeScale: number;
	signingSecret: string;
	accountSid: string;
	/** Overrides the acknowledgement timeout in real ms (default 5000 × timeScale, at least 500). */
	ackTimeoutMs?: number;
}

interface SendResult {
	status: number;
	error?: string;
}

export class CallbackDispatcher implements CallbackHooks {
	private log: CallbackAttempt[] = [];

	private readonly failing = new Map<string, FailingWebhook>();

	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly inflight = new Set<http.ClientRequest>();

	private nextId = 1;

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

	/** Timers (scheduled reports, retries, timeouts) and requests in flight. */
	get pending(): number {
		return this.timers.size + this.inflight.size;
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
		const withCallback = messages.filter((m) => m.statusCallback);
		if (!withCallback.length) return;
		this.schedule(
			withCallback.map((m) => ({
				delayMs: CALLBACK_TIMING.smsReportMs,
				make: () => ({
					url: m.statusCallback as string,
					kind: 'sms-status',
					body: new URLSearchParams(this.smsStatusFields(m)).toString(),
					contentType: 'application/x-www-form-urlencoded',
					signByDefault: false,
					messageSid: m.sid,
				}),
			})),
		);
	}

	rcsAccepted(messages: readonly StoredRcsMessage[]): void {
		const reports: ScheduledReport[] = [];
		for (const m of messages) {
			const url = m.statusCallback;
			if (!url) continue;
			const report = (delayMs: number, body: () => unknown) =>
				reports.push({
					delayMs,
					make: () => ({
						url,
						kind: 'rcs-dlr',
						body: JSON.stringify(body()),
						contentType: 'application/json',
						signByDefault: false,
						messageSid: m.sid,
					}),
				});
			const reach = rcsReachabilityOf(m.to);
			if (reach === 'capable') {
				report(CALLBACK_TIMING.sentMs, () => ({ rcs: { messages: [this.rcsEntry(m, RCS_STATUS.sent)] } }));
				report(CALLBACK_TIMING.deliveredMs, () => ({ rcs: { messages: [this.rcsEntry(m, RCS_STATUS.delivered)] } }));
				report(CALLBACK_TIMING.seenMs, () => ({ rcs: { messages: [this.rcsEntry(m, RCS_STATUS.seen)] } }));
			} else if (!m.fallback) {
				report(CALLBACK_TIMING.deliveredMs, () => ({ rcs: { messages: [this.rcsEntry(m, RCS_STATUS.failed)] } }));
			} else {
				const fallback = m.fallback;
				const triggered = reach === 'not-capable';
				const smsSid = hex(32);
				const channelSid = hex(32);
				report(CALLBACK_TIMING.deliveredMs, () => {
					const sms = triggered ? SMS_TERMINAL.sent : SMS_TERMINAL.fallbackNotTriggered;
					const smsEntry: Obj = {
						callback_type: 'dlr',
						sid: smsSid,
						channel_sid: triggered ? channelSid : null,
						to: m.to,
						exo_status_code: sms.code,
						exo_detailed_status: sms.name,
						description: triggered ? 'SMS fallback delivered to the handset' : sms.description,
						sms_units: triggered ? smsUnitsOf(fallback.content.text, fallback.content.encoding_type) : null,
						timestamp: isoWithOffset(),
					};
					if (m.customData !== undefined) smsEntry.custom_data = m.customData;
					const failure = {
						...RCS_STATUS.failed,
						description: triggered
							? 'Delivery failed: the recipient is not RCS capable; the SMS fallback was triggered'
							: 'Delivery failed: the recipient is not RCS capable; the SMS fallback could not be triggered',
					};
					return { rcs: { messages: [this.rcsEntry(m, failure)] }, sms: { messages: [smsEntry] } };
				});
			}
		}
		if (reports.length) this.schedule(reports);
	}

	chatAppAccepted(message: StoredChatAppMessage): void {
		const url = message.statusCallback ?? this.options.state.chatAppWebhook?.status_callback_url;
		if (!url) return;
		const codes = chatAppDeliveryFails(message.to) ? [30001, 30004] : [30001, 30002, 30003];
		const delays = [CALLBACK_TIMING.sentMs, CALLBACK_TIMING.deliveredMs, CALLBACK_TIMING.seenMs];
		this.schedule(
			codes.map((code, i) => ({
				delayMs: delays[i],
				make: () => ({
					url,
					kind: 'chatapp-status',
					body: JSON.stringify({
						chatapp: {
							messages: [
								this.statusEntry({
									sid: message.sid,
									to: message.to,
									code,
									customData: message.customData,
								}),
							],
						},
					}),
					contentType: 'application/json',
					signByDefault: true,
					messageSid: message.sid,
				}),
			})),
		);
	}

	/** v1 call status callbacks of a call placed with Calls/connect (answered, terminal), in order. */
	callStatusScheduled(reports: readonly CallStatusReport[]): void {
		if (!reports.length) return;
		this.schedule(
			reports.map((report) => ({
				delayMs: report.delayMs,
				make: () => ({
					url: report.url,
					kind: 'call-status' as const,
					body: new URLSearchParams(report.fields()).toString(),
					contentType: 'application/x-www-form-urlencoded',
					signByDefault: false,
					messageSid: report.callSid,
				}),
			})),
		);
	}

	// ------------------------------------------------ on demand

	/**
	 * A signed chat-app incoming message to the configured `incoming_message_url` (or `url`).
	 * Input: `{type, from?, to?, name?, id?, timestamp?, <type>?: object (merged over the default),
	 * context?: {from?, id?} | null, payload?: complete body, url?, signature?}`.
	 */
	async postChatAppIncoming(input: unknown): Promise<CallbackAttempt> {
		if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
		const url = optString(input, 'url') ?? this.options.state.chatAppWebhook?.incoming_message_url;
		if (!url) {
			throw new CallbackInputError(
				'no incoming_message_url is configured (PUT /v2/accounts/<sid>/chatapp/webhook) and no url was given',
			);
		}
		const signature = signatureOption(input);
		const custom = payloadOption(input);
		if (custom) {
			return this.deliver({ url, kind: 'chatapp-incoming', ...custom, contentType: 'application/json', signByDefault: true, signature });
		}
		const type = input.type;
		if (typeof type !== 'string' || !(CHATAPP_INCOMING_TYPES as readonly string[]).includes(type)) {
			throw new CallbackInputError(
				`type must be one of: ${CHATAPP_INCOMING_TYPES.join(', ')} (or give payload, a complete body)`,
			);
		}
		const from = optString(input, 'from') ?? SANDBOX_CHATAPP_CUSTOMER;
		const replyTo = latest(this.options.state.chatAppMessages.values(), (m) => m.to === from);
		const to = optString(input, 'to') ?? replyTo?.from ?? SANDBOX_CHATAPP_BUSINESS_NUMBER;
		const now = new Date();
		const timestamp = optString(input, 'timestamp') ?? isoWithOffset(now);
		// `text: 'hi'` is read as `text: {body: 'hi'}`.
		const given = type === 'text' && typeof input.text === 'string' ? { body: input.text } : input[type];
		const typeObject = overlay(chatAppTypeDefaults(type as ChatAppIncomingType), given);
		const message: Obj = {
			id: optString(input, 'id') ?? hex(32),
			from,
			to,
			timestamp,
			type,
			[type]: typeObject,
		};
		const contextGiven = input.context;
		if (contextGiven !== null && (contextGiven !== undefined || CHATAPP_CONTEXT_TYPES.includes(type))) {
			message.context = overlay({ from: to, id: replyTo?.sid ?? hex(32) }, contextGiven);
		}
		const body = {
			event: 'incoming_message',
			timestamp,
			account_sid: this.options.accountSid,
			message,
			contact: { wa_id: from.replace(/^\+/, ''), profile: { name: optString(input, 'name') ?? 'Sandbox User' } },
		};
		return this.deliver({
			url,
			kind: 'chatapp-incoming',
			body: JSON.stringify(body),
			contentType: 'application/json',
			signByDefault: true,
			signature,
		});
	}

	/**
	 * A signed chat-app status callback. Input: `{url?, sid?, to?, exo_status_code? (30002),
	 * exo_detailed_status?, description?, custom_data?, callback_type? ('dlr'), timestamp?, payload?, signature?}`.
	 * `url` defaults to the message's status_callback (when `sid` is a sent chat-app message), else
	 * the configured status_callback_url.
	 */
	async postChatAppCallback(input: unknown): Promise<CallbackAttempt> {
		if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
		const sid = optString(input, 'sid');
		const stored = sid ? this.options.state.chatAppMessages.get(sid) : undefined;
		const url =
			optString(input, 'url') ?? stored?.statusCallback ?? this.options.state.chatAppWebhook?.status_callback_url;
		if (!url) throw new CallbackInputError('url is required (no status_callback_url is configured)');
		const signature = signatureOption(input);
		const custom = payloadOption(input);
		if (custom) {
			return this.deliver({ url, kind: 'chatapp-status', ...custom, contentType: 'application/json', signByDefault: true, signature, messageSid: sid });
		}
		const codeIn = input.exo_status_code;
		if (codeIn !== undefined && (typeof codeIn !== 'number' || !Number.isInteger(codeIn))) {
			throw new CallbackInputError('exo_status_code must be an integer');
		}
		const code = (codeIn as number | undefined) ?? 30002;
		const entry = this.statusEntry({
			sid: sid ?? hex(32),
			to: optString(input, 'to') ?? stored?.to ?? SANDBOX_CHATAPP_CUSTOMER,
			code,
			name: optString(input, 'exo_detailed_status'),
			description: optString(input, 'description'),
			customData: input.custom_data !== undefined ? String(input.custom_data) : stored?.customData,
			callbackType: optString(input, 'callback_type'),
			timestamp: optString(input, 'timestamp'),
		});
		return this.deliver({
			url,
			kind: 'chatapp-status',
			body: JSON.stringify({ chatapp: { messages: [entry] } }),
			contentType: 'application/json',
			signByDefault: true,
			signature,
			messageSid: sid,
		});
	}

	/**
	 * An RCS incoming message (unsigned). Input: `{url?, type? ('text'), from?, to?, sid?, timestamp?,
	 * <type>? (the content field: a string for text, an object otherwise, merged over the default),
	 * content? (the complete content object), payload?, signature?}`. `url` defaults to the
	 * status_callback of the latest RCS message sent to `from` (a reply goes there, per the spec).
	 */
	async postRcsIncoming(input: unknown): Promise<CallbackAttempt> {
		if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
		const from = optString(input, 'from') ?? SANDBOX_CHATAPP_CUSTOMER;
		const replyTo = latest(this.options.state.rcsMessages.values(), (m) => m.to === from && !!m.statusCallback);
		const url = optString(input, 'url') ?? replyTo?.statusCallback;
		if (!url) {
			throw new CallbackInputError(
				'url is required (the sandbox has no default RCS URL, and no RCS message with a status_callback was sent to from)',
			);
		}
		const signature = signatureOption(input);
		const custom = payloadOption(input);
		if (custom) {
			return this.deliver({ url, kind: 'rcs-incoming', ...custom, contentType: 'application/json', signByDefault: false, signature });
		}
		let content: unknown;
		if (input.content !== undefined) {
			if (!isObj(input.content)) throw new CallbackInputError('content must be an object');
			content = input.content;
		} else {
			const type = input.type ?? 'text';
			if (typeof type !== 'string' || !(RCS_INCOMING_TYPES as readonly string[]).includes(type)) {
				throw new CallbackInputError(`type must be one of: ${RCS_INCOMING_TYPES.join(', ')} (or give content or payload)`);
			}
			content = { type, [type]: overlay(rcsContentDefault(type as RcsIncomingType), input[type]) };
		}
		const entry = {
			callback_type: 'incoming_message',
			sid: optString(input, 'sid') ?? hex(32),
			from,
			to: optString(input, 'to') ?? replyTo?.from ?? SANDBOX_RCS_BOT_ID,
			timestamp: optString(input, 'timestamp') ?? isoWithOffset(),
			content,
		};
		return this.deliver({
			url,
			kind: 'rcs-incoming',
			body: JSON.stringify({ rcs: { messages: [entry] } }),
			contentType: 'application/json',
			signByDefault: false,
			signature,
		});
	}

	/**
	 * An SMS StatusCallback (unsigned). Input: `{url?, sid?, to?, status? ('sent'|'failed_dnd'|'failed'),
	 * fields? (override; null removes a field), format? ('form' (default) | 'json'), payload?, signature?}`.
	 * With `sid` of an accepted SMS, the fields and `url` (its StatusCallback) come from it.
	 */
	async postSmsCallback(input: unknown): Promise<CallbackAttempt> {
		if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
		const sid = optString(input, 'sid');
		const stored = sid ? this.options.state.smsMessages.get(sid) : undefined;
		const url = optString(input, 'url') ?? stored?.statusCallback;
		if (!url) throw new CallbackInputError('url is required (or sid of an SMS sent with a StatusCallback)');
		const format = this.formatOption(input, 'form');
		const signature = signatureOption(input);
		const custom = payloadOption(input);
		const contentType = format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
		if (custom) return this.deliver({ url, kind: 'sms-status', ...custom, contentType, signByDefault: false, signature, messageSid: sid });
		const statusIn = optString(input, 'status');
		if (statusIn !== undefined && !['sent', 'failed_dnd', 'failed'].includes(statusIn)) {
			throw new CallbackInputError('status must be one of: sent, failed_dnd, failed');
		}
		const to = optString(input, 'to') ?? stored?.to ?? SANDBOX_CHATAPP_CUSTOMER;
		const base: StoredSmsMessage = stored ?? {
			sid: sid ?? hex(32),
			accountSid: this.options.accountSid,
			endpoint: 'send',
			requestId: 0,
			from: 'SANDBX',
			to,
			body: 'Sandbox message',
			status: 'queued',
			detailedStatusCode: 21010,
			detailedStatus: 'PENDING_TO_OPERATOR',
			dateCreated: v1Date(),
			dateUpdated: v1Date(),
			dateSent: null,
			smsUnits: null,
		};
		const fields = this.smsStatusFields({ ...base, to }, statusIn as keyof typeof SMS_TERMINAL | undefined);
		const overrides = input.fields;
		if (overrides !== undefined) {
			if (!isObj(overrides)) throw new CallbackInputError('fields must be an object');
			for (const [key, value] of Object.entries(overrides)) {
				if (value === null) delete fields[key];
				else fields[key] = String(value);
			}
		}
		const body = format === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
		return this.deliver({ url, kind: 'sms-status', body, contentType, signByDefault: false, signature, messageSid: base.sid });
	}

	/**
	 * A click-tracking callback (unsigned; JSON by default). Input: `{url?, sid? (an SMS sid), to?,
	 * fields? (override; null removes), format? ('json' | 'form'), payload?, signature?}`; `url`
	 * defaults to the SMS's ShortenUrlParams[ClickTrackingCallbackUrl].
	 */
	async postClickCallback(input: unknown): Promise<CallbackAttempt> {
		if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
		const sid = optString(input, 'sid');
		const stored = sid ? this.options.state.smsMessages.get(sid) : undefined;
		const url = optString(input, 'url') ?? stored?.shortenUrlParams?.clickTrackingCallbackUrl;
		if (!url) throw new CallbackInputError('url is required (or sid of an SMS sent with ShortenUrlParams[ClickTrackingCallbackUrl])');
		const format = this.formatOption(input, 'json');
		const signature = signatureOption(input);
		const contentType = format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
		const custom = payloadOption(input);
		if (custom) return this.deliver({ url, kind: 'click', ...custom, contentType, signByDefault: false, signature, messageSid: sid });
		const now = new Date();
		const shortCode = hex(6);
		const longUrl = /https?:\/\/\S+/.exec(stored?.body ?? '')?.[0] ?? 'https://www.example.com/offer';
		const fields: Record<string, string | number | boolean | null> = {
			sid: hex(32),
			short_url: `https://exo.tl/${shortCode}`,
			short_code: shortCode,
			long_url: longUrl,
			tracking: true,
			custom_field: stored?.customField ?? null,
			expires_at: isoWithOffset(new Date(now.getTime() + 30 * 86_400_000)),
			created_time: isoWithOffset(now),
			last_viewed: isoWithOffset(now),
			total_clicks: 1,
			account_sid: this.options.accountSid,
			country_code: 'IN',
			date_created: isoWithOffset(now),
			sms_sid: sid ?? hex(32),
			to: optString(input, 'to') ?? stored?.to ?? SANDBOX_CHATAPP_CUSTOMER,
			city: 'Bengaluru',
			country: 'IN',
			ip: '203.0.113.7',
			postal_code: '560001',
			region: 'KA',
			accuracy_radius: 20,
			os_version: '14',
			os_name: 'Android',
			device_name: 'Pixel 8',
			platform_type: 'mobile',
		};
		const overrides = input.fields;
		if (overrides !== undefined) {
			if (!isObj(overrides)) throw new CallbackInputError('fields must be an object');
			for (const [key, value] of Object.entries(overrides)) {
				if (value === null) delete fields[key];
				else fields[key] = value as string | number | boolean;
			}
		}
		const body =
			format === 'json'
				? JSON.stringify(fields)
				: new URLSearchParams(
						Object.entries(fields).map(([k, v]) => [k, v === null ? '' : String(v)] as [string, string]),
					).toString();
		return this.deliver({ url, kind: 'click', body, contentType, signByDefault: false, signature, messageSid: sid });
	}

	/**
	 * Any body to any (loopback) URL. Input: `{url, payload (object → JSON, string as is),
	 * contentType? ('application/json'), kind? ('custom'), sign? (false), signature?}`.
	 */
	async postCallback(input: unknown): Promise<CallbackAttempt> {
		if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
		const url = optString(input, 'url');
		if (!url) throw new CallbackInputError('url is required');
		const custom = payloadOption(input);
		if (!custom) throw new CallbackInputError('payload is required');
		const kindIn = input.kind ?? 'custom';
		const kinds: CallbackKind[] = ['sms-status', 'rcs-dlr', 'chatapp-status', 'chatapp-incoming', 'rcs-incoming', 'click', 'custom', 'call-status'];
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

	// ------------------------------------------------ bodies

	private formatOption(input: Obj, fallback: 'form' | 'json'): 'form' | 'json' {
		const format = input.format ?? fallback;
		if (format !== 'form' && format !== 'json') throw new CallbackInputError("format must be 'form' or 'json'");
		return format;
	}

	private smsStatusFields(m: StoredSmsMessage, outcome?: keyof typeof SMS_TERMINAL): Record<string, string> {
		const terminal = SMS_TERMINAL[outcome ?? smsOutcomeFor(m.to)];
		const fields: Record<string, string> = {
			SmsSid: m.sid,
			To: m.to,
			Status: terminal.status,
			SmsUnits: String(smsUnitsOf(m.body, m.encodingType)),
			DetailedStatus: terminal.name,
			DetailedStatusCode: String(terminal.code),
			DateSent: v1Date(),
		};
		if (m.customField !== undefined) fields.CustomField = m.customField;
		return fields;
	}

	private rcsEntry(m: StoredRcsMessage, status: { code: number; name: string; description: string }): Obj {
		const entry: Obj = {
			callback_type: 'dlr',
			sid: m.sid,
			to: m.to,
			exo_status_code: status.code,
			exo_detailed_status: status.name,
			description: status.description,
			timestamp: isoWithOffset(),
		};
		if (m.customData !== undefined) entry.custom_data = m.customData;
		return entry;
	}

	private statusEntry(args: {
		sid: string;
		to: string;
		code: number;
		name?: string;
		description?: string;
		customData?: string;
		callbackType?: string;
		timestamp?: string;
	}): Obj {
		const entry: Obj = {
			callback_type: args.callbackType ?? 'dlr',
			sid: args.sid,
			to: args.to,
			exo_status_code: args.code,
			exo_detailed_status: args.name ?? CHATAPP_STATUS_CODES[args.code] ?? 'UNKNOWN_ERROR',
			description: args.description ?? CHATAPP_DESCRIPTIONS[args.code] ?? `Status ${args.code}`,
			timestamp: args.timestamp ?? isoWithOffset(),
		};
		if (args.customData !== undefined) entry.custom_data = args.customData;
		return entry;
	}

	// ------------------------------------------------ scheduling and posting

	private after(ms: number, fn: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		this.timers.add(timer);
	}

	/**
	 * Posts the reports of one send: grouped by base delay, each group at acceptance + delay ×
	 * timeScale, and never before the first attempts of the previous group have finished.
	 */
	private schedule(reports: ScheduledReport[]): void {
		const groups = new Map<number, ScheduledReport[]>();
		for (const report of reports) {
			const group = groups.get(report.delayMs);
			if (group) group.push(report);
			else groups.set(report.delayMs, [report]);
		}
		const ordered = [...groups.entries()].sort((a, b) => a[0] - b[0]);
		const generation = this.generation;
		const acceptedAt = Date.now();
		const next = (i: number) => {
			if (i >= ordered.length || generation !== this.generation) return;
			const [delayMs, group] = ordered[i];
			const wait = Math.max(0, acceptedAt + delayMs * this.options.timeScale - Date.now());
			this.after(wait, () => {
				const go = () => next(i + 1);
				void Promise.all(group.map((report) => this.deliver(report.make()))).then(go, go);
			});
		};
		next(0);
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
		const signature = request.signature === undefined ? (request.signByDefault ? correct : null) : request.signature;
		if (signature !== null) headers['x-service-signature'] = signature;
		let target: URL | undefined;
		try {
			target = new URL(request.url);
		} catch {
			target = undefined;
		}
		if (!target || !isLoopbackUrl(request.url)) {
			const entry: CallbackAttempt = {
				id,
				url: request.url,
				kind: request.kind,
				attempt: 1,
				status: 0,
				outcome: 'skipped-non-loopback',
				signed: signature === correct,
				body: request.body,
				headers,
				time: Date.now(),
				durationMs: 0,
				error: 'not a loopback URL (127.0.0.1, localhost, ::1): never sent',
			};
			if (request.messageSid !== undefined) entry.messageSid = request.messageSid;
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
		const entry: CallbackAttempt = {
			id,
			url: request.url,
			kind: request.kind,
			attempt,
			status: result.status,
			outcome: 'delivered',
			signed,
			body: request.body,
			headers: sent,
			time,
			durationMs: Date.now() - time,
		};
		if (request.messageSid !== undefined) entry.messageSid = request.messageSid;
		if (generation !== this.generation) {
			// Cancelled by reset() or stop(): not logged, nothing more scheduled.
			return { ...entry, outcome: 'failed', error: 'cancelled' };
		}
		if (result.status !== 200 || result.error) {
			entry.error = result.error ?? `HTTP ${result.status}`;
			const delay = CALLBACK_TIMING.retryDelaysMs[attempt - 1];
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

	/** One POST to a loopback URL (checked by the caller and again here). */
	private send(target: URL, headers: Record<string, string>, body: string): Promise<SendResult> {
		const hostname = target.hostname.toLowerCase();
		if (!LOOPBACK_HOSTS.has(hostname)) return Promise.resolve({ status: 0, error: 'not a loopback URL' });
		// Never resolve a name: localhost is 127.0.0.1.
		const host = hostname === 'localhost' ? '127.0.0.1' : hostname === '[::1]' ? '::1' : hostname;
		const secure = target.protocol === 'https:';
		const timeoutMs = this.ackTimeoutMs;
		return new Promise<SendResult>((resolve) => {
			let settled = false;
			let timer: NodeJS.Timeout | undefined;
			const finish = (result: SendResult) => {
				if (settled) return;
				settled = true;
				if (timer) {
					clearTimeout(timer);
					this.timers.delete(timer);
				}
				resolve(result);
			};
			const options: https.RequestOptions = {
				host,
				port: target.port || (secure ? 443 : 80),
				path: `${target.pathname}${target.search}`,
				method: 'POST',
				headers: { ...headers, host: target.host, connection: 'close' },
				agent: false,
			};
			if (target.username || target.password) {
				options.auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
			}
			if (secure) options.rejectUnauthorized = false;
			let request: http.ClientRequest;
			try {
				request = (secure ? https : http).request(options, (res) => {
					res.on('error', () => undefined);
					res.resume();
					finish({ status: res.statusCode ?? 0 });
				});
			} catch (error) {
				finish({ status: 0, error: (error as Error).message });
				return;
			}
			this.inflight.add(request);
			request.on('error', (error: NodeJS.ErrnoException) => finish({ status: 0, error: error.code ?? error.message }));
			request.on('close', () => {
				this.inflight.delete(request);
				finish({ status: 0, error: 'connection closed without an answer' });
			});
			timer = setTimeout(() => {
				this.timers.delete(timer as NodeJS.Timeout);
				finish({ status: 0, error: `timeout after ${timeoutMs} ms` });
				request.destroy();
			}, timeoutMs);
			this.timers.add(timer);
			request.end(body);
		});
	}
}
