/**
 * A live Exotel account, on a real n8n (the release N8N_E2E_TARGET picks) with the packed package:
 * the sandbox in live mode (sandbox/README.md, "Live mode": XML on suffix-less v1 paths, national
 * numbers, India time, no rate-limit headers, no signatures, the `whatsapp` envelope), and the
 * Exotel API credential set as a live account on Exotel's hosts resolves Auto: Chat App Envelope
 * `whatsapp`, Account Time Zone `Asia/Kolkata`, no Webhook Signing Secret (docs/live-account.md).
 *
 * Each case checks both what n8n produced (the items, read from the saved executions) and what
 * reached the sandbox (method, path, body). Sends run as the editor's Execute Workflow does; the
 * waits and the Messaging Trigger need the server: a production Webhook (or the trigger) starts them,
 * and the sandbox, acting as the service or the person, answers at the URLs n8n gave it.
 *
 * The sandbox runs at timeScale 2: chat-app reports come 2, 4 and 6 s after a send, well after n8n
 * has saved a waiting execution even on a busy machine (an earlier report gets 409 and is retried
 * 60 s later). A connected call ends on its own only after 70 s: endCall ends it when the test says.
 */
import * as crypto from 'crypto';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SANDBOX_ACCOUNT, SANDBOX_REFUSED_CALLER, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox, type CallbackAttempt } from '../../sandbox/server';
import { budget, JEST_TIMEOUTS, makeWorkflow, N8nInstance, nodeJson, sharedN8n, type RunJson, type WorkflowNode } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const BUSINESS = '+918047112233';
const SENDER_ID = 'ACMEIN';
const FLOW_URL = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`;
const V1 = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}`;
const V2 = `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}`;
const VERIFY_TOKEN = 'verify-live-e2e';

const CREDENTIALS = {
	live: { id: 'cred-live-exotelApi', name: 'Live account (sandbox, live mode)' },
	signed: { id: 'cred-live-signed-exotelApi', name: 'Live account with a signing secret' },
};

let sandbox: ExotelSandbox;
let instance: N8nInstance;

/** Workflows run from their Manual Trigger (sends), by name. */
const manual: Record<string, string> = {};
/** Workflows a production Webhook starts (waits): Webhook → Exotel → NoOp After. */
const flows: Record<string, { id: string; path: string; nodeId: string }> = {};
/** The Messaging Triggers: registering (live credential) and refusing unsigned callbacks (signed credential). */
const triggers: Record<'registering' | 'signed', { id: string; webhookId: string; url: string }> = {} as never;

// ---------------------------------------------------------------------------------------------
// Workflow pieces

function exotel(name: string, type: 'exotelMessaging' | 'exotelVoice', parameters: Record<string, unknown>, more: Partial<WorkflowNode> = {}): WorkflowNode {
	return { name, type: `${PACKAGE}.${type}`, typeVersion: 1, parameters, credentials: { exotelApi: CREDENTIALS.live }, ...more };
}

/** Set (raw JSON) → Split Out: one item per row. */
function rows(values: Array<Record<string, string>>): WorkflowNode[] {
	return [
		{ name: 'Seed', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows: values }), options: {} } },
		{ name: 'Rows', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'rows', options: {} } },
	];
}

const CONTINUE = { onError: 'continueRegularOutput' } as const;

const STATIC_TO = ['+919876500301', '+919876500302'];
const DYNAMIC = [
	{ to: '+919876500303', body: 'Order ORD-303 has shipped' },
	{ to: '+919876500304', body: 'Order ORD-304 is out for delivery' },
];
const REFUSED_SMS_TO = '+919876500305';
const INVALID_SMS_TO = '01234567'; // a phone number to the node, not a destination to the service (23010)
const CALL_FROM = '+919876500311';
const REFUSED_CALL_FROM = '+919876500312';
const CHAT_TO = '+919876500501';
const TRIGGER_CHAT_TO = '+919876500601';
const STRANGER = '+919876500602';

