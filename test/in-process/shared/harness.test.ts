/* eslint-disable @n8n/community-nodes/no-restricted-imports -- runs a local HTTP server (http, net); never shipped */
/**
 * Proves the in-process harness runs workflows through n8n-core's real engine. Self-contained:
 * uses throwaway node and credential types, not the package's.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IAuthenticateGeneric, ICredentialDataDecryptedObject, ICredentialType, IDataObject, IExecuteFunctions, IHttpRequestHelper, INode, INodeExecutionData, INodeType, INodeTypeDescription, JsonObject } from 'n8n-workflow';

import { chain, CredentialStore, edges, itemsNode, packageCredentialTypes, packageNodeTypes, runWorkflow } from '../../helpers/n8n-core-harness';

// ---- a local HTTP server ---------------------------------------------------------------------

interface Recorded {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

let server: http.Server;
let origin: string;
const requests: Recorded[] = [];
const validSessions = new Set<string>();
let logins = 0;

function send(res: http.ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

beforeAll(async () => {
	server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			const url = new URL(req.url ?? '/', 'http://x');
			if (url.pathname === '/echo') {
				return send(res, 200, { authorization: req.headers.authorization ?? null, q: url.searchParams.get('q') });
			}
			if (url.pathname === '/login' && req.method === 'POST') {
				const { user, password } = JSON.parse(body || '{}') as IDataObject;
				if (user !== 'u1' || password !== 'p1') return send(res, 403, { message: 'bad login' });
				const sessionId = `s${++logins}`;
				validSessions.add(sessionId);
				return send(res, 200, { sessionId });
			}
			if (url.pathname === '/data') {
				const session = req.headers['x-session'];
				if (typeof session !== 'string' || !validSessions.has(session)) {
					return send(res, 401, { message: 'session expired' });
				}
				return send(res, 200, { ok: true, session, id: url.searchParams.get('id') });
			}
			if (url.pathname === '/missing') return send(res, 404, { message: 'no such thing' });
			return send(res, 500, { message: 'unexpected path' });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	requests.length = 0;
});

// ---- throwaway credential types ----------------------------------------------------------------

class TokenApi implements ICredentialType {
	name = 'harnessTokenApi';

	displayName = 'Harness Token API';

	properties = [
		{ displayName: 'Token', name: 'token', type: 'string' as const, typeOptions: { password: true }, default: '' },
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string' as const, default: '' },
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.token}}' } },
	};
}

class SessionApi implements ICredentialType {
	name = 'harnessSessionApi';

	displayName = 'Harness Session API';

	properties = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string' as const, default: '' },
		{ displayName: 'User', name: 'user', type: 'string' as const, default: '' },
		{ displayName: 'Password', name: 'password', type: 'string' as const, typeOptions: { password: true }, default: '' },
		{
			displayName: 'Session ID',
			name: 'sessionId',
			type: 'hidden' as const,
			typeOptions: { expirable: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const { sessionId } = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${String(credentials.baseUrl)}/login`,
			body: { user: credentials.user, password: credentials.password },
			json: true,
		})) as { sessionId: string };
		return { sessionId };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-Session': '={{$credentials.sessionId}}' } },
	};
}

// ---- throwaway node types ------------------------------------------------------------------------

function description(name: string, extra: Partial<INodeTypeDescription> = {}): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: name,
		defaults: { name },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
		...extra,
	};
}

/** GET {baseUrl}{path}?q=<item.q> with the credential's authentication, one request per item. */
class HttpTestNode implements INodeType {
	description = description('test.http', {
		credentials: [
			{ name: 'harnessTokenApi', required: true, displayOptions: { show: { auth: ['token'] } } },
			{ name: 'harnessSessionApi', required: true, displayOptions: { show: { auth: ['session'] } } },
		],
		properties: [
			{
				displayName: 'Auth',
				name: 'auth',
				type: 'options',
				options: [
					{ name: 'Token', value: 'token' },
					{ name: 'Session', value: 'session' },
				],
				default: 'token',
			},
			{ displayName: 'Path', name: 'path', type: 'string', default: '/echo' },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const auth = this.getNodeParameter('auth', i) as string;
			const type = auth === 'token' ? 'harnessTokenApi' : 'harnessSessionApi';
			const credentials = await this.getCredentials(type, i);
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, type, {
				method: 'GET',
				url: `${String(credentials.baseUrl)}${this.getNodeParameter('path', i) as string}`,
				qs: { q: items[i].json.q, id: items[i].json.id },
				json: true,
			})) as IDataObject;
			out.push({ json: response, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** Fails items whose json.fail is set; handles continueOnFail per item like n8n's nodes do. */
class FailerNode implements INodeType {
	description = description('test.failer', {
		properties: [
			{ displayName: 'Throw Unhandled', name: 'unhandled', type: 'boolean', default: false },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			if (!items[i].json.fail) {
				out.push({ json: { n: items[i].json.n, done: true }, pairedItem: { item: i } });
				continue;
			}
			if (this.getNodeParameter('unhandled', i)) {
				throw new NodeOperationError(this.getNode(), `unhandled failure of ${String(items[i].json.n)}`);
			}
			const error = new NodeApiError(
				this.getNode(),
				{ message: 'Unprocessable', code: 'REJECTED' } as JsonObject,
				{ itemIndex: i, httpCode: '422', message: `item ${String(items[i].json.n)} rejected` },
			);
			if (!this.continueOnFail()) throw error;
			out.push({ json: { error: error.message }, pairedItem: { item: i } });
		}
		return [out];
	}
}

class PassNode implements INodeType {
	description = description('test.pass');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** Puts item.json.text into binary property `data`. */
class ToBinaryNode implements INodeType {
	description = description('test.toBinary');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const binary = await this.helpers.prepareBinaryData(
				Buffer.from(String(items[i].json.text), 'utf8'),
				`file-${i}.txt`,
				'text/plain',
			);
			out.push({ json: { i }, binary: { data: binary }, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** Reads binary property `data` back into json. */
class FromBinaryNode implements INodeType {
	description = description('test.fromBinary');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			this.helpers.assertBinaryData(i, 'data');
			const buffer = await this.helpers.getBinaryDataBuffer(i, 'data');
			out.push({ json: { text: buffer.toString('utf8') }, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** Throws on its first `failures` executions (counted across runs of this test file). */
let flakyCalls = 0;
class FlakyNode implements INodeType {
	description = description('test.flaky', {
		properties: [{ displayName: 'Failures', name: 'failures', type: 'number', default: 2 }],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		flakyCalls++;
		if (flakyCalls <= (this.getNodeParameter('failures', 0) as number)) {
			throw new NodeOperationError(this.getNode(), `flaky failure ${flakyCalls}`);
		}
		return [this.getInputData().map((item) => ({ json: { ...item.json, calls: flakyCalls } }))];
	}
}

const nodeTypes = [
	new FlakyNode(),
	new HttpTestNode(),
	new FailerNode(),
	new PassNode(),
	new ToBinaryNode(),
	new FromBinaryNode(),
];
const credentialTypes = [new TokenApi(), new SessionApi()];

function node(name: string, type: string, parameters: INode['parameters'] = {}, extra: Partial<INode> = {}): INode {
	return { id: name, name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

// ---- tests -------------------------------------------------------------------------------------

describe('n8n-core harness', () => {
	test('httpRequestWithAuthentication applies generic auth resolved from $credentials', async () => {
		const result = await runWorkflow({
			nodes: [itemsNode('Items', [{ q: 'a' }, { q: 'b' }, { q: 'c' }]), node('Call', 'test.http')],
			connections: chain('Items', 'Call'),
			credentials: [{ type: 'harnessTokenApi', data: { token: 'tok-123', baseUrl: origin } }],
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.executionOrder).toEqual(['Items', 'Call']);
		expect(result.output('Call').map((item) => item.json)).toEqual([
			{ authorization: 'Bearer tok-123', q: 'a' },
			{ authorization: 'Bearer tok-123', q: 'b' },
			{ authorization: 'Bearer tok-123', q: 'c' },
		]);
		expect(result.output('Call').map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(requests.map((r) => r.headers.authorization)).toEqual([
			'Bearer tok-123',
			'Bearer tok-123',
			'Bearer tok-123',
		]);
	});

	test('preAuthentication: logs in once, reuses the persisted session, re-logs in once on 401', async () => {
		const store = new CredentialStore([
			{ type: 'harnessSessionApi', data: { baseUrl: origin, user: 'u1', password: 'p1' } },
		]);
		const workflow = (ids: number[]) => ({
			nodes: [
				itemsNode(
					'Items',
					ids.map((id) => ({ id })),
				),
				node('Call', 'test.http', { auth: 'session', path: '/data' }),
			],
			connections: chain('Items', 'Call'),
			credentialStore: store,
			nodeTypes,
			credentialTypes,
		});
		const loginsBefore = logins;

		// 1st execution: the session is empty, so n8n logs in before the first request.
		const first = await runWorkflow(workflow([1, 2]));
		expect(first.error).toBeUndefined();
		expect(logins - loginsBefore).toBe(1);
		expect(store.preAuthenticationCalls('harnessSessionApi')).toBe(1);
		const session1 = store.get('harnessSessionApi').sessionId;
		expect(session1).toBe(`s${loginsBefore + 1}`);
		expect(first.output('Call').map((i) => i.json.session)).toEqual([session1, session1]);
		// The stored data keeps the user's fields next to the refreshed session.
		expect(store.get('harnessSessionApi')).toMatchObject({ user: 'u1', password: 'p1', baseUrl: origin });

		// 2nd execution: reuses the stored session.
		const second = await runWorkflow(workflow([3]));
		expect(second.error).toBeUndefined();
		expect(logins - loginsBefore).toBe(1);
		expect(store.preAuthenticationCalls()).toBe(1);
		expect(second.output('Call')[0].json).toEqual({ ok: true, session: session1, id: '3' });

		// The server forgets all sessions: the first request gets 401, n8n logs in again once,
		// retries, persists the new session, and the later items use it without logging in.
		validSessions.clear();
		requests.length = 0;
		const third = await runWorkflow(workflow([4, 5, 6]));
		expect(third.error).toBeUndefined();
		expect(logins - loginsBefore).toBe(2);
		expect(store.preAuthenticationCalls('harnessSessionApi')).toBe(2);
		const session2 = store.get('harnessSessionApi').sessionId;
		expect(session2).toBe(`s${loginsBefore + 2}`);
		expect(third.output('Call').map((i) => i.json)).toEqual([
			{ ok: true, session: session2, id: '4' },
			{ ok: true, session: session2, id: '5' },
			{ ok: true, session: session2, id: '6' },
		]);
		expect(requests.map((r) => `${r.method} ${r.url.split('?')[0]} ${String(r.headers['x-session'] ?? '-')}`)).toEqual([
			`GET /data ${String(session1)}`,
			'POST /login -',
			`GET /data ${String(session2)}`,
			`GET /data ${String(session2)}`,
			`GET /data ${String(session2)}`,
		]);
	});

	test('a request error becomes a NodeApiError that fails the run', async () => {
		const result = await runWorkflow({
			nodes: [itemsNode('Items', [{ q: 'x' }]), node('Call', 'test.http', { path: '/missing' })],
			connections: chain('Items', 'Call'),
			credentials: [{ type: 'harnessTokenApi', data: { token: 't', baseUrl: origin } }],
			nodeTypes,
			credentialTypes,
		});
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error).toMatchObject({ httpCode: '404' });
		expect(result.nodeError('Call')?.name).toBe('NodeApiError');
	});

	const mixed = [
		{ n: 1 },
		{ n: 2, fail: true },
		{ n: 3 },
		{ n: 4, fail: true },
	];

	test('onError continueErrorOutput routes failed items to output 1 with pairedItem intact', async () => {
		const result = await runWorkflow({
			nodes: [
				itemsNode('Items', mixed),
				node('Failer', 'test.failer', {}, { onError: 'continueErrorOutput' }),
				node('Ok', 'test.pass'),
				node('Failed', 'test.pass'),
			],
			connections: edges(['Items', 'Failer'], ['Failer', 'Ok', 0], ['Failer', 'Failed', 1]),
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Failer', 0).map((i) => i.json)).toEqual([
			{ n: 1, done: true },
			{ n: 3, done: true },
		]);
		expect(result.output('Failer', 0).map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		// n8n merges the paired input item's json into the error item.
		expect(result.output('Failer', 1).map((i) => i.json)).toEqual([
			{ n: 2, fail: true, error: 'item 2 rejected' },
			{ n: 4, fail: true, error: 'item 4 rejected' },
		]);
		expect(result.output('Failer', 1).map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		expect(result.output('Ok').map((i) => i.json.n)).toEqual([1, 3]);
		expect(result.output('Failed').map((i) => i.json.n)).toEqual([2, 4]);
	});

	test('continueOnFail and continueRegularOutput keep error items on the main output', async () => {
		for (const settings of [{ continueOnFail: true }, { onError: 'continueRegularOutput' as const }]) {
			const result = await runWorkflow({
				nodes: [itemsNode('Items', mixed), node('Failer', 'test.failer', {}, settings), node('Next', 'test.pass')],
				connections: chain('Items', 'Failer', 'Next'),
				nodeTypes,
				credentialTypes,
			});
			expect(result.error).toBeUndefined();
			expect(result.output('Failer').map((i) => i.json)).toEqual([
				{ n: 1, done: true },
				{ error: 'item 2 rejected' },
				{ n: 3, done: true },
				{ error: 'item 4 rejected' },
			]);
			expect(result.output('Failer', 1)).toEqual([]);
			expect(result.output('Next')).toHaveLength(4);
		}
	});

	test('an error the node throws despite continueErrorOutput passes the input on output 0', async () => {
		const result = await runWorkflow({
			nodes: [
				itemsNode('Items', mixed),
				node('Failer', 'test.failer', { unhandled: true }, { onError: 'continueErrorOutput' }),
				node('Ok', 'test.pass'),
				node('Failed', 'test.pass'),
			],
			connections: edges(['Items', 'Failer'], ['Failer', 'Ok', 0], ['Failer', 'Failed', 1]),
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(result.nodeError('Failer')?.message).toBe('unhandled failure of 2');
		// WorkflowExecute's catch path: `nodeSuccessData = [executionData.data.main[0]]`.
		expect(result.output('Failer', 0).map((i) => i.json)).toEqual(mixed);
		expect(result.output('Failer', 1)).toEqual([]);
		expect(result.runData.Failed).toBeUndefined();
	});

	test('without error settings a thrown NodeApiError fails the run', async () => {
		const result = await runWorkflow({
			nodes: [itemsNode('Items', mixed), node('Failer', 'test.failer'), node('Next', 'test.pass')],
			connections: chain('Items', 'Failer', 'Next'),
			nodeTypes,
			credentialTypes,
		});
		expect(result.status).toBe('error');
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: 'item 2 rejected', httpCode: '422' });
		expect(result.runData.Next).toBeUndefined();
		expect(() => result.output('Next')).toThrow(/has no run 0.*item 2 rejected/);
	});

	test('retryOnFail re-runs a failing node (waitBetweenTries 0 means 1000 ms in n8n: use 1)', async () => {
		flakyCalls = 0;
		const result = await runWorkflow({
			nodes: [
				itemsNode('Items', [{ a: 1 }]),
				node('Flaky', 'test.flaky', { failures: 2 }, { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 }),
			],
			connections: chain('Items', 'Flaky'),
			nodeTypes,
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Flaky').map((i) => i.json)).toEqual([{ a: 1, calls: 3 }]);
	});

	test('binary data from prepareBinaryData round-trips through the filesystem store', async () => {
		const result = await runWorkflow({
			nodes: [
				itemsNode('Items', [{ text: 'hello' }, { text: 'wörld ✓' }]),
				node('ToBinary', 'test.toBinary'),
				node('FromBinary', 'test.fromBinary'),
			],
			connections: chain('Items', 'ToBinary', 'FromBinary'),
			nodeTypes,
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		const [first] = result.output('ToBinary');
		expect(first.binary?.data).toMatchObject({
			fileName: 'file-0.txt',
			mimeType: 'text/plain',
			fileExtension: 'txt',
			bytes: 5,
		});
		expect(first.binary?.data.id).toMatch(/^filesystem-v2:/);
		expect((await result.binaryBuffer(first)).toString('utf8')).toBe('hello');
		expect(result.output('FromBinary').map((i) => i.json.text)).toEqual(['hello', 'wörld ✓']);
	});

	test('a missing required parameter is reported as a workflow issue', async () => {
		const strict: INodeType = {
			description: description('test.strict', {
				properties: [{ displayName: 'To', name: 'to', type: 'string', default: '', required: true }],
			}),
			async execute() {
				return [[]];
			},
		};
		const result = await runWorkflow({
			nodes: [itemsNode('Items', [{}]), node('Strict', 'test.strict')],
			connections: chain('Items', 'Strict'),
			nodeTypes: [strict],
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/issues/i);
	});

	test('unknown node types name what is known', async () => {
		expect(() => packageNodeTypes().getByNameAndVersion('test.nope', 1)).toThrow(/Unknown node type "test.nope"/);
		expect(packageCredentialTypes([new TokenApi()]).getByName('harnessTokenApi').name).toBe('harnessTokenApi');
	});
});
