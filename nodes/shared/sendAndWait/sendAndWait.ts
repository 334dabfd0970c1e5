// Waiting for a person or an outcome: a send whose callback URL is the execution's resume URL.
// Written after n8n's own send-and-wait (packages/nodes-base/utils/sendAndWait), which a community
// package cannot import; the service routes a reply to the URL given in the send itself
// (messaging.md, "RCS incoming message" and "Chat-app status callback"), so the answer resumes the
// waiting execution directly.
import { createHmac, timingSafeEqual } from 'crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, SEND_AND_WAIT_OPERATION, WAIT_INDEFINITELY } from 'n8n-workflow';

import { objectOf } from '../output/envelope';
import { withParameters } from '../items/operation';
import type { OperationModule, OperationOption } from '../descriptions/resource';
import { answerNow, nestBracketKeys } from '../webhooks/respond';

/**
 * The resume webhooks of a waiting execution: GET and POST on `/webhook-waiting/<execution>/<node id>`,
 * as n8n's own send-and-wait nodes declare them. They are registered nowhere at the service: the URL
 * is made per execution and given in the send itself, so there is no checkExists/create/delete to
 * write (see docs/send-and-wait.md, "How it works inside", on n8n's webhook-lifecycle-complete lint rule).
 */
export const WAITING_WEBHOOKS: IWebhookDescription[] = (['GET', 'POST'] as const).map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

/** What a waiting operation waits for; it decides which requests may resume it. */
export type WaitingFor = 'reply' | 'approvalLink' | 'delivery' | 'callEnd';

/** The operation value n8n gives its own send-and-wait treatment (signed resume URLs, AI agents' human review). */
export const SEND_AND_WAIT = SEND_AND_WAIT_OPERATION;

// ---------------------------------------------------------------------------------------------
// Fields

