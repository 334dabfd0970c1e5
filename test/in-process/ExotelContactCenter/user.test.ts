import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { contactCenterRunner, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { ccCreate, describeNoSecrets, loggedIn, sessionIdOf, status, WRONG, WRONG_CREDENTIALS } from '../../helpers/secrets';

const sandbox = useSandbox();
const run = contactCenterRunner(sandbox);

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

	it('a 429 on the session credential keeps its headers: the create goes again only once its Retry-After has passed', async () => {
		sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 2 }, 1, { base: 'cc', pathIncludes: 'contactCenterUsers' });
		const result = await run(createUser('paced.agent'));
		expect(result.error).toBeUndefined();
		const creates = sandbox.requests({ pathIncludes: 'contactCenterUsers' });
		expect(creates.map((r) => r.status)).toEqual([429, 200]);
		expect(creates[1].time - creates[0].time).toBeGreaterThanOrEqual(2_000);
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

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const CC_CREATE = { resource: 'user', operation: 'create', userId: 'asha.rao', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 };
const CC_UPDATE = { resource: 'user', operation: 'update', userId: 'asha.rao' };

const REFUSED: RefusedCase[] = [
	refused('contact-center create missing user id', 'exotelContactCenter', { ...CC_CREATE, userId: '={{ "" }}' }, 'User ID is required'),
	refused('contact-center create missing user name', 'exotelContactCenter', { ...CC_CREATE, userName: '={{ "" }}' }, 'User Name is required'),
	refused('contact-center update with nothing', 'exotelContactCenter', { resource: 'user', operation: 'update', userId: 'asha.rao' }, 'At least one field to update is required'),
	refused('contact-center create missing user type', 'exotelContactCenter', { ...CC_CREATE, userType: '={{ "" }}' }, 'User Type is required'),
	refused('contact-center create fractional contact center ID', 'exotelContactCenter', { ...CC_CREATE, contactCenterId: 1.5 }, 'Contact Center ID must be a whole number (got 1.5)'),
	refused('contact-center update missing user id', 'exotelContactCenter', { ...CC_UPDATE, userId: '={{ "" }}', additionalFields: { userName: 'Asha R' } }, 'User ID is required'),
	refused('contact-center update fractional contact center ID', 'exotelContactCenter', { ...CC_UPDATE, additionalFields: { contactCenterId: 2.5 } }, 'Contact Center ID must be a whole number (got 2.5)'),
	refused('contact-center update fractional max logins', 'exotelContactCenter', { ...CC_UPDATE, additionalFields: { maxAllowedLogins: 2.5 } }, 'Max Allowed Logins must be a whole number (got 2.5)'),
	refused('contact-center delete missing user id', 'exotelContactCenter', { resource: 'user', operation: 'delete', userId: '={{ "" }}' }, 'User ID is required'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'contact center', node: 'exotelContactCenter', parameters: { ...CC_CREATE, userId: '={{ $json.id }}' }, items: [{ id: 'asha.rao' }, { id: '' }], bad: 1, message: 'User ID is required (item 1)', requests: 2 },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'CC create user: success (session issued)', node: 'exotelContactCenter', parameters: ccCreate('asha.rao'), outcome: 'ok' },
	{ name: 'CC create user: wrong login token (401)', node: 'exotelContactCenter', parameters: ccCreate('asha.rao'), credentials: WRONG_CREDENTIALS, outcome: 'error' },
	{ name: 'CC create user: duplicate (409)', node: 'exotelContactCenter', parameters: ccCreate('login.user'), before: loggedIn, outcome: 'error', httpCode: '409' },
	{ name: 'CC delete user: 404', node: 'exotelContactCenter', parameters: { resource: 'user', operation: 'delete', userId: 'nobody' }, before: loggedIn, outcome: 'error', httpCode: '404' },
	{
		name: 'CC update user: expired session, re-login with a wrong token',
		node: 'exotelContactCenter',
		parameters: { resource: 'user', operation: 'update', userId: 'login.user', additionalFields: { userName: 'New' } },
		before: loggedIn,
		tamper: (store, sandbox) => {
			store.patch('exotelContactCenterApi', { token: WRONG.ccToken });
			sandbox.expireSessions();
		},
		outcome: 'error',
	},
];

const ECHO_CASES: SecretCase[] = [
	{
		name: 'session id echoed in a 400 (contact center)',
		node: 'exotelContactCenter',
		parameters: { resource: 'user', operation: 'delete', userId: 'nobody' },
		before: loggedIn,
		tamper: (store, sandbox) => {
			const session = sessionIdOf(store)!;
			sandbox.injectFaults(status(400, { status: 'failure', message: `bad session ${session}` }), 1, { base: 'cc' });
		},
		outcome: 'error',
		httpCode: '400',
	},
];

describeNoSecrets(SECRET_CASES, ECHO_CASES);
