/**
 * Every waiting operation on a real n8n, ended each way it can end: by its callback (the sandbox as
 * the person or the service), by the status check (a call that ended before n8n saved the wait), and
 * by Limit Wait Time (n8n's wait tracker). The items of one wait have the same keys, each value of one
 * type wherever it is not null, and `resumedBy` names the ending (test/helpers/wait-endings.ts).
 *
 * All waits start together, so one tick of n8n's wait tracker (once a minute) times them all out.
 * Delivery waits that must time out send through a second sandbox at timeScale 150, whose first report
 * comes 150 s after the send, after the tick.
 */
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { expectSameItem } from '../helpers/wait-endings';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, nodeJson, sharedN8n, type WorkflowNode } from '../harness';

const BUSINESS = '+918047112233';
const FLOW_URL = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`;
const LIMIT = { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 3, resumeUnit: 'seconds' } } };
const CREDENTIAL = { id: 'cred-wait-endings', name: 'Sandbox (wait endings)' };
const SLOW_CREDENTIAL = { id: 'cred-wait-endings-slow', name: 'Slow sandbox (wait endings)' };

let sandbox: ExotelSandbox;
let slow: ExotelSandbox;
let instance: N8nInstance;

type Collection = 'options' | 'additionalFields';
/** A waiting operation: its node, its parameters (the recipient from the webhook's body) and where Limit Wait Time goes. */
const WAITS: Record<string, { type: string; parameters: Record<string, unknown>; collection: Collection; extra?: Record<string, unknown> }> = {
	chatReply: {
		type: 'exotelMessaging',
		parameters: { resource: 'chatApp', operation: 'sendAndWait', from: BUSINESS, to: '={{ $json.body.to }}', message: 'Approve the refund?', responseType: 'approval' },
		collection: 'options',
	},
	rcsReply: { type: 'exotelMessaging', parameters: { resource: 'rcs', operation: 'sendAndWait', botId: 'acme_orders_bot', to: '={{ $json.body.to }}', templateName: 'order_update' }, collection: 'options' },
	smsApproval: { type: 'exotelMessaging', parameters: { resource: 'sms', operation: 'sendAndWait', from: 'ACMEIN', to: '={{ $json.body.to }}', message: 'Approve PO-77?' }, collection: 'options' },
	smsDelivery: {
		type: 'exotelMessaging',
		parameters: { resource: 'sms', operation: 'sendAndWaitForDelivery', from: 'ACMEIN', to: '={{ $json.body.to }}', body: 'Your OTP is 4821' },
		collection: 'additionalFields',
		extra: { customField: 'otp-4821' },
	},
	chatDelivery: {
		type: 'exotelMessaging',
		parameters: { resource: 'chatApp', operation: 'sendAndWaitForDelivery', from: BUSINESS, to: '={{ $json.body.to }}', messageType: 'text', text: 'Shipped' },
		collection: 'options',
		extra: { customData: 'order-7790' },
	},
	callEnd: {
		type: 'exotelVoice',
		parameters: { resource: 'call', operation: 'connectAndWait', from: '={{ $json.body.to }}', callerId: BUSINESS, url: FLOW_URL },
		collection: 'additionalFields',
		extra: { customField: 'ticket-31' },
	},
};
/** The waits whose timed-out run must meet no report before n8n's tick: they send through the slow sandbox. */
const SLOW_TIMEOUT = ['smsDelivery', 'chatDelivery'];

const flows: Record<string, { id: string; path: string }> = {};

function flowNodes(wait: string, limited: boolean): WorkflowNode[] {
	const { type, parameters, collection, extra = {} } = WAITS[wait];
	const credential = limited && SLOW_TIMEOUT.includes(wait) ? SLOW_CREDENTIAL : CREDENTIAL;
	return [
		{
			name: 'Exotel',
			type: `n8n-nodes-exotel.${type}`,
			typeVersion: 1,
			parameters: { ...parameters, [collection]: { ...extra, ...(limited ? LIMIT : {}) } },
			credentials: { exotelApi: credential },
		},
	];
}

beforeAll(async () => {
	sandbox = new ExotelSandbox({ timeScale: 2 });
	slow = new ExotelSandbox({ timeScale: 150 });
	await Promise.all([sandbox.start(), slow.start()]);
	instance = await sharedN8n();
	await instance.importCredentials(
		[
			[CREDENTIAL, sandbox],
			[SLOW_CREDENTIAL, slow],
		].map(([credential, box]) => ({ ...(credential as typeof CREDENTIAL), type: 'exotelApi', data: sandboxCredentialData((box as ExotelSandbox).origin).exotelApi })),
	);
	const workflows = Object.keys(WAITS).flatMap((wait) =>
		[false, true].map((limited) => {
			const key = `${wait}${limited ? 'Limited' : ''}`;
			const path = `wait-endings-${key}`;
			const workflow = makeWorkflow(flowNodes(wait, limited), {
				name: `Wait endings: ${key}`,
				trigger: { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } },
			});
			flows[key] = { id: workflow.id, path };
			return workflow;
		}),
	);
	await instance.importWorkflows(workflows);
	for (const flow of Object.values(flows)) await instance.publish(flow.id);
	await instance.setupOwnerAndApiKey();
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 12 * JEST_TIMEOUTS.execute);

afterAll(async () => {
	await instance?.dispose();
	await Promise.all([sandbox?.stop(), slow?.stop()]);
}, JEST_TIMEOUTS.dispose);

const itemOf = async (id: string) => nodeJson(await instance.waitForExecutionStatus(id, 'success', 150_000), 'Exotel')[0];

test(
	'each wait gives the same item whether its callback, the status check or Limit Wait Time ended it',
	async () => {
		// Limit Wait Time first: every limited wait is due at n8n's next tick
		const timedOut = Object.fromEntries(
			await Promise.all(Object.keys(WAITS).map(async (wait, index) => {
				// a call from a number ending 0055 completes without callbacks; the others are never answered
				const to = wait === 'callEnd' ? '+919876500055' : `+9198765021${String(index).padStart(2, '0')}`;
				return [wait, await instance.startWaitingExecution(flows[`${wait}Limited`], { to })] as const;
			})),
		);
		const waiting = Object.fromEntries(
			await Promise.all(Object.keys(WAITS).map(async (wait, index) => {
				const to = `+9198765022${String(index).padStart(2, '0')}`;
				// the delivery waits are ended by the sandbox's own reports, the others below
				const run = SLOW_TIMEOUT.includes(wait) ? await instance.startExecution(flows[wait], { to }) : await instance.startWaitingExecution(flows[wait], { to });
				return [wait, { run, to }] as const;
			})),
		);
		expect((await sandbox.reply({ to: waiting.chatReply.to, button: 'approve' })).status).toBe(200);
		expect((await sandbox.reply({ to: waiting.rcsReply.to, suggestion: { reply: { text: 'Yes', postback_data: 'yes' } } })).status).toBe(200);
		await sandbox.openLink({ to: waiting.smsApproval.to, match: 'answer=approve' });
		const callSid = String(nodeJson(await instance.execution(waiting.callEnd.run), 'Exotel')[0].callSid);
		expect((await sandbox.endCall({ callSid }))?.status).toBe(200);
		// a call from a number ending 0044 ends while it is placed: its terminal meets n8n's 409, the node asks the service
		const statusCheck = await itemOf(await instance.startExecution(flows.callEnd, { to: '+919876500044' }));

		const endings: Record<string, Record<string, Record<string, unknown>>> = {};
		for (const wait of Object.keys(WAITS)) {
			endings[wait] = { callback: await itemOf(waiting[wait].run), timeout: await itemOf(timedOut[wait]) };
		}
		endings.callEnd.statusCheck = statusCheck;
		for (const items of Object.values(endings)) expectSameItem(items);
		// what each ending carries (nodes/shared/sendAndWait/waitingItem.ts), not only its keys' types
		const carried = Object.fromEntries(
			Object.entries(endings).map(([wait, items]) => [
				wait,
				Object.fromEntries(Object.entries(items).map(([ending, item]) => [ending, [item.status, item.timedOut, item.resumedBy, item.waitingFor]])),
			]),
		);
		const timeout = (waitingFor: string) => ['timedOut', true, 'timeout', waitingFor];
		expect(carried).toEqual({
			chatReply: { callback: ['answered', false, 'callback', 'reply'], timeout: timeout('reply') },
			rcsReply: { callback: ['answered', false, 'callback', 'reply'], timeout: timeout('reply') },
			smsApproval: { callback: ['answered', false, 'callback', 'approvalLink'], timeout: timeout('approvalLink') },
			smsDelivery: { callback: ['delivered', false, 'callback', 'delivery'], timeout: timeout('delivery') },
			chatDelivery: { callback: ['delivered', false, 'callback', 'delivery'], timeout: timeout('delivery') },
			// the 0044 call fails at once; the status check reads that from the service
			callEnd: { callback: ['completed', false, 'callback', 'callEnd'], statusCheck: ['failed', false, 'statusCheck', 'callEnd'], timeout: timeout('callEnd') },
		});
		// the answers given: approve (chat app), the postback "yes" (RCS), approve (the SMS link); none on a timeout
		expect(['chatReply', 'rcsReply', 'smsApproval'].map((wait) => [wait, endings[wait].callback.answer, endings[wait].timeout.answer])).toEqual([
			['chatReply', 'approve', null],
			['rcsReply', 'yes', null],
			['smsApproval', 'approve', null],
		]);
		expect([endings.chatReply.callback.approved, endings.chatReply.timeout.approved]).toEqual([true, null]);
		const call = endings.callEnd;
		expect([call.callback.eventType, call.statusCheck.eventType, call.timeout.eventType]).toEqual(['terminal', 'terminal', null]);
		expect([call.callback.customField, call.statusCheck.customField, call.timeout.customField]).toEqual(['ticket-31', 'ticket-31', 'ticket-31']);
		expect([endings.smsDelivery.callback.customData, endings.smsDelivery.timeout.customData]).toEqual(['otp-4821', 'otp-4821']);
		expect([endings.chatDelivery.callback.customData, endings.chatDelivery.timeout.customData]).toEqual(['order-7790', 'order-7790']);
	},
	360_000,
);
