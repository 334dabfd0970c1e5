/**
 * A fast path for the commonest per-item expressions, `={{ $json.phone }}` and
 * `=Hi {{ $json.name }}`: n8n evaluates each one per item through a WorkflowDataProxy and its
 * expression engine (about 100 µs an item), which costs more than sending the message. A parameter
 * that provably only reads `$json` properties is compiled once here and looked up per item; any
 * value whose conversion is not known to match n8n's is left to n8n (the caller falls back).
 *
 * Simple: `=` then literal text and `{{ path }}` segments, where path is `$json` followed by one
 * or more `.name` (name `[A-Za-z_$][\w$]*`) or `["key"]` / `['key']` steps, with optional
 * whitespace around it. Not simple: anything else, and any backslash, `}}` in the text, `.constructor`
 * anywhere (n8n rejects it even in text), keys n8n blocks or that name `Object.prototype` members.
 */

/** Steps from an item's json to a value, e.g. ['order', 'id'] for `$json.order.id`. */
type Path = readonly string[];

export interface SimpleTemplate {
	/** Literal text and the paths between it, in order. */
	parts: ReadonlyArray<string | Path>;
	/** `={{ path }}` alone: n8n gives the value itself, not text. */
	whole: boolean;
}

const WS = '[ \\t\\n\\r]*';
const STEP = `\\.[A-Za-z_$][\\w$]*|\\[(?:"[^"\\\\{}\\u0000-\\u001f\\u2028\\u2029]*"|'[^'\\\\{}\\u0000-\\u001f\\u2028\\u2029]*')\\]`;
const PATH = new RegExp(`^${WS}\\$json((?:${STEP})+)${WS}$`);
const STEPS = new RegExp(STEP, 'g');

/** Names n8n's expression sandbox refuses (n8n-workflow's isSafeObjectProperty), plus `$`. */
const BLOCKED = Object.freeze([
	'__proto__',
	'prototype',
	'constructor',
	'getPrototypeOf',
	'mainModule',
	'binding',
	'_load',
	'prepareStackTrace',
	'__lookupGetter__',
	'__lookupSetter__',
	'__defineGetter__',
	'__defineSetter__',
	'$',
]);

function pathOf(code: string): Path | undefined {
	const match = PATH.exec(code);
	if (!match) return undefined;
	const keys = (match[1].match(STEPS) ?? []).map((step) => (step.startsWith('.') ? step.slice(1) : step.slice(2, -2)));
	const risky = keys.some((key) => BLOCKED.includes(key) || key in Object.prototype);
	return risky ? undefined : keys;
}

/** The template of a raw parameter value, or undefined when it is not provably simple. */
export function compileTemplate(raw: unknown): SimpleTemplate | undefined {
	if (typeof raw !== 'string' || !raw.startsWith('=') || raw.length === 1) return undefined;
	if (raw.includes('\\') || /\.\s*constructor/.test(raw)) return undefined;
	const parts: Array<string | Path> = [];
	let position = 1;
	while (position < raw.length) {
		const open = raw.indexOf('{{', position);
		const text = raw.slice(position, open === -1 ? undefined : open);
		if (text.includes('}}')) return undefined;
		if (text) parts.push(text);
		if (open === -1) break;
		const close = raw.indexOf('}}', open + 2);
		const path = close === -1 ? undefined : pathOf(raw.slice(open + 2, close));
		if (!path) return undefined;
		parts.push(path);
		position = close + 2;
	}
	return { parts, whole: parts.length === 1 && typeof parts[0] !== 'string' };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

/** A string, finite number or boolean at the path; undefined for anything else. */
function lookup(json: unknown, path: Path): string | number | boolean | undefined {
	let value = json;
	for (const key of path) {
		if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
		value = value[key];
	}
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	return undefined;
}

/**
 * The template's value for one item's json, as n8n would give it; undefined when that is not
 * proven (a missing value, null, an object, ...): ask n8n for that item.
 */
export function evaluateTemplate(template: SimpleTemplate, json: unknown): string | number | boolean | undefined {
	if (template.whole) return lookup(json, template.parts[0] as Path);
	let text = '';
	for (const part of template.parts) {
		if (typeof part === 'string') {
			text += part;
		} else {
			const value = lookup(json, part);
			if (value === undefined) return undefined;
			text += String(value);
		}
	}
	return text;
}
