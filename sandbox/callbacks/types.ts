/**
 * What every part of the callback dispatcher shares: the public types of the attempt log, the
 * timing of the spec (messaging.md), the request a payload builder hands to the dispatcher, and
 * the clock and network its parts post through.
 */
import type { SandboxState } from '../state';

// ---------------------------------------------------------------- public types

export type CallbackKind =
	| 'sms-status'
	| 'rcs-dlr'
	| 'chatapp-status'
	| 'chatapp-incoming'
	/** A person's answer to a sent chat-app message (icm entry to its status_callback; person.ts). */
	| 'chatapp-reply'
	| 'rcs-incoming'
	| 'click'
	| 'custom'
	/** v1 call status callback of a call placed with Calls/connect (handlers/callConnect.ts, callStatus.ts). */
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

// ---------------------------------------------------------------- from the builders to the dispatcher

/** One callback to post, as a channel's payload builder makes it. */
export interface DeliveryRequest {
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

/** One report of a scheduled series: at `delayMs` (base, before timeScale) after acceptance. */
export interface ScheduledReport {
	delayMs: number;
	make: () => DeliveryRequest;
}

/** What a payload builder may read: the sandbox's stored messages and webhook, and the account. */
export interface PayloadContext {
	state: SandboxState;
	accountSid: string;
}

// ---------------------------------------------------------------- the dispatcher's clock and network

/** What one POST of a callback got back: the status, 0 with `error` when there was no answer. */
export interface SendResult {
	status: number;
	error?: string;
}

/**
 * The timers and requests of the callbacks, on Node's clock and network (dispatcher.ts): what the
 * parts that decide when and what to post (delivery.ts, series.ts, campaign-queue.ts) post through.
 */
export interface CallbackWork {
	/** Bumped when everything is cancelled: work of an older generation stops where it is. */
	readonly generation: number;
	/** Runs `fn` in `ms` real ms; counted as pending until it runs or is cancelled. */
	after(ms: number, fn: () => void): NodeJS.Timeout;
	cancel(timer: NodeJS.Timeout): void;
	/** One POST to a loopback URL; settles on the answer's status line. */
	send(target: URL, headers: Record<string, string>, body: string): Promise<SendResult>;
}

/** Posts one callback now (retrying on its own schedule); resolves with the first attempt. */
export type Deliver = (request: DeliveryRequest) => Promise<CallbackAttempt>;
