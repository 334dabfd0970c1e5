// Readers of untyped values: an object or undefined, phone numbers compared and listed as written.
import type { IDataObject } from 'n8n-workflow';

/** A value as an object, or undefined when it is not one (absent, null, a list, text). */
export function objectOf(value: unknown): IDataObject | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

/** Digits of a number, for comparing numbers written with or without +, spaces or dashes. */
export function sameNumber(a: unknown, b: unknown): boolean {
	const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');
	const left = digits(a);
	return left.length > 0 && left === digits(b);
}

/** The numbers of a comma-, semicolon- or line-separated list, as written. */
export function numbersIn(text: unknown): string[] {
	return String(text ?? '')
		.split(/[,;\n]+/)
		.map((entry) => entry.trim())
		.filter(Boolean);
}
