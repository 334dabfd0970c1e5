/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the example files and polls n8n (fs, path, setTimeout); never shipped */
/**
 * The example workflows of `examples/` on a real n8n 2.8.4 with the packed package, against the
 * sandbox: imported as `npm run dev` imports them (same credential ids), the webhook and trigger
 * ones published, then each run the way a user would (a POST to its webhook, `n8n execute`, or the
 * service calling the trigger back); the send-and-wait ones wait until the sandbox, acting as the
 * person asked, taps a reply button or opens an SMS link. A webhook that answers after its Exotel node
 * answers a failure too: 400 with the node's reason (its error output into Respond to Webhook), where
 * n8n alone answers 500 "Error in workflow". The examples point their callback URLs at `npm run dev`'s
 * n8n (http://127.0.0.1:5678); this test rewrites that origin to its own instance. The call-flow
 * examples are called as `npm run person -- call` calls them: the sandbox plays an incoming call
 * through the example's own flow file (examples/call-flows/), its URLs rewritten the same way.
 */
import axios from 'axios';
import fs from 'fs';
import type { IDataObject, INode } from 'n8n-workflow';
import path from 'path';

import { parseFlow } from '../../sandbox/callFlows/flow';
import type { CallFlow, CallFlowResult, CalleeBehaviour } from '../../sandbox/callFlows/types';
import {
	SANDBOX_ACCOUNT,
	SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS,
	SANDBOX_GREENVN_POOL,
	SANDBOX_LISTS,
	sandboxCredentialData,
} from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { budget, JEST_TIMEOUTS, N8nInstance, nodeJson, REPO_ROOT, sharedN8n, type SavedExecution } from '../harness';

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** Where the examples expect n8n: `npm run dev` (scripts/dev.ts). */
const DEV_ORIGIN = 'http://127.0.0.1:5678';

const PACKAGE_NODES = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).n8n.nodes as string[]).map(
	(file) => `n8n-nodes-exotel.${path.basename(file, '.node.js').replace(/^./, (c) => c.toLowerCase())}`,
);

interface Example {
	id: string;
	name: string;
	nodes: INode[];
	/** Where each node's outputs go, as an n8n export writes it. */
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	[key: string]: unknown;
}

const examples: Record<string, Example> = Object.fromEntries(
	fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => [path.basename(file, '.json'), JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as Example]),
);

const EXPECTED = [
	'allocate-masked-number',
	'approve-refund-whatsapp',
	'call-flow-dial-account-manager',
	'call-flow-order-status-ivr',
	'call-flow-route-by-lookup',
	'campaign-from-list',
	'campaign-results',
	'chat-app-auto-reply',
	'confirm-appointment-sms',
	'delivery-tracking',
	'rcs-with-sms-fallback',
	'sms-send-on-webhook',
];

/** The flow files of the call-flow examples (examples/call-flows/<name>.flow.json), by the example's name. */
const FLOWS_DIR = path.join(EXAMPLES_DIR, 'call-flows');
const flowFiles: Record<string, CallFlow> = Object.fromEntries(
	fs
		.readdirSync(FLOWS_DIR)
		.filter((file) => file.endsWith('.flow.json'))
		.sort()
		.map((file) => [`call-flow-${path.basename(file, '.flow.json')}`, JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, file), 'utf8')) as CallFlow]),
);
const CALL_FLOW_EXAMPLES = EXPECTED.filter((name) => name.startsWith('call-flow-'));
const CALL_FLOW_TRIGGER = 'n8n-nodes-exotel.exotelCallFlowTrigger';
/** The ExoPhone the example calls come in on (and the Connect example shows its callees). */
const EXOPHONE = '+918041234567';
/** The callers of the examples' lookups: a VIP with an account manager and a latest order, and a caller they do not know. */
const KNOWN_CALLER = '+919876543210';
const OTHER_CALLER = '+919800011122';

const isTrigger = (node: INode) => /webhook$|Trigger$/i.test(node.type) && node.type !== 'n8n-nodes-base.respondToWebhook';
/** Examples started by a webhook or a service callback: published before start. */
const published = Object.keys(examples).filter((name) =>
	examples[name].nodes.some((node) => isTrigger(node) && node.type !== 'n8n-nodes-base.manualTrigger'),
);

function webhookIdOf(name: string): string {
	const node = examples[name].nodes.find((n) => n.webhookId && n.type.startsWith('n8n-nodes-exotel.'));
	if (!node) throw new Error(`${name} has no Exotel trigger`);
	return node.webhookId as string;
}

function pathOf(name: string): string {
	const node = examples[name].nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
	if (!node) throw new Error(`${name} has no Webhook node`);
	return node.parameters.path as string;
}

/** Items a node emitted on one output, across the given executions. */
function itemsOf(executions: SavedExecution[], nodeName: string, output = 0): IDataObject[] {
	return executions.flatMap((execution) =>
		(execution.data?.resultData?.runData?.[nodeName]?.[0]?.data?.main?.[output] ?? []).map((item) => item.json),
	);
}

/**
 * POSTs `body` (with an `orderId` of its own) to an example's webhook when its Exotel node fails: the
 * run goes down the node's error output (Continue (using error output)) to Respond with Error, which
 * answers 400 with the node's reason, `{ error }`, where n8n alone would answer 500 "Error in
 * workflow". The run itself succeeds, and the Respond node of the success output does not run. The
 * run is found by its orderId: n8n saves a webhook's execution after answering, so the newest saved
 * one may still be the call before.
 */
