/**
 * Fault injection across the node families (issue: "no item lost, duplicated or resent under
 * faults"). Every case runs twice, once with onError 'continueRegularOutput' and once with
 * 'continueErrorOutput', and checks:
 *  1. every input item comes out exactly once (pairedItem indexes), failures marked with a cause;
 *  2. retries are bounded: at most RETRY_POLICY.attempts requests per logical request, 429s
 *     aside: those are paced until the service accepts, bounded by Rate Limit → Max Wait;
 *  3. a POST whose answer was lost after the service processed it is never sent again, and its
 *     items are marked `deliveryUnknown: true`; the sandbox's accepted messages hold no duplicate.
 *
 * Status faults carry `Retry-After: 0` so runs stay fast (a brief Retry-After is taken at its
 * word). Answers slower than the timeout are tested with the transport's 60 s timeout shortened,
 * and the sandbox answering the faulted requests a while after it: a POST that times out may have
 * been accepted (the sandbox does accept it once its delay is over; the test waits for that), so
 * it is not resent and is marked
 * `deliveryUnknown`; a GET that times out is retried. The timeout is short only in runs where every
 * request it governs is a late one; where some are answered at once it stays far above their
 * answer time on a busy machine.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { TIMEOUT_POLICY } from '../../../nodes/shared/transport/address';
import { RETRY_POLICY } from '../../../nodes/shared/transport/retry';
import type { Fault, FaultMatch, RecordedRequest } from '../../../sandbox/types';
import { budget, pollFor } from '../../harness/timeouts';
import { formFields, packageNode, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';

// Placed calls end quickly (simulated seconds × 0.001); report timers fire at once.
const sandbox = useSandbox({ timeScale: 0.001 });

type NodeName = 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';
type OnError = 'continueRegularOutput' | 'continueErrorOutput';

const status = (code: number): Fault => ({ kind: 'status', status: code, retryAfterSeconds: 0 });
const status5xxNoRetryAfter = (code: number): Fault => ({ kind: 'status', status: code });
const resetBefore: Fault = { kind: 'reset', when: 'before' };
const resetAfter: Fault = { kind: 'reset', when: 'after' };
const delay = (ms: number): Fault => ({ kind: 'delay', ms });

interface Case {
	name: string;
	node: NodeName;
	parameters: Record<string, unknown>;
	/** Fields of the sandbox's credentials changed for the case, by credential type. */
	credentials?: Partial<Record<string, IDataObject>>;
	items: IDataObject[];
	faults: Array<[Fault, number, FaultMatch?]>;
	/** The requests that count as "the operation's" requests (e.g. not the contact-center login). */
	requests: { method?: string; pathIncludes: string };
	/** Names the logical request a recorded attempt belongs to (retries share the key). */
	key: (request: RecordedRequest) => string;
	/** Total attempts expected for the operation's requests (or the least and the most); -1: see the storms. */
	attempts: number | [least: number, most: number];
	/** Input item indexes expected to come out as failures. */
	failed: number[];
	/** Failed items that must be marked deliveryUnknown (and no others); 'count' = how many, whichever. */
	deliveryUnknown?: number[] | { count: number };
	/** Pair indexes expected on the outputs (default: 0..N-1, once each). */
	pairs?: number[];
	/** The service's accepted records, by recipient/key: each must appear exactly once. */
	accepted?: { read: () => string[]; expected: string[] };
	/** What every failed item says, exactly; required when an item fails. */
	error?: Failure;
}

/**
 * A failed item's words: the node's message (n8n's for a lost connection, the service's for a
 * refusal), and the description, which n8n keeps on the error output only: the request, its status,
 * the service's words and the item where the service names it (a pattern only where it reads a clock).
 */
interface Failure {
	message: string;
	description: string | RegExp;
}

// ---- node families ---------------------------------------------------------------------------

const phones = (count: number, offset = 0) => Array.from({ length: count }, (_, i) => `+9198765${String(43210 + i + offset).padStart(5, '0')}`);

