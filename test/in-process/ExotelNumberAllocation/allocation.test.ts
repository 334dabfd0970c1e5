import type { INodeParameters } from 'n8n-workflow';

import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';
import type { SecretCase } from '../../helpers/secrets';
import { b64, describeNoSecrets, echo, giveUpSoon, GOOD, leaksIn, limitStorm, resetBefore, status, storm, surfaces, WRONG_CREDENTIALS } from '../../helpers/secrets';

const sandbox = useSandbox();

const TENANT_PATH = `/v1/tenants/${SANDBOX_ACCOUNT.accountSid}/greenvn`;

function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], onError?: 'continueErrorOutput') {
	return runNode(sandbox, 'exotelNumberAllocation', { resource: 'allocation', ...parameters }, items, { settings: { onError } });
}

const allocate = (connectionId: string, extra: Record<string, unknown> = {}) => ({
	operation: 'allocate',
	connectionId,
	apartyNumbers: '+919876543210, +919876543211',
	bpartyNumbers: '+919812345678',
	usage: 'twoway',
	...extra,
});

describe('Exotel Number Allocation', () => {
	it('Allocate: the spec’s JSON body, basic auth, the allocation out', async () => {
		const result = await run(
			allocate('order-10482', {
				additionalFields: {
					apartyPins: '4821, 7730',
					bpartyPins: '5190',
					strictness: false,
					region: 'KA',
					type: 'landline',
					pinCode: '560001',
					duration: '2d',
					flowId: 'flow-12',
				},
			}),
		);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'alloc', method: 'POST', path: TENANT_PATH, contentType: 'application/json' });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword));
		expect(request.json).toEqual({
			connection_id: 'order-10482',
			aparty_numbers: ['+919876543210', '+919876543211'],
			bparty_numbers: ['+919812345678'],
			usage: 'twoway',
			aparty_pins: [4821, 7730],
			bparty_pins: [5190],
			strictness: false,
			preferences: { region: 'KA', pin_code: '560001', type: 'landline' },
			deallocation_policy: { duration: '2d' },
			flow_id: 'flow-12',
		});
		expect(result.output('Exotel')[0].json).toMatchObject({
			connection_id: 'order-10482',
			state: 'active',
			greenvn: expect.stringMatching(/^\+\d+$/),
			greenvn_id: expect.any(String),
		});
	});

	it('Get then Deallocate moves the allocation to the vault; a second deallocation says it is already deallocated', async () => {
		const allocated = await run(allocate('order-1'));
		const id = allocated.output('Exotel')[0].json.greenvn_id as string;
		const got = await run({ operation: 'get', greenvnId: id });
		expect(got.output('Exotel')[0].json).toMatchObject({ greenvn_id: id, state: 'active' });
		expect(sandbox.requests({ method: 'GET' })[0].path).toBe(`${TENANT_PATH}/${id}`);

		const released = await run({ operation: 'deallocate', greenvnId: id });
		expect(released.error).toBeUndefined();
		expect(sandbox.requests({ method: 'DELETE' })[0].path).toBe(`${TENANT_PATH}/${id}`);
		expect((await run({ operation: 'get', greenvnId: id })).output('Exotel')[0].json.state).toBe('vault');

		const again = await run({ operation: 'deallocate', greenvnId: id });
		expect(sandbox.requests({ method: 'DELETE' })[1].status).toBe(400);
		expect(again.error?.message).toBe(`Allocation ${id} is already deallocated`);
		expect(again.error?.description).toMatch(/\(code 5\).*already deallocated \(state vault\)/); // the service's code and words
		expect(again.error?.httpCode).toBe('400');
	});

	it('deallocating an unknown id: the service answers 400 code 1, and the node says not found (not "already deallocated")', async () => {
		const result = await run({ operation: 'deallocate', greenvnId: 'no-such-greenvn' });
		const [request] = sandbox.requests({ method: 'DELETE' });
		expect(request).toMatchObject({ path: `${TENANT_PATH}/no-such-greenvn`, status: 400 });
		expect(result.error?.message).toBe('Allocation no-such-greenvn not found (code 1)');
		expect(result.error?.message).not.toMatch(/already deallocated/);
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.description).toMatch(/GreenVN not found/); // the service's own words are kept
		expect(result.error?.description).not.toMatch(/malformed/);
	});

	it('getting an unknown id: the service answers 400 code 1, and Get words it as Deallocate does', async () => {
		const result = await run({ operation: 'get', greenvnId: 'no-such-greenvn' });
		const [request] = sandbox.requests({ method: 'GET' });
		expect(request).toMatchObject({ path: `${TENANT_PATH}/no-such-greenvn`, status: 400 });
		expect(result.error?.message).toBe('Allocation no-such-greenvn not found (code 1)');
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.description).toMatch(/^No allocation \(GreenVN\) has this id for the account: check the GreenVN ID/);
		expect(result.error?.description).toMatch(/HTTP 400 from GET .*GreenVN not found/); // the service's own words are kept
		// a 400 of the allocation API is not only a malformed request: this one is an unknown id
		expect(result.error?.description).not.toMatch(/malformed/);
		const deallocated = await run({ operation: 'deallocate', greenvnId: 'no-such-greenvn' });
		expect(deallocated.error?.message).toBe(result.error?.message);
	});

	it.each([
		['with the allocation error body', { success: false, status: 402, code: 7, message: 'Unauthorized request', data: null }, 'Authentication failed: check the allocation user name and password (code 7)'],
		['with no body the node can read', '', 'Unauthorized request: check the allocation user name and password'],
	])('a 402 is an unauthorized request, as the allocation API means it (%s)', async (_name, body, message) => {
		sandbox.injectFaults({ kind: 'status', status: 402, body }, 1);
		const result = await run(allocate('order-402'));
		expect(sandbox.requests().map((request) => request.status)).toEqual([402]);
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.message).toBe(message);
		const said = `${result.error?.message} ${result.error?.description}`;
		expect(said).toMatch(/Unauthorized request: check the allocation user name and password/);
		expect(result.error?.description).toMatch(/HTTP 402 from POST /);
		// not the messaging API's 402
		expect(said).not.toMatch(/plan|usage limit/);
	});

	it('a duplicate connection id: 409 with code 18, in words', async () => {
		await run(allocate('order-dup'));
		const result = await run(allocate('order-dup'));
		expect(result.error?.httpCode).toBe('409');
		expect(result.error?.message).toBe('This connection id is already allocated: use a new connection id or deallocate the old one (code 18)');
	});

	it('an empty pool: code 4, in words, every item accounted for with Continue', async () => {
		const items = Array.from({ length: 6 }, (_, i) => ({ id: `order-${i}` }));
		const result = await run(allocate('={{ $json.id }}'), items, 'continueErrorOutput');
		const ok = result.output('Exotel', 0);
		const failed = result.output('Exotel', 1);
		expect(ok.length + failed.length).toBe(6);
		expect(failed.length).toBeGreaterThan(0);
		expect(failed[0].json.error).toMatchObject({ message: expect.stringMatching(/^No free virtual number is available.*\(code 4\)$/) });
	});

	it('an unknown allocation id: code 1, in words', async () => {
		const result = await run({ operation: 'get', greenvnId: 'nope' });
		expect(result.error?.message).toBe('Allocation nope not found (code 1)');
	});

	it.each([
		['non-E.164 a-party', { apartyNumbers: '+919876543210, 9876543211' }, 'A-Party Numbers [1] must be an E.164 number such as +919876543210 (got "9876543211")'],
		['missing b-party', { bpartyNumbers: '={{ "" }}' }, 'B-Party Numbers is required'],
		['zero pin', { additionalFields: { apartyPins: '0' } }, 'A-Party PINs [0] is 0; the minimum is 1'],
		['fractional pin', { additionalFields: { bpartyPins: '12.5' } }, 'B-Party PINs [0] must be a whole number (got 12.5)'],
		['duration without unit', { additionalFields: { duration: '2 days' } }, 'Deallocate After must be a number followed by d, m or s, such as 2d or 3600s (got "2 days")'],
		['preferred number not E.164', { additionalFields: { greenvn: '08047112233' } }, 'Preferred Number must be an E.164 number such as +919876543210 (got "08047112233")'],
	])('%s is refused before sending', async (_name, override, message) => {
		const result = await run({ ...allocate('order-v'), ...override });
		expect(result.error?.message).toBe(`${message} (item 0)`);
		expect(sandbox.requests()).toHaveLength(0);
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const ALLOCATE = { resource: 'allocation', operation: 'allocate', connectionId: 'order-1', apartyNumbers: '+919876543210', bpartyNumbers: '+919812345678', usage: 'twoway' };

const REFUSED: RefusedCase[] = [
	refused('allocation non-E.164 a-party', 'exotelNumberAllocation', { ...ALLOCATE, apartyNumbers: '+919876543210, 9876543211' }, 'A-Party Numbers [1] must be an E.164 number such as +919876543210 (got "9876543211")'),
	refused('allocation non-E.164 b-party', 'exotelNumberAllocation', { ...ALLOCATE, bpartyNumbers: '={{ $json.b }}' }, 'B-Party Numbers [0] must be an E.164 number such as +919876543210 (got "919812345678")', { items: [{ b: '+919812345678' }, { b: '919812345678' }], item: 1 }),
	refused('allocation missing b-party', 'exotelNumberAllocation', { ...ALLOCATE, bpartyNumbers: '={{ "" }}' }, 'B-Party Numbers is required'),
	refused('allocation zero pin', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { apartyPins: '0' } }, 'A-Party PINs [0] is 0; the minimum is 1'),
	refused('allocation fractional pin', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { bpartyPins: '12.5' } }, 'B-Party PINs [0] must be a whole number (got 12.5)'),
	refused('allocation bad region via expression', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { region: '={{ "XX" }}' } }, 'Preferred Region must be one of AP, DL, GJ, KA, KL, MH, MP, MU, RJ, TN, WB (got "XX")'),
	refused('allocation bad duration', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { duration: '2 days' } }, 'Deallocate After must be a number followed by d, m or s, such as 2d or 3600s (got "2 days")'),
	refused('allocation preferred number not E.164', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { greenvn: '08047112233' } }, 'Preferred Number must be an E.164 number such as +919876543210 (got "08047112233")'),
	refused('allocation missing connection ID', 'exotelNumberAllocation', { ...ALLOCATE, connectionId: '={{ "" }}' }, 'Connection ID is required'),
	refused('allocation missing a-party', 'exotelNumberAllocation', { ...ALLOCATE, apartyNumbers: '={{ "" }}' }, 'A-Party Numbers is required'),
	refused('allocation bad usage (expression)', 'exotelNumberAllocation', { ...ALLOCATE, usage: '={{ "threeway" }}' }, 'Usage must be one of oneway, twoway (got "threeway")'),
	refused('allocation bad number type (expression)', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { type: '={{ "tollfree" }}' } }, 'Preferred Number Type must be one of landline, mobile (got "tollfree")'),
	refused('deallocate empty GreenVN ID', 'exotelNumberAllocation', { resource: 'allocation', operation: 'deallocate', greenvnId: '={{ "" }}' }, 'GreenVN ID is required'),
	refused('allocation get empty GreenVN ID', 'exotelNumberAllocation', { resource: 'allocation', operation: 'get', greenvnId: '={{ "" }}' }, 'GreenVN ID is required'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'allocation', node: 'exotelNumberAllocation', parameters: { ...ALLOCATE, connectionId: '={{ $json.id }}', additionalFields: { apartyPins: '={{ $json.pin }}' } }, items: [{ id: 'c-0', pin: '0' }, { id: 'c-1', pin: '4821' }], bad: 0, message: 'A-Party PINs [0] is 0; the minimum is 1 (item 0)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const allocateFor = (connectionId: string) => ({
	resource: 'allocation',
	operation: 'allocate',
	connectionId,
	apartyNumbers: '+919876543210',
	bpartyNumbers: '+919812345678',
	usage: 'twoway',
});

