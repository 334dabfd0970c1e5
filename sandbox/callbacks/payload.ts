/**
 * What every channel's payload builder uses: random ids, the service's date formats, and reading
 * the on-demand input (`{url?, payload?, signature?, format?, ...}`) of the control API.
 */
import { randomBytes } from 'crypto';

import { CallbackInputError, type CallbackKind, type DeliveryRequest } from './types';

export function hex(n: number): string {
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
export function v1Date(date: Date = new Date()): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The on-demand input as an object; anything else is refused. */
export function inputObject(input: unknown): Obj {
	if (!isObj(input)) throw new CallbackInputError('the body must be a JSON object');
	return input;
}

/** Shallow merge of a caller object over a default; anything else given replaces the default. */
export function overlay(defaults: unknown, given: unknown): unknown {
	if (given === undefined) return defaults;
	if (isObj(defaults) && isObj(given)) return { ...defaults, ...given };
	return given;
}

export function optString(input: Obj, key: string): string | undefined {
	const value = input[key];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || value === '') throw new CallbackInputError(`${key} must be a non-empty string`);
	return value;
}

/** `signature`: absent = the kind's default, null = no header, a string = that header value. */
export function signatureOption(input: Obj): string | null | undefined {
	const value = input.signature;
	if (value === undefined || value === null || typeof value === 'string') return value;
	throw new CallbackInputError('signature must be a string (the X-Service-Signature value) or null (no header)');
}

export function payloadOption(input: Obj): { body: string } | undefined {
	if (input.payload === undefined) return undefined;
	return { body: typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload) };
}

/** `format` ('form' or 'json', default `fallback`) and the content type it posts with. */
export function formatOption(input: Obj, fallback: 'form' | 'json'): { format: 'form' | 'json'; contentType: string } {
	const format = input.format ?? fallback;
	if (format !== 'form' && format !== 'json') throw new CallbackInputError("format must be 'form' or 'json'");
	return { format, contentType: format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded' };
}

/** `fields`: an object whose keys override the built fields (null removes one), each value converted by `convert`. */
export function applyFieldOverrides<T>(fields: Record<string, T>, overrides: unknown, convert: (value: unknown) => T): void {
	if (overrides === undefined) return;
	if (!isObj(overrides)) throw new CallbackInputError('fields must be an object');
	for (const [key, value] of Object.entries(overrides)) {
		if (value === null) delete fields[key];
		else fields[key] = convert(value);
	}
}

/** A callback posted as JSON (`payload` serialised), signed when the kind is by default. */
export function jsonPost(
	url: string,
	kind: CallbackKind,
	payload: unknown,
	signByDefault: boolean,
	more: Pick<DeliveryRequest, 'signature' | 'messageSid'> = {},
): DeliveryRequest {
	return { url, kind, body: JSON.stringify(payload), contentType: 'application/json', signByDefault, ...more };
}

/** A callback posted form-encoded, unsigned by default. */
export function formPost(
	url: string,
	kind: CallbackKind,
	fields: Record<string, string> | Array<[string, string]>,
	more: Pick<DeliveryRequest, 'signature' | 'messageSid'> = {},
): DeliveryRequest {
	return { url, kind, body: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded', signByDefault: false, ...more };
}

export function latest<T>(values: Iterable<T>, test: (value: T) => boolean): T | undefined {
	let found: T | undefined;
	for (const value of values) if (test(value)) found = value;
	return found;
}

const CALLBACK_KINDS: readonly CallbackKind[] = ['sms-status', 'rcs-dlr', 'chatapp-status', 'chatapp-incoming', 'chatapp-reply', 'rcs-incoming', 'click', 'custom', 'call-status'];

/**
 * Any body to any (loopback) URL (postCallback). Input: `{url, payload (object → JSON, string as is),
 * contentType? ('application/json'), kind? ('custom'), sign? (false), signature?}`.
 */
export function customCallbackRequest(raw: unknown): DeliveryRequest {
	const input = inputObject(raw);
	const url = optString(input, 'url');
	if (!url) throw new CallbackInputError('url is required');
	const custom = payloadOption(input);
	if (!custom) throw new CallbackInputError('payload is required');
	const kind = input.kind ?? 'custom';
	if (typeof kind !== 'string' || !CALLBACK_KINDS.includes(kind as CallbackKind)) {
		throw new CallbackInputError(`kind must be one of: ${CALLBACK_KINDS.join(', ')}`);
	}
	if (input.sign !== undefined && typeof input.sign !== 'boolean') throw new CallbackInputError('sign must be a boolean');
	return {
		url,
		kind: kind as CallbackKind,
		...custom,
		contentType: optString(input, 'contentType') ?? 'application/json',
		signByDefault: input.sign === true,
		signature: signatureOption(input),
	};
}