const smsSend = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '={{ $json.phone }}', body: 'Hello' };
const smsItems = (count: number) => phones(count).map((phone) => ({ phone }));
/** Item 1 passes the node's lenient check but the service refuses it per message (207). */
const smsMixedItems = [{ phone: phones(1)[0] }, { phone: '0123456' }, { phone: phones(1, 2)[0] }];
/** One text for every item: Send posts it to Sms/send with To[] (as Send to Many does). */
const smsStatic = { method: 'POST', pathIncludes: 'Sms/send' };
/** A text per item: Send posts dynamic bulk. */
const smsPersonal = { ...smsSend, body: '=Hello {{ $json.phone }}' };
const smsDynamic = { method: 'POST', pathIncludes: 'Sms/bulksend' };
const firstTo = (r: RecordedRequest) => formFields(r.form)['Messages[0][To]']?.[0] ?? formFields(r.form)['To[]']?.[0] ?? '?';
const acceptedSms = () => sandbox.messages().map((m) => m.to);
/** The recipients of an SMS request: To[] (static bulk) or Messages[i][To] (dynamic bulk). */
const smsRecipients = (r: RecordedRequest) => {
	const form = formFields(r.form);
	return form['To[]'] ?? Object.entries(form).filter(([k]) => k.endsWith('[To]')).map(([, v]) => v[0]);
};

const toMany = { resource: 'sms', operation: 'sendToMany', from: 'ACMEIN', body: 'Sale', recipients: '={{ $json.list }}' };
const toManyRecipients = [phones(1)[0], '0123456', phones(1, 1)[0]];

const rcs = {
	resource: 'rcs',
	operation: 'sendTemplate',
	botId: 'acme_orders_bot',
	to: '={{ $json.phone }}',
	templateName: `={{ $json.template ?? 'order_update' }}`,
};
const rcsItems = (count: number) => phones(count).map((phone) => ({ phone }));
const rcsMixedItems = [{ phone: phones(1)[0] }, { phone: phones(1, 1)[0], template: 'not_a_template' }, { phone: phones(1, 2)[0] }];
const v2Messages = { method: 'POST', pathIncludes: '/messages' };
const rcsKey = (r: RecordedRequest) => String(((r.json as IDataObject)?.rcs as { messages?: IDataObject[] })?.messages?.[0]?.to ?? '?');
const acceptedRcs = () => sandbox.rcsMessages().map((m) => String((m as unknown as IDataObject).to));

const chat = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '={{ $json.phone }}', messageType: 'text', text: 'Hi' };
const chatKey = (r: RecordedRequest) => String((r.json as IDataObject)?.to ?? '?');
const acceptedChat = () => sandbox.chatAppMessages().map((m) => String((m as unknown as IDataObject).to));

const FLOW = 'http://my.exotel.com/exotelsandbox1/flowml/start_voice/926';
const connect = { resource: 'call', operation: 'connect', from: '={{ $json.phone }}', callerId: '+918047112233', url: FLOW };
const callsConnect = { method: 'POST', pathIncludes: 'Calls/connect' };
const callKey = (r: RecordedRequest) => formFields(r.form).From?.[0] ?? '?';

const listGetMany = { resource: 'list', operation: 'getMany', limit: 10 };
const listsGet = { method: 'GET', pathIncludes: '/lists' };
const byItemQuery = (r: RecordedRequest) => `${r.path}?${JSON.stringify(r.query)}`;

const ccCreate = { resource: 'user', operation: 'create', userId: '={{ $json.id }}', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 };
const ccUsers = { method: 'POST', pathIncludes: 'contactCenterUsers' };
const ccKey = (r: RecordedRequest) => String((r.json as IDataObject)?.userId ?? '?');
const ccItems = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `fault.user${i}` }));

const allocate = { resource: 'allocation', operation: 'allocate', connectionId: '={{ $json.id }}', apartyNumbers: '+919876543210', bpartyNumbers: '+919812345678', usage: 'twoway' };
const greenvn = { method: 'POST', pathIncludes: 'greenvn' };
const allocKey = (r: RecordedRequest) => String((r.json as IDataObject)?.connection_id ?? '?');
const allocItems = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `fault-order-${i}` }));
const acceptedAllocations = () => sandbox.allocations().map((a) => a.connection_id);

const N = RETRY_POLICY.attempts;

// ---- what a failed item says -------------------------------------------------------------------

