/**
 * Exotel Voice → List through n8n-core against the sandbox: exact paths, bodies and queries on the
 * main base, Return All across pages, Bulk Rename as one request for all items whose 207 answer
 * gives every item its own outcome, and Remove Contact leaving the contact in its other lists.
 */

import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, useSandbox } from '../helpers/exotel';
import { SANDBOX_BIG_LIST } from '../sandbox/fixtures';

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
