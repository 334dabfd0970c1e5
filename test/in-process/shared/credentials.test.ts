/**
 * Every credential scheme through the shared transport and n8n-core's real credential handling
 * (generic authenticate, preAuthentication with an expirable session id, re-login on 401).
 * A test-only node calls the transport the way the package's nodes do.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { exotelRequest, type ExotelBase } from '../../../nodes/shared/transport/request';
import { NodeRun } from '../../../nodes/shared/transport/run';
import { basicAuthHeader, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, CredentialStore, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';

class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Calls the shared transport',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: ['exotelApi', 'exotelBearerTokenApi', 'exotelContactCenterApi', 'exotelAllocationApi'].map((name) => ({
			name,
			required: false,
		})),
		properties: [
			{ displayName: 'Base', name: 'base', type: 'string', default: 'base' },
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const body = this.getNodeParameter('body', i, '') as string;
			const endpoint = {
				base: this.getNodeParameter('base', i) as ExotelBase,
				method: this.getNodeParameter('method', i) as 'GET',
				path: this.getNodeParameter('path', i) as string,
				rate: 'generalGet' as const,
			};
			const response = await exotelRequest(this, NodeRun.alone(), {
				endpoint,
				body: body ? (JSON.parse(body) as IDataObject) : undefined,
				itemIndex: i,
			});
			out.push({ json: { statusCode: response.statusCode, body: response.body as IDataObject }, pairedItem: { item: i } });
		}
		return [out];
	}
}

const sandbox = useSandbox();

function probe(parameters: IDataObject, items: IDataObject[] = [{}], store?: CredentialStore, overrides = {}) {
	return runWorkflow({
		nodes: [
			itemsNode('Items', items),
			{ id: 'probe', name: 'Probe', type: 'transportProbe', typeVersion: 1, position: [200, 0], parameters: parameters as INodeParameters },
		],
		connections: chain('Items', 'Probe'),
		nodeTypes: [new TransportProbe()],
		credentials: store ? undefined : sandboxCredentials(sandbox, overrides),
		credentialStore: store,
	});
}

/** A session id the sandbox issues at login for the sandbox's contact-center user (sandbox/handlers/contactCenter.ts). */
const SESSION_ID = new RegExp(`^[0-9a-f]{4}-[0-9a-f]{8}-ses-${SANDBOX_ACCOUNT.ccUserId.replace(/\./g, '\\.')}-[0-9a-f]{12}$`);

const createUser = (userId: string) => ({
	base: 'cc',
	method: 'POST',
	path: '/servicerestapi/cc/contactCenterUsers',
	body: JSON.stringify({ userId, userType: 'Agent', userName: 'Asha Rao', contactCenterId: 1 }),
});

describe('Exotel API credential (basic)', () => {
	it('sends Authorization: Basic base64(apiKey:apiToken) and fills {accountSid}', async () => {
		const result = await probe({ base: 'base', path: '/v1/Accounts/{accountSid}/Calls.json' });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request.path).toBe(`/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Calls.json`);
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(result.output('Probe')[0].json.statusCode).toBe(200);
	});
});