/** n8n's words for a connection the service closed (reset before or after it answered). */
const CLOSED = 'Could not reach the service: The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.';
/** n8n's words for a request the transport's timeout aborted. */
const ABORTED = 'Could not reach the service: The connection was aborted, perhaps the server is offline';
const SMS_SEND = 'POST /v1/Accounts/exotelsandbox1/Sms/send';
const V2_MESSAGES = 'POST /v2/accounts/exotelsandbox1/messages';
const CALLS_CONNECT = 'POST /v1/Accounts/exotelsandbox1/Calls/connect';
const CC_USERS = 'POST /servicerestapi/cc/contactCenterUsers';
const GREENVN = 'POST /v1/tenants/exotelsandbox1/greenvn';
/** A POST whose answer was lost (`request`: method and path): not sent again, the item's delivery unknown. */
const lostPost = (message: string, request: string): Failure => ({
	message,
	description: `${request} lost its connection. The service may have accepted it, so it was not sent again (that could duplicate messages or calls); check before resending.`,
});
/** A GET that kept failing: retried up to the limit. */
const failedGet = (message: string): Failure => ({ message, description: `GET /v2/accounts/exotelsandbox1/lists failed after ${N} attempts.` });
/** A 5xx storm that used every attempt of a request: the status, the request and the service's words. */
const serverError = (message: string, status: number, request: string, words: string): Failure => ({
	message,
	description: `The service had a server error. HTTP ${status} from ${request}.${words ? ` ${words}` : ''} Gave up after ${N} attempts.`,
});
/** The 207 entry of the SMS the service refused: its recipient and status. */
const INVALID_SMS_DESTINATION: Failure = {
	message: 'Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)',
	description: 'To 0123456: the service reported Status "failed" for this message; the other messages of the request are unaffected.',
};

