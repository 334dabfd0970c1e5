/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox's HTTP server helpers (http); never shipped */
/**
 * Shared helpers for handlers: body parsing (urlencoded pairs, bracket forms, multipart, JSON),
 * JSON answers, the error envelopes of every API family, ids and timestamps.
 */
import { randomBytes } from 'crypto';
import { STATUS_CODES } from 'http';

import type { ErrorStyle, Reply, RequestContext, SandboxBase } from './types';

// ---------------------------------------------------------------- ids and time

/** `n` lowercase hex characters. */
export function randomHex(n: number): string {
	return randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the v1 date format. */
export function v1Timestamp(date: Date = new Date()): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** India's offset from UTC in minutes (+05:30). */
export const INDIA_OFFSET_MINUTES = 330;

/**
 * A v1 date-time: UTC in spec mode; in live mode India wall-clock time (+05:30) without a zone, as the
 * live service writes them (`DateCreated 10:59:38` answered at `05:29:38 GMT`).
 */
export function v1DateTime(date: Date, live: boolean): string {
	return v1Timestamp(live ? new Date(date.getTime() + INDIA_OFFSET_MINUTES * 60_000) : date);
}

/** ISO 8601 in UTC without milliseconds, e.g. `2026-01-31T10:00:00Z`. */
export function isoTimestamp(date: Date = new Date()): string {
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// ---------------------------------------------------------------- content types and bodies

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(header: string | undefined): string | undefined {
	if (!header) return undefined;
	const type = header.split(';')[0].trim().toLowerCase();
	return type || undefined;
}

export function isFormType(type: string | undefined): boolean {
	return type === 'application/x-www-form-urlencoded';
}

export function isJsonType(type: string | undefined): boolean {
	return type === 'application/json' || (type !== undefined && type.endsWith('+json'));
}

/** Ordered, decoded pairs; repeated keys stay repeated. */
export function parseFormPairs(raw: string): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	for (const [key, value] of new URLSearchParams(raw)) pairs.push([key, value]);
	return pairs;
}

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
	[key: string]: FormValue;
}

/** The form cannot be read as one structure (a key repeated, `a` and `a[b]` together, ...). */
export class FormShapeError extends Error {}

const FORM_KEY_RE = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;
const FORM_SEGMENT_RE = /\[([^[\]]*)\]/g;

function formKeySegments(key: string): string[] {
	const m = FORM_KEY_RE.exec(key);
	if (!m) return [key];
	const segments = [m[1]];
	for (const s of m[2].matchAll(FORM_SEGMENT_RE)) segments.push(s[1]);
	return segments;
}

/**
 * Reads bracket-encoded form pairs as one structure: `To[]` repeated → array, `Messages[0][To]` →
 * `{Messages: {'0': {To}}}`, `ShortenUrlParams[Header]` → nested object. A plain key given twice,
 * or a key used both as a value and as a container, throws FormShapeError. Objects have no
 * prototype, so keys like `__proto__` are plain data.
 */
export function nestForm(pairs: ReadonlyArray<readonly [string, string]>): FormObject {
	const root: FormObject = Object.create(null);
	for (const [key, value] of pairs) {
		const segments = formKeySegments(key);
		let node: FormObject | FormValue[] = root;
		for (let i = 0; i < segments.length; i++) {
			const segment = segments[i];
			const last = i === segments.length - 1;
			const nextIsPush = !last && segments[i + 1] === '';
			if (Array.isArray(node)) {
				if (segment !== '') throw new FormShapeError(`Parameter '${key}' mixes '[]' and '[${segment}]'`);
				if (last) {
					node.push(value);
				} else {
					const child: FormObject | FormValue[] = nextIsPush ? [] : Object.create(null);
					node.push(child);
					node = child;
				}
				continue;
			}
			if (segment === '' && i === 0) throw new FormShapeError(`Parameter '${key}' has no name`);
			const existing: FormValue | undefined = node[segment];
			if (last) {
				if (existing !== undefined) {
					throw new FormShapeError(
						typeof existing === 'string'
							? `Parameter '${key}' is given more than once (repeat '${key}[]' for a list)`
							: `Parameter '${key}' is given both as a value and as a list or object`,
					);
				}
				node[segment] = value;
				break;
			}
			if (existing === undefined) {
				const child: FormObject | FormValue[] = nextIsPush ? [] : Object.create(null);
				node[segment] = child;
				node = child;
			} else if (typeof existing === 'string' || Array.isArray(existing) !== nextIsPush) {
				throw new FormShapeError(`Parameter '${key}' conflicts with another parameter of the same name`);
			} else {
				node = existing;
			}
		}
	}
	return root;
}

