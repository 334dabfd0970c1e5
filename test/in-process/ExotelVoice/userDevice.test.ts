/**
 * Exotel Voice → User Device (Get Status, Update) through n8n-core against the sandbox's
 * integrations API: bearer auth on the integrations base, the exact JSON body, the "at least one
 * device" rule before sending and from the service, and the error paths.
 */
import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, echo, giveUpSoon, limitStorm, status, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { userPhone } from '../../../sandbox/handlers/users';

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
		expect(result.error?.message).toBe("Authentication failed: check the credential's token (code UNAUTHORIZED)");
		expect(result.error?.description).toMatch(/^The service said: "The app token is missing, invalid or expired"/);
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

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const DEVICE = { resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1', operation: 'update' };

const REFUSED: RefusedCase[] = [
	refused('both devices disabled', 'exotelVoice', { ...DEVICE, phone: 'disable', sip: 'disable' }, 'Phone and SIP cannot both be disabled: at least one device stays enabled'),
	refused('device update with nothing', 'exotelVoice', { ...DEVICE }, 'Choose a change for Phone or SIP'),
	refused('device Phone not a choice (boolean from an expression)', 'exotelVoice', { ...DEVICE, phone: '={{ true }}' }, 'Phone (PSTN) must be one of disable, enable, unchanged (got "true")'),
	refused('device SIP not a choice', 'exotelVoice', { ...DEVICE, phone: 'enable', sip: '={{ "off" }}' }, 'SIP (WebRTC) must be one of disable, enable, unchanged (got "off")'),
	refused('device update empty Customer ID', 'exotelVoice', { ...DEVICE, customerId: '={{ "" }}', phone: 'enable' }, 'Customer ID is required'),
	refused('device update empty App ID', 'exotelVoice', { ...DEVICE, appId: '={{ "" }}', phone: 'enable' }, 'App ID is required'),
	refused('device update empty User ID', 'exotelVoice', { ...DEVICE, userId: '={{ "" }}', phone: 'enable' }, 'User ID is required'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'user device', node: 'exotelVoice', parameters: { ...DEVICE, phone: '={{ $json.phone }}', sip: 'disable' }, items: [{ phone: 'enable' }, { phone: 'disable' }], bad: 1, message: 'Phone and SIP cannot both be disabled: at least one device stays enabled (item 1)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const device = { resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1' };

const SECRET_CASES: SecretCase[] = [
	{ name: 'User device get: success', node: 'exotelVoice', parameters: { ...device, operation: 'getStatus' }, outcome: 'ok' },
	{ name: 'User device get: wrong bearer token (401)', node: 'exotelVoice', parameters: { ...device, operation: 'getStatus' }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'User device update: unknown user (404)', node: 'exotelVoice', parameters: { ...device, userId: 'user-404', operation: 'update', sip: 'enable' }, outcome: 'error', httpCode: '404' },
	{ name: 'User device update: 429s past Rate Limit → Max Wait', node: 'exotelVoice', parameters: { ...device, operation: 'update', sip: 'enable', ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
];

const ECHO_CASES: SecretCase[] = [
	{
		name: 'bearer token echoed in a 403 (user device)',
		node: 'exotelVoice',
		parameters: { ...device, operation: 'getStatus' },
		faults: [[status(403, echo(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`)), 1]],
		outcome: 'error',
		httpCode: '403',
	},
];

describeNoSecrets(SECRET_CASES, ECHO_CASES);