async function postFailing(name: string, body: { orderId: string; [field: string]: unknown }): Promise<{ status: number; data: unknown }> {
	const { id, nodes } = examples[name];
	const webhook = nodes.find((node) => node.type === 'n8n-nodes-base.webhook')!.name;
	const res = await instance.request('POST', instance.webhookUrl(pathOf(name)), { data: body });
	const deadline = Date.now() + budget(60_000);
	let run: SavedExecution | undefined;
	while (!run && Date.now() < deadline) {
		run = (await instance.executions(id)).find(
			(execution) => !['new', 'running'].includes(execution.status) && (itemsOf([execution], webhook)[0]?.body as IDataObject | undefined)?.orderId === body.orderId,
		);
		if (!run) await new Promise((resolve) => setTimeout(resolve, 300));
	}
	if (!run) throw new Error(`No execution of ${name} for ${body.orderId} after ${budget(60_000)} ms`);
	expect(run.status).toBe('success');
	const responders = nodes.filter((node) => node.type === 'n8n-nodes-base.respondToWebhook').map((node) => node.name);
	expect(Object.keys(run.data.resultData.runData).filter((node) => responders.includes(node))).toEqual(['Respond with Error']);
	return { status: res.status, data: res.data };
}

/**
 * The newest execution of a workflow once it has one of `statuses` (a send-and-wait run shows
 * `waiting` while it waits for the person, then `success`), with its data; fails naming what it saw.
 * n8n keeps a waiting execution among its active ones and the public API's list leaves those out
 * (measured on 2.8.4), so the list is the editor's (`GET /rest/executions`), the execution read by id.
 */
async function newestExecution(workflowId: string, statuses: string[], timeoutMs = 60_000): Promise<SavedExecution> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const deadline = Date.now() + budget(timeoutMs);
	let seen: Array<{ id: string; status: string }> = [];
	while (Date.now() < deadline) {
		const res = await instance.rest<{ data?: { results?: Array<{ id: string; status: string }> } }>('GET', `/executions?filter=${filter}`);
		seen = (res.data?.data?.results ?? []).map(({ id, status }) => ({ id, status }));
		if (seen[0] && statuses.includes(seen[0].status)) return await instance.publicApi<SavedExecution>('GET', `/executions/${seen[0].id}?includeData=true`);
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	throw new Error(`No ${statuses.join('/')} execution of ${workflowId} after ${budget(timeoutMs)} ms: ${JSON.stringify(seen)}`);
}

let sandbox: ExotelSandbox;
let instance: N8nInstance;

/**
 * An incoming call to the ExoPhone played through a call-flow example's own flow file, as
 * `npm run person -- call --flow examples/call-flows/<file>` plays it through `npm run dev` (its URLs
 * rewritten from dev's n8n to this test's). Each trigger answered with the workflow's own answer, not
 * its fallback for a slow workflow: every request was answered before its trigger's Answer Within
 * (n8n logs a fallback too, but that line may reach its log file only after the call has ended).
 */
async function callThrough(name: string, call: { from: string; press?: string[]; callees?: Record<string, CalleeBehaviour> }): Promise<CallFlowResult> {
	const flow = JSON.parse(JSON.stringify(flowFiles[name]).split(DEV_ORIGIN).join(instance.baseUrl)) as CallFlow;
	const played = await sandbox.playCallFlow({ flow, to: EXOPHONE, ...call });
	expect(played.ended).toBe('hangup');
	const answerWithinMs = Math.min(...examples[name].nodes.filter((node) => node.type === CALL_FLOW_TRIGGER).map((node) => Number(node.parameters.answerWithin) * 1000));
	const slow = played.steps.flatMap((step) => step.requests.filter((request) => !(request.ms < answerWithinMs)).map((request) => `${step.applet}: ${request.method} ${request.ms} ms`));
	expect(slow).toEqual([]);
	return played;
}

/** The way a call went: each applet and its outcome. */
const stepsOf = (call: CallFlowResult) => call.steps.map((step) => `${step.applet}:${step.outcome}`);

// ------------------------------------------------------------------ static checks (no n8n)