/** Limit Wait Time, as n8n's send-and-wait nodes offer it (an Options entry). */
export const LIMIT_WAIT_TIME_OPTION: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description: 'Whether to stop waiting after a time; the node then outputs timedOut: true',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{ name: 'After Time Interval', value: 'afterTimeInterval', description: 'Waits for a certain amount of time' },
						{ name: 'At Specified Time', value: 'atSpecifiedTime', description: 'Waits until the set date and time' },
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					default: 45,
					typeOptions: { minValue: 0, numberPrecision: 2 },
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'minutes',
					options: [
						{ name: 'Days', value: 'days' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Seconds', value: 'seconds' },
					],
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Continue execution after the specified date and time',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

/** Who may answer besides the recipient (an Options entry of the reply waits). */
export const APPROVERS_OPTION: INodeProperties = {
	displayName: 'Approver Numbers',
	name: 'approvers',
	type: 'string',
	default: '',
	placeholder: '+919876543210, +919812345678',
	description: 'Numbers in E.164 format, comma-separated, whose reply counts; by default only the recipient’s. A reply from any other number is acknowledged and ignored.',
};

/**
 * The notice every waiting operation shows, in the words of the person setting it up: `what` says
 * what the other side gets, what the execution waits for (or until Limit Wait Time) and what it
 * continues with; the notice adds that it takes one item.
 */
export function waitNotice(what: string): INodeProperties {
	return {
		displayName: `${what} It takes one input item: loop over items for more.`,
		name: 'waitNotice',
		type: 'notice',
		default: '',
	};
}

// ---------------------------------------------------------------------------------------------
// Execute side

/** A waiting operation handles one item: one message, one resume. */
export function oneItemOnly(context: IExecuteFunctions, items: INodeExecutionData[]): void {
	if (items.length === 1) return;
	throw new NodeOperationError(context.getNode(), `This operation waits for one message and got ${items.length} input items`, {
		description:
			'An execution can wait for one answer. Put a Loop Over Items node (Batch Size 1) before this node, or send to many with Send and collect answers with the Messaging Trigger.',
	});
}

function collectionOf(context: IExecuteFunctions, name: string): IDataObject {
	return (context.getNodeParameter(name, 0, {}) as IDataObject) ?? {};
}

/**
 * A plain send's fields for its waiting twin: without the Status Callback URL (the resume URL takes
 * its place) and the options in `drop`, with `add` in its optional-fields collection.
 */
export function waitingFields(fields: INodeProperties[], add: INodeProperties[], drop: string[] = []): INodeProperties[] {
	return fields
		.filter((field) => field.name !== 'statusCallback')
		.map((field) =>
			field.type === 'collection' && (field.name === 'options' || field.name === 'additionalFields')
				? {
						...field,
						options: [...(field.options as INodeProperties[]).filter((option) => !drop.includes(option.name)), ...add].sort((a, b) =>
							a.displayName.localeCompare(b.displayName),
						),
					}
				: field,
		);
}

/** When Limit Wait Time ends the wait; undefined when it is not set. */
export function limitWaitTimeOf(context: IExecuteFunctions): Date | undefined {
	const limit = [collectionOf(context, 'options'), collectionOf(context, 'additionalFields')]
		.map((collection) => (collection.limitWaitTime as IDataObject | undefined)?.values as IDataObject | undefined)
		.find(Boolean);
	if (!limit) return undefined;
	if (limit.limitType === 'atSpecifiedTime') {
		const at = new Date(String(limit.maxDateAndTime ?? ''));
		if (Number.isNaN(at.getTime())) {
			throw new NodeOperationError(context.getNode(), 'Limit Wait Time: Max Date and Time is not a date', { itemIndex: 0 });
		}
		return at;
	}
	const amount = Number(limit.resumeAmount ?? 0);
	const unit = { seconds: 1e3, minutes: 60e3, hours: 3600e3, days: 86400e3 }[String(limit.resumeUnit ?? 'minutes')] ?? 60e3;
	if (!Number.isFinite(amount) || amount < 0) {
		throw new NodeOperationError(context.getNode(), `Limit Wait Time: Amount must be 0 or more (got ${String(limit.resumeAmount)})`, { itemIndex: 0 });
	}
	return new Date(Date.now() + amount * unit);
}

/** The query parameter n8n's resume URLs carry their signature or resume token in. */
const SIGNATURE_PARAM = 'signature';
/** 0.3.0's own token (an HMAC keyed with the API token): still read so its waits resume after an upgrade. */
const LEGACY_TOKEN_PARAM = 'exotelToken';

function legacyTokenFor(apiToken: string, executionId: string, nodeId: string): string {
	return createHmac('sha256', apiToken).update(`exotel-resume:${executionId}:${nodeId}`).digest('hex').slice(0, 32);
}

/** The resume URL of this execution at this node, with `params` in its query. */
export type ResumeUrl = (params?: Record<string, string>) => string;

/** n8n's own resume URL of the execution (`$execution.resumeUrl`), with its resume token where n8n has one. */
function ownResumeUrl(context: Pick<IExecuteFunctions, 'evaluateExpression'> | IWebhookFunctions): URL | undefined {
	try {
		return new URL(String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0)));
	} catch {
		return undefined;
	}
}

/**
 * How this execution's resume URLs are made. Each carries a key n8n keeps, never one of the
 * credential's secrets, so rotating the API token or the signing secret strands no waiting execution:
 * - the sendAndWait operation: n8n's signed resume URL (an HMAC keyed with n8n's own secret; n8n
 *   refuses a request without it);
 * - the others, where n8n gives executions a resume token (2.41): n8n's own resume URL with the
 *   node's path; n8n refuses a request without the token;
 * - the others on an n8n without resume tokens (2.8): n8n's signed resume URL as well, which n8n does
 *   not check there, so the webhook does (isGenuineResumeUrl), as it does every one.
 */
