/**
 * What a Connect's URL may answer (call-flows.md): the programmable Connect's JSON, checked field by
 * field (the limits the notes give), and the classic Dial Whom URL's `text/plain` number(s).
 */
import { textPlainProblem } from './context';
import { booleanField, integerField, jsonAnswer, objectField, oneOfField, stringField, urlField, type FieldCheck } from './json-answer';
import type { Judge } from './requests';

export const E164 = /^\+[1-9]\d{7,14}$/;

/** Who to dial, as either style of answer says. */
export interface ConnectAnswer {
	numbers: string[];
	/** outgoing_phone_number (E.164). */
	callerId?: string;
	fetchAfterAttempt: boolean;
	maxConversationSeconds?: number;
	/** What the caller hears once a callee answers (start_call_playback to both). */
	playback?: string;
}

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

const e164Field: FieldCheck = (value, name) =>
	typeof value === 'string' && E164.test(value) ? undefined : `${name} must be an E.164 number like +918041234567 (got ${shown(value)})`;

const numbersField: FieldCheck = (value, name) =>
	Array.isArray(value) && value.every((n) => typeof n === 'string' && n.trim() !== '') ? undefined : `${name} must be an array of number strings (got ${shown(value)})`;

const PROGRAMMABLE_ANSWER = objectField(
	{
		fetch_after_attempt: booleanField,
		destination: objectField({ numbers: numbersField }, ['numbers']),
		outgoing_phone_number: e164Field,
		record: booleanField,
		recording_channels: oneOfField(['single', 'dual']),
		max_ringing_duration: integerField(1, 60),
		max_conversation_duration: integerField(1, 4500),
		music_on_hold: objectField({ type: oneOfField(['default_tone', 'operator_tone', 'custom_tone']), value: stringField }, ['type']),
		start_call_playback: objectField(
			{ playback_to: oneOfField(['both', 'callee']), type: oneOfField(['text', 'audio_url']), value: stringField },
			['playback_to', 'type', 'value'],
		),
		parallel_ringing: objectField({ activate: booleanField, max_parallel_attempts: integerField(1, 5) }),
		dial_passthru_event_url: urlField,
	},
	['destination'],
);

interface Programmable {
	destination: { numbers: string[] };
	outgoing_phone_number?: string;
	fetch_after_attempt?: boolean;
	max_conversation_duration?: number;
	start_call_playback?: { playback_to: string; type: string; value: string };
}

export const programmableJudge: Judge<ConnectAnswer> = (answer) => {
	const read = jsonAnswer(answer, PROGRAMMABLE_ANSWER);
	if ('fail' in read) return read;
	const body = read.value as unknown as Programmable;
	const value: ConnectAnswer = { numbers: [...body.destination.numbers], fetchAfterAttempt: body.fetch_after_attempt === true };
	if (body.outgoing_phone_number !== undefined) value.callerId = body.outgoing_phone_number;
	if (body.max_conversation_duration !== undefined) value.maxConversationSeconds = body.max_conversation_duration;
	const playback = body.start_call_playback;
	if (playback?.playback_to === 'both') value.playback = playback.type === 'text' ? playback.value : `audio: ${playback.value}`;
	return { value };
};

/** A classic answer's number: digits with an optional leading +. */
const CLASSIC_NUMBER = /^\+?\d{8,15}$/;

export const classicJudge: Judge<ConnectAnswer> = (answer) => {
	if (answer.status !== 200) return { fail: `status ${answer.status}` };
	const wrongType = textPlainProblem(answer.mediaType, answer.contentType);
	if (wrongType) return { fail: wrongType };
	const numbers = answer.body.trim().split(',').map((n) => n.trim());
	const bad = numbers.find((n) => !CLASSIC_NUMBER.test(n));
	if (bad !== undefined) return { fail: `invalid: ${bad === '' ? 'an empty number' : `'${bad.slice(0, 40)}' is not a number`} (the body must be one number or several comma-separated)` };
	return { value: { numbers, fetchAfterAttempt: false } };
};
