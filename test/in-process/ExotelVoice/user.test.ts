/**
 * Exotel Voice → User (Get, Get Many) through n8n-core against the sandbox's management API:
 * exact queries, offset paging in pages of 50, the filters, and the error paths.
 */
import type { RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, storm, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { SANDBOX_USER_COUNT, userOfficePhone, userPhone } from '../../../sandbox/handlers/users';

const SID = SANDBOX_ACCOUNT.accountSid;
const USERS_PATH = `/v2/accounts/${SID}/users`;
const BASE_KEYS = ['id', 'first_name', 'last_name', 'email', 'email_verified', 'role', 'date_created', 'date_updated'];

const sandbox = useSandbox();

async function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], settings: Parameters<typeof packageNode>[2] = {}, credentialOverrides: Parameters<typeof sandboxCredentials>[1] = {}) {
	return await runNode(sandbox, 'exotelVoice', { resource: 'user', ...parameters }, items, { settings, credentialOverrides });
}

describe('Exotel Voice → User → Get', () => {
	it('GETs the user on the ccm base with basic auth and outputs the user itself, devices included', async () => {
		const result = await run({ operation: 'get', userId: 'user-8' });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'ccm', method: 'GET', path: `${USERS_PATH}/user-8`, query: {}, status: 200 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		const out = result.output('Exotel');
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: 'user-8',
			email: expect.stringContaining('@'),
			active_call: null,
			last_login: expect.any(String),
			devices: [
				{ id: 81, contact_uri: userPhone(8), type: 'tel' },
				{ id: 82, contact_uri: userOfficePhone(8), type: 'tel' },
			],
		});
		expect(out[0].json.code).toBeUndefined();
	});

	it('one request per item, paired; an unknown user is a 404 that names it', async () => {
		const result = await run({ operation: 'get', userId: '={{ $json.id }}' }, [{ id: 'user-1' }, { id: 'user-999' }], { onError: 'continueRegularOutput' });
		const out = result.output('Exotel');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json.id).toBe('user-1');
		expect(out[1].json.error).toBe('Not found (code 1004)');
		const failed = await run({ operation: 'get', userId: 'user-999' });
		expect(failed.error?.httpCode).toBe('404');
		expect(failed.error?.description).toContain('User user-999 does not exist in this account');
	});

	it('an empty User ID is refused before sending', async () => {
		const result = await run({ operation: 'get', userId: '={{ "" }}' });
		expect(result.error?.message).toBe('User ID is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

describe('Exotel Voice → User → Get Many', () => {
	it('by default asks offset 0, limit 50 and outputs 50 users without the extra fields', async () => {
		const result = await run({ operation: 'getMany' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => r.query)).toEqual([{ offset: '0', limit: '50' }]);
		const out = result.output('Exotel');
		expect(out).toHaveLength(50);
		expect(out.map((o) => o.json.id)).toEqual(Array.from({ length: 50 }, (_, i) => `user-${i + 1}`));
		expect(Object.keys(out[0].json)).toEqual(BASE_KEYS);
	});

	it('Return All pages by 50 (offsets 0, 50, 100) until the short page: every user once', async () => {
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => [r.path, r.query])).toEqual([
			[USERS_PATH, { offset: '0', limit: '50' }],
			[USERS_PATH, { offset: '50', limit: '50' }],
			[USERS_PATH, { offset: '100', limit: '50' }],
		]);
		const out = result.output('Exotel');
		expect(out).toHaveLength(SANDBOX_USER_COUNT);
		expect(new Set(out.map((o) => o.json.id)).size).toBe(SANDBOX_USER_COUNT);
		expect(out.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Limit 70 asks 50, then only the 20 still wanted', async () => {
		const result = await run({ operation: 'getMany', returnAll: false, limit: 70 });
		expect(sandbox.requests().map((r) => r.query)).toEqual([
			{ offset: '0', limit: '50' },
			{ offset: '50', limit: '20' },
		]);
		expect(result.output('Exotel').map((o) => o.json.id)).toEqual(Array.from({ length: 70 }, (_, i) => `user-${i + 1}`));
	});

	it('Limit 7 is one request of 7', async () => {
		const result = await run({ operation: 'getMany', limit: 7 });
		expect(sandbox.requests().map((r) => r.query)).toEqual([{ offset: '0', limit: '7' }]);
		expect(result.output('Exotel')).toHaveLength(7);
	});

	it('Extra Fields go out comma-separated and come back on each user', async () => {
		const result = await run({ operation: 'getMany', limit: 20, filters: { fields: ['devices', 'last_login'] } });
		expect(sandbox.requests()[0].query).toEqual({ fields: 'devices,last_login', offset: '0', limit: '20' });
		const [first] = result.output('Exotel');
		expect(Object.keys(first.json)).toEqual(['id', 'first_name', 'last_name', 'email', 'email_verified', 'role', 'last_login', 'date_created', 'date_updated', 'devices']);
		expect(first.json.devices).toEqual([expect.objectContaining({ contact_uri: userPhone(1) })]);
	});

	it('filters by device number (as devices.contact_uri, + encoded) and by email', async () => {
		const byPhone = await run({ operation: 'getMany', returnAll: true, filters: { contactUri: ` ${userOfficePhone(12)} `, fields: ['devices', 'active_call', 'last_login'] } });
		expect(byPhone.error).toBeUndefined();
		expect(sandbox.requests()[0].query).toEqual({ fields: 'devices,active_call,last_login', 'devices.contact_uri': userOfficePhone(12), offset: '0', limit: '50' });
		const [user] = byPhone.output('Exotel');
		expect(byPhone.output('Exotel')).toHaveLength(1);
		expect(user.json).toMatchObject({ id: 'user-12', active_call: null, devices: [{ contact_uri: userPhone(12) }, { contact_uri: userOfficePhone(12) }] });

		sandbox.clearRequests();
		const email = String(user.json.email);
		const byEmail = await run({ operation: 'getMany', filters: { email: email.toUpperCase() } });
		expect(sandbox.requests()[0].query).toEqual({ email: email.toUpperCase(), offset: '0', limit: '50' });
		expect(byEmail.output('Exotel').map((o) => o.json.id)).toEqual(['user-12']);
	});

	it('no match gives no items', async () => {
		const result = await run({ operation: 'getMany', filters: { email: 'nobody@acme.example' } });
		expect(result.error).toBeUndefined();
		expect(result.output('Exotel')).toHaveLength(0);
	});

	it('a device number that is not E.164 is refused before sending', async () => {
		const result = await run({ operation: 'getMany', filters: { contactUri: '09876500001' } });
		expect(result.error?.message).toBe('Device Number must be an E.164 number such as +919876543210 (got "09876500001") (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('401 with a wrong token: what to check, the service’s words after it, without the secret', async () => {
		const result = await run({ operation: 'getMany' }, [{}], {}, { exotelApi: { apiToken: 'bad-SECRET-users' } });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe("Authentication failed: check the credential's API key and token (code 1010)");
		expect(result.error?.description).toMatch(/^The service said: "Authentication failed"/);
		expect(JSON.stringify(result.error)).not.toContain('bad-SECRET-users');
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const REFUSED: RefusedCase[] = [
	refused('user list limit 0', 'exotelVoice', { resource: 'user', operation: 'getMany', returnAll: false, limit: 0 }, 'Limit is 0; the minimum is 1'),
	refused('user device number not E.164', 'exotelVoice', { resource: 'user', operation: 'getMany', filters: { contactUri: '09876500001' } }, 'Device Number must be an E.164 number such as +919876543210 (got "09876500001")'),
	refused('user get empty ID', 'exotelVoice', { resource: 'user', operation: 'get', userId: '={{ "" }}' }, 'User ID is required'),
	refused('user list bad Extra Fields (expression)', 'exotelVoice', { resource: 'user', operation: 'getMany', filters: { fields: '={{ ["email"] }}' } }, 'Extra Fields [0] must be one of active_call, devices, last_login (got "email")'),
];

describeBadInput(REFUSED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'User get: 404', node: 'exotelVoice', parameters: { resource: 'user', operation: 'get', userId: 'user-999' }, outcome: 'error', httpCode: '404' },
	{ name: 'User get many: wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany' }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'User get many: 502 past the retry limit', node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany' }, faults: [storm(502)], outcome: 'error', httpCode: '502' },
];

describeNoSecrets(SECRET_CASES);
