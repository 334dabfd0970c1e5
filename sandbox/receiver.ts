/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a local HTTP receiver for tests (http, net); never shipped */
/**
 * Test support for the sandbox's callback tests: a local http receiver on 127.0.0.1 that records
 * every request and answers it as a test tells it to, and the two ways a test talks to a running
 * sandbox (its API with the basic auth of SANDBOX_ACCOUNT, and its `/__sandbox` control API).
 */
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';

import { basicOf, call } from './client';
import { SANDBOX_ACCOUNT } from './fixtures';

/** One request the receiver got. */
export interface Received {
	method: string;
	/** path and query, as requested */
	url: string;
	/** the same as `url`: path and query, as requested */
	path: string;
	pathname: string;
	headers: http.IncomingHttpHeaders;
	raw: Buffer;
	text: string;
	/** performance-free wall clock, ms */
	at: number;
}

/** A full answer; status 0 never answers (the request hangs). */
export interface Answer {
	status: number;
	headers?: Record<string, string | string[]>;
	body?: string;
}

/** A status (`200` answers 'ok', any other 'no'), `'hang'` (never answer), or a full answer. */
export type Responder = (r: Received) => number | 'hang' | Answer;

/** A request's path matches `path` when its path and query, or else its pathname, is `path`. */
const matches = (r: Received, path: string) => r.url === path || r.pathname === path;

export class Receiver {
	readonly received: Received[] = [];

	private readonly responders = new Map<string, Responder>();

	private server!: http.Server;

	private readonly sockets = new Set<Socket>();

	origin = '';

	async start(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				const raw = Buffer.concat(chunks);
				const url = req.url ?? '/';
				const entry: Received = {
					method: req.method ?? 'GET',
					url,
					path: url,
					pathname: new URL(url, 'http://x').pathname,
					headers: req.headers,
					raw,
					text: raw.toString('utf8'),
					at: Date.now(),
				};
				this.received.push(entry);
				const responder = this.responders.get(entry.url) ?? this.responders.get(entry.pathname) ?? (() => 200);
				const answer = responder(entry);
				if (answer === 'hang') return;
				if (typeof answer === 'number') {
					res.writeHead(answer, { 'content-type': 'text/plain' });
					res.end(answer === 200 ? 'ok' : 'no');
					return;
				}
				if (answer.status === 0) return; // hang: never answer
				res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
				res.end(answer.body ?? '');
			});
		});
		this.server.on('connection', (s) => {
			this.sockets.add(s);
			s.on('close', () => this.sockets.delete(s));
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	url(path: string): string {
		return this.origin + path;
	}

	/** Answer requests to `path` (path and query exactly, or else the pathname) with `responder`. */
	on(path: string, responder: Responder): void {
		this.responders.set(path, responder);
	}

	/** The requests whose path and query, or whose pathname, is `path`. */
	at(path: string): Received[] {
		return this.received.filter((r) => matches(r, path));
	}

	/** The JSON bodies of `at(path)`, as the caller says they are shaped. */
	json<B = unknown>(path: string): B[] {
		return this.at(path).map((r) => JSON.parse(r.text));
	}

	clear(): void {
		this.received.length = 0;
		this.responders.clear();
	}

	async stop(): Promise<void> {
		for (const s of this.sockets) s.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

const BASIC = basicOf(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken);

/**
 * A call to the sandbox's API at `origin` with the basic auth of SANDBOX_ACCOUNT: a form, else a
 * JSON body, else none. The answer's body is parsed as JSON when there is one (a non-JSON answer throws).
 */
export async function sandboxCall<B = unknown>(
	origin: string,
	method: string,
	path: string,
	body?: unknown,
	form?: Array<[string, string]>,
): Promise<{ status: number; body: B }> {
	const res = await call(origin, method, path, { headers: { authorization: BASIC }, form, json: body });
	return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined };
}

/** A call to the sandbox's control API at `origin`: GET without a body, POST with a JSON one; the answer must be JSON. */
export async function sandboxControl<B = unknown>(origin: string, path: string, body?: unknown): Promise<{ status: number; body: B }> {
	const res = await call(origin, body === undefined ? 'GET' : 'POST', `/__sandbox${path}`, {
		headers: { 'content-type': 'application/json' },
		json: body,
	});
	return { status: res.status, body: JSON.parse(res.text) };
}