const CASES: Case[] = [
	// ---- SMS Send (one text: static bulk, one POST per 100 items; a text per item: dynamic bulk) ----
	{ name: 'SMS send: 429 ×3 then success', node: 'exotelMessaging', parameters: smsSend, items: smsItems(3), faults: [[status(429), 3, smsStatic]], requests: smsStatic, key: firstTo, attempts: 4, failed: [], accepted: { read: acceptedSms, expected: phones(3) } },
	{ name: 'SMS send: a 429 storm of 10 is ridden out, nothing lost', node: 'exotelMessaging', parameters: smsSend, items: smsItems(3), faults: [[status(429), 10, smsStatic]], requests: smsStatic, key: firstTo, attempts: 11, failed: [], accepted: { read: acceptedSms, expected: phones(3) } },
	{
		name: 'SMS send: 429s without Retry-After past Rate Limit → Max Wait fail the items, nothing sent',
		node: 'exotelMessaging',
		parameters: { ...smsSend, rateLimit: { maxWaitMinutes: 0.03 } },
		items: smsItems(3),
		faults: [[{ kind: 'status', status: 429 }, 50, smsStatic]],
		requests: smsStatic,
		// 429 at 0 s; without Retry-After the window is full until the next opens, so the last try
		// goes at the 1.8 s deadline, 429: given up. A window that opens before the deadline brings
		// one more try.
		key: firstTo,
		attempts: [2, 3],
		failed: [0, 1, 2],
		deliveryUnknown: [],
		accepted: { read: acceptedSms, expected: [] },
		// given up at the Max Wait: how long the limit held reads the clock
		error: {
			message: "The account's rate limit did not lift in time: Too Many Requests (injected by the sandbox)",
			description:
				/^Rate limit exceeded \(about 200 requests a minute per account\)\. HTTP 429 from POST \/v1\/Accounts\/exotelsandbox1\/Sms\/send\. The account's rate limit held for \d+ s with nothing accepted \(Max Wait: 2 s\)\. The service did not act on this request; run it again later, or raise Rate Limit → Max Wait\.$/,
		},
	},
	{
		// On SMS a 503 is the older limit answer: without Retry-After or counters the window is full
		// until the next opens; this account counts SMS in windows of 2 s, so that is soon.
		name: 'SMS send: 503 once without Retry-After, sent again in the next window, then success',
		node: 'exotelMessaging',
		parameters: smsSend,
		credentials: { exotelApi: { rateLimits: 'SMS=200/2s' } },
		items: smsItems(2),
		faults: [[status5xxNoRetryAfter(503), 1, smsStatic]],
		requests: smsStatic,
		key: firstTo,
		attempts: 2,
		failed: [],
		accepted: { read: acceptedSms, expected: phones(2) },
	},
	{ name: 'SMS send: delay shorter than the timeout', node: 'exotelMessaging', parameters: smsSend, items: smsItems(2), faults: [[delay(300), 1, smsStatic]], requests: smsStatic, key: firstTo, attempts: 1, failed: [], accepted: { read: acceptedSms, expected: phones(2) } },
	{ name: 'SMS send: reset before (POST not resent, delivery unknown)', node: 'exotelMessaging', parameters: smsSend, items: smsItems(2), faults: [[resetBefore, 1, smsStatic]], requests: smsStatic, key: firstTo, attempts: 1, failed: [0, 1], deliveryUnknown: [0, 1], accepted: { read: acceptedSms, expected: [] }, error: lostPost(CLOSED, SMS_SEND) },
	{ name: 'SMS send: reset after (accepted, not resent)', node: 'exotelMessaging', parameters: smsSend, items: smsItems(3), faults: [[resetAfter, 1, smsStatic]], requests: smsStatic, key: firstTo, attempts: 1, failed: [0, 1, 2], deliveryUnknown: [0, 1, 2], accepted: { read: acceptedSms, expected: phones(3) }, error: lostPost(CLOSED, SMS_SEND) },
	{ name: 'SMS send: 429 then a 207 per-message failure mix', node: 'exotelMessaging', parameters: smsSend, items: smsMixedItems, faults: [[status(429), 2, smsStatic]], requests: smsStatic, key: firstTo, attempts: 3, failed: [1], deliveryUnknown: [], accepted: { read: acceptedSms, expected: [phones(1)[0], phones(1, 2)[0]] }, error: INVALID_SMS_DESTINATION },
	{ name: 'SMS send, a text per item: 429 then a 207 per-message failure mix', node: 'exotelMessaging', parameters: smsPersonal, items: smsMixedItems, faults: [[status(429), 2, smsDynamic]], requests: smsDynamic, key: firstTo, attempts: 3, failed: [1], deliveryUnknown: [], accepted: { read: acceptedSms, expected: [phones(1)[0], phones(1, 2)[0]] }, error: INVALID_SMS_DESTINATION },
	{
		name: 'SMS send: 150 items in 2 batches, one batch reset after, the other 429 ×2',
		node: 'exotelMessaging',
		parameters: smsSend,
		items: smsItems(150),
		faults: [[resetAfter, 1, smsStatic], [status(429), 2, smsStatic]],
		requests: smsStatic,
		key: firstTo,
		attempts: 4,
		failed: [],
		deliveryUnknown: { count: -1 }, // checked against the batch that was reset (50 or 100 items)
		accepted: { read: acceptedSms, expected: phones(150) },
		error: lostPost(CLOSED, SMS_SEND),
	},
	// ---- SMS Send to Many (static bulk, one input item, several recipients) ----
	{ name: 'SMS send to many: 429 ×2 then a 207 mix', node: 'exotelMessaging', parameters: toMany, items: [{ list: toManyRecipients.join(', ') }], faults: [[status(429), 2, smsStatic]], requests: smsStatic, key: firstTo, attempts: 3, failed: [0], pairs: [0, 0, 0], deliveryUnknown: [], accepted: { read: acceptedSms, expected: [toManyRecipients[0], toManyRecipients[2]] }, error: INVALID_SMS_DESTINATION },
	{ name: 'SMS send to many: reset after', node: 'exotelMessaging', parameters: toMany, items: [{ list: phones(2).join(', ') }], faults: [[resetAfter, 1, smsStatic]], requests: smsStatic, key: firstTo, attempts: 1, failed: [0, 0], pairs: [0, 0], deliveryUnknown: [0, 0], accepted: { read: acceptedSms, expected: phones(2) }, error: lostPost(CLOSED, SMS_SEND) },
	// ---- RCS Send Template (JSON bulk) ----
	{ name: 'RCS: 429 ×2 then a per-message failure mix', node: 'exotelMessaging', parameters: rcs, items: rcsMixedItems, faults: [[status(429), 2, v2Messages]], requests: v2Messages, key: rcsKey, attempts: 3, failed: [1], deliveryUnknown: [], accepted: { read: acceptedRcs, expected: [phones(1)[0], phones(1, 2)[0]] }, error: { message: 'Message not accepted: SETUP_ERROR (code 40006)', description: "rcs.messages[1].content.template.name 'not_a_template' is not an approved RCS template of this brand (sandbox: order_update, otp_code, delivery_slot or a name starting with 'approved_')" } },
	{ name: 'RCS: 500 storm past the limit', node: 'exotelMessaging', parameters: rcs, items: rcsItems(2), faults: [[status(500), 10, v2Messages]], requests: v2Messages, key: rcsKey, attempts: N, failed: [0, 1], deliveryUnknown: [], accepted: { read: acceptedRcs, expected: [] }, error: serverError('Internal server error (code 1050)', 500, V2_MESSAGES, 'Internal Server Error (injected by the sandbox)') },
	{ name: 'RCS: reset after', node: 'exotelMessaging', parameters: rcs, items: rcsItems(3), faults: [[resetAfter, 1, v2Messages]], requests: v2Messages, key: rcsKey, attempts: 1, failed: [0, 1, 2], deliveryUnknown: [0, 1, 2], accepted: { read: acceptedRcs, expected: phones(3) }, error: lostPost(CLOSED, V2_MESSAGES) },
	// ---- Chat App Send (one POST per item, sent in parallel) ----
	{ name: 'Chat app: 429 ×3, unreachable recipient mixed in', node: 'exotelMessaging', parameters: chat, items: [{ phone: phones(1)[0] }, { phone: '+919800000000' }, { phone: phones(1, 2)[0] }], faults: [[status(429), 3, v2Messages]], requests: v2Messages, key: chatKey, attempts: 6, failed: [1], deliveryUnknown: [], accepted: { read: acceptedChat, expected: [phones(1)[0], phones(1, 2)[0]] }, error: { message: 'Message not accepted: INVALID_RECIPIENT (code 30012)', description: '+919800000000 is not on the chat app, so the message cannot be delivered' } },
	{ name: 'Chat app: reset after on one of three', node: 'exotelMessaging', parameters: chat, items: smsItems(3), faults: [[resetAfter, 1, v2Messages]], requests: v2Messages, key: chatKey, attempts: 3, failed: [], deliveryUnknown: { count: 1 }, accepted: { read: acceptedChat, expected: phones(3) }, error: lostPost(CLOSED, V2_MESSAGES) },
	{ name: 'Chat app: delay shorter than the timeout', node: 'exotelMessaging', parameters: chat, items: smsItems(2), faults: [[delay(300), 2, v2Messages]], requests: v2Messages, key: chatKey, attempts: 2, failed: [], accepted: { read: acceptedChat, expected: phones(2) } },
	// ---- Voice: Call Connect (POST per item) and List Get Many (GET) ----
	{ name: 'Call connect: 429 ×3 spread over items', node: 'exotelVoice', parameters: connect, items: smsItems(2), faults: [[status(429), 3, callsConnect]], requests: callsConnect, key: callKey, attempts: 5, failed: [] },
	{ name: 'Call connect: 503 storm (2N-1 faults) exhausts exactly one of two items', node: 'exotelVoice', parameters: connect, items: smsItems(2), faults: [[status(503), 2 * N - 1, callsConnect]], requests: callsConnect, key: callKey, attempts: -1, failed: [], deliveryUnknown: [], error: serverError('Service Unavailable (injected by the sandbox)', 503, CALLS_CONNECT, '') },
	{ name: 'Call connect: reset after on one of two', node: 'exotelVoice', parameters: connect, items: smsItems(2), faults: [[resetAfter, 1, callsConnect]], requests: callsConnect, key: callKey, attempts: 2, failed: [], deliveryUnknown: { count: 1 }, error: lostPost(CLOSED, CALLS_CONNECT) },
	{ name: 'List get many: reset before ×2 (GET is retried), then success', node: 'exotelVoice', parameters: listGetMany, items: [{}], faults: [[resetBefore, 2, listsGet]], requests: listsGet, key: byItemQuery, attempts: 3, failed: [], pairs: [0, 0, 0, 0] },
	{ name: 'List get many: reset storm past the limit', node: 'exotelVoice', parameters: listGetMany, items: [{}], faults: [[resetBefore, 10, listsGet]], requests: listsGet, key: byItemQuery, attempts: N, failed: [0], deliveryUnknown: [], error: failedGet(CLOSED) },
	{ name: 'List get many: 429 ×3 and a delay', node: 'exotelVoice', parameters: listGetMany, items: [{}], faults: [[status(429), 3, listsGet], [delay(200), 1, listsGet]], requests: listsGet, key: byItemQuery, attempts: 4, failed: [], pairs: [0, 0, 0, 0] },
	// ---- Contact Center: user create (session credential, POST per item) ----
	{ name: 'CC create user: 429 once (the session transport drops Retry-After: 0.5 s backoff)', node: 'exotelContactCenter', parameters: ccCreate, items: ccItems(2), faults: [[status(429), 1, ccUsers]], requests: ccUsers, key: ccKey, attempts: 3, failed: [] },
	{ name: 'CC create user: reset after on one of two', node: 'exotelContactCenter', parameters: ccCreate, items: ccItems(2), faults: [[resetAfter, 1, ccUsers]], requests: ccUsers, key: ccKey, attempts: 2, failed: [], deliveryUnknown: { count: 1 }, error: lostPost(CLOSED, CC_USERS) },
	{ name: 'CC create user: delay shorter than the timeout', node: 'exotelContactCenter', parameters: ccCreate, items: ccItems(2), faults: [[delay(300), 2, ccUsers]], requests: ccUsers, key: ccKey, attempts: 2, failed: [] },
	// ---- Number Allocation: allocate (POST per item) ----
	{ name: 'Allocate: 429 ×2 then success', node: 'exotelNumberAllocation', parameters: allocate, items: allocItems(3), faults: [[status(429), 2, greenvn]], requests: greenvn, key: allocKey, attempts: 5, failed: [], accepted: { read: acceptedAllocations, expected: allocItems(3).map((i) => i.id) } },
	{ name: 'Allocate: reset after on one of three', node: 'exotelNumberAllocation', parameters: allocate, items: allocItems(3), faults: [[resetAfter, 1, greenvn]], requests: greenvn, key: allocKey, attempts: 3, failed: [], deliveryUnknown: { count: 1 }, accepted: { read: acceptedAllocations, expected: allocItems(3).map((i) => i.id) }, error: lostPost(CLOSED, GREENVN) },
	{ name: 'Allocate: 502 storm (2N-1 faults) exhausts exactly one of two items', node: 'exotelNumberAllocation', parameters: allocate, items: allocItems(2), faults: [[status(502), 2 * N - 1, greenvn]], requests: greenvn, key: allocKey, attempts: -1, failed: [], deliveryUnknown: [], error: serverError('The allocation service had an internal error (code 0)', 502, GREENVN, 'Bad Gateway (injected by the sandbox)') },
];

