/* eslint-disable @n8n/community-nodes/no-restricted-imports -- runs a local HTTP server (http, net); never shipped */
/**
 * The sandbox acting as the person against a waiting run: a small HTTP front stands where n8n's
 * /webhook-waiting/ would, and hands each request the sandbox makes (its own delivery reports, a
 * reply, a link opened, a call ended) to the run's resume path (n8n-core harness, result.resume).
 * So the sandbox's payloads and the node's reading of them are checked against each other.
 * What n8n itself answers (a HEAD, a request with a forged n8n signature, a finished execution's 409)
 * is the harness's model of n8n's waiting webhooks, measured against real n8n in
 * test/e2e/send-and-wait.e2e.test.ts, which carries those claims.
 */
import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import type { RunResult } from '../../helpers/n8n-core-harness';
import { budget, pollFor } from '../../harness/timeouts';
import { expectSameItem } from '../../helpers/wait-endings';

const sandbox = useSandbox();

const FROM = '+918047112233';
const TO = '+919876543210';
const STRANGER = '+919811112222';

let server: Server;
let baseUrl: string;
/** The run waiting behind the front, and the run it became once resumed. */
let waiting: RunResult | undefined;
let resumed: RunResult | undefined;

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

beforeAll(async () => {
	server = createServer((req, res) => {
		void (async () => {
			const body = await bodyOf(req);
			if (!waiting || resumed) {
				// n8n answers a finished execution's resume URL with 409.
				res.writeHead(409, { 'content-type': 'application/json' }).end('{"message":"The execution has finished already"}');
				return;
			}
			const headers = Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, String(value)]));
			const { answer, result } = await waiting.resume({
				url: `${baseUrl}${req.url!.slice(1)}`,
				method: req.method as 'GET' | 'POST',
				body,
				contentType: req.headers['content-type']?.split(';')[0],
				headers,
			});
			if (result) resumed = result;
			const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
			res.writeHead(answer.status, { 'content-type': answer.headers['content-type'] ?? 'application/json', ...answer.headers }).end(text);
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
	waiting = undefined;
	resumed = undefined;
});

async function start(node: string, parameters: Record<string, unknown>): Promise<RunResult> {
	waiting = await runNode(sandbox, node, parameters, [{}], { baseUrl });
	expect(waiting.status).toBe('waiting');
	return waiting;
}

it('chat app: the sandbox’s delivery reports and a stranger’s tap leave it waiting; the recipient’s tap resumes it', async () => {
	await start('exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWait',
		from: FROM,
		to: TO,
		message: 'Refund 1,200 INR for order 1042?',
		responseType: 'approval',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve refund' } },
	});
	const log = await sandbox.waitForCallbacks((entries) => entries.filter((entry) => entry.kind === 'chatapp-status').length >= 3, budget(30_000));
	expect(log.filter((entry) => entry.kind === 'chatapp-status').map((entry) => [entry.status, entry.signed])).toEqual([
		[200, true],
		[200, true],
		[200, true],
	]);
	expect(resumed).toBeUndefined();

	const stranger = await sandbox.reply({ to: TO, from: STRANGER, button: 'approve' });
	expect(stranger).toMatchObject({ status: 200, kind: 'chatapp-reply' });
	expect(resumed).toBeUndefined();

	const reply = await sandbox.reply({ to: TO, button: 'approve' });
	expect(reply.status).toBe(200);
	const [item] = resumed!.output('Exotel');
	expect(item.json).toMatchObject({
		messageSid: sandbox.chatAppMessages()[0].sid,
		status: 'answered',
		approved: true,
		answer: 'approve',
		answerText: 'Approve refund',
		answeredBy: { number: TO, name: 'Sandbox User' },
	});
	// Later callbacks find the execution finished.
	expect((await sandbox.reply({ to: TO, button: 'decline' })).status).toBe(409);
});

it('SMS approval: a link-preview bot answers nothing; the person opens the short link and confirms', async () => {
	await start('exotelMessaging', {
		resource: 'sms',
		operation: 'sendAndWait',
		from: 'ACMEHQ',
		to: TO,
		message: 'Confirm your appointment on Tue 10:30?',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Confirm', disapproveLabel: 'Reschedule' } },
	});
	const [message] = sandbox.messages();
	expect(message.deliveredBody).toMatch(/Confirm: http:\/\/127\.0\.0\.1:\d+\/s\/\S+\nReschedule: http:\/\/127\.0\.0\.1:\d+\/s\/\S+$/);

	const bot = await sandbox.openLink({ to: TO, match: 'answer=approve', as: 'bot' });
	expect(bot.pages.map((page: { method: string; status: number }) => [page.method, page.status])).toEqual([
		['GET', 200],
		// n8n routes a HEAD as a GET (real n8n answers it 200: send-and-wait.e2e.test.ts); the node answers the page, nothing else
		['HEAD', 200],
	]);
	expect(resumed).toBeUndefined();

	const person = await sandbox.openLink({ to: TO, match: 'answer=approve' });
	expect(person.pages.map((page: { method: string; status: number }) => [page.method, page.status])).toEqual([
		['GET', 302],
		['GET', 200],
		['POST', 200],
	]);
	// (the pages' first 500 characters: their titles) the question, then the answer recorded
	expect(person.pages[1].bodyExcerpt).toContain('<title>Confirm your appointment on Tue 10:30?</title>');
	expect(person.pages[2].bodyExcerpt).toContain('<title>Answer recorded: Confirm</title>');
	expect(resumed!.output('Exotel')[0].json).toMatchObject({ approved: true, answer: 'approve', answerText: 'Confirm', answeredBy: { number: TO } });
});

