/**
 * Exotel Voice → List through n8n-core against the sandbox: exact paths, bodies and queries on the
 * main base, Return All across pages, Bulk Rename as one request for all items whose 207 answer
 * gives every item its own outcome, and Remove Contact leaving the contact in its other lists.
 *
 * Then the node's resource locators: the listSearch methods (campaigns, lists, users) against the
 * sandbox through the real transport, and workflows whose Campaign / List / User parameters hold
 * resource-locator values, read by the operations with `extractValue`.
 */
import axios from 'axios';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ExotelVoice } from '../../../nodes/ExotelVoice/ExotelVoice.node';
import { searchCampaigns, searchLists, searchUsers } from '../../../nodes/ExotelVoice/methods/listSearch';
import type { RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets } from '../../helpers/secrets';
import { SANDBOX_BIG_LIST, sandboxCredentialData } from '../../../sandbox/fixtures';
import { parseMultipart } from '../../../sandbox/http';

const SID = SANDBOX_ACCOUNT.accountSid;
const LISTS = `/v2/accounts/${SID}/lists`;

const sandbox = useSandbox();

async function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], settings: Parameters<typeof packageNode>[2] = {}) {
	return await runNode(sandbox, 'exotelVoice', { resource: 'list', ...parameters }, items, { settings });
}

