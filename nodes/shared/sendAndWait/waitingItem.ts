// The items of a wait, their keys in one place: what a waiting execution saves (its timed-out item,
// read back by the webhook), and what it resumes with: an answer, a delivery report, a call's end.
import type { IDataObject } from 'n8n-workflow';

import { objectAt, type Answer } from '../output/messagingCallbacks';
import { detailLegs, v1CallItem } from '../output/vocabulary';
import { withoutKeys } from '../rules/values';

/** A value of an output item. */
type Value = IDataObject[string];

/** What a waiting operation waits for; it decides which requests may resume it. */
export type WaitingFor = 'reply' | 'approvalLink' | 'delivery' | 'callEnd';

/** How a wait ended: a callback, the service asked before waiting, or Limit Wait Time. */
export type ResumedBy = 'callback' | 'statusCheck' | 'timeout';

/** A choice the person could make: the id sent in the message and the words shown for it. */
export interface Choice {
	id: string;
	title: string;
}

/** What a reply wait saved besides the message's keys (see the operations' `question`). */
export interface Question {
	responseType: 'approval' | 'choice' | 'freeText' | 'reply';
	text: string | null;
	choices: Choice[];
	approvers: string[];
}

/** An answer as the item tells it: the choice's id (or the text), its words, who gave it and when. */
export type GivenAnswer = Omit<Answer, 'entry' | 'inReplyTo'>;

/** The keys every item of a message wait starts with, in this order: the message, then how the wait ended. */
function messageWaitItem(message: IDataObject, end: { status: Value; code?: Value; waitingFor: Value; resumedBy: ResumedBy }): IDataObject {
	return {
		messageSid: message.messageSid ?? null,
		status: end.status,
		channel: message.channel ?? null,
		to: message.to ?? null,
		from: message.from ?? null,
		code: end.code ?? null,
		timedOut: end.resumedBy === 'timeout',
		waitingFor: end.waitingFor,
		resumedBy: end.resumedBy,
	};
}

/**
 * A delivery wait's item: the report's status, code and time, the custom data it echoed and what
 * else it told (`details`), the report as received.
 */
export function deliveryItem(
	message: IDataObject,
	report: { status: Value; code: Value; timestamp: Value; details: IDataObject; raw: Value },
	resumedBy: ResumedBy,
): IDataObject {
	const { status, code, timestamp, details, raw } = report;
	const { customData = null, ...more } = details;
	return { ...messageWaitItem(message, { status, code, waitingFor: 'delivery', resumedBy }), timestamp, customData, ...more, raw };
}

/** The item a delivery wait outputs if it times out: the send's keys and the custom data it sent, no report. */
export function deliveryTimedOut(sent: IDataObject, customData: string | null): IDataObject {
	return deliveryItem(sent, { status: 'timedOut', code: null, timestamp: null, details: { customData }, raw: null }, 'timeout');
}

/**
 * A reply wait's item: the message's keys, then what was answered, by whom, when, the question as
 * saved and the callback's entry (`raw`). `wait` is what the wait saved (message keys, waitingFor,
 * question); with no answer the wait timed out and the answer's keys are empty.
 */
export function answerItem(wait: IDataObject, question: Question, answer: GivenAnswer | null, raw: Value): IDataObject {
	const item = messageWaitItem(wait, {
		status: answer ? 'answered' : 'timedOut',
		waitingFor: wait.waitingFor,
		resumedBy: answer ? 'callback' : 'timeout',
	});
	if (question.responseType === 'approval') item.approved = answer ? answer.id === 'approve' : null;
	return {
		...item,
		answer: answer ? (answer.id ?? answer.text) : null,
		answerText: answer ? answer.text : null,
		answeredBy: answer ? { number: answer.number, name: answer.name } : null,
		answeredAt: answer ? (answer.at ?? new Date().toISOString()) : null,
		replySid: answer ? answer.replySid : null,
		question: wait.question,
		raw,
	};
}

/** The v1 call Status values that end a call (the spec's). */
export const FINAL_CALL = ['completed', 'failed', 'busy', 'no-answer'];

/**
 * The item a call wait ends with, however it ended, with the same keys and types: the call keys, the
 * call-end keys, how it ended, and the service's object (`raw`). The custom field is the one the node
 * sent where the callback did not echo it; `eventType` is `terminal` when the call ended (callback or
 * status check) and null when the wait timed out; `answeredBy` follows the legs.
 */
export function callWaitItem(call: IDataObject, resumedBy: ResumedBy, sentCustomField: string | null): IDataObject {
	const { raw = null, conversationDuration = null, customField = null, legs = [] } = call;
	const callLegs = legs as IDataObject[];
	return {
		...withoutKeys(call, ['raw', 'eventType', 'conversationDuration', 'customField', 'answeredBy', 'legs']),
		eventType: resumedBy === 'timeout' ? null : 'terminal',
		conversationDuration,
		customField: customField ?? sentCustomField,
		answeredBy: callLegs.map((leg) => leg.AnsweredBy ?? null),
		legs: callLegs,
		timedOut: resumedBy === 'timeout',
		waitingFor: 'callEnd',
		resumedBy,
		raw,
	};
}

/** A call's final state as the service gives it (GET Calls/<CallSid>.json?details=true), in the keys a call wait resumes with. */
export function endedCallItem(call: IDataObject, sentCustomField: string | null): IDataObject | undefined {
	if (!FINAL_CALL.includes(String(call.Status))) return undefined;
	const details = objectAt(call, 'Details');
	return callWaitItem({ ...v1CallItem(call), legs: detailLegs(details) }, 'statusCheck', sentCustomField);
}

/** The item the node shows while it waits: what was sent, what it waits for and until when (null: no limit). */
export function waitingItem(sent: IDataObject, waitingFor: Value, waitTill: string | null): IDataObject {
	return { ...sent, waitingFor, waitTill };
}
