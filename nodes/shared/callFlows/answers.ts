// What each call-flow applet accepts as the answer to its request, built exactly and checked before it is sent.
import type { INodePropertyOptions } from 'n8n-workflow';

import { E164 } from '../rules/validation';

/** The applets that fetch a customer's URL during a call, each with a URL of its own. */
export const APPLETS = ['passthru', 'connect', 'gather', 'greeting'] as const;
export type Applet = (typeof APPLETS)[number];

/** The Applet dropdown of the trigger and of the Answer: one list, since each must name the other's applet. */
export const APPLET_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Connect', value: 'connect', description: 'Who to dial: the Connect JSON, or the classic plain number' },
	{ name: 'Gather', value: 'gather', description: 'The prompt and how digits are gathered' },
	{ name: 'Greeting or Menu Text', value: 'greeting', description: 'The text to speak or audio URLs to play' },
	{ name: 'Passthru', value: 'passthru', description: 'Which branch the call takes next' },
];

/** What each applet's answer is: a HEAD (the Greeting's check) is answered with it. */
export const APPLET_CONTENT_TYPES: Readonly<Record<Applet, string>> = Object.freeze({
	connect: 'application/json',
	gather: 'application/json',
	greeting: 'text/plain',
	passthru: 'text/plain',
});

/**
 * The header the Answer operation marks its answer with (the applet's name as the value), so that
 * the trigger holding the request tells it from what n8n writes on its own (an empty 200 or an
 * error when the workflow ends without answering) and answers those with the fallback. The trigger
 * takes it off: it never reaches the service.
 */
export const ANSWER_MARK = 'x-exotel-call-flow-answer';

/** An answer on the wire: status, content type and body, as the applet reads them. */
export interface CallFlowAnswer {
	status: number;
	contentType: string;
	body: string;
}

/** The limits the service's Connect and Gather answers are known to hold to (call-flows notes: production code, not the docs). */
export const CALL_FLOW_LIMITS = {
	maxRingingSeconds: 60,
	maxConversationSeconds: 4500,
	maxParallelAttempts: 5,
	maxInputDigits: 255,
};

/** Passthru: the first branch (200) or the second (302), or a Switch Case keyword after it. */
export type PassthruAnswer = { branch: 'first' | 'second' } | { select: string };

/** Programmable Connect, in the service's own field names. */
export interface ConnectAnswer {
	fetch_after_attempt?: boolean;
	destination: { numbers: string[] };
	outgoing_phone_number?: string;
	record?: boolean;
	recording_channels?: 'single' | 'dual';
	max_ringing_duration?: number;
	max_conversation_duration?: number;
	music_on_hold?: { type: 'default_tone' | 'operator_tone' | 'custom_tone'; value?: string };
	start_call_playback?: { playback_to: 'both' | 'callee'; type: 'text' | 'audio_url'; value: string };
	parallel_ringing?: { activate: boolean; max_parallel_attempts: number };
	dial_passthru_event_url?: string;
}

export interface GatherPrompt {
	text?: string;
	audio_url?: string;
}

export interface GatherAnswer {
	gather_prompt: GatherPrompt;
	max_input_digits?: number;
	finish_on_key?: string;
	input_timeout?: number;
	repeat_menu?: number;
	repeat_gather_prompt?: GatherPrompt;
}

/** Greeting or Menu text from a URL: the text to speak, or audio URLs played in order. */
export type GreetingAnswer = { text: string } | { audioUrls: string[] };

export type AnswerOf<A extends Applet> = A extends 'passthru'
	? PassthruAnswer
	: A extends 'connect'
		? ConnectAnswer | { dialWhom: string }
		: A extends 'gather'
			? GatherAnswer
			: GreetingAnswer;

const DIALLABLE = /^(\+[1-9]\d{7,14}|0\d{6,14}|sip:\S+)$/;
const HTTP_URL = /^https?:\/\/\S+$/;

const wholeIn = (value: unknown, min: number, max: number) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Why a Connect answer would be refused, each naming the field and its limit; empty when it holds. */
export function connectProblems(answer: ConnectAnswer): string[] {
	const problems: string[] = [];
	const numbers = answer.destination?.numbers;
	if (!Array.isArray(numbers)) problems.push('destination.numbers must be a list of numbers ([] dials no one)');
	else numbers.filter((n) => !DIALLABLE.test(String(n))).forEach((n) => problems.push(`destination.numbers: "${n}" is not an E.164 number (+919876543210), a national one or sip:<id>`));
	if (answer.outgoing_phone_number !== undefined && !E164.test(answer.outgoing_phone_number)) {
		problems.push(`outgoing_phone_number must be an ExoPhone in E.164 (+918041234567), got "${answer.outgoing_phone_number}"`);
	}
	const { maxRingingSeconds, maxConversationSeconds, maxParallelAttempts } = CALL_FLOW_LIMITS;
	if (answer.max_ringing_duration !== undefined && !wholeIn(answer.max_ringing_duration, 1, maxRingingSeconds)) {
		problems.push(`max_ringing_duration must be whole seconds from 1 to ${maxRingingSeconds}, got ${answer.max_ringing_duration}`);
	}
	if (answer.max_conversation_duration !== undefined && !wholeIn(answer.max_conversation_duration, 1, maxConversationSeconds)) {
		problems.push(`max_conversation_duration must be whole seconds from 1 to ${maxConversationSeconds}, got ${answer.max_conversation_duration}`);
	}
	if (answer.recording_channels !== undefined && !['single', 'dual'].includes(answer.recording_channels)) {
		problems.push(`recording_channels must be single or dual, got "${answer.recording_channels}"`);
	}
	const playback = answer.start_call_playback;
	if (playback) {
		if (!['both', 'callee'].includes(playback.playback_to)) problems.push(`start_call_playback.playback_to must be both or callee (the service refuses caller), got "${playback.playback_to}"`);
		if (!['text', 'audio_url'].includes(playback.type)) problems.push(`start_call_playback.type must be text or audio_url, got "${playback.type}"`);
		if (!playback.value) problems.push('start_call_playback.value is empty');
		else if (playback.type === 'audio_url' && !HTTP_URL.test(playback.value)) problems.push(`start_call_playback.value must be an http(s) URL for audio_url, got "${playback.value}"`);
	}
	const parallel = answer.parallel_ringing;
	if (parallel?.activate && !wholeIn(parallel.max_parallel_attempts, 1, maxParallelAttempts)) {
		problems.push(`parallel_ringing.max_parallel_attempts must be from 1 to ${maxParallelAttempts}, got ${parallel.max_parallel_attempts}`);
	}
	if (answer.dial_passthru_event_url !== undefined && !HTTP_URL.test(answer.dial_passthru_event_url)) {
		problems.push(`dial_passthru_event_url must be an http(s) URL, got "${answer.dial_passthru_event_url}"`);
	}
	return problems;
}

