/**
 * Exotel Voice → Campaign through n8n-core against the sandbox: the exact JSON bodies and queries
 * on the main base, outputs and their pairing, Return All across pages, every action against the
 * spec's transitions table (refused ones send no PUT), updates before and after send_at, and the
 * spec's limits refused before anything is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ExotelSandbox } from '../../../sandbox/server';
import { describeBadInput, list, refused, type ContinueCase, type RefusedCase } from '../../helpers/bad-input';
import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, startSandbox } from '../../helpers/exotel';
import { describeNoSecrets, WRONG_CREDENTIALS, type SecretCase } from '../../helpers/secrets';

const SID = SANDBOX_ACCOUNT.accountSid;
const CAMPAIGNS = `/v2/accounts/${SID}/campaigns`;
const CALLER = '+918047112233';
const BASIC = basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken);

let sandbox: ExotelSandbox;
/** timeScale 0: a campaign makes all its calls at once (for call records across pages). */
let fast: ExotelSandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
	fast = await startSandbox({ timeScale: 0 });
});
afterAll(async () => {
	await sandbox.stop();
	await fast.stop();
});
beforeEach(() => {
	sandbox.reset();
	fast.reset();
});

async function run(
	parameters: Record<string, unknown>,
	items: Array<Record<string, unknown>> = [{}],
	settings: Parameters<typeof packageNode>[2] = {},
	target: ExotelSandbox = sandbox,
) {
	return await runNode(target, 'exotelVoice', { resource: 'campaign', ...parameters }, items, { settings, workflowSettings: { timezone: 'Asia/Kolkata' } });
}

/** Creates campaigns straight on a sandbox (setup, not under test). */
async function seedCampaigns(target: ExotelSandbox, bodies: Array<Record<string, unknown>>) {
	const ids: string[] = [];
	for (const body of bodies) {
		const res = await fetch(`${target.origin}${CAMPAIGNS}`, {
			method: 'POST',
			headers: { authorization: BASIC, 'content-type': 'application/json' },
			body: JSON.stringify({ caller_id: CALLER, ...body }),
		});
		ids.push(((await res.json()) as { response: Array<{ data: { id: string } }> }).response[0].data.id);
	}
	target.clearRequests();
	return ids;
}

const numbers = (count: number, prefix = '+9198470') => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

