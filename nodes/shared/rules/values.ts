// Readers of untyped values: an object or undefined, phone numbers compared and listed as written.
import type { IDataObject } from 'n8n-workflow';

/** A value as an object, or undefined when it is not one (absent, null, a list, text). */
export function objectOf(value: unknown): IDataObject | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

/**
 * Whether two numbers are one, written with or without +, spaces or dashes, or one of them in the
 * national form the live service answers with (`08884733565` for `+918884733565`: the trunk 0 for
 * a country code of one to three digits).
 */
export function sameNumber(a: unknown, b: unknown): boolean {
	const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
	const left = digits(a);
	const right = digits(b);
	if (left.length === 0 || right.length === 0) return false;
	if (left === right) return true;
	const [national, international] = left.startsWith('0') ? [left, right] : [right, left];
	if (!national.startsWith('0') || national.startsWith('00') || international.startsWith('0')) return false;
	const significant = national.slice(1);
	const countryCode = international.length - significant.length;
	return significant.length >= 6 && countryCode >= 1 && countryCode <= 3 && international.endsWith(significant);
}

/** The numbers of a comma-, semicolon- or line-separated list, as written. */
export function numbersIn(text: unknown): string[] {
	return String(text ?? '')
		.split(/[,;\n]+/)
		.map((entry) => entry.trim())
		.filter(Boolean);
}

/** An object's own fields less the named ones, in their order (the fields a request or an item does not take). */
export function withoutKeys(object: IDataObject, keys: readonly string[]): IDataObject {
	return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}