export function resumeUrls(context: IExecuteFunctions): ResumeUrl {
	const node = context.getNode();
	if (context.getNodeParameter('operation', 0) === SEND_AND_WAIT) {
		// n8n 2.8 checks the signature only when asked; newer n8n (2.41) always checks a sendAndWait
		// node's resume URL and no longer has this method.
		const context28 = context as Partial<Pick<IExecuteFunctions, 'setSignatureValidationRequired'>>;
		if (typeof context28.setSignatureValidationRequired === 'function') context28.setSignatureValidationRequired();
		return (params = {}) => context.getSignedResumeUrl(params);
	}
	const own = ownResumeUrl(context);
	if (!own?.searchParams.get(SIGNATURE_PARAM)) return (params = {}) => context.getSignedResumeUrl(params);
	return (params = {}) => {
		const url = new URL(own);
		url.pathname = `${url.pathname.replace(/\/$/, '')}/${encodeURIComponent(node.id)}`;
		for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
		return url.toString();
	};
}

const sameText = (a: string | null | undefined, b: string | null | undefined) => {
	if (!a || !b) return false;
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Whether the request came to a resume URL this execution made (resumeUrls), checked against what
 * n8n keeps: n8n's signature of the URL (made again from the request's own query), or the
 * execution's resume token. A URL of 0.3.0 carries instead `exotelToken`, keyed with the credential's
 * API token (`apiToken`, read only when needed). Anything else, however it is shaped, is forged.
 */
export async function isGenuineResumeUrl(context: IWebhookFunctions, apiToken: () => Promise<string>): Promise<boolean> {
	const req = context.getRequestObject();
	const query = new URL(String(req.originalUrl ?? req.url ?? ''), 'http://localhost').searchParams;
	const given = query.get(SIGNATURE_PARAM);
	if (given) {
		const signed = Object.fromEntries([...query.entries()].filter(([key]) => key !== SIGNATURE_PARAM));
		if (sameText(given, new URL(context.getSignedResumeUrl(signed)).searchParams.get(SIGNATURE_PARAM))) return true;
		if (sameText(given, ownResumeUrl(context)?.searchParams.get(SIGNATURE_PARAM))) return true;
	}
	const legacy = query.get(LEGACY_TOKEN_PARAM);
	return Boolean(legacy) && sameText(legacy, legacyTokenFor(await apiToken(), context.getExecutionId(), context.getNode().id));
}

/**
 * Puts the execution to wait. `timedOut` is the item the node outputs if Limit Wait Time ends the
 * wait: n8n resumes a timed-out node by passing its input through without running it, so that item
 * becomes the input n8n keeps for this node, and it is also where the webhook reads what was sent
 * (it sees the same input). `waiting` is what the node shows while it waits.
 */
export async function waitFor(
	context: IExecuteFunctions,
	timedOut: IDataObject,
	waiting: IDataObject,
	waitTill: Date,
): Promise<INodeExecutionData[]> {
	context.getExecuteData().data = { main: [[{ json: timedOut, pairedItem: { item: 0 } }]] };
	await context.putExecutionToWait(waitTill);
	return [{ json: waiting, pairedItem: { item: 0 } }];
}

// ---------------------------------------------------------------------------------------------
// Webhook side

/** What the node saved when it started waiting (see waitFor). */
export function waitingState(context: IWebhookFunctions): IDataObject | undefined {
	try {
		const text = context.evaluateExpression('{{ JSON.stringify($json) }}', 0);
		return objectOf(typeof text === 'string' ? JSON.parse(text) : text);
	} catch {
		return undefined;
	}
}

/** The request's body as an object; form bodies with their bracket keys rebuilt. */
export function bodyOf(context: IWebhookFunctions): IDataObject {
	return nestBracketKeys(objectOf(context.getBodyData()) ?? {});
}

/** Answers and leaves the execution waiting. */
export function keepWaiting(context: IWebhookFunctions, status: number, body: IDataObject | string): IWebhookResponseData {
	return answerNow(context, status, body);
}

