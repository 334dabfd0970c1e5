// DLT pre-flight: an Indian SMS is matched by the operators against its registered content template
// (static text character for character, each `{#var#}` at most 30 characters) after it was sent and
// paid for. This checks a message against the template text the user gives, before any request.
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { characterCount } from '../shared/rules/validation';
/** A DLT variable as templates are registered with it, and the most characters its value may have. */
const VARIABLE = '{#var#}';
export const VARIABLE_LENGTH = 30;
/** Other placeholders DLT platforms know (`{#numeric#}`, `{#url#}`, ...): variables whose length is not checked here. */
const PLACEHOLDER = /\{#[a-z]+#\}/g;

/** A template split at its placeholders: the static text around them, and which are `{#var#}`. */
export interface CompiledTemplate {
	text: string;
	/** Static segments: one more than the variables. */
	segments: string[];
	/** Where each segment starts in the template text. */
	starts: number[];
	/** Per variable: whether DLT's 30-character rule applies (`{#var#}`). */
	bounded: boolean[];
}

export function compileTemplate(text: string): CompiledTemplate {
	const segments: string[] = [];
	const starts: number[] = [];
	const bounded: boolean[] = [];
	let from = 0;
	for (const match of text.matchAll(PLACEHOLDER)) {
		segments.push(text.slice(from, match.index));
		starts.push(from);
		bounded.push(match[0] === VARIABLE);
		from = match.index + match[0].length;
	}
	segments.push(text.slice(from));
	starts.push(from);
	return { text, segments, starts, bounded };
}

/** Where the text first differs from the template's static text (string indexes), or where one of them ends. */
export interface TextDifference {
	kind: 'text';
	/** Index in the body, and in the template, of the first character that differs. */
	bodyIndex: number;
	templateIndex: number;
	/** Where the static text it is in starts in the template (what lies before is a variable's). */
	segmentStart: number;
}

/** A variable longer than DLT allows, in the one split of the text the static text allows. */
export interface LengthDifference {
	kind: 'variableLength';
	/** 1-based, as a person counts the template's variables. */
	variable: number;
	length: number;
	value: string;
}

export type DltMatch = { matches: true; variables: string[] } | { matches: false; variables: string[]; difference: TextDifference | LengthDifference };

const commonPrefix = (template: string, t: number, end: number, body: string, b: number) => {
	let n = 0;
	while (t + n < end && b + n < body.length && template.charCodeAt(t + n) === body.charCodeAt(b + n)) n++;
	return n;
};

/**
 * Matches `body` against a compiled template. The static text must be the template's exactly; each
 * variable takes what lies between. Variables are first split at the earliest place the following
 * static text occurs (one pass, linear in the body); only when that split leaves a `{#var#}` over
 * 30 characters are the other splits tried, each variable's end at most 30 characters on
 * (`shortened`: URLs count as the short links the service puts in their place).
 */
export function matchTemplate(template: CompiledTemplate, body: string, shortened = false): DltMatch {
	const { segments, text } = template;
	const last = segments.length - 1;
	const first = segments[0];
	const head = commonPrefix(text, 0, first.length, body, 0);
	if (head < first.length || (last === 0 && body.length !== first.length)) {
		return { matches: false, variables: [], difference: { kind: 'text', bodyIndex: head, templateIndex: head, segmentStart: 0 } };
	}
	// the earliest split: each variable ends where the next static text first occurs
	const variables: string[] = [];
	let at = first.length;
	for (let i = 1; i <= last; i++) {
		const segment = segments[i];
		const found = i === last ? lastSegmentAt(body, segment, at) : body.indexOf(segment, at);
		if (found === -1) return { matches: false, variables, difference: closest(template, i, body, at) };
		variables.push(body.slice(at, found));
		at = found + segment.length;
	}
	const tooLong = variables.findIndex((value, i) => template.bounded[i] && lengthOf(value, shortened) > VARIABLE_LENGTH);
	if (tooLong === -1) return { matches: true, variables };
	const bounded = boundedSplit(template, body, shortened);
	if (bounded) return { matches: true, variables: bounded };
	return {
		matches: false,
		variables,
		difference: { kind: 'variableLength', variable: tooLong + 1, length: characterCount(variables[tooLong]), value: variables[tooLong] },
	};
}

/** Where the last static text sits: at the end of the body, not before `from`. */
function lastSegmentAt(body: string, segment: string, from: number): number {
	const at = body.length - segment.length;
	return at >= from && body.endsWith(segment) ? at : -1;
}

const LINK = /^https?:\/\/\S+$/;

/** A variable's length as the operator sees it: a URL the service shortens is a short link. */
function lengthOf(value: string, shortened: boolean): number {
	if (shortened && LINK.test(value.trim())) return 0;
	// no more string indexes than the limit: no more characters either
	return value.length <= VARIABLE_LENGTH ? value.length : characterCount(value);
}

/**
 * Where the text parts from segment `i`, which occurs nowhere after `from`: the place after `from`
 * where most of the segment's text agrees (the earliest of equals), and the first character after it.
 */
function closest(template: CompiledTemplate, i: number, body: string, from: number): TextDifference {
	const { segments, starts, text } = template;
	const start = starts[i];
	const end = start + segments[i].length;
	let best = { bodyIndex: from, length: -1 };
	for (let b = from; b <= body.length; b++) {
		const length = commonPrefix(text, start, end, body, b);
		if (length > best.length) best = { bodyIndex: b, length };
		if (length === segments[i].length) break;
	}
	// the whole segment agrees but the body goes on after the template's last text
	return { kind: 'text', bodyIndex: best.bodyIndex + best.length, templateIndex: start + best.length, segmentStart: start };
}

/**
 * The split that keeps every `{#var#}` within 30 characters, if there is one: the body positions
 * each static text can end at, variable by variable (at most 31 candidates a variable from each).
 */
function boundedSplit(template: CompiledTemplate, body: string, shortened: boolean): string[] | undefined {
	const { segments, bounded } = template;
	const last = segments.length - 1;
	// reached: body position after segment i → the position the variable before it started at
	let reached = new Map<number, number>([[segments[0].length, -1]]);
	const trail: Array<Map<number, number>> = [reached];
	for (let i = 1; i <= last; i++) {
		const segment = segments[i];
		const next = new Map<number, number>();
		for (const from of reached.keys()) {
			// a value of 30 characters takes at most 60 string indexes (two for a character beyond the BMP)
			const limit = bounded[i - 1] && !shortened ? from + VARIABLE_LENGTH * 2 : body.length;
			for (let end = from; end <= Math.min(limit, body.length); end++) {
				if (next.has(end + segment.length)) continue;
				if (!body.startsWith(segment, end)) continue;
				if (bounded[i - 1] && lengthOf(body.slice(from, end), shortened) > VARIABLE_LENGTH) continue;
				if (i === last && end + segment.length !== body.length) continue;
				next.set(end + segment.length, from);
			}
		}
		if (next.size === 0) return undefined;
		trail.push(next);
		reached = next;
	}
	// walk back from the end of the body
	const variables: string[] = [];
	let position = body.length;
	for (let i = last; i >= 1; i--) {
		const from = trail[i].get(position)!;
		variables.unshift(body.slice(from, position - segments[i].length));
		position = from;
	}
	return variables;
}

/** Where a word starts before string index `at` (back to a space, at most 12 characters, not before `from`). */
function wordStart(text: string, at: number, from: number): number {
	let start = at;
	while (start > from && at - start < 12 && !/\s/.test(text[start - 1])) start--;
	return start;
}

/** Up to 20 characters of text from `at`, quoted (line breaks shown as \n). */
const quoted = (text: string, at: number) => JSON.stringify(text.slice(at, at + 20));

/**
 * The problem a mismatch is, in words: where the text parts from the template and what each has
 * there (the word it happens in), or which variable is too long. `label` names the text ("Body",
 * "Fallback Text").
 */
export function dltProblem(match: Extract<DltMatch, { matches: false }>, template: CompiledTemplate, body: string, label: string): string {
	const { difference } = match;
	if (difference.kind === 'variableLength') {
		const which = `ariable ${difference.variable} is ${difference.length} characters; DLT allows ${VARIABLE_LENGTH}`;
		return label === 'Body' ? `V${which}` : `${label}: v${which}`;
	}
	const { bodyIndex, templateIndex, segmentStart } = difference;
	const noun = label === 'Body' ? 'the body' : `the ${label.toLowerCase()}`;
	const at = `${label} differs from the DLT template at character ${characterCount(body.slice(0, bodyIndex)) + 1}`;
	if (bodyIndex >= body.length) return `${at}: the template goes on with ${quoted(template.text, templateIndex)} and ${noun} ends`;
	if (templateIndex >= template.text.length) return `${at}: the template ends and ${noun} goes on with ${quoted(body, bodyIndex)}`;
	const back = templateIndex - wordStart(template.text, templateIndex, segmentStart);
	const rest = template.text.slice(templateIndex).search(/\s/);
	const wordLength = rest === -1 ? template.text.length - templateIndex : Math.max(1, rest);
	const length = back + Math.min(12, wordLength);
	const start = templateIndex - back;
	const excerpt = (text: string, from: number) => JSON.stringify(text.slice(from, from + length));
	return `${at}: the template has ${excerpt(template.text, start)} and ${noun} ${excerpt(body, bodyIndex - back)}`;
}

/** Templates compiled once per distinct text, for one run of a node. */
export function dltTemplates(): (text: string) => CompiledTemplate {
	const compiled = new Map<string, CompiledTemplate>();
	return (text) => {
		let template = compiled.get(text);
		if (!template) {
			template = compileTemplate(text);
			compiled.set(text, template);
		}
		return template;
	};
}

/** DLT Template Text, an Options entry of every SMS send; `more` words it for one of them. */
export function dltTemplateTextField(more: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'DLT Template Text',
		name: 'dltTemplateText',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'Dear {#var#}, your order {#var#} has shipped. - Acme',
		description:
			'The content template as registered on the DLT platform, with {#var#} for each variable. Each message is checked against it before anything is sent: one that differs, or has a variable over 30 characters, fails and is not sent.',
		...more,
	};
}

/**
 * The failure of an item whose `text` does not match its DLT Template Text (`templateText`; not set:
 * no check), or undefined. `shortened`: the service shortens the text's URLs before it goes out.
 */
export function dltRefusal(
	node: INode,
	itemIndex: number,
	text: string,
	templateText: unknown,
	check: { templates: (text: string) => CompiledTemplate; shortened: boolean; label: string },
): NodeOperationError | undefined {
	if (typeof templateText !== 'string' || templateText.trim() === '') return undefined;
	const template = check.templates(templateText);
	const match = matchTemplate(template, text, check.shortened);
	if (match.matches) return undefined;
	return new NodeOperationError(node, `${dltProblem(match, template, text, check.label)} (item ${itemIndex})`, {
		itemIndex,
		description:
			'Nothing was sent for this item: the operators would reject it after it was sent and paid for. Make the text match the DLT template (its static text exactly, each variable at most 30 characters), or correct DLT Template Text.',
	});
}