// ---- checks ----------------------------------------------------------------------------------

function pairIndexes(items: INodeExecutionData[]): number[] {
	return items.flatMap((item) => {
		const pairs = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
		return pairs.map((p) => (typeof p === 'number' ? p : (p?.item ?? -1)));
	});
}

const sorted = (list: Array<number | string>) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const isFailure = (item: INodeExecutionData) => item.json.error !== undefined;

/**
 * Resolves once the sandbox has answered every request it delayed (its record has a status): an
 * answer the transport gave up on lands later, and what the service does with it (a message
 * accepted, a call placed) is done by then, within this case.
 */
async function lateAnswersLanded(): Promise<void> {
	const unanswered = () => sandbox.requests().filter((r) => r.fault?.startsWith('delay:') && r.status === 0);
	await pollFor(
		"the sandbox's delayed answers",
		30_000,
		async () => (unanswered().length === 0 ? true : undefined),
		async () => `unanswered: ${unanswered().map((r) => `${r.method} ${r.path} (${r.fault})`).join(', ')}`,
		10,
	);
}

async function checkCase(c: Case, onError: OnError): Promise<void> {
		for (const [fault, count, match] of c.faults) sandbox.injectFaults(fault, count, match ?? {});
		const result = await runWorkflow({
			nodes: [itemsNode('Items', c.items), packageNode(c.node, c.parameters as INodeParameters, { onError })],
			connections: chain('Items', 'Exotel'),
			credentials: sandboxCredentials(sandbox, c.credentials),
		});
		expect(result.error).toBeUndefined();
		await lateAnswersLanded();

		// (1) every item exactly once, failures marked with a cause
		const main = result.output('Exotel', 0);
		const errorOut = onError === 'continueErrorOutput' ? result.output('Exotel', 1) : [];
		const everything = [...main, ...errorOut];
		const expectedPairs = c.pairs ?? c.items.map((_, i) => i);
		expect(sorted(pairIndexes(everything))).toEqual(sorted(expectedPairs));
		const failures = everything.filter(isFailure);
		if (onError === 'continueErrorOutput') {
			expect(main.filter(isFailure)).toEqual([]);
			expect(errorOut.every(isFailure)).toBe(true);
		}
		// each failure in the node's exact words: the message on either output, the description too on
		// the error output (the regular output keeps the message alone)
		const said = failures.map((failure) => {
			const error = failure.json.error;
			return typeof error === 'string' ? { message: error } : { message: (error as IDataObject)?.message, description: (error as IDataObject)?.description };
		});
		const description = c.error && (typeof c.error.description === 'string' ? c.error.description : expect.stringMatching(c.error.description));
		const expected = c.error && (onError === 'continueErrorOutput' ? { message: c.error.message, description } : { message: c.error.message });
		expect(said).toEqual(failures.map(() => expected));

		// (2) bounded retries: at most RETRY_POLICY.attempts per logical request
		const requests = sandbox.requests(c.requests);
		const perKey = new Map<string, number>();
		for (const r of requests.filter((x) => x.status !== 429)) perKey.set(c.key(r), (perKey.get(c.key(r)) ?? 0) + 1);
		for (const [, count] of perKey) expect(count).toBeLessThanOrEqual(RETRY_POLICY.attempts);
		if (Array.isArray(c.attempts)) {
			expect(requests.length).toBeGreaterThanOrEqual(c.attempts[0]);
			expect(requests.length).toBeLessThanOrEqual(c.attempts[1]);
		} else if (c.attempts >= 0) expect(requests).toHaveLength(c.attempts);
		if (c.attempts === -1) {
			// A storm that can exhaust only some items: the items whose request used every attempt
			// (and saw only faults) are the failures, the rest succeeded.
			const exhausted = [...perKey].filter(([key, n]) => n === RETRY_POLICY.attempts && requests.filter((r) => c.key(r) === key).every((r) => r.fault));
			// 2N-1 faults over two parallel items: both succeeding would take at most 2(N-1) faults,
			// both failing 2N, so exactly one item uses its N attempts and fails; the other succeeds.
			expect(exhausted).toHaveLength(1);
			expect(failures).toHaveLength(1);
			expect(requests).toHaveLength(2 * N);
		} else if (c.deliveryUnknown && !Array.isArray(c.deliveryUnknown)) {
			// failures are exactly the lost ones; checked below
		} else {
			expect(sorted(pairIndexes(failures))).toEqual(sorted(c.failed));
		}

		// (3) no resend after acceptance; lost answers marked deliveryUnknown
		const unknown = everything.filter((item) => item.json.deliveryUnknown === true || (item.json.error as IDataObject)?.deliveryUnknown === true);
		const lost = requests.filter((r) => r.fault === 'reset:after');
		for (const r of lost) expect(requests.filter((x) => c.key(x) === c.key(r))).toHaveLength(1);
		if (Array.isArray(c.deliveryUnknown)) {
			expect(sorted(pairIndexes(unknown))).toEqual(sorted(c.deliveryUnknown));
		} else if (c.deliveryUnknown) {
			if (c.deliveryUnknown.count >= 0) expect(unknown).toHaveLength(c.deliveryUnknown.count);
			else {
				// The reset batch: its recipients are exactly the items marked unknown.
				expect(lost).toHaveLength(1);
				const lostTo = smsRecipients(lost[0]);
				expect([50, 100]).toContain(lostTo.length);
				expect(sorted(pairIndexes(unknown))).toEqual(sorted(lostTo.map((to) => phones(150).indexOf(to))));
			}
			expect(failures).toHaveLength(unknown.length);
		}
		expect(unknown.every(isFailure)).toBe(true);
		if (c.accepted) {
			const accepted = c.accepted.read();
			expect(new Set(accepted).size).toBe(accepted.length);
			expect(sorted(accepted)).toEqual(sorted(c.accepted.expected));
		}
}