describe('example files', () => {
	test('every common job has its example', () => {
		expect(Object.keys(examples)).toEqual(EXPECTED);
	});

	test.each(EXPECTED)('%s is an importable n8n export with sticky notes and the dev credential ids', (name) => {
		const example = examples[name];
		expect(example.id).toMatch(/^[A-Za-z0-9]{1,21}$/);
		expect(example).toMatchObject({ name: expect.any(String), settings: { executionOrder: 'v1' }, pinData: {} });
		const names = example.nodes.map((node) => node.name);
		expect(new Set(names).size).toBe(names.length);
		for (const node of example.nodes) {
			expect(node).toMatchObject({ id: expect.any(String), name: expect.any(String), typeVersion: expect.any(Number), parameters: expect.any(Object) });
			expect(node.position).toHaveLength(2);
			if (node.type.startsWith('n8n-nodes-exotel.')) expect(PACKAGE_NODES).toContain(node.type);
			else expect(node.type).toMatch(/^n8n-nodes-base\./);
			if (isTrigger(node) && node.type !== 'n8n-nodes-base.manualTrigger') expect(node.webhookId).toEqual(expect.any(String));
			for (const [type, ref] of Object.entries((node.credentials ?? {}) as Record<string, unknown>)) {
				expect(ref).toEqual(CREDENTIAL_IDS[type]);
			}
		}
		for (const [from, outputs] of Object.entries(example.connections)) {
			expect(names).toContain(from);
			for (const target of outputs.main.flat()) expect(names).toContain(target.node);
		}
		expect(example.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').length).toBeGreaterThan(0);
	});

	test('a Webhook that answers after its Exotel node answers either way: success and error output each into a Respond to Webhook', () => {
		const answering = EXPECTED.filter((name) => examples[name].nodes.some((n) => n.type === 'n8n-nodes-base.webhook' && n.parameters.responseMode !== 'onReceived'));
		expect(answering).toEqual(['allocate-masked-number', 'rcs-with-sms-fallback', 'sms-send-on-webhook']);
		for (const name of answering) {
			const { nodes, connections } = examples[name];
			const webhook = nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
			expect([name, webhook.parameters.responseMode]).toEqual([name, 'responseNode']);
			const [[first]] = connections[webhook.name].main;
			const exotel = nodes.find((n) => n.name === first.node)!;
			expect([name, exotel.type.startsWith('n8n-nodes-exotel.'), exotel.onError]).toEqual([name, true, 'continueErrorOutput']);
			const typeOf = (node: string) => nodes.find((n) => n.name === node)?.type;
			const outputs = connections[exotel.name].main.map((targets) => targets.map((t) => typeOf(t.node)));
			expect([name, outputs]).toEqual([name, [['n8n-nodes-base.respondToWebhook'], ['n8n-nodes-base.respondToWebhook']]]);
			const error = nodes.find((n) => n.name === connections[exotel.name].main[1][0].node)!;
			expect([name, error.name, error.parameters]).toEqual([
				name,
				'Respond with Error',
				{ respondWith: 'json', responseBody: '={{ { "error": $json.error.message } }}', options: { responseCode: 400 } },
			]);
		}
	});

	test('callback URLs in the examples point at the triggers of their companion examples', () => {
		const rcs = examples['rcs-with-sms-fallback'].nodes.find((n) => n.name === 'Send RCS Template');
		expect(rcs?.parameters.statusCallback).toBe(`${DEV_ORIGIN}/webhook/${webhookIdOf('delivery-tracking')}/webhook`);
		const create = examples['campaign-from-list'].nodes.find((n) => n.name === 'Create Campaign');
		const voiceTrigger = `${DEV_ORIGIN}/webhook/${webhookIdOf('campaign-results')}/webhook`;
		expect(create?.parameters.additionalFields).toMatchObject({
			statusCallback: `${voiceTrigger}?callback=campaignStatus`,
			callStatusCallback: `${voiceTrigger}?callback=campaignCallStatus`,
			callScheduleCallback: `${voiceTrigger}?callback=campaignCallSchedule`,
		});
	});

	test('every call-flow example has its flow file, in the format the sandbox plays', () => {
		expect(Object.keys(flowFiles)).toEqual(CALL_FLOW_EXAMPLES);
		for (const name of CALL_FLOW_EXAMPLES) expect(() => parseFlow(flowFiles[name])).not.toThrow();
	});

	test.each(CALL_FLOW_EXAMPLES)(
		'%s: its flow file asks each of its triggers at the dev URL with the sandbox secret; each trigger has a fallback and is answered for its own applet',
		(name) => {
			const { nodes, connections } = examples[name];
			const triggers = nodes.filter((node) => node.type === CALL_FLOW_TRIGGER);
			expect(triggers.length).toBeGreaterThan(0);
			const asked = Object.values(flowFiles[name].applets)
				.flatMap((applet) => ('url' in applet && applet.url ? [`${applet.kind} ${applet.url}`] : []))
				.sort();
			const urls = triggers.map((t) => `${t.parameters.applet} ${DEV_ORIGIN}/webhook/${t.webhookId}/${t.parameters.applet}/${t.webhookId}/${SANDBOX_ACCOUNT.callFlowSecret}`);
			expect(asked).toEqual(urls.sort());
			const fallbackField = { passthru: 'fallbackBranch', connect: 'fallbackNumbers', gather: 'fallbackPrompt', greeting: 'fallbackText' } as Record<string, string>;
			for (const trigger of triggers) {
				const applet = String(trigger.parameters.applet);
				expect([trigger.name, trigger.parameters[fallbackField[applet]]]).toEqual([trigger.name, expect.stringMatching(/\S/)]);
				expect(trigger.credentials).toEqual({ exotelCallFlowApi: CREDENTIAL_IDS.exotelCallFlowApi });
				// down its chain, one Answer, for the trigger's applet
				const chain: INode[] = [];
				for (let at = trigger.name; connections[at]; ) {
					at = connections[at].main[0][0].node;
					chain.push(nodes.find((node) => node.name === at)!);
				}
				const answers = chain.filter((node) => node.type === 'n8n-nodes-exotel.exotelVoice');
				expect(answers.map((node) => [node.parameters.resource, node.parameters.operation, node.parameters.applet])).toEqual([['callFlow', 'answer', applet]]);
				expect(chain.at(-1)).toBe(answers[0]);
			}
		},
	);
});

// ------------------------------------------------------------------ on a real n8n

describe('examples on a real n8n against the sandbox', () => {
	beforeAll(async () => {
		sandbox = new ExotelSandbox({ timeScale: 0.005 });
		await sandbox.start();
		instance = await sharedN8n();
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		await instance.importCredentials(Object.entries(CREDENTIAL_IDS).map(([type, ref]) => ({ ...ref, type, data: data[type] })));
		const rewritten = Object.values(examples).map(
			(example) => JSON.parse(JSON.stringify(example).split(DEV_ORIGIN).join(instance.baseUrl)) as object,
		);
		await instance.importWorkflows(rewritten);
		for (const name of published) await instance.publish(examples[name].id);
		await instance.setupOwnerAndApiKey();
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 6 * 120_000);

	afterAll(async () => {
		await instance?.dispose();
		await sandbox?.stop();
	}, JEST_TIMEOUTS.dispose);

	test('sms-send-on-webhook: the order-shipped POST sends one personalised SMS and answers with it', async () => {
		const res = await instance.request<IDataObject>('POST', instance.webhookUrl(pathOf('sms-send-on-webhook')), {
			data: { orderId: 'ORD-10481', name: 'Asha', phone: '+919876543210' },
		});
		expect(res.status).toBe(200);
		const sms = sandbox.messages().filter((m) => m.to === '+919876543210');
		expect(sms).toEqual([
			expect.objectContaining({ from: 'EXOTEL', body: 'Hi Asha, your order ORD-10481 has shipped.', smsType: 'transactional' }),
		]);
		// the webhook answers with the send's item: the message keys, the SMSMessage under raw
		expect(res.data).toEqual({
			messageSid: sms[0].sid,
			status: sms[0].status,
			channel: 'sms',
			to: '+919876543210',
			from: 'EXOTEL',
			code: sms[0].detailedStatusCode,
			raw: expect.objectContaining({ Sid: sms[0].sid, To: '+919876543210', Status: sms[0].status, DetailedStatus: sms[0].detailedStatus }),
		});
		expect(Object.keys(res.data)).toEqual(['messageSid', 'status', 'channel', 'to', 'from', 'code', 'raw']);
	}, JEST_TIMEOUTS.execute);

	test(
		'sms-send-on-webhook: a send that fails answers 400 with the reason, not n8n\'s "Error in workflow": a number the node refuses, then one the service refuses',
		async () => {
			const sent = () => sandbox.requests({ method: 'POST', pathIncludes: '/Sms/' }).length;
			const before = sent();
			// not a phone number: the node refuses it and sends nothing
			const bad = await postFailing('sms-send-on-webhook', { orderId: 'ORD-10484', name: 'Asha', phone: '98765-abc' });
			expect(bad).toEqual({ status: 400, data: { error: expect.stringMatching(/^To must be a phone number .*98765-?abc/) } });
			expect(sent()).toBe(before);
			// a national number with its leading 0: sent, and the service refuses the message (23010)
			const refused = await postFailing('sms-send-on-webhook', { orderId: 'ORD-10485', name: 'Asha', phone: '0123456789' });
			expect(refused).toEqual({ status: 400, data: { error: expect.stringContaining('FAILED_INVALID_DESTINATION_NUMBER (23010)') } });
			expect(sent()).toBe(before + 1);
			// neither became a message
			expect(sandbox.messages().filter((m) => ['98765-abc', '0123456789'].includes(m.to))).toEqual([]);
		},
		JEST_TIMEOUTS.execute,
	);

	test(
		'rcs-with-sms-fallback → delivery-tracking: the RCS template goes out with its fallback; the failed RCS report is alerted, the fallback SMS logged',
		async () => {
			const trackingUrl = instance.webhookUrl(`${webhookIdOf('delivery-tracking')}/webhook`);
			// …0077 is not RCS capable in the sandbox: the report says failed and the SMS fallback fires
			const res = await instance.request<IDataObject>('POST', instance.webhookUrl(pathOf('rcs-with-sms-fallback')), {
				data: { orderId: 'ORD-10482', name: 'Ravi', phone: '+919876540077' },
			});
			expect(res.status).toBe(200);
			// the webhook answers with the send's item: the message keys (the service's success is accepted), the envelope entry under raw
			expect(res.data).toEqual({
				messageSid: expect.any(String),
				status: 'accepted',
				channel: 'rcs',
				to: '+919876540077',
				from: 'acme_orders_bot',
				code: 200,
				requestId: expect.any(String),
				raw: { code: 200, error_data: null, status: 'success', data: { sid: res.data.messageSid } },
			});

			const [rcs] = sandbox.rcsMessages();
			expect(rcs).toMatchObject({
				sid: res.data.messageSid,
				from: 'acme_orders_bot',
				to: '+919876540077',
				template: { name: 'order_update', variables: { TemplateParam1: 'Ravi', TemplateParam2: 'ORD-10482' } },
				fallback: { from: 'ACMEIN', content: { text: 'Hi Ravi, your order ORD-10482 has shipped.', sms_type: 'transactional' } },
				statusCallback: trackingUrl,
				customData: 'ORD-10482',
			});

			await sandbox.waitForCallbacks((log) => log.some((c) => c.url === trackingUrl && c.outcome === 'delivered'), budget(30_000));
			const executions = await instance.waitForExecutions(examples['delivery-tracking'].id, 1, 60_000);
			expect(executions.every((e) => e.status === 'success')).toBe(true);
			// the failed RCS report names the message the send answered with; the report as received is under raw
			expect(itemsOf(executions, 'Alert')).toEqual([
				expect.objectContaining({
					event: 'rcsDeliveryReport',
					messageSid: res.data.messageSid,
					channel: 'rcs',
					status: 'failed',
					code: 40004,
					to: '+919876540077',
					customData: 'ORD-10482',
					raw: expect.objectContaining({ sid: res.data.messageSid, exo_status_code: 40004, custom_data: 'ORD-10482' }),
				}),
			]);
			expect(itemsOf(executions, 'Log')).toEqual([
				expect.objectContaining({
					event: 'rcsDeliveryReport',
					messageSid: expect.any(String),
					channel: 'sms',
					fallback: true,
					to: '+919876540077',
					raw: expect.objectContaining({ to: '+919876540077' }),
				}),
			]);
			const keys = ['event', 'messageSid', 'status', 'channel', 'to', 'from', 'code', 'timestamp', 'customData'];
			expect(Object.keys(itemsOf(executions, 'Alert')[0])).toEqual([...keys, 'raw']);
			expect(Object.keys(itemsOf(executions, 'Log')[0])).toEqual([...keys, 'fallback', 'raw']);
			expect(sandbox.callbacks().filter((c) => c.url === trackingUrl && c.status !== 200)).toEqual([]);
		},
		JEST_TIMEOUTS.execute + 90_000,
	);

	test('rcs-with-sms-fallback: a send that fails answers 400 with the reason, not n8n\'s "Error in workflow"', async () => {
		const before = sandbox.rcsMessages().length;
		// not an E.164 number: the node refuses it and sends nothing
		const bad = await postFailing('rcs-with-sms-fallback', { orderId: 'ORD-10486', name: 'Ravi', phone: '98765-abc' });
		expect(bad).toEqual({ status: 400, data: { error: expect.stringMatching(/^To must be an E\.164 number .*98765-?abc/) } });
		expect(sandbox.rcsMessages()).toHaveLength(before);
	}, JEST_TIMEOUTS.execute);

	test(
		'chat-app-auto-reply: activation registered the trigger; an incoming message gets a text reply to its sender from the business number',
		async () => {
			const triggerUrl = instance.webhookUrl(`${webhookIdOf('chat-app-auto-reply')}/webhook`);
			expect(sandbox.chatAppWebhook()).toMatchObject({ incoming_message_url: triggerUrl, status_callback_url: triggerUrl });

			const incoming = await sandbox.postChatAppIncoming({
				type: 'text',
				from: '+919876543210',
				to: '+918047090000',
				name: 'Asha Rao',
				text: { body: 'Is my order on the way?' },
			});
			expect(incoming.status).toBe(200);
			const executions = await instance.waitForExecutions(examples['chat-app-auto-reply'].id, 1, 60_000);
			expect(executions[0].status).toBe('success');
			expect(itemsOf(executions, 'Incoming Message')).toEqual([
				expect.objectContaining({
					event: 'chatAppIncoming',
					messageSid: expect.any(String),
					status: 'received',
					channel: 'chatapp',
					from: '+919876543210',
					to: '+918047090000',
					text: 'Is my order on the way?',
					contactName: 'Asha Rao',
					raw: expect.objectContaining({ event: 'incoming_message' }),
				}),
			]);
			const replies = sandbox.chatAppMessages().filter((m) => m.to === '+919876543210');
			expect(replies).toEqual([
				expect.objectContaining({
					from: '+918047090000',
					contentType: 'text',
					content: expect.objectContaining({
						text: expect.objectContaining({ body: 'Hi Asha Rao, thanks for your message. We will get back to you within the hour.' }),
					}),
				}),
			]);
			// the reply's status callbacks reach the same (account-wide) URL but start nothing: only incoming messages are wanted
			await sandbox.waitForCallbacks((log) => log.filter((c) => c.kind === 'chatapp-status' && c.url === triggerUrl).length >= 3, budget(30_000));
			expect(await instance.executions(examples['chat-app-auto-reply'].id, { includeData: false })).toHaveLength(1);
		},
		JEST_TIMEOUTS.execute + 90_000,
	);

	test(
		'campaign-from-list → campaign-results: the campaign calls list-1 and every callback it makes starts the results workflow, named by ?callback=',
		async () => {
			const triggerUrl = instance.webhookUrl(`${webhookIdOf('campaign-results')}/webhook`);
			const result = await instance.executeOk(examples['campaign-from-list'].id);
			const [campaign] = nodeJson(result, 'Create Campaign');
			expect(campaign).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'Created', lists: ['list-1'] });
			const [create] = sandbox.requests({ method: 'POST', pathIncludes: '/campaigns' });
			expect(create.json).toMatchObject({
				campaign_type: 'static',
				lists: ['list-1'],
				caller_id: '+918047112233',
				name: 'Delivery feedback survey',
				flow_type: 'ivr',
				url: `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`,
				status_callback: `${triggerUrl}?callback=campaignStatus`,
				call_status_callback: `${triggerUrl}?callback=campaignCallStatus`,
				call_schedule_callback: `${triggerUrl}?callback=campaignCallSchedule`,
			});

			// The sandbox's campaign clock moves when the campaign is read: read it until it completes.
			const contacts = SANDBOX_LISTS.find((list) => list.sid === 'list-1')!.contacts;
			const campaignUrl = `${sandbox.origin}/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/campaigns/${campaign.id}`;
			const deadline = Date.now() + budget(60_000);
			let status = '';
			while (status !== 'Completed' && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 300));
				const res = await axios.get(campaignUrl, {
					auth: { username: SANDBOX_ACCOUNT.apiKey, password: SANDBOX_ACCOUNT.apiToken },
					proxy: false,
					timeout: 10_000,
				});
				status = res.data?.response?.data?.status;
			}
			expect(status).toBe('Completed');

			// one call status and one schedule callback per contact, then the campaign status
			const expected = contacts.length * 2 + 1;
			const log = await sandbox.waitForCallbacks(
				(all) => all.filter((c) => c.url.startsWith(triggerUrl) && c.outcome === 'delivered').length >= expected,
				30_000,
			);
			expect(log.filter((c) => c.url.startsWith(triggerUrl) && c.status !== 200)).toEqual([]);
			const executions = await instance.waitForExecutions(examples['campaign-results'].id, expected, 60_000);
			const items = itemsOf(executions, 'Campaign Result');
			expect(items).toHaveLength(expected);
			expect(items.every((item) => item.campaignSid === campaign.id)).toBe(true);
			const byEvent = (event: string) => items.filter((item) => item.event === event);
			expect(byEvent('campaignCallStatus')).toHaveLength(contacts.length);
			expect(byEvent('campaignCallSchedule')).toHaveLength(contacts.length);
			expect(byEvent('campaignStatus')).toEqual([expect.objectContaining({ status: 'Completed' })]);
			// each callback in the call keys, the payload under raw: the number called is `to`, the call `callSid`
			const keys = ['event', 'callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl', 'campaignSid', 'raw'];
			for (const item of items) {
				expect(Object.keys(item)).toEqual(keys);
				expect(item.raw).toMatchObject({ campaign_sid: campaign.id, status: item.status });
			}
			for (const item of [...byEvent('campaignCallStatus'), ...byEvent('campaignCallSchedule')]) {
				expect(item.to).toBe((item.raw as IDataObject).number);
				expect(item).not.toHaveProperty('number');
			}
			expect(byEvent('campaignCallStatus').map((item) => item.to).sort()).toEqual(contacts.map((contact) => contact.phone_number).sort());
			expect(byEvent('campaignCallStatus').every((item) => typeof item.callSid === 'string' && item.callSid === (item.raw as IDataObject).call_sid)).toBe(true);
			// contact-4 (…0097) is busy in the sandbox
			const busy = byEvent('campaignCallStatus').find((item) => item.to === '+919845000097');
			expect(busy).toMatchObject({ status: 'busy', raw: expect.objectContaining({ number: '+919845000097', status: 'busy' }) });
		},
		JEST_TIMEOUTS.execute + 180_000,
	);

	test('allocate-masked-number: a new order gets a two-way masked number, returned by Respond to Webhook', async () => {
		const res = await instance.request('POST', instance.webhookUrl(pathOf('allocate-masked-number')), {
			data: { orderId: 'ORD-10483', customerPhone: '+919876543210', driverPhone: '+919812345678' },
		});
		expect(res.status).toBe(200);
		const [allocation] = sandbox.allocations();
		expect(allocation).toMatchObject({
			connection_id: 'ORD-10483',
			aparty_numbers: ['+919876543210'],
			bparty_numbers: ['+919812345678'],
			usage: 'twoway',
			state: 'active',
		});
		expect(SANDBOX_GREENVN_POOL.map((entry) => entry.number)).toContain(allocation.greenvn);
		expect(res.data).toEqual({ orderId: 'ORD-10483', maskedNumber: allocation.greenvn, allocationId: allocation.greenvn_id });
		const [post] = sandbox.requests({ base: 'alloc', method: 'POST' });
		expect(post.json).toMatchObject({ deallocation_policy: { duration: '2d' } });
	}, JEST_TIMEOUTS.execute);

	test(
		'allocate-masked-number: an allocation that fails answers 400 with the reason, not n8n\'s "Error in workflow": a number the node refuses, then a request the service refuses',
		async () => {
			const posts = () => sandbox.requests({ base: 'alloc', method: 'POST' }).length;
			const before = posts();
			// not an E.164 number: the node refuses it and sends nothing
			const bad = await postFailing('allocate-masked-number', { orderId: 'ORD-10487', customerPhone: '98765-abc', driverPhone: '+919812345678' });
			expect(bad).toEqual({ status: 400, data: { error: expect.stringMatching(/^A-Party Numbers \[0\] must be an E\.164 number .*98765-?abc/) } });
			expect(posts()).toBe(before);
			// customer and driver on one number: sent, and the service refuses it (code 14)
			const refused = await postFailing('allocate-masked-number', { orderId: 'ORD-10488', customerPhone: '+919812345678', driverPhone: '+919812345678' });
			expect(refused).toEqual({ status: 400, data: { error: expect.stringContaining('(code 14)') } });
			expect(posts()).toBe(before + 1);
			expect(sandbox.allocations().filter((allocation) => ['ORD-10487', 'ORD-10488'].includes(allocation.connection_id))).toEqual([]);
		},
		JEST_TIMEOUTS.execute,
	);

	test(
		'approve-refund-whatsapp: the manager gets Approve refund / Decline buttons, the run waits (1 hour at most), the approve tap resumes it down Refund approved',
		async () => {
			const id = examples['approve-refund-whatsapp'].id;
			const manager = '+919812340001';
			const res = await instance.request('POST', instance.webhookUrl(pathOf('approve-refund-whatsapp')), {
				data: { orderId: 'ORD-10490', amount: 1200, customerName: 'Asha Rao', managerPhone: manager },
			});
			// the Webhook answers at once (Respond: Immediately): the run goes on, and waits, without the caller
			expect(res.status).toBe(200);
			const waiting = await newestExecution(id, ['waiting']);
			// Limit Wait Time (1 hour) counts from when Ask Manager ran, not from when this test reads it: the node
			// works out waitTill while it runs, so waitTill lies between its start + 1 h and its end + 1 h (n8n's
			// own clock), and it ran after the execution started
			const HOUR = 60 * 60_000;
			const [ask] = waiting.data.resultData.runData['Ask Manager'];
			const waitTill = Date.parse(String(waiting.waitTill));
			expect(Date.parse(String(waiting.startedAt))).toBeLessThanOrEqual(ask.startTime);
			expect(waitTill - ask.startTime).toBeGreaterThanOrEqual(HOUR);
			expect(waitTill - ask.startTime).toBeLessThanOrEqual(HOUR + ask.executionTime);
			// what the node shows while it waits says the same date
			expect(itemsOf([waiting], 'Ask Manager')).toEqual([expect.objectContaining({ waitingFor: 'reply', waitTill: new Date(waitTill).toISOString() })]);

			// the question: reply buttons from the business number, its status callback this execution's resume URL
			const sent = sandbox.chatAppMessages().filter((m) => m.to === manager);
			expect(sent).toEqual([
				expect.objectContaining({
					from: '+918047090000',
					contentType: 'interactive',
					interactiveType: 'button',
					customData: 'ORD-10490',
					statusCallback: expect.stringContaining(`/webhook-waiting/${waiting.id}/`),
				}),
			]);
			expect(sent[0].content.interactive).toMatchObject({
				header: { type: 'text', text: 'Refund approval' },
				body: { text: 'Refund request for order ORD-10490: 1200 INR to Asha Rao. Approve it?' },
				action: {
					buttons: [
						{ type: 'reply', reply: { id: 'approve', title: 'Approve refund' } },
						{ type: 'reply', reply: { id: 'decline', title: 'Decline' } },
					],
				},
			});
			expect(itemsOf([waiting], 'Refund approved')).toEqual([]);

			// the manager taps "Approve refund": the reply goes to the resume URL and resumes this execution
			const reply = await sandbox.reply({ to: manager, button: 'approve' });
			expect(reply).toMatchObject({ url: sent[0].statusCallback, status: 200, outcome: 'delivered' });
			const done = await newestExecution(id, ['success', 'error', 'crashed']);
			expect(done).toMatchObject({ id: waiting.id, status: 'success' });
			expect(itemsOf([done], 'Ask Manager')).toEqual([
				expect.objectContaining({
					messageSid: sent[0].sid,
					status: 'answered',
					channel: 'chatapp',
					to: manager,
					from: '+918047090000',
					timedOut: false,
					waitingFor: 'reply',
					approved: true,
					answer: 'approve',
					answerText: 'Approve refund',
					answeredBy: { number: manager, name: 'Sandbox User' },
				}),
			]);
			const [approved] = itemsOf([done], 'Refund approved');
			expect(approved).toEqual({ orderId: 'ORD-10490', amount: 1200, answeredBy: manager, answeredAt: expect.any(String) });
			expect(done.data.resultData.runData['Refund declined']).toBeUndefined();
			expect(await instance.executions(id, { includeData: false })).toHaveLength(1);
		},
		JEST_TIMEOUTS.execute + 120_000,
	);

	test(
		'confirm-appointment-sms: the patient gets Confirm / Reschedule short links, a link preview answers nothing, the Confirm page\'s button resumes the run down Confirmed',
		async () => {
			const id = examples['confirm-appointment-sms'].id;
			const patient = '+919845012345';
			const res = await instance.request('POST', instance.webhookUrl(pathOf('confirm-appointment-sms')), {
				data: { patientName: 'Ravi', slot: 'Mon 2 Dec, 10:30', phone: patient },
			});
			expect(res.status).toBe(200);
			const waiting = await newestExecution(id, ['waiting']);
			// no Limit Wait Time: n8n's "wait indefinitely" date (WAIT_INDEFINITELY)
			expect(waiting.waitTill).toBe('3000-01-01T00:00:00.000Z');

			// one transactional SMS: the question, then a labelled resume link per answer, shortened by the service
			const sms = sandbox.messages().filter((m) => m.to === patient);
			expect(sms).toEqual([expect.objectContaining({ from: 'EXOTEL', smsType: 'transactional', shortenUrl: 'true' })]);
			const [question, links] = sms[0].body.split('\n\n');
			expect(question).toBe('Hi Ravi, your appointment is on Mon 2 Dec, 10:30. Tap a link to confirm or reschedule.');
			expect(links.split('\n')).toEqual([
				expect.stringMatching(new RegExp(`^Confirm: http://127\\.0\\.0\\.1:\\d+/webhook-waiting/${waiting.id}/[^ ]*answer=approve`)),
				expect.stringMatching(new RegExp(`^Reschedule: http://127\\.0\\.0\\.1:\\d+/webhook-waiting/${waiting.id}/[^ ]*answer=decline`)),
			]);
			expect(sms[0].deliveredBody).toMatch(new RegExp(`^Hi Ravi.*\\n\\nConfirm: ${sandbox.origin}/s/\\S+\\nReschedule: ${sandbox.origin}/s/\\S+$`, 's'));

			// a messaging app's link preview fetches the Confirm link: a page, no answer
			const preview = await sandbox.openLink({ to: patient, match: 'answer=approve', as: 'bot' });
			expect(preview.pages.map((p) => p.method)).toEqual(['GET', 'HEAD']);
			expect(await newestExecution(id, ['waiting'])).toMatchObject({ id: waiting.id });

			// the patient taps Confirm: the short link, the confirmation page, its button (a POST) resumes
			const opened = await sandbox.openLink({ to: patient, match: 'answer=approve', as: 'person' });
			expect(opened.stopped).toBeUndefined();
			expect(opened.pages.map((p) => [p.method, p.status])).toEqual([
				['GET', 302],
				['GET', 200],
				['POST', 200],
			]);
			// (the pages' first 500 characters: their titles)
			expect(opened.pages[1].bodyExcerpt).toContain(`<title>${question}</title>`);
			expect(opened.pages[2].bodyExcerpt).toContain('<title>Answer recorded: Confirm</title>');
			const done = await newestExecution(id, ['success', 'error', 'crashed']);
			expect(done).toMatchObject({ id: waiting.id, status: 'success' });
			expect(itemsOf([done], 'Ask Patient')).toEqual([
				expect.objectContaining({
					messageSid: sms[0].sid,
					status: 'answered',
					channel: 'sms',
					to: patient,
					timedOut: false,
					waitingFor: 'approvalLink',
					approved: true,
					answer: 'approve',
					answerText: 'Confirm',
				}),
			]);
			expect(itemsOf([done], 'Confirmed')).toEqual([{ patientName: 'Ravi', slot: 'Mon 2 Dec, 10:30', confirmedAt: expect.any(String) }]);
			expect(done.data.resultData.runData.Reschedule).toBeUndefined();
		},
		JEST_TIMEOUTS.execute + 120_000,
	);
	test(
		'call-flow-route-by-lookup: a VIP caller goes down the Passthru\'s first branch (200), another caller down the second (302)',
		async () => {
			const vip = await callThrough('call-flow-route-by-lookup', { from: KNOWN_CALLER });
			expect(stepsOf(vip)).toEqual(['route:first', 'priority:spoken']);
			expect(vip.heard).toEqual(['Welcome back. You are on our priority line: an agent will be with you in a moment.']);
			expect(vip.dialled).toEqual([]);
			// asked as the service asks: a GET with the caller's number in the national form
			const [asked] = vip.steps[0].requests;
			expect(asked).toMatchObject({ method: 'GET', status: 200, outcome: 'first' });
			expect(new URL(asked.url).searchParams.get('CallFrom')).toBe('09876543210');

			const other = await callThrough('call-flow-route-by-lookup', { from: OTHER_CALLER });
			expect(stepsOf(other)).toEqual(['route:second', 'queue:spoken']);
			expect(other.steps[0].requests[0]).toMatchObject({ status: 302, outcome: 'second' });
			expect(other.heard).toEqual(['Thank you for calling Acme Stores. Your call is in the queue.']);
			expect(other.dialled).toEqual([]);
		},
		JEST_TIMEOUTS.execute,
	);

	test(
		"call-flow-dial-account-manager: a customer is dialled to their account manager, then the team line when the manager does not answer; another caller to the team line",
		async () => {
			const welcome = 'Thank you for calling Acme Stores. Connecting you now.';
			const known = await callThrough('call-flow-dial-account-manager', { from: KNOWN_CALLER });
			expect(stepsOf(known)).toEqual(['welcome:spoken', 'dial:dialled']);
			expect(known.heard).toEqual([welcome]);
			expect(known.dialled).toEqual([{ number: '+919812340001', callerId: EXOPHONE, result: 'completed' }]);
			// the Connect JSON: the manager, then the team line, shown the ExoPhone, recorded, 30 s of ringing
			const [asked] = known.steps[1].requests;
			expect([asked.status, asked.contentType?.split(';')[0], JSON.parse(asked.body)]).toEqual([
				200,
				'application/json',
				{ destination: { numbers: ['+919812340001', '+919812340000'] }, outgoing_phone_number: EXOPHONE, record: true, max_ringing_duration: 30 },
			]);
			expect(asked.headers).toEqual({ 'Exotel-Version': '1.0' });

			const managerAway = await callThrough('call-flow-dial-account-manager', { from: KNOWN_CALLER, callees: { '+919812340001': 'no-answer' } });
			expect(stepsOf(managerAway)).toEqual(['welcome:spoken', 'dial:dialled']);
			expect(managerAway.dialled).toEqual([
				{ number: '+919812340001', callerId: EXOPHONE, result: 'no-answer' },
				{ number: '+919812340000', callerId: EXOPHONE, result: 'completed' },
			]);

			const other = await callThrough('call-flow-dial-account-manager', { from: OTHER_CALLER });
			expect(other.heard).toEqual([welcome]);
			expect(other.dialled).toEqual([{ number: '+919812340000', callerId: EXOPHONE, result: 'completed' }]);

			// nobody answers: the flow's no-answer path says sorry
			const nobody = await callThrough('call-flow-dial-account-manager', { from: OTHER_CALLER, callees: { '+919812340000': 'busy' } });
			expect(stepsOf(nobody)).toEqual(['welcome:spoken', 'dial:dialled', 'sorry:spoken']);
			expect(nobody.heard).toEqual([welcome, 'Sorry, no one could take your call. We will call you back within the hour.']);
		},
		JEST_TIMEOUTS.execute,
	);

	test(
		'call-flow-order-status-ivr: the caller is greeted by their latest order, keys an order number, and hears its status through a Switch Case keyword; an unknown order and caller too',
		async () => {
			const prompt = 'Please enter your order number, then press hash';
			const known = await callThrough('call-flow-order-status-ivr', { from: KNOWN_CALLER, press: ['4711#'] });
			expect(stepsOf(known)).toEqual(['hello:spoken', 'menu:gathered', 'status:case:shipped', 'shipped:spoken']);
			expect(known.heard).toEqual([
				'Hello Priya. Your latest order, 4711, was shipped today.',
				prompt,
				'Your order has been shipped. You will get its tracking link by SMS.',
			]);
			expect(known.dialled).toEqual([]);
			// the Greeting: HEAD first (answered by the trigger, no execution), then the GET; the Gather's JSON; the keyword
			expect(known.steps[0].requests.map((request) => [request.method, request.status, request.contentType?.split(';')[0]])).toEqual([
				['HEAD', 200, 'text/plain'],
				['GET', 200, 'text/plain'],
			]);
			expect(JSON.parse(known.steps[1].requests[0].body)).toEqual({ gather_prompt: { text: prompt }, max_input_digits: 8, finish_on_key: '#' });
			expect(known.steps[2].requests[0]).toMatchObject({ status: 200, body: '{"select":"shipped"}' });
			// the digits reach the Passthru in quotes, as the service sends them; the workflow read them without
			expect(new URL(known.steps[2].requests[0].url).searchParams.get('digits')).toBe('"4711"');

			const pending = await callThrough('call-flow-order-status-ivr', { from: '+919845012345', press: ['4712#'] });
			expect(pending.heard).toEqual(['Hello Ravi. Your latest order, 4712, is being packed.', prompt, 'Your order is being packed and will ship within two days.']);

			const unknown = await callThrough('call-flow-order-status-ivr', { from: OTHER_CALLER, press: ['1234#'] });
			expect(stepsOf(unknown)).toEqual(['hello:spoken', 'menu:gathered', 'status:case:unknown', 'unknown:spoken']);
			expect(unknown.heard).toEqual(['Welcome to Acme Stores.', prompt, 'We could not find that order number. Please check it and call again.']);
		},
		JEST_TIMEOUTS.execute,
	);
});