export function isFormObject(value: FormValue | undefined): value is FormObject {
	return value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

/** Entries of an object keyed by non-negative integers, sorted numerically; undefined if a key is not one. */
export function indexedEntries(value: FormObject): Array<[number, FormValue]> | undefined {
	const out: Array<[number, FormValue]> = [];
	for (const key of Object.keys(value)) {
		if (!/^\d+$/.test(key)) return undefined;
		out.push([Number(key), value[key]]);
	}
	return out.sort((a, b) => a[0] - b[0]);
}

export interface MultipartPart {
	name: string;
	filename?: string;
	contentType?: string;
	data: Buffer;
}

/** Minimal multipart/form-data reader (RFC 7578): enough for CSV uploads. Throws on a malformed body. */
export function parseMultipart(body: Buffer, contentTypeHeader: string | undefined): MultipartPart[] {
	const boundaryMatch = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentTypeHeader ?? '');
	const boundary = boundaryMatch ? (boundaryMatch[1] ?? boundaryMatch[2]).trim() : '';
	if (!boundary) throw new Error('multipart body without a boundary');
	const delimiter = Buffer.from(`--${boundary}`);
	const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
	const parts: MultipartPart[] = [];
	let pos = body.indexOf(delimiter);
	if (pos < 0) throw new Error('multipart boundary not found in the body');
	pos += delimiter.length;
	for (;;) {
		if (body.slice(pos, pos + 2).toString() === '--') break; // closing delimiter
		if (body.slice(pos, pos + 2).toString() === '\r\n') pos += 2;
		const next = body.indexOf(nextDelimiter, pos);
		if (next < 0) throw new Error('multipart body is not terminated');
		const chunk = body.slice(pos, next);
		const headerEnd = chunk.indexOf('\r\n\r\n');
		if (headerEnd < 0) throw new Error('multipart part without headers');
		const headers: Record<string, string> = {};
		for (const line of chunk.slice(0, headerEnd).toString('utf8').split('\r\n')) {
			const colon = line.indexOf(':');
			if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const disposition = headers['content-disposition'] ?? '';
		const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
		if (name === undefined) throw new Error('multipart part without a name');
		const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
		parts.push({ name, filename, contentType: headers['content-type'], data: chunk.slice(headerEnd + 4) });
		pos = next + nextDelimiter.length;
	}
	return parts;
}

/** The body read as JSON whatever its declared type; `undefined` when empty or not JSON. */
export function readJson(ctx: RequestContext): { ok: true; value: unknown } | { ok: false } {
	if (ctx.request.json !== undefined) return { ok: true, value: ctx.request.json };
	const text = ctx.request.rawBody.trim();
	if (!text) return { ok: false };
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function firstQueryValue(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

// ---------------------------------------------------------------- answers

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
	return { status, json: body, headers };
}

export function statusText(status: number): string {
	return STATUS_CODES[status] ?? 'Error';
}

/** Codes inside the v2/v3 `error_data` (invented: the spec shows none). */
export const V2_ERROR_CODES: Record<number, { code: number; message: string }> = {
	400: { code: 1001, message: 'Invalid request' },
	401: { code: 1010, message: 'Authentication failed' },
	403: { code: 1003, message: 'Forbidden' },
	404: { code: 1004, message: 'Not found' },
	405: { code: 1005, message: 'Method not allowed' },
	409: { code: 1009, message: 'Conflict' },
	413: { code: 1013, message: 'Payload too large' },
	429: { code: 1029, message: 'Too many requests' },
	500: { code: 1050, message: 'Internal server error' },
	503: { code: 1053, message: 'Service unavailable' },
};

/** `errorCode` of configuration-server errors; CONF-1001 (not found) is the spec's, the rest invented. */
export const CMS_ERROR_CODES: Record<number, string> = {
	400: 'CONF-1000',
	401: 'CONF-1002',
	403: 'CONF-1003',
	404: 'CONF-1001',
	405: 'CONF-1005',
	429: 'CONF-1029',
	500: 'CONF-1500',
};

/** Allocation `code` per HTTP status when a caller gives none (the spec's code table). */
export const ALLOC_DEFAULT_CODES: Record<number, number> = {
	400: 5,
	401: 7,
	403: 8,
	404: 1,
	409: 18,
	429: 17,
	500: 0,
};

/** `code` of integrations (device status) errors; the spec shows none, so these are invented. */
export const INTEGRATIONS_ERROR_CODES: Record<number, string> = {
	400: 'INVALID_PARAMETERS',
	401: 'UNAUTHORIZED',
	403: 'FORBIDDEN',
	404: 'NOT_FOUND',
	405: 'METHOD_NOT_ALLOWED',
	429: 'RATE_LIMITED',
	500: 'INTERNAL_ERROR',
};

export interface ErrorDetails {
	/** API error code: v1 `Code`, v2 `error_data.code`, cms `errorCode`, alloc `code`, integrations `error.code`. */
	code?: number | string;
	/** v2 only: `error_data.message` (the short title); the message argument becomes `description`. */
	title?: string;
	/** HTTP method echoed by v2 envelopes. */
	method?: string;
	headers?: Record<string, string>;
}

/** An error answer in the envelope of the family `style`. */
export function apiError(style: ErrorStyle, status: number, message: string, details: ErrorDetails = {}): Reply {
	const { code, headers } = details;
	switch (style) {
		case 'v1': {
			// Status, Message, then Code when there is one: the order of the live service's recorded errors
			// (live-service.md) and of its documented 429 (service-facts.md)
			const exception: Record<string, unknown> = { Status: status, Message: message };
			if (code !== undefined) exception.Code = code;
			return json(status, { RestException: exception }, headers);
		}
		case 'v2': {
			const known = V2_ERROR_CODES[status];
			return json(
				status,
				{
					request_id: randomHex(32),
					method: (details.method ?? 'GET').toUpperCase(),
					http_code: status,
					response: {
						code: status,
						status: 'failure',
						error_data: {
							code: code ?? known?.code ?? 1000,
							message: details.title ?? known?.message ?? statusText(status),
							description: message,
						},
					},
				},
				headers,
			);
		}
		case 'cms':
			return json(
				status,
				{
					statusCode: status,
					status: statusText(status).toUpperCase().replace(/[^A-Z0-9]+/g, '_'),
					errorCode: code ?? CMS_ERROR_CODES[status] ?? `CONF-${status}`,
					errorMessage: message,
				},
				headers,
			);
		case 'alloc':
			return json(
				status,
				{ success: false, status, code: code ?? ALLOC_DEFAULT_CODES[status] ?? 0, message, data: null },
				headers,
			);
		case 'integrations':
			return json(
				status,
				{ success: false, error: { code: code ?? INTEGRATIONS_ERROR_CODES[status] ?? 'ERROR', message } },
				headers,
			);
		case 'cc':
			return json(status, { status: 'failure', message }, headers);
	}
}

/** The error family of a path: by base, and for the main and ccm bases by the version segment. */
export function errorStyleFor(base: SandboxBase, path: string): ErrorStyle {
	switch (base) {
		case 'cms':
			return 'cms';
		case 'integrations':
			return 'integrations';
		case 'cc':
			return 'cc';
		case 'alloc':
			return 'alloc';
		default:
			return /^\/v1(\/|$)/.test(path) ? 'v1' : 'v2';
	}
}

/** The 401 message each family uses. */
export function unauthorizedMessage(style: ErrorStyle): string {
	switch (style) {
		case 'v1':
			return 'Authentication is required to view this page.';
		case 'v2':
			return 'The API key and token (or bearer token) are missing or invalid, or do not belong to this account';
		case 'cms':
			return 'The bearer token is missing or invalid';
		case 'integrations':
			return 'The app token is missing, invalid or expired';
		case 'cc':
			return 'Session id is missing, expired or invalid; log in again';
		case 'alloc':
			return 'Authentication failed or not provided';
	}
}

/** Shorthand used by handlers: an error in the route's own family. */
export function fail(ctx: RequestContext, status: number, message: string, details: ErrorDetails = {}): Reply {
	return apiError(ctx.errorStyle, status, message, { method: ctx.request.method, ...details });
}