it('voice: only the terminal event is asked for; the call ended by the sandbox resumes it with its final status', async () => {
	const run = await start('exotelVoice', {
		resource: 'call',
		operation: 'connectAndWait',
		from: TO,
		callerId: FROM,
		url: `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`,
	});
	const callSid = String(run.output('Exotel')[0].json.callSid);
	const ended = await sandbox.endCall({ callSid });
	expect(ended).toMatchObject({ status: 200, kind: 'call-status' });
	expect(resumed!.output('Exotel')[0].json).toMatchObject({ callSid, status: 'completed', eventType: 'terminal', waitingFor: 'callEnd', timedOut: false });
});

const HOUR_LIMIT = { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' } } };

/** The run resumed by the sandbox (`act`), and the same saved wait timed out by n8n. */
async function callbackAndTimeout(node: string, parameters: Record<string, unknown>, act: () => Promise<unknown>) {
	const run = await start(node, parameters);
	const timeout = (await run.timeOut()).output('Exotel')[0].json;
	await act();
	const done = await pollFor('the sandbox to resume the wait', 30_000, async () => resumed);
	return { callback: done.output('Exotel')[0].json, timeout };
}

describe('a wait gives the same item whatever ended it (callback, status check, timeout)', () => {
	it('Chat App → Send and Wait for Response', async () => {
		const { callback, timeout } = await callbackAndTimeout(
			'exotelMessaging',
			{ resource: 'chatApp', operation: 'sendAndWait', from: FROM, to: TO, message: 'Refund order 1042?', responseType: 'approval', options: HOUR_LIMIT },
			async () => await sandbox.reply({ to: TO, button: 'approve' }),
		);
		expectSameItem({ callback, timeout });
		expect([callback.approved, timeout.approved]).toEqual([true, null]);
	});

	it('RCS → Send Template and Wait for Reply', async () => {
		const { callback, timeout } = await callbackAndTimeout(
			'exotelMessaging',
			{ resource: 'rcs', operation: 'sendAndWait', botId: 'acme_orders_bot', to: TO, templateName: 'order_update', options: HOUR_LIMIT },
			async () => await sandbox.reply({ to: TO, suggestion: { reply: { text: 'Yes', postback_data: 'yes' } } }),
		);
		expectSameItem({ callback, timeout });
	});

	it('SMS → Send and Wait for Approval', async () => {
		const { callback, timeout } = await callbackAndTimeout(
			'exotelMessaging',
			{ resource: 'sms', operation: 'sendAndWait', from: 'ACMEHQ', to: TO, message: 'Confirm Tue 10:30?', options: HOUR_LIMIT },
			async () => await sandbox.openLink({ to: TO, match: 'answer=approve' }),
		);
		expectSameItem({ callback, timeout });
	});

	it('SMS → Send and Wait for Delivery: the custom field sent is in the timed-out item too', async () => {
		const { callback, timeout } = await callbackAndTimeout(
			'exotelMessaging',
			{ resource: 'sms', operation: 'sendAndWaitForDelivery', from: 'ACMEHQ', to: TO, body: 'Your OTP is 482913', additionalFields: { customField: 'otp-77', ...HOUR_LIMIT } },
			async () => undefined,
		);
		expectSameItem({ callback, timeout });
		expect([callback.customData, timeout.customData]).toEqual(['otp-77', 'otp-77']);
	});

	it('Chat App → Send and Wait for Delivery', async () => {
		const { callback, timeout } = await callbackAndTimeout(
			'exotelMessaging',
			{ resource: 'chatApp', operation: 'sendAndWaitForDelivery', from: FROM, to: TO, messageType: 'text', text: 'Shipped', options: { customData: 'order-1042', ...HOUR_LIMIT } },
			async () => undefined,
		);
		expectSameItem({ callback, timeout });
		expect([callback.customData, timeout.customData]).toEqual(['order-1042', 'order-1042']);
	});

	it('Call → Connect and Wait for Call End: legs, answeredBy, eventType and the custom field alike', async () => {
		const parameters = {
			resource: 'call',
			operation: 'connectAndWait',
			callerId: FROM,
			url: `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`,
			additionalFields: { customField: 'ticket-31', ...HOUR_LIMIT },
		};
		const { callback, timeout } = await callbackAndTimeout('exotelVoice', { ...parameters, from: TO }, async () => {
			await sandbox.endCall({ callSid: String(waiting!.output('Exotel')[0].json.callSid) });
		});
		// a call that ends while it is placed: its terminal meets no wait (n8n's 409), the node asks the service
		waiting = undefined;
		resumed = undefined;
		const fast = await runNode(sandbox, 'exotelVoice', { ...parameters, from: '+919876500044' }, [{}], { baseUrl });
		expect(fast.status).toBe('success');
		const statusCheck = fast.output('Exotel')[0].json;
		expectSameItem({ callback, statusCheck, timeout });
		expect([callback.eventType, statusCheck.eventType, timeout.eventType]).toEqual(['terminal', 'terminal', null]);
		expect([callback.customField, statusCheck.customField, timeout.customField]).toEqual(['ticket-31', 'ticket-31', 'ticket-31']);
		for (const item of [callback, statusCheck]) {
			expect((item.legs as IDataObject[]).length).toBeGreaterThan(0);
			expect(item.answeredBy).toEqual((item.legs as IDataObject[]).map((leg) => leg.AnsweredBy));
		}
	});
});
