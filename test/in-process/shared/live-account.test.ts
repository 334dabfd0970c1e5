/* eslint-disable @n8n/community-nodes/no-restricted-imports -- runs a local HTTP server (http, net); never shipped */
/**
 * The nodes against the sandbox in live mode (sandbox/README.md, "Live mode"): the service as public
 * recorded traffic shows it (../shared/notes/live-service.md). XML on the v1 paths without a suffix,
 * the WhatsApp envelope, India time, national numbers, nothing signed. The credential is as a live
 * account on Exotel's hosts resolves it: Chat App Envelope WhatsApp, Account Time Zone India, and no
 * signing secret. The spec-mode suites run the same operations against the spec's service.
 *
 * The sandbox's own callbacks reach the nodes through small HTTP fronts: one hands each request to a
 * waiting run's resume path (n8n-core, result.resume), one to the Messaging Trigger's webhook().
 */
import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject } from 'n8n-workflow';

import { ExotelMessagingTrigger } from '../../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { SANDBOX_REFUSED_CALLER } from '../../../sandbox/fixtures';
import type { StoredCall } from '../../../sandbox/stored';
import { formFields, runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import { ANSWERED_CALL_CALLBACK, INSUFFICIENT_BALANCE_XML } from '../../helpers/live-recorded';
import type { RunResult } from '../../helpers/n8n-core-harness';
import { budget } from '../../harness/timeouts';
import { callWebhook, type WebhookAnswer } from '../../helpers/webhook-context';

const sandbox = useSandbox({ live: true });

const FROM = '+918047112233';
const TO = '+919876543210';
const NATIONAL_TO = '09876543210';
const FLOW = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`;
const LIVE_CREDENTIAL = { exotelApi: { chatAppEnvelope: 'whatsapp', timeZone: 'Asia/Kolkata', webhookSigningSecret: '' } };
const ALL_EVENTS = ['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus', 'unknown'];

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** An HTTP server on loopback whose requests `handle` answers; its URL. */
async function front(handle: (req: IncomingMessage, body: Buffer) => Promise<{ status: number; body: unknown }>): Promise<{ server: Server; url: string }> {
	const server = createServer((req, res) => {
		void (async () => {
			const answer = await handle(req, await bodyOf(req));
			res.writeHead(answer.status, { 'content-type': 'application/json' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {}));
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

const headersOf = (req: IncomingMessage) => Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, String(value)]));

/** The waiting run behind the resume front, and what it became once resumed. */
let waiting: RunResult | undefined;
let resumed: RunResult | undefined;
let resumeFront: { server: Server; url: string };

/** The Messaging Trigger behind the trigger front: what it answered and started, its credential and static data. */
const trigger = new ExotelMessagingTrigger();
let triggerAnswers: WebhookAnswer[] = [];
let triggerSecret = '';
let triggerStatic: IDataObject = {};
let triggerFront: { server: Server; url: string };

beforeAll(async () => {
	resumeFront = await front(async (req, body) => {
		if (!waiting || resumed) return { status: 409, body: { message: 'The execution has finished already' } };
		const { answer, result } = await waiting.resume({
			url: `${resumeFront.url}${req.url!.slice(1)}`,
			method: req.method as 'GET' | 'POST',
			body,
			contentType: req.headers['content-type']?.split(';')[0],
			headers: headersOf(req),
		});
		if (result) resumed = result;
		return { status: answer.status, body: answer.body };
	});
	triggerFront = await front(async (req, body) => {
		const answer = await callWebhook(trigger, {
			rawBody: body,
			contentType: req.headers['content-type']?.split(';')[0],
			headers: headersOf(req),
			parameters: { events: ALL_EVENTS, statuses: [] },
			credentials: { ...credentialData(), webhookSigningSecret: triggerSecret },
			staticData: triggerStatic,
		});
		triggerAnswers.push(answer);
		return { status: answer.status, body: answer.body };
	});
});

afterAll(async () => {
	for (const { server } of [resumeFront, triggerFront]) await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	waiting = undefined;
	resumed = undefined;
	triggerAnswers = [];
	triggerSecret = '';
	triggerStatic = {};
});

function credentialData(): IDataObject {
	return { accountSid: SANDBOX_ACCOUNT.accountSid, apiKey: SANDBOX_ACCOUNT.apiKey, apiToken: SANDBOX_ACCOUNT.apiToken, region: 'custom', baseUrl: sandbox.origin, ...LIVE_CREDENTIAL.exotelApi };
}

/**
 * The calls the sandbox placed on Calls/connect since its reset, as it recorded them (the seeded
 * calls have no `connect`). The sandbox lists its SMS and chat-app messages but not its calls: they
 * are read off its state (private to its API, plain at run time).
 */
function placedCalls(): StoredCall[] {
	const { calls } = (sandbox as unknown as { state: { calls: Map<string, StoredCall> } }).state;
	return [...calls.values()].filter((call) => call.connect !== undefined);
}

function live(node: string, parameters: IDataObject, items: IDataObject[] = [{}], more: Parameters<typeof runNode>[4] = {}) {
	return runNode(sandbox, node, parameters, items, { credentialOverrides: LIVE_CREDENTIAL, ...more });
}

async function startWaiting(node: string, parameters: IDataObject): Promise<RunResult> {
	waiting = await live(node, parameters, [{}], { baseUrl: resumeFront.url });
	expect(waiting.status).toBe('waiting');
	return waiting;
}

describe('SMS on a live account: the XML answer read as its JSON twin', () => {
	it('static and dynamic bulk: each item its sid, status and code, the recipient as sent', async () => {
		const result = await live('exotelMessaging', { resource: 'sms', operation: 'send', from: FROM, to: '={{ $json.to }}', body: '={{ $json.body }}' }, [
			{ to: TO, body: 'Your order shipped' },
			{ to: '+918884733565', body: 'Your order shipped' },
			{ to: TO, body: 'OTP 4821 <do not share>' },
		]);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests({ method: 'POST' });
		// the spec's paths, no suffix: the live service answers them in XML
		expect(requests.map((request) => [request.path, request.status])).toEqual([
			[`/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`, 200],
		]);
		const stored = sandbox.messages();
		expect(stored).toHaveLength(3);
		const items = result.output('Exotel').map((item) => item.json);
		expect(items.map((item) => [item.messageSid, item.status, item.to, item.code, item.channel])).toEqual([
			[stored[0].sid, 'queued', TO, 21010, 'sms'],
			[stored[1].sid, 'queued', '+918884733565', 21010, 'sms'],
			[stored[2].sid, 'queued', TO, 21010, 'sms'],
		]);
		// the service's entry as it answered: national number, India time, entities decoded
		expect(items[2].raw).toMatchObject({ Sid: stored[2].sid, To: NATIONAL_TO, Body: 'OTP 4821 <do not share>', DateSent: '1970-01-01 05:30:00', SmsUnits: null });
		expect(String(items[0].raw && (items[0].raw as IDataObject).From)).toMatch(/\/EXOSBX$/);
	});

	it('one text to one recipient (static bulk of one)', async () => {
		const result = await live('exotelMessaging', { resource: 'sms', operation: 'send', from: FROM, to: TO, body: 'Hello' });
		const [request] = sandbox.requests({ method: 'POST' });
		expect([request.path, formFields(request.form)['To[]']]).toEqual([`/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/send`, [TO]]);
		expect(result.output('Exotel')[0].json).toMatchObject({ messageSid: sandbox.messages()[0].sid, status: 'queued', to: TO });
	});

	it('an error in XML reaches the user in the service\'s words, never as XML', async () => {
		sandbox.injectFaults({ kind: 'status', status: 403, body: INSUFFICIENT_BALANCE_XML }, 1, { pathIncludes: '/Sms/' });
		const result = await live('exotelMessaging', { resource: 'sms', operation: 'send', from: FROM, to: TO, body: 'Hello' }, [{}], { settings: { onError: 'continueRegularOutput' } });
		const [item] = result.output('Exotel');
		expect(item.json).toMatchObject({ messageSid: null, status: 'failed', to: TO });
		expect(item.json.error).toBe('Insufficient balance to send the SMS');
		expect(JSON.stringify(item.json)).not.toMatch(/TwilioResponse|<\?xml/);
		// a 403 is an answer: sent once
		expect(sandbox.requests({ pathIncludes: '/Sms/' })).toHaveLength(1);
	});
});

describe('Voice on a live account', () => {
	it('Connect: the call\'s sid out of the XML answer, the caller as sent', async () => {
		const result = await live('exotelVoice', { resource: 'call', operation: 'connect', from: TO, callerId: FROM, url: FLOW });
		const [request] = sandbox.requests({ method: 'POST' });
		expect(request.path).toBe(`/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Calls/connect`);
		// the one call the sandbox placed, and the sid it made for it
		const placed = placedCalls();
		expect(placed.map((call) => [call.from, call.connect?.url])).toEqual([[TO, FLOW]]);
		const [item] = result.output('Exotel');
		expect(item.json).toMatchObject({ callSid: placed[0].sid, status: 'in-progress', from: TO });
		expect((item.json.raw as IDataObject).Sid).toBe(placed[0].sid);
	});

	it('a 503 with the service\'s reason (Code 35008) fails its item in those words and is not sent again', async () => {
		const result = await live('exotelVoice', { resource: 'call', operation: 'connect', from: '={{ $json.from }}', callerId: FROM, url: FLOW }, [{ from: SANDBOX_REFUSED_CALLER }, { from: TO }], {
			settings: { onError: 'continueRegularOutput' },
		});
		const [refused, placed] = result.output('Exotel').map((item) => item.json);
		expect(refused.error).toBe('Service Unavailable (code 35008)');
		// the refused caller placed nothing: the one call placed is the second item's
		const calls = placedCalls();
		expect(calls.map((call) => call.from)).toEqual([TO]);
		expect(placed).toMatchObject({ callSid: calls[0].sid, status: 'in-progress' });
		const attempts = sandbox.requests({ pathIncludes: '/Calls/connect' }).filter((request) => formFields(request.form).From?.[0] === SANDBOX_REFUSED_CALLER);
		expect(attempts.map((request) => request.status)).toEqual([503]);
	});

	// Both seasons every run, whatever today is: the clock (Date only; timers stay real, and it runs
	// on from there) reads a fixed day of each, the day asked for three days before it, inside the
	// service's six months of history. 12:00 in London is 16:30 in India in summer (BST, UTC+1) and
	// 17:30 in winter (GMT); a date with its zone stays that instant.
	it.each([
		['summer (BST)', '2026-07-20T10:00:00Z', '2026-07-17', 'BST', '16:30:00'],
		['winter (GMT)', '2026-01-20T10:00:00Z', '2026-01-17', 'GMT', '17:30:00'],
	])('Get Many in %s: the dates asked for in the account\'s zone (India), from the workflow\'s (London)', async (_season, now, day, londonZone, from) => {
		// the day is in the season named: London's own name for its zone that day
		expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'short' }).format(new Date(`${day}T12:00:00Z`))).toMatch(new RegExp(` ${londonZone}$`));
		jest.useFakeTimers({
			now: new Date(now),
			advanceTimers: true,
			doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
		});
		try {
			const result = await live(
				'exotelVoice',
				{ resource: 'call', operation: 'getMany', limit: 5, filters: { dateCreatedFrom: `${day}T12:00:00`, dateCreatedTo: `${day}T23:30:00+05:30` } },
				[{}],
				{ workflowSettings: { timezone: 'Europe/London' } },
			);
			expect(result.error).toBeUndefined();
			const [request] = sandbox.requests({ pathIncludes: '/Calls' });
			expect([request.status, request.query.DateCreated]).toEqual([200, `gte:${day} ${from};lte:${day} 23:30:00`]);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('WhatsApp on a live account', () => {
	it('Send: the whatsapp envelope on the wire, the answer read into the item', async () => {
		const result = await live('exotelMessaging', {
			resource: 'chatApp',
			operation: 'send',
			from: FROM,
			to: TO,
			messageType: 'text',
			text: 'Your order shipped',
			statusCallback: 'https://example.com/webhook/exotel',
			options: { customData: 'order-1042' },
		});
		const [request] = sandbox.requests({ method: 'POST' });
		expect(request.json).toEqual({
			status_callback: 'https://example.com/webhook/exotel',
			custom_data: 'order-1042',
			whatsapp: { messages: [{ from: FROM, to: TO, content: { recipient_type: 'individual', type: 'text', text: { body: 'Your order shipped' } } }] },
		});
		expect(result.output('Exotel')[0].json).toMatchObject({ messageSid: sandbox.chatAppMessages()[0].sid, status: 'accepted', channel: 'chatapp', to: TO, from: FROM });
	});

	it('Set Webhooks: PUT whatsapp/webhook, the verify token never shown', async () => {
		const result = await live('exotelMessaging', {
			resource: 'chatApp',
			operation: 'setWebhooks',
			incomingMessageUrl: 'https://n8n.example.com/webhook/in',
			statusCallbackUrl: 'https://n8n.example.com/webhook/status',
			verifyToken: 'v3rify-t0ken',
		});
		const [request] = sandbox.requests({ method: 'PUT' });
		expect([request.path, request.status, request.json]).toEqual([
			`/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/whatsapp/webhook`,
			200,
			{ whatsapp: { webhook: { incoming_message_url: 'https://n8n.example.com/webhook/in', status_callback_url: 'https://n8n.example.com/webhook/status', verify_token: 'v3rify-t0ken' } } },
		]);
		expect(sandbox.chatAppWebhook()).toMatchObject({ incoming_message_url: 'https://n8n.example.com/webhook/in' });
		expect(JSON.stringify(result.output('Exotel'))).not.toContain('v3rify-t0ken');
	});

	it('the Messaging Trigger takes the live delivery reports and an incoming message', async () => {
		await live('exotelMessaging', { resource: 'chatApp', operation: 'send', from: FROM, to: TO, messageType: 'text', text: 'Hi', statusCallback: triggerFront.url });
		const sid = sandbox.chatAppMessages()[0].sid;
		await sandbox.waitForCallbacks((log) => log.filter((entry) => entry.kind === 'chatapp-status').length >= 3, budget(30_000));
		const started = triggerAnswers.flatMap((answer) => answer.workflowData ?? []);
		expect(triggerAnswers.map((answer) => answer.status)).toEqual([200, 200, 200]);
		// sent, delivered, seen: the codes numbers though the sandbox sends the last as text, as the live service may
		expect(started.map((item) => [item.event, item.messageSid, item.status, item.code])).toEqual([
			['chatAppStatus', sid, 'sent', 30001],
			['chatAppStatus', sid, 'delivered', 30002],
			['chatAppStatus', sid, 'seen', 30003],
		]);
		expect(((started[2].raw as IDataObject).exo_status_code)).toBe('30003');
	});

	it('the Messaging Trigger takes a live incoming message sent to the URL Set Webhooks registered', async () => {
		await live('exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: triggerFront.url });
		const attempt = await sandbox.postChatAppIncoming({ type: 'text', text: { body: 'Where is my order?' } });
		expect([attempt.status, attempt.signed, Object.keys(JSON.parse(attempt.body))]).toEqual([200, false, ['whatsapp']]);
		const [item] = triggerAnswers[0].workflowData!;
		expect(item).toMatchObject({ event: 'chatAppIncoming', status: 'received', channel: 'chatapp', messageType: 'text', text: 'Where is my order?', inReplyTo: null });
		expect(item.contactName).toBe(JSON.parse(attempt.body).whatsapp.messages[0].profile_name);
	});

	it('with a signing secret, an unsigned live callback is refused 401 saying the header is missing, noted once in the log', async () => {
		triggerSecret = SANDBOX_ACCOUNT.webhookSigningSecret;
		await live('exotelMessaging', { resource: 'chatApp', operation: 'send', from: FROM, to: TO, messageType: 'text', text: 'Hi', statusCallback: triggerFront.url });
		await sandbox.waitForCallbacks((log) => log.filter((entry) => entry.kind === 'chatapp-status' && entry.attempt === 1).length >= 3, budget(30_000));
		const firstThree = triggerAnswers.slice(0, 3);
		expect(firstThree.map((answer) => [answer.status, answer.workflowData])).toEqual([
			[401, undefined],
			[401, undefined],
			[401, undefined],
		]);
		expect((firstThree[0].body as { error: string }).error).toMatch(/X-Service-Signature header is missing.*live service is not known to sign/);
		// the operator is told once, not for each refusal
		expect(firstThree.flatMap((answer) => answer.warnings)).toHaveLength(1);
	});
});

describe('waits on a live account, resumed by the sandbox\'s own callbacks', () => {
	it('chat app approval: delivery reports and a stranger leave it waiting; the recipient\'s tap resumes it', async () => {
		await startWaiting('exotelMessaging', {
			resource: 'chatApp',
			operation: 'sendAndWait',
			from: FROM,
			to: TO,
			message: 'Refund 1,200 INR for order 1042?',
			responseType: 'approval',
			approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve refund' } },
		});
		const [request] = sandbox.requests({ method: 'POST' });
		expect(Object.keys(request.json as IDataObject)).toEqual(['status_callback', 'whatsapp']);
		const log = await sandbox.waitForCallbacks((entries) => entries.filter((entry) => entry.kind === 'chatapp-status').length >= 3, budget(30_000));
		// unsigned, and each answered 200 and left waiting
		expect(log.filter((entry) => entry.kind === 'chatapp-status').map((entry) => [entry.status, entry.signed, JSON.parse(entry.body).whatsapp !== undefined])).toEqual([
			[200, false, true],
			[200, false, true],
			[200, false, true],
		]);
		expect(resumed).toBeUndefined();
		expect((await sandbox.reply({ to: TO, from: '+919811112222', button: 'approve' })).status).toBe(200);
		expect(resumed).toBeUndefined();
		expect((await sandbox.reply({ to: TO, button: 'approve' })).status).toBe(200);
		expect(resumed!.output('Exotel')[0].json).toMatchObject({
			messageSid: sandbox.chatAppMessages()[0].sid,
			status: 'answered',
			approved: true,
			answer: 'approve',
			answerText: 'Approve refund',
			answeredBy: { number: TO },
		});
	});

	it('chat app delivery: the live report of the message resumes it, its code a number', async () => {
		await startWaiting('exotelMessaging', { resource: 'chatApp', operation: 'sendAndWaitForDelivery', from: FROM, to: TO, messageType: 'text', text: 'Your order shipped' });
		await sandbox.waitForCallbacks((entries) => entries.some((entry) => entry.kind === 'chatapp-status' && entry.attempt === 1 && /30002/.test(entry.body)), budget(30_000));
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ messageSid: sandbox.chatAppMessages()[0].sid, status: 'delivered', code: 30002, resumedBy: 'callback' });
	});

	it('SMS delivery: the sid out of the XML answer is the one its status callback names', async () => {
		const run = await startWaiting('exotelMessaging', { resource: 'sms', operation: 'sendAndWaitForDelivery', from: FROM, to: TO, body: 'Your order shipped' });
		const sid = sandbox.messages()[0].sid;
		expect(run.output('Exotel')[0].json).toMatchObject({ messageSid: sid, waitingFor: 'delivery' });
		await sandbox.waitForCallbacks((entries) => entries.some((entry) => entry.kind === 'sms-status' && entry.status === 200), budget(30_000));
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ messageSid: sid, status: 'delivered', resumedBy: 'callback' });
	});

	it('call end: the sid out of the XML answer; the answered callback leaves it waiting, the end resumes it', async () => {
		const run = await startWaiting('exotelVoice', { resource: 'call', operation: 'connectAndWait', from: TO, callerId: FROM, url: FLOW });
		const callSid = String(run.output('Exotel')[0].json.callSid);
		// the sid the sandbox made for the one call it placed
		expect(placedCalls().map((call) => call.sid)).toEqual([callSid]);
		// the answered callback as the live service words it (frappe/crm), for this call: acknowledged, still waiting
		const [connect] = sandbox.requests({ pathIncludes: '/Calls/connect' });
		const resumeUrl = formFields(connect.form).StatusCallback[0];
		const answered = await run.resume({
			url: resumeUrl,
			body: new URLSearchParams({ ...ANSWERED_CALL_CALLBACK, CallSid: callSid }).toString(),
			contentType: 'application/x-www-form-urlencoded',
		});
		expect([answered.answer.status, answered.answer.body, answered.result]).toEqual([200, { received: true, resumed: false }, undefined]);
		const ended = await sandbox.endCall({ callSid });
		expect(ended).toMatchObject({ status: 200, kind: 'call-status' });
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ callSid, status: 'completed', eventType: 'terminal', waitingFor: 'callEnd', timedOut: false });
	});
});
