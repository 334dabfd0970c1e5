/**
 * The waiting operations ("send and wait") on a real, running n8n with the packed package, on the
 * release N8N_E2E_TARGET picks: the node sends one message whose callback URL is the execution's
 * resume URL (`/webhook-waiting/<execution>/<node id>?...`), the execution waits (saved as
 * `waiting`), and the sandbox, acting as the person (or the service), answers at that URL.
 *
 * Waiting needs the server (`n8n start`), not `n8n execute`: every workflow is a production Webhook
 * trigger (active, answering at once) → the Exotel node → a NoOp "After" that shows the execution
 * continued. Executions are read back through n8n's public API with their data.
 *
 * The sandbox runs at timeScale 2 (half the service's pace): chat-app and RCS delivery reports come
 * 2, 4 and 6 s after a send, an SMS status callback 2 s after, a connected call ends on its own
 * after 70 s unless `endCall` ends it first; a callback receiver gets the real 5 s to answer. The first
 * report then comes well after n8n has saved the execution as waiting, even on a busy machine (a
 * report that came earlier would get 409 "running already" and be retried 60 s later).
 */
import type { IDataObject } from 'n8n-workflow';

import { signPayload } from '../../sandbox/callbacks';
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox, type CallbackAttempt } from '../../sandbox/server';
import { budget, JEST_TIMEOUTS, makeWorkflow, N8nInstance, nodeJson, sharedN8n, type RunJson, type WorkflowNode } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const BUSINESS = '+918047112233';
const CREDENTIALS = { exotelApi: { id: 'cred-exotelApi', name: 'Sandbox exotelApi' } };
const FLOW_URL = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`;

let sandbox: ExotelSandbox;
let instance: N8nInstance;

/** One workflow per waiting operation: Webhook (path) → Exotel node (`Exotel`) → NoOp (`After`). */
interface Flow {
	id: string;
	path: string;
	nodeId: string;
}

const flows: Record<string, Flow> = {};

/** Past a report's retry (30 s × timeScale 2), with room for a busy machine. */
const RETRIED_REPORT_MS = 150_000;

/** The Exotel node under test; `to`/`from` come from the webhook's body so each execution has its own recipient. */
function exotelNode(type: 'exotelMessaging' | 'exotelVoice', parameters: Record<string, unknown>): WorkflowNode {
	return { name: 'Exotel', type: `${PACKAGE}.${type}`, typeVersion: 1, parameters, credentials: CREDENTIALS };
}

const FLOW_NODES: Record<string, WorkflowNode> = {
	chatApproval: exotelNode('exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWait',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		message: 'Approve the refund of Rs 1,200 for order ORD-7781?',
		responseType: 'approval',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve', disapproveLabel: 'Decline' } },
		options: { headerText: 'Refund request', footerText: 'Acme Support', customData: 'refund-7781' },
	}),
	chatChoiceList: exotelNode('exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWait',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		message: 'When should we deliver order ORD-7782?',
		responseType: 'choice',
		choiceStyle: 'list',
		choices: {
			choice: [
				{ id: 'slot-am', title: 'Morning', description: '9 am to 12 noon' },
				{ id: 'slot-pm', title: 'Afternoon', description: '12 noon to 5 pm' },
				{ id: 'slot-eve', title: 'Evening', description: '5 pm to 9 pm' },
			],
		},
		listButton: 'Pick a slot',
	}),
	chatFreeText: exotelNode('exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWait',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		message: 'Any instructions for the courier?',
		responseType: 'freeText',
	}),
	chatTimeout: exotelNode('exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWait',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		message: 'Approve within 3 seconds?',
		responseType: 'approval',
		approvalOptions: { values: { approvalType: 'single', approveLabel: 'Approve' } },
		options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 3, resumeUnit: 'seconds' } } },
	}),
	rcsReply: exotelNode('exotelMessaging', {
		resource: 'rcs',
		operation: 'sendAndWait',
		botId: 'acme_orders_bot',
		to: '={{ $json.body.to }}',
		templateName: 'order_update',
	}),
	smsApproval: exotelNode('exotelMessaging', {
		resource: 'sms',
		operation: 'sendAndWait',
		from: 'ACMEIN',
		to: '={{ $json.body.to }}',
		message: 'Approve PO-77 for Rs 52,000?',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve', disapproveLabel: 'Decline' } },
	}),
	smsDelivery: exotelNode('exotelMessaging', {
		resource: 'sms',
		operation: 'sendAndWaitForDelivery',
		from: 'ACMEIN',
		to: '={{ $json.body.to }}',
		body: 'Your OTP is 4821',
	}),
	chatDelivery: exotelNode('exotelMessaging', {
		resource: 'chatApp',
		operation: 'sendAndWaitForDelivery',
		from: BUSINESS,
		to: '={{ $json.body.to }}',
		messageType: 'text',
		text: 'Your order ORD-7790 has shipped',
	}),
	callEnd: exotelNode('exotelVoice', {
		resource: 'call',
		operation: 'connectAndWait',
		from: '={{ $json.body.to }}',
		callerId: BUSINESS,
		url: FLOW_URL,
		additionalFields: { customField: 'order-9' },
	}),
	callEndLimited: exotelNode('exotelVoice', {
		resource: 'call',
		operation: 'connectAndWait',
		from: '={{ $json.body.to }}',
		callerId: BUSINESS,
		url: FLOW_URL,
		additionalFields: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 3, resumeUnit: 'seconds' } } },
	}),
};

/** A production Webhook trigger that answers at once (the execution goes on to wait). */
function webhookTrigger(webhookPath: string): WorkflowNode {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
}

// ---------------------------------------------------------------------------------------------
// Reading executions (public API) with bounded polls that say what they waited for

/** Execution `id` is still waiting, and the Exotel node has not run again after its wait. */
async function expectStillWaiting(id: string): Promise<void> {
	const run = await instance.execution(id);
	expect({ status: run.status, finished: run.finished, after: Boolean(run.data?.resultData?.runData?.After) }).toEqual({
		status: 'waiting',
		finished: false,
		after: false,
	});
}

/** The Exotel node's output items, and whether the node after it ran with them. */
function outputOf(run: RunJson): { items: IDataObject[]; after: IDataObject[] } {
	return { items: nodeJson(run, 'Exotel'), after: nodeJson(run, 'After') };
}

/** The resume-URL prefix n8n gives a waiting execution at the flow's node. */
function resumePrefix(executionId: string, flow: Flow): string {
	return `${instance.baseUrl}/webhook-waiting/${executionId}/${flow.nodeId}?`;
}

/** Waits until `count` callbacks of `kind` to `url` were answered 200 (retries of an earlier miss included). */
async function waitForAnswered(url: string, kind: CallbackAttempt['kind'], count: number, timeoutMs = 120_000): Promise<CallbackAttempt[]> {
	// A report that raced n8n saving the waiting execution gets 409 and is retried 60 s later (30 s × timeScale 2).
	await sandbox.waitForCallbacks((log) => log.filter((c) => c.url === url && c.kind === kind && c.status === 200 && c.outcome === 'delivered').length >= count, budget(timeoutMs));
	return sandbox.callbacks({ url, kind });
}

function signedJson(payload: unknown): { data: string; headers: Record<string, string> } {
	const data = JSON.stringify(payload);
	return { data, headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signPayload(data, SANDBOX_ACCOUNT.webhookSigningSecret) } };
}

/** A chat-app reply (icm) tapping `button`, as the service posts it. */
function buttonReply(sid: string, from: string, button: { payload: string; text: string }): unknown {
	return {
		chatapp: {
			messages: [
				{
					callback_type: 'icm',
					sid: `reply-${Date.now()}`,
					from,
					to: BUSINESS,
					timestamp: new Date().toISOString(),
					type: 'button',
					button,
					context: { from: BUSINESS, id: sid },
					contact: { wa_id: from.replace(/^\+/, ''), profile: { name: 'Forger' } },
				},
			],
		},
	};
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
	sandbox = new ExotelSandbox({ timeScale: 2 });
	await sandbox.start();
	instance = await sharedN8n();
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await instance.importCredentials([{ ...CREDENTIALS.exotelApi, type: 'exotelApi', data: data.exotelApi }]);

	const workflows = Object.entries(FLOW_NODES).map(([key, node]) => {
		const webhookPath = `send-and-wait-${key}`;
		const after: WorkflowNode = { name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
		const workflow = makeWorkflow([node, after], { name: `Send and wait: ${key}`, trigger: webhookTrigger(webhookPath) });
		const nodeId = workflow.nodes.find((n) => n.name === 'Exotel')!.id as string;
		flows[key] = { id: workflow.id, path: webhookPath, nodeId };
		return workflow;
	});
	await instance.importWorkflows(workflows);
	for (const flow of Object.values(flows)) await instance.publish(flow.id);
	await instance.setupOwnerAndApiKey();
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 10 * JEST_TIMEOUTS.execute);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

describe('Chat App: Send and Wait for Response', () => {
	test(
		'approval: waits through delivery reports, a stranger’s reply and forged requests; the recipient’s Approve resumes it',
		async () => {
			const flow = flows.chatApproval;
			const to = '+919876500101';
			const executionId = await instance.startWaitingExecution(flow, { to });

			// the wire: one interactive message with approve/decline buttons, its status_callback n8n's resume URL
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === to);
			expect(message).toMatchObject({ from: BUSINESS, to, contentType: 'interactive', interactiveType: 'button', customData: 'refund-7781' });
			expect((message.content.interactive as { action: { buttons: unknown } }).action.buttons).toEqual([
				{ type: 'reply', reply: { id: 'approve', title: 'Approve' } },
				{ type: 'reply', reply: { id: 'decline', title: 'Decline' } },
			]);
			expect(message.content.interactive).toMatchObject({
				body: { text: 'Approve the refund of Rs 1,200 for order ORD-7781?' },
				header: { type: 'text', text: 'Refund request' },
				footer: { text: 'Acme Support' },
			});
			const resumeUrl = message.statusCallback!;
			expect(resumeUrl.startsWith(resumePrefix(executionId, flow))).toBe(true);
			// n8n's signed resume URL: nothing in it is keyed with the credential's secrets
			expect([...new URL(resumeUrl).searchParams.keys()]).toEqual(['signature']);

			// the service's own delivery reports (sent, delivered, seen) are acknowledged and resume nothing
			const reports = await waitForAnswered(resumeUrl, 'chatapp-status', 3);
			expect(reports.filter((r) => r.status === 200).map((r) => JSON.parse(r.body).chatapp.messages[0].exo_status_code).sort()).toEqual([30001, 30002, 30003]);
			await expectStillWaiting(executionId);

			// a reply from someone else than the recipient: acknowledged, ignored
			const stranger = await sandbox.reply({ sid: message.sid, from: '+919800011111', button: 'approve' });
			expect(stranger.status).toBe(200);
			await expectStillWaiting(executionId);

			// forged: the resume URL with its signature changed (the body correctly signed)
			const forgedUrl = new URL(resumeUrl);
			const signature = forgedUrl.searchParams.get('signature')!;
			forgedUrl.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
			const approve = signedJson(buttonReply(message.sid, to, { payload: 'approve', text: 'Approve' }));
			const badUrl = await instance.request('POST', forgedUrl.toString(), approve);
			expect(badUrl.status).toBe(401);
			await expectStillWaiting(executionId);
			// forged: the right URL, the body signed with another secret
			const badBody = await instance.request('POST', resumeUrl, {
				data: approve.data,
				headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signPayload(approve.data, 'not-the-signing-secret') },
			});
			expect([badBody.status, badBody.data]).toEqual([401, { error: expect.stringMatching(/^The X-Service-Signature header does not match/) }]);
			// the control: the right URL and a body signed by the sandbox's own signer (sandbox/callbacks), a stranger's
			// reply so that it resumes nothing: taken (200), so the product's scheme is the sandbox's
			const signedStranger = await instance.request('POST', resumeUrl, signedJson(buttonReply(message.sid, '+919800022222', { payload: 'approve', text: 'Approve' })));
			expect([signedStranger.status, signedStranger.data]).toEqual([200, expect.anything()]);
			await expectStillWaiting(executionId);
			// and the same through the sandbox: a reply carrying a wrong X-Service-Signature
			const unsigned = await sandbox.reply({ sid: message.sid, button: 'approve', signature: 'sha256=' + '0'.repeat(64) });
			expect(unsigned.status).toBe(401);
			// unsigned, shaped as an RCS suggested reply "approve" from the recipient: a chat-app wait takes
			// only chat-app callbacks, and with a secret only signed ones
			const rcsShaped = {
				rcs: {
					messages: [
						{
							callback_type: 'incoming_message',
							sid: `rcs-${Date.now()}`,
							from: to,
							to: 'acme_orders_bot',
							content: { type: 'suggested', suggested: { response: { reply: { text: 'Approve', postback_data: 'approve' } } } },
						},
					],
				},
			};
			const disguised = await instance.request('POST', resumeUrl, { data: JSON.stringify(rcsShaped), headers: { 'Content-Type': 'application/json' } });
			expect([disguised.status, disguised.data]).toEqual([401, { error: expect.stringMatching(/^The X-Service-Signature header is missing/) }]);
			await expectStillWaiting(executionId);

			// the recipient taps Approve
			const tap = await sandbox.reply({ sid: message.sid, button: 'approve', name: 'Asha Rao' });
			expect(tap.status).toBe(200);
			const run = await instance.waitForExecutionStatus(executionId, 'success');
			const { items, after } = outputOf(run);
			expect(items).toEqual([
				expect.objectContaining({
					messageSid: message.sid,
					status: 'answered',
					channel: 'chatapp',
					to,
					code: null,
					timedOut: false,
					waitingFor: 'reply',
					resumedBy: 'callback',
					approved: true,
					answer: 'approve',
					answerText: 'Approve',
					answeredBy: { number: to, name: 'Asha Rao' },
					answeredAt: expect.any(String),
					replySid: expect.any(String),
					question: expect.objectContaining({ responseType: 'approval' }),
					raw: expect.objectContaining({ callback_type: 'icm', type: 'button' }),
				}),
			]);
			expect(after).toEqual(items);

			// a second tap reaches a finished execution: n8n answers it (200, its "no action required" page)
			// and nothing runs again
			const again = await sandbox.reply({ sid: message.sid, button: 'decline' });
			expect(again.status).toBe(200);
			const still = await instance.execution(executionId);
			expect([still.status, nodeJson(still, 'Exotel')]).toEqual(['success', items]);
		},
		240_000,
	);

	test(
		'choice as a list answered by a row; free text answered by text',
		async () => {
			const listTo = '+919876500102';
			const listRun = await instance.startWaitingExecution(flows.chatChoiceList, { to: listTo });
			const [list] = sandbox.chatAppMessages().filter((m) => m.to === listTo);
			expect(list).toMatchObject({ contentType: 'interactive', interactiveType: 'list' });
			expect((list.content.interactive as { action: unknown }).action).toEqual({
				button: 'Pick a slot',
				sections: [
					{
						rows: [
							{ id: 'slot-am', title: 'Morning', description: '9 am to 12 noon' },
							{ id: 'slot-pm', title: 'Afternoon', description: '12 noon to 5 pm' },
							{ id: 'slot-eve', title: 'Evening', description: '5 pm to 9 pm' },
						],
					},
				],
			});
			expect((await sandbox.reply({ sid: list.sid, listRow: 'slot-pm' })).status).toBe(200);
			const listDone = outputOf(await instance.waitForExecutionStatus(listRun, 'success'));
			expect(listDone.items).toEqual([
				expect.objectContaining({ messageSid: list.sid, status: 'answered', timedOut: false, answer: 'slot-pm', answerText: 'Afternoon', answeredBy: { number: listTo, name: 'Sandbox User' } }),
			]);
			expect(listDone.items[0]).not.toHaveProperty('approved');
			expect(listDone.after).toEqual(listDone.items);

			const textTo = '+919876500103';
			const textRun = await instance.startWaitingExecution(flows.chatFreeText, { to: textTo });
			const [question] = sandbox.chatAppMessages().filter((m) => m.to === textTo);
			expect(question).toMatchObject({ contentType: 'text', content: expect.objectContaining({ text: { body: 'Any instructions for the courier?' } }) });
			expect((await sandbox.reply({ sid: question.sid, text: 'Leave it with the guard, please' })).status).toBe(200);
			const textDone = outputOf(await instance.waitForExecutionStatus(textRun, 'success'));
			expect(textDone.items).toEqual([
				expect.objectContaining({
					messageSid: question.sid,
					status: 'answered',
					answer: 'Leave it with the guard, please',
					answerText: 'Leave it with the guard, please',
					answeredBy: { number: textTo, name: 'Sandbox User' },
				}),
			]);
			expect(textDone.after).toEqual(textDone.items);
		},
		180_000,
	);

	test(
		'Limit Wait Time: a reply wait and a call whose callbacks are lost (sandbox rule 0055) resume without them, status timedOut',
		async () => {
			const to = '+919876500104';
			const executionId = await instance.startWaitingExecution(flows.chatTimeout, { to });
			const lostFrom = '+919876500055';
			const callRun = await instance.startWaitingExecution(flows.callEndLimited, { to: lostFrom });
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === to);
			// n8n's wait tracker looks for due executions once a minute (and at start), then resumes them:
			// a 3 s limit is noticed within about 60 s of the wait starting; 120 s bounds it on a busy machine.
			// Both waits are due at the same tick.
			const run = await instance.waitForExecutionStatus(executionId, 'success', 120_000);
			const { items, after } = outputOf(run);
			expect(items).toEqual([
				{
					messageSid: message.sid,
					status: 'timedOut',
					channel: 'chatapp',
					to,
					from: expect.any(String),
					code: null,
					timedOut: true,
					waitingFor: 'reply',
					resumedBy: 'timeout',
					approved: null,
					answer: null,
					answerText: null,
					answeredBy: null,
					answeredAt: null,
					replySid: null,
					question: expect.objectContaining({ responseType: 'approval', choices: [{ id: 'approve', title: 'Approve' }] }),
					raw: null,
				},
			]);
			expect(after).toEqual(items);

			const call = outputOf(await instance.waitForExecutionStatus(callRun, 'success', 120_000));
			expect(call.items).toEqual([expect.objectContaining({ from: lostFrom, status: 'timedOut', timedOut: true, waitingFor: 'callEnd', resumedBy: 'timeout', raw: null })]);
			expect(sandbox.callbacks({ kind: 'call-status', messageSid: call.items[0].callSid as string | undefined })).toEqual([]);
			expect(call.after).toEqual(call.items);
		},
		240_000,
	);

	test(
		'n8n restarts while an execution waits (same user folder and database); the reply then resumes it',
		async () => {
			const to = '+919876500105';
			const executionId = await instance.startWaitingExecution(flows.chatFreeText, { to });
			const [question] = sandbox.chatAppMessages().filter((m) => m.to === to);
			// let the delivery reports land first, so none is refused by the stopped server and retried later
			await waitForAnswered(question.statusCallback!, 'chatapp-status', 3);

			await instance.stop();
			expect(instance.running).toBe(false);
			await instance.start();
			await expectStillWaiting(executionId);

			expect((await sandbox.reply({ sid: question.sid, text: 'Answered after the restart' })).status).toBe(200);
			const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success'));
			expect(items).toEqual([expect.objectContaining({ messageSid: question.sid, answer: 'Answered after the restart', timedOut: false })]);
			expect(after).toEqual(items);
		},
		JEST_TIMEOUTS.server + 120_000,
	);
});

test(
	'RCS Send Template and Wait for Reply: delivery reports keep it waiting; a suggestion reply resumes it with the postback data',
	async () => {
		const to = '+919876500106';
		const executionId = await instance.startWaitingExecution(flows.rcsReply, { to });
		const [message] = sandbox.rcsMessages().filter((m) => m.to === to);
		expect(message).toMatchObject({ from: 'acme_orders_bot', template: expect.objectContaining({ name: 'order_update' }) });
		expect(message.statusCallback!.startsWith(resumePrefix(executionId, flows.rcsReply))).toBe(true);
		await sandbox.waitForCallbacks((log) => log.some((c) => c.url === message.statusCallback && c.kind === 'rcs-dlr' && c.status === 200), budget(120_000));
		await expectStillWaiting(executionId);

		const reply = await sandbox.reply({ sid: message.sid, suggestion: { reply: { text: 'Reschedule', postback_data: 'reschedule_order' } } });
		expect(reply.status).toBe(200);
		const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success'));
		expect(items).toEqual([
			expect.objectContaining({
				messageSid: message.sid,
				status: 'answered',
				channel: 'rcs',
				to,
				timedOut: false,
				waitingFor: 'reply',
				answer: 'reschedule_order',
				answerText: 'Reschedule',
				answeredBy: expect.objectContaining({ number: to }),
			}),
		]);
		expect(after).toEqual(items);
	},
	180_000,
);

test(
	'SMS Send and Wait for Approval: shortened links; a preview bot answers nothing; the person’s confirmation resumes it (approve, then decline)',
	async () => {
		const flow = flows.smsApproval;
		const to = '+919876500107';
		const executionId = await instance.startWaitingExecution(flow, { to });
		const [sms] = sandbox.messages().filter((m) => m.to === to);
		expect(sms.shortenUrl).toBe('true');
		expect(sms.shortLinks).toHaveLength(2);
		const [approveLink, declineLink] = sms.shortLinks!;
		expect(approveLink.longUrl.startsWith(resumePrefix(executionId, flow))).toBe(true);
		expect(new URL(approveLink.longUrl).searchParams.get('answer')).toBe('approve');
		expect(new URL(declineLink.longUrl).searchParams.get('answer')).toBe('decline');
		expect(sms.body).toContain(`Approve: ${approveLink.longUrl}`);
		expect(sms.deliveredBody).toBe(`Approve PO-77 for Rs 52,000?\n\nApprove: ${approveLink.shortUrl}\nDecline: ${declineLink.shortUrl}`);
		// a short link is a redirect to the resume link
		const short = await instance.request('GET', approveLink.shortUrl, { maxRedirects: 0 });
		expect([short.status, short.headers.location]).toEqual([302, approveLink.longUrl]);

		// GET shows a confirmation page with a POST form, and answers nothing
		const page = await instance.request('GET', approveLink.longUrl, { responseType: 'text' });
		expect(page.status).toBe(200);
		expect(String(page.headers['content-type'])).toContain('text/html');
		expect(page.data).toMatch(/<form method="post" action="">.*name="answer" value="approve".*<button type="submit"/s);
		await expectStillWaiting(executionId);

		// a link-preview bot (GET + HEAD) answers nothing
		const bot = await sandbox.openLink({ sid: sms.sid, match: 'answer=approve', as: 'bot' });
		expect(bot.pages.map((p) => [p.method, p.status])).toEqual([
			['GET', 200],
			['HEAD', 200],
		]);
		await expectStillWaiting(executionId);

		// the person taps the short link, the browser follows it to the page, and the person presses the button
		const person = await sandbox.openLink({ sid: sms.sid, match: 'answer=approve', as: 'person' });
		expect(person.stopped).toBeUndefined();
		expect(person.pages.map((p) => [p.method, p.url, p.status, p.contentType?.split(';')[0]])).toEqual([
			['GET', approveLink.shortUrl, 302, 'text/plain'],
			['GET', approveLink.longUrl, 200, 'text/html'],
			['POST', approveLink.longUrl, 200, 'text/html'],
		]);
		expect(person.pages[2].requestBody).toBe('answer=approve&confirm=1');
		expect(person.pages[2].bodyExcerpt).toContain('<title>Answer recorded: Approve</title>');
		const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success'));
		expect(items).toEqual([
			expect.objectContaining({
				messageSid: sms.sid,
				status: 'answered',
				channel: 'sms',
				to,
				timedOut: false,
				waitingFor: 'approvalLink',
				approved: true,
				answer: 'approve',
				answerText: 'Approve',
				answeredBy: { number: to, name: null },
				raw: expect.objectContaining({ method: 'POST', answer: 'approve' }),
			}),
		]);
		expect(after).toEqual(items);

		// a second execution, declined
		const declineTo = '+919876500108';
		const declineRun = await instance.startWaitingExecution(flow, { to: declineTo });
		const [second] = sandbox.messages().filter((m) => m.to === declineTo);
		const declined = await sandbox.openLink({ sid: second.sid, match: 'answer=decline', as: 'person' });
		expect(declined.pages.map((p) => [p.method, p.status])).toEqual([
			['GET', 302],
			['GET', 200],
			['POST', 200],
		]);
		const declinedOut = outputOf(await instance.waitForExecutionStatus(declineRun, 'success'));
		expect(declinedOut.items).toEqual([expect.objectContaining({ messageSid: second.sid, approved: false, answer: 'decline', answerText: 'Decline' })]);
	},
	240_000,
);

describe('Send and Wait for Delivery', () => {
	test(
		'SMS: resumes on the StatusCallback the service sends on the final status',
		async () => {
			const to = '+919876500109';
			const started = Date.now();
			// the report comes 2 s after the send: the wait is seen in its outcome (a delivery item only the resume
			// webhook makes). A report that beats n8n saving the wait gets 409 and comes again 60 s later: wait past it.
			const executionId = await instance.startExecution(flows.smsDelivery, { to });
			const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success', RETRIED_REPORT_MS));
			const [sms] = sandbox.messages().filter((m) => m.to === to);
			expect(sms.statusCallback!.startsWith(resumePrefix(executionId, flows.smsDelivery))).toBe(true);
			const reports = sandbox.callbacks({ url: sms.statusCallback!, kind: 'sms-status' });
			// every attempt before the one answered 200 met an execution not yet waiting
			expect(reports.map((r) => r.status)).toEqual([...reports.slice(1).map(() => 409), 200]);
			expect(reports.every((r) => r.time >= started)).toBe(true);
			expect(items).toEqual([
				expect.objectContaining({ messageSid: sms.sid, status: 'delivered', channel: 'sms', to, timedOut: false, waitingFor: 'delivery', resumedBy: 'callback', code: 20005 }),
			]);
			expect(items[0].raw).toMatchObject({ SmsSid: sms.sid, Status: 'sent', DetailedStatus: 'DELIVERED_TO_HANDSET' });
			expect(after).toEqual(items);
		},
		RETRIED_REPORT_MS + 120_000,
	);

	test(
		'chat app: the `sent` report keeps it waiting, `delivered` resumes it',
		async () => {
			const to = '+919876500110';
			const executionId = await instance.startExecution(flows.chatDelivery, { to });
			const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success', RETRIED_REPORT_MS));
			const [message] = sandbox.chatAppMessages().filter((m) => m.to === to);
			expect(message.statusCallback!.startsWith(resumePrefix(executionId, flows.chatDelivery))).toBe(true);
			expect(items).toEqual([
				expect.objectContaining({ messageSid: message.sid, status: 'delivered', channel: 'chatapp', to, timedOut: false, waitingFor: 'delivery' }),
			]);
			expect(after).toEqual(items);
			// the sent report was acknowledged without resuming (the output says delivered); the delivered one resumed.
			// A report that beat n8n saving the wait got 409 and came again 60 s later, to a finished execution.
			const reports = sandbox.callbacks({ url: message.statusCallback!, kind: 'chatapp-status' });
			const codeOf = (r: CallbackAttempt) => JSON.parse(r.body).chatapp.messages[0].exo_status_code as number;
			const resumedBy = reports.find((r) => r.status === 200 && codeOf(r) === 30002);
			expect(resumedBy).toBeTruthy();
			// the sandbox posts `sent` first and `delivered` only once that first attempt has finished: before the
			// resume there is the sent report's first attempt at least, and nothing but sent reports
			const beforeResume = reports.filter((r) => r.time < resumedBy!.time);
			expect(beforeResume.length).toBeGreaterThanOrEqual(1);
			expect(beforeResume[0]).toMatchObject({ attempt: 1, signed: true });
			expect(beforeResume.map((r) => [codeOf(r), JSON.parse(r.body).chatapp.messages[0].sid, [200, 409].includes(r.status)])).toEqual(
				beforeResume.map(() => [30001, message.sid, true]),
			);
			// The `seen` report that follows reaches a finished execution: n8n answers 409 itself (the node
			// no longer runs), so the service retries it on its schedule. Measured the same on 2.8.4 and 2.41.
			const seen = await sandbox.waitForCallbacks((log) => log.some((c) => c.url === message.statusCallback && c.body.includes('30003')), budget(60_000));
			expect(seen.filter((c) => c.url === message.statusCallback && c.body.includes('30003')).map((c) => [c.status, c.outcome])[0]).toEqual([409, 'retry-scheduled']);
		},
		RETRIED_REPORT_MS + 120_000,
	);
});

test(
	'Voice Connect and Wait for Call End: an `answered` event and a forged token keep it waiting; endCall resumes it with the final status, legs and recording',
	async () => {
		const flow = flows.callEnd;
		const from = '+919876500111';
		const executionId = await instance.startWaitingExecution(flow, { to: from });
		const [connect] = sandbox.requests({ method: 'POST', pathIncludes: '/Calls/connect' }).filter((r) => r.form?.some(([k, v]) => k === 'From' && v === from));
		const form = Object.fromEntries(connect.form!.filter(([k]) => !k.startsWith('StatusCallbackEvents')));
		expect(connect.form!.filter(([k]) => k.startsWith('StatusCallbackEvents'))).toEqual([['StatusCallbackEvents[]', 'terminal']]);
		const resumeUrl = form.StatusCallback;
		expect(resumeUrl.startsWith(resumePrefix(executionId, flow))).toBe(true);
		const waiting = nodeJson(await instance.execution(executionId), 'Exotel');
		const callSid = waiting[0]?.callSid as string;
		expect(callSid).toMatch(/^[0-9a-f]{32}$/);

		// an answered event (as with StatusCallbackEvents answered) is acknowledged and resumes nothing
		const answeredFields = new URLSearchParams([
			['CallSid', callSid],
			['Status', 'in-progress'],
			['EventType', 'answered'],
			['From', from],
			['To', ''],
			['Direction', 'outbound-api'],
			['Legs[0][Status]', 'in-progress'],
		]).toString();
		const answered = await sandbox.postCallback({ url: resumeUrl, payload: answeredFields, contentType: 'application/x-www-form-urlencoded', kind: 'call-status' });
		expect(answered.status).toBe(200);
		await expectStillWaiting(executionId);
		// the right execution and node with another signature (n8n 2.8) or resume token (2.41) is refused
		const forged = new URL(resumeUrl);
		forged.searchParams.set('signature', '0'.repeat(64));
		const refused = await instance.request('POST', forged.toString(), { data: answeredFields.replace('answered', 'terminal'), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
		expect(refused.status).toBe(401);
		await expectStillWaiting(executionId);

		const ended = await sandbox.endCall({ callSid });
		expect(ended?.status).toBe(200);
		const { items, after } = outputOf(await instance.waitForExecutionStatus(executionId, 'success'));
		expect(items).toEqual([
			expect.objectContaining({
				callSid,
				status: 'completed',
				from,
				direction: 'outbound-api',
				eventType: 'terminal',
				customField: 'order-9',
				timedOut: false,
				waitingFor: 'callEnd',
				resumedBy: 'callback',
				recordingUrl: expect.stringMatching(new RegExp(`^${sandbox.origin.replace(/[.]/g, '\\.')}/`)),
				// the legs as the callback gives them (the Voice Trigger outputs them the same way)
				legs: [{ Status: 'completed', OnCallDuration: expect.any(Number), AnsweredBy: 'NA' }],
			}),
		]);
		expect(Object.keys(items[0])).toEqual([
			'callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl',
			'eventType', 'conversationDuration', 'customField', 'answeredBy', 'legs', 'timedOut', 'waitingFor', 'resumedBy', 'raw',
		]);
		expect(items[0].raw).toMatchObject({ CallSid: callSid, EventType: 'terminal', Status: 'completed' });
		expect(after).toEqual(items);
	},
	120_000,
);

test(
	'Connect and Wait for Call End: a terminal that beat the save (sandbox rule 0044) got n8n’s 409; the wait ends at once from the call’s own record',
	async () => {
		const from = '+919876500044';
		const executionId = await instance.startExecution(flows.callEnd, { to: from });
		const run = await instance.waitForExecutionStatus(executionId, 'success');
		const { items, after } = outputOf(run);
		const callSid = items[0]?.callSid as string;
		// the service's only terminal callback reached n8n while the execution was still running
		expect(sandbox.callbacks({ kind: 'call-status', messageSid: callSid }).map((c) => [c.status, c.outcome])).toEqual([[409, 'failed']]);
		expect(sandbox.requests({ method: 'GET', pathIncludes: `/Calls/${callSid}.json` }).map((r) => r.query)).toEqual([{ details: 'true' }]);
		expect(items).toEqual([expect.objectContaining({ callSid, status: 'failed', from, timedOut: false, waitingFor: 'callEnd', resumedBy: 'statusCheck' })]);
		expect(after).toEqual(items);
	},
	120_000,
);

test(
	'rotating the API token and renaming the credential (public API) strands nothing: the genuine callbacks resume; a URL without the execution’s key still gets 401',
	async () => {
		const textTo = '+919876500112';
		const chatRun = await instance.startWaitingExecution(flows.chatFreeText, { to: textTo });
		const [question] = sandbox.chatAppMessages().filter((m) => m.to === textTo);
		const callFrom = '+919876500113';
		const callRun = await instance.startWaitingExecution(flows.callEnd, { to: callFrom });
		const callSid = nodeJson(await instance.execution(callRun), 'Exotel')[0].callSid as string;
		const [connect] = sandbox.requests({ method: 'POST', pathIncludes: '/Calls/connect' }).filter((r) => r.form?.some(([k, v]) => k === 'From' && v === callFrom));
		const callUrl = Object.fromEntries(connect.form!).StatusCallback;

		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		const rotate = async (apiToken: string, name: string) =>
			// n8n adds its HTTP-request domain fields to every credential type; its schema wants one of them
			await instance.publicApi('PATCH', `/credentials/${instance.credentialId(CREDENTIALS.exotelApi.id)}`, {
				name,
				type: 'exotelApi',
				data: { ...data.exotelApi, apiToken, allowedHttpRequestDomains: 'all' },
			});
		await rotate('a-rotated-api-token-0001', 'Exotel (token rotated)');
		try {
			// a request to the call's URL without its key: refused, still waiting
			const keyless = new URL(callUrl);
			keyless.searchParams.delete('signature');
			const terminal = new URLSearchParams([['CallSid', callSid], ['Status', 'completed'], ['EventType', 'terminal']]).toString();
			const refused = await instance.request('POST', keyless.toString(), { data: terminal, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
			expect(refused.status).toBe(401);
			await expectStillWaiting(callRun);

			expect((await sandbox.reply({ sid: question.sid, text: 'Answered after the rotation' })).status).toBe(200);
			expect(outputOf(await instance.waitForExecutionStatus(chatRun, 'success')).items).toEqual([expect.objectContaining({ answer: 'Answered after the rotation', resumedBy: 'callback' })]);
			expect((await sandbox.endCall({ callSid }))?.status).toBe(200);
			expect(outputOf(await instance.waitForExecutionStatus(callRun, 'success')).items).toEqual([expect.objectContaining({ callSid, status: 'completed', resumedBy: 'callback' })]);
		} finally {
			await rotate(String(data.exotelApi.apiToken), CREDENTIALS.exotelApi.name);
		}
	},
	180_000,
);

test('the editor lists the package’s human-review tool (HITL) variant wherever n8n makes them for its own nodes', async () => {
	const types = await instance.fetchJson<Array<{ name: string; properties?: Array<{ name: string; default?: unknown; type?: string }> }>>('/types/nodes.json');
	const names = new Set(types.map((t) => t.name));
	const ownHitl = [...names].filter((name) => name.startsWith('n8n-nodes-base.') && name.endsWith('HitlTool'));
	if (names.has('n8n-nodes-base.slackHitlTool')) {
		expect(names.has(`${PACKAGE}.exotelMessagingHitlTool`)).toBe(true);
		// n8n's generator fixes the first resource offering sendAndWait (Chat App) and an approval
		const hitl = types.find((t) => t.name === `${PACKAGE}.exotelMessagingHitlTool`)!;
		const hidden = (hitl.properties ?? []).filter((p) => p.type === 'hidden').map((p) => [p.name, p.default]);
		expect(hidden).toEqual(expect.arrayContaining([['resource', 'chatApp'], ['operation', 'sendAndWait'], ['responseType', 'approval']]));
		expect(hidden.filter(([name]) => name === 'resource')).toEqual([['resource', 'chatApp']]);
	} else {
		// this release makes no HITL tools for its own nodes either: nothing to expect of ours
		expect(ownHitl).toEqual([]);
		expect([...names].filter((name) => name.startsWith(`${PACKAGE}.`) && name.endsWith('HitlTool'))).toEqual([]);
	}
	// Voice has no sendAndWait operation (its wait is Connect and Wait for Call End): no HITL variant
	expect(names.has(`${PACKAGE}.exotelVoiceHitlTool`)).toBe(false);
});
