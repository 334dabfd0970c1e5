
import { cmsBaseUrlFrom } from '../../nodes/shared/transport';
import { runNode, SANDBOX_ACCOUNT, useSandbox } from '../helpers/exotel';
import { CredentialStore } from '../helpers/n8n-core-harness';

const sandbox = useSandbox();

function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], store?: CredentialStore, overrides = {}) {
	return runNode(sandbox, 'exotelContactCenter', parameters, items, { credentialStore: store, credentialOverrides: overrides });
}

const createUser = (userId: string) => ({
	resource: 'user',
	operation: 'create',
	userId,
	userName: 'Asha Rao',
	userType: 'Agent',
	contactCenterId: 1,
});

describe('Exotel Contact Center → User', () => {
	it('Create: raw JSON body with every field, session header, one login for all items', async () => {
		const result = await run(
			{
				...createUser('={{ $json.id }}'),
				additionalFields: {
					systemUserType: 'Agent',
					defaultReady: true,
					userData: 'night shift',
					description: 'Support team',
					loginPolicy: 'verify.before.force.login',
					maxAllowedLogins: 2,
					mappingUserId: 'crm-77',
				},
			},
			[{ id: 'asha.rao' }, { id: 'ravi.k' }],
		);
		expect(result.error).toBeUndefined();
		const creates = sandbox.requests({ method: 'POST', pathIncludes: 'contactCenterUsers' });
		expect(creates.map((r) => r.json)).toEqual(
			['asha.rao', 'ravi.k'].map((userId) => ({
				userId,
				userType: 'Agent',
				userName: 'Asha Rao',
				contactCenterId: 1,
				systemUserType: 'Agent',
				defaultReady: true,
				userData: 'night shift',
				description: 'Support team',
				loginPolicy: 'verify.before.force.login',
				maxAllowedLogins: '2',
				mappingUserId: 'crm-77',
			})),
		);
		expect(sandbox.loginCount).toBe(1);
		const session = result.credentialStore.get('exotelContactCenterApi').sessionId as string;
		expect(creates.every((r) => r.headers.sessionid === session)).toBe(true);
		const out = result.output('Exotel');
		expect(out.map((item) => [item.pairedItem, item.json.userId])).toEqual([[{ item: 0 }, 'asha.rao'], [{ item: 1 }, 'ravi.k']]);
		expect(JSON.stringify(out)).not.toContain(session);
	});

	it('Update: PUT to the path with the userId (which is also in the body), integer maxAllowedLogins', async () => {
		const first = await run(createUser('asha.rao'));
		sandbox.clearRequests();
		const result = await run(
			{ resource: 'user', operation: 'update', userId: 'asha.rao', additionalFields: { userName: 'Asha R.', maxAllowedLogins: 3, defaultReady: false } },
			[{}],
			first.credentialStore,
		);
		expect(result.error).toBeUndefined();
		const [put] = sandbox.requests();
		expect(put).toMatchObject({ method: 'PUT', base: 'cc', path: '/servicerestapi/cc/contactCenterUsers/asha.rao' });
		expect(put.json).toEqual({ userId: 'asha.rao', userName: 'Asha R.', maxAllowedLogins: 3, defaultReady: false });
		expect(result.output('Exotel')[0].json).toMatchObject({ status: 'success', updatedFields: expect.arrayContaining(['userName', 'maxAllowedLogins']) });
	});

	it('Update with nothing to change is refused before sending', async () => {
		const result = await run({ resource: 'user', operation: 'update', userId: 'asha.rao' });
		expect(result.error?.message).toBe('At least one field to update is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('Delete: DELETE servicerestapi/user/users/<userId>; a missing user is a clear 404', async () => {
		const first = await run(createUser('asha.rao'));
		sandbox.clearRequests();
		const result = await run({ resource: 'user', operation: 'delete', userId: 'asha.rao' }, [{}], first.credentialStore);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0]).toMatchObject({ method: 'DELETE', path: '/servicerestapi/user/users/asha.rao' });
		const again = await run({ resource: 'user', operation: 'delete', userId: 'asha.rao' }, [{}], first.credentialStore);
		expect(again.error?.httpCode).toBe('404');
		expect(again.error?.message).toMatch(/asha\.rao does not exist/);
	});

	it('Create refuses a missing required field before sending', async () => {
		const result = await run({ ...createUser('={{ "" }}') });
		expect(result.error?.message).toBe('User ID is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

describe('Exotel Contact Center → Voice Log → Download', () => {
	const download = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' };

	it('downloads bytes into a binary field with the MIME type of Content-Type and a file name, filters URL-encoded', async () => {
		const result = await run(download);
		expect(result.error).toBeUndefined();
		const get = sandbox.requests({ pathIncludes: 'downloadVoiceLog' })[0];
		expect(get.method).toBe('GET');
		expect(get.query).toEqual({ campaignId: '12', crtObjectId: 'crt-9f2', targetFormat: 'mp3', filters: '{"callId":"call-4471"}' });
		expect(get.rawBody).toBe('');
		const [item] = result.output('Exotel');
		expect(item.binary?.data).toMatchObject({ mimeType: 'audio/mpeg', fileName: 'call-4471.mp3' });
		const bytes = await result.binaryBuffer(item, 'data');
		expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
		expect(bytes.length).toBe(item.json.bytes);
	});

	it('after the session expires, logs in again once and the download succeeds', async () => {
		const first = await run(download);
		sandbox.expireSessions();
		sandbox.clearRequests();
		const before = sandbox.loginCount;
		const result = await run(download, [{}], first.credentialStore);
		expect(result.error).toBeUndefined();
		expect(sandbox.loginCount).toBe(before + 1);
		expect(sandbox.requests().map((r) => r.status)).toEqual([401, 200, 200]);
		expect((await result.binaryBuffer(result.output('Exotel')[0], 'data')).length).toBeGreaterThan(1000);
	});

	it('a recording that does not exist is a clear 404', async () => {
		const result = await run({ ...download, crtObjectId: 'missing-1' });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/No voice log for crtObjectId missing-1/);
	});
});

describe('Exotel Contact Center → Campaign → Get Many (configuration lookup)', () => {
	it('GETs the hierarchy campaigns with a bearer token and contactCenterId', async () => {
		const result = await run({ resource: 'campaign', operation: 'getMany', contactCenterId: 1 });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'cms', method: 'GET', path: '/configuration/hierarchyconfig/campaign', query: { contactCenterId: '1' } });
		expect(request.headers.authorization).toBe(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`);
		const out = result.output('Exotel');
		expect(out.length).toBe(2);
		expect(out[0].json).toEqual(expect.objectContaining({ campaignContextId: expect.any(Number), contactCenterId: 1 }));
	});

	it('surfaces CONF-1001 for an unknown contact center', async () => {
		const result = await run({ resource: 'campaign', operation: 'getMany', contactCenterId: 99 });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/\(code CONF-1001\)$/);
	});

	it('derives the configuration server from the contact-center domain', () => {
		expect(cmsBaseUrlFrom('https://gateway.mumbai.acme.com:8443')).toBe('https://cms.mumbai.acme.com');
		expect(cmsBaseUrlFrom('http://tenant42.sg.example.net/')).toBe('http://cms.sg.example.net');
		expect(() => cmsBaseUrlFrom('http://127.0.0.1:4010')).toThrow(/no leading label|leading label/);
	});
});