function promptProblems(name: string, prompt: GatherPrompt | undefined, required: boolean): string[] {
	if (!prompt) return required ? [`${name} is required: { text } or { audio_url }`] : [];
	const given = [prompt.text, prompt.audio_url].filter((value) => value !== undefined && value.trim() !== '').length;
	if (given === 0) return [`${name} is empty: the caller would hear nothing; give its text or its audio_url`];
	if (given !== 1) return [`${name} takes exactly one of text and audio_url`];
	if (prompt.audio_url !== undefined && !HTTP_URL.test(prompt.audio_url)) return [`${name}.audio_url must be an http(s) URL, got "${prompt.audio_url}"`];
	return [];
}

/** Why a Gather answer would be refused; empty when it holds. */
export function gatherProblems(answer: GatherAnswer): string[] {
	const problems = [...promptProblems('gather_prompt', answer.gather_prompt, true), ...promptProblems('repeat_gather_prompt', answer.repeat_gather_prompt, false)];
	if (answer.max_input_digits !== undefined && !wholeIn(answer.max_input_digits, 1, CALL_FLOW_LIMITS.maxInputDigits)) {
		problems.push(`max_input_digits must be from 1 to ${CALL_FLOW_LIMITS.maxInputDigits}, got ${answer.max_input_digits}`);
	}
	if (answer.finish_on_key !== undefined && !/^[0-9*#]?$/.test(answer.finish_on_key)) problems.push(`finish_on_key must be one key (0-9, * or #) or "" for none, got "${answer.finish_on_key}"`);
	if (answer.input_timeout !== undefined && !wholeIn(answer.input_timeout, 1, 60)) problems.push(`input_timeout must be whole seconds, got ${answer.input_timeout}`);
	if (answer.repeat_menu !== undefined && !wholeIn(answer.repeat_menu, 0, 10)) problems.push(`repeat_menu must be from 0 to 10, got ${answer.repeat_menu}`);
	return problems;
}

/** Why a Greeting answer would be refused; empty when it holds. */
export function greetingProblems(answer: GreetingAnswer): string[] {
	if ('text' in answer) return answer.text.trim() === '' ? ['the greeting text is empty: the caller would hear silence'] : [];
	if (answer.audioUrls.length === 0) return ['no audio URL: the caller would hear silence'];
	return answer.audioUrls.filter((url) => !HTTP_URL.test(url)).map((url) => `audio URL "${url}" is not an http(s) URL`);
}

const plain = (status: number, body: string): CallFlowAnswer => ({ status, contentType: 'text/plain', body });

/**
 * The answer on the wire for an applet, or the problems that keep it from being sent (each names
 * the field and its limit). Passthru: 200 or 302, body ignored, or 200 `{"select":…}` for a
 * Switch Case; Connect: the JSON with `Exotel-Version` 1.0 requests, or the classic number as text;
 * Gather: JSON; Greeting: text/plain only, the text or the audio URLs one a line.
 */
export function answerFor<A extends Applet>(applet: A, answer: AnswerOf<A>): CallFlowAnswer | { problems: string[] } {
	switch (applet) {
		case 'passthru': {
			const passthru = answer as PassthruAnswer;
			if ('select' in passthru) {
				return passthru.select.trim() === '' ? { problems: ['the Switch Case keyword is empty'] } : plain(200, JSON.stringify({ select: passthru.select }));
			}
			return plain(passthru.branch === 'first' ? 200 : 302, '');
		}
		case 'connect': {
			if ('dialWhom' in (answer as object)) {
				const { dialWhom } = answer as { dialWhom: string };
				const numbers = dialWhom.split(',').map((n) => n.trim());
				const bad = numbers.filter((n) => !DIALLABLE.test(n));
				return bad.length ? { problems: bad.map((n) => `dial whom: "${n}" is not a number to dial`) } : plain(200, numbers.join(','));
			}
			const problems = connectProblems(answer as ConnectAnswer);
			return problems.length ? { problems } : { status: 200, contentType: 'application/json', body: JSON.stringify(answer) };
		}
		case 'gather': {
			const problems = gatherProblems(answer as GatherAnswer);
			return problems.length ? { problems } : { status: 200, contentType: 'application/json', body: JSON.stringify(answer) };
		}
		default: {
			const greeting = answer as GreetingAnswer;
			const problems = greetingProblems(greeting);
			if (problems.length) return { problems };
			return plain(200, 'text' in greeting ? greeting.text : greeting.audioUrls.join('\n'));
		}
	}
}
