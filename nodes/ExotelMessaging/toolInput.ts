// The input of the tool an AI agent wants to run, readable on a phone: n8n's human-review tool writes
// `{{ $tool.parameters }}` into the approval message, and an object inside a text expression reads
// "[object Object]". Each parameter goes on its own line instead, within the message's limit.
import type { IExecuteFunctions } from 'n8n-workflow';

import { characterCount } from '../shared/rules/validation';

/** `{{ $tool.parameters }}` as a whole interpolation: n8n's default message and any text that embeds it. */
const WHOLE_INPUT = /\{\{\s*\$tool\.parameters\s*\}\}/g;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function valueText(value: unknown): string {
	if (typeof value === 'string') return value;
	if (value === undefined) return '';
	if (value !== null && typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

/**
 * The input as lines (`orderId: ORD-1001`; nested values as compact JSON), at most `room` characters:
 * longer input is cut at a line where it can be, and says how much was left out.
 */
export function readableToolInput(parameters: unknown, room: number): string {
	const text = isObject(parameters) ? Object.entries(parameters).map(([key, value]) => `${key}: ${valueText(value)}`).join('\n') : valueText(parameters);
	const characters = Array.from(text);
	if (characters.length <= room) return text;
	const marker = (left: number) => `… (${left} more characters of the input not shown)`;
	let keep = Math.max(0, room - marker(characters.length).length - 1);
	const lineEnd = characters.lastIndexOf('\n', keep);
	// cut at the end of a line when that keeps at least half of what fits
	if (lineEnd > keep / 2) keep = lineEnd;
	return `${characters.slice(0, keep).join('')}\n${marker(characters.length - keep)}`;
}

/**
 * The approval message as the person should read it. Where the message (n8n's default, or the
 * user's own text) interpolates `{{ $tool.parameters }}` whole and the node runs as a human-review
 * tool, the input is written as lines fitting `limit` with the rest of the message; otherwise the
 * message as n8n evaluates it, untouched.
 */
export function approvalMessage(context: IExecuteFunctions, limit: number): string {
	const raw = context.getNode().parameters.message;
	const evaluated = String(context.getNodeParameter('message', 0, ''));
	if (typeof raw !== 'string' || !raw.startsWith('=') || raw.match(WHOLE_INPUT) === null) return evaluated;
	let parameters: unknown;
	try {
		// evaluateExpression adds the leading = itself
		parameters = context.evaluateExpression('{{ $tool.parameters }}', 0);
	} catch {
		return evaluated;
	}
	if (parameters === undefined || parameters === null || typeof parameters === 'string') return evaluated;
	const places = raw.match(WHOLE_INPUT)!.length;
	// a string literal in the expression, its braces escaped so that a `}}` in the input cannot end it
	const literal = (input: string) => JSON.stringify(input).replace(/[{}]/g, (brace) => `\\u${brace.charCodeAt(0).toString(16).padStart(4, '0')}`);
	const withInput = (input: string) => String(context.evaluateExpression(raw.slice(1).replace(WHOLE_INPUT, () => `{{ ${literal(input)} }}`), 0));
	const room = Math.floor((limit - characterCount(withInput(''))) / places);
	return withInput(readableToolInput(parameters, Math.max(room, 0)));
}