const SECRET_CASES: SecretCase[] = [
	{ name: 'Allocate: success', node: 'exotelNumberAllocation', parameters: allocateFor('order-1'), outcome: 'ok' },
	{ name: 'Allocate: wrong password (401)', node: 'exotelNumberAllocation', parameters: allocateFor('order-1'), credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{
		name: 'Allocate: duplicate connection id (409)',
		node: 'exotelNumberAllocation',
		parameters: allocateFor('order-dup'),
		before: async (sandbox) => {
			const first = await runWorkflow({
				nodes: [itemsNode('Items', [{}]), packageNode('exotelNumberAllocation', allocateFor('order-dup') as INodeParameters)],
				connections: chain('Items', 'Exotel'),
				credentials: sandboxCredentials(sandbox, GOOD),
			});
			expect(leaksIn(surfaces(first, 0))).toEqual([]);
			return first.credentialStore;
		},
		outcome: 'error',
		httpCode: '409',
	},
	{ name: 'Allocate: empty pool (code 4), error output', node: 'exotelNumberAllocation', parameters: allocateFor('={{ $json.id }}'), items: Array.from({ length: 6 }, (_, i) => ({ id: `o-${i}` })), onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'Allocation get: unknown id (400 code 1)', node: 'exotelNumberAllocation', parameters: { resource: 'allocation', operation: 'get', greenvnId: 'nope' }, outcome: 'error', httpCode: '400' },
	{ name: 'Allocation deallocate: 429s past Rate Limit → Max Wait', node: 'exotelNumberAllocation', parameters: { resource: 'allocation', operation: 'deallocate', greenvnId: 'a'.repeat(24), ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'Allocate: 500 past the retry limit', node: 'exotelNumberAllocation', parameters: allocateFor('order-5xx'), faults: [storm(500)], outcome: 'error', httpCode: '500' },
	{ name: 'Allocate: reset before', node: 'exotelNumberAllocation', parameters: allocateFor('order-reset'), faults: [[resetBefore, 6]], outcome: 'error' },
];

const ECHO_CASES: SecretCase[] = [
	{
		name: 'allocation password and basic header echoed in a 400',
		node: 'exotelNumberAllocation',
		parameters: allocateFor('order-echo'),
		faults: [[status(400, echo(SANDBOX_ACCOUNT.allocPassword, b64(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword))), 1]],
		outcome: 'error',
		httpCode: '400',
	},
];

describeNoSecrets(SECRET_CASES, ECHO_CASES);
