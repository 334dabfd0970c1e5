/* eslint-disable @n8n/community-nodes/no-restricted-imports -- sends raw HTTP requests to n8n (http); never shipped */
/**
 * The Exotel Messaging Trigger on a real, running n8n 2.8.4 with the packed package: activation
 * registers the chat-app webhook at the sandbox, signed callbacks start executions, forged ones
 * get 401 and start nothing, and the delivery reports that follow real sends arrive as items.
 * "Listen for test event" (driven through the editor's REST calls) registers nothing at the
 * service; activating afterwards registers the production URL.
 */
import http from 'http';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { signPayload } from '../../sandbox/callbacks';
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { budget, JEST_TIMEOUTS, makeWorkflow, N8nInstance, sharedN8n, type WorkflowNode } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const WEBHOOK_ID = 'c0ffee00-0000-4000-8000-00000000e2e1';
const VERIFY_TOKEN = 'verify-dummy-SECRET-e2e';
const LISTEN_WEBHOOK_ID = 'c0ffee00-0000-4000-8000-00000000e2e2';
const TRIGGER = 'Exotel Messaging Trigger';

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let triggerWorkflowId: string;
let triggerUrl: string;
/** A second, not yet active workflow with the same trigger, for the test listens. */
let listenWorkflowId: string;

const exotelApi = { exotelApi: { id: 'cred-exotelApi', name: 'Sandbox exotelApi' } };

/** Every item the trigger emitted, across the saved executions of its workflow. */
async function triggerItems(count: number): Promise<IDataObject[]> {
	const executions = await instance.waitForExecutions(triggerWorkflowId, count, 60_000);
	return executions.flatMap(
		(execution) =>
			(execution.data?.resultData?.runData?.['Exotel Messaging Trigger']?.[0]?.data?.main?.[0] ?? []).map(
				(item: INodeExecutionData) => item.json,
			),
	);
}

async function executionCount(): Promise<number> {
	return (await instance.executions(triggerWorkflowId, { includeData: false })).length;
}

