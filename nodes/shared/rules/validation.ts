import type { INode, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** One field's rule: every check the spec's tables ask of a value. */
export interface FieldRule {
	/** Name shown to the user, as the node labels it. */
	label: string;
	required?: boolean;
	maxLength?: number;
	minLength?: number;
	min?: number;
	max?: number;
	integer?: boolean;
	maxItems?: number;
	oneOf?: readonly string[];
	/** The options of the field's dropdown: an expression in it can yield anything, the value must be one of theirs. */
	choices?: readonly INodePropertyOptions[];
	/** `e164` (+ and 8 to 15 digits) or `phone` (digits with optional +, as SMS recipients are given). */
	format?: 'e164' | 'phone' | 'url';
	/** A shape the value must have, and how to describe it ("a number followed by d, m or s"). */
	pattern?: { regex: RegExp; shape: string };
}

/** The values of a parameter's options: all an expression in that parameter may yield. */
export function valuesOf(options: readonly INodePropertyOptions[]): string[] {
	return options.map((option) => String(option.value));
}

/** A number in E.164: `+`, a country code, at most 15 digits. */
export const E164 = /^\+[1-9]\d{7,14}$/;
const PHONE = /^\+?\d{6,15}$/;

/** A parameter or answer value as trimmed text; absent (undefined, null) is ''. */
export function trimmed(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

/** Spaces, dashes, dots and parentheses are how people write numbers; the API wants digits. */
export function normalizePhone(value: string): string {
	return value.replace(/[\s\-().]/g, '');
}

/**
 * Characters as the spec's limits count them: Unicode code points, not UTF-16 units (`.length`
 * counts an emoji as 2, so a 2,000-character body ending in one would be refused as 2001).
 */
export function characterCount(text: string): number {
	// code points without building an array: a pair of string indexes is one character
	let count = text.length;
	for (let i = 0; i < text.length - 1; i++) {
		const code = text.charCodeAt(i);
		const next = text.charCodeAt(i + 1);
		// a lone half counts as a character of its own, as [...text] counts it
		if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
			count--;
			i++;
		}
	}
	return count;
}

/** Returns the first problem with the value, in words that name the field and the limit. */
export function problemWith(value: unknown, rule: FieldRule): string | undefined {
	const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
	if (empty) return rule.required ? `${rule.label} is required` : undefined;
	if (Array.isArray(value)) {
		if (rule.maxItems !== undefined && value.length > rule.maxItems) {
			return `${rule.label} has ${value.length} entries; the limit is ${rule.maxItems}`;
		}
		for (const [index, entry] of value.entries()) {
			const problem = problemWith(entry, { ...rule, label: `${rule.label} [${index}]`, maxItems: undefined, required: false });
			if (problem) return problem;
		}
		return undefined;
	}
	if (typeof value === 'number' || rule.min !== undefined || rule.max !== undefined || rule.integer) {
		const number = typeof value === 'number' ? value : Number(value);
		if (rule.min !== undefined || rule.max !== undefined || rule.integer) {
			if (!Number.isFinite(number)) return `${rule.label} must be a number (got "${String(value)}")`;
			if (rule.integer && !Number.isInteger(number)) return `${rule.label} must be a whole number (got ${number})`;
			if (rule.min !== undefined && number < rule.min) return `${rule.label} is ${number}; the minimum is ${rule.min}`;
			if (rule.max !== undefined && number > rule.max) return `${rule.label} is ${number}; the maximum is ${rule.max}`;
			return undefined;
		}
	}
	const text = String(value);
	if (rule.maxLength !== undefined || rule.minLength !== undefined) {
		const length = characterCount(text);
		if (rule.maxLength !== undefined && length > rule.maxLength) {
			return `${rule.label} is ${length} characters; the limit is ${rule.maxLength}`;
		}
		if (rule.minLength !== undefined && length < rule.minLength) {
			return `${rule.label} is ${length} characters; it needs at least ${rule.minLength}`;
		}
	}
	const oneOf = rule.oneOf ?? (rule.choices && valuesOf(rule.choices));
	if (oneOf && !oneOf.includes(text)) {
		return `${rule.label} must be one of ${oneOf.join(', ')} (got "${text}")`;
	}
	if (rule.format === 'e164' && !E164.test(normalizePhone(text))) {
		return `${rule.label} must be an E.164 number such as +919876543210 (got "${text}")`;
	}
	if (rule.format === 'phone' && !PHONE.test(normalizePhone(text))) {
		return `${rule.label} must be a phone number such as +919876543210 (got "${text}")`;
	}
	if (rule.pattern && !rule.pattern.regex.test(text)) {
		return `${rule.label} must be ${rule.pattern.shape} (got "${text}")`;
	}
	if (rule.format === 'url' && !/^https?:\/\/\S+$/i.test(text)) {
		return `${rule.label} must be an http(s) URL (got "${text}")`;
	}
	return undefined;
}

export type FieldCheck = [value: unknown, rule: FieldRule];

/** A problem found before sending, as an error that names the item. */
export function itemError(node: INode, itemIndex: number, problem: string): NodeOperationError {
	return new NodeOperationError(node, `${problem} (item ${itemIndex})`, {
		itemIndex,
		description: 'Nothing was sent for this item. Fix the value, or set the node to continue on error to skip it.',
	});
}

/** The first problem among a set of checks, in the words of `problemWith`. */
export function firstProblem(checks: FieldCheck[]): string | undefined {
	for (const [value, rule] of checks) {
		const problem = problemWith(value, rule);
		if (problem) return problem;
	}
	return undefined;
}

/** The first problem among a set of fields of one item, as an error that names the item. */
export function fieldsError(node: INode, itemIndex: number, checks: FieldCheck[]): NodeOperationError | undefined {
	const problem = firstProblem(checks);
	return problem ? itemError(node, itemIndex, problem) : undefined;
}

const SERVICE_DATE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * `YYYY-MM-DD[ HH:MM:SS]`, the v1 service's wall-clock dates (no zone), as a UTC instant so that
 * month arithmetic on it is plain calendar arithmetic. Undefined when the text is not such a date.
 */
export function parseServiceDate(text: string): number | undefined {
	const m = SERVICE_DATE.exec(text);
	if (!m) return undefined;
	const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
	return Number.isNaN(ms) ? undefined : ms;
}

export function formatServiceDate(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in ms (throws a RangeError for an unknown zone). */
export function zoneOffsetMs(zone: string, instant: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
	const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return wall - Math.floor(instant / 1000) * 1000;
}

const N8N_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An n8n date (ISO text with a zone, or a wall-clock time in the workflow's `workflowZone`) as the
 * service's `YYYY-MM-DD HH:MM:SS` wall clock in `zone`; undefined when the text is no such date.
 */
export function serviceDateInZone(value: string, workflowZone: string, zone: string): string | undefined {
	const m = N8N_DATE.exec(value.trim());
	if (!m) return undefined;
	const wall = parseServiceDate(`${m[1]} ${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}`);
	if (wall === undefined) return undefined;
	let instant: number;
	if (m[5]) instant = Date.parse(`${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}${m[5].toUpperCase() === 'Z' ? 'Z' : m[5].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`);
	else {
		// Twice, so that a wall clock on the far side of a daylight-saving change lands on its own offset.
		const guess = wall - zoneOffsetMs(workflowZone, wall);
		instant = wall - zoneOffsetMs(workflowZone, guess);
	}
	if (Number.isNaN(instant)) return undefined;
	return formatServiceDate(instant + zoneOffsetMs(zone, instant));
}

/** Whether `zone` is a time zone this runtime knows (an IANA name such as Asia/Kolkata). */
export function isTimeZone(zone: string): boolean {
	try {
		zoneOffsetMs(zone, 0);
		return true;
	} catch {
		return false;
	}
}

/** The same wall-clock time `months` calendar months later (earlier if negative), kept inside the month: Jan 31 + 1 = Feb 28. */
export function addMonths(ms: number, months: number): number {
	const date = new Date(ms);
	const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
	target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
	return target.getTime() + (ms - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** A history window the service answers for: how far back a bound may reach, how long one request's range may be. */
export interface DateWindowRule {
	fromLabel: string;
	toLabel: string;
	historyMonths: number;
	spanMonths: number;
}

/**
 * The first problem with a date range against a history window, in words naming the field and the
 * limit. `spanAllowed` skips the span check (the caller splits a longer range into windows itself).
 * Bounds that are not service dates are left to the service to judge.
 */
export function dateWindowProblem(
	from: number | undefined,
	to: number | undefined,
	rule: DateWindowRule,
	now: number,
	spanAllowed = false,
): string | undefined {
	const oldest = addMonths(now, -rule.historyMonths);
	for (const [label, bound] of [[rule.fromLabel, from], [rule.toLabel, to]] as const) {
		if (bound !== undefined && bound < oldest) {
			return `${label} is ${formatServiceDate(bound)}; the service keeps ${rule.historyMonths} months of history (nothing before ${formatServiceDate(oldest)})`;
		}
	}
	if (from === undefined || to === undefined) return undefined;
	if (to < from) return `${rule.toLabel} (${formatServiceDate(to)}) is before ${rule.fromLabel} (${formatServiceDate(from)})`;
	if (!spanAllowed && to > addMonths(from, rule.spanMonths)) {
		const days = Math.ceil((to - from) / 86_400_000);
		return `${rule.fromLabel} to ${rule.toLabel} spans ${days} days; the limit is ${rule.spanMonths} month${rule.spanMonths === 1 ? '' : 's'} per request (turn on Return All to fetch a longer range month by month)`;
	}
	return undefined;
}

/** Splits `[from, to]` (inclusive, whole seconds) into consecutive ranges of at most `months` each, oldest first. */
export function monthWindows(from: number, to: number, months: number): Array<[number, number]> {
	const windows: Array<[number, number]> = [];
	for (let start = from; start <= to; ) {
		const next = addMonths(start, months);
		windows.push([start, Math.min(next - 1000, to)]);
		start = next;
	}
	return windows;
}