describe('Exotel Voice → Campaign → Create', () => {
	it('POSTs the spec’s flat JSON body (numbers joined into `from`) and outputs the created campaign', async () => {
		const result = await run({
			operation: 'create',
			recipientSource: 'numbers',
			from: '+91 98450 00001,\n+919845000002 ; +91-98450-00097',
			callerId: CALLER,
			additionalFields: {
				name: 'Renewal reminders',
				flowType: 'ivr',
				url: `http://my.exotel.com/${SID}/exoml/start_voice/926`,
				readViaText: 'Hello @@first_name',
				type: 'trans',
				callDuplicateNumbers: true,
				retries: { settings: { numberOfRetries: 2, intervalMins: 15, mechanism: 'Exponential', onStatus: ['busy', 'failed'] } },
				sendAt: '2031-01-15T10:00:00+05:30',
				endAt: '2031-01-15T18:30:00',
				statusCallback: 'https://n8n.example.com/webhook/voice?callback=campaignStatus',
				callStatusCallback: 'https://n8n.example.com/webhook/voice?callback=campaignCallStatus',
				callScheduleCallback: 'https://n8n.example.com/webhook/voice?callback=campaignCallSchedule',
				mode: 'custom',
				throttle: 20,
				customField: 'batch-7',
				repeatMenuAttempts: 2,
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'base', method: 'POST', path: CAMPAIGNS, contentType: 'application/json', status: 200 });
		expect(request.headers.authorization).toBe(BASIC);
		expect(request.json).toEqual({
			from: '+919845000001,+919845000002,+919845000097',
			caller_id: CALLER,
			campaign_type: 'static',
			flow_type: 'ivr',
			url: `http://my.exotel.com/${SID}/exoml/start_voice/926`,
			read_via_text: 'Hello @@first_name',
			name: 'Renewal reminders',
			type: 'trans',
			call_duplicate_numbers: true,
			retries: { number_of_retries: 2, interval_mins: 15, mechanism: 'Exponential', on_status: ['busy', 'failed'] },
			// The picker's value without an offset is read in the workflow's time zone.
			schedule: { send_at: '2031-01-15T10:00:00+05:30', end_at: '2031-01-15T18:30:00+05:30' },
			call_status_callback: 'https://n8n.example.com/webhook/voice?callback=campaignCallStatus',
			call_schedule_callback: 'https://n8n.example.com/webhook/voice?callback=campaignCallSchedule',
			status_callback: 'https://n8n.example.com/webhook/voice?callback=campaignStatus',
			mode: 'custom',
			throttle: 20,
			custom_field: 'batch-7',
			repeat_menu_attempts: 2,
		});
		const out = result.output('Exotel');
		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[0].json).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f]{32}$/),
			name: 'Renewal reminders',
			status: 'Created',
			stats: { created: 3, completed: 0, failed: 0, pending: 3 },
		});
		expect(out[0].json.response).toBeUndefined();
	});

	it('one campaign per item from lists, paired; a minimal body carries only what was given', async () => {
		const items = [{ lists: 'list-1, list-2' }, { lists: ['list-3'] }];
		const result = await run({ operation: 'create', recipientSource: 'lists', lists: '={{ $json.lists }}', callerId: CALLER }, items);
		expect(result.error).toBeUndefined();
		const bodies = sandbox.requests().map((r) => r.json);
		expect(bodies).toEqual([
			{ lists: ['list-1', 'list-2'], caller_id: CALLER, campaign_type: 'static' },
			{ lists: ['list-3'], caller_id: CALLER, campaign_type: 'static' },
		]);
		const out = result.output('Exotel');
		expect(out.map((o) => [o.pairedItem, o.json.lists])).toEqual([
			[{ item: 0 }, ['list-1', 'list-2']],
			[{ item: 1 }, ['list-3']],
		]);
	});

	it('a dynamic campaign takes one list', async () => {
		const result = await run({ operation: 'create', campaignType: 'dynamic', recipientSource: 'lists', lists: 'list-1', callerId: CALLER });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].json).toMatchObject({ lists: ['list-1'], campaign_type: 'dynamic' });
		expect(result.output('Exotel')[0].json.campaign_type).toBe('dynamic');
	});

	const lists = (count: number) => Array.from({ length: count }, (_, i) => `list-${i + 1}`).join(',');

	it.each([
		['name of 2 characters', { additionalFields: { name: 'ab' } }, 'Name is 2 characters; it needs at least 3'],
		['5001 numbers', { from: numbers(5001).join(',') }, 'Numbers has 5001 entries; the limit is 5000'],
		['6 lists on a static campaign', { recipientSource: 'lists', lists: lists(6) }, 'List IDs (static campaign) has 6 entries; the limit is 5'],
		['2 lists on a dynamic campaign', { recipientSource: 'lists', campaignType: 'dynamic', lists: lists(2) }, 'List IDs (dynamic campaign) has 2 entries; the limit is 1'],
		['4 retries', { additionalFields: { retries: { settings: { numberOfRetries: 4 } } } }, 'Number of Retries is 4; the maximum is 3'],
		['throttle without custom mode', { additionalFields: { throttle: 5 } }, 'Throttle needs Mode set to Custom'],
		['throttle with auto mode', { additionalFields: { mode: 'auto', throttle: 5 } }, 'Throttle needs Mode set to Custom'],
		['custom mode without throttle', { additionalFields: { mode: 'custom' } }, 'Mode Custom needs Throttle (calls per minute)'],
		['throttle of 0', { additionalFields: { mode: 'custom', throttle: 0 } }, 'Throttle is 0; the minimum is 1'],
		['a number that is not one', { from: '+919845000001, call me' }, 'Numbers [1] must be a phone number such as +919876543210 (got "call me")'],
		['no numbers', { from: '={{ "" }}' }, 'Numbers is required'],
		['no caller ID', { callerId: '={{ "" }}' }, 'Caller ID is required'],
		['a send time that is not one', { additionalFields: { sendAt: 'next monday' } }, 'Send At must be a date and time such as 2026-03-01T10:00:00+05:30 (got "next monday")'],
		['end before start', { additionalFields: { sendAt: '2031-01-15T10:00:00Z', endAt: '2031-01-15T09:00:00Z' } }, 'End At must be after Send At'],
		['a relative callback URL', { additionalFields: { statusCallback: '/hook' } }, 'Status Callback URL must be an http(s) URL (got "/hook")'],
	])('%s is refused before anything is sent', async (_name, parameters, message) => {
		const result = await run({ operation: 'create', recipientSource: 'numbers', from: '+919845000001', callerId: CALLER, ...parameters });
		expect(result.error?.message).toBe(`${message} (item 0)`);
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('accepts the limits exactly: 5000 numbers, 5 static lists, 3 retries', async () => {
		const atLimit = await run({ operation: 'create', recipientSource: 'numbers', from: numbers(5000).join('\n'), callerId: CALLER, additionalFields: { retries: { settings: { numberOfRetries: 3 } } } });
		expect(atLimit.error).toBeUndefined();
		expect(String((sandbox.requests()[0].json as { from: string }).from).split(',')).toHaveLength(5000);
		const fiveLists = await run({ operation: 'create', recipientSource: 'lists', lists: 'list-1,list-2,list-3,list-big,list-1', callerId: CALLER });
		expect(fiveLists.error).toBeUndefined();
	});

	it('a service refusal is the item’s error with the service’s words', async () => {
		const result = await run({ operation: 'create', recipientSource: 'lists', lists: 'list-404', callerId: CALLER }, [{}], { onError: 'continueRegularOutput' });
		expect(sandbox.requests()).toHaveLength(1);
		const [out] = result.output('Exotel');
		expect(out.json.error).toBe('Invalid request (code 1001)');
		const failed = await run({ operation: 'create', recipientSource: 'lists', lists: 'list-404', callerId: CALLER });
		expect(failed.error?.description).toMatch(/lists: no list with id 'list-404'/);
	});
});