/** Answers the callback with 200 and resumes the execution with `output`. */
export function resumeWith(context: IWebhookFunctions, output: IDataObject, answer: IDataObject | string = { received: true, resumed: true }): IWebhookResponseData {
	answerNow(context, 200, answer);
	return { noWebhookResponse: true, workflowData: [[{ json: output, pairedItem: { item: 0 } }]] };
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

/** Escapes text for an HTML page. */
export function escapeHtml(text: unknown): string {
	return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

// ---------------------------------------------------------------------------------------------
// The whole operation

/** How a waiting operation sends, and the item it outputs if the wait times out. */
export interface SendThenWait {
	/** The plain send, with the resume URL as its callback; one output item. */
	send(): Promise<INodeExecutionData[]>;
	/** The timed-out item, from the sent item's keys; the webhook reads it back (waitingState). */
	timedOut(sent: IDataObject): IDataObject;
	/**
	 * Asked once after the send, before waiting, where the service can be asked: the item to continue
	 * with now when the outcome is already known (a callback that came before n8n saved the wait is
	 * answered 409 by n8n and, for calls, never sent again), else undefined.
	 */
	settled?(sent: IDataObject): Promise<IDataObject | undefined>;
	/** When to stop waiting if Limit Wait Time is not set; never by default. */
	defaultWaitTill?(sent: IDataObject): Date;
}

/**
 * Checks the input (one item) and Limit Wait Time, sends with the resume URL, then waits. A send
 * that failed does not wait: its item comes out as the plain send's would (error, or with
 * "continue" the failed item).
 */
export async function sendThenWait(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	build: (context: IExecuteFunctions, resumeUrl: ResumeUrl) => SendThenWait,
): Promise<INodeExecutionData[]> {
	oneItemOnly(context, items);
	const limit = limitWaitTimeOf(context);
	const plan = build(context, resumeUrls(context));
	const output = await plan.send();
	const sent = output[0];
	if (!sent || output.length !== 1 || sent.json.error !== undefined) return output;
	const settled = await plan.settled?.(sent.json);
	if (settled) return [{ json: settled, pairedItem: { item: 0 } }];
	const waitTill = limit ?? plan.defaultWaitTill?.(sent.json) ?? WAIT_INDEFINITELY;
	const timedOut = plan.timedOut(sent.json);
	const until = waitTill.getTime() === WAIT_INDEFINITELY.getTime() ? null : waitTill.toISOString();
	return await waitFor(context, timedOut, { ...sent.json, waitingFor: timedOut.waitingFor, waitTill: until }, waitTill);
}

/** The item a delivery wait outputs if it times out: the send's keys, no report. */
export function deliveryTimedOut(sent: IDataObject): IDataObject {
	const { messageSid = null, channel = null, to = null, from = null } = sent;
	return { messageSid, status: 'timedOut', channel, to, from, code: null, timedOut: true, waitingFor: 'delivery', resumedBy: 'timeout', timestamp: null, raw: null };
}

/**
 * The waiting twin of a plain operation that waits for an outcome (a delivery report, a call's
 * end): the plain operation's fields under a notice and with Limit Wait Time, run as the plain
 * operation with `overrides(resumeUrl)` given instead of the parameters they name.
 */
export function waitingTwin(
	plain: Pick<OperationModule, 'description' | 'execute'>,
	twin: {
		option: OperationOption;
		notice: string;
		drop?: string[];
		overrides: (resumeUrl: string) => Parameters<typeof withParameters>[1];
		timedOut: (sent: IDataObject) => IDataObject;
		settled?: (context: IExecuteFunctions, sent: IDataObject) => Promise<IDataObject | undefined>;
		defaultWaitTill?: (context: IExecuteFunctions, sent: IDataObject) => Date;
	},
): OperationModule {
	return {
		option: twin.option,
		description: [waitNotice(twin.notice), ...waitingFields(plain.description, [LIMIT_WAIT_TIME_OPTION], twin.drop)],
		async execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
			return await sendThenWait(this, items, (context, resumeUrl) => ({
				send: async () => await plain.execute.call(withParameters(context, twin.overrides(resumeUrl())), items),
				timedOut: twin.timedOut,
				settled: twin.settled && (async (sent) => await twin.settled!(context, sent)),
				defaultWaitTill: twin.defaultWaitTill && ((sent) => twin.defaultWaitTill!(context, sent)),
			}));
		},
	};
}