function manualWorkflows(): Array<ReturnType<typeof makeWorkflow>> {
	const sms = (name: string, to: string, body: string, more: Partial<WorkflowNode> = {}) =>
		exotel(name, 'exotelMessaging', { resource: 'sms', operation: 'send', from: SENDER_ID, to, body }, more);
	const connect = (name: string, from: string, callerId: string, more: Partial<WorkflowNode> = {}) =>
		exotel(name, 'exotelVoice', { resource: 'call', operation: 'connect', from, callerId, url: FLOW_URL }, more);
	const chat = (name: string, to: string, text: string, options: Record<string, unknown> = {}) =>
		exotel(name, 'exotelMessaging', { resource: 'chatApp', operation: 'send', from: BUSINESS, to, messageType: 'text', text, options });
	const all = {
		smsStatic: makeWorkflow([...rows(STATIC_TO.map((to) => ({ to }))), sms('SMS', '={{ $json.to }}', 'Your OTP is 4821')], { name: 'Live: SMS, one text' }),
		smsDynamic: makeWorkflow([...rows(DYNAMIC), sms('SMS', '={{ $json.to }}', '={{ $json.body }}')], { name: 'Live: SMS, different texts' }),
		smsErrors: makeWorkflow(
			[sms('SMS refused', REFUSED_SMS_TO, 'Refused in XML', CONTINUE), sms('SMS invalid destination', INVALID_SMS_TO, 'Never delivered', CONTINUE)],
			{ name: 'Live: SMS errors' },
		),
		calls: makeWorkflow([connect('Connect', CALL_FROM, BUSINESS), connect('Connect refused', REFUSED_CALL_FROM, SANDBOX_REFUSED_CALLER, CONTINUE)], {
			name: 'Live: Connect to Flow',
		}),
		chatSend: makeWorkflow([chat('Chat App', CHAT_TO, 'Your order ORD-501 has shipped', { customData: 'order-501' })], { name: 'Live: chat app send' }),
		chatToTrigger: makeWorkflow([chat('Chat App', TRIGGER_CHAT_TO, 'Your order ORD-601 has shipped')], { name: 'Live: chat app send, reports to the trigger' }),
	};
	for (const [key, workflow] of Object.entries(all)) manual[key] = workflow.id;
	return Object.values(all);
}

const FLOW_NODES: Record<string, WorkflowNode> = {
	callEnd: exotel('Exotel', 'exotelVoice', {
		resource: 'call',
		operation: 'connectAndWait',
		from: '={{ $json.body.to }}',
		callerId: BUSINESS,
		url: FLOW_URL,
		additionalFields: { customField: 'order-401' },
	}),
	chatApproval: exotel('Exotel', 'exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWait',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		message: 'Approve the refund of Rs 1,200 for order ORD-701?',
		responseType: 'approval',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve', disapproveLabel: 'Decline' } },
	}),
	chatDelivery: exotel('Exotel', 'exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWaitForDelivery',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		messageType: 'text',
		text: 'Your order ORD-801 has shipped',
	}),
};

function flowWorkflows(): Array<ReturnType<typeof makeWorkflow>> {
	return Object.entries(FLOW_NODES).map(([key, node]) => {
		const path = `live-account-${key}-${crypto.randomUUID().slice(0, 8)}`;
		const trigger: WorkflowNode = { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } };
		const after: WorkflowNode = { name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
		const workflow = makeWorkflow([node, after], { name: `Live: wait, ${key}`, trigger });
		flows[key] = { id: workflow.id, path, nodeId: workflow.nodes.find((n) => n.name === 'Exotel')!.id as string };
		return workflow;
	});
}