describe('Exotel Voice → Campaign → Get / Get Many / Delete', () => {
	it('Get: GET campaigns/<id> (the spec shows no path: the node’s choice) and outputs the campaign with stats', async () => {
		const result = await run({ operation: 'get', campaignId: 'cmp-inprogress' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([expect.objectContaining({ base: 'base', method: 'GET', path: `${CAMPAIGNS}/cmp-inprogress`, status: 200 })]);
		expect(result.output('Exotel')[0].json).toMatchObject({
			id: 'cmp-inprogress',
			status: 'InProgress',
			stats: { created: 30, completed: 9, failed: 3, pending: 18 },
		});
	});

	it('Get Many: filters and sorting go in the query; Limit asks for that many', async () => {
		const result = await run({
			operation: 'getMany',
			limit: 2,
			filters: { name: 'e', status: ['Created', 'InProgress', 'Paused'], sortBy: 'name:asc', type: 'static' },
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'GET', path: CAMPAIGNS });
		expect(request.query).toEqual({ name: 'e', status: 'Created,InProgress,Paused', sort_by: 'name:asc', type: 'static', offset: '0', limit: '2' });
		expect(result.output('Exotel').map((o) => o.json.name)).toEqual(['Diwali offers', 'Feedback survey']);
		expect(result.output('Exotel').map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('Get Many with Return All pages by 500 until a short page', async () => {
		await seedCampaigns(sandbox, numbers(1100).map((n, i) => ({ from: n, name: `Bulk ${i}` })));
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => r.query)).toEqual([
			{ offset: '0', limit: '500' },
			{ offset: '500', limit: '500' },
			{ offset: '1000', limit: '500' },
		]);
		const out = result.output('Exotel');
		expect(out).toHaveLength(1105);
		expect(new Set(out.map((o) => o.json.id)).size).toBe(1105);
	});

	it('Delete: DELETE campaigns/<id>, output { id, deleted }', async () => {
		const result = await run({ operation: 'delete', campaignId: 'cmp-archived' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([expect.objectContaining({ method: 'DELETE', path: `${CAMPAIGNS}/cmp-archived`, status: 200 })]);
		expect(result.output('Exotel')[0]).toEqual({ json: { id: 'cmp-archived', deleted: true }, pairedItem: { item: 0 } });
		const again = await run({ operation: 'get', campaignId: 'cmp-archived' });
		expect(again.error?.httpCode).toBe('404');
	});
});

describe('Exotel Voice → Campaign → actions against the transitions table', () => {
	it.each([
		['pause', 'cmp-created', 'Created', 'Paused'],
		['pause', 'cmp-inprogress', 'InProgress', 'Paused'],
		['resume', 'cmp-paused', 'Paused', 'InProgress'],
		['complete', 'cmp-paused', 'Paused', 'Completed'],
		['archive', 'cmp-completed', 'Completed', 'Archived'],
	])('%s from %s (%s) is allowed: GET, then PUT {action}', async (action, campaignId, _from, next) => {
		const result = await run({ operation: action, campaignId });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${CAMPAIGNS}/${campaignId}`, `PUT ${CAMPAIGNS}/${campaignId}`]);
		expect(requests[1].json).toEqual({ action });
		expect(requests[1].contentType).toBe('application/json');
		expect(result.output('Exotel')[0].json).toMatchObject({ id: campaignId, status: next });
	});

	it.each([
		['pause', 'cmp-paused', 'Paused', 'Created or InProgress'],
		['pause', 'cmp-completed', 'Completed', 'Created or InProgress'],
		['pause', 'cmp-archived', 'Archived', 'Created or InProgress'],
		['resume', 'cmp-created', 'Created', 'Paused'],
		['resume', 'cmp-inprogress', 'InProgress', 'Paused'],
		['resume', 'cmp-completed', 'Completed', 'Paused'],
		['complete', 'cmp-created', 'Created', 'Paused'],
		['complete', 'cmp-inprogress', 'InProgress', 'Paused'],
		['complete', 'cmp-completed', 'Completed', 'Paused'],
		['archive', 'cmp-created', 'Created', 'Completed'],
		['archive', 'cmp-inprogress', 'InProgress', 'Completed'],
		['archive', 'cmp-paused', 'Paused', 'Completed'],
		['archive', 'cmp-archived', 'Archived', 'Completed'],
	])('%s from %s (%s) is refused, naming the status and what is allowed; no PUT is sent', async (action, campaignId, status, allowed) => {
		const result = await run({ operation: action, campaignId });
		expect(result.error?.message).toBe(`Cannot ${action} campaign ${campaignId}: its status is ${status}; ${action} is allowed only from ${allowed} (item 0)`);
		expect(sandbox.requests().map((r) => r.method)).toEqual(['GET']);
	});

	it('statuses are matched without case or punctuation (`in-progress` is InProgress)', async () => {
		const answer = (status: string) => ({
			kind: 'status' as const,
			status: 200,
			body: { request_id: 'r', method: 'GET', http_code: 200, response: { code: 200, status: 'success', data: { id: 'cmp-inprogress', status } } },
		});
		sandbox.injectFaults(answer('in-progress'), 1, { method: 'GET', pathIncludes: 'campaigns/cmp-inprogress' });
		const paused = await run({ operation: 'pause', campaignId: 'cmp-inprogress' });
		expect(paused.error).toBeUndefined();
		expect(sandbox.requests().map((r) => r.method)).toEqual(['GET', 'PUT']);

		sandbox.reset();
		sandbox.injectFaults(answer('in-progress'), 1, { method: 'GET', pathIncludes: 'campaigns/cmp-inprogress' });
		const refused = await run({ operation: 'resume', campaignId: 'cmp-inprogress' });
		expect(refused.error?.message).toBe('Cannot resume campaign cmp-inprogress: its status is in-progress; resume is allowed only from Paused (item 0)');
		expect(sandbox.requests().map((r) => r.method)).toEqual(['GET']);
	});

	it('with several items each is checked on its own: allowed ones go on, refused ones are their item’s error', async () => {
		const items = [{ id: 'cmp-created' }, { id: 'cmp-completed' }, { id: 'cmp-inprogress' }];
		const result = await run({ operation: 'pause', campaignId: '={{ $json.id }}' }, items, { onError: 'continueErrorOutput' });
		expect(sandbox.requests({ method: 'PUT' }).map((r) => r.path)).toEqual([`${CAMPAIGNS}/cmp-created`, `${CAMPAIGNS}/cmp-inprogress`].sort());
		expect(result.output('Exotel', 0).map((o) => [o.pairedItem, o.json.status])).toEqual([
			[{ item: 0 }, 'Paused'],
			[{ item: 2 }, 'Paused'],
		]);
		const [failed] = result.output('Exotel', 1);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect((failed.json.error as { message: string }).message).toMatch(/Cannot pause campaign cmp-completed: its status is Completed/);
	});
});

describe('Exotel Voice → Campaign → Update', () => {
	it('before send_at: GET, then PUT with the changed parameters in the spec’s names', async () => {
		const result = await run({
			operation: 'update',
			campaignId: 'cmp-created',
			updateFields: {
				name: 'Diwali offers v2',
				from: '+919845000001\n+919845000002',
				retries: { settings: { numberOfRetries: 1, intervalMins: 30, mechanism: 'Linear', onStatus: ['no-answer'] } },
				sendAt: '2031-02-01T09:00:00+05:30',
			},
		});
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => r.method)).toEqual(['GET', 'PUT']);
		expect(requests[1].json).toEqual({
			from: '+919845000001,+919845000002',
			name: 'Diwali offers v2',
			retries: { number_of_retries: 1, interval_mins: 30, mechanism: 'Linear', on_status: ['no-answer'] },
			schedule: { send_at: '2031-02-01T09:00:00+05:30' },
		});
		expect(result.output('Exotel')[0].json).toMatchObject({
			id: 'cmp-created',
			name: 'Diwali offers v2',
			stats: { created: 2 },
			schedule: { send_at: '2031-02-01T09:00:00+05:30' },
		});
	});

	it('after send_at: other fields are refused by name before any PUT', async () => {
		const result = await run({
			operation: 'update',
			campaignId: 'cmp-inprogress',
			updateFields: { name: 'Renamed', callerId: '+918047000000', statusCallback: 'https://n8n.example.com/hook', endAt: '2031-01-01T00:00:00Z' },
		});
		expect(result.error?.message).toBe(
			'Campaign cmp-inprogress is past its send time, so only the callback URLs can change; not updatable now: Caller ID, Name, End At (item 0)',
		);
		expect(result.error?.description).toMatch(/no send_at, so it started when it was created \(status InProgress\)\. Nothing was sent\./);
		expect(sandbox.requests().map((r) => r.method)).toEqual(['GET']);
	});

	it('after send_at: the three callbacks can still change', async () => {
		const result = await run({
			operation: 'update',
			campaignId: 'cmp-inprogress',
			updateFields: {
				statusCallback: 'https://n8n.example.com/hook?callback=campaignStatus',
				callStatusCallback: 'https://n8n.example.com/hook?callback=campaignCallStatus',
				callScheduleCallback: 'https://n8n.example.com/hook?callback=campaignCallSchedule',
			},
		});
		expect(result.error).toBeUndefined();
		const put = sandbox.requests({ method: 'PUT' });
		expect(put).toHaveLength(1);
		expect(put[0].json).toEqual({
			call_status_callback: 'https://n8n.example.com/hook?callback=campaignCallStatus',
			call_schedule_callback: 'https://n8n.example.com/hook?callback=campaignCallSchedule',
			status_callback: 'https://n8n.example.com/hook?callback=campaignStatus',
		});
		expect(result.output('Exotel')[0].json).toMatchObject({ status_callback: 'https://n8n.example.com/hook?callback=campaignStatus' });
	});

	it('checks against the campaign as it is: throttle needs custom mode, lists the limit of its type', async () => {
		const throttle = await run({ operation: 'update', campaignId: 'cmp-created', updateFields: { throttle: 10 } });
		expect(throttle.error?.message).toBe('Throttle needs Mode set to Custom (item 0)');
		expect(sandbox.requests().map((r) => r.method)).toEqual(['GET']);

		sandbox.clearRequests();
		const twoLists = await run({ operation: 'update', campaignId: 'cmp-created', updateFields: { campaignType: 'dynamic', lists: 'list-1, list-2' } });
		expect(twoLists.error?.message).toBe('List IDs (dynamic campaign) has 2 entries; the limit is 1 (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
		const custom = await run({ operation: 'update', campaignId: 'cmp-created', updateFields: { mode: 'custom', throttle: 12 } });
		expect(custom.error).toBeUndefined();
		expect(sandbox.requests({ method: 'PUT' })[0].json).toEqual({ mode: 'custom', throttle: 12 });

		sandbox.clearRequests();
		const nothing = await run({ operation: 'update', campaignId: 'cmp-created', updateFields: {} });
		expect(nothing.error?.message).toBe('Add at least one field to update (item 0)');
		const shortName = await run({ operation: 'update', campaignId: 'cmp-created', updateFields: { name: 'ab' } });
		expect(shortName.error?.message).toBe('Name is 2 characters; it needs at least 3 (item 0)');
		const both = await run({ operation: 'update', campaignId: 'cmp-created', updateFields: { from: '+919845000001', lists: 'list-1' } });
		expect(both.error?.message).toBe('Give Numbers or List IDs, not both (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

describe('Exotel Voice → Campaign → Get Call Details', () => {
	/** The call vocabulary (nodes/shared/output/vocabulary.ts), in order, then the record's own keys, then the record under raw. */
	const KEYS = ['callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl', 'name', 'digit', 'dateCreated', 'raw'];

	/** A call record in the call keys: the campaign dialled `number` from `caller_id`; the record whole under raw. */
	function expectCallRecordItem(json: IDataObject) {
		const raw = json.raw as IDataObject;
		expect(json).toEqual({
			callSid: raw.call_sid ?? null,
			status: raw.status,
			from: raw.caller_id,
			to: raw.number,
			direction: raw.direction,
			startTime: raw.start_time,
			endTime: raw.end_time,
			duration: raw.duration,
			recordingUrl: raw.recording_url ?? null,
			name: raw.name ?? null,
			digit: raw.digit ?? null,
			dateCreated: raw.date_created,
			raw,
		});
		expect(Object.keys(json)).toEqual(KEYS);
	}

	it('GETs call-details with status and sort in the query; one item per call record', async () => {
		const result = await run({ operation: 'getCallDetails', campaignId: 'cmp-inprogress', limit: 5, filters: { status: 'completed', sortBy: 'date_created:asc' } });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'GET', path: `${CAMPAIGNS}/cmp-inprogress/call-details` });
		expect(request.query).toEqual({ status: 'completed', sort_by: 'date_created:asc', offset: '0', limit: '5' });
		const out = result.output('Exotel');
		expect(out).toHaveLength(5);
		expect(out[0].json.raw).toEqual({
			number: '+919845210001',
			name: null,
			duration: expect.any(Number),
			date_created: expect.any(String),
			status: 'completed',
			digit: expect.any(String),
			recording_url: expect.any(String),
			start_time: expect.any(String),
			end_time: expect.any(String),
			caller_id: CALLER,
			direction: 'Outgoing',
			call_sid: expect.stringMatching(/^[0-9a-f]{32}$/),
		});
		expect(out[0].json).toMatchObject({
			callSid: expect.stringMatching(/^[0-9a-f]{32}$/),
			status: 'completed',
			from: CALLER,
			to: '+919845210001',
			direction: 'Outgoing',
			duration: expect.any(Number),
			recordingUrl: expect.any(String),
			name: null,
			digit: expect.any(String),
		});
		for (const o of out) expectCallRecordItem(o.json);
		expect(out.every((o) => o.json.status === 'completed')).toBe(true);
	});

	it('Return All pages through every record (1200 calls: 500, 500, 200)', async () => {
		const [id] = await seedCampaigns(fast, [{ from: numbers(1200).join(','), name: 'Large' }]);
		const result = await run({ operation: 'getCallDetails', campaignId: id, returnAll: true }, [{}], {}, fast);
		expect(result.error).toBeUndefined();
		expect(fast.requests().map((r) => r.query)).toEqual([
			{ offset: '0', limit: '500' },
			{ offset: '500', limit: '500' },
			{ offset: '1000', limit: '500' },
		]);
		const out = result.output('Exotel');
		expect(out).toHaveLength(1200);
		expect(new Set(out.map((o) => o.json.callSid)).size).toBe(1200);
		expect(new Set(out.map((o) => (o.json.raw as IDataObject).call_sid)).size).toBe(1200);
		for (const o of out) expectCallRecordItem(o.json);
		expect(out.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('an unknown campaign is a 404', async () => {
		const result = await run({ operation: 'getCallDetails', campaignId: 'nope', limit: 5 });
		expect(result.error?.httpCode).toBe('404');
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const manyNumbers = (n: number) => Array.from({ length: n }, (_, i) => `+9198${String(45000000 + i)}`);
const CREATE = { resource: 'campaign', operation: 'create', recipientSource: 'numbers', from: '+919845000001', callerId: '+918047112233' };
const UPDATE = { resource: 'campaign', operation: 'update', campaignId: 'cmp-created' };
const CALL_DETAILS = { resource: 'campaign', operation: 'getCallDetails', campaignId: 'cmp-inprogress' };

const REFUSED: RefusedCase[] = [
	refused('campaign name under 3', 'exotelVoice', { ...CREATE, additionalFields: { name: 'ab' } }, 'Name is 2 characters; it needs at least 3'),
	refused('campaign 5001 numbers', 'exotelVoice', { ...CREATE, from: manyNumbers(5001).join(',') }, 'Numbers has 5001 entries; the limit is 5000'),
	refused('campaign 6 static lists', 'exotelVoice', { ...CREATE, recipientSource: 'lists', lists: list(6, (i) => `list-${i}`) }, 'List IDs (static campaign) has 6 entries; the limit is 5'),
	refused('campaign 2 dynamic lists', 'exotelVoice', { ...CREATE, recipientSource: 'lists', campaignType: 'dynamic', lists: 'list-1,list-2' }, 'List IDs (dynamic campaign) has 2 entries; the limit is 1'),
	refused('campaign 4 retries', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 4 } } } }, 'Number of Retries is 4; the maximum is 3'),
	refused('campaign throttle without custom mode', 'exotelVoice', { ...CREATE, additionalFields: { throttle: 5 } }, 'Throttle needs Mode set to Custom'),
	refused('campaign no caller ID', 'exotelVoice', { ...CREATE, callerId: '={{ "" }}' }, 'Caller ID is required'),
	refused('campaign no numbers', 'exotelVoice', { ...CREATE, from: '={{ "" }}' }, 'Numbers is required'),
	refused('campaign update with nothing', 'exotelVoice', { resource: 'campaign', operation: 'update', campaignId: 'cmp-created', updateFields: {} }, 'Add at least one field to update', { readsFirst: true }),
	refused('campaign update name under 3', 'exotelVoice', { resource: 'campaign', operation: 'update', campaignId: 'cmp-created', updateFields: { name: 'ab' } }, 'Name is 2 characters; it needs at least 3', { readsFirst: true }),
	refused('campaign update 2 dynamic lists', 'exotelVoice', { resource: 'campaign', operation: 'update', campaignId: 'cmp-created', updateFields: { campaignType: 'dynamic', lists: 'list-1, list-2' } }, 'List IDs (dynamic campaign) has 2 entries; the limit is 1', { readsFirst: true }),
	refused('campaign pause from Completed', 'exotelVoice', { resource: 'campaign', operation: 'pause', campaignId: 'cmp-completed' }, 'Cannot pause campaign cmp-completed: its status is Completed; pause is allowed only from Created or InProgress', { readsFirst: true }),
	refused('campaign non-phone number', 'exotelVoice', { ...CREATE, from: '+919845000001, call me' }, 'Numbers [1] must be a phone number such as +919876543210 (got "call me")'),
	refused('campaign no lists', 'exotelVoice', { ...CREATE, recipientSource: 'lists', lists: '={{ "" }}' }, 'List IDs (static campaign) is required'),
	refused('campaign bad Campaign Type (expression)', 'exotelVoice', { ...CREATE, campaignType: '={{ "weekly" }}' }, 'Campaign Type must be one of dynamic, static (got "weekly")'),
	refused('campaign bad Flow Type (expression)', 'exotelVoice', { ...CREATE, additionalFields: { flowType: '={{ "sms" }}' } }, 'Flow Type must be one of greeting, ivr (got "sms")'),
	refused('campaign bad Flow URL', 'exotelVoice', { ...CREATE, additionalFields: { url: 'start_voice/926' } }, 'Flow URL must be an http(s) URL (got "start_voice/926")'),
	refused('campaign bad Mode (expression)', 'exotelVoice', { ...CREATE, additionalFields: { mode: '={{ "fast" }}' } }, 'Mode must be one of auto, custom (got "fast")'),
	refused('campaign throttle 0', 'exotelVoice', { ...CREATE, additionalFields: { mode: 'custom', throttle: 0 } }, 'Throttle is 0; the minimum is 1'),
	refused('campaign custom mode without throttle', 'exotelVoice', { ...CREATE, additionalFields: { mode: 'custom' } }, 'Mode Custom needs Throttle (calls per minute)'),
	refused('campaign -1 retries', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: -1 } } } }, 'Number of Retries is -1; the minimum is 0'),
	refused('campaign fractional retry interval', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 1, intervalMins: 2.5 } } } }, 'Retry Interval (Minutes) must be a whole number (got 2.5)'),
	refused('campaign bad retry mechanism (expression)', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 1, mechanism: '={{ "Random" }}' } } } }, 'Retry Mechanism must be one of Linear, Exponential (got "Random")'),
	refused('campaign bad retry status (expression)', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 1, onStatus: '={{ ["answered"] }}' } } } }, 'Retry On [0] must be one of busy, no-answer, failed (got "answered")'),
	refused('campaign Send At not a date (expression)', 'exotelVoice', { ...CREATE, additionalFields: { sendAt: '={{ "next monday" }}' } }, 'Send At must be a date and time such as 2026-03-01T10:00:00+05:30 (got "next monday")'),
	refused('campaign End At not a date (expression)', 'exotelVoice', { ...CREATE, additionalFields: { endAt: '={{ "soon" }}' } }, 'End At must be a date and time such as 2026-03-01T10:00:00+05:30 (got "soon")'),
	refused('campaign bad Status Callback URL', 'exotelVoice', { ...CREATE, additionalFields: { statusCallback: 'done' } }, 'Status Callback URL must be an http(s) URL (got "done")'),
	refused('campaign bad Call Status Callback URL', 'exotelVoice', { ...CREATE, additionalFields: { callStatusCallback: 'each' } }, 'Call Status Callback URL must be an http(s) URL (got "each")'),
	refused('campaign bad Call Schedule Callback URL', 'exotelVoice', { ...CREATE, additionalFields: { callScheduleCallback: 'after' } }, 'Call Schedule Callback URL must be an http(s) URL (got "after")'),
	refused('campaign fractional Repeat Menu Attempts', 'exotelVoice', { ...CREATE, additionalFields: { repeatMenuAttempts: 1.5 } }, 'Repeat Menu Attempts must be a whole number (got 1.5)'),
	refused('campaign update numbers and lists together', 'exotelVoice', { ...UPDATE, updateFields: { from: '+919845000001', lists: 'list-1' } }, 'Give Numbers or List IDs, not both', { readsFirst: true }),
	refused('campaign update 6 static lists', 'exotelVoice', { ...UPDATE, updateFields: { lists: list(6, (i) => `list-${i}`) } }, 'List IDs (static campaign) has 6 entries; the limit is 5', { readsFirst: true }),
	refused('campaign update 5001 numbers', 'exotelVoice', { ...UPDATE, updateFields: { from: manyNumbers(5001).join(',') } }, 'Numbers has 5001 entries; the limit is 5000', { readsFirst: true }),
	refused('campaign update 4 retries', 'exotelVoice', { ...UPDATE, updateFields: { retries: { settings: { numberOfRetries: 4 } } } }, 'Number of Retries is 4; the maximum is 3', { readsFirst: true }),
	refused('campaign update throttle without custom mode', 'exotelVoice', { ...UPDATE, updateFields: { throttle: 5 } }, 'Throttle needs Mode set to Custom', { readsFirst: true }),
	refused('campaign update name past send time', 'exotelVoice', { ...UPDATE, campaignId: 'cmp-inprogress', updateFields: { name: 'Renamed' } }, 'Campaign cmp-inprogress is past its send time, so only the callback URLs can change; not updatable now: Name', { readsFirst: true }),
	refused('campaign resume from Created', 'exotelVoice', { resource: 'campaign', operation: 'resume', campaignId: 'cmp-created' }, 'Cannot resume campaign cmp-created: its status is Created; resume is allowed only from Paused', { readsFirst: true }),
	refused('campaign complete from Created', 'exotelVoice', { resource: 'campaign', operation: 'complete', campaignId: 'cmp-created' }, 'Cannot complete campaign cmp-created: its status is Created; complete is allowed only from Paused', { readsFirst: true }),
	refused('campaign archive from Paused', 'exotelVoice', { resource: 'campaign', operation: 'archive', campaignId: 'cmp-paused' }, 'Cannot archive campaign cmp-paused: its status is Paused; archive is allowed only from Completed', { readsFirst: true }),
	refused('campaign get empty ID', 'exotelVoice', { resource: 'campaign', operation: 'get', campaignId: '={{ "" }}' }, 'Campaign ID is required'),
	refused('campaign list bad Sort By (expression)', 'exotelVoice', { resource: 'campaign', operation: 'getMany', filters: { sortBy: '={{ "status:asc" }}' } }, 'Sort By must be one of date_created:desc, date_created:asc, name:asc, name:desc (got "status:asc")'),
	refused('campaign call details bad Status (expression)', 'exotelVoice', { ...CALL_DETAILS, filters: { status: '={{ "answered" }}' } }, 'Status must be one of busy, completed, failed, no-answer (got "answered")'),
	refused('campaign call details bad Sort By (expression)', 'exotelVoice', { ...CALL_DETAILS, filters: { sortBy: '={{ "name:asc" }}' } }, 'Sort By must be one of date_created:desc, date_created:asc (got "name:asc")'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'campaign', node: 'exotelVoice', parameters: { ...CREATE, additionalFields: { name: '={{ $json.name }}' } }, items: [{ name: 'ab' }, { name: 'Spring sale' }], bad: 0, message: 'Name is 2 characters; it needs at least 3 (item 0)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'Campaign create: service 400 (unknown list)', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'create', recipientSource: 'lists', lists: 'list-404', callerId: '+918047112233' }, outcome: 'error', httpCode: '400' },
	{ name: 'Campaign get: 404', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'get', campaignId: 'cmp-nope' }, outcome: 'error', httpCode: '404' },
	{ name: 'Campaign pause: refused transition', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'pause', campaignId: 'cmp-completed' }, outcome: 'error' },
	{ name: 'Campaign get many: wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'getMany' }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Campaign get many: success', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'getMany', returnAll: true }, outcome: 'ok' },
];

describeNoSecrets(SECRET_CASES);
