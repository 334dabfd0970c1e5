/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a local HTTP receiver (node:http, node:net); never shipped */
/**
 * The sandbox's campaigns, lists and contact upload: the campaign status machine (the spec's
 * transitions table, send_at, the call clock), update rules before and after send_at, validation
 * against the spec's limits, call records and paging, lists with 207 bulk renames, and uploads
 * that become contacts of a list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { SANDBOX_ACCOUNT, SANDBOX_BIG_LIST } from './fixtures';
import { Receiver } from './receiver';
import { ExotelSandbox } from './server';
import { budget } from './timing';

const A = SANDBOX_ACCOUNT;
const BASIC = `Basic ${Buffer.from(`${A.apiKey}:${A.apiToken}`).toString('base64')}`;
const BEARER = `Bearer ${A.bearerToken}`;
const CAMPAIGNS = `/v2/accounts/${A.accountSid}/campaigns`;
const LISTS = `/v2/accounts/${A.accountSid}/lists`;
const UPLOAD = `/ccm/v2/accounts/${A.accountSid}/contacts/upload`;

/** An answer: its status, and its JSON body as the caller says it is shaped. */
interface Answer<B = unknown> {
	status: number;
	body: B;
}

// ---------------------------------------------------------------- the answers and callbacks, as the tests read them

/** A v2 answer of one item. */
interface One<T> {
	response: { data: T };
}

/** A v2 answer of several items: the metadata and an entry per item. */
interface Many<T> {
	metadata: unknown;
	response: T[];
}

/** A campaign create's answer: an entry per campaign. */
interface Created {
	response: Array<{ data: Campaign }>;
}

/** A v2 failure. */
interface V2Failure {
	response: { error_data: { code: number; description: string } };
}

/** A campaign (the fields the tests read). */
interface Campaign {
	id: string;
	name: string;
	status: string;
	stats: { created: number; pending: number };
	status_callback?: string;
	date_updated: string;
}

/** A call record of a campaign. */
interface CallRecord {
	number: string;
	status: string;
	call_sid: string;
	date_created: string;
	end_time: string;
}

/** A list of contacts. */
interface ContactList {
	sid: string;
	name: string;
	contact_count: number;
}

/** A campaign's callback body (call status, call schedule or campaign status: the fields the tests read). */
interface CampaignCallback {
	number: string;
	status: string;
	attempts: number;
	call_sid: string;
	call_sids: string[];
	stats: unknown;
}

