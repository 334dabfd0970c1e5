/**
 * Waits that nothing forges, strands or loses, through n8n-core:
 * - every waiting operation × every callback shape the package reads (chat app reply and report,
 *   RCS reply and report, SMS status as form and JSON, call status v1 and management) × signed,
 *   unsigned and wrongly signed, with and without a signing secret on the credential: only the
 *   operation's own callback resumes it; a report or reply of another message never does;
 * - the Messaging Trigger with a secret: a chat-app payload in any envelope must be signed;
 * - the credential's API token, signing secret and name changed while a run waits: the genuine
 *   callback still resumes it, a request to a URL the run did not make still gets 401;
 * - a call that ended before the wait was saved resumes at once from the service's own record
 *   (resumedBy statusCheck); one whose callback never comes stops waiting at a bound.
 * Each waiting run is resumed many times from the same saved state (result.resume works on a copy).
 */
import { createHmac } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { ExotelMessagingTrigger } from '../../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
// The service's side of the signature: the sandbox's own signer (sandbox/callbacks/dispatcher.ts, the
// spec's rule: `sha256=` + hex HMAC-SHA256 of the raw bytes keyed with the signing secret), never the
// product's signPayload, so a wrong scheme in the product fails here.
import { signPayload } from '../../../sandbox/callbacks';
import { sandboxCredentialData } from '../../../sandbox/fixtures';
import { formFields, runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import type { ResumeRequest, RunResult } from '../../helpers/n8n-core-harness';
import { callWebhook } from '../../helpers/webhook-context';

const sandbox = useSandbox();

const BUSINESS = '+918047112233';
const TO = '+919876543210';
const SECRET = SANDBOX_ACCOUNT.webhookSigningSecret;
const FLOW = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`;
const FORM = 'application/x-www-form-urlencoded';

type Wait = 'chatReply' | 'rcsReply' | 'smsDelivery' | 'chatDelivery' | 'callEnd';

const OPERATIONS: Record<Wait, { node: 'exotelMessaging' | 'exotelVoice'; parameters: IDataObject }> = {
	chatReply: {
		node: 'exotelMessaging',
		parameters: { resource: 'chatApp', operation: 'sendAndWait', from: BUSINESS, to: TO, message: 'Approve the refund?', responseType: 'approval' },
	},
	rcsReply: { node: 'exotelMessaging', parameters: { resource: 'rcs', operation: 'sendAndWait', botId: 'acme_orders_bot', to: TO, templateName: 'order_update' } },
	smsDelivery: { node: 'exotelMessaging', parameters: { resource: 'sms', operation: 'sendAndWaitForDelivery', from: 'ACMEHQ', to: TO, body: 'Your OTP is 482913' } },
	chatDelivery: {
		node: 'exotelMessaging',
		parameters: { resource: 'chatApp', operation: 'sendAndWaitForDelivery', from: BUSINESS, to: TO, messageType: 'text', text: 'Your order shipped' },
	},
	callEnd: { node: 'exotelVoice', parameters: { resource: 'call', operation: 'connectAndWait', from: TO, callerId: BUSINESS, url: FLOW } },
};

/** A waiting run, the id of what it sent, and its resume URL. */
interface Waiting {
	result: RunResult;
	sid: string;
	url: string;
}

async function startWait(wait: Wait, credentialOverrides: IDataObject = {}): Promise<Waiting> {
	const { node, parameters } = OPERATIONS[wait];
	const result = await runNode(sandbox, node, parameters, [{}], { credentialOverrides: { exotelApi: credentialOverrides } });
	expect(result.status).toBe('waiting');
	const request = sandbox.requests({ method: 'POST' }).at(-1)!;
	const url = request.json ? String((request.json as IDataObject).status_callback ?? ((request.json as { rcs?: { messages?: IDataObject[] } }).rcs?.messages?.[0]?.status_callback)) : formFields(request.form).StatusCallback[0];
	const waiting = result.output('Exotel')[0].json;
	return { result, sid: String(waiting.messageSid ?? waiting.callSid), url };
}

/** One callback shape the package reads, carrying `sid` (the waited message or call) where it names one. */
type Shape = 'chatAppReply' | 'chatAppReport' | 'rcsReply' | 'rcsReport' | 'smsForm' | 'smsJson' | 'callV1' | 'callManagement';

function body(shape: Shape, sid: string): { raw: string; contentType: string } {
	const json = (value: unknown) => ({ raw: JSON.stringify(value), contentType: 'application/json' });
	const form = (value: Record<string, string>) => ({ raw: new URLSearchParams(value).toString(), contentType: FORM });
	switch (shape) {
		case 'chatAppReply':
			return json({
				chatapp: {
					messages: [
						{ callback_type: 'icm', sid: 'reply-1', from: TO, to: BUSINESS, type: 'button', button: { payload: 'approve', text: 'Approve' }, context: { from: BUSINESS, id: sid } },
					],
				},
			});
		case 'chatAppReport':
			return json({ chatapp: { messages: [{ callback_type: 'dlr', sid, to: TO, exo_status_code: 30002, exo_detailed_status: 'EX_MESSAGE_DELIVERED' }] } });
		case 'rcsReply':
			return json({
				rcs: {
					messages: [
						{
							callback_type: 'incoming_message',
							sid: 'reply-2',
							from: TO,
							to: 'acme_orders_bot',
							content: { type: 'suggested', suggested: { response: { reply: { text: 'Approve', postback_data: 'approve' } } } },
						},
					],
				},
			});
		case 'rcsReport':
			return json({ rcs: { messages: [{ callback_type: 'dlr', sid, to: TO, exo_status_code: 40002, exo_detailed_status: 'EX_MESSAGE_DELIVERED' }] } });
		case 'smsForm':
			return form({ SmsSid: sid, To: TO, Status: 'sent', DetailedStatus: 'DELIVERED_TO_HANDSET', DetailedStatusCode: '20005' });
		case 'smsJson':
			return json({ SmsSid: sid, To: TO, Status: 'sent', DetailedStatus: 'DELIVERED_TO_HANDSET', DetailedStatusCode: 20005 });
		case 'callV1':
			return form({ CallSid: sid, Status: 'completed', EventType: 'terminal', From: TO, StartTime: '2026-11-24 10:00:00', EndTime: '2026-11-24 10:00:35', 'Legs[0][Status]': 'completed' });
		case 'callManagement':
			return json({ call_sid: sid, event_type: 'terminal', call_state: 'terminal', duration: 35 });
	}
}

const SHAPES: Shape[] = ['chatAppReply', 'chatAppReport', 'rcsReply', 'rcsReport', 'smsForm', 'smsJson', 'callV1', 'callManagement'];
/** The one callback each wait expects (an SMS status callback as a form or as JSON). */
const OWN: Record<Wait, Shape[]> = {
	chatReply: ['chatAppReply'],
	rcsReply: ['rcsReply'],
	smsDelivery: ['smsForm', 'smsJson'],
	chatDelivery: ['chatAppReport'],
	callEnd: ['callV1'],
};
/** Shapes wholly of a family the service posts unsigned (the spec signs chat-app webhooks only). */
const UNSIGNED_FAMILY: Shape[] = ['rcsReply', 'rcsReport', 'smsForm', 'smsJson', 'callV1'];
const CHAT_APP_WAITS: Wait[] = ['chatReply', 'chatDelivery'];

type Signing = 'signed' | 'unsigned' | 'wronglySigned';

function request(url: string, shape: Shape, sid: string, signing: Signing): ResumeRequest {
	const { raw, contentType } = body(shape, sid);
	const headers: Record<string, string> =
		signing === 'signed' ? { 'x-service-signature': signPayload(raw, SECRET) } : signing === 'wronglySigned' ? { 'x-service-signature': signPayload(raw, 'not-the-secret') } : {};
	return { url, body: raw, contentType, headers };
}

/** What must happen: resumed (200), acknowledged and still waiting (200), or refused (401). */
function expected(wait: Wait, shape: Shape, signing: Signing, withSecret: boolean): 'resumed' | 'ignored' | 'refused' {
	const signatureOk = !withSecret || signing === 'signed' || (signing === 'unsigned' && !CHAT_APP_WAITS.includes(wait) && UNSIGNED_FAMILY.includes(shape));
	if (!signatureOk) return 'refused';
	return OWN[wait].includes(shape) ? 'resumed' : 'ignored';
}

describe.each([
	['with a signing secret on the credential', true],
	['without a signing secret', false],
])('every waiting operation × every callback shape × signed, unsigned, wrongly signed: %s', (_title, withSecret) => {
	it.each(Object.keys(OPERATIONS) as Wait[])('%s: resumed only by its own callback', async (wait) => {
		const waiting = await startWait(wait, withSecret ? {} : { webhookSigningSecret: '' });
		const outcomes: string[] = [];
		const wanted: string[] = [];
		for (const shape of SHAPES) {
			for (const signing of ['signed', 'unsigned', 'wronglySigned'] as Signing[]) {
				const { answer, result } = await waiting.result.resume(request(waiting.url, shape, waiting.sid, signing));
				const outcome =
					answer.status === 200 && result?.status === 'success'
						? 'resumed'
						: answer.status === 200 && result === undefined && (answer.body as IDataObject)?.resumed === false
							? 'ignored'
							: answer.status === 401 && result === undefined
								? 'refused'
								: `unexpected ${answer.status} ${JSON.stringify(answer.body)}`;
				outcomes.push(`${shape} ${signing}: ${outcome}`);
				wanted.push(`${shape} ${signing}: ${expected(wait, shape, signing, withSecret)}`);
				if (outcome === 'resumed') expect(result!.output('Exotel')[0].json).toMatchObject({ timedOut: false, resumedBy: 'callback' });
			}
		}
		expect(outcomes).toEqual(wanted);
	});
});

describe('a report or reply of another message, or a report naming none, never resumes', () => {
	it('chat app and SMS delivery, call end: another sid, no sid, a pending status', async () => {
		const cases: Array<[Wait, string, number, unknown, string]> = [];
		const chat = await startWait('chatDelivery');
		const sms = await startWait('smsDelivery');
		const call = await startWait('callEnd');
		const chatReport = (entry: IDataObject) => JSON.stringify({ chatapp: { messages: [{ callback_type: 'dlr', to: TO, exo_status_code: 30002, ...entry }] } });
		const signed = (raw: string): ResumeRequest => ({ url: chat.url, body: raw, headers: { 'x-service-signature': signPayload(raw, SECRET) } });
		for (const [what, raw] of [
			['another sid', chatReport({ sid: 'another-message' })],
			['no sid', chatReport({})],
			['sent', chatReport({ sid: chat.sid, exo_status_code: 30001 })],
		] as const) {
			const { answer, result } = await chat.result.resume(signed(raw));
			cases.push(['chatDelivery', what, answer.status, answer.body, result?.status ?? 'waiting']);
		}
		const smsReport = (fields: Record<string, string>) => ({ url: sms.url, contentType: FORM, body: new URLSearchParams({ To: TO, Status: 'sent', ...fields }).toString() });
		for (const [what, fields] of [
			['another sid', { SmsSid: 'another-message' }],
			['empty sid', { SmsSid: '' }],
			['queued', { SmsSid: sms.sid, Status: 'queued' }],
			['submitted', { SmsSid: sms.sid, Status: 'submitted' }],
		] as const) {
			const { answer, result } = await sms.result.resume(smsReport(fields));
			cases.push(['smsDelivery', what, answer.status, answer.body, result?.status ?? 'waiting']);
		}
		const callReport = (fields: Record<string, string>) => ({ url: call.url, contentType: FORM, body: new URLSearchParams({ Status: 'completed', EventType: 'terminal', ...fields }).toString() });
		for (const [what, fields] of [
			['another sid', { CallSid: 'another-call' }],
			['empty sid', { CallSid: '' }],
			['answered', { CallSid: call.sid, EventType: 'answered', Status: 'in-progress' }],
		] as const) {
			const { answer, result } = await call.result.resume(callReport(fields));
			cases.push(['callEnd', what, answer.status, answer.body, result?.status ?? 'waiting']);
		}
		// each acknowledged as the node acknowledges what it does not resume on (200, resumed: false), and still waiting
		expect(cases).toEqual(cases.map(([wait, what]) => [wait, what, 200, { received: true, resumed: false }, 'waiting']));
	});

	it('a chat-app reply naming another message is ignored; one naming this message, or none (free text), resumes', async () => {
		const waiting = await startWait('chatReply');
		const reply = (context?: IDataObject) => {
			const raw = JSON.stringify({
				chatapp: { messages: [{ callback_type: 'icm', sid: 'r', from: TO, type: 'button', button: { payload: 'approve', text: 'Approve' }, ...(context ? { context } : {}) }] },
			});
			return { url: waiting.url, body: raw, headers: { 'x-service-signature': signPayload(raw, SECRET) } };
		};
		// acknowledged (200, not resumed) and still waiting: not a 401 or a 500 that happens to resume nothing
		const ignored = await waiting.result.resume(reply({ from: BUSINESS, id: 'another-message' }));
		expect([ignored.answer.status, ignored.answer.body, ignored.result]).toEqual([200, { received: true, resumed: false }, undefined]);
		expect((await waiting.result.resume(reply({ from: BUSINESS, id: waiting.sid }))).result?.status).toBe('success');
		// The spec routes a reply to its message's own status_callback and shows no reference in RCS
		// replies or typed text: a reply naming no message is this message's.
		expect((await waiting.result.resume(reply())).result?.status).toBe('success');
	});
});

describe('SMS Send and Wait for Approval: only the confirmation page’s form, with the answer its link carries', () => {
	async function approvalLinks() {
		const result = await runNode(sandbox, 'exotelMessaging', {
			resource: 'sms',
			operation: 'sendAndWait',
			from: 'ACMEHQ',
			to: TO,
			message: 'Approve PO-77?',
		});
		// one message with no per-message option: Sms/send (static bulk of one)
		const text = formFields(sandbox.requests({ method: 'POST', pathIncludes: 'Sms/send' })[0].form).Body[0];
		const [approve, decline] = [...text.matchAll(/(?:Approve|Decline): (\S+)/g)].map((m) => m[1]);
		return { result, approve, decline };
	}

	it('a POST whose answer differs from the link’s, and callbacks of any shape, resume nothing', async () => {
		const { result, approve } = await approvalLinks();
		const changed = await result.resume({ url: approve, method: 'POST', contentType: FORM, body: 'answer=decline&confirm=1' });
		expect([changed.answer.status, changed.result]).toEqual([400, undefined]);
		for (const shape of SHAPES) {
			const { raw, contentType } = body(shape, 'any');
			const { answer, result: resumed } = await result.resume({ url: approve, method: 'POST', contentType, body: raw, headers: { 'x-service-signature': signPayload(raw, SECRET) } });
			expect([shape, answer.status, resumed]).toEqual([shape, 200, undefined]);
		}
		const confirmed = await result.resume({ url: approve, method: 'POST', contentType: FORM, body: 'answer=approve&confirm=1' });
		expect(confirmed.result!.output('Exotel')[0].json).toMatchObject({ approved: true, resumedBy: 'callback' });
	});
});

describe('the Messaging Trigger with a signing secret: a chat-app payload in any envelope must be signed', () => {
	const trigger = new ExotelMessagingTrigger();
	const chatapp = { chatapp: { messages: [{ callback_type: 'icm', sid: 'r', from: TO, type: 'text', text: { body: 'hi' } }] } };
	const parameters = { events: ['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus', 'unknown'], statuses: [] };
	const envelopes: Array<[string, string, string, number]> = [
		['chat app, JSON', JSON.stringify(chatapp), 'application/json', 401],
		['chat app, form bracket keys', 'chatapp[messages][0][callback_type]=icm&chatapp[messages][0][from]=%2B919876543210', FORM, 401],
		['chat-app incoming message', JSON.stringify({ event: 'incoming_message', message: { id: 'm', from: TO, type: 'text', text: { body: 'hi' } } }), 'application/json', 401],
		['RCS with a chat-app payload beside it', JSON.stringify({ rcs: { messages: [] }, ...chatapp }), 'application/json', 401],
		['SMS form with a chat-app payload beside it', `SmsSid=s1&Status=sent&chatapp[messages][0][callback_type]=icm`, FORM, 401],
		['an unknown shape', JSON.stringify({ hello: 'world' }), 'application/json', 401],
		['RCS alone', JSON.stringify({ rcs: { messages: [{ callback_type: 'dlr', sid: 'r1', exo_status_code: 40002 }] } }), 'application/json', 200],
		['SMS status form alone', 'SmsSid=s1&To=%2B919876543210&Status=sent', FORM, 200],
	];

	it.each(envelopes)('%s, unsigned', async (_what, raw, contentType, status) => {
		const answer = await callWebhook(trigger, { rawBody: raw, contentType, parameters, credentials: { ...sandboxCredentialData('http://127.0.0.1:1').exotelApi, webhookSigningSecret: SECRET } } as never);
		expect(answer.status).toBe(status);
		if (status === 401) expect(answer.workflowData).toBeUndefined();
	});

	it.each(envelopes)('%s, signed: accepted; wrongly signed: refused', async (_what, raw, contentType) => {
		const credentials = { ...sandboxCredentialData('http://127.0.0.1:1').exotelApi, webhookSigningSecret: SECRET };
		const signed = await callWebhook(trigger, { rawBody: raw, contentType, headers: { 'x-service-signature': signPayload(raw, SECRET) }, parameters, credentials } as never);
		expect(signed.status).toBe(200);
		const wrong = await callWebhook(trigger, { rawBody: raw, contentType, headers: { 'x-service-signature': signPayload(raw, 'other') }, parameters, credentials } as never);
		expect(wrong.status).toBe(401);
	});
});

describe('rotating the credential does not strand a waiting execution', () => {
	it.each(['chatReply', 'smsDelivery', 'callEnd'] as Wait[])('%s: new API token, signing secret and name; the genuine callback resumes, a URL it did not make gets 401', async (wait) => {
		const waiting = await startWait(wait);
		const shape = OWN[wait][0];
		const newSecret = 'rotated-signing-secret';
		waiting.result.credentialStore.add({
			type: 'exotelApi',
			name: 'Exotel (rotated)',
			data: { ...sandboxCredentialData(sandbox.origin).exotelApi, apiToken: 'rotated-api-token', webhookSigningSecret: newSecret } as never,
		});
		const { raw, contentType } = body(shape, waiting.sid);
		const headers = { 'x-service-signature': signPayload(raw, newSecret) };
		const forged = new URL(waiting.url);
		forged.searchParams.set('signature', 'f'.repeat(64));
		const unsigned = new URL(waiting.url);
		unsigned.searchParams.delete('signature');
		for (const url of [forged.toString(), unsigned.toString()]) {
			const refused = await waiting.result.resume({ url, body: raw, contentType, headers });
			expect([refused.answer.status, refused.result]).toEqual([401, undefined]);
		}
		const { answer, result } = await waiting.result.resume({ url: waiting.url, body: raw, contentType, headers });
		expect([answer.status, result?.status]).toEqual([200, 'success']);
	});

	/**
	 * The token 0.3.0 put in its resume URLs (`exotelToken`), written here from 0.3.0 itself, not from
	 * the product: the first 32 hex characters of the HMAC-SHA256, keyed with the credential's API
	 * token, of `exotel-resume:<execution id>:<node id>`.
	 */
	const token030 = (apiToken: string, executionId: string, nodeId: string) =>
		createHmac('sha256', apiToken).update(`exotel-resume:${executionId}:${nodeId}`).digest('hex').slice(0, 32);

	it('the 0.3.0 token as written here is the one 0.3.0 made (a fixed vector)', () => {
		// Computed once by running 0.3.0's own tokenFor with node (git show eb0a3c3:nodes/shared/sendAndWait.ts,
		// the 0.3.0 release, lines 183-185): API token 'sbx-api-token-SECRET-91d2e7', execution '4242', node 'exotel-node-7'.
		expect(token030('sbx-api-token-SECRET-91d2e7', '4242', 'exotel-node-7')).toBe('8b7e172b4eae84306c5c5df1de4da77a');
	});

	it('a wait started by 0.3.0 (its URL carries exotelToken, keyed with the API token) still resumes after the upgrade', async () => {
		const waiting = await startWait('smsDelivery');
		const executionId = /webhook-waiting\/(\d+)\//.exec(waiting.url)![1];
		const nodeId = new URL(waiting.url).pathname.split('/').pop()!;
		const token = token030(SANDBOX_ACCOUNT.apiToken, executionId, nodeId);
		const legacy = new URL(waiting.url);
		legacy.search = `?exotelToken=${token}`;
		const { raw, contentType } = body('smsForm', waiting.sid);
		expect((await waiting.result.resume({ url: legacy.toString().replace(token, '0'.repeat(32)), body: raw, contentType })).answer.status).toBe(401);
		expect((await waiting.result.resume({ url: legacy.toString(), body: raw, contentType })).result?.status).toBe('success');
	});
});

describe('a call wait never hangs on a lost callback', () => {
	const voice = async (from: string, more: IDataObject = {}) =>
		await runNode(sandbox, 'exotelVoice', { ...OPERATIONS.callEnd.parameters, from, ...more });

	it('the terminal came before the wait was saved: the call’s own record ends it at once (resumedBy statusCheck)', async () => {
		const result = await voice('+919876500044');
		expect(result.status).toBe('success');
		// the sandbox posted the terminal before answering the connect: nobody took it (in n8n, a 409)
		const [lost] = sandbox.callbacks({ kind: 'call-status' });
		expect(lost).toMatchObject({ outcome: 'failed', attempt: 1 });
		const callSid = String(lost.messageSid);
		const gets = sandbox.requests({ method: 'GET' });
		expect(gets.map((r) => [r.path, r.query])).toEqual([[`/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Calls/${callSid}.json`, { details: 'true' }]]);
		const [item] = result.output('Exotel');
		expect(Object.keys(item.json)).toEqual([
			'callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl',
			'eventType', 'conversationDuration', 'customField', 'answeredBy', 'legs', 'timedOut', 'waitingFor', 'resumedBy', 'raw',
		]);
		expect(item.json).toMatchObject({ callSid, status: 'failed', from: '+919876500044', duration: 0, timedOut: false, waitingFor: 'callEnd', resumedBy: 'statusCheck' });
	});

	it('a call still in progress waits; without Limit Wait Time, until its Time Limit and Time Out and 10 minutes have passed', async () => {
		const before = Date.now();
		const result = await voice(TO, { additionalFields: { timeLimit: 600, timeOut: 45 } });
		expect(result.status).toBe('waiting');
		const bound = (600 + 45 + 600) * 1000;
		expect(result.waitTill!.getTime()).toBeGreaterThanOrEqual(before + bound);
		expect(result.waitTill!.getTime()).toBeLessThanOrEqual(Date.now() + bound);
		const defaults = await voice(TO);
		expect(defaults.waitTill!.getTime() - Date.now()).toBeGreaterThan((14400 + 120 + 600) * 1000 - 60_000);
	});

	it('the callback never comes: at the bound the node continues with status timedOut, resumedBy timeout', async () => {
		const result = await voice('+919876500055', { additionalFields: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' } } } });
		const waiting = result.output('Exotel')[0].json;
		const timedOut = (await result.timeOut()).output('Exotel')[0].json;
		expect(timedOut).toEqual({
			callSid: waiting.callSid,
			status: 'timedOut',
			from: '+919876500055',
			to: null,
			direction: waiting.direction,
			startTime: waiting.startTime,
			endTime: null,
			duration: null,
			recordingUrl: null,
			eventType: null,
			conversationDuration: null,
			customField: null,
			answeredBy: [],
			legs: [],
			timedOut: true,
			waitingFor: 'callEnd',
			resumedBy: 'timeout',
			raw: null,
		});
		expect(sandbox.callbacks({ kind: 'call-status' })).toEqual([]);
	});
});

describe('timed-out delivery waits say timedOut; codes are numbers on SMS and chat app alike', () => {
	it.each(['smsDelivery', 'chatDelivery'] as Wait[])('%s', async (wait) => {
		const { parameters } = OPERATIONS[wait];
		const result = await runNode(sandbox, 'exotelMessaging', { ...parameters, [wait === 'smsDelivery' ? 'additionalFields' : 'options']: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' } } } });
		const timedOut = (await result.timeOut()).output('Exotel')[0].json;
		expect(timedOut).toMatchObject({ status: 'timedOut', code: null, timedOut: true, waitingFor: 'delivery', resumedBy: 'timeout' });
	});

	it('the delivered report’s code is a number on both', async () => {
		const sms = await startWait('smsDelivery');
		const smsDone = await sms.result.resume(request(sms.url, 'smsForm', sms.sid, 'unsigned'));
		const chat = await startWait('chatDelivery');
		const chatDone = await chat.result.resume(request(chat.url, 'chatAppReport', chat.sid, 'signed'));
		expect([smsDone.result!.output('Exotel')[0].json.code, chatDone.result!.output('Exotel')[0].json.code]).toEqual([20005, 30002]);
	});
});
