/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads files and runs a local HTTP server (fs, path, http, net); never shipped */
/**
 * The package as users get it: packed, installed into a real n8n's nodes folder (the stage's
 * shared n8n), its credentials created and tested through n8n's own credential tester, and
 * workflows run as the editor runs them, against the sandbox.
 */
import fs from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import path from 'path';

import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import {
	JEST_TIMEOUTS,
	makeWorkflow,
	N8nInstance,
	nodeJson,
	setNode,
	sharedN8n,
	type CredentialSpec,
	type WorkflowNode,
} from '../harness';

const PACKAGE = 'n8n-nodes-exotel';

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let filesDir: string;

const credentialData = () => sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;

function credentialSpecs(): CredentialSpec[] {
	return Object.entries(credentialData()).map(([type, data]) => ({ id: `cred-${type}`, name: `Sandbox ${type}`, type, data }));
}

const credentialRef = (type: string) => ({ [type]: { id: `cred-${type}`, name: `Sandbox ${type}` } });

beforeAll(async () => {
	sandbox = new ExotelSandbox();
	await sandbox.start();
	instance = await sharedN8n();
	filesDir = instance.filesDir!;
	await instance.importCredentials(credentialSpecs());
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

beforeEach(() => sandbox.reset());

test(
	'SMS Send: items from the workflow go out as one dynamic bulk request and come back paired',
	async () => {
		const phones = ['+919876543210', '+919876543211', '+919876543212'];
		const split: WorkflowNode = {
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'phones', options: {} },
		};
		const exotel: WorkflowNode = {
			name: 'Exotel Messaging',
			type: `${PACKAGE}.exotelMessaging`,
			typeVersion: 1,
			parameters: {
				resource: 'sms',
				operation: 'send',
				from: 'EXOTEL',
				to: '={{ $json.phones }}',
				body: '=Hello {{ $json.phones }}, your order has shipped.',
				statusCallback: 'https://example.com/webhook/exotel-messaging',
			},
			credentials: credentialRef('exotelApi'),
		};
		const workflow = makeWorkflow(
			[{ ...setNode('Recipients', {}), parameters: setArray('phones', phones) }, split, exotel],
			{ name: 'SMS Send e2e' },
		);
		const [id] = await instance.importWorkflows([workflow]);
		const result = await instance.executeOk(id);

		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`,
			contentType: 'application/x-www-form-urlencoded',
			auth: { scheme: 'basic', user: SANDBOX_ACCOUNT.apiKey, ok: true },
		});
		expect(requests[0].form).toEqual([
			['From', 'EXOTEL'],
			...phones.flatMap((phone, i) => [
				[`Messages[${i}][To]`, phone],
				[`Messages[${i}][Body]`, `Hello ${phone}, your order has shipped.`],
			]),
			['StatusCallback', 'https://example.com/webhook/exotel-messaging'],
		]);

		const out = nodeJson(result, 'Exotel Messaging');
		expect(out.map((item) => [item.to, item.status])).toEqual(phones.map((phone) => [phone, 'queued']));
		// each item in the message keys, the SMSMessage the sandbox answered under raw
		const stored = sandbox.messages();
		expect(out).toEqual(
			phones.map((phone) => {
				const message = stored.find((m) => m.to === phone)!;
				return {
					messageSid: message.sid,
					status: 'queued',
					channel: 'sms',
					to: phone,
					from: 'EXOTEL',
					code: message.detailedStatusCode,
					raw: expect.objectContaining({
						Sid: message.sid,
						To: phone,
						From: expect.stringMatching(/^EXOTEL\//),
						Status: message.status,
						DetailedStatusCode: message.detailedStatusCode,
						DetailedStatus: message.detailedStatus,
						Body: message.body,
					}),
				};
			}),
		);
		for (const item of out) expect(Object.keys(item)).toEqual(['messageSid', 'status', 'channel', 'to', 'from', 'code', 'raw']);
		expect(JSON.stringify(result)).not.toContain(SANDBOX_ACCOUNT.apiToken);
	},
	JEST_TIMEOUTS.execute,
);

test(
	'SMS Send with a wrong API token fails with a clear 401 error and no secret in the output',
	async () => {
		const wrong: CredentialSpec = {
			id: 'cred-wrong',
			name: 'Wrong token',
			type: 'exotelApi',
			data: { ...credentialData().exotelApi, apiToken: 'wrong-dummy-SECRET-token-e2e' },
		};
		await instance.importCredentials([wrong]);
		const workflow = makeWorkflow([
			{
				name: 'Exotel Messaging',
				type: `${PACKAGE}.exotelMessaging`,
				typeVersion: 1,
				parameters: { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '+919876543210', body: 'Hi' },
				credentials: { exotelApi: { id: 'cred-wrong', name: 'Wrong token' } },
			},
		]);
		const [id] = await instance.importWorkflows([workflow]);
		const run = await instance.execute(id);
		expect(run.ok).toBe(false);
		expect(run.error).toMatch(/Authentication failed: check the credential's API key and token/);
		expect(run.stdout + run.stderr).not.toContain('wrong-dummy-SECRET-token-e2e');
		expect(sandbox.requests()).toHaveLength(1);
		expect(sandbox.requests()[0].status).toBe(401);
	},
	JEST_TIMEOUTS.execute,
);

test(
	'RCS Send Template with SMS fallback, and Chat App reply buttons, run on real n8n and reach the sandbox as JSON',
	async () => {
		const rcs: WorkflowNode = {
			name: 'RCS',
			type: `${PACKAGE}.exotelMessaging`,
			typeVersion: 1,
			parameters: {
				resource: 'rcs',
				operation: 'sendTemplate',
				botId: 'acme_orders_bot',
				to: '+919876543210',
				templateName: 'order_update',
				templateVariables: { TemplateParam1: 'Asha' },
				smsFallback: true,
				fallbackFrom: 'ACMEIN',
				fallbackText: 'Hi Asha, your order shipped',
				fallbackSmsType: 'transactional',
			},
			credentials: credentialRef('exotelApi'),
		};
		const chatApp: WorkflowNode = {
			name: 'Chat App',
			type: `${PACKAGE}.exotelMessaging`,
			typeVersion: 1,
			parameters: {
				resource: 'chatApp',
				operation: 'send',
				from: '+918047112233',
				to: '+919876543210',
				messageType: 'button',
				bodyText: 'Is now a good time to deliver?',
				buttons: { button: [{ id: 'yes', title: 'Yes' }, { id: 'later', title: 'Later' }] },
			},
			credentials: credentialRef('exotelApi'),
		};
		const [id] = await instance.importWorkflows([makeWorkflow([rcs, chatApp], { name: 'RCS and chat app e2e' })]);
		const result = await instance.executeOk(id);

		const [rcsRequest, chatRequest] = sandbox.requests();
		expect(rcsRequest).toMatchObject({ method: 'POST', path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/messages`, contentType: 'application/json', status: 202 });
		expect(rcsRequest.json).toEqual({
			rcs: {
				messages: [
					{
						from: 'acme_orders_bot',
						to: '+919876543210',
						content: { type: 'template', template: { name: 'order_update', variables: { TemplateParam1: 'Asha' } } },
						fallback: { from: 'ACMEIN', content: { text: 'Hi Asha, your order shipped', sms_type: 'transactional' } },
					},
				],
			},
		});
		expect(chatRequest).toMatchObject({ method: 'POST', contentType: 'application/json', status: 202 });
		expect((chatRequest.json as { content: unknown }).content).toEqual({
			recipient_type: 'individual',
			type: 'interactive',
			interactive: {
				type: 'button',
				body: { text: 'Is now a good time to deliver?' },
				action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }, { type: 'reply', reply: { id: 'later', title: 'Later' } }] },
			},
		});
		// each send in the message keys (the service's success is accepted), the envelope entry under raw
		const [rcsSent] = sandbox.rcsMessages();
		const [chatSent] = sandbox.chatAppMessages();
		expect(nodeJson(result, 'RCS')).toEqual([
			{
				messageSid: rcsSent.sid,
				status: 'accepted',
				channel: 'rcs',
				to: '+919876543210',
				from: 'acme_orders_bot',
				code: 200,
				requestId: expect.any(String),
				raw: { code: 200, error_data: null, status: 'success', data: { sid: rcsSent.sid } },
			},
		]);
		expect(nodeJson(result, 'Chat App')).toEqual([
			{
				messageSid: chatSent.sid,
				status: 'accepted',
				channel: 'chatapp',
				to: '+919876543210',
				from: '+918047112233',
				code: 200,
				requestId: expect.any(String),
				raw: { code: 200, error_data: null, status: 'success', data: { sid: chatSent.sid } },
			},
		]);
		for (const item of [...nodeJson(result, 'RCS'), ...nodeJson(result, 'Chat App')]) {
			expect(Object.keys(item)).toEqual(['messageSid', 'status', 'channel', 'to', 'from', 'code', 'requestId', 'raw']);
		}
	},
	JEST_TIMEOUTS.execute,
);

