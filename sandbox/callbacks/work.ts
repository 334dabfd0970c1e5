/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- posts callbacks to loopback receivers on timers (http, https, setTimeout, process.stderr); never shipped */
/**
 * The callbacks on Node's clock and network: the timers (scheduled reports, campaign steps,
 * retries, acknowledgement timeouts) and the requests in flight, counted as pending and cancelled
 * together, what a request to a loopback URL got back, and stderr.
 *
 * SAFETY: every request checks its host again: only 127.0.0.1, localhost and ::1 are contacted,
 * `localhost` as 127.0.0.1 (no name is ever resolved); redirects are never followed.
 */
import * as http from 'http';
import * as https from 'https';

import { LOOPBACK_HOSTS } from './delivery';
import type { CallbackWork, SendResult } from './types';

/** What one request to a loopback URL got back (the body only when asked for, up to a cap). */
export interface ExchangeResult {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	error?: string;
}

interface ExchangeInit {
	method: string;
	headers: Record<string, string>;
	body?: string | Buffer;
	readBody: boolean;
	maxBodyBytes?: number;
}

/** How a loopback URL is reached: never by resolving a name (localhost is 127.0.0.1), never through an agent. */
function requestOptions(target: URL, init: ExchangeInit): https.RequestOptions {
	const hostname = target.hostname.toLowerCase();
	const secure = target.protocol === 'https:';
	const options: https.RequestOptions = {
		host: hostname === 'localhost' ? '127.0.0.1' : hostname === '[::1]' ? '::1' : hostname,
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
	return options;
}

/** What a request has got back so far; it settles once (answer, error, close or timeout). */
class Answer {
	answered = false;

	private status = 0;

	private headers: http.IncomingHttpHeaders = {};

	private readonly chunks: Buffer[] = [];

	private size = 0;

	private settled = false;

	constructor(
		private readonly resolve: (result: ExchangeResult) => void,
		private readonly maxBodyBytes: number,
	) {}

	/** Settles with what came; false when it had settled already. */
	finish(error?: string): boolean {
		if (this.settled) return false;
		this.settled = true;
		const result: ExchangeResult = { status: this.status, headers: this.headers, body: Buffer.concat(this.chunks) };
		if (error !== undefined) result.error = error;
		this.resolve(result);
		return true;
	}

	/** The answer's status line, and its body (up to the cap) when `readBody`; `done` once read. */
	read(res: http.IncomingMessage, readBody: boolean, done: () => void): void {
		this.answered = true;
		this.status = res.statusCode ?? 0;
		this.headers = res.headers;
		res.on('error', () => undefined);
		if (!readBody) {
			res.resume();
			done();
			return;
		}
		res.on('data', (chunk: Buffer) => {
			if (this.size < this.maxBodyBytes) this.chunks.push(chunk.subarray(0, this.maxBodyBytes - this.size));
			this.size += chunk.length;
		});
		res.on('end', done);
	}
}

/** The callbacks' timers (reports, campaign steps, retries, timeouts) and requests in flight. */
export class NodeWork implements CallbackWork {
	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly inflight = new Set<http.ClientRequest>();

	private generationValue = 0;

	constructor(readonly timeoutMs: number) {}

	get generation(): number {
		return this.generationValue;
	}

	get size(): number {
		return this.timers.size + this.inflight.size;
	}

	after(ms: number, fn: () => void): NodeJS.Timeout {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		this.timers.add(timer);
		return timer;
	}

	/** A poll (waitFor): neither counted as pending nor cancelled. */
	later(ms: number, fn: () => void): void {
		setTimeout(fn, ms);
	}

	/** A line on stderr (a campaign step that failed). */
	warn(text: string): void {
		process.stderr.write(text);
	}

	cancel(timer: NodeJS.Timeout): void {
		clearTimeout(timer);
		this.timers.delete(timer);
	}

	/** Stops every timer and request; what was of the older generation logs nothing more. */
	cancelAll(): void {
		this.generationValue++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.inflight) request.destroy();
		this.inflight.clear();
	}

	async send(target: URL, headers: Record<string, string>, body: string): Promise<SendResult> {
		const result = await this.exchange(target, { method: 'POST', headers, body, readBody: false });
		return result.error === undefined ? { status: result.status } : { status: result.status, error: result.error };
	}

	/**
	 * One request to a loopback URL (checked here too: any other host is refused without a
	 * connection), redirects not followed, within the acknowledgement timeout; cancelAll() destroys
	 * it. With `readBody` it settles once the body is read (up to `maxBodyBytes`), else on the status line.
	 */
	exchange(target: URL, init: ExchangeInit): Promise<ExchangeResult> {
		if (!LOOPBACK_HOSTS.has(target.hostname.toLowerCase())) {
			return Promise.resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error: 'not a loopback URL' });
		}
		return new Promise<ExchangeResult>((resolve) => {
			const options = requestOptions(target, init);
			const answer = new Answer(resolve, init.maxBodyBytes ?? 1024 * 1024);
			let request: http.ClientRequest | undefined;
			const finish = (error?: string) => {
				if (answer.finish(error)) this.cancel(timer);
			};
			// started before the request is made: a request that cannot be made finishes (and clears it) at once
			const timer = this.after(this.timeoutMs, () => {
				finish(`timeout after ${this.timeoutMs} ms`);
				request?.destroy();
			});
			try {
				request = (target.protocol === 'https:' ? https : http).request(options, (res) => answer.read(res, init.readBody, () => finish()));
			} catch (error) {
				finish((error as Error).message);
				return;
			}
			this.track(request, answer, finish);
			request.end(init.body);
		});
	}

	private track(request: http.ClientRequest, answer: Answer, finish: (error?: string) => void): void {
		this.inflight.add(request);
		request.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
		request.on('close', () => {
			this.inflight.delete(request);
			finish(answer.answered ? undefined : 'connection closed without an answer');
		});
	}
}