beforeAll(async () => {
	sandbox = new ExotelSandbox({ timeScale: 0.005 });
	await sandbox.start();
	instance = await sharedN8n();
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await instance.importCredentials([{ id: 'cred-exotelApi', name: 'Sandbox exotelApi', type: 'exotelApi', data: data.exotelApi }]);

	const trigger: WorkflowNode = {
		name: 'Exotel Messaging Trigger',
		type: `${PACKAGE}.exotelMessagingTrigger`,
		typeVersion: 1,
		webhookId: WEBHOOK_ID,
		parameters: {
			events: ['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus'],
			registerWebhooks: true,
			verifyToken: VERIFY_TOKEN,
		},
		credentials: exotelApi,
	};
	const noOp: WorkflowNode = { name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	const workflow = makeWorkflow([noOp], { name: 'Messaging trigger e2e', trigger });
	const listenWorkflow = makeWorkflow([{ ...noOp }], {
		name: 'Messaging trigger test listen',
		trigger: { ...trigger, webhookId: LISTEN_WEBHOOK_ID },
	});
	[triggerWorkflowId, listenWorkflowId] = await instance.importWorkflows([workflow, listenWorkflow]);
	await instance.publish(triggerWorkflowId);
	await instance.setupOwnerAndApiKey();
	triggerUrl = instance.webhookUrl(`${WEBHOOK_ID}/webhook`);
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

test('activation registered the trigger’s production URL as the account’s chat-app webhook', () => {
	expect(sandbox.chatAppWebhook()).toEqual({
		incoming_message_url: triggerUrl,
		status_callback_url: triggerUrl,
		verify_token: VERIFY_TOKEN,
	});
	const [put] = sandbox.requests({ method: 'PUT', pathIncludes: '/chatapp/webhook' });
	expect(put.auth.ok).toBe(true);
});

test('the verify-token handshake answers the challenge on a GET to the same URL', async () => {
	const ok = await instance.request('GET', `${triggerUrl}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=8472`);
	expect([ok.status, String(ok.data)]).toEqual([200, '8472']);
	const refused = await instance.request('GET', `${triggerUrl}?hub.verify_token=wrong&hub.challenge=8472`);
	expect(refused.status).toBe(403);
});

test(
	'a signed incoming chat-app message starts one execution; a forged or unsigned one gets 401 and starts nothing',
	async () => {
		const before = await executionCount();
		const forged = await sandbox.postChatAppIncoming({ type: 'text', text: { body: 'forged' }, signature: 'sha256=' + '0'.repeat(64) });
		expect(forged.status).toBe(401);
		const unsigned = await sandbox.postChatAppIncoming({ type: 'text', text: { body: 'unsigned' }, signature: null });
		expect(unsigned.status).toBe(401);

		const signed = await sandbox.postChatAppIncoming({ type: 'text', from: '+919876543210', name: 'Asha Rao', text: { body: 'Where is my order?' } });
		expect(signed.status).toBe(200);
		const items = await triggerItems(before + 1);
		expect(await executionCount()).toBe(before + 1);
		const incoming = items.filter((item) => item.event === 'chatAppIncoming');
		expect(incoming).toEqual([
			expect.objectContaining({ channel: 'chatapp', from: '+919876543210', text: 'Where is my order?', contactName: 'Asha Rao' }),
		]);
		expect(JSON.stringify(items)).not.toContain(SANDBOX_ACCOUNT.webhookSigningSecret);
	},
	JEST_TIMEOUTS.execute + 60_000,
);

test(
	'bad webhook requests on real n8n: malformed signatures 401, bodies that are not JSON objects 400/422, an oversized body refused by n8n; none starts an execution',
	async () => {
		const before = await executionCount();
		const body = Buffer.from(
			JSON.stringify({
				event: 'incoming_message',
				timestamp: '2026-11-22T10:00:00+05:30',
				account_sid: SANDBOX_ACCOUNT.accountSid,
				message: { id: 'wamid.e2e-bad-input', from: '+919876543210', to: '+918047112233', timestamp: '2026-11-22T10:00:00+05:30', type: 'text', text: { body: 'hi' } },
				contact: { wa_id: '919876543210', profile: { name: 'Asha Rao' } },
			}),
		);
		const post = async (data: Buffer | string, headers: Record<string, string>) =>
			(await instance.request('POST', triggerUrl, { data, headers, maxBodyLength: Infinity, transformRequest: [(d: unknown) => d] })).status;
		const json = { 'Content-Type': 'application/json' };
		const signed = (raw: Buffer | string) => ({ ...json, 'X-Service-Signature': signPayload(raw, SANDBOX_ACCOUNT.webhookSigningSecret) });
		const notJson = '{"whatsapp": {"messages": [';
		const oversized = Buffer.alloc(17 * 1024 * 1024, 0x20); // n8n's default body limit is 16 MiB
		const statuses = {
			'no sha256= prefix': await post(body, { ...json, 'X-Service-Signature': signPayload(body, SANDBOX_ACCOUNT.webhookSigningSecret).slice(7) }),
			'not hex': await post(body, { ...json, 'X-Service-Signature': 'sha256=' + 'z'.repeat(64) }),
			'truncated': await post(body, { ...json, 'X-Service-Signature': signPayload(body, SANDBOX_ACCOUNT.webhookSigningSecret).slice(0, 40) }),
			'empty': await post(body, { ...json, 'X-Service-Signature': '' }),
			'other secret': await post(body, { ...json, 'X-Service-Signature': signPayload(body, 'not-the-secret') }),
			'signed, not JSON': await post(notJson, signed(notJson)),
			'signed, a JSON array': await post('[1,2]', signed('[1,2]')),
			'signed, a JSON string': await post('"hello"', signed('"hello"')),
			'oversized': await postOversized(triggerUrl, oversized),
		};
		expect(statuses).toEqual({
			'no sha256= prefix': 401,
			'not hex': 401,
			'truncated': 401,
			'empty': 401,
			'other secret': 401,
			// n8n's body parser refuses unparseable JSON before the node runs
			'signed, not JSON': 422,
			'signed, a JSON array': 400,
			'signed, a JSON string': 400,
			// n8n reads the body before the node runs and wraps raw-body's 413 into its generic 500
			// (or, on some runs of the newest n8n, closes the connection before the client has written it all)
			'oversized': 'refused',
		});
		// the same body, correctly signed, is accepted: the refusals above were about the request, not the payload
		expect(await post(body, signed(body))).toBe(200);
		await instance.waitForExecutions(triggerWorkflowId, before + 1, 60_000);
		expect(await executionCount()).toBe(before + 1);
	},
	JEST_TIMEOUTS.execute + 60_000,
);

test(
	'delivery reports that follow real sends pointed at the trigger URL: chat app (signed), RCS with SMS fallback, SMS status',
	async () => {
		const before = await executionCount();
		const send = (name: string, parameters: Record<string, unknown>): WorkflowNode => ({
			name,
			type: `${PACKAGE}.exotelMessaging`,
			typeVersion: 1,
			parameters: { ...parameters, statusCallback: triggerUrl },
			credentials: exotelApi,
		});
		const sender = makeWorkflow(
			[
				send('Chat App', { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '+919876543210', messageType: 'text', text: 'Your order shipped' }),
				send('RCS', {
					resource: 'rcs',
					operation: 'sendTemplate',
					botId: 'acme_orders_bot',
					to: '+919876540077', // not RCS capable in the sandbox: the SMS fallback fires
					templateName: 'order_update',
					smsFallback: true,
					fallbackFrom: 'ACMEIN',
					fallbackText: 'Your order shipped',
					fallbackSmsType: 'transactional',
				}),
				send('SMS', { resource: 'sms', operation: 'send', from: 'ACMEIN', to: '+919876543210', body: 'Your order shipped' }),
			],
			{ name: 'Senders pointed at the trigger' },
		);
		const [senderId] = await instance.importWorkflows([sender]);
		await instance.executeOk(senderId);

		// chat app: sent, delivered, seen (3 callbacks); RCS: one body with rcs + sms; SMS: one status callback
		await sandbox.waitForCallbacks((log) => log.filter((c) => c.url === triggerUrl && c.outcome === 'delivered').length >= 5, budget(30_000));
		const items = (await triggerItems(before + 5)).slice();
		const chatStatuses = items.filter((item) => item.event === 'chatAppStatus').map((item) => item.status).sort();
		expect(chatStatuses).toEqual(['delivered', 'seen', 'sent']);
		const rcs = items.filter((item) => item.event === 'rcsDeliveryReport');
		expect(rcs).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ channel: 'rcs', to: '+919876540077', status: 'failed', code: 40004 }),
				expect.objectContaining({ channel: 'sms', to: '+919876540077', fallback: true }),
			]),
		);
		expect(items.filter((item) => item.event === 'smsStatus')).toEqual([
			expect.objectContaining({ channel: 'sms', to: '+919876543210', status: 'delivered', code: 20005 }),
		]);
		// every callback was acknowledged with 200 at once, none retried
		const toTrigger = sandbox.callbacks().filter((c) => c.url === triggerUrl);
		expect(toTrigger.filter((c) => c.status !== 200 && c.status !== 401)).toEqual([]);
	},
	JEST_TIMEOUTS.execute + 120_000,
);