async function call<B = unknown>(origin: string, method: string, path: string, body?: unknown, authorization = BASIC): Promise<Answer<B>> {
	const headers: Record<string, string> = { authorization };
	let payload: string | FormData | undefined;
	if (body instanceof FormData) payload = body;
	else if (body !== undefined) {
		payload = JSON.stringify(body);
		headers['content-type'] = 'application/json';
	}
	const res = await fetch(origin + path, { method, headers, body: payload });
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const description = (answer: Answer) => (answer.body as Partial<V2Failure> | undefined)?.response?.error_data?.description as string;
const numbers = (count: number, prefix = '+9198470') => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
const campaign = (extra: Record<string, unknown> = {}) => ({ caller_id: '+918047112233', from: '+919845000001,+919845000002', name: 'Sandbox test', ...extra });
const future = (ms = 3_600_000) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('campaigns (timeScale 1: the clock barely moves during a test)', () => {
	let sandbox: ExotelSandbox;
	let origin: string;
	const api = <B = unknown>(method: string, path: string, body?: unknown) => call<B>(origin, method, path, body);

	beforeAll(async () => {
		sandbox = new ExotelSandbox();
		origin = await sandbox.start();
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(() => sandbox.reset());

	it('creates a campaign with the spec’s envelope and fields; Created at first, then InProgress without send_at', async () => {
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ retries: { number_of_retries: 2, interval_mins: 5, mechanism: 'Linear', on_status: ['busy'] } }));
		expect(created.status).toBe(200);
		expect(created.body).toMatchObject({ method: 'POST', http_code: 200, response: [{ code: 200, status: 'success' }] });
		const data = created.body.response[0].data;
		expect(data).toMatchObject({
			id: expect.stringMatching(/^[0-9a-f]{32}$/),
			account_sid: A.accountSid,
			name: 'Sandbox test',
			type: 'trans',
			caller_id: '+918047112233',
			campaign_type: 'static',
			status: 'Created',
			call_duplicate_numbers: false,
			retries: { number_of_retries: 2, interval_mins: 5, mechanism: 'Linear', on_status: ['busy'] },
			stats: { created: 2, completed: 0, failed: 0, pending: 2 },
			date_created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/),
		});
		const read = await api<One<Campaign>>('GET', `${CAMPAIGNS}/${data.id}`);
		expect(read.body.response.data.status).toBe('InProgress');
	});

	it('stays Created until send_at, and generates a name when none is given', async () => {
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ name: undefined, schedule: { send_at: future() } }));
		expect(created.body.response[0].data.name).toMatch(/^Campaign \d{4}-/);
		const read = await api<One<Campaign>>('GET', `${CAMPAIGNS}/${created.body.response[0].data.id}`);
		expect(read.body.response.data.status).toBe('Created');
	});

	describe.each([
		['pause', 'cmp-created', 'Paused'],
		['pause', 'cmp-inprogress', 'Paused'],
		['resume', 'cmp-paused', 'InProgress'],
		['complete', 'cmp-paused', 'Completed'],
		['archive', 'cmp-completed', 'Archived'],
	])('%s from %s', (action, id, next) => {
		it(`is allowed and moves to ${next}`, async () => {
			const res = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/${id}`, { action });
			expect(res.status).toBe(200);
			expect(res.body.response.data.status).toBe(next);
		});
	});

	it.each([
		['pause', 'cmp-paused', 'Paused'],
		['pause', 'cmp-completed', 'Completed'],
		['resume', 'cmp-inprogress', 'InProgress'],
		['resume', 'cmp-created', 'Created'],
		['complete', 'cmp-inprogress', 'InProgress'],
		['complete', 'cmp-created', 'Created'],
		['archive', 'cmp-paused', 'Paused'],
		['archive', 'cmp-archived', 'Archived'],
	])('%s from %s is refused with 400 naming the status and what is allowed', async (action, id, status) => {
		const res = await api('PUT', `${CAMPAIGNS}/${id}`, { action });
		expect(res.status).toBe(400);
		expect(description(res)).toMatch(new RegExp(`Cannot ${action} campaign '${id}': its status is ${status}; ${action} is allowed only from`));
		expect((await api<One<Campaign>>('GET', `${CAMPAIGNS}/${id}`)).body.response.data.status).toBe(status);
	});

	it('complete marks the remaining calls failed; resume of a campaign before send_at goes back to Created', async () => {
		const paused = (await api<One<Campaign>>('GET', `${CAMPAIGNS}/cmp-paused`)).body.response.data;
		expect(paused.stats).toEqual({ created: 10, completed: 4, failed: 0, pending: 6 });
		const done = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/cmp-paused`, { action: 'complete' });
		expect(done.body.response.data.stats).toEqual({ created: 10, completed: 4, failed: 6, pending: 0 });

		await api('PUT', `${CAMPAIGNS}/cmp-created`, { action: 'pause' });
		const resumed = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/cmp-created`, { action: 'resume' });
		expect(resumed.body.response.data.status).toBe('Created');
	});

	it('an unknown action, or an action with other parameters, is a 400', async () => {
		expect(description(await api('PUT', `${CAMPAIGNS}/cmp-paused`, { action: 'stop' }))).toMatch(/action must be one of pause, resume, complete, archive/);
		expect(description(await api('PUT', `${CAMPAIGNS}/cmp-paused`, { action: 'resume', name: 'New name' }))).toMatch(/got also: name/);
		const withCallback = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/cmp-paused`, { action: 'resume', status_callback: 'http://127.0.0.1:9/cb' });
		expect(withCallback.status).toBe(200);
		expect(withCallback.body.response.data.status_callback).toBe('http://127.0.0.1:9/cb');
	});

	it('before send_at any create parameter changes; after it only the three callbacks', async () => {
		const before = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/cmp-created`, { name: 'Diwali offers v2', from: '+919845000001', retries: { number_of_retries: 1 } });
		expect(before.status).toBe(200);
		expect(before.body.response.data).toMatchObject({ name: 'Diwali offers v2', from: '+919845000001', stats: { created: 1 } });

		const after = await api('PUT', `${CAMPAIGNS}/cmp-inprogress`, { name: 'Renamed', status_callback: 'http://127.0.0.1:9/a' });
		expect(after.status).toBe(400);
		expect(description(after)).toMatch(/past its send_at .* only status_callback, call_status_callback, call_schedule_callback can be updated \(refused: name\)/);
		const callbacks = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/cmp-inprogress`, {
			status_callback: 'http://127.0.0.1:9/a',
			call_status_callback: 'http://127.0.0.1:9/b',
			call_schedule_callback: 'http://127.0.0.1:9/c',
		});
		expect(callbacks.status).toBe(200);
		expect(callbacks.body.response.data).toMatchObject({ name: 'Payment reminders', call_schedule_callback: 'http://127.0.0.1:9/c' });
	});

	it('updates are validated like a create', async () => {
		expect(description(await api('PUT', `${CAMPAIGNS}/cmp-created`, { name: 'ab' }))).toMatch(/name is 2 characters long; at least 3/);
		expect(description(await api('PUT', `${CAMPAIGNS}/cmp-created`, { from: '+919845000001', lists: ['list-1'] }))).toMatch(/either from or lists/);
		expect(description(await api('PUT', `${CAMPAIGNS}/cmp-created`, {}))).toMatch(/Nothing to update/);
		expect((await api('PUT', `${CAMPAIGNS}/nope`, { action: 'pause' })).status).toBe(404);
	});

	it.each([
		['name shorter than 3', campaign({ name: 'ab' }), /name is 2 characters long; at least 3 are required/],
		['5001 numbers', campaign({ from: numbers(5001).join(',') }), /from holds 5001 numbers; at most 5000/],
		['6 lists on a static campaign', campaign({ from: undefined, lists: ['list-1', 'list-2', 'list-3', 'list-big', 'list-1', 'list-2'] }), /lists holds 6 list ids; a static campaign takes at most 5/],
		['2 lists on a dynamic campaign', campaign({ from: undefined, lists: ['list-1', 'list-2'], campaign_type: 'dynamic' }), /a dynamic campaign takes at most 1/],
		['an unknown list', campaign({ from: undefined, lists: ['list-404'] }), /no list with id 'list-404'/],
		['from and lists', campaign({ lists: ['list-1'] }), /either from or lists, not both/],
		['neither from nor lists', campaign({ from: undefined }), /from or lists is required/],
		['from as an array', campaign({ from: ['+919845000001'] }), /from must be a string/],
		['a bad number', campaign({ from: '+919845000001,call me' }), /'call me' is not a phone number/],
		['no caller_id', campaign({ caller_id: undefined }), /caller_id is required/],
		['4 retries', campaign({ retries: { number_of_retries: 4 } }), /number_of_retries must be an integer from 0 to 3 \(got 4\)/],
		['a retry status outside the list', campaign({ retries: { number_of_retries: 1, on_status: ['completed'] } }), /on_status must be an array of busy, no-answer, failed/],
		['throttle in auto mode', campaign({ throttle: 10 }), /throttle is only allowed with mode custom/],
		['custom mode without throttle', campaign({ mode: 'custom' }), /mode custom needs throttle/],
		['throttle at the account limit', campaign({ mode: 'custom', throttle: 60 }), /throttle must be an integer from 1 to 59/],
		['a schedule that is not RFC 3339', campaign({ schedule: { send_at: '2030-01-01 10:00' } }), /schedule.send_at must be an RFC 3339 date-time/],
		['end_at before send_at', campaign({ schedule: { send_at: future(7_200_000), end_at: future() } }), /end_at must be after send_at/],
		['flow_type outside the list', campaign({ flow_type: 'sms' }), /flow_type must be one of ivr, greeting/],
		['a relative callback', campaign({ status_callback: '/hook' }), /status_callback must be an absolute http\(s\) URL/],
	])('create: %s is a 400', async (_name, body, message) => {
		const res = await api<V2Failure>('POST', CAMPAIGNS, body);
		expect(res.status).toBe(400);
		expect(res.body.response.error_data.code).toBe(1001);
		expect(description(res)).toMatch(message);
	});

	it('accepts the limits exactly: 5000 numbers, 5 lists, 3 retries, throttle 59', async () => {
		expect((await api('POST', CAMPAIGNS, campaign({ from: numbers(5000).join(',') }))).status).toBe(200);
		expect((await api('POST', CAMPAIGNS, campaign({ from: undefined, lists: ['list-1', 'list-2', 'list-3', 'list-big', 'list-1'] }))).status).toBe(200);
		expect((await api('POST', CAMPAIGNS, campaign({ retries: { number_of_retries: 3 }, mode: 'custom', throttle: 59 }))).status).toBe(200);
	});

	it('lists campaigns with metadata, filters (status format-insensitive) and sorting; 400 on bad paging', async () => {
		const all = await api<Many<Campaign>>('GET', `${CAMPAIGNS}?limit=2&offset=1&sort_by=name:asc`);
		expect(all.body.metadata).toEqual({ count: 2, offset: 1, total: 5, limit: 2 });
		expect(all.body.response.map((c: { name: string }) => c.name)).toEqual(['Feedback survey', 'Old promotion']);
		const byStatus = await api<Many<Campaign>>('GET', `${CAMPAIGNS}?status=in-progress,Paused`);
		expect(byStatus.body.response.map((c: { id: string }) => c.id).sort()).toEqual(['cmp-inprogress', 'cmp-paused']);
		expect((await api<Many<Campaign>>('GET', `${CAMPAIGNS}?name=REMIND`)).body.response.map((c: { id: string }) => c.id)).toEqual(['cmp-inprogress']);
		expect((await api<Many<Campaign>>('GET', `${CAMPAIGNS}?type=dynamic`)).body.response).toEqual([]);
		expect((await api('GET', `${CAMPAIGNS}?limit=501`)).status).toBe(400);
		expect((await api('GET', `${CAMPAIGNS}?sort_by=status`)).status).toBe(400);
		expect((await api('GET', `${CAMPAIGNS}?status=running`)).status).toBe(400);
	});

	it('serves call records paged, filtered by status and sorted', async () => {
		const page = await api<Many<CallRecord>>('GET', `${CAMPAIGNS}/cmp-inprogress/call-details?limit=5&offset=10&sort_by=date_created:asc`);
		expect(page.body.metadata).toEqual({ count: 2, offset: 10, total: 12, limit: 5 });
		expect(page.body.response[0]).toEqual({
			number: expect.any(String),
			name: null,
			duration: expect.any(Number),
			date_created: expect.any(String),
			status: 'completed',
			digit: expect.stringMatching(/^[1-3]$/),
			recording_url: expect.stringMatching(/^https:\/\/recordings\.sandbox\.invalid\//),
			start_time: expect.any(String),
			end_time: expect.any(String),
			caller_id: '+918047112233',
			direction: 'Outgoing',
			call_sid: expect.stringMatching(/^[0-9a-f]{32}$/),
		});
		const busy = await api<Many<CallRecord>>('GET', `${CAMPAIGNS}/cmp-inprogress/call-details?status=busy`);
		expect(busy.body.response.map((c: { number: string }) => c.number)).toEqual(['+919845210097']);
		expect((await api('GET', `${CAMPAIGNS}/cmp-inprogress/call-details?status=answered`)).status).toBe(400);
		expect((await api('GET', `${CAMPAIGNS}/nope/call-details`)).status).toBe(404);
	});

	it('GET and DELETE on campaigns/<id> (paths the spec does not show): 200, then 404', async () => {
		expect((await api<One<unknown>>('DELETE', `${CAMPAIGNS}/cmp-completed`)).body.response.data).toEqual({ id: 'cmp-completed', deleted: true });
		expect((await api('GET', `${CAMPAIGNS}/cmp-completed`)).status).toBe(404);
		expect((await api('DELETE', `${CAMPAIGNS}/cmp-completed`)).status).toBe(404);
	});

	it('needs the account’s basic credentials', async () => {
		expect((await call(origin, 'GET', CAMPAIGNS, undefined, BEARER)).status).toBe(401);
	});
});

