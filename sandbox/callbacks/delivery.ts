/**
 * Posting one callback: its headers and signature, the loopback check, the attempts and the retry
 * schedule of messaging.md (scaled by `timeScale`), each attempt logged (log.ts). The posts go
 * through the dispatcher's network (dispatcher.ts).
 *
 * SAFETY: only loopback URLs (hosts 127.0.0.1, localhost, ::1) are ever contacted. Any other URL is
 * logged with outcome `skipped-non-loopback` and never sent.
 */
import { createHmac } from 'crypto';

import { attemptEntry, type CallbackLog } from './log';
import { CALLBACK_TIMING, type CallbackAttempt, type CallbackWork, type DeliveryRequest } from './types';

export const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

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

export interface DeliveryParts {
	log: CallbackLog;
	work: CallbackWork;
	signingSecret: string;
	timeScale: number;
	/** Read at each post: live mode signs nothing unless asked to. */
	isLive: () => boolean;
}

/** One callback on its way: the same bytes and headers at every attempt. */
interface Delivery {
	id: number;
	generation: number;
	target: URL;
	request: DeliveryRequest;
	headers: Record<string, string>;
	signed: boolean;
}

export class Deliveries {
	constructor(private readonly parts: DeliveryParts) {}

	/** Posts once now (retrying on its own schedule); resolves with the first attempt. */
	deliver(request: DeliveryRequest): Promise<CallbackAttempt> {
		const id = this.parts.log.newId();
		const generation = this.parts.work.generation;
		const { headers, signed } = this.headersOf(id, request);
		if (!isLoopbackUrl(request.url)) return Promise.resolve(this.skip(id, request, headers, signed));
		return this.attempt({ id, generation, target: new URL(request.url), request, headers, signed }, 1);
	}

	private headersOf(id: number, request: DeliveryRequest): { headers: Record<string, string>; signed: boolean } {
		const correct = signPayload(request.body, this.parts.signingSecret);
		const headers: Record<string, string> = {
			'content-type': request.contentType,
			'content-length': String(Buffer.byteLength(request.body)),
			'user-agent': 'Exotel-Sandbox-Callbacks/1.0',
			'x-sandbox-callback-id': String(id),
		};
		// live mode: no signature unless one is asked for (no public trace of any on the live service's webhooks)
		const signByDefault = request.signByDefault && !this.parts.isLive();
		const signature = request.signature === undefined ? (signByDefault ? correct : null) : request.signature;
		if (signature !== null) headers['x-service-signature'] = signature;
		return { headers, signed: signature === correct };
	}

	/** A URL that is not loopback: logged, never sent. */
	private skip(id: number, request: DeliveryRequest, headers: Record<string, string>, signed: boolean): CallbackAttempt {
		const entry = attemptEntry(id, request, {
			attempt: 1,
			status: 0,
			outcome: 'skipped-non-loopback',
			signed,
			headers,
			time: Date.now(),
			durationMs: 0,
			error: 'not a loopback URL (127.0.0.1, localhost, ::1): never sent',
		});
		this.parts.log.record(entry);
		return { ...entry };
	}

	private async attempt(delivery: Delivery, attempt: number): Promise<CallbackAttempt> {
		const { id, generation, target, request, signed } = delivery;
		const time = Date.now();
		const headers = { ...delivery.headers, 'x-sandbox-callback-attempt': String(attempt) };
		const result = await this.parts.work.send(target, headers, request.body);
		const entry = attemptEntry(id, request, { attempt, status: result.status, outcome: 'delivered', signed, headers, time, durationMs: Date.now() - time });
		// Cancelled by reset() or stop(): not logged, nothing more scheduled.
		if (generation !== this.parts.work.generation) return { ...entry, outcome: 'failed', error: 'cancelled' };
		if (result.status !== 200 || result.error) this.failed(delivery, entry, result.error ?? `HTTP ${result.status}`);
		this.parts.log.record(entry);
		return { ...entry, headers: { ...entry.headers } };
	}

	/** A failed attempt is retried on the schedule; after the last one its URL is marked failing. */
	private failed(delivery: Delivery, entry: CallbackAttempt, error: string): void {
		entry.error = error;
		// Nothing public promises call status callbacks again (service-facts.md): one attempt each.
		const delay = delivery.request.kind === 'call-status' ? undefined : CALLBACK_TIMING.retryDelaysMs[entry.attempt - 1];
		if (delay === undefined) {
			entry.outcome = 'failed';
			this.parts.log.markFailing(entry);
			return;
		}
		entry.outcome = 'retry-scheduled';
		entry.nextAttemptInMs = delay * this.parts.timeScale;
		this.parts.work.after(entry.nextAttemptInMs, () => {
			void this.attempt(delivery, entry.attempt + 1);
		});
	}
}