describe.each<OnError>(['continueRegularOutput', 'continueErrorOutput'])('faults with onError %s', (onError) => {
	it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => await checkCase(c, onError));
});

// ---- answers slower than the timeout ---------------------------------------------------------

/** The timeout of a run whose every request under it is answered late: short, so the run is quick. */
const SHORT_TIMEOUT_MS = 400;
/**
 * The timeout of a run where some requests are answered at once: they must never meet it, however
 * busy the machine (the default is 60 s; this is far above an answer from the local sandbox).
 */
const onTimeRequestsTimeoutMs = () => budget(3000);
/** How long after the timeout the sandbox answers a late request (and handles it: accepted later). */
const LATE_BY_MS = 800;

interface TimeoutCase extends Omit<Case, 'faults'> {
	/** How many of the requests matching what the sandbox answers past the timeout. */
	late: [count: number, match: FaultMatch];
	/**
	 * Whether the run has requests under the transport's timeout that are answered at once (another
	 * item's, a retry): then the timeout stays long. Without them the test checks that every request
	 * under it was a late one (the contact-center login has no timeout of the transport's).
	 */
	onTimeRequests: boolean;
}

const TIMEOUT_CASES: TimeoutCase[] = [
	{ name: 'SMS send: answer past the timeout (accepted later, not resent, delivery unknown)', node: 'exotelMessaging', parameters: smsSend, items: smsItems(2), late: [1, smsStatic], onTimeRequests: false, requests: smsStatic, key: firstTo, attempts: 1, failed: [0, 1], deliveryUnknown: [0, 1], accepted: { read: acceptedSms, expected: phones(2) }, error: lostPost(ABORTED, SMS_SEND) },
	{ name: 'RCS: answer past the timeout (accepted later, not resent, delivery unknown)', node: 'exotelMessaging', parameters: rcs, items: rcsItems(2), late: [1, v2Messages], onTimeRequests: false, requests: v2Messages, key: rcsKey, attempts: 1, failed: [0, 1], deliveryUnknown: [0, 1], accepted: { read: acceptedRcs, expected: phones(2) }, error: lostPost(ABORTED, V2_MESSAGES) },
	{ name: 'Chat app: one answer past the timeout (that item unknown, the other sent)', node: 'exotelMessaging', parameters: chat, items: smsItems(2), late: [1, v2Messages], onTimeRequests: true, requests: v2Messages, key: chatKey, attempts: 2, failed: [], deliveryUnknown: { count: 1 }, accepted: { read: acceptedChat, expected: phones(2) }, error: lostPost(ABORTED, V2_MESSAGES) },
	{ name: 'Call connect: answer past the timeout (not resent, delivery unknown)', node: 'exotelVoice', parameters: connect, items: smsItems(1), late: [1, callsConnect], onTimeRequests: false, requests: callsConnect, key: callKey, attempts: 1, failed: [0], deliveryUnknown: [0], error: lostPost(ABORTED, CALLS_CONNECT) },
	{ name: 'List get many: answer past the timeout once, retried (GET)', node: 'exotelVoice', parameters: listGetMany, items: [{}], late: [1, listsGet], onTimeRequests: true, requests: listsGet, key: byItemQuery, attempts: 2, failed: [], pairs: [0, 0, 0, 0] },
	{ name: 'List get many: every answer past the timeout, gives up after the limit', node: 'exotelVoice', parameters: listGetMany, items: [{}], late: [N, listsGet], onTimeRequests: false, requests: listsGet, key: byItemQuery, attempts: N, failed: [0], deliveryUnknown: [], error: failedGet(ABORTED) },
	{ name: 'CC create user: answer past the timeout (not resent, delivery unknown)', node: 'exotelContactCenter', parameters: ccCreate, items: ccItems(1), late: [1, ccUsers], onTimeRequests: false, requests: ccUsers, key: ccKey, attempts: 1, failed: [0], deliveryUnknown: [0], error: lostPost(ABORTED, CC_USERS) },
	{ name: 'Allocate: answer past the timeout (accepted later, not resent, delivery unknown)', node: 'exotelNumberAllocation', parameters: allocate, items: allocItems(1), late: [1, greenvn], onTimeRequests: false, requests: greenvn, key: allocKey, attempts: 1, failed: [0], deliveryUnknown: [0], accepted: { read: acceptedAllocations, expected: ['fault-order-0'] }, error: lostPost(ABORTED, GREENVN) },
];