function triggerWorkflow(key: 'registering' | 'signed'): ReturnType<typeof makeWorkflow> {
	const webhookId = crypto.randomUUID();
	const trigger: WorkflowNode = {
		name: 'Exotel Messaging Trigger',
		type: `${PACKAGE}.exotelMessagingTrigger`,
		typeVersion: 1,
		webhookId,
		parameters: {
			events: ['chatAppIncoming', 'chatAppStatus'],
			registerWebhooks: key === 'registering',
			...(key === 'registering' ? { verifyToken: VERIFY_TOKEN } : {}),
		},
		credentials: { exotelApi: key === 'registering' ? CREDENTIALS.live : CREDENTIALS.signed },
	};
	const noOp: WorkflowNode = { name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	const workflow = makeWorkflow([noOp], { name: `Live: Messaging Trigger (${key})`, trigger });
	triggers[key] = { id: workflow.id, webhookId, url: '' };
	return workflow;
}

// ---------------------------------------------------------------------------------------------
// Reading executions (public API), with bounded polls that say what they waited for

/** The Exotel node's items, and the items of the node after it (the execution went on with them). */
function outputOf(run: RunJson): { items: IDataObject[]; after: IDataObject[] } {
	return { items: nodeJson(run, 'Exotel'), after: nodeJson(run, 'After') };
}

function resumePrefix(executionId: string, flow: { nodeId: string }): string {
	return `${instance.baseUrl}/webhook-waiting/${executionId}/${flow.nodeId}?`;
}

/** The trigger's items per saved execution (one list per execution), once at least `count` have finished. */
async function triggerRuns(workflowId: string, count: number): Promise<IDataObject[][]> {
	const executions = await instance.waitForExecutions(workflowId, count, 60_000);
	return executions.map((run) =>
		(run.data?.resultData?.runData?.['Exotel Messaging Trigger']?.[0]?.data?.main?.[0] ?? []).map((item: INodeExecutionData) => item.json),
	);
}

/** Whether a form request carries `value` in any field (a number as To, To[], Messages[N][To], From or CallerId). */
function formHas(form: Array<[string, string]> | undefined, value: string): boolean {
	return (form ?? []).some(([, v]) => v === value);
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
	sandbox = new ExotelSandbox({ live: true, timeScale: 2 });
	await sandbox.start();
	instance = await sharedN8n();
	// as a live account on Exotel's hosts resolves Auto; the live service signs nothing, so no secret
	const { exotelApi: live } = sandboxCredentialData(sandbox.origin, { live: true });
	await instance.importCredentials([
		{ ...CREDENTIALS.live, type: 'exotelApi', data: live },
		{ ...CREDENTIALS.signed, type: 'exotelApi', data: { ...live, webhookSigningSecret: SANDBOX_ACCOUNT.webhookSigningSecret } },
	]);
	await instance.importWorkflows([...manualWorkflows(), ...flowWorkflows(), triggerWorkflow('registering'), triggerWorkflow('signed')]);
	for (const key of Object.keys(triggers) as Array<keyof typeof triggers>) triggers[key].url = instance.webhookUrl(`${triggers[key].webhookId}/webhook`);
	await instance.setupOwnerAndApiKey();
	// The registering trigger is activated by its own test: until then no chat-app webhook is set, so
	// the reports of the chat-app send before it go nowhere.
	for (const flow of Object.values(flows)) await instance.publish(flow.id);
	await instance.publish(triggers.signed.id);
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 6 * JEST_TIMEOUTS.execute);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

describe('SMS: the v1 XML answers', () => {
	test(
		'Send: one text to two (static bulk, Sms/send) and two different texts (dynamic bulk, Sms/bulksend): each item its sid, queued, E.164 To, code 21010',
		async () => {
			expect(sandbox.live).toBe(true);
			const staticItems = nodeJson(await instance.executeOk(manual.smsStatic), 'SMS');
			const dynamicItems = nodeJson(await instance.executeOk(manual.smsDynamic), 'SMS');

			// the wire: each a suffix-less v1 path (the live service answers those in XML), form-encoded
			const [send] = sandbox.requests({ method: 'POST', pathIncludes: '/Sms/send' }).filter((r) => formHas(r.form, STATIC_TO[0]));
			expect([send.path, send.contentType, send.status]).toEqual([`${V1}/Sms/send`, 'application/x-www-form-urlencoded', 200]);
			expect(send.form).toEqual([
				['From', SENDER_ID],
				['To[]', STATIC_TO[0]],
				['To[]', STATIC_TO[1]],
				['Body', 'Your OTP is 4821'],
			]);
			const [bulk] = sandbox.requests({ method: 'POST', pathIncludes: '/Sms/bulksend' }).filter((r) => formHas(r.form, DYNAMIC[0].to));
			expect([bulk.path, bulk.contentType, bulk.status]).toEqual([`${V1}/Sms/bulksend`, 'application/x-www-form-urlencoded', 200]);
			expect(bulk.form).toEqual([
				['From', SENDER_ID],
				['Messages[0][To]', DYNAMIC[0].to],
				['Messages[0][Body]', DYNAMIC[0].body],
				['Messages[1][To]', DYNAMIC[1].to],
				['Messages[1][Body]', DYNAMIC[1].body],
			]);
			// no .json anywhere: every SMS answer was the live service's XML
			expect(sandbox.requests({ pathIncludes: '/Sms/' }).filter((r) => r.path.includes('.json'))).toEqual([]);

			// the items: the sandbox's sids, paired by position, the number as sent (the XML writes it national)
			const stored = (to: string) => sandbox.messages().find((m) => m.to === to)!;
			const expected = (to: string, requestId: number, body: string) => {
				const message = stored(to);
				expect([message.requestId, message.body]).toEqual([requestId, body]);
				return {
					messageSid: message.sid,
					status: 'queued',
					channel: 'sms',
					to,
					from: SENDER_ID,
					code: 21010,
					raw: expect.objectContaining({ Sid: message.sid, To: `0${to.slice(3)}`, From: `/${SENDER_ID}`, Status: 'queued', DateSent: '1970-01-01 05:30:00' }),
				};
			};
			expect(staticItems).toEqual(STATIC_TO.map((to) => expected(to, send.id, 'Your OTP is 4821')));
			expect(dynamicItems).toEqual(DYNAMIC.map(({ to, body }) => expected(to, bulk.id, body)));
			for (const item of [...staticItems, ...dynamicItems]) expect(typeof item.messageSid).toBe('string');
		},
		JEST_TIMEOUTS.execute * 2,
	);

	test(
		'an XML RestException and a failed XML entry reach the user in words (Continue On Fail), never as XML',
		async () => {
			// the sandbox answers an injected fault without a body in the path's error family: XML here
			sandbox.injectFaults({ kind: 'status', status: 403 }, 1, { method: 'POST', pathIncludes: '/Sms/send' });
			const run = await instance.executeOk(manual.smsErrors);
			expect(sandbox.pendingFaults).toBe(0);
			const sent = (to: string) => sandbox.requests({ method: 'POST', pathIncludes: '/Sms/' }).filter((r) => formHas(r.form, to));
			// a 4xx is final: sent once
			expect(sent(REFUSED_SMS_TO).map((r) => [r.path, r.status, r.fault])).toEqual([[`${V1}/Sms/send`, 403, 'status:403']]);
			expect(sent(INVALID_SMS_TO).map((r) => [r.path, r.status])).toEqual([[`${V1}/Sms/send`, 207]]);

			const [refused] = nodeJson(run, 'SMS refused');
			expect(refused).toMatchObject({ messageSid: null, status: 'failed', channel: 'sms', to: REFUSED_SMS_TO, error: expect.stringContaining('Forbidden (injected by the sandbox)') });
			const [invalid] = nodeJson(run, 'SMS invalid destination');
			expect(invalid).toMatchObject({
				messageSid: null,
				status: 'failed',
				to: INVALID_SMS_TO,
				code: 23010,
				error: expect.stringContaining('FAILED_INVALID_DESTINATION_NUMBER (23010)'),
			});
			for (const item of [refused, invalid]) {
				expect(String(item.error)).not.toMatch(/<\?xml|TwilioResponse|RestException|<Message>/);
			}
			// the node's error in the run, with its description, is free of XML too
			expect(JSON.stringify(run.data?.resultData.runData['SMS refused'])).not.toContain('<?xml');
			// nothing was stored for either
			expect(sandbox.messages().filter((m) => [REFUSED_SMS_TO, INVALID_SMS_TO].includes(m.to))).toEqual([]);
		},
		JEST_TIMEOUTS.execute,
	);
});

describe('Voice: Calls/connect in XML', () => {
	test(
		'Connect: the item’s callSid is the sandbox’s placed call, From as sent; the refused caller (503, Code 35008) fails its item in words, sent once',
		async () => {
			const run = await instance.executeOk(manual.calls);
			const connects = sandbox.requests({ method: 'POST', pathIncludes: '/Calls/connect' });

			const placed = connects.filter((r) => formHas(r.form, CALL_FROM));
			expect(placed.map((r) => [r.path, r.status])).toEqual([[`${V1}/Calls/connect`, 200]]);
			expect(Object.fromEntries(placed[0].form!)).toMatchObject({ From: CALL_FROM, CallerId: BUSINESS, Url: FLOW_URL });
			const [call] = nodeJson(run, 'Connect');
			expect(call).toMatchObject({ callSid: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'in-progress', from: CALL_FROM, direction: 'outbound-api' });
			// the sandbox knows that call (asked on the .json path: JSON)
			const auth = Buffer.from(`${SANDBOX_ACCOUNT.apiKey}:${SANDBOX_ACCOUNT.apiToken}`).toString('base64');
			const known = await fetch(`${sandbox.origin}${V1}/Calls/${call.callSid}.json`, { headers: { Authorization: `Basic ${auth}` } });
			expect(known.status).toBe(200);
			expect(((await known.json()) as { Call: Record<string, unknown> }).Call).toMatchObject({ Sid: call.callSid, From: CALL_FROM, PhoneNumberSid: BUSINESS });

			// the refused caller: exactly one request, answered 503 in XML, never sent again
			const refused = connects.filter((r) => formHas(r.form, SANDBOX_REFUSED_CALLER));
			expect(refused.map((r) => [r.path, r.status, Object.fromEntries(r.form!).From])).toEqual([[`${V1}/Calls/connect`, 503, REFUSED_CALL_FROM]]);
			const [failed] = nodeJson(run, 'Connect refused');
			expect(String(failed.error)).toContain('Service Unavailable');
			expect(String(failed.error)).toContain('35008');
			expect(String(failed.error)).not.toMatch(/<\?xml|TwilioResponse|RestException/);
		},
		JEST_TIMEOUTS.execute,
	);

	test(
		'Connect and Wait for Call End: waits; the call’s end (live terminal callback) resumes it with its final status',
		async () => {
			const flow = flows.callEnd;
			const from = '+919876500401';
			const executionId = await instance.startWaitingExecution(flow, { to: from });
			const [connect] = sandbox.requests({ method: 'POST', pathIncludes: '/Calls/connect' }).filter((r) => formHas(r.form, from));
			expect(connect.path).toBe(`${V1}/Calls/connect`);
			const form = Object.fromEntries(connect.form!.filter(([k]) => !k.startsWith('StatusCallbackEvents')));
			expect(connect.form!.filter(([k]) => k.startsWith('StatusCallbackEvents'))).toEqual([['StatusCallbackEvents[]', 'terminal']]);
			expect(form.StatusCallback.startsWith(resumePrefix(executionId, flow))).toBe(true);
			const callSid = nodeJson(await instance.execution(executionId), 'Exotel')[0]?.callSid as string;
			expect(callSid).toMatch(/^[0-9a-f]{32}$/);

			const ended = await sandbox.endCall({ callSid });
			expect(ended).toMatchObject({ url: form.StatusCallback, status: 200, signed: false });
			const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success'));
			expect(items).toEqual([
				expect.objectContaining({
					callSid,
					status: 'completed',
					from,
					eventType: 'terminal',
					customField: 'order-401',
					timedOut: false,
					waitingFor: 'callEnd',
					resumedBy: 'callback',
				}),
			]);
			expect(items[0].raw).toMatchObject({ CallSid: callSid, EventType: 'terminal', Status: 'completed' });
			expect(after).toEqual(items);
		},
		120_000,
	);
});

describe('WhatsApp: the live envelope', () => {
	test(
		'Chat App → Send: the body is the whatsapp envelope exactly; the item has the sid, accepted, chatapp',
		async () => {
			const [item] = nodeJson(await instance.executeOk(manual.chatSend), 'Chat App');
			const sends = sandbox.requests({ method: 'POST', pathIncludes: '/messages' }).filter((r) => r.rawBody.includes(CHAT_TO));
			expect(sends.map((r) => [r.path, r.contentType, r.status])).toEqual([[`${V2}/messages`, 'application/json', 202]]);
			expect(sends[0].json).toEqual({
				custom_data: 'order-501',
				whatsapp: {
					messages: [{ from: BUSINESS, to: CHAT_TO, content: { recipient_type: 'individual', type: 'text', text: { body: 'Your order ORD-501 has shipped' } } }],
				},
			});
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === CHAT_TO);
			expect(message).toMatchObject({ from: BUSINESS, contentType: 'text', customData: 'order-501' });
			expect(item).toMatchObject({ messageSid: message.sid, status: 'accepted', channel: 'chatapp', to: CHAT_TO, from: BUSINESS });
		},
		JEST_TIMEOUTS.execute,
	);

	test(
		'Messaging Trigger: activation registers through PUT …/whatsapp/webhook; live delivery reports and an incoming message each start one execution',
		async () => {
			const trigger = triggers.registering;
			await instance.publish(trigger.id);
			const webhook = { incoming_message_url: trigger.url, status_callback_url: trigger.url, verify_token: VERIFY_TOKEN };
			expect(sandbox.chatAppWebhook()).toEqual(webhook);
			const puts = sandbox.requests({ method: 'PUT' });
			expect(puts.map((r) => [r.path, r.status, r.auth.ok])).toEqual([[`${V2}/whatsapp/webhook`, 200, true]]);
			expect(puts[0].json).toEqual({ whatsapp: { webhook } });
			expect(sandbox.requests({ pathIncludes: '/chatapp/' })).toEqual([]);

			// a WhatsApp message without its own status callback: its reports go to the registered URL
			const [sent] = nodeJson(await instance.executeOk(manual.chatToTrigger), 'Chat App');
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === TRIGGER_CHAT_TO);
			expect([sent.messageSid, message.statusCallback]).toEqual([message.sid, undefined]);
			const reports = await sandbox.waitForCallbacks(
				(log) => log.filter((c) => c.messageSid === message.sid && c.kind === 'chatapp-status' && c.outcome === 'delivered').length >= 3,
				budget(60_000),
			);
			const ofMessage = reports.filter((c) => c.messageSid === message.sid && c.kind === 'chatapp-status');
			// as the live service posts them: unsigned, the whatsapp envelope, the seen code as text
			expect(ofMessage.map((c) => [c.url, c.status, c.signed, c.headers['x-service-signature']])).toEqual(
				Array(3).fill([trigger.url, 200, false, undefined]),
			);
			expect(ofMessage.map((c) => JSON.parse(c.body).whatsapp.messages[0].exo_status_code)).toEqual([30001, 30002, '30003']);

			// a person writes in reply to it (content.context names the message), their profile name given
			const incoming = await sandbox.postChatAppIncoming({ type: 'text', from: TRIGGER_CHAT_TO, name: 'Asha Rao', text: { body: 'Where is my order?' }, context: {} });
			expect([incoming.url, incoming.status, incoming.signed]).toEqual([trigger.url, 200, false]);
			expect(JSON.parse(incoming.body).whatsapp.messages[0]).toMatchObject({ callback_type: 'incoming_message', profile_name: 'Asha Rao' });
			// and a stranger writes out of the blue
			const other = await sandbox.postChatAppIncoming({ type: 'text', from: STRANGER, name: 'Ravi Kumar', text: { body: 'Do you deliver to Pune?' } });
			expect(other.status).toBe(200);

			const runs = await triggerRuns(trigger.id, 5);
			expect(runs).toHaveLength(5);
			for (const items of runs) expect(items).toHaveLength(1);
			const items = runs.map(([item]) => item);
			const statuses = items.filter((item) => item.event === 'chatAppStatus');
			expect(statuses.map((item) => [item.messageSid, item.status, item.code, item.channel, item.to]).sort()).toEqual([
				[message.sid, 'delivered', 30002, 'chatapp', TRIGGER_CHAT_TO],
				[message.sid, 'seen', 30003, 'chatapp', TRIGGER_CHAT_TO],
				[message.sid, 'sent', 30001, 'chatapp', TRIGGER_CHAT_TO],
			]);
			const received = items.filter((item) => item.event === 'chatAppIncoming');
			expect(received).toEqual(
				expect.arrayContaining([
					expect.objectContaining({ channel: 'chatapp', status: 'received', from: TRIGGER_CHAT_TO, to: BUSINESS, contactName: 'Asha Rao', text: 'Where is my order?', inReplyTo: message.sid }),
					expect.objectContaining({ channel: 'chatapp', status: 'received', from: STRANGER, contactName: 'Ravi Kumar', text: 'Do you deliver to Pune?', inReplyTo: null }),
				]),
			);
			expect(received).toHaveLength(2);
		},
		JEST_TIMEOUTS.execute + 120_000,
	);

	test(
		'Chat App → Send and Wait for Response (approval): the whatsapp envelope to the resume URL; the person’s Approve (a live button reply) resumes it',
		async () => {
			const flow = flows.chatApproval;
			const to = '+919876500701';
			const executionId = await instance.startWaitingExecution(flow, { to });
			const [send] = sandbox.requests({ method: 'POST', pathIncludes: '/messages' }).filter((r) => r.rawBody.includes(to));
			const body = send.json as { status_callback: string; whatsapp: { messages: Array<{ content: { interactive: { action: { buttons: unknown } } } }> } };
			expect(send.path).toBe(`${V2}/messages`);
			expect(Object.keys(body).sort()).toEqual(['status_callback', 'whatsapp']);
			expect(body.status_callback.startsWith(resumePrefix(executionId, flow))).toBe(true);
			expect(body.whatsapp.messages).toEqual([{ from: BUSINESS, to, content: expect.objectContaining({ type: 'interactive' }) }]);
			expect(body.whatsapp.messages[0].content.interactive.action.buttons).toEqual([
				{ type: 'reply', reply: { id: 'approve', title: 'Approve' } },
				{ type: 'reply', reply: { id: 'decline', title: 'Decline' } },
			]);
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === to);

			const reply = await sandbox.reply({ to, button: 'approve' });
			expect([reply.url, reply.status, reply.signed]).toEqual([body.status_callback, 200, false]);
			expect(JSON.parse(reply.body).whatsapp.messages[0]).toMatchObject({
				callback_type: 'incoming_message',
				content: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'approve', title: 'Approve' } }, context: { id: message.sid } },
			});
			const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success'));
			expect(items).toEqual([
				expect.objectContaining({
					messageSid: message.sid,
					status: 'answered',
					channel: 'chatapp',
					to,
					waitingFor: 'reply',
					resumedBy: 'callback',
					timedOut: false,
					approved: true,
					answer: 'approve',
					answerText: 'Approve',
					answeredBy: { number: to, name: 'Sandbox User' },
				}),
			]);
			expect(after).toEqual(items);
		},
		120_000,
	);

	test(
		'Chat App → Send and Wait for Delivery: resumes on the live delivery report with its status and a numeric code',
		async () => {
			const flow = flows.chatDelivery;
			const to = '+919876500801';
			const executionId = await instance.startExecution(flow, { to });
			const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success', 120_000));
			const [send] = sandbox.requests({ method: 'POST', pathIncludes: '/messages' }).filter((r) => r.rawBody.includes(to));
			const body = send.json as { status_callback: string; whatsapp: { messages: unknown[] } };
			expect(body).toEqual({
				status_callback: expect.any(String),
				whatsapp: { messages: [{ from: BUSINESS, to, content: { recipient_type: 'individual', type: 'text', text: { body: 'Your order ORD-801 has shipped' } } }] },
			});
			expect(body.status_callback.startsWith(resumePrefix(executionId, flow))).toBe(true);
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === to);

			// Which report resumed it is read from the sandbox's log, not guessed from the machine's speed: the
			// reports come in order, sent (30001), delivered (30002), seen ("30003"); n8n answers 409 to one that
			// comes before it has saved the wait, and the node answers `sent` 200 and keeps waiting. So the report
			// that resumed it is the first final one answered 200, and every final one before it was answered 409.
			const STATUS_OF: Record<number, string> = { 30002: 'delivered', 30003: 'seen' };
			const entryOf = (r: CallbackAttempt): IDataObject => (JSON.parse(r.body) as { whatsapp: { messages: IDataObject[] } }).whatsapp.messages[0];
			const codeOf = (r: CallbackAttempt) => Number(entryOf(r).exo_status_code);
			const ours = (r: CallbackAttempt) => r.url === body.status_callback && r.kind === 'chatapp-status';
			// an attempt is logged once it has finished: n8n may have saved the run before the sandbox read its 200
			const reports = (await sandbox.waitForCallbacks((log) => log.some((r) => ours(r) && r.status === 200 && codeOf(r) !== 30001), budget(10_000))).filter(ours);
			expect([codeOf(reports[0]), reports[0].attempt]).toEqual([30001, 1]);
			const resumedAt = reports.findIndex((r) => r.status === 200 && codeOf(r) !== 30001);
			expect(resumedAt).toBeGreaterThan(0);
			const resumedBy = reports[resumedAt];
			const earlierFinal = reports.slice(0, resumedAt).filter((r) => codeOf(r) !== 30001);
			expect(earlierFinal.map((r) => [codeOf(r), r.status])).toEqual(earlierFinal.map((r) => [codeOf(r), 409]));
			expect(reports.slice(0, resumedAt).every((r) => [200, 409].includes(r.status))).toBe(true);
			expect(Object.keys(STATUS_OF)).toContain(String(codeOf(resumedBy)));
			expect(items).toEqual([
				expect.objectContaining({
					messageSid: message.sid,
					channel: 'chatapp',
					to,
					timedOut: false,
					waitingFor: 'delivery',
					resumedBy: 'callback',
					status: STATUS_OF[codeOf(resumedBy)],
					code: codeOf(resumedBy),
				}),
			]);
			// that report as posted: the whatsapp envelope's entry, unsigned
			expect(items[0].raw).toEqual(entryOf(resumedBy));
			expect(resumedBy.signed).toBe(false);
			expect(after).toEqual(items);
		},
		180_000,
	);

	test(
		'with a Webhook Signing Secret on the credential, an unsigned incoming WhatsApp message gets 401 and starts nothing',
		async () => {
			const trigger = triggers.signed;
			const attempt = await sandbox.postChatAppIncoming({ url: trigger.url, type: 'text', from: STRANGER, text: { body: 'unsigned, as the live service posts' } });
			expect([attempt.status, attempt.signed, attempt.headers['x-service-signature']]).toEqual([401, false, undefined]);
			// the same bytes posted again, to read the refusal: it names the missing header
			const again = await instance.request<{ error?: string }>('POST', trigger.url, { data: attempt.body, headers: { 'Content-Type': 'application/json' } });
			expect(again.status).toBe(401);
			expect(String(again.data?.error)).toContain('X-Service-Signature header is missing');
			expect(await instance.executionIds(trigger.id)).toEqual([]);
		},
		JEST_TIMEOUTS.execute,
	);
});