describe('campaign clock and callbacks (timeScale 0: every call happens at once)', () => {
	let sandbox: ExotelSandbox;
	let origin: string;
	let receiver: http.Server;
	let hook: string;
	const received: Array<{ url: string; body: CampaignCallback }> = [];
	const api = <B = unknown>(method: string, path: string, body?: unknown) => call<B>(origin, method, path, body);

	beforeAll(async () => {
		sandbox = new ExotelSandbox({ timeScale: 0 });
		origin = await sandbox.start();
		receiver = http.createServer((req, res) => {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				received.push({ url: req.url ?? '', body: JSON.parse(body) });
				res.writeHead(200).end('ok');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
	});
	afterAll(async () => {
		await sandbox.stop();
		await new Promise((resolve) => receiver.close(resolve));
	});
	beforeEach(() => {
		sandbox.reset();
		received.length = 0;
	});

	it('calls every number, retries per the retries object, completes and posts the three callbacks', async () => {
		const created = await api<Created>(
			'POST',
			CAMPAIGNS,
			campaign({
				from: '+919845000001, +919845000097, +919845000096',
				retries: { number_of_retries: 2, interval_mins: 3, mechanism: 'Exponential', on_status: ['busy'] },
				status_callback: `${hook}?callback=campaignStatus`,
				call_status_callback: `${hook}?callback=campaignCallStatus`,
				call_schedule_callback: `${hook}?callback=campaignCallSchedule`,
			}),
		);
		const id = created.body.response[0].data.id;
		const read = await api<One<Campaign>>('GET', `${CAMPAIGNS}/${id}`);
		expect(read.body.response.data).toMatchObject({ status: 'Completed', stats: { created: 3, completed: 1, failed: 2, pending: 0 } });
		const calls = (await api<Many<CallRecord>>('GET', `${CAMPAIGNS}/${id}/call-details?sort_by=date_created:asc`)).body.response;
		expect(calls.map((c: { number: string; status: string }) => `${c.number} ${c.status}`)).toEqual([
			'+919845000001 completed',
			'+919845000097 busy',
			'+919845000096 no-answer',
			'+919845000097 busy',
			'+919845000097 busy',
		]);
		// Exponential: 3, then 6 minutes between the busy attempts.
		const times = calls.filter((c: { status: string }) => c.status === 'busy').map((c: { date_created: string }) => Date.parse(c.date_created));
		expect([times[1] - times[0], times[2] - times[1]]).toEqual([180_000, 360_000]);

		await sandbox.waitForCallbacks((log) => log.filter((a) => a.outcome === 'delivered').length === 9);
		const of = (kind: string) => received.filter((r) => r.url.endsWith(kind)).map((r) => r.body);
		expect(of('campaignCallStatus')).toHaveLength(5);
		expect(of('campaignCallStatus')[0]).toEqual({
			campaign_sid: id,
			call_sid: calls[0].call_sid,
			number: '+919845000001',
			status: 'completed',
			date_created: calls[0].date_created,
			date_updated: calls[0].end_time,
		});
		expect(of('campaignCallSchedule').map((b) => [b.number, b.attempts, b.status])).toEqual([
			['+919845000001', 1, 'completed'],
			['+919845000097', 3, 'busy'],
			['+919845000096', 1, 'no-answer'],
		]);
		const [status] = of('campaignStatus');
		expect(status).toMatchObject({ campaign_sid: id, status: 'Completed', stats: { created: 3, completed: 1, failed: 2, pending: 0 } });
		expect([...status.call_sids].sort()).toEqual(calls.map((c: { call_sid: string }) => c.call_sid).sort());
		expect(of('campaignStatus')).toHaveLength(1);
	});

	it('a list campaign calls the lists’ contacts once each, with their names', async () => {
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ from: undefined, lists: ['list-1', 'list-2'] }));
		const id = created.body.response[0].data.id;
		const calls = (await api<Many<CallRecord>>('GET', `${CAMPAIGNS}/${id}/call-details?sort_by=date_created:asc&limit=50`)).body.response;
		expect(calls).toHaveLength(7);
		expect(calls[0]).toMatchObject({ number: '+919845000001', name: 'Asha Rao' });
		expect((await api<One<Campaign>>('GET', `${CAMPAIGNS}/${id}`)).body.response.data.stats).toEqual({ created: 7, completed: 6, failed: 1, pending: 0 });
	});
});