describe('Exotel Voice → List → Get / Get Many / Rename / Delete', () => {
	it('Get: GET lists/<sid> with basic auth, outputs the list with its contact count', async () => {
		const result = await run({ operation: 'get', listSid: 'list-1' });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'base', method: 'GET', path: `${LISTS}/list-1`, status: 200 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(result.output('Exotel')).toEqual([
			{ json: expect.objectContaining({ sid: 'list-1', name: 'Bengaluru customers', contact_count: 5 }), pairedItem: { item: 0 } },
		]);
	});

	it('Get Many: name search and sort in the query, one item per list', async () => {
		const result = await run({ operation: 'getMany', limit: 10, filters: { name: 'e', sortBy: 'name:desc' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].query).toEqual({ name: 'e', sort_by: 'name:desc', offset: '0', limit: '10' });
		expect(result.output('Exotel').map((o) => o.json.name)).toEqual(['Mumbai leads', 'Empty list', 'Bengaluru customers', 'All subscribers']);
	});

	it('Rename: PUT lists/<sid> with {name}; per item, paired; a taken name is that item’s error', async () => {
		const items = [
			{ sid: 'list-2', name: 'Pune leads' },
			{ sid: 'list-3', name: 'Bengaluru customers' },
		];
		const result = await run({ operation: 'rename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items, { onError: 'continueErrorOutput' });
		const puts = sandbox.requests({ method: 'PUT' });
		expect(puts.map((r) => [r.path, r.json, r.contentType])).toEqual(
			expect.arrayContaining([
				[`${LISTS}/list-2`, { name: 'Pune leads' }, 'application/json'],
				[`${LISTS}/list-3`, { name: 'Bengaluru customers' }, 'application/json'],
			]),
		);
		expect(result.output('Exotel', 0)).toEqual([{ json: expect.objectContaining({ sid: 'list-2', name: 'Pune leads' }), pairedItem: { item: 0 } }]);
		const [failed] = result.output('Exotel', 1);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect((failed.json.error as { description: string }).description).toMatch(/already used by list 'list-1'/);
	});

	it('Delete: DELETE lists/<sid>, output { sid, deleted }', async () => {
		const result = await run({ operation: 'delete', listSid: 'list-3' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([expect.objectContaining({ method: 'DELETE', path: `${LISTS}/list-3`, status: 200 })]);
		expect(result.output('Exotel')[0].json).toEqual({ sid: 'list-3', deleted: true });
		expect((await run({ operation: 'get', listSid: 'list-3' })).error?.httpCode).toBe('404');
	});

	it('a missing list ID is refused before anything is sent', async () => {
		const result = await run({ operation: 'get', listSid: '={{ "" }}' });
		expect(result.error?.message).toBe('List ID is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

describe('Exotel Voice → List → Get Contacts / Remove Contact', () => {
	it('Get Contacts with Return All pages by 500 until a short page', async () => {
		const result = await run({ operation: 'getContacts', listSid: SANDBOX_BIG_LIST.sid, returnAll: true });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.every((r) => r.path === `${LISTS}/${SANDBOX_BIG_LIST.sid}/contacts`)).toBe(true);
		expect(requests.map((r) => r.query)).toEqual([
			{ offset: '0', limit: '500' },
			{ offset: '500', limit: '500' },
			{ offset: '1000', limit: '500' },
		]);
		const out = result.output('Exotel');
		expect(out).toHaveLength(SANDBOX_BIG_LIST.size);
		expect(new Set(out.map((o) => o.json.sid)).size).toBe(SANDBOX_BIG_LIST.size);
		expect(out[0].json).toMatchObject({ sid: 'big-contact-1', phone_number: '+919846000000', first_name: 'Subscriber 1' });
	});

	it('Get Contacts with a Limit asks for that many', async () => {
		const result = await run({ operation: 'getContacts', listSid: 'list-1', limit: 2 });
		expect(sandbox.requests()[0].query).toEqual({ offset: '0', limit: '2' });
		expect(result.output('Exotel').map((o) => o.json.sid)).toEqual(['contact-1', 'contact-2']);
	});

	it('Remove Contact: DELETE lists/<list>/contacts/<contact>; the contact stays in its other lists', async () => {
		const result = await run({ operation: 'removeContact', listSid: 'list-1', contactSid: 'contact-1' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([expect.objectContaining({ method: 'DELETE', path: `${LISTS}/list-1/contacts/contact-1`, status: 200 })]);
		expect(result.output('Exotel')[0].json).toEqual({ listSid: 'list-1', contactSid: 'contact-1', removed: true });
		const left = await run({ operation: 'getContacts', listSid: 'list-2', returnAll: true });
		expect(left.output('Exotel').map((o) => o.json.sid)).toContain('contact-1');
		const gone = await run({ operation: 'getContacts', listSid: 'list-1', returnAll: true });
		expect(gone.output('Exotel').map((o) => o.json.sid)).not.toContain('contact-1');
	});
});

describe('Exotel Voice → List → Bulk Rename', () => {
	it('sends one request for all items and pairs every list to its item', async () => {
		const items = [
			{ sid: 'list-1', name: 'Bangalore' },
			{ sid: 'list-2', name: 'Mumbai' },
			{ sid: 'list-3', name: 'Spare' },
		];
		const result = await run({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PUT', path: LISTS, contentType: 'application/json', status: 200 });
		expect(requests[0].json).toEqual({ lists: items });
		expect(result.output('Exotel').map((o) => [o.pairedItem, o.json.sid, o.json.name])).toEqual([
			[{ item: 0 }, 'list-1', 'Bangalore'],
			[{ item: 1 }, 'list-2', 'Mumbai'],
			[{ item: 2 }, 'list-3', 'Spare'],
		]);
	});

	it('a 207 answer loses nothing: successes are outputs, failures their items’ errors', async () => {
		const items = [
			{ sid: 'list-1', name: 'Bangalore' },
			{ sid: 'list-404', name: 'Nobody' },
			{ sid: 'list-3', name: 'Mumbai leads' },
			{ sid: 'list-2', name: 'Mumbai' },
		];
		const result = await run({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items, { onError: 'continueErrorOutput' });
		expect(sandbox.requests()).toHaveLength(1);
		expect(sandbox.requests()[0].status).toBe(207);
		expect(result.output('Exotel', 0).map((o) => [o.pairedItem, o.json.sid, o.json.name])).toEqual([
			[{ item: 0 }, 'list-1', 'Bangalore'],
			[{ item: 3 }, 'list-2', 'Mumbai'],
		]);
		const failed = result.output('Exotel', 1);
		expect(failed.map((o) => o.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(failed[0].json.error).toMatchObject({ message: 'List list-404 not renamed: Not found (code 1004)', sid: 'list-404', code: 404 });
		expect(failed[1].json.error).toMatchObject({
			message: 'List list-3 not renamed: Duplicate name (code 1009)',
			description: "lists[2]: name 'Mumbai leads' is already used by list 'list-2'",
		});
	});

	it('without continue, the first failure stops the node and the description accounts for every item', async () => {
		const items = [
			{ sid: 'list-1', name: 'Bangalore' },
			{ sid: 'list-404', name: 'Nobody' },
		];
		const result = await run({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items);
		expect(result.error?.message).toBe('List list-404 not renamed: Not found (code 1004)');
		expect(result.error?.description).toMatch(/1 of 2 items failed .* The other 1 succeeded and were not undone\./);
	});

	it('splits more than 5000 items into requests of 5000', async () => {
		const items = Array.from({ length: 5001 }, (_, i) => ({ sid: i === 5000 ? 'list-1' : `missing-${i}`, name: `Name ${i}` }));
		const result = await run({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items, { onError: 'continueRegularOutput' });
		const requests = sandbox.requests();
		expect(requests.map((r) => (r.json as { lists: unknown[] }).lists.length)).toEqual([5000, 1]);
		const out = result.output('Exotel');
		expect(out).toHaveLength(5001);
		expect(out[5000]).toMatchObject({ json: { sid: 'list-1', name: 'Name 5000' }, pairedItem: { item: 5000 } });
		expect(out[0].json.error).toBe('List missing-0 not renamed: Not found (code 1004)');
	});

	it('a whole-request failure is every item’s error', async () => {
		sandbox.injectFaults({ kind: 'status', status: 400 }, 1, { method: 'PUT' });
		const items = [
			{ sid: 'list-1', name: 'A' },
			{ sid: 'list-2', name: 'B' },
		];
		const result = await run({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items, { onError: 'continueRegularOutput' });
		expect(result.output('Exotel').map((o) => [o.pairedItem, o.json.sid, o.json.error])).toEqual([
			[{ item: 0 }, 'list-1', expect.stringMatching(/Invalid request/)],
			[{ item: 1 }, 'list-2', expect.stringMatching(/Invalid request/)],
		]);
	});

	it('an item without a name is refused before anything is sent', async () => {
		const result = await run({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, [{ sid: 'list-1', name: 'A' }, { sid: 'list-2' }]);
		expect(result.error?.message).toBe('New Name is required (item 1)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

const CAMPAIGNS_PATH = `/v2/accounts/${SID}/campaigns`;
const LISTS_PATH = `/v2/accounts/${SID}/lists`;
const USERS_PATH = `/v2/accounts/${SID}/users`;

const node = { id: 'voice', name: 'Exotel Voice', type: 'n8n-nodes-exotel.exotelVoice', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

/**
 * What n8n hands a listSearch method: the node's current parameters, its credentials, and
 * `httpRequestWithAuthentication`, here sending with axios and the basic auth the credential adds.
 */
function loadOptionsContext(options: { parameters?: IDataObject; apiToken?: string } = {}): ILoadOptionsFunctions {
	const data = sandboxCredentialData(sandbox.origin) as unknown as Record<string, IDataObject>;
	const credentials: IDataObject = { ...data.exotelApi, ...(options.apiToken ? { apiToken: options.apiToken } : {}) };
	const parameters = options.parameters ?? {};
	const context = {
		getNode: () => node,
		getCurrentNodeParameter: (name: string) => parameters[name],
		getCurrentNodeParameters: () => parameters,
		getCredentials: async (type: string) => {
			if (type !== 'exotelApi') throw new Error(`unexpected credential type ${type}`);
			return credentials;
		},
		helpers: {
			httpRequestWithAuthentication: async (type: string, request: IDataObject) => {
				if (type !== 'exotelApi') throw new Error(`unexpected credential type ${type}`);
				const response = await axios.request({
					url: String(request.url),
					method: String(request.method),
					params: request.qs,
					data: request.body,
					headers: request.headers as Record<string, string>,
					auth: { username: String(credentials.apiKey), password: String(credentials.apiToken) },
					validateStatus: () => true,
				});
				return { statusCode: response.status, headers: response.headers, body: response.data };
			},
		},
	};
	return context as unknown as ILoadOptionsFunctions;
}

const names = (result: INodeListSearchResult) => result.results.map((item) => item.name);
const values = (result: INodeListSearchResult) => result.results.map((item) => item.value);

describe('Exotel Voice: the node registers its listSearch methods and locators', () => {
	const description = new ExotelVoice().description;
	const property = (name: string, resource: string): INodeProperties =>
		description.properties.find((p) => p.name === name && (p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource))!;

	it('methods.listSearch holds exactly searchCampaigns, searchLists and searchUsers', () => {
		const methods = new ExotelVoice().methods;
		expect(Object.keys(methods.listSearch).sort()).toEqual(['searchCampaigns', 'searchLists', 'searchUsers']);
	});

	it.each([
		['campaignId', 'campaign', 'searchCampaigns', true],
		['listSid', 'list', 'searchLists', true],
		['userId', 'user', 'searchUsers', true],
		['listId', 'contact', 'searchLists', false],
	])('%s (%s) is a resource locator: list mode via %s, and an ID mode', (name, resource, method, required) => {
		const p = property(name, resource);
		expect(p.type).toBe('resourceLocator');
		expect(p.default).toEqual({ mode: 'list', value: '' });
		expect(Boolean(p.required)).toBe(required);
		expect(p.modes?.map((m) => m.name)).toEqual(['list', 'id']);
		expect(p.modes?.[0].typeOptions).toEqual({ searchListMethod: method, searchable: true });
		expect(Object.keys(new ExotelVoice().methods.listSearch)).toContain(method);
	});

	it('ID mode refuses a value with a space, slash, ? or # (a pasted URL or two IDs); an expression is not checked', () => {
		const issuesOf = (value: string) =>
			NodeHelpers.getNodeParametersIssues(description.properties, { ...node, parameters: { resource: 'list', operation: 'get', listSid: { __rl: true, mode: 'id', value } } }, description)?.parameters;
		expect(issuesOf('a1b2c3d4e5f60718293a4b5c6d7e8f90')).toBeUndefined();
		expect(issuesOf('list-1')).toBeUndefined();
		expect(issuesOf('={{ $json.sid }}')).toBeUndefined();
		for (const bad of ['list 1', 'https://my.exotel.com/lists/list-1', 'list-1?x', 'list-1#x']) {
			expect(issuesOf(bad)).toEqual({ listSid: ['Not a valid list ID'] });
		}
	});

	it('the User Device user ID stays a plain string (an integrations user id)', () => {
		expect(property('userId', 'userDevice').type).toBe('string');
	});
});

describe('listSearch: searchCampaigns', () => {
	it('asks the first page with offset and limit, and names each campaign with its status', async () => {
		const result = await searchCampaigns.call(loadOptionsContext());
		const [request] = sandbox.requests();
		expect(sandbox.requests()).toHaveLength(1);
		expect(request).toMatchObject({ base: 'base', method: 'GET', path: CAMPAIGNS_PATH, query: { offset: '0', limit: '50' }, status: 200 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(result.results).toEqual([
			{ name: 'Diwali offers (Created)', value: 'cmp-created' },
			{ name: 'Payment reminders (In Progress)', value: 'cmp-inprogress' },
			{ name: 'Feedback survey (Paused)', value: 'cmp-paused' },
			{ name: 'Renewal notice (Completed)', value: 'cmp-completed' },
			{ name: 'Old promotion (Archived)', value: 'cmp-archived' },
		]);
		// a short page: nothing more to load
		expect(result.paginationToken).toBeUndefined();
	});

	it('sends the filter as the service’s name search (trimmed)', async () => {
		const result = await searchCampaigns.call(loadOptionsContext(), '  reminder ');
		expect(sandbox.requests().map((r) => r.query)).toEqual([{ name: 'reminder', offset: '0', limit: '50' }]);
		expect(result.results).toEqual([{ name: 'Payment reminders (In Progress)', value: 'cmp-inprogress' }]);
		const none = await searchCampaigns.call(loadOptionsContext(), 'no such campaign');
		expect(none).toEqual({ results: [], paginationToken: undefined });
	});

	it('reads the pagination token as the offset', async () => {
		const result = await searchCampaigns.call(loadOptionsContext(), '', '3');
		expect(sandbox.requests()[0].query).toEqual({ offset: '3', limit: '50' });
		expect(values(result)).toEqual(['cmp-completed', 'cmp-archived']);
	});

	it('a full page gives the next offset as the token', async () => {
		// 50 more campaigns make the first page full.
		for (let i = 1; i <= 50; i++) {
			const created = await axios.post(
				`${sandbox.origin}${CAMPAIGNS_PATH}`,
				{ name: `Bulk campaign ${i}`, caller_id: '+918047112233', from: '+919845000001', url: `http://my.exotel.com/${SID}/exoml/start_voice/926`, schedule: { send_at: '2031-01-15T10:00:00+05:30' } },
				{ auth: { username: SANDBOX_ACCOUNT.apiKey, password: SANDBOX_ACCOUNT.apiToken }, validateStatus: () => true },
			);
			expect(created.status).toBe(200);
		}
		sandbox.clearRequests();
		const first = await searchCampaigns.call(loadOptionsContext());
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		const second = await searchCampaigns.call(loadOptionsContext(), undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(5);
		expect(second.paginationToken).toBeUndefined();
		expect(new Set([...values(first), ...values(second)]).size).toBe(55);
	});

	it('a refused request is the service’s error (401), secrets removed', async () => {
		const failed = searchCampaigns.call(loadOptionsContext({ apiToken: 'wrong-SECRET-token' }));
		await expect(failed).rejects.toMatchObject({ httpCode: '401' });
		await failed.catch((error: Error) => expect(JSON.stringify({ message: error.message })).not.toContain('wrong-SECRET-token'));
	});
});

describe('listSearch: searchLists', () => {
	it('lists every list with its contact count, first page by offset and limit', async () => {
		const result = await searchLists.call(loadOptionsContext({ parameters: { resource: 'list' } }));
		expect(sandbox.requests().map((r) => [r.base, r.method, r.path, r.query])).toEqual([['base', 'GET', LISTS_PATH, { offset: '0', limit: '50' }]]);
		expect([...result.results].sort((a, b) => String(a.value).localeCompare(String(b.value)))).toEqual([
			{ name: 'Bengaluru customers (5 contacts)', value: 'list-1' },
			{ name: 'Mumbai leads (3 contacts)', value: 'list-2' },
			{ name: 'Empty list (0 contacts)', value: 'list-3' },
			{ name: 'All subscribers (1203 contacts)', value: 'list-big' },
		]);
		expect(result.paginationToken).toBeUndefined();
	});

	it('sends the filter as the service’s name search, and the token as the offset', async () => {
		const result = await searchLists.call(loadOptionsContext({ parameters: { resource: 'list' } }), 'MUMBAI');
		expect(names(result)).toEqual(['Mumbai leads (3 contacts)']);
		await searchLists.call(loadOptionsContext({ parameters: { resource: 'list' } }), 'e', '2');
		expect(sandbox.requests().map((r) => r.query)).toEqual([
			{ name: 'MUMBAI', offset: '0', limit: '50' },
			{ name: 'e', offset: '2', limit: '50' },
		]);
	});

	it('for a contact upload on a bearer token it says why it cannot list, without a request', async () => {
		const context = loadOptionsContext({ parameters: { resource: 'contact', operation: 'upload', authentication: 'bearerToken' } });
		await expect(searchLists.call(context)).rejects.toThrow('Lists can be searched only with the API Key authentication');
		expect(sandbox.requests()).toHaveLength(0);
		// with the API key it lists
		const apiKey = await searchLists.call(loadOptionsContext({ parameters: { resource: 'contact', authentication: 'apiKey' } }), 'empty');
		expect(apiKey.results).toEqual([{ name: 'Empty list (0 contacts)', value: 'list-3' }]);
	});
});

describe('listSearch: searchUsers', () => {
	it('without a filter: one page of 50 on the ccm base, named by full name and email, next offset as token', async () => {
		const result = await searchUsers.call(loadOptionsContext());
		const [request] = sandbox.requests();
		expect(sandbox.requests()).toHaveLength(1);
		expect(request).toMatchObject({ base: 'ccm', method: 'GET', path: USERS_PATH, query: { offset: '0', limit: '50' }, status: 200 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(result.results).toHaveLength(50);
		expect(result.results[0]).toEqual({ name: 'Asha Rao (asha.rao1@acme.example)', value: 'user-1' });
		expect(result.paginationToken).toBe('50');
	});

	it('pages on with the token until the short page (120 users)', async () => {
		const second = await searchUsers.call(loadOptionsContext(), '', '50');
		const third = await searchUsers.call(loadOptionsContext(), '', String(second.paginationToken));
		expect(sandbox.requests().map((r) => r.query)).toEqual([
			{ offset: '50', limit: '50' },
			{ offset: '100', limit: '50' },
		]);
		expect(values(second)[0]).toBe('user-51');
		expect(second.paginationToken).toBe('100');
		expect(values(third)).toHaveLength(20);
		expect(third.paginationToken).toBeUndefined();
	});

	it('filters the page here on first name, last name, full name or email (no name search at the service)', async () => {
		const byFirst = await searchUsers.call(loadOptionsContext(), 'meera');
		// The service got no filter: the list has no name search.
		expect(sandbox.requests().map((r) => r.query)).toEqual([{ offset: '0', limit: '50' }]);
		expect(values(byFirst)).toEqual(['user-3', 'user-15', 'user-27', 'user-39']);
		expect(byFirst.paginationToken).toBe('50');

		const byFull = await searchUsers.call(loadOptionsContext(), ' Asha  Iyer ');
		expect(byFull.results).toEqual([{ name: 'Asha Iyer (asha.iyer13@acme.example)', value: 'user-13' }]);

		const byEmailPart = await searchUsers.call(loadOptionsContext(), 'kavya.rao5@');
		expect(values(byEmailPart)).toEqual(['user-5']);

		const byLast = await searchUsers.call(loadOptionsContext(), 'shah');
		expect(values(byLast)).toEqual(Array.from({ length: 12 }, (_, i) => `user-${25 + i}`));

		const onLaterPage = await searchUsers.call(loadOptionsContext(), 'meera', '50');
		expect(values(onLaterPage)).toEqual(['user-51', 'user-63', 'user-75', 'user-87', 'user-99']);
	});

	it('a whole email address is looked up with the service’s email filter, finding a user beyond the first page', async () => {
		const result = await searchUsers.call(loadOptionsContext(), ' priya.khan95@acme.example ');
		expect(sandbox.requests().map((r) => [r.path, r.query])).toEqual([[USERS_PATH, { email: 'priya.khan95@acme.example', offset: '0', limit: '50' }]]);
		expect(result).toEqual({ results: [{ name: 'Priya Khan (priya.khan95@acme.example)', value: 'user-95' }] });
	});

	it('an email-like filter the service does not know falls back to the page filter', async () => {
		const result = await searchUsers.call(loadOptionsContext(), 'rao1@acme.example');
		expect(sandbox.requests().map((r) => r.query)).toEqual([
			{ email: 'rao1@acme.example', offset: '0', limit: '50' },
			{ offset: '0', limit: '50' },
		]);
		expect(values(result)).toEqual(['user-1']);
	});
});

describe('Exotel Voice: operations read resource-locator values', () => {
	async function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}]) {
		return await runWorkflow({
			nodes: [itemsNode('Items', items), packageNode('exotelVoice', parameters as INodeParameters)],
			connections: chain('Items', 'Exotel'),
			credentials: sandboxCredentials(sandbox),
		});
	}

	it('Campaign → Get with a campaign picked from the list GETs that campaign', async () => {
		const result = await run({ resource: 'campaign', operation: 'get', campaignId: { __rl: true, mode: 'list', value: 'cmp-paused', cachedResultName: 'Feedback survey (Paused)' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => [r.method, r.path])).toEqual([['GET', `${CAMPAIGNS_PATH}/cmp-paused`]]);
		expect(result.output('Exotel')[0].json).toMatchObject({ id: 'cmp-paused', status: 'Paused' });
	});

	it('Campaign → Pause with an ID-mode expression reads each item’s campaign', async () => {
		const result = await run(
			{ resource: 'campaign', operation: 'pause', campaignId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			[{ id: 'cmp-inprogress' }],
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => [r.method, r.path])).toEqual([
			['GET', `${CAMPAIGNS_PATH}/cmp-inprogress`],
			['PUT', `${CAMPAIGNS_PATH}/cmp-inprogress`],
		]);
	});

	it('an empty locator is refused before sending, as an empty ID was', async () => {
		const result = await run({ resource: 'campaign', operation: 'get', campaignId: { __rl: true, mode: 'id', value: '={{ "" }}' } });
		expect(result.error?.message).toBe('Campaign ID is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('an ID-mode value with a slash fails the ID validation before anything is sent', async () => {
		const result = await run({ resource: 'campaign', operation: 'get', campaignId: { __rl: true, mode: 'id', value: 'cmp-paused/x' } });
		expect(result.error?.name).toBe('WorkflowHasIssuesError');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('List → Get and Get Contacts with a list picked from the list', async () => {
		const list = { __rl: true, mode: 'list', value: 'list-2', cachedResultName: 'Mumbai leads (3 contacts)' };
		const got = await run({ resource: 'list', operation: 'get', listSid: list });
		expect(got.error).toBeUndefined();
		expect(got.output('Exotel')[0].json).toMatchObject({ sid: 'list-2', name: 'Mumbai leads' });
		const contacts = await run({ resource: 'list', operation: 'getContacts', listSid: list, returnAll: true });
		expect(contacts.error).toBeUndefined();
		expect(contacts.output('Exotel')).toHaveLength(3);
		expect(sandbox.requests().map((r) => r.path)).toEqual([`${LISTS_PATH}/list-2`, `${LISTS_PATH}/list-2/contacts`]);
	});

	it('List → Bulk Rename reads a locator per item (expression) and a constant one', async () => {
		const result = await run(
			{ resource: 'list', operation: 'bulkRename', listSid: { __rl: true, mode: 'id', value: '={{ $json.sid }}' }, name: '={{ $json.name }}' },
			[
				{ sid: 'list-1', name: 'Bengaluru customers 2026' },
				{ sid: 'list-2', name: 'Mumbai leads 2026' },
			],
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].json).toEqual({
			lists: [
				{ sid: 'list-1', name: 'Bengaluru customers 2026' },
				{ sid: 'list-2', name: 'Mumbai leads 2026' },
			],
		});
		sandbox.reset();
		const constant = await run({ resource: 'list', operation: 'bulkRename', listSid: { __rl: true, mode: 'list', value: 'list-3' }, name: 'Still empty' });
		expect(constant.error).toBeUndefined();
		expect(sandbox.requests()[0].json).toEqual({ lists: [{ sid: 'list-3', name: 'Still empty' }] });
	});

	it('User → Get with a user picked from the list GETs that user on the ccm base', async () => {
		const result = await run({ resource: 'user', operation: 'get', userId: { __rl: true, mode: 'list', value: 'user-95', cachedResultName: 'Priya Khan (priya.khan95@acme.example)' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => [r.base, r.path])).toEqual([['ccm', `${USERS_PATH}/user-95`]]);
		expect(result.output('Exotel')[0].json).toMatchObject({ id: 'user-95', first_name: 'Priya', last_name: 'Khan' });
	});

	it('Contact → Upload sends the picked list as list_id', async () => {
		const result = await run(
			{ resource: 'contact', operation: 'upload', source: 'items', listId: { __rl: true, mode: 'list', value: 'list-3' } },
			[{ phone_number: '+919811100001', first_name: 'Asha' }],
		);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		const parts = parseMultipart(Buffer.from(request.rawBody, 'utf8'), request.headers['content-type']);
		expect(parts.find((part) => part.name === 'list_id')?.data.toString('utf8')).toBe('list-3');
	});

	it('Contact → Upload with the locator left empty sends no list_id', async () => {
		const result = await run(
			{ resource: 'contact', operation: 'upload', source: 'items', listId: { __rl: true, mode: 'list', value: '' } },
			[{ phone_number: '+919811100001' }],
		);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		const parts = parseMultipart(Buffer.from(request.rawBody, 'utf8'), request.headers['content-type']);
		expect(parts.map((part) => part.name)).not.toContain('list_id');
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const REFUSED: RefusedCase[] = [
	refused('list bulk rename without a name', 'exotelVoice', { resource: 'list', operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, 'New Name is required', { items: [{ sid: 'list-1', name: 'A' }, { sid: 'list-2' }], item: 1 }),
	refused('list rename without a name', 'exotelVoice', { resource: 'list', operation: 'rename', listSid: 'list-1', name: '={{ "" }}' }, 'New Name is required'),
	refused('list rename empty List ID', 'exotelVoice', { resource: 'list', operation: 'rename', listSid: '={{ "" }}', name: 'Renamed' }, 'List ID is required'),
	refused('list remove contact without contact ID', 'exotelVoice', { resource: 'list', operation: 'removeContact', listSid: 'list-1', contactSid: '={{ "" }}' }, 'Contact ID is required'),
];

describeBadInput(REFUSED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'List bulk rename: 207 partial, error output', node: 'exotelVoice', parameters: { resource: 'list', operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items: [{ sid: 'list-1', name: 'A' }, { sid: 'list-404', name: 'B' }], onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'List rename: duplicate name (400)', node: 'exotelVoice', parameters: { resource: 'list', operation: 'rename', listSid: 'list-1', name: 'Mumbai leads' }, outcome: 'error', httpCode: '400' },
	{ name: 'List get: 404', node: 'exotelVoice', parameters: { resource: 'list', operation: 'get', listSid: 'list-404' }, outcome: 'error', httpCode: '404' },
];

describeNoSecrets(SECRET_CASES);
