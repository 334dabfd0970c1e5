// The webhook of a waiting send: which requests resume it, and the item it resumes with.
import type { ICredentialDataDecryptedObject, IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { eventItems, objectAt, repliesIn, type Answer } from './messagingCallbacks';
import {
	answerPage,
	bodyOf,
	escapeHtml,
	hasResumeToken,
	keepWaiting,
	resumeWith,
	sameNumber,
	signatureRefused,
	waitingState,
} from './sendAndWait';
import { callStatusItem, textOf } from './vocabulary';

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

/** The choice an answer makes: its id, or failing that its words, matched against the choices sent. */
export function choiceOf(answer: Pick<Answer, 'id' | 'text'>, choices: Choice[]): Choice | undefined {
	const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();
	return (
		choices.find((choice) => answer.id !== null && choice.id === answer.id) ??
		choices.find((choice) => same(choice.title, answer.text) || same(choice.id, answer.text))
	);
}

/** The item a reply resumes with: the message's keys, then what was answered, by whom, when. */
function answeredItem(state: IDataObject, question: Question, answer: Omit<Answer, 'entry'>, raw: IDataObject | null): IDataObject {
	const { messageSid, channel, to, from } = state;
	const item: IDataObject = { messageSid, status: 'answered', channel, to, from, code: null, timedOut: false, waitingFor: state.waitingFor };
	if (question.responseType === 'approval') item.approved = answer.id === 'approve';
	return {
		...item,
		answer: answer.id ?? answer.text,
		answerText: answer.text,
		answeredBy: { number: answer.number, name: answer.name },
		answeredAt: answer.at ?? new Date().toISOString(),
		replySid: answer.replySid,
		question: state.question,
		raw,
	};
}

async function onReply(context: IWebhookFunctions, state: IDataObject, question: Question, secret: string): Promise<IWebhookResponseData> {
	if (context.getRequestObject().method !== 'POST') return keepWaiting(context, 405, { error: 'Replies arrive by POST' });
	const body = bodyOf(context);
	if (objectAt(body, 'chatapp') && (await signatureRefused(context, secret))) {
		return keepWaiting(context, 401, { error: 'invalid or missing X-Service-Signature' });
	}
	const allowed = question.approvers.length > 0 ? question.approvers : [String(state.to)];
	for (const answer of repliesIn(body)) {
		if (!allowed.some((number) => sameNumber(number, answer.number))) continue;
		if (question.responseType === 'approval' || question.responseType === 'choice') {
			const choice = choiceOf(answer, question.choices);
			if (!choice) continue;
			return resumeWith(context, answeredItem(state, question, { ...answer, id: choice.id, text: choice.title }, answer.entry));
		}
		if (question.responseType === 'freeText' && answer.text === null) continue;
		return resumeWith(context, answeredItem(state, question, answer, answer.entry));
	}
	// A delivery report, a stranger's reply or an answer that is none of the choices: acknowledged, still waiting.
	return keepWaiting(context, 200, { received: true, resumed: false });
}

/** The confirmation page of an SMS approval link, and the page after the answer. */
function page(title: string, text: string, form?: { answer: string; label: string }): string {
	const action = form
		? `<form method="post" action=""><input type="hidden" name="answer" value="${escapeHtml(form.answer)}"><button type="submit" name="confirm" value="1">${escapeHtml(form.label)}</button></form>`
		: '';
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2937}button{font-size:1.1rem;padding:.7rem 1.4rem;border:0;border-radius:.4rem;background:#2563eb;color:#fff;cursor:pointer}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${action}</body></html>`;
}

/**
 * An SMS approval link. Opening it (GET) only shows a page with a button; the answer is taken when
 * that button is pressed (POST). Link-preview bots fetch a link without pressing anything, so they
 * never answer for the person.
 */
function onApprovalLink(context: IWebhookFunctions, state: IDataObject, question: Question): IWebhookResponseData {
	const req = context.getRequestObject();
	const query = context.getQueryData() as IDataObject;
	const body = req.method === 'POST' ? bodyOf(context) : {};
	if (body.SmsSid !== undefined) return keepWaiting(context, 200, { received: true, resumed: false });
	const choice = question.choices.find((entry) => entry.id === String(body.answer ?? query.answer ?? ''));
	if (!choice) return answerPage(context, 400, page('Link not recognised', 'This link does not carry an answer. Open the link from the message again.'));
	if (req.method !== 'POST') {
		return answerPage(context, 200, page(choice.title, question.text ?? '', { answer: choice.id, label: `Confirm: ${choice.title}` }));
	}
	const output = answeredItem(
		state,
		question,
		{ id: choice.id, text: choice.title, replySid: null, number: textOf(state.to), name: null, at: new Date().toISOString() },
		{ method: req.method, answer: choice.id, userAgent: textOf(req.headers['user-agent']) },
	);
	return answerPage(context, 200, page('Thank you', `Your answer was recorded: ${choice.title}.`), output);
}

/** A final delivery report of the message waited on resumes; `sent` and replies keep waiting. */
async function onDelivery(context: IWebhookFunctions, state: IDataObject, secret: string): Promise<IWebhookResponseData> {
	if (context.getRequestObject().method !== 'POST') return keepWaiting(context, 405, { error: 'Delivery reports arrive by POST' });
	const body = bodyOf(context);
	if (objectAt(body, 'chatapp') && (await signatureRefused(context, secret))) {
		return keepWaiting(context, 401, { error: 'invalid or missing X-Service-Signature' });
	}
	for (const report of eventItems(body) ?? []) {
		if (report.event !== 'chatAppStatus' && report.event !== 'smsStatus' && report.event !== 'rcsDeliveryReport') continue;
		if (report.messageSid && state.messageSid && report.messageSid !== state.messageSid) continue;
		if (report.status === 'sent' || report.status === null) continue;
		const { event, raw, messageSid, channel, to, from, status, code, timestamp, ...rest } = report;
		return resumeWith(context, {
			messageSid: state.messageSid,
			status,
			channel: state.channel,
			to: state.to,
			from: state.from,
			code,
			timedOut: false,
			waitingFor: 'delivery',
			timestamp,
			...rest,
			raw,
		});
	}
	return keepWaiting(context, 200, { received: true, resumed: false });
}

/** The terminal status callback of the call waited on resumes; `answered` keeps waiting. */
function onCallEnd(context: IWebhookFunctions, state: IDataObject): IWebhookResponseData {
	if (context.getRequestObject().method !== 'POST') return keepWaiting(context, 405, { error: 'Call status arrives by POST' });
	const payload = bodyOf(context);
	const item = callStatusItem(payload);
	const ours = !item.callSid || !state.callSid || item.callSid === state.callSid;
	if (!ours || item.eventType === 'answered' || payload.CallSid === undefined) {
		return keepWaiting(context, 200, { received: true, resumed: false });
	}
	const { raw, ...fields } = item;
	return resumeWith(context, { ...fields, timedOut: false, waitingFor: 'callEnd', raw });
}

/**
 * The resume webhook of every waiting operation. A request without this execution's token is
 * refused (401) and resumes nothing; so is, when the credential has a signing secret, a chat-app
 * callback without a valid X-Service-Signature. Anything else is acknowledged at once (the service
 * retries what is not a 200 within 5 seconds) and resumes the execution only when it is the answer
 * waited for.
 */
export async function resumeWaitingExecution(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	// One read of the credential: its API token keys our resume token, its signing secret the chat-app signatures.
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>('exotelApi');
	if (!hasResumeToken(this, String(credentials.apiToken ?? ''))) return keepWaiting(this, 401, { error: 'Invalid token' });
	const secret = String(credentials.webhookSigningSecret ?? '');
	const state = waitingState(this);
	if (!state || state.timedOut !== true) return keepWaiting(this, 409, { error: 'Nothing is waiting at this URL' });
	const question = (state.question ?? { responseType: 'reply', text: null, choices: [], approvers: [] }) as unknown as Question;
	switch (state.waitingFor) {
		case 'reply':
			return await onReply(this, state, question, secret);
		case 'approvalLink':
			return onApprovalLink(this, state, question);
		case 'delivery':
			return await onDelivery(this, state, secret);
		case 'callEnd':
			return onCallEnd(this, state);
		default:
			return keepWaiting(this, 409, { error: 'Nothing is waiting at this URL' });
	}
}