describe('Exotel Bearer Token API credential', () => {
	it('sends Authorization: Bearer to the configuration server', async () => {
		const result = await probe({ base: 'cms', path: '/configuration/hierarchyconfig/campaign?contactCenterId=1' });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request.base).toBe('cms');
		expect(request.headers.authorization).toBe(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`);
		expect(Array.isArray(result.output('Probe')[0].json.body)).toBe(true);
	});

	it('a wrong token gives a clear 401 error carrying the service code, without the token', async () => {
		const result = await probe(
			{ base: 'cms', path: '/configuration/hierarchyconfig/campaign?contactCenterId=1' },
			[{}],
			undefined,
			{ exotelBearerTokenApi: { token: 'bad-bearer-SECRET' } },
		);
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toMatch(/\(code CONF-\d+\)$/);
		expect(JSON.stringify(result.error)).not.toContain('bad-bearer-SECRET');
	});
});

describe('Exotel Allocation API credential', () => {
	it('sends Authorization: Basic base64(user:password)', async () => {
		const result = await probe({ base: 'alloc', path: '/v1/tenants/{accountSid}/greenvn/unknown-id' });
		const [request] = sandbox.requests();
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword));
		// authenticated, and the service's own "not found" comes through with its code
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toBe('No allocation (GreenVN) with this id (code 1)');
		expect(result.error?.description).toMatch(/GreenVN not found/); // the service's own words are kept
	});

	it('a wrong password gives a clear 401 error', async () => {
		const result = await probe(
			{ base: 'alloc', path: '/v1/tenants/{accountSid}/greenvn/unknown-id' },
			[{}],
			undefined,
			{ exotelAllocationApi: { password: 'bad-alloc-SECRET' } },
		);
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe('Authentication failed: check the allocation user name and password (code 7)');
		expect(result.error?.description).toMatch(/Authentication failed or not provided/);
		expect(JSON.stringify(result.error)).not.toContain('bad-alloc-SECRET');
	});
});

describe('Exotel Contact Center API credential (session login)', () => {
	it('logs in once, sends the session id header, and reuses the session across items and executions', async () => {
		const parameters = { ...createUser(''), body: '={{ JSON.stringify({ userId: $json.userId, userType: "Agent", userName: "Asha Rao", contactCenterId: 1 }) }}' };
		const first = await probe(parameters, [{ userId: 'agent.one' }, { userId: 'agent.two' }]);
		expect(first.error).toBeUndefined();
		expect(sandbox.loginCount).toBe(1); // one session for every item of the execution

		const store = first.credentialStore;
		const session = store.get('exotelContactCenterApi')?.sessionId as string;
		expect(session).toMatch(SESSION_ID);
		expect(sandbox.liveSessionCount()).toBe(1); // the one the login issued, which the store holds
		const creates = sandbox.requests({ pathIncludes: 'contactCenterUsers' });
		expect(creates.map((r) => [r.headers.sessionid, r.status])).toEqual([
			[session, 200],
			[session, 200],
		]);
		sandbox.clearRequests();

		const second = await probe(parameters, [{ userId: 'agent.three' }], store);
		expect(second.error).toBeUndefined();
		expect(sandbox.loginCount).toBe(1); // no new login: the stored session was reused
		expect(sandbox.requests().map((r) => r.headers.sessionid)).toEqual([session]);
		expect(JSON.stringify([first.output('Probe'), second.output('Probe')])).not.toContain(session);
	});

	it('after the session expires, a 401 logs in again once and the request succeeds', async () => {
		const first = await probe(createUser('agent.four'));
		expect(first.error).toBeUndefined();
		const store = first.credentialStore;
		const oldSession = store.get('exotelContactCenterApi')?.sessionId;
		expect(oldSession).toMatch(SESSION_ID);
		sandbox.reset(); // clears sessions too: the stored one is now unknown to the service
		sandbox.expireSessions();

		const result = await probe(createUser('agent.five'), [{}], store);
		expect(result.error).toBeUndefined();
		expect(sandbox.loginCount).toBe(1);
		// The request answered 401 goes once more for n8n to see it thrown, which is what makes it log
		// in again (every other answer keeps its headers that way); a 401 was not acted on.
		expect(sandbox.requests().map((r) => [r.path, r.status])).toEqual([
			['/servicerestapi/cc/contactCenterUsers', 401],
			['/servicerestapi/cc/contactCenterUsers', 401],
			['/servicerestapi/session/userLogin', 200],
			['/servicerestapi/cc/contactCenterUsers', 200],
		]);
		// the store holds the session the new login issued: the one the request that succeeded carried,
		// the only live one; the requests answered 401 carried the old one
		const newSession = store.get('exotelContactCenterApi')?.sessionId;
		expect(newSession).toMatch(SESSION_ID);
		expect(newSession).not.toBe(oldSession);
		expect(sandbox.liveSessionCount()).toBe(1);
		expect(sandbox.requests({ pathIncludes: 'contactCenterUsers' }).map((r) => [r.headers.sessionid, r.status])).toEqual([
			[oldSession, 401],
			[oldSession, 401],
			[newSession, 200],
		]);
	});

	it('a wrong token gives a clear 401 error without the token', async () => {
		const result = await probe(createUser('agent.six'), [{}], undefined, {
			exotelContactCenterApi: { token: 'bad-cc-SECRET' },
		});
		expect(result.error?.httpCode).toBe('401');
		expect(JSON.stringify(result.error)).not.toContain('bad-cc-SECRET');
		// One failed login is final: exactly one login on the wire, and the operation's request never sent.
		expect(sandbox.requests({ pathIncludes: 'userLogin' })).toHaveLength(1);
		expect(sandbox.requests().map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/servicerestapi/session/userLogin', 401]]);
		expect(result.error?.message).toBe('Contact-center login failed: Invalid user id or token');
		expect(result.error?.description).toMatch(/^HTTP 401 from POST \/servicerestapi\/session\/userLogin \(the login\)/);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(/contactCenterUsers/);
	});

	it('an expired session with a token gone wrong: one re-login, and the error is the login’s', async () => {
		const first = await probe(createUser('agent.seven'));
		expect(first.error).toBeUndefined();
		const store = first.credentialStore;
		store.patch('exotelContactCenterApi', { token: 'wrong-cc-SECRET' });
		sandbox.expireSessions();
		sandbox.clearRequests();
		const result = await probe(createUser('agent.eight'), [{}], store);
		expect(sandbox.requests().map((r) => [r.path, r.status])).toEqual([
			['/servicerestapi/cc/contactCenterUsers', 401],
			['/servicerestapi/cc/contactCenterUsers', 401],
			['/servicerestapi/session/userLogin', 401],
		]);
		expect(result.error?.message).toBe('Contact-center login failed: Invalid user id or token');
		expect(JSON.stringify(result.error)).not.toContain('wrong-cc-SECRET');
	});
});