// Last: activating the second workflow re-points the account's chat-app webhook at it.
test(
	'"Listen for test event" leaves the account’s chat-app webhook alone (inactive and active workflow); activating registers the production URL',
	async () => {
		const testUrl = instance.webhookTestUrl(`${LISTEN_WEBHOOK_ID}/webhook`);
		const productionUrl = instance.webhookUrl(`${LISTEN_WEBHOOK_ID}/webhook`);
		const puts = () => sandbox.requests({ method: 'PUT', pathIncludes: '/chatapp/webhook' });
		// set by the first workflow's activation
		const registered = sandbox.chatAppWebhook();
		expect(registered).toEqual({ incoming_message_url: triggerUrl, status_callback_url: triggerUrl, verify_token: VERIFY_TOKEN });
		const putsBefore = puts().length;

		// 1. a listen on the inactive workflow, ended by an event at the test URL
		expect(await instance.listenForTestEvent(listenWorkflowId, TRIGGER)).toEqual({ waitingForWebhook: true });
		expect([sandbox.chatAppWebhook(), puts().length]).toEqual([registered, putsBefore]);
		const event = await sandbox.postChatAppIncoming({ url: testUrl, type: 'text', text: { body: 'a test event' } });
		expect(event.status).toBe(200);
		await instance.waitForTestUrlGone(testUrl);
		expect([sandbox.chatAppWebhook(), puts().length]).toEqual([registered, putsBefore]);

		// 2. activation registers this workflow's production URL
		await instance.activate(listenWorkflowId);
		const production = { incoming_message_url: productionUrl, status_callback_url: productionUrl, verify_token: VERIFY_TOKEN };
		expect(sandbox.chatAppWebhook()).toEqual(production);
		expect(puts().length).toBe(putsBefore + 1);

		// 3. a listen on the now active workflow, stopped as the editor's "Stop listening" does
		expect(await instance.listenForTestEvent(listenWorkflowId, TRIGGER)).toEqual({ waitingForWebhook: true });
		expect([sandbox.chatAppWebhook(), puts().length]).toEqual([production, putsBefore + 1]);
		expect(await instance.stopListening(listenWorkflowId, testUrl)).toBe(true);
		expect([sandbox.chatAppWebhook(), puts().length]).toEqual([production, putsBefore + 1]);
		// the production URL still works
		const live = await sandbox.postChatAppIncoming({ type: 'text', text: { body: 'after the listen' } });
		expect(live).toMatchObject({ url: productionUrl, status: 200 });

		// no test URL ever reached the service
		expect(puts().filter((put) => JSON.stringify(put.json).includes('/webhook-test/'))).toEqual([]);
	},
	JEST_TIMEOUTS.execute + 60_000,
);

