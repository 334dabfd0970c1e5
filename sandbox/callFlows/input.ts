/**
 * The input of one call through a flow (playCallFlow, `POST /__sandbox/call-flow`):
 * `{flow, from, to, callSid?, customField?, press?, callees?, conversationSeconds?, budgetMs?,
 * repeatEachRequest?}`, checked; a CallFlowInputError names the bad field.
 */
import { randomHex } from '../http';
import { E164 } from './connect-answer';
import { parseFlow } from './flow';
import { CALLEE_BEHAVIOURS, CallFlowInputError, type CallFlowCall, type CalleeBehaviour } from './types';

/** The budget of each URL when the call gives none: the 5 s codebases give Connect and Gather URLs. */
export const DEFAULT_BUDGET_MS = 5000;

/** A conversation with a callee who answers, in simulated seconds, when the call gives none. */
export const DEFAULT_CONVERSATION_SECONDS = 30;

type Obj = Record<string, unknown>;

const INPUT_FIELDS = ['flow', 'from', 'to', 'callSid', 'customField', 'press', 'callees', 'conversationSeconds', 'budgetMs', 'repeatEachRequest'];

function fail(message: string): never {
	throw new CallFlowInputError(message);
}

function e164(input: Obj, key: string): string {
	const value = input[key];
	if (typeof value !== 'string' || !E164.test(value)) fail(`${key} must be an E.164 number like +919876543210 (got ${JSON.stringify(value) ?? 'nothing'})`);
	return value;
}

function optionalString(input: Obj, key: string): string | undefined {
	const value = input[key];
	if (value !== undefined && (typeof value !== 'string' || value === '')) fail(`${key} must be a non-empty string`);
	return value as string | undefined;
}

function integerIn(input: Obj, key: string, min: number, max: number, fallback: number): number {
	const value = input[key] ?? fallback;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(`${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
	return value;
}

function pressOf(value: unknown): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value)) fail('press must be an array of keypad strings, one per Gather (e.g. ["1", "1234#"])');
	value.forEach((entry, i) => {
		if (typeof entry !== 'string' || !/^[0-9*#]*$/.test(entry)) fail(`press[${i}] must be keys 0-9, * and # ('' presses nothing) (got ${JSON.stringify(entry)})`);
	});
	return [...(value as string[])];
}

function calleesOf(value: unknown): Record<string, CalleeBehaviour> {
	if (value === undefined) return {};
	if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`callees must be an object {<E.164 number>: ${CALLEE_BEHAVIOURS.join(' | ')}}`);
	const callees: Record<string, CalleeBehaviour> = {};
	for (const [number, behaviour] of Object.entries(value)) {
		if (!E164.test(number)) fail(`callees: '${number}' is not an E.164 number like +919812340001`);
		if (!(CALLEE_BEHAVIOURS as readonly unknown[]).includes(behaviour)) fail(`callees.${number} must be one of ${CALLEE_BEHAVIOURS.join(', ')} (got ${JSON.stringify(behaviour)})`);
		callees[number] = behaviour as CalleeBehaviour;
	}
	return callees;
}

export function parseCallInput(raw: unknown): CallFlowCall {
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('the call must be an object {flow, from, to, ...}');
	const input = raw as Obj;
	for (const key of Object.keys(input)) if (!INPUT_FIELDS.includes(key)) fail(`${key} is not an option of a call (its options: ${INPUT_FIELDS.join(', ')})`);
	if (input.flow === undefined) fail('flow is required: {start, applets}');
	const call: CallFlowCall = {
		flow: parseFlow(input.flow),
		callSid: optionalString(input, 'callSid') ?? randomHex(32),
		from: e164(input, 'from'),
		to: e164(input, 'to'),
		press: pressOf(input.press),
		callees: calleesOf(input.callees),
		budgetMs: integerIn(input, 'budgetMs', 1, 60_000, DEFAULT_BUDGET_MS),
		conversationSeconds: integerIn(input, 'conversationSeconds', 0, 86_400, DEFAULT_CONVERSATION_SECONDS),
		repeatEachRequest: input.repeatEachRequest === true,
	};
	if (input.repeatEachRequest !== undefined && typeof input.repeatEachRequest !== 'boolean') fail('repeatEachRequest must be true or false');
	const customField = optionalString(input, 'customField');
	if (customField !== undefined) call.customField = customField;
	return call;
}
