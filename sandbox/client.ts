/**
 * A small HTTP client for the sandbox's own tests: form, JSON or raw bodies, the answer parsed when it
 * is JSON; and the call flows of a sandbox running in another process (its control API).
 */
import type { CallFlowResult } from './callFlows';

export interface Answer<B = unknown> {
	status: number;
	headers: Headers;
	text: string;
	/** The parsed JSON, as the caller says it is shaped (undefined when the answer is not JSON). */
	body: B;
}

export interface CallOptions {
	headers?: Record<string, string>;
	form?: Array<[string, string]>;
	json?: unknown;
	raw?: string | FormData;
}

/** An HTTP basic `Authorization` header value. */
export const basicOf = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export async function call<B = unknown>(origin: string, method: string, path: string, options: CallOptions = {}): Promise<Answer<B>> {
	const headers: Record<string, string> = { ...options.headers };
	let body: string | FormData | undefined;
	if (options.form) {
		body = new URLSearchParams(options.form).toString();
		headers['content-type'] ??= 'application/x-www-form-urlencoded';
	} else if (options.json !== undefined) {
		body = JSON.stringify(options.json);
		headers['content-type'] ??= 'application/json';
	} else if (options.raw !== undefined) {
		body = options.raw;
	}
	const res = await fetch(origin + path, { method, headers, body });
	const text = await res.text();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: res.status, headers: res.headers, text, body: parsed as B };
}

/**
 * An incoming call played through a flow by the sandbox at `origin` (`POST /__sandbox/call-flow`, the
 * input of playCallFlow): the call once it has ended. Throws with the sandbox's error (a 400 names the bad field).
 */
export async function playCallFlow(origin: string, input: Record<string, unknown>): Promise<CallFlowResult> {
	const res = await call<{ ok?: boolean; call?: CallFlowResult; error?: string }>(origin, 'POST', '/__sandbox/call-flow', { json: input });
	if (res.status !== 200 || !res.body?.call) throw new Error(`POST /__sandbox/call-flow answered ${res.status}: ${res.body?.error ?? res.text}`);
	return res.body.call;
}

/** The last 200 calls the sandbox at `origin` played through flows, oldest first (`GET /__sandbox/call-flows`). */
export async function callFlows(origin: string): Promise<CallFlowResult[]> {
	const res = await call<{ calls?: CallFlowResult[] }>(origin, 'GET', '/__sandbox/call-flows');
	if (res.status !== 200 || !Array.isArray(res.body?.calls)) throw new Error(`GET /__sandbox/call-flows answered ${res.status}: ${res.text}`);
	return res.body.calls;
}