describe('campaign timeline (small timeScale: the callbacks come on their own)', () => {
	/** 60 s a number × 0.002: a number every 120 ms. */
	const SCALE = 0.002;
	const INTERVAL = 60_000 * SCALE;
	const rx = new Receiver();
	const started: ExotelSandbox[] = [];
	let sandbox: ExotelSandbox;
	let origin: string;
	let seq = 0;
	const api = <B = unknown>(method: string, path: string, body?: unknown) => call<B>(origin, method, path, body);

	async function startSandbox(timeScale = SCALE) {
		const sb = new ExotelSandbox({ timeScale });
		started.push(sb);
		return { sb, at: await sb.start() };
	}

	/** Fresh callback paths at the receiver, and the campaign body's three callbacks. */
	function hooks() {
		const base = `/campaign/${++seq}`;
		const paths = { status: `${base}/status`, call: `${base}/call`, schedule: `${base}/schedule` };
		return {
			paths,
			body: { status_callback: rx.url(paths.status), call_status_callback: rx.url(paths.call), call_schedule_callback: rx.url(paths.schedule) },
		};
	}

	/** What arrived for a campaign, in the order it arrived: `call <number> <status>`, `schedule <number> <attempts>`, `campaign <status>`. */
	function arrivals(paths: ReturnType<typeof hooks>['paths']): string[] {
		return rx.received
			.filter((r) => Object.values(paths).includes(r.pathname))
			.map((r) => {
				const body = JSON.parse(r.text);
				if (r.pathname === paths.call) return `call ${body.number} ${body.status}`;
				if (r.pathname === paths.schedule) return `schedule ${body.number} ${body.attempts}`;
				return `campaign ${body.status}`;
			});
	}

	/** Waits until the campaign's status callback arrived (`statuses` of them) and nothing more is pending. */
	const settled = (sb: ExotelSandbox, paths: ReturnType<typeof hooks>['paths'], statuses = 1) =>
		sb.waitForCallbacks(() => rx.at(paths.status).length >= statuses && sb.pendingCallbacks === 0, budget(15_000));

	beforeAll(async () => {
		await rx.start();
		({ sb: sandbox, at: origin } = await startSandbox());
	});
	afterAll(async () => {
		for (const sb of started) await sb.stop();
		await rx.stop();
	});
	beforeEach(() => {
		sandbox.reset();
		rx.clear();
	});

	it('posts each call, each number after its retries and the completion, with no request after the create: in order, each once', async () => {
		const { paths, body } = hooks();
		const createdAt = Date.now();
		const created = await api<Created>(
			'POST',
			CAMPAIGNS,
			campaign({
				from: '+919845000001,+919845000097,+919845000096',
				retries: { number_of_retries: 2, interval_mins: 3, mechanism: 'Exponential', on_status: ['busy'] },
				...body,
			}),
		);
		expect(created.body.response[0].data.status).toBe('Created');
		const id = created.body.response[0].data.id as string;
		expect(sandbox.pendingCallbacks).toBeGreaterThan(0); // the campaign's next step
		await settled(sandbox, paths);
		// nothing but the create was asked of the sandbox
		expect(sandbox.requests().map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${CAMPAIGNS}`]);
		expect(arrivals(paths)).toEqual([
			'call +919845000001 completed',
			'schedule +919845000001 1',
			'call +919845000097 busy',
			'call +919845000097 busy',
			'call +919845000097 busy',
			'schedule +919845000097 3',
			'call +919845000096 no-answer',
			'schedule +919845000096 1',
			'campaign Completed',
		]);
		// on the campaign's clock: the first number a minute (scaled) after the start, the last three minutes after
		expect(rx.at(paths.call)[0].at - createdAt).toBeGreaterThanOrEqual(INTERVAL - 5);
		expect(rx.at(paths.status)[0].at - createdAt).toBeGreaterThanOrEqual(3 * INTERVAL - 5);
		expect(sandbox.callbacks({ kind: 'custom' }).map((a) => a.outcome)).toEqual(Array(9).fill('delivered'));

		// the same campaign a request reads; reading it posts nothing again
		const read = (await api<One<Campaign>>('GET', `${CAMPAIGNS}/${id}`)).body.response.data;
		expect(read).toMatchObject({ status: 'Completed', stats: { created: 3, completed: 1, failed: 2, pending: 0 } });
		const calls = (await api<Many<CallRecord>>('GET', `${CAMPAIGNS}/${id}/call-details?sort_by=date_created:asc`)).body.response;
		expect(sandbox.pendingCallbacks).toBe(0);
		expect(rx.received).toHaveLength(9);
		const posted = rx.json<CampaignCallback>(paths.call);
		expect(posted.map((b) => b.call_sid).sort()).toEqual(calls.map((c: { call_sid: string }) => c.call_sid).sort());
		const first = calls.find((c: { call_sid: string }) => c.call_sid === posted[0].call_sid)!;
		expect(posted[0]).toEqual({
			campaign_sid: id,
			call_sid: first.call_sid,
			number: '+919845000001',
			status: 'completed',
			date_created: first.date_created,
			date_updated: first.end_time,
		});
		expect(rx.json(paths.schedule)[1]).toEqual({
			campaign_sid: id,
			number: '+919845000097',
			status: 'busy',
			attempts: 3,
			call_sids: posted.slice(1, 4).map((b) => b.call_sid),
			date_updated: expect.stringMatching(/\+05:30$/),
		});
		const [status] = rx.json<CampaignCallback>(paths.status);
		expect(status).toEqual({
			campaign_sid: id,
			name: 'Sandbox test',
			status: 'Completed',
			from: '+918047112233',
			to: '+919845000001,+919845000097,+919845000096',
			call_sids: posted.map((b) => b.call_sid),
			stats: { created: 3, completed: 1, failed: 2, pending: 0 },
			date_updated: read.date_updated,
		});
	});

	it('requests during the timeline see the same campaign and move it at most once: every callback still once', async () => {
		const { paths, body } = hooks();
		const numbers = ['+919845000001', '+919845000002', '+919845000095', '+919845000004'];
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ from: numbers.join(','), ...body }));
		const id = created.body.response[0].data.id as string;
		let status = 'Created';
		while (status !== 'Completed') {
			const read = (await api<One<Campaign>>('GET', `${CAMPAIGNS}/${id}`)).body.response.data;
			// a number's callbacks never arrive before the campaign reads it called
			expect(rx.at(paths.schedule).length).toBeLessThanOrEqual(read.stats.created - read.stats.pending);
			status = read.status;
		}
		await settled(sandbox, paths);
		expect(arrivals(paths)).toEqual([...numbers.flatMap((n) => [`call ${n} ${n.endsWith('0095') ? 'failed' : 'completed'}`, `schedule ${n} 1`]), 'campaign Completed']);
	});

	it('pause holds the callbacks (nothing pending); resume goes on where it stopped', async () => {
		// 240 ms a number: the pause comes well before the last one
		const { sb, at } = await startSandbox(0.004);
		const { paths, body } = hooks();
		const numbers = ['+919845000001', '+919845000002', '+919845000003', '+919845000004', '+919845000005'];
		const created = await call<Created>(at, 'POST', CAMPAIGNS, campaign({ from: numbers.join(','), ...body }));
		const id = created.body.response[0].data.id as string;
		await sb.waitForCallbacks(() => rx.at(paths.schedule).length >= 1, budget(15_000));
		const paused = await call<One<Campaign>>(at, 'PUT', `${CAMPAIGNS}/${id}`, { action: 'pause' });
		expect(paused.body.response.data.status).toBe('Paused');
		const called = numbers.length - paused.body.response.data.stats.pending;
		// what the pause saw is posted; then the campaign's timeline is empty: nothing more can come
		await sb.waitForCallbacks(() => sb.pendingCallbacks === 0, budget(15_000));
		expect(rx.at(paths.schedule)).toHaveLength(called);
		expect(rx.at(paths.status)).toHaveLength(0);
		expect(called).toBeLessThan(numbers.length);

		expect((await call<One<Campaign>>(at, 'PUT', `${CAMPAIGNS}/${id}`, { action: 'resume' })).body.response.data.status).toBe('InProgress');
		expect(sb.pendingCallbacks).toBeGreaterThan(0);
		await settled(sb, paths);
		expect(arrivals(paths)).toEqual([...numbers.flatMap((n) => [`call ${n} completed`, `schedule ${n} 1`]), 'campaign Completed']);
		expect(rx.json<CampaignCallback>(paths.status)[0].stats).toEqual({ created: 5, completed: 5, failed: 0, pending: 0 });
	});

	it('paused before its first call, only end_at is ahead; complete cancels it and posts the completion once, the numbers failed', async () => {
		const { paths, body } = hooks();
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ ...body, schedule: { send_at: future(60_000), end_at: future(120_000) } }));
		const id = created.body.response[0].data.id as string;
		expect(sandbox.pendingCallbacks).toBe(1); // the start, at send_at
		await api('PUT', `${CAMPAIGNS}/${id}`, { action: 'pause' });
		expect(sandbox.pendingCallbacks).toBe(1); // end_at completes a paused campaign
		await api('PUT', `${CAMPAIGNS}/${id}`, { action: 'complete' });
		await settled(sandbox, paths);
		expect(arrivals(paths)).toEqual(['campaign Completed']);
		expect(rx.json<CampaignCallback>(paths.status)[0].stats).toEqual({ created: 2, completed: 0, failed: 2, pending: 0 });
		await api('PUT', `${CAMPAIGNS}/${id}`, { action: 'archive' });
		expect(sandbox.pendingCallbacks).toBe(0);
	});

	it('end_at passing while paused completes the campaign on its own', async () => {
		const { paths, body } = hooks();
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ ...body, schedule: { end_at: future(2_000) } }));
		const id = created.body.response[0].data.id as string;
		await api('PUT', `${CAMPAIGNS}/${id}`, { action: 'pause' });
		expect(sandbox.pendingCallbacks).toBe(1); // end_at
		await settled(sandbox, paths);
		expect(arrivals(paths)).toEqual(['campaign Completed']);
		expect(rx.json<CampaignCallback>(paths.status)[0].stats).toEqual({ created: 2, completed: 0, failed: 2, pending: 0 });
	});

	it('a campaign given callbacks after its start goes on its timeline from then', async () => {
		const numbers = ['+919845000001', '+919845000002', '+919845000003'];
		const created = await api<Created>('POST', CAMPAIGNS, campaign({ from: numbers.join(',') }));
		const id = created.body.response[0].data.id as string;
		expect(sandbox.pendingCallbacks).toBe(0); // no callback URL: only read, never posted
		const { paths, body } = hooks();
		const updated = await api<One<Campaign>>('PUT', `${CAMPAIGNS}/${id}`, body);
		expect(updated.status).toBe(200);
		const called = numbers.length - updated.body.response.data.stats.pending;
		await settled(sandbox, paths);
		expect(arrivals(paths)).toEqual([...numbers.slice(called).flatMap((n) => [`call ${n} completed`, `schedule ${n} 1`]), 'campaign Completed']);
	});

	it('delete, reset and stop cancel what is pending: nothing is posted afterwards', async () => {
		const { sb: slow, at: slowOrigin } = await startSandbox(0.05); // 3 s a number
		const { paths, body } = hooks();
		const first = await call<Created>(slowOrigin, 'POST', CAMPAIGNS, campaign(body));
		expect(slow.pendingCallbacks).toBe(1);
		expect((await call(slowOrigin, 'DELETE', `${CAMPAIGNS}/${first.body.response[0].data.id}`)).status).toBe(200);
		expect(slow.pendingCallbacks).toBe(0);

		await call(slowOrigin, 'POST', CAMPAIGNS, campaign(body));
		await call(slowOrigin, 'POST', CAMPAIGNS, campaign(body));
		expect(slow.pendingCallbacks).toBe(2);
		slow.reset();
		expect(slow.pendingCallbacks).toBe(0);

		await call(slowOrigin, 'POST', CAMPAIGNS, campaign(body));
		expect(slow.pendingCallbacks).toBe(1);
		await slow.stop();
		expect(slow.pendingCallbacks).toBe(0);
		expect(slow.callbacks()).toEqual([]);
		expect(rx.received.filter((r) => Object.values(paths).includes(r.pathname))).toEqual([]);
	});

	it('reset while callbacks are queued drops them unposted', async () => {
		const { sb: quick, at: quickOrigin } = await startSandbox(0);
		const { paths, body } = hooks();
		rx.on(paths.call, () => 'hang'); // the first call's callback waits for its acknowledgement
		await call(quickOrigin, 'POST', CAMPAIGNS, campaign(body));
		await quick.waitForCallbacks(() => rx.at(paths.call).length === 1, budget(15_000));
		expect(quick.pendingCallbacks).toBeGreaterThan(1); // the request in flight and the callbacks behind it
		quick.reset();
		expect(quick.pendingCallbacks).toBe(0);
		expect(quick.callbacks()).toEqual([]);
		expect(rx.at(paths.schedule)).toEqual([]);
	});
});

describe('lists', () => {
	let sandbox: ExotelSandbox;
	let origin: string;
	const api = <B = unknown>(method: string, path: string, body?: unknown) => call<B>(origin, method, path, body);

	beforeAll(async () => {
		sandbox = new ExotelSandbox({ timeScale: 0 });
		origin = await sandbox.start();
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(() => sandbox.reset());

	it('pages lists with metadata, searches by name and sorts', async () => {
		const page = await api<Many<ContactList>>('GET', `${LISTS}?limit=2&sort_by=name:asc`);
		expect(page.body.metadata).toEqual({ count: 2, offset: 0, total: 4, limit: 2 });
		expect(page.body.response).toEqual([
			expect.objectContaining({ sid: 'list-big', name: 'All subscribers', contact_count: SANDBOX_BIG_LIST.size }),
			expect.objectContaining({ sid: 'list-1', name: 'Bengaluru customers', contact_count: 5 }),
		]);
		expect((await api<Many<ContactList>>('GET', `${LISTS}?name=mumbai`)).body.response.map((l: { sid: string }) => l.sid)).toEqual(['list-2']);
		expect((await api('GET', `${LISTS}?limit=0`)).status).toBe(400);
	});

	it('gets, renames (unique names), deletes', async () => {
		expect((await api<One<ContactList>>('GET', `${LISTS}/list-2`)).body.response.data).toMatchObject({ sid: 'list-2', name: 'Mumbai leads', contact_count: 3 });
		expect((await api<One<ContactList>>('PUT', `${LISTS}/list-2`, { name: 'Pune leads' })).body.response.data.name).toBe('Pune leads');
		const clash = await api('PUT', `${LISTS}/list-2`, { name: 'bengaluru customers' });
		expect(clash.status).toBe(400);
		expect(description(clash)).toMatch(/already used by list 'list-1'/);
		expect((await api('PUT', `${LISTS}/list-404`, { name: 'X' })).status).toBe(404);
		expect((await api('DELETE', `${LISTS}/list-3`)).status).toBe(200);
		expect((await api('GET', `${LISTS}/list-3`)).status).toBe(404);
	});

	it('bulk rename answers 200 when all succeed and 207 with an entry per list when some fail', async () => {
		const ok = await api('PUT', LISTS, { lists: [{ sid: 'list-1', name: 'One' }, { sid: 'list-2', name: 'Two' }] });
		expect(ok.status).toBe(200);
		const partial = await api<Many<{ code: number; status: string; error_data: { description: string } }>>('PUT', LISTS, {
			lists: [
				{ sid: 'list-1', name: 'Uno' },
				{ sid: 'list-404', name: 'Nobody' },
				{ sid: 'list-3', name: 'Two' },
			],
		});
		expect(partial.status).toBe(207);
		expect(partial.body.metadata).toEqual({ total: 3, success: 1, failed: 2 });
		expect(partial.body.response.map((e: { code: number; status: string }) => [e.code, e.status])).toEqual([
			[200, 'success'],
			[404, 'failure'],
			[400, 'failure'],
		]);
		expect(partial.body.response[2].error_data.description).toMatch(/'Two' is already used by list 'list-2'/);
		expect((await api('PUT', LISTS, { lists: [] })).status).toBe(400);
		expect((await api('PUT', LISTS, { lists: Array.from({ length: 5001 }, (_, i) => ({ sid: `l${i}`, name: `n${i}` })) })).status).toBe(400);
	});

	it('pages contacts; removing a contact from a list keeps the contact and its other lists', async () => {
		const page = await api<Many<unknown>>('GET', `${LISTS}/list-big/contacts?offset=1200&limit=500`);
		expect(page.body.metadata).toEqual({ count: 3, offset: 1200, total: SANDBOX_BIG_LIST.size, limit: 500 });
		expect((await api<Many<unknown>>('GET', `${LISTS}/list-1/contacts`)).body.response[0]).toEqual({
			sid: 'contact-1',
			phone_number: '+919845000001',
			first_name: 'Asha',
			last_name: 'Rao',
			email: 'asha@acme.example',
			company: 'Acme',
			tag: 'gold',
			custom_field_1: null,
			date_created: expect.any(String),
			date_updated: expect.any(String),
		});
		const removed = await api<One<unknown>>('DELETE', `${LISTS}/list-1/contacts/contact-1`);
		expect(removed.body.response.data).toEqual({ list_sid: 'list-1', contact_sid: 'contact-1', removed: true });
		expect((await api<One<ContactList>>('GET', `${LISTS}/list-1`)).body.response.data.contact_count).toBe(4);
		const other = (await api<Many<{ sid: string }>>('GET', `${LISTS}/list-2/contacts`)).body.response.map((c: { sid: string }) => c.sid);
		expect(other).toContain('contact-1');
		expect((await api('DELETE', `${LISTS}/list-1/contacts/contact-1`)).status).toBe(404);
	});

	it('a completed upload adds its contacts to list_id; duplicate_action decides what an existing number does', async () => {
		const upload = async (csv: string, duplicateAction: string) => {
			const form = new FormData();
			form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
			form.append('list_id', 'list-1');
			form.append('duplicate_action', duplicateAction);
			const res = await call<One<{ upload_id: string }>>(origin, 'POST', UPLOAD, form, BEARER);
			expect(res.status).toBe(202);
			return (await call<One<unknown>>(origin, 'GET', `${UPLOAD}/${res.body.response.data.upload_id}`)).body.response.data;
		};
		const skipped = await upload('phone_number,first_name\n+919845000002,Ravi again\n+919845000099,New\n', 'skip');
		expect(skipped).toMatchObject({ status: 'completed', successful: 1, failed: 0, duplicates_skipped: 1 });
		const updated = await upload('phone_number,first_name,tag\n+919845000002,Ravindra,platinum\n', 'update');
		expect(updated).toMatchObject({ successful: 1, duplicates_skipped: 0 });
		const again = await upload('phone_number\n+919845000003\n', 'create_new');
		expect(again).toMatchObject({ successful: 1 });
		const contacts = (await api<Many<{ phone_number: string }>>('GET', `${LISTS}/list-1/contacts?limit=50`)).body.response;
		expect(contacts.map((c: { phone_number: string }) => c.phone_number)).toEqual([
			'+919845000001',
			'+919845000002',
			'+919845000003',
			'+919845000097',
			'+919845000005',
			'+919845000099',
			'+919845000003',
		]);
		expect(contacts[1]).toMatchObject({ first_name: 'Ravindra', last_name: 'Kumar', tag: 'platinum' });
	});

	it('refuses an unknown list_id and a header with a repeated column', async () => {
		const form = (csv: string, listId?: string) => {
			const data = new FormData();
			data.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
			if (listId) data.append('list_id', listId);
			return data;
		};
		const unknown = await call(origin, 'POST', UPLOAD, form('phone_number\n+919845000001\n', 'list-404'), BEARER);
		expect(unknown.status).toBe(400);
		expect(description(unknown)).toMatch(/list_id 'list-404' does not exist/);
		const repeated = await call(origin, 'POST', UPLOAD, form('phone_number,phone_number\n+919845000001,+919845000002\n'), BEARER);
		expect(repeated.status).toBe(400);
		expect(description(repeated)).toMatch(/phone_number appears twice/);
	});

	it('a file over 10 MB is a 413', async () => {
		const big = `phone_number\n${'+919845000001\n'.repeat(Math.ceil((10 * 1024 * 1024 + 1) / 14))}`;
		const data = new FormData();
		data.append('file', new Blob([big], { type: 'text/csv' }), 'contacts.csv');
		expect((await call(origin, 'POST', UPLOAD, data, BEARER)).status).toBe(413);
	});
});
