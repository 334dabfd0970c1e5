// The webhook side of a wait: which requests resume it, and the item it resumes with.
import type { ICredentialDataDecryptedObject, IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { callbackItems, callbackOf, repliesOf, type Callback } from '../output/callbacks';
import type { Answer } from '../output/messagingCallbacks';
import { callStatusItem, textOf } from '../output/vocabulary';
import { objectOf, sameNumber, withoutKeys } from '../rules/values';
import { answerNow, nestBracketKeys } from '../webhooks/respond';
import { logRefusalOnce, refusalWords, signatureRefused } from '../webhooks/signature';
import { answeredPage, approvalPage, unknownLinkPage } from './pages';
import { isGenuineResumeUrl } from './resumeUrl';
import { waitingState } from './savedState';
import { answerItem, callWaitItem, deliveryItem, FINAL_CALL, type Choice, type Question } from './waitingItem';

/** The request's body as an object; form bodies with their bracket keys rebuilt. */
export function bodyOf(context: IWebhookFunctions): IDataObject {
	return nestBracketKeys(objectOf(context.getBodyData()) ?? {});
}

/** Answers and leaves the execution waiting. */
export function keepWaiting(context: IWebhookFunctions, status: number, body: IDataObject | string): IWebhookResponseData {
	return answerNow(context, status, body);
}

/** Resumes the execution with `output`; n8n answers the callback 200 once it holds the resumed execution. */
export function resumeWith(output: IDataObject, answer: IDataObject | string = { received: true, resumed: true }): IWebhookResponseData {
	return { workflowData: [[{ json: output, pairedItem: { item: 0 } }]], webhookResponse: answer };
}

/** Answers with an HTML page (the SMS approval links); `output` resumes the execution when given. */
export function answerPage(context: IWebhookFunctions, status: number, html: string, output?: IDataObject): IWebhookResponseData {
	const res = context.getResponseObject();
	res.status(status).setHeader('Content-Type', 'text/html; charset=utf-8');
	res.setHeader('Cache-Control', 'no-store');
	res.send(html);
	if (!output) return { noWebhookResponse: true };
	return { noWebhookResponse: true, workflowData: [[{ json: output, pairedItem: { item: 0 } }]] };
}

/** The choice an answer makes: its id, or failing that its words, matched against the choices sent. */
export function choiceOf(answer: Pick<Answer, 'id' | 'text'>, choices: Choice[]): Choice | undefined {
	const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();
	return (
		choices.find((choice) => answer.id !== null && choice.id === answer.id) ??
		choices.find((choice) => same(choice.title, answer.text) || same(choice.id, answer.text))
	);
}

const STILL_WAITING = { received: true, resumed: false };

/**
 * What each waiting operation accepts, decided by the operation, never by the body: a chat-app wait
 * only chat-app callbacks (signed, when the credential has a signing secret), an RCS wait only RCS
 * callbacks, an SMS delivery wait only the SMS status callback, a call wait only the v1 call status
 * callback, each of its own message or call.
 */
type Expected = 'chatAppReply' | 'rcsReply' | 'smsApprovalLink' | 'smsDelivery' | 'chatAppDelivery' | 'callEnd';

function expectedOf(state: IDataObject): Expected | undefined {
	const { waitingFor, channel } = state;
	if (waitingFor === 'reply') return channel === 'chatapp' ? 'chatAppReply' : channel === 'rcs' ? 'rcsReply' : undefined;
	if (waitingFor === 'approvalLink') return channel === 'sms' ? 'smsApprovalLink' : undefined;
	if (waitingFor === 'delivery') return channel === 'sms' ? 'smsDelivery' : channel === 'chatapp' ? 'chatAppDelivery' : undefined;
	return waitingFor === 'callEnd' ? 'callEnd' : undefined;
}

/** A person's message on the channel waited on (the chat app, in either envelope, or RCS) resumes. */
function onReply(context: IWebhookFunctions, state: IDataObject, question: Question, callback: Callback): IWebhookResponseData {
	const allowed = question.approvers.length > 0 ? question.approvers : [String(state.to)];
	for (const answer of repliesOf(callback, state.channel === 'chatapp' ? 'chatapp' : 'rcs')) {
		// A reply routed here names the message it answers, when it names one (chat-app buttons and rows do).
		if (answer.inReplyTo !== null && answer.inReplyTo !== state.messageSid) continue;
		if (!allowed.some((number) => sameNumber(number, answer.number))) continue;
		if (question.responseType === 'approval' || question.responseType === 'choice') {
			const choice = choiceOf(answer, question.choices);
			if (!choice) continue;
			return resumeWith(answerItem(state, question, { ...answer, id: choice.id, text: choice.title }, answer.entry));
		}
		if (question.responseType === 'freeText' && answer.text === null) continue;
		return resumeWith(answerItem(state, question, answer, answer.entry));
	}
	// A delivery report, a stranger's reply, a reply to another message or an answer that is none of the choices.
	return keepWaiting(context, 200, STILL_WAITING);
}

/** The only fields the confirmation page's form posts. */
const CONFIRM_FORM_FIELDS = ['answer', 'confirm'];

/**
 * An SMS approval link. Opening it (GET) only shows a page with a button; the answer is taken when
 * that button is pressed (POST). Link-preview bots fetch a link without pressing anything, so they
 * never answer for the person. The answer is the one the link carries (n8n signs it); a POST that is
 * not the page's form (a callback of any shape) is acknowledged and resumes nothing.
 */
function onApprovalLink(context: IWebhookFunctions, state: IDataObject, question: Question): IWebhookResponseData {
	const req = context.getRequestObject();
	const linked = String((context.getQueryData() as IDataObject).answer ?? '');
	const body = req.method === 'POST' ? bodyOf(context) : {};
	if (Object.keys(body).some((key) => !CONFIRM_FORM_FIELDS.includes(key))) return keepWaiting(context, 200, STILL_WAITING);
	const choice = question.choices.find((entry) => entry.id === linked);
	if (!choice || (body.answer !== undefined && String(body.answer) !== linked)) {
		return answerPage(context, 400, unknownLinkPage());
	}
	if (req.method !== 'POST') return answerPage(context, 200, approvalPage(question.text, choice));
	const output = answerItem(
		state,
		question,
		{ id: choice.id, text: choice.title, replySid: null, number: textOf(state.to), name: null, at: new Date().toISOString() },
		{ method: req.method, answer: choice.id, userAgent: textOf(req.headers['user-agent']) },
	);
	return answerPage(context, 200, answeredPage(question.text, choice), output);
}

/** The statuses that end a delivery wait (the chat-app and SMS statuses folded onto the same words). */
const FINAL_DELIVERY = ['delivered', 'seen', 'failed'];

/**
 * The final delivery report of the message waited on resumes: the SMS status callback of its SmsSid,
 * or a chat-app report (`dlr`) of its sid. `sent`, pending statuses, replies and reports that name no
 * message or another message keep it waiting.
 */
function onDelivery(context: IWebhookFunctions, state: IDataObject, callback: Callback): IWebhookResponseData {
	const sms = state.channel === 'sms';
	// An SMS wait reads only a body wholly an SMS status callback; a chat-app wait picks its reports out of any.
	const read = !sms || callback.unsigned === 'sms' ? callbackItems(callback) : [];
	for (const report of read) {
		if (report.event !== (sms ? 'smsStatus' : 'chatAppStatus')) continue;
		if (!state.messageSid || report.messageSid !== state.messageSid) continue;
		if (!FINAL_DELIVERY.includes(String(report.status))) continue;
		const { raw, status, code, timestamp } = report;
		const details = withoutKeys(report, ['event', 'raw', 'messageSid', 'channel', 'to', 'from', 'status', 'code', 'timestamp']);
		return resumeWith(deliveryItem(state, { status, code, timestamp, details, raw }, 'callback'));
	}
	return keepWaiting(context, 200, STILL_WAITING);
}

/** The terminal v1 status callback of the call waited on resumes; `answered`, other calls and other shapes keep it waiting. */
function onCallEnd(context: IWebhookFunctions, state: IDataObject, callback: Callback): IWebhookResponseData {
	if (callback.unsigned !== 'call') return keepWaiting(context, 200, STILL_WAITING);
	const item = callStatusItem(callback.body);
	const terminal = item.eventType === 'terminal' || (item.eventType === null && FINAL_CALL.includes(String(item.status)));
	if (!state.callSid || item.callSid !== state.callSid || !terminal) return keepWaiting(context, 200, STILL_WAITING);
	return resumeWith(callWaitItem(item, 'callback', textOf(state.customField)));
}

/**
 * The resume webhook of every waiting operation. A request to a URL this execution did not make is
 * refused (401) and resumes nothing; so is, when the credential has a signing secret, any callback to
 * a chat-app wait without a valid X-Service-Signature, and any unsigned callback to another wait that
 * is not wholly one of the families the service posts unsigned. Anything else is acknowledged at once
 * (the service retries what is not a 200 within 5 seconds) and resumes the execution only when it is
 * what the operation waits for.
 */
export async function resumeWaitingExecution(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	let credentials: ICredentialDataDecryptedObject | undefined;
	const credential = async () => (credentials ??= await this.getCredentials<ICredentialDataDecryptedObject>('exotelApi'));
	if (!(await isGenuineResumeUrl(this, async () => String((await credential()).apiToken ?? '')))) {
		return keepWaiting(this, 401, { error: 'Invalid token' });
	}
	const state = waitingState(this);
	const expected = state?.timedOut === true ? expectedOf(state) : undefined;
	if (!state || !expected) return keepWaiting(this, 409, { error: 'Nothing is waiting at this URL' });
	const question = (state.question ?? { responseType: 'reply', text: null, choices: [], approvers: [] }) as unknown as Question;
	if (expected === 'smsApprovalLink') return onApprovalLink(this, state, question);

	if (this.getRequestObject().method !== 'POST') return keepWaiting(this, 405, { error: 'Callbacks arrive by POST' });
	const callback = callbackOf(bodyOf(this), 'wait');
	const secret = async () => String((await credential()).webhookSigningSecret ?? '');
	const chatApp = expected === 'chatAppReply' || expected === 'chatAppDelivery';
	// Only signed callbacks reach a chat-app wait.
	const refusal = await signatureRefused(this, !chatApp && callback.unsigned !== undefined, secret);
	if (refusal) {
		logRefusalOnce(this, refusal);
		return keepWaiting(this, 401, { error: refusalWords(refusal) });
	}
	switch (expected) {
		case 'chatAppReply':
		case 'rcsReply':
			return onReply(this, state, question, callback);
		case 'smsDelivery':
		case 'chatAppDelivery':
			return onDelivery(this, state, callback);
		case 'callEnd':
			return onCallEnd(this, state, callback);
	}
}
