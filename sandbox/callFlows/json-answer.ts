/**
 * Reading a JSON answer (programmable Connect, Gather): a 200 `application/json` object whose fields
 * are each checked against a table; a field not in the table, or one that fails its check, makes the
 * whole answer invalid, named in the reason (`invalid: max_ringing_duration must be ...`).
 */
import type { UrlAnswer } from './requests';

/** Why `value` (the field `name`) is not acceptable, or undefined when it is. */
export type FieldCheck = (value: unknown, name: string) => string | undefined;

type Obj = Record<string, unknown>;

const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

export const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export const booleanField: FieldCheck = (value, name) => (typeof value === 'boolean' ? undefined : `${name} must be true or false (got ${shown(value)})`);

export function integerField(min: number, max?: number): FieldCheck {
	return (value, name) => {
		const fits = typeof value === 'number' && Number.isInteger(value) && value >= min && (max === undefined || value <= max);
		if (fits) return undefined;
		return `${name} must be an integer ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`} (got ${shown(value)})`;
	};
}

export function oneOfField(values: readonly string[]): FieldCheck {
	return (value, name) =>
		typeof value === 'string' && values.includes(value) ? undefined : `${name} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')} (got ${shown(value)})`;
}

export const stringField: FieldCheck = (value, name) => (typeof value === 'string' && value !== '' ? undefined : `${name} must be a non-empty string (got ${shown(value)})`);

export const urlField: FieldCheck = (value, name) =>
	typeof value === 'string' && /^https?:\/\/\S+$/i.test(value) ? undefined : `${name} must be an http(s) URL (got ${shown(value)})`;

/** An object with only the fields of `table`, those of `required` present, each passing its check. */
export function objectField(table: Record<string, FieldCheck>, required: readonly string[] = []): FieldCheck {
	return (value, name) => {
		const prefix = name ? `${name}.` : '';
		if (!isObject(value)) return `${name || 'the body'} must be a JSON object (got ${shown(value)})`;
		for (const key of Object.keys(value)) {
			if (!Object.prototype.hasOwnProperty.call(table, key)) return `unknown field ${prefix}${key} (known: ${Object.keys(table).join(', ')})`;
		}
		for (const key of required) if (value[key] === undefined) return `${prefix}${key} is required`;
		for (const [key, check] of Object.entries(table)) {
			if (value[key] === undefined) continue;
			const problem = check(value[key], `${prefix}${key}`);
			if (problem) return problem;
		}
		return undefined;
	};
}

/** A 200 `application/json` object passing `check`, else why not ('status 404', 'invalid: ...'). */
export function jsonAnswer(answer: UrlAnswer, check: FieldCheck): { value: Obj } | { fail: string } {
	if (answer.status !== 200) return { fail: `status ${answer.status}` };
	if (answer.mediaType !== 'application/json') return { fail: `invalid: content type ${answer.contentType ?? '(none)'}, not application/json` };
	let value: unknown;
	try {
		value = JSON.parse(answer.body);
	} catch {
		return { fail: 'invalid: body is not JSON' };
	}
	const problem = check(value, '');
	return problem ? { fail: `invalid: ${problem}` } : { value: value as Obj };
}
