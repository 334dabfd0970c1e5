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
 *
 * A collection or fixedCollection qualifies too when its every leaf is a constant (a string not
 * starting with `=`, a number, a boolean, null) or a simple template: n8n gives a new copy of the
 * structure, same keys in the same order, with each expression evaluated and every other leaf as
 * it is; so does the fast path, or it leaves the whole parameter to n8n for that item.
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

/**
 * A parameter value as compiled for the fast path: a constant leaf (a string that is not an
 * expression, a number, a boolean or null), a simple template, or a plain object or array of them.
 */
type Compiled =
	| { kind: 'constant'; value: string | number | boolean | null }
	| { kind: 'template'; template: SimpleTemplate }
	| { kind: 'object'; entries: ReadonlyArray<readonly [string, Compiled]> }
	| { kind: 'array'; items: readonly Compiled[] };

export interface CompiledParameter {
	root: Compiled;
}

function compileValue(raw: unknown): Compiled | undefined {
	if (typeof raw === 'string') {
		if (!raw.startsWith('=')) return { kind: 'constant', value: raw };
		const template = compileTemplate(raw);
		return template && { kind: 'template', template };
	}
	if (typeof raw === 'number' || typeof raw === 'boolean' || raw === null) return { kind: 'constant', value: raw };
	if (Array.isArray(raw)) {
		if (Object.getPrototypeOf(raw) !== Array.prototype) return undefined;
		const items: Compiled[] = [];
		for (let index = 0; index < raw.length; index++) {
			// a hole, like undefined, is n8n's to decide
			const item = index in raw ? compileValue(raw[index]) : undefined;
			if (!item) return undefined;
			items.push(item);
		}
		return { kind: 'array', items };
	}
	if (!isPlainObject(raw)) return undefined;
	const entries: Array<readonly [string, Compiled]> = [];
	for (const [key, value] of Object.entries(raw)) {
		// n8n builds its copy with `copy[key] = value`, which for __proto__ sets the prototype
		const compiled = key === '__proto__' ? undefined : compileValue(value);
		if (!compiled) return undefined;
		entries.push([key, compiled]);
	}
	return { kind: 'object', entries };
}

function holdsTemplate(compiled: Compiled): boolean {
	if (compiled.kind === 'template') return true;
	if (compiled.kind === 'object') return compiled.entries.some(([, value]) => holdsTemplate(value));
	if (compiled.kind === 'array') return compiled.items.some(holdsTemplate);
	return false;
}

/**
 * The fast form of a raw parameter value: a simple template, or a plain object (a collection, a
 * fixedCollection) whose every leaf is a constant or a simple template; undefined when any part is
 * not provably simple, or when it holds no template at all (a constant, which n8n reads once).
 */
export function compileParameter(raw: unknown): CompiledParameter | undefined {
	if (typeof raw === 'string') {
		const template = compileTemplate(raw);
		return template && { root: { kind: 'template', template } };
	}
	if (!isPlainObject(raw)) return undefined;
	const root = compileValue(raw);
	return root && holdsTemplate(root) ? { root } : undefined;
}

function evaluateValue(compiled: Compiled, json: unknown): unknown {
	switch (compiled.kind) {
		case 'constant':
			return compiled.value;
		case 'template':
			return evaluateTemplate(compiled.template, json);
		case 'array': {
			const array: unknown[] = [];
			for (const item of compiled.items) {
				const value = evaluateValue(item, json);
				if (value === undefined) return undefined;
				array.push(value);
			}
			return array;
		}
		case 'object': {
			const object: Record<string, unknown> = {};
			for (const [key, item] of compiled.entries) {
				const value = evaluateValue(item, json);
				if (value === undefined) return undefined;
				object[key] = value;
			}
			return object;
		}
	}
}

/**
 * The parameter's value for one item's json, as n8n's getNodeParameter would give it: a new copy
 * of the structure with each template evaluated; undefined when any template's value is not
 * proven for this item (then n8n decides the whole parameter).
 */
export function evaluateParameter(compiled: CompiledParameter, json: unknown): unknown {
	return evaluateValue(compiled.root, json);
}
