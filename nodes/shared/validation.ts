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
	/** `e164` (+ and 8 to 15 digits) or `phone` (digits with optional +, as SMS recipients are given). */
	format?: 'e164' | 'phone' | 'url';
	/** A shape the value must have, and how to describe it ("a number followed by d, m or s"). */
	pattern?: { regex: RegExp; shape: string };
}

/** The values of a parameter's options: all an expression in that parameter may yield. */
export function valuesOf(options: readonly INodePropertyOptions[]): string[] {
	return options.map((option) => String(option.value));
}

const E164 = /^\+[1-9]\d{7,14}$/;
const PHONE = /^\+?\d{6,15}$/;

/** Spaces, dashes, dots and parentheses are how people write numbers; the API wants digits. */
export function normalizePhone(value: string): string {
	return value.replace(/[\s\-().]/g, '');
}

/**
 * Characters as the spec's limits count them: Unicode code points, not UTF-16 units (`.length`
 * counts an emoji as 2, so a 2,000-character body ending in one would be refused as 2001).
 */
export function characterCount(text: string): number {
	return [...text].length;
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
	if (rule.oneOf && !rule.oneOf.includes(text)) {
		return `${rule.label} must be one of ${rule.oneOf.join(', ')} (got "${text}")`;
	}
	if (rule.format === 'e164' && !E164.test(text)) {
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

/** The first problem among a set of fields of one item, as an error that names the item. */
export function fieldsError(node: INode, itemIndex: number, checks: FieldCheck[]): NodeOperationError | undefined {
	for (const [value, rule] of checks) {
		const problem = problemWith(value, rule);
		if (problem) {
			return new NodeOperationError(node, `${problem} (item ${itemIndex})`, {
				itemIndex,
				description: 'Nothing was sent for this item. Fix the value, or set the node to continue on error to skip it.',
			});
		}
	}
	return undefined;
}
