/**
 * Exotel Voice → User Device (Get Status, Update) through n8n-core against the sandbox's
 * integrations API: bearer auth on the integrations base, the exact JSON body, the "at least one
 * device" rule before sending and from the service, and the error paths.
 */

import { packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../helpers/exotel';
import { userPhone } from '../sandbox/handlers/users';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const devicesPath = (user: string, customer = 'cust-7', app = 'app-3') => `/v2/integrations/${customer}/apps/${app}/users/${user}/devices`;

const sandbox = useSandbox();

async function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], settings: Parameters<typeof packageNode>[2] = {}, credentialOverrides: Parameters<typeof sandboxCredentials>[1] = {}) {
	const device = { resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1' };
	return await runNode(sandbox, 'exotelVoice', { ...device, ...parameters }, items, { settings, credentialOverrides });
}

describe('Exotel Voice → User Device → Get Status', () => {
	it('GETs the devices on the integrations base with the bearer token and outputs data', async () => {
		const result = await run({ operation: 'getStatus' });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'integrations', method: 'GET', path: devicesPath('user-1'), query: {}, status: 200 });
		expect(request.headers.authorization).toBe(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`);
		expect(request.auth).toEqual({ scheme: 'bearer', ok: true });
		expect(result.output('Exotel')[0].json).toEqual({
			user_id: 'user-1',
			devices: {
				phone: { enabled: true, number: '+919876500001' },
				sip: { enabled: true, username: 'user1.sandbox', registered: true, last_seen: '2026-01-01T09:00:00Z' },
			},
		});
	});

	it('encodes the path segments and reads any management-API user', async () => {
		const result = await run({ operation: 'getStatus', customerId: 'cust 7', appId: 'app/3', userId: 'user-2' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].path).toBe('/v2/integrations/cust%207/apps/app%2F3/users/user-2/devices');
		expect(result.output('Exotel')[0].json).toMatchObject({ user_id: 'user-2', devices: { phone: { number: userPhone(2) }, sip: { registered: false } } });
	});

	it('404 for an unknown user, in the service’s words', async () => {
		const result = await run({ operation: 'getStatus', userId: 'user-404' });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe('User user-404 does not exist (code USER_NOT_FOUND)');
	});

	it('401 with a wrong token, without the token', async () => {
		const result = await run({ operation: 'getStatus' }, [{}], {}, { exotelBearerTokenApi: { token: 'bad-bearer-SECRET' } });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe('The app token is missing, invalid or expired (code UNAUTHORIZED)');
		expect(JSON.stringify(result.error)).not.toContain('bad-bearer-SECRET');
	});

	it('empty path parts are refused before sending', async () => {
		for (const [field, label] of [['customerId', 'Customer ID'], ['appId', 'App ID'], ['userId', 'User ID']]) {
			const result = await run({ operation: 'getStatus', [field]: '={{ "" }}' });
			expect(result.error?.message).toBe(`${label} is required (item 0)`);
		}
		expect(sandbox.requests()).toHaveLength(0);
	});
});

describe('Exotel Voice → User Device → Update', () => {
	it('PUTs {phone: false} as JSON with the bearer token; the answer has updated_at', async () => {
		const result = await run({ operation: 'update', phone: 'disable' });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'integrations', method: 'PUT', path: devicesPath('user-1'), contentType: 'application/json', status: 200 });
		expect(request.headers.authorization).toBe(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`);
		expect(request.json).toEqual({ phone: false });
		expect(result.output('Exotel')[0].json).toEqual({
			user_id: 'user-1',
			devices: { phone: { enabled: false, number: '+919876500001' }, sip: { enabled: true, username: 'user1.sandbox' } },
			updated_at: expect.stringMatching(ISO_UTC),
		});
	});

	it.each([
		[{ phone: 'enable', sip: 'enable' }, { phone: true, sip: true }],
		[{ phone: 'enable', sip: 'disable' }, { phone: true, sip: false }],
		[{ phone: 'disable', sip: 'enable' }, { phone: false, sip: true }],
		[{ sip: 'disable' }, { sip: false }],
		[{ phone: 'unchanged', sip: 'enable' }, { sip: true }],
	])('%j sends %j', async (choice, body) => {
		const result = await run({ operation: 'update', ...choice });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].json).toEqual(body);
	});

	it('both disabled is refused before sending', async () => {
		const result = await run({ operation: 'update', phone: 'disable', sip: 'disable' });
		expect(result.error?.message).toBe('Phone and SIP cannot both be disabled: at least one device stays enabled (item 0)');
		expect(result.error?.description).toContain('Nothing was sent');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('nothing to change is refused before sending', async () => {
		const result = await run({ operation: 'update' });
		expect(result.error?.message).toBe('Choose a change for Phone or SIP (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('the service refuses to disable the last enabled device (400 ALL_DEVICES_DISABLED)', async () => {
		expect((await run({ operation: 'update', sip: 'disable' })).error).toBeUndefined();
		const result = await run({ operation: 'update', phone: 'disable' });
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toBe('At least one device must stay enabled (phone and sip cannot both be false) (code ALL_DEVICES_DISABLED)');
		expect(sandbox.requests().map((r) => r.status)).toEqual([200, 400]);
	});

	it('per item, with continue: one user unknown, the others updated', async () => {
		const result = await run({ operation: 'update', userId: '={{ $json.user }}', sip: 'disable' }, [{ user: 'user-3' }, { user: 'user-404' }, { user: 'user-1' }], { onError: 'continueRegularOutput' });
		const out = result.output('Exotel');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json).toMatchObject({ user_id: 'user-3', devices: { sip: { enabled: false } } });
		expect(out[1].json.error).toBe('User user-404 does not exist (code USER_NOT_FOUND)');
		expect(out[2].json).toMatchObject({ user_id: 'user-1', devices: { sip: { enabled: false } } });
	});

	it('401 with a wrong token', async () => {
		const result = await run({ operation: 'update', sip: 'enable' }, [{}], {}, { exotelBearerTokenApi: { token: 'expired-SECRET' } });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toMatch(/\(code UNAUTHORIZED\)$/);
	});
});