test(
	'Contact Center: a voice log downloads into a binary property and is written to a file on disk',
	async () => {
		const target = path.join(filesDir, 'call-4471.mp3');
		const download: WorkflowNode = {
			name: 'Download Voice Log',
			type: `${PACKAGE}.exotelContactCenter`,
			typeVersion: 1,
			parameters: { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' },
			credentials: credentialRef('exotelContactCenterApi'),
		};
		const write: WorkflowNode = {
			name: 'Write File',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			parameters: { operation: 'write', fileName: target, dataPropertyName: 'data', options: {} },
		};
		const [id] = await instance.importWorkflows([makeWorkflow([download, write], { name: 'Voice log to file' })]);
		const result = await instance.executeOk(id);

		expect(sandbox.requests().map((r) => [r.base, r.method, r.path, r.status])).toEqual([
			['cc', 'POST', '/servicerestapi/session/userLogin', 200],
			['cc', 'GET', '/servicerestapi/cc/downloadVoiceLog', 200],
		]);
		const bytes = fs.readFileSync(target);
		expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
		const [json] = nodeJson(result, 'Download Voice Log');
		expect(json).toMatchObject({ callId: 'call-4471', fileName: 'call-4471.mp3', mimeType: 'audio/mpeg', bytes: bytes.length });
		expect(JSON.stringify(result)).not.toContain(SANDBOX_ACCOUNT.ccToken);
	},
	JEST_TIMEOUTS.execute,
);

test(
	'Number Allocation: allocate a masked number, then deallocate it, in one workflow',
	async () => {
		const allocate: WorkflowNode = {
			name: 'Allocate',
			type: `${PACKAGE}.exotelNumberAllocation`,
			typeVersion: 1,
			parameters: { resource: 'allocation', operation: 'allocate', connectionId: 'order-e2e-1', apartyNumbers: '+919876543210', bpartyNumbers: '+919812345678', usage: 'twoway' },
			credentials: credentialRef('exotelAllocationApi'),
		};
		const deallocate: WorkflowNode = {
			name: 'Deallocate',
			type: `${PACKAGE}.exotelNumberAllocation`,
			typeVersion: 1,
			parameters: { resource: 'allocation', operation: 'deallocate', greenvnId: '={{ $json.greenvn_id }}' },
			credentials: credentialRef('exotelAllocationApi'),
		};
		const [id] = await instance.importWorkflows([makeWorkflow([allocate, deallocate], { name: 'Allocate and deallocate' })]);
		const result = await instance.executeOk(id);
		const [allocated] = nodeJson(result, 'Allocate');
		expect(allocated).toMatchObject({ connection_id: 'order-e2e-1', state: 'active', greenvn_id: expect.any(String) });
		expect(sandbox.requests().map((r) => [r.method, r.path])).toEqual([
			['POST', `/v1/tenants/${SANDBOX_ACCOUNT.accountSid}/greenvn`],
			['DELETE', `/v1/tenants/${SANDBOX_ACCOUNT.accountSid}/greenvn/${allocated.greenvn_id}`],
		]);
		expect(sandbox.allocations().find((a) => a.greenvn_id === allocated.greenvn_id)?.state).toBe('vault');
	},
	JEST_TIMEOUTS.execute,
);

describe('credential tests through n8n’s own tester', () => {
	async function testCredential(type: string, data: Record<string, unknown>) {
		const res = await instance.rest<{ data: { status: string; message: string } }>('POST', '/credentials/test', {
			credentials: { id: instance.credentialId(`cred-${type}`), name: `Sandbox ${type}`, type, data },
		});
		expect(res.status).toBe(200);
		return res.data.data;
	}

	const wrongSecrets: Record<string, Record<string, unknown>> = {
		exotelApi: { apiToken: 'wrong-token' },
		exotelBearerTokenApi: { token: 'wrong-token' },
		exotelContactCenterApi: { token: 'wrong-token' },
		exotelAllocationApi: { password: 'wrong-password' },
	};

	test.each(Object.keys(wrongSecrets))(
		'%s: valid secrets pass, a wrong secret fails',
		async (type) => {
			const valid = credentialData()[type];
			expect(await testCredential(type, valid)).toEqual({ status: 'OK', message: 'Connection successful!' });
			const failed = await testCredential(type, { ...valid, ...wrongSecrets[type] });
			expect(failed.status).toBe('Error');
			expect(failed.message).not.toContain('wrong-');
			// the sandbox saw the attempt with the wrong secret and refused it
			expect(sandbox.requests().some((r) => r.status === 401 && !r.auth.ok)).toBe(true);
		},
		JEST_TIMEOUTS.execute,
	);

	describe('Exotel API: the message says which part to check', () => {
		/** A loopback port nothing listens on: a server opened and closed again. */
		async function closedPort(): Promise<number> {
			const server = http.createServer();
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			const { port } = server.address() as AddressInfo;
			await new Promise<void>((resolve) => server.close(() => resolve()));
			return port;
		}

		test(
			'a wrong token and a wrong Account SID: the 401 names the three parts and Region; nothing secret in it',
			async () => {
				const valid = credentialData().exotelApi;
				for (const wrong of [{ apiToken: 'wrong-token' }, { accountSid: 'wrongaccount1' }]) {
					const failed = await testCredential('exotelApi', { ...valid, ...wrong });
					expect(failed).toEqual({ status: 'Error', message: expect.stringContaining('refused the API Key, API Token or Account SID (401)') });
					expect(failed.message).toContain('check Region');
					expect(failed.message).not.toContain(String(valid.apiToken));
				}
			},
			JEST_TIMEOUTS.execute,
		);

		test(
			'an address where nothing listens, and one that answers a page instead of the API',
			async () => {
				const valid = credentialData().exotelApi;
				const nobody = await testCredential('exotelApi', { ...valid, baseUrl: `http://127.0.0.1:${await closedPort()}` });
				// n8n's own words for it (2.8.4: "The service refused the connection - perhaps it is offline")
				expect(nobody).toEqual({ status: 'Error', message: expect.stringMatching(/refused the connection|ECONNREFUSED/) });

				// a refusal as a page, the way the live service words its 401 ("Authentication is required to view this page.")
				const page = http.createServer((req, res) => res.writeHead(401, { 'content-type': 'text/html' }).end('<html><body>Authentication is required to view this page.</body></html>'));
				await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
				try {
					const answered = await testCredential('exotelApi', { ...valid, baseUrl: `http://127.0.0.1:${(page.address() as AddressInfo).port}` });
					expect(answered).toEqual({ status: 'Error', message: expect.stringContaining('did not answer as the Exotel API') });
				} finally {
					await new Promise<void>((resolve) => page.close(() => resolve()));
				}
			},
			JEST_TIMEOUTS.execute,
		);
	});
});

/** A Set node parameter block that sets one array field (Split Out then makes one item per entry). */
function setArray(name: string, values: string[]) {
	return {
		mode: 'manual',
		includeOtherFields: false,
		assignments: { assignments: [{ id: 'a1', name, value: JSON.stringify(values), type: 'array' }] },
		options: {},
	};
}