/** `value` without `keys`. */
function omit<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
	return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;
}

async function checkTimeoutCase(c: TimeoutCase, onError: OnError): Promise<void> {
	const timeoutMs = c.onTimeRequests ? onTimeRequestsTimeoutMs() : SHORT_TIMEOUT_MS;
	const [count, match] = c.late;
	// The sandbox starts its delay once it has read the request, after the transport started the
	// timeout: on the one event loop they share, the timeout always fires first, however late.
	const lateMs = timeoutMs + LATE_BY_MS;
	const rest = omit(c, 'late', 'onTimeRequests');
	const saved = TIMEOUT_POLICY.requestMs;
	TIMEOUT_POLICY.requestMs = timeoutMs;
	try {
		await checkCase({ ...rest, faults: [[delay(lateMs), count, match]] }, onError);
	} finally {
		TIMEOUT_POLICY.requestMs = saved;
	}
	expect(sandbox.requests().filter((r) => r.fault === `delay:${lateMs}`)).toHaveLength(count);
	if (!c.onTimeRequests) {
		const underTimeout = sandbox.requests().filter((r) => !r.path.endsWith('/session/userLogin'));
		expect(underTimeout.filter((r) => r.fault !== `delay:${lateMs}`)).toEqual([]);
	}
}

describe.each<OnError>(['continueRegularOutput', 'continueErrorOutput'])('answers past the timeout with onError %s', (onError) => {
	it.each(TIMEOUT_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => await checkTimeoutCase(c, onError));
});
