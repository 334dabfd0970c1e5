/**
 * Exotel Voice on a real n8n 2.8.4 with the packed package: a call connected to a flow reports its
 * status to an active Exotel Voice Trigger, and a CSV contact upload waits for completion.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, nodeJson, sharedN8n, type WorkflowNode } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const WEBHOOK_ID = 'c0ffee00-0000-4000-8000-0000000voice';

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let triggerWorkflowId: string;
let triggerUrl: string;

const credentials = {
	exotelApi: { id: 'cred-exotelApi', name: 'Sandbox exotelApi' },
	exotelBearerTokenApi: { id: 'cred-exotelBearerTokenApi', name: 'Sandbox exotelBearerTokenApi' },
};

beforeAll(async () => {
	sandbox = new ExotelSandbox({ timeScale: 0.005 });
	await sandbox.start();
	instance = await sharedN8n();
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await instance.importCredentials(
		Object.entries(credentials).map(([type, ref]) => ({ ...ref, type, data: data[type] })),
	);
	const trigger: WorkflowNode = {
		name: 'Exotel Voice Trigger',
		type: `${PACKAGE}.exotelVoiceTrigger`,
		typeVersion: 1,
		webhookId: WEBHOOK_ID,
		parameters: { events: ['callStatus', 'callStatusManagement', 'campaignCallSchedule', 'campaignCallStatus', 'campaignStatus'], statuses: '' },
	};
	const noOp: WorkflowNode = { name: 'Received', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	[triggerWorkflowId] = await instance.importWorkflows([makeWorkflow([noOp], { name: 'Voice trigger e2e', trigger })]);
	await instance.publish(triggerWorkflowId);
	await instance.setupOwnerAndApiKey();
	triggerUrl = instance.webhookUrl(`${WEBHOOK_ID}/webhook`);
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

test(
	'Connect to Flow with the trigger as status callback: the answered and terminal events start the active Voice Trigger',
	async () => {
		const connect: WorkflowNode = {
			name: 'Connect',
			type: `${PACKAGE}.exotelVoice`,
			typeVersion: 1,
			parameters: {
				resource: 'call',
				operation: 'connect',
				from: '+919876543210',
				callerId: '+918047112233',
				url: `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`,
				statusCallback: triggerUrl,
				additionalFields: { statusCallbackEvents: ['answered', 'terminal'], customField: 'order-9', timeLimit: 600 },
			},
			credentials: { exotelApi: credentials.exotelApi },
		};
		const [id] = await instance.importWorkflows([makeWorkflow([connect], { name: 'Connect a call' })]);
		const result = await instance.executeOk(id);
		const [call] = nodeJson(result, 'Connect');
		// the call keys, the Call the service answered under raw
		expect(call).toMatchObject({ callSid: expect.any(String), status: 'in-progress', from: '+919876543210', to: null, direction: 'outbound-api' });
		expect(call.raw).toMatchObject({ Sid: call.callSid, Status: 'in-progress', To: null, From: '+919876543210' });
		expect(Object.keys(call)).toEqual(['callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl', 'raw']);
		const [request] = sandbox.requests({ pathIncludes: '/Calls/connect' });
		expect(request.form).toEqual(
			expect.arrayContaining([
				['From', '+919876543210'],
				['CallerId', '+918047112233'],
				['StatusCallback', triggerUrl],
				['StatusCallbackEvents[]', 'answered'],
				['StatusCallbackEvents[]', 'terminal'],
				['CustomField', 'order-9'],
				['TimeLimit', '600'],
			]),
		);

		const executions = await instance.waitForExecutions(triggerWorkflowId, 2, 60_000);
		const items = executions.flatMap(
			(execution) =>
				(execution.data?.resultData?.runData?.['Exotel Voice Trigger']?.[0]?.data?.main?.[0] ?? []).map(
					(item: INodeExecutionData) => item.json as { legs: unknown[]; raw: IDataObject; [key: string]: unknown },
				),
		);
		expect(items.map((item) => [item.event, item.callSid, item.eventType]).sort()).toEqual([
			['callStatus', call.callSid, 'answered'],
			['callStatus', call.callSid, 'terminal'],
		]);
		const terminal = items.find((item) => item.eventType === 'terminal');
		expect(terminal).toMatchObject({ customField: 'order-9', legs: expect.any(Array) });
		expect(terminal?.legs.length).toBeGreaterThan(0);
		// each event in the call keys, the callback as received under raw
		for (const item of items) {
			expect(Object.keys(item)).toEqual([
				'event', 'callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl',
				'eventType', 'conversationDuration', 'customField', 'answeredBy', 'legs', 'raw',
			]);
			expect(item.raw).toMatchObject({ CallSid: call.callSid, EventType: item.eventType, Status: item.status, CustomField: 'order-9' });
		}
		expect(terminal).toMatchObject({ from: '+919876543210', conversationDuration: Number(terminal?.raw.ConversationDuration) });
	},
	JEST_TIMEOUTS.execute + 90_000,
);

test(
	'Contact Upload: input items become one CSV, uploaded as multipart, and the node waits until processing completes',
	async () => {
		const people: WorkflowNode = {
			name: 'People',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'people', options: {} },
		};
		const seed: WorkflowNode = {
			name: 'Seed',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'raw',
				jsonOutput: JSON.stringify({
					people: [
						{ phone_number: '+919876500001', first_name: 'Asha', last_name: 'Rao', email: 'asha@example.com' },
						{ phone_number: '+919876500002', first_name: 'Ravi', last_name: 'Kumar, Jr.', email: 'ravi@example.com' },
						{ phone_number: '+919876500003', first_name: 'Meera', last_name: 'Iyer', email: 'meera@example.com' },
					],
				}),
				options: {},
			},
		};
		const upload: WorkflowNode = {
			name: 'Upload',
			type: `${PACKAGE}.exotelVoice`,
			typeVersion: 1,
			parameters: {
				resource: 'contact',
				operation: 'upload',
				source: 'items',
				listId: 'list-3',
				duplicateAction: 'skip',
				options: { waitForCompletion: true, pollInterval: 0.2, waitTimeout: 60 },
			},
			credentials: { exotelApi: credentials.exotelApi },
		};
		const [id] = await instance.importWorkflows([makeWorkflow([seed, people, upload], { name: 'Upload contacts' })]);
		const result = await instance.executeOk(id);

		const [post] = sandbox.requests({ method: 'POST', pathIncludes: '/contacts/upload' });
		expect(post).toMatchObject({ base: 'ccm', path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/contacts/upload`, status: 202 });
		expect(post.contentType).toBe('multipart/form-data');
		expect(post.rawBody).toContain('name="list_id"\r\n\r\nlist-3');
		expect(post.rawBody).toContain('phone_number,first_name,last_name,email\r\n');
		expect(post.rawBody).toContain('+919876500002,Ravi,"Kumar, Jr.",ravi@example.com');
		const polls = sandbox.requests({ method: 'GET', pathIncludes: '/contacts/upload/' });
		expect(polls.length).toBeGreaterThan(0);
		const [status] = nodeJson(result, 'Upload');
		expect(status).toMatchObject({ status: 'completed', total_records: 3 });
	},
	JEST_TIMEOUTS.execute + 60_000,
);

