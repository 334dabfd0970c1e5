/**
 * Injected faults: the queue requests take them from, the answer a status fault gives, and the
 * control API's validation of a posted fault.
 */
import { SANDBOX_BASE_PREFIX } from './fixtures';
import { apiError, statusText } from './http';
import type { ErrorStyle, Fault, FaultMatch, Reply, SandboxBase } from './types';

interface PendingFault {
	fault: Fault;
	remaining: number;
	match: FaultMatch;
}

/** Faults waiting for matching requests; each request takes at most one (the oldest that matches). */
export class FaultQueue {
	private pending: PendingFault[] = [];

	add(fault: Fault, count = 1, match: FaultMatch = {}): void {
		if (!(count > 0)) return;
		this.pending.push({ fault, remaining: count, match: { ...match } });
	}

	take(base: SandboxBase, method: string, path: string): Fault | undefined {
		for (let i = 0; i < this.pending.length; i++) {
			const entry = this.pending[i];
			const { match } = entry;
			if (match.base !== undefined && match.base !== base) continue;
			if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) continue;
			if (match.pathIncludes !== undefined && !path.includes(match.pathIncludes)) continue;
			entry.remaining--;
			if (entry.remaining <= 0) this.pending.splice(i, 1);
			return entry.fault;
		}
		return undefined;
	}

	/** How many faulted answers are still pending in total. */
	get size(): number {
		return this.pending.reduce((n, entry) => n + entry.remaining, 0);
	}

	clear(): void {
		this.pending = [];
	}
}

/** The `fault` string recorded with a request. */
export function describeFault(fault: Fault): string {
	switch (fault.kind) {
		case 'status':
			return `status:${fault.status}`;
		case 'delay':
			return `delay:${fault.ms}`;
		case 'reset':
			return `reset:${fault.when ?? 'before'}`;
	}
}

/** An injected text body is served as the service would serve it: a recorded XML answer as XML. */
function faultContentType(body: string): string {
	return body.trimStart().startsWith('<?xml') || /^\s*<[A-Za-z]/.test(body) ? 'application/xml' : 'text/plain; charset=utf-8';
}

/** The answer a status fault gives: its own body as given, else the path's error envelope. */
export function faultReply(fault: Extract<Fault, { kind: 'status' }>, style: ErrorStyle, method: string): Reply {
	const headers: Record<string, string> = {};
	if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
	if (fault.body !== undefined) {
		return typeof fault.body === 'string'
			? { status: fault.status, body: fault.body, contentType: faultContentType(fault.body), headers }
			: { status: fault.status, json: fault.body, headers };
	}
	return apiError(style, fault.status, `${statusText(fault.status)} (injected by the sandbox)`, { method, headers });
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Validates `{fault, count, match}` as posted to the control API; throws Error with a message. */
export function parseFaultRequest(input: unknown): { fault: Fault; count: number; match: FaultMatch } {
	if (!isObject(input)) throw new Error('body must be a JSON object {fault, count?, match?}');
	const fault = input.fault;
	if (!isObject(fault)) throw new Error('fault must be an object with a kind');
	let parsed: Fault;
	switch (fault.kind) {
		case 'status': {
			const status = fault.status;
			if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
				throw new Error('fault.status must be an HTTP status from 100 to 599');
			}
			const retry = fault.retryAfterSeconds;
			if (retry !== undefined && (typeof retry !== 'number' || retry < 0)) {
				throw new Error('fault.retryAfterSeconds must be a non-negative number');
			}
			parsed = { kind: 'status', status, retryAfterSeconds: retry as number | undefined, body: fault.body };
			break;
		}
		case 'delay':
			if (typeof fault.ms !== 'number' || !(fault.ms >= 0)) throw new Error('fault.ms must be a non-negative number');
			parsed = { kind: 'delay', ms: fault.ms };
			break;
		case 'reset':
			if (fault.when !== undefined && fault.when !== 'before' && fault.when !== 'after') {
				throw new Error("fault.when must be 'before' or 'after'");
			}
			parsed = { kind: 'reset', when: fault.when as 'before' | 'after' | undefined };
			break;
		default:
			throw new Error("fault.kind must be 'status', 'delay' or 'reset'");
	}
	const count = input.count ?? 1;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
		throw new Error('count must be a positive integer');
	}
	const match = input.match ?? {};
	if (!isObject(match)) throw new Error('match must be an object');
	const out: FaultMatch = {};
	if (match.base !== undefined) {
		if (typeof match.base !== 'string' || !(match.base in SANDBOX_BASE_PREFIX)) {
			throw new Error(`match.base must be one of ${Object.keys(SANDBOX_BASE_PREFIX).join(', ')}`);
		}
		out.base = match.base as SandboxBase;
	}
	if (match.method !== undefined) {
		if (typeof match.method !== 'string') throw new Error('match.method must be a string');
		out.method = match.method;
	}
	if (match.pathIncludes !== undefined) {
		if (typeof match.pathIncludes !== 'string') throw new Error('match.pathIncludes must be a string');
		out.pathIncludes = match.pathIncludes;
	}
	return { fault: parsed, count, match: out };
}
