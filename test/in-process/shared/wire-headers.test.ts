/**
 * The header audit: one request of each kind every node makes, checked on the wire against the
 * spec's header rules (voice-contact-center-allocation.md § Authentication; messaging.md § Authentication).
 * Content-Type goes with a body and names its encoding; the configuration lookup alone asks for
 * Content-Type and Accept set to application/json on a request without a body; a raw-bytes download
 * does not ask for JSON; each base authenticates with its own scheme.
 */
import type { INodeParameters } from 'n8n-workflow';

import { basicAuthHeader, packageNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';

const sandbox = useSandbox();

type Auth = 'basic' | 'bearer' | 'alloc' | 'session';
interface Row {
	node: string;
	parameters: Record<string, unknown>;
	method: string;
	pathIncludes: string;
	auth: Auth;
	/** Media type of Content-Type, or undefined when the request must carry none. */
	contentType?: string;
	accept: string;
}

const FLOW = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/flowml/start_voice/926`;
const JSON_TYPE = 'application/json';
const device = { resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1' };
const download = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' };

const ROWS: Array<[string, Row]> = [
	['Voice → Call → Connect (v1 form)', { node: 'exotelVoice', parameters: { resource: 'call', operation: 'connect', from: '+919876543210', callerId: '+918047112233', url: FLOW }, method: 'POST', pathIncludes: '/Calls/connect', auth: 'basic', contentType: 'application/x-www-form-urlencoded', accept: JSON_TYPE }],
	['Voice → Call → Get Many (v1 GET)', { node: 'exotelVoice', parameters: { resource: 'call', operation: 'getMany', returnAll: false, limit: 1 }, method: 'GET', pathIncludes: '/Calls.json', auth: 'basic', accept: JSON_TYPE }],
	['Voice → Campaign → Get (v2 GET)', { node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'get', campaignId: 'cmp-inprogress' }, method: 'GET', pathIncludes: '/campaigns/', auth: 'basic', accept: JSON_TYPE }],
	['Voice → List → Rename (v2 JSON PUT)', { node: 'exotelVoice', parameters: { resource: 'list', operation: 'rename', listSid: 'list-1', name: 'Renamed list' }, method: 'PUT', pathIncludes: '/lists/list-1', auth: 'basic', contentType: JSON_TYPE, accept: JSON_TYPE }],
	['Voice → List → Delete (v2 DELETE)', { node: 'exotelVoice', parameters: { resource: 'list', operation: 'delete', listSid: 'list-3' }, method: 'DELETE', pathIncludes: '/lists/list-3', auth: 'basic', accept: JSON_TYPE }],
	['Voice → User Device → Get Status (integrations GET)', { node: 'exotelVoice', parameters: { ...device, operation: 'getStatus' }, method: 'GET', pathIncludes: '/devices', auth: 'bearer', accept: JSON_TYPE }],
	['Voice → User Device → Update (integrations JSON PUT)', { node: 'exotelVoice', parameters: { ...device, operation: 'update', sip: 'disable' }, method: 'PUT', pathIncludes: '/devices', auth: 'bearer', contentType: JSON_TYPE, accept: JSON_TYPE }],
	['Contact Center → User → Create (session JSON POST)', { node: 'exotelContactCenter', parameters: { resource: 'user', operation: 'create', userId: 'asha.rao', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 }, method: 'POST', pathIncludes: '/contactCenterUsers', auth: 'session', contentType: JSON_TYPE, accept: JSON_TYPE }],
	['Contact Center → User → Delete (session DELETE)', { node: 'exotelContactCenter', parameters: { resource: 'user', operation: 'delete', userId: 'nobody' }, method: 'DELETE', pathIncludes: '/user/users/', auth: 'session', accept: JSON_TYPE }],
	['Contact Center → Voice Log → Download (session, raw bytes)', { node: 'exotelContactCenter', parameters: download, method: 'GET', pathIncludes: '/downloadVoiceLog', auth: 'session', accept: '*/*' }],
	['Contact Center → Campaign → Get Many (configuration lookup)', { node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 1 }, method: 'GET', pathIncludes: '/hierarchyconfig/campaign', auth: 'bearer', contentType: JSON_TYPE, accept: JSON_TYPE }],
	['Number Allocation → Allocate (JSON POST)', { node: 'exotelNumberAllocation', parameters: { resource: 'allocation', operation: 'allocate', connectionId: 'order-h', apartyNumbers: '+919876543210', bpartyNumbers: '+919812345678', usage: 'twoway' }, method: 'POST', pathIncludes: '/greenvn', auth: 'alloc', contentType: JSON_TYPE, accept: JSON_TYPE }],
	['Number Allocation → Get (GET)', { node: 'exotelNumberAllocation', parameters: { resource: 'allocation', operation: 'get', greenvnId: 'unknown-id' }, method: 'GET', pathIncludes: '/greenvn/', auth: 'alloc', accept: JSON_TYPE }],
];

describe('every request carries the headers the spec asks for, and no Content-Type without a body unless the spec asks', () => {
	it.each(ROWS)('%s', async (_name, row) => {
		await runWorkflow({
			nodes: [itemsNode('Items', [{}]), packageNode(row.node, row.parameters as INodeParameters, { onError: 'continueRegularOutput' })],
			connections: chain('Items', 'Exotel'),
			credentials: sandboxCredentials(sandbox),
		});
		const [request] = sandbox.requests({ method: row.method, pathIncludes: row.pathIncludes });
		expect(request).toBeDefined();
		const { headers } = request;
		expect(headers.accept).toBe(row.accept);
		expect(headers['content-type']?.split(';')[0]).toBe(row.contentType);
		if (row.contentType === undefined) expect(request.rawBody).toBe('');
		const expectedAuth: Record<Auth, string | undefined> = {
			basic: basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken),
			bearer: `Bearer ${SANDBOX_ACCOUNT.bearerToken}`,
			alloc: basicAuthHeader(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword),
			session: undefined,
		};
		expect(headers.authorization).toBe(expectedAuth[row.auth]);
		if (row.auth === 'session') expect(headers.sessionid).toEqual(expect.any(String));
		else expect(headers.sessionid).toBeUndefined();
	});
});