/**
 * Posts a body past n8n's limit: 'refused' when n8n answered 500 (raw-body's 413, wrapped) or closed
 * the connection while the body was still being written (EPIPE, ECONNRESET: it stopped reading);
 * any other answer as its status.
 */
async function postOversized(url: string, body: Buffer): Promise<number | 'refused'> {
	return await new Promise((resolve, reject) => {
		const request = http.request(url, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } }, (response) => {
			response.resume();
			resolve(response.statusCode === 500 ? 'refused' : (response.statusCode ?? 0));
		});
		request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve('refused') : reject(error)));
		request.end(body);
	});
}

test(
	'n8n answers a status callback only once it holds its execution: when each 200 arrives, its execution is listed; a refused one is answered at once',
	async () => {
		const known = new Set(await instance.executionIds(triggerWorkflowId));
		for (let i = 0; i < 5; i++) {
			const form = new URLSearchParams({ SmsSid: `sms-flood-${i}`, To: '+919876543210', Status: 'sent', DetailedStatus: 'DELIVERED_TO_HANDSET', DetailedStatusCode: '20005' }).toString();
			const answer = await instance.request('POST', triggerUrl, { data: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
			expect([answer.status, answer.data]).toEqual([200, { received: 1, accepted: 1 }]);
			// asked right after the answer: the execution is there already (0.5.0 answered before n8n created it)
			const fresh = (await instance.executionIds(triggerWorkflowId)).filter((id) => !known.has(id));
			expect(fresh).toHaveLength(1);
			known.add(fresh[0]);
		}
		// a refusal is still answered at once, by the trigger, with its reason (an unknown body must be signed here)
		const refused = await instance.request('POST', triggerUrl, { data: { some: 'thing' }, headers: { 'Content-Type': 'application/json' } });
		expect([refused.status, refused.data]).toEqual([401, { error: expect.stringMatching(/^The X-Service-Signature header is missing/) }]);
		expect((await instance.executionIds(triggerWorkflowId)).filter((id) => !known.has(id))).toEqual([]);
	},
	JEST_TIMEOUTS.execute + 60_000,
);
