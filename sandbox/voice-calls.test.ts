/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local HTTP receivers and waits (http, net, setTimeout); never shipped */
/**
 * Voice routes of the sandbox: Calls/connect (with its status callbacks), one call, the bulk call
 * query and its filters and cursors, management-API call details (shapes A and B), voice logs and
 * their signed recording URLs, management-API users, and device status for those users.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { SANDBOX_ACCOUNT } from './fixtures';
import { CALL_TIMING } from './handlers/callConnect';
import { recordingSignature, SANDBOX_CALL_CUSTOMERS, SANDBOX_SEEDED_CALLS, SANDBOX_VIRTUAL_NUMBERS, seededCallSid } from './handlers/calls';
import { recordingBytes } from './handlers/voiceLogs';
import { SANDBOX_USER_COUNT, userOfficePhone, userPhone } from './handlers/users';
import { call as sandboxCall, type Answer, type CallOptions } from './client';
import { ExotelSandbox } from './server';
import { budget } from './timing';

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const BASIC = `Basic ${Buffer.from(`${A.apiKey}:${A.apiToken}`).toString('base64')}`;
const BEARER = `Bearer ${A.bearerToken}`;
const CONNECT = `/v1/Accounts/${SID}/Calls/connect`;
const CALLS = `/v1/Accounts/${SID}/Calls.json`;
const CALL = (sid: string) => `/v1/Accounts/${SID}/Calls/${sid}.json`;
const CCM_CALL = (sid: string) => `/ccm/v2/accounts/${SID}/calls/${sid}`;
const VOICE_LOG = (sid: string) => `/v3/accounts/${SID}/calls/${sid}/voice-logs`;
const USERS = `/ccm/v2/accounts/${SID}/users`;
const DEVICES = (user: string) => `/integrations/v2/integrations/cust-1/apps/app-1/users/${user}/devices`;
const FLOW = `http://my.exotel.com/${SID}/flowml/start_voice/926`;
const V1_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const HEX32 = /^[0-9a-f]{32}$/;
/** Real ms per simulated ms: a completed placed call answers at 5 ms and ends at 35 ms. */
const SCALE = 0.001;

const CALL_FIELDS = [
	'Sid',
	'ParentCallSid',
	'DateCreated',
	'DateUpdated',
	'AccountSid',
	'To',
	'From',
	'PhoneNumberSid',
	'Status',
	'StartTime',
	'EndTime',
	'Duration',
	'Price',
	'Direction',
	'AnsweredBy',
	'RecordingUrl',
];

// ---------------------------------------------------------------- the answers, as the tests read them

/** A v1 call (To is null in a placed call's first answer; Details only with details=true). */
interface V1Call {
	Sid: string;
	DateCreated: string;
	StartTime: string;
	EndTime: string | null;
	To: string | null;
	From: string;
	PhoneNumberSid: string;
	Status: string;
	Duration: string | null;
	Price: string | null;
	Direction: string;
	RecordingUrl: string | null;
	Uri?: string;
	Details?: {
		ConversationDuration: number;
		Leg1Status: string;
		Leg2Status: string | null;
		Legs: Array<{ Leg: { Id: number; OnCallDuration: number } }>;
	};
}

/** One call: Calls/connect and Calls/<sid>.json. */
interface CallAnswer {
	Call: V1Call;
}

/** A page of the bulk call query. */
interface CallPage {
	Metadata: { Total: number; PageSize: number; FirstPageUri: string; PrevPageUri: string | null; NextPageUri: string | null };
	Calls: V1Call[];
}

/** A v1 error. */
interface V1Error {
	RestException: { Status: number; Message: string };
}

/** A v2 or v3 (management API) failure. */
interface V2Failure {
	response: { code: number; status: string; error_data: { code: number; description: string } };
}

/** The call details of the management API: shape A, or shape B (sid, state, status). */
interface CcmCall {
	response: { call_details: Record<string, unknown> & { sid?: string; status?: string; call_status?: string } };
}

/** A call's voice log. */
interface VoiceLog {
	response: { voice_log: { recording_url: string; expires_at: string } };
}

/** A management API user, with the fields asked for. */
interface CcmUser {
	id: string;
	email: string;
	devices?: Array<{ contact_uri: string }>;
	active_call?: { call_sid: string } | null;
	last_login?: string;
}

/** A page of management API users. */
interface UserPage {
	metadata: { total: number; count: number; offset: number; limit: number };
	response: Array<{ code: number; status: string; data: CcmUser }>;
}

let sandbox: ExotelSandbox;
let origin: string;

async function call<B = unknown>(method: string, path: string, options: CallOptions = {}, at = origin): Promise<Answer<B>> {
	return await sandboxCall<B>(at, method, path, options);
}

const get = <B = unknown>(path: string, auth = BASIC, at = origin) => call<B>('GET', path, { headers: { authorization: auth } }, at);
const connect = <B = CallAnswer>(form: Array<[string, string]>, at = origin) => call<B>('POST', CONNECT, { form, headers: { authorization: BASIC } }, at);
const query = <B = CallPage>(params: Record<string, string>) => get<B>(`${CALLS}?${new URLSearchParams(params).toString()}`);

/** Every call, following NextPageUri with pages of 100. */
async function allCalls(params: Record<string, string> = {}): Promise<{ calls: V1Call[]; pages: CallPage[] }> {
	const pages: CallPage[] = [];
	let res = await query({ PageSize: '100', ...params });
	pages.push(res.body);
	while (res.body.Metadata.NextPageUri) {
		res = await get<CallPage>(res.body.Metadata.NextPageUri);
		expect(res.status).toBe(200);
		pages.push(res.body);
	}
	return { calls: pages.flatMap((page) => page.Calls), pages };
}

// ---------------------------------------------------------------- a receiver on 127.0.0.1

class Receiver {
	readonly received: Array<{ path: string; contentType?: string; text: string; pairs: Array<[string, string]> }> = [];

	private server!: http.Server;

	origin = '';

	async start(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				this.received.push({ path: req.url ?? '/', contentType: req.headers['content-type'], text, pairs: [...new URLSearchParams(text)] });
				res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
				res.end('ok');
			});
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

let receiver: Receiver;

beforeAll(async () => {
	sandbox = new ExotelSandbox({ timeScale: SCALE });
	origin = await sandbox.start();
	receiver = new Receiver();
	await receiver.start();
});

afterAll(async () => {
	await sandbox.stop();
	await receiver.stop();
});

beforeEach(() => {
	sandbox.reset();
	receiver.received.length = 0;
});

const waitFor = async (predicate: () => boolean, ms = 2000) => {
	const deadline = Date.now() + budget(ms);
	while (!predicate()) {
		if (Date.now() > deadline) throw new Error('timed out');
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
};

// ---------------------------------------------------------------- connect

describe('POST Calls/connect', () => {
	const base: Array<[string, string]> = [
		['From', '+919876543210'],
		['CallerId', '+918047112233'],
		['Url', FLOW],
	];

	it('answers every v1 Call field, in-progress, To null, with Uri, and stores the call', async () => {
		const res = await connect([...base, ['CallType', 'trans'], ['TimeLimit', '600'], ['TimeOut', '20'], ['CustomField', 'order-7']]);
		expect(res.status).toBe(200);
		const c = res.body.Call;
		expect(Object.keys(c)).toEqual([...CALL_FIELDS, 'Uri']);
		expect(c).toMatchObject({
			Sid: expect.stringMatching(HEX32),
			ParentCallSid: null,
			DateCreated: expect.stringMatching(V1_DATE),
			AccountSid: SID,
			To: null,
			From: '+919876543210',
			PhoneNumberSid: '+918047112233',
			Status: 'in-progress',
			EndTime: null,
			Duration: null,
			Price: null,
			Direction: 'outbound-api',
			RecordingUrl: null,
			Uri: `/v1/Accounts/${SID}/Calls.json/${c.Sid}`,
		});
		expect(c.StartTime).toBe(c.DateCreated);
		const stored = await get<CallAnswer>(`${CALL(c.Sid)}?details=true`);
		expect(stored.status).toBe(200);
		expect(stored.body.Call.Sid).toBe(c.Sid);
		expect(stored.body.Call.Uri).toBeUndefined();
	});

	it.each([
		['no From', base.filter(([k]) => k !== 'From'), /Missing parameter From/],
		['no CallerId', base.filter(([k]) => k !== 'CallerId'), /Missing parameter CallerId/],
		['no Url', base.filter(([k]) => k !== 'Url'), /Missing parameter Url/],
		['a bad From', [['From', 'abc'], ...base.slice(1)], /From is not a valid phone number/],
		['a relative Url', [...base.slice(0, 2), ['Url', '/flowml/start_voice/1']], /Url must be an absolute http\(s\) URL/],
		['a Url that is no flow', [...base.slice(0, 2), ['Url', 'https://acme.example/ivr']], /Url must be a flow URL/],
		['a flow of another account', [...base.slice(0, 2), ['Url', 'http://my.exotel.com/other/flowml/start_voice/1']], /Url names account 'other'/],
		['CallType promo', [...base, ['CallType', 'promo']], /CallType must be 'trans'/],
		['TimeLimit 14401', [...base, ['TimeLimit', '14401']], /TimeLimit must be an integer from 1 to 14400/],
		['TimeLimit 0', [...base, ['TimeLimit', '0']], /TimeLimit must be an integer from 1 to 14400/],
		['TimeOut 1.5', [...base, ['TimeOut', '1.5']], /TimeOut must be an integer/],
		['a relative StatusCallback', [...base, ['StatusCallback', '/hook']], /StatusCallback must be an absolute http\(s\) URL/],
		['an unknown event', [...base, ['StatusCallbackEvents[]', 'ringing']], /StatusCallbackEvents values must be terminal or answered \(got 'ringing'\)/],
		['From twice', [...base, ['From', '+919876543211']], /given more than once/],
	] as Array<[string, Array<[string, string]>, RegExp]>)('400 RestException for %s', async (_name, form, message) => {
		const res = await connect<V1Error>(form);
		expect(res.status).toBe(400);
		expect(res.body.RestException).toMatchObject({ Status: 400, Message: expect.stringMatching(message) });
		expect((await query({ PageSize: '1' })).body.Metadata.Total).toBe(SANDBOX_SEEDED_CALLS);
	});

	it('accepts TimeLimit 14400 exactly, and refuses a JSON body', async () => {
		expect((await connect([...base, ['TimeLimit', '14400']])).status).toBe(200);
		const asJson = await call<V1Error>('POST', CONNECT, { raw: JSON.stringify({ From: '+919876543210' }), headers: { authorization: BASIC, 'content-type': 'application/json' } });
		expect(asJson.status).toBe(400);
		expect(asJson.body.RestException.Message).toMatch(/x-www-form-urlencoded/);
	});

	it('needs basic auth', async () => {
		const res = await call<V1Error>('POST', CONNECT, { form: base });
		expect(res.status).toBe(401);
		expect(res.body.RestException.Status).toBe(401);
	});

	it('posts answered then terminal, form-encoded, with the spec’s parameters, Legs[0][...] keys and CustomField', async () => {
		const res = await connect([
			...base,
			['StatusCallback', `${receiver.origin}/voice?x=1`],
			['StatusCallbackEvents[]', 'terminal'],
			['StatusCallbackEvents[]', 'answered'],
			['CustomField', 'ticket-42'],
		]);
		const sid = res.body.Call.Sid;
		// The dispatcher logs an attempt once it has the answer, so after the receiver has it.
		await sandbox.waitForCallbacks((log) => log.filter((a) => a.kind === 'call-status').length >= 2);
		const [answered, terminal] = receiver.received;
		expect(answered.path).toBe('/voice?x=1');
		expect(answered.contentType).toBe('application/x-www-form-urlencoded');
		expect(answered.pairs.map(([k]) => k)).toEqual([
			'CallSid', 'DateUpdated', 'Status', 'EventType', 'DateCreated', 'To', 'From', 'PhoneNumberSid', 'StartTime', 'EndTime',
			'ConversationDuration', 'Direction', 'CustomField', 'Legs[0][OnCallDuration]', 'Legs[0][Status]', 'Legs[0][AnsweredBy]',
		]);
		expect(Object.fromEntries(answered.pairs)).toMatchObject({
			CallSid: sid,
			Status: 'in-progress',
			EventType: 'answered',
			To: '',
			From: '+919876543210',
			PhoneNumberSid: '+918047112233',
			EndTime: '',
			ConversationDuration: '0',
			Direction: 'outbound-api',
			CustomField: 'ticket-42',
			'Legs[0][Status]': 'in-progress',
			'Legs[0][AnsweredBy]': 'NA',
		});
		const t = Object.fromEntries(terminal.pairs);
		expect(terminal.pairs.map(([k]) => k)).toEqual([
			'CallSid', 'DateUpdated', 'Status', 'RecordingUrl', 'EventType', 'DateCreated', 'To', 'From', 'PhoneNumberSid', 'StartTime', 'EndTime',
			'ConversationDuration', 'Direction', 'CustomField', 'Legs[0][OnCallDuration]', 'Legs[0][Status]', 'Legs[0][AnsweredBy]',
		]);
		expect(t).toMatchObject({
			CallSid: sid,
			Status: 'completed',
			EventType: 'terminal',
			ConversationDuration: String(CALL_TIMING.talkS),
			CustomField: 'ticket-42',
			'Legs[0][OnCallDuration]': String(CALL_TIMING.talkS),
			'Legs[0][Status]': 'completed',
			'Legs[0][AnsweredBy]': 'NA',
		});
		expect(t.RecordingUrl).toMatch(new RegExp(`^${origin}/__recordings/${sid}\\.mp3\\?channel=single&expires=\\d+&sig=[0-9a-f]{64}$`));
		expect(t.EndTime).toMatch(V1_DATE);
		expect(sandbox.callbacks({ kind: 'call-status', messageSid: sid }).map((a) => [a.outcome, a.status])).toEqual([
			['delivered', 200],
			['delivered', 200],
		]);
		const after = (await get<CallAnswer>(`${CALL(sid)}?details=true`)).body.Call;
		expect(after).toMatchObject({ Status: 'completed', Duration: '35', Price: '0.50', RecordingUrl: expect.stringContaining('/__recordings/') });
		expect(after.Details).toEqual({ ConversationDuration: 30, Leg1Status: 'completed', Leg2Status: null, Legs: [{ Leg: { Id: 1, OnCallDuration: 30 } }] });
	});

	it('posts only terminal by default, and TimeLimit caps the conversation', async () => {
		await connect([...base, ['TimeLimit', '10'], ['StatusCallback', `${receiver.origin}/t`]]);
		await waitFor(() => sandbox.pendingCallbacks === 0 && receiver.received.length >= 1);
		expect(receiver.received).toHaveLength(1);
		const t = Object.fromEntries(receiver.received[0].pairs);
		expect([t.EventType, t.Status, t.ConversationDuration, t.CustomField]).toEqual(['terminal', 'completed', '10', undefined]);
	});

	it.each([
		['0011', 'no-answer', '20'],
		['0022', 'busy', String(CALL_TIMING.busyAfterS)],
		['0033', 'failed', String(CALL_TIMING.failedAfterS)],
	])('From ending %s ends %s, without an answered event or a recording', async (suffix, status, duration) => {
		const res = await connect([
			['From', `+91987650${suffix}`],
			...base.slice(1),
			['TimeOut', '20'],
			['StatusCallback', `${receiver.origin}/s`],
			['StatusCallbackEvents[]', 'answered'],
			['StatusCallbackEvents[]', 'terminal'],
		]);
		await waitFor(() => sandbox.pendingCallbacks === 0 && receiver.received.length >= 1);
		expect(receiver.received).toHaveLength(1);
		const t = Object.fromEntries(receiver.received[0].pairs);
		expect([t.EventType, t.Status, t.RecordingUrl, t.ConversationDuration, t['Legs[0][Status]']]).toEqual(['terminal', status, undefined, '0', status]);
		const after = (await get<CallAnswer>(CALL(res.body.Call.Sid))).body.Call;
		expect([after.Status, after.Duration, after.Price, after.RecordingUrl]).toEqual([status, duration, '0.00', null]);
	});

	it('From ending 0044 fails at once, and its terminal callback is posted and answered before the connect is', async () => {
		const res = await connect([['From', '+919876500044'], ...base.slice(1), ['StatusCallback', `${receiver.origin}/race`]]);
		// no waiting: the callback was received before the connect's answer came back
		expect(receiver.received.map((r) => r.path)).toEqual(['/race']);
		const t = Object.fromEntries(receiver.received[0].pairs);
		expect([t.CallSid, t.EventType, t.Status]).toEqual([res.body.Call.Sid, 'terminal', 'failed']);
		expect(res.body.Call.Status).toBe('in-progress');
		const after = (await get<CallAnswer>(CALL(res.body.Call.Sid))).body.Call;
		expect([after.Status, after.Duration]).toEqual(['failed', '0']);
	});

	it('From ending 0055 is completed as usual, but its status callbacks are lost', async () => {
		const res = await connect([['From', '+919876500055'], ...base.slice(1), ['StatusCallback', `${receiver.origin}/lost`], ['StatusCallbackEvents[]', 'answered'], ['StatusCallbackEvents[]', 'terminal']]);
		const sid = res.body.Call.Sid;
		for (const deadline = Date.now() + budget(2000); (await get<CallAnswer>(CALL(sid))).body.Call.Status !== 'completed'; ) {
			if (Date.now() > deadline) throw new Error('the call did not end');
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		expect(sandbox.pendingCallbacks).toBe(0);
		expect(sandbox.callbacks({ messageSid: sid })).toEqual([]);
		expect(receiver.received).toEqual([]);
	});

	it('a call status callback not answered 200 is not posted again (nothing promises call callbacks again)', async () => {
		const refusing = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => res.writeHead(409, { connection: 'close' }).end('running already'));
		});
		await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', () => resolve()));
		try {
			const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/refused`;
			const sid = (await connect([['From', '+919876500033'], ...base.slice(1), ['StatusCallback', url]])).body.Call.Sid;
			await waitFor(() => sandbox.callbacks({ kind: 'call-status', messageSid: sid }).length === 1);
			expect(sandbox.callbacks({ kind: 'call-status', messageSid: sid })).toEqual([expect.objectContaining({ status: 409, outcome: 'failed', attempt: 1 })]);
			expect(sandbox.callbacks({ kind: 'call-status', messageSid: sid })[0].nextAttemptInMs).toBeUndefined();
		} finally {
			refusing.closeAllConnections();
			await new Promise<void>((resolve) => refusing.close(() => resolve()));
		}
	});

	it('never posts to a non-loopback StatusCallback', async () => {
		const res = await connect([...base, ['StatusCallback', 'https://example.com/webhook/voice']]);
		await waitFor(() => sandbox.callbacks({ kind: 'call-status' }).length === 1);
		expect(sandbox.callbacks({ kind: 'call-status' })[0]).toMatchObject({ outcome: 'skipped-non-loopback', status: 0, messageSid: res.body.Call.Sid });
	});

	it('a placed call reads in-progress until its simulated end (timeScale 1), everywhere', async () => {
		const slow = new ExotelSandbox({ timeScale: 1 });
		const at = await slow.start();
		try {
			const sid = (await connect([...base, ['StatusCallback', `${receiver.origin}/slow`]], at)).body.Call.Sid;
			const v1 = (await get<CallAnswer>(`${CALL(sid)}?details=true`, BASIC, at)).body.Call;
			expect([v1.Status, v1.EndTime, v1.Duration]).toEqual(['in-progress', null, null]);
			expect(v1.Details).toEqual({ ConversationDuration: 0, Leg1Status: 'in-progress', Leg2Status: null, Legs: [{ Leg: { Id: 1, OnCallDuration: 0 } }] });
			const details = (await get<CcmCall>(CCM_CALL(sid), BASIC, at)).body.response.call_details;
			expect(details[sid.startsWith('b') ? 'state' : 'call_state']).toBe('active');
			const log = await get<V2Failure>(VOICE_LOG(sid), BASIC, at);
			expect(log.status).toBe(404);
			expect(log.body.response.error_data.description).toMatch(/processing/);
			expect((await get<CallPage>(`/v1/Accounts/${SID}/Calls.json?Status=completed&Sid=${sid}`, BASIC, at)).body.Calls).toEqual([]);
		} finally {
			await slow.stop();
		}
		expect(receiver.received).toHaveLength(0);
	});
});

// ---------------------------------------------------------------- one call

describe('GET Calls/<sid>.json', () => {
	it('adds Details only with details=true', async () => {
		const sid = seededCallSid(1);
		const plain = await get<CallAnswer>(CALL(sid));
		expect(plain.status).toBe(200);
		expect(Object.keys(plain.body.Call)).toEqual(CALL_FIELDS);
		const withDetails = (await get<CallAnswer>(`${CALL(sid)}?details=true`)).body.Call;
		expect(Object.keys(withDetails.Details!)).toEqual(['ConversationDuration', 'Leg1Status', 'Leg2Status', 'Legs']);
		expect(withDetails.Details).toMatchObject({
			ConversationDuration: expect.any(Number),
			Leg1Status: expect.any(String),
			Legs: expect.arrayContaining([{ Leg: { Id: 1, OnCallDuration: expect.any(Number) } }]),
		});
		expect((await get<CallAnswer>(`${CALL(sid)}?details=false`)).body.Call.Details).toBeUndefined();
		expect((await get(`${CALL(sid)}?details=yes`)).status).toBe(400);
	});

	it('a completed two-leg call: ConversationDuration is the second leg, Duration covers the ring', async () => {
		const { calls } = await allCalls({ Status: 'completed', Direction: 'inbound' });
		const c = (await get<CallAnswer>(`${CALL(calls[0].Sid)}?details=true`)).body.Call;
		const details = c.Details!;
		expect(details.Leg1Status).toBe('completed');
		expect(details.Leg2Status).toBe('completed');
		expect(details.Legs.map((l) => l.Leg.Id)).toEqual([1, 2]);
		expect(details.Legs[1].Leg.OnCallDuration).toBe(details.ConversationDuration);
		expect(Number(c.Duration)).toBeGreaterThan(details.ConversationDuration);
	});

	it('404 RestException for an unknown call, 401 without credentials', async () => {
		const res = await get(CALL('0'.repeat(32)));
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ RestException: { Status: 404, Message: expect.stringContaining('does not exist') } });
		expect((await call('GET', CALL(seededCallSid(1)))).status).toBe(401);
	});
});

// ---------------------------------------------------------------- bulk query

describe('GET Calls.json (bulk query)', () => {
	it('keeps the credential test working: PageSize=1 answers one call', async () => {
		const res = await query({ PageSize: '1' });
		expect(res.status).toBe(200);
		expect(res.body.Calls).toHaveLength(1);
		expect(res.body.Metadata).toMatchObject({ Total: SANDBOX_SEEDED_CALLS, PageSize: 1, FirstPageUri: `/v1/Accounts/${SID}/Calls.json?PageSize=1`, PrevPageUri: null });
	});

	it('pages through every seeded call with NextPageUri (100, 100, 30), newest first, each once', async () => {
		const { calls, pages } = await allCalls();
		expect(pages.map((p) => p.Calls.length)).toEqual([100, 100, 30]);
		expect(new Set(calls.map((c) => c.Sid)).size).toBe(SANDBOX_SEEDED_CALLS);
		const dates = calls.map((c) => c.DateCreated);
		expect(dates).toEqual([...dates].sort().reverse());
		expect(pages[1].Metadata.NextPageUri).toMatch(/^\/v1\/Accounts\/exotelsandbox1\/Calls\.json\?PageSize=100&After=[\w-]+$/);
		expect(pages[2].Metadata.NextPageUri).toBeNull();
		expect(pages.every((p) => p.Metadata.Total === SANDBOX_SEEDED_CALLS && p.Metadata.FirstPageUri === `/v1/Accounts/${SID}/Calls.json?PageSize=100`)).toBe(true);
		expect(Object.keys(calls[0])).toEqual(CALL_FIELDS);
		const statuses = new Set(calls.map((c) => c.Status));
		expect([...statuses].sort()).toEqual(['busy', 'completed', 'failed', 'no-answer']);
		expect(new Set(calls.map((c) => c.Direction)).size).toBe(3);
		const oldest = Date.parse(`${dates[dates.length - 1].replace(' ', 'T')}Z`);
		expect((Date.now() - oldest) / 86_400_000).toBeGreaterThan(31);
	});

	it('PrevPageUri (Before) gives back the previous page; SortBy DateCreated:asc reverses the order', async () => {
		const first = (await query({ PageSize: '40' })).body;
		const second = (await get<CallPage>(first.Metadata.NextPageUri!)).body;
		expect(second.Metadata.PrevPageUri).toMatch(/PageSize=40&Before=/);
		const back = (await get<CallPage>(second.Metadata.PrevPageUri!)).body;
		expect(back.Calls.map((c) => c.Sid)).toEqual(first.Calls.map((c) => c.Sid));
		expect(back.Metadata.PrevPageUri).toBeNull();
		const { calls: desc } = await allCalls();
		const { calls: asc } = await allCalls({ SortBy: 'DateCreated:asc' });
		expect(asc.map((c) => c.Sid)).toEqual(desc.map((c) => c.Sid).reverse());
	});

	it('keeps the other parameters in the page URIs', async () => {
		const res = (await query({ Status: 'completed', PageSize: '10', Direction: 'inbound' })).body;
		expect(res.Metadata.FirstPageUri).toBe(`/v1/Accounts/${SID}/Calls.json?Status=completed&PageSize=10&Direction=inbound`);
		expect(res.Metadata.NextPageUri).toMatch(/^\/v1\/Accounts\/exotelsandbox1\/Calls\.json\?Status=completed&PageSize=10&Direction=inbound&After=/);
	});

	it('filters: every one as the spec writes it', async () => {
		const { calls: all } = await allCalls();
		const check = async (params: Record<string, string>, keep: (c: V1Call) => boolean) => {
			const { calls } = await allCalls(params);
			const expected = all.filter(keep).map((c) => c.Sid);
			expect(expected.length).toBeGreaterThan(0);
			expect(calls.map((c) => c.Sid)).toEqual(expected);
		};
		const sids = [all[3].Sid, all[150].Sid, all[229].Sid];
		await check({ Sid: sids.join(',') }, (c) => sids.includes(c.Sid));
		const lo = all[40].DateCreated;
		const hi = all[10].DateCreated;
		await check({ DateCreated: `gte:${lo};lte:${hi}` }, (c) => c.DateCreated >= lo && c.DateCreated <= hi);
		const customers = SANDBOX_CALL_CUSTOMERS.slice(0, 2);
		await check({ To: customers.join(',') }, (c) => c.To !== null && customers.includes(c.To));
		await check({ From: customers.join(',') }, (c) => customers.includes(c.From));
		await check({ PhoneNumber: SANDBOX_VIRTUAL_NUMBERS[1] }, (c) => c.PhoneNumberSid === SANDBOX_VIRTUAL_NUMBERS[1]);
		for (const status of ['completed', 'failed', 'busy', 'no-answer']) await check({ Status: status }, (c) => c.Status === status);
		for (const direction of ['inbound', 'outbound-dial', 'outbound-api']) await check({ Direction: direction }, (c) => c.Direction === direction);
		await check({ Duration: 'gte:10s;lte:45s' }, (c) => Number(c.Duration) >= 10 && Number(c.Duration) <= 45);
		const exact = all.find((c) => c.Status === 'completed')!.Duration;
		await check({ Duration: `eq:${exact}s` }, (c) => c.Duration === exact);
		await check({ Price: 'gte:1.00;lte:2.50' }, (c) => Number(c.Price) >= 1 && Number(c.Price) <= 2.5);
		await check({ Status: 'completed', Direction: 'outbound-api', Duration: 'gte:100s' }, (c) => c.Status === 'completed' && c.Direction === 'outbound-api' && Number(c.Duration) >= 100);
	});

	it('RecordingUrlValidity sets the expiry of the pre-signed recording URLs (5 to 60 minutes, default 60)', async () => {
		const expiryOf = (calls: V1Call[]) => Number(new URL(calls.find((c) => c.RecordingUrl)!.RecordingUrl!).searchParams.get('expires'));
		const now = Math.floor(Date.now() / 1000);
		const five = expiryOf((await query({ RecordingUrlValidity: '5', Status: 'completed' })).body.Calls);
		expect(five - now).toBeGreaterThanOrEqual(299);
		expect(five - now).toBeLessThanOrEqual(302);
		const dflt = expiryOf((await query({ Status: 'completed' })).body.Calls);
		expect(dflt - now).toBeGreaterThanOrEqual(3599);
		expect(dflt - now).toBeLessThanOrEqual(3602);
	});

	it.each([
		['Sid with 101 ids', { Sid: Array.from({ length: 101 }, (_, i) => seededCallSid(i)).join(',') }, /Sid has 101 call ids; at most 100/],
		['To with 6 numbers', { To: SANDBOX_CALL_CUSTOMERS.slice(0, 6).join(',') }, /To has 6 numbers; at most 5/],
		['From with 6 numbers', { From: SANDBOX_CALL_CUSTOMERS.slice(0, 6).join(',') }, /From has 6 numbers; at most 5/],
		['PhoneNumber with 6 numbers', { PhoneNumber: SANDBOX_CALL_CUSTOMERS.slice(0, 6).join(',') }, /PhoneNumber has 6 numbers; at most 5/],
		['a national To', { To: '09988700001' }, /To values must be E\.164/],
		['an unencoded +', { To: ' 919988700001' }, /encode it as %2B/],
		['Status in-progress', { Status: 'in-progress' }, /Status must be one of completed, failed, busy, no-answer/],
		['Direction outbound', { Direction: 'outbound' }, /Direction must be one of/],
		['Duration without s', { Duration: 'gte:10' }, /Duration has an invalid value '10'/],
		['Duration with =', { Duration: '>=10s' }, /Duration must look like/],
		['Price text', { Price: 'gte:cheap' }, /Price has an invalid value/],
		['DateCreated of 40 days', { DateCreated: `gte:${new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10)};lte:${new Date().toISOString().slice(0, 10)}` }, /spans 40 days; at most one month/],
		['DateCreated 7 months back', { DateCreated: `gte:${new Date(Date.now() - 210 * 86_400_000).toISOString().slice(0, 10)}` }, /more than 6 months/],
		['DateCreated backwards', { DateCreated: `gte:${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)};lte:${new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10)}` }, /ends before it starts/],
		['DateCreated not a date', { DateCreated: 'gte:yesterday' }, /DateCreated has an invalid value/],
		['PageSize 101', { PageSize: '101' }, /PageSize must be an integer from 1 to 100/],
		['SortBy Duration', { SortBy: 'Duration:asc' }, /SortBy must be DateCreated:asc or DateCreated:desc/],
		['RecordingUrlValidity 4', { RecordingUrlValidity: '4' }, /RecordingUrlValidity must be an integer from 5 to 60/],
		['RecordingUrlValidity 61', { RecordingUrlValidity: '61' }, /RecordingUrlValidity must be an integer from 5 to 60/],
		['Before and After', { Before: 'abc', After: 'abc' }, /Give Before or After, not both/],
		['a made-up cursor', { After: 'not-a-cursor' }, /After is not a cursor/],
	])('400 RestException for %s', async (_name, params, message) => {
		const res = await query<V1Error>(params as Record<string, string>);
		expect(res.status).toBe(400);
		expect(res.body.RestException).toMatchObject({ Status: 400, Message: expect.stringMatching(message) });
	});

	it('accepts the limits exactly: 100 Sids, 5 numbers, validity 60', async () => {
		const res = await query({ Sid: Array.from({ length: 100 }, (_, i) => seededCallSid(i)).join(','), To: SANDBOX_CALL_CUSTOMERS.slice(0, 5).join(','), RecordingUrlValidity: '60' });
		expect(res.status).toBe(200);
		expect(res.body.Calls.length).toBeGreaterThan(0);
		expect((await get(`${CALLS}?To=${encodeURIComponent(SANDBOX_CALL_CUSTOMERS[0])}&To=${encodeURIComponent(SANDBOX_CALL_CUSTOMERS[1])}`)).status).toBe(400);
	});

	it('lists placed calls first (newest), in-progress ones never match Status', async () => {
		const placed = (await connect([['From', '+919876543210'], ['CallerId', '+918047112233'], ['Url', FLOW]])).body.Call;
		const first = (await query({ PageSize: '1' })).body;
		expect(first.Calls[0].Sid).toBe(placed.Sid);
		expect(first.Metadata.Total).toBe(SANDBOX_SEEDED_CALLS + 1);
	});
});

// ---------------------------------------------------------------- management API call details

describe('GET {ccm}/v2/accounts/<sid>/calls/<call_sid>', () => {
	it('shape A for a sid not starting with b', async () => {
		const { calls } = await allCalls({ Status: 'completed', Direction: 'outbound-api' });
		const target = calls.find((c) => !c.Sid.startsWith('b') && c.RecordingUrl)!;
		const res = await get<CcmCall>(CCM_CALL(target.Sid));
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ request_id: expect.stringMatching(HEX32), http_code: 200, response: { code: 200, status: 'success', call_details: expect.any(Object) } });
		const d = res.body.response.call_details;
		expect(Object.keys(d)).toEqual(['call_sid', 'call_state', 'call_status', 'direction', 'virtual_number', 'from', 'to', 'start_time', 'end_time', 'duration', 'talk_time', 'recording_url', 'custom_field', 'agent_details', 'customer_details']);
		expect(d).toMatchObject({
			call_sid: target.Sid,
			call_state: 'terminal',
			call_status: 'completed',
			direction: 'outbound',
			virtual_number: target.PhoneNumberSid,
			from: target.From,
			to: target.To,
			start_time: expect.stringMatching(ISO_OFFSET),
			end_time: expect.stringMatching(ISO_OFFSET),
			duration: Number(target.Duration),
			talk_time: expect.any(Number),
			recording_url: expect.stringContaining('/__recordings/'),
			custom_field: expect.stringMatching(/^order-\d+$/),
			agent_details: { user_id: expect.stringMatching(/^user-\d+$/), name: expect.any(String), email: expect.stringContaining('@') },
			customer_details: { number: target.To },
		});
	});

	it('shape B for a sid starting with b', async () => {
		const sid = seededCallSid(0);
		expect(sid.startsWith('b')).toBe(true);
		const res = await get<CcmCall>(CCM_CALL(sid));
		expect(res.body).toEqual({ request_id: expect.stringMatching(HEX32), method: 'GET', http_code: 200, response: { call_details: expect.any(Object) } });
		const d = res.body.response.call_details;
		expect(d).toMatchObject({
			sid,
			direction: expect.stringMatching(/^(inbound|outbound-dial|outbound-api)$/),
			state: 'terminal',
			status: expect.stringMatching(/^(completed|agent_unanswered|customer_unanswered|agent_canceled|customer_no_dial|agent_no_dial)$/),
			assigned_agent_details: { user_id: expect.any(String), contact_uri: expect.stringMatching(/^\+\d+$/) },
			customer_details: { number: expect.any(String) },
			created_time: expect.stringMatching(ISO_OFFSET),
			updated_time: expect.stringMatching(ISO_OFFSET),
			total_duration: expect.any(Number),
			total_talk_time: expect.any(Number),
			recording: { available: expect.any(Boolean) },
			legs: `/v2/accounts/${SID}/calls/${sid}/legs`,
		});
	});

	it('every seeded status maps onto the shape’s own status list', async () => {
		const statusesA: string[] = [];
		const statusesB: string[] = [];
		for (let i = 0; i < 60; i++) {
			const d = (await get<CcmCall>(CCM_CALL(seededCallSid(i)))).body.response.call_details;
			if (d.sid) statusesB.push(d.status!);
			else statusesA.push(d.call_status!);
		}
		// every fifth seeded sid is answered in shape B, the others in shape A
		expect(statusesB).toHaveLength(12);
		expect(statusesA).toHaveLength(48);
		for (const s of statusesA) expect(['completed', 'agent_unanswered', 'customer_unanswered', 'agent_cancelled', 'failed']).toContain(s);
		for (const s of statusesB) expect(['completed', 'agent_unanswered', 'customer_unanswered', 'agent_canceled', 'customer_no_dial', 'agent_no_dial']).toContain(s);
		// more than one status in each shape (not all calls mapped onto one value)
		expect(new Set(statusesA).size).toBeGreaterThan(1);
		expect(new Set(statusesB).size).toBeGreaterThan(1);
	});

	it('404 in the v2 envelope for an unknown call', async () => {
		const res = await get<V2Failure>(CCM_CALL('f'.repeat(32)));
		expect(res.status).toBe(404);
		expect(res.body.response).toMatchObject({ code: 404, status: 'failure', error_data: { code: 1004, description: expect.stringContaining('does not exist') } });
	});
});

// ---------------------------------------------------------------- voice logs and recordings

describe('GET /v3/.../voice-logs and the recording URL', () => {
	async function recordedSid(): Promise<string> {
		return (await allCalls({ Status: 'completed' })).calls.find((c) => c.RecordingUrl)!.Sid;
	}

	it.each([
		[undefined, undefined, 'mp3', 'single', 'audio/mpeg'],
		['wav', 'dual', 'wav', 'dual', 'audio/wav'],
		['mp3', 'dual', 'mp3', 'dual', 'audio/mpeg'],
	])('format %s channel %s: the envelope, then the bytes without auth', async (format, channel, f, c, mime) => {
		const sid = await recordedSid();
		const params = new URLSearchParams();
		if (format) params.set('format', format);
		if (channel) params.set('channel', channel);
		const res = await get<VoiceLog>(`${VOICE_LOG(sid)}?${params.toString()}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'GET',
			http_code: 200,
			response: {
				voice_log: {
					call_sid: sid,
					recording_url: expect.stringMatching(new RegExp(`^${origin}/__recordings/${sid}\\.${f}\\?channel=${c}&expires=\\d+&sig=[0-9a-f]{64}$`)),
					recording_duration: expect.any(Number),
					recording_size_bytes: recordingBytes(sid, f as 'mp3', c as 'single').length,
					format: f,
					channel: c,
					created_at: expect.stringMatching(ISO_UTC),
					expires_at: expect.stringMatching(ISO_UTC),
				},
			},
		});
		const log = res.body.response.voice_log;
		expect(Date.parse(log.expires_at) / 1000).toBe(Number(new URL(log.recording_url).searchParams.get('expires')));
		const audio = await fetch(log.recording_url);
		expect(audio.status).toBe(200);
		expect(audio.headers.get('content-type')).toBe(mime);
		const bytes = Buffer.from(await audio.arrayBuffer());
		expect(bytes.equals(recordingBytes(sid, f as 'mp3', c as 'single'))).toBe(true);
		expect(bytes.subarray(0, 4).toString('latin1')).toBe(f === 'wav' ? 'RIFF' : 'ID3\u0004');
		const recorded = sandbox.requests({ pathIncludes: '/__recordings/' });
		expect(recorded.at(-1)).toMatchObject({ auth: { scheme: 'none', ok: true }, status: 200 });
	});

	it('403 once expired or with a wrong signature, 404 for no such recording', async () => {
		const sid = await recordedSid();
		const past = Math.floor(Date.now() / 1000) - 1;
		const expired = await fetch(`${origin}/__recordings/${sid}.mp3?channel=single&expires=${past}&sig=${recordingSignature(sid, 'mp3', 'single', past)}`);
		expect(expired.status).toBe(403);
		expect(await expired.text()).toContain('Request has expired');
		const future = past + 3600;
		const forged = await fetch(`${origin}/__recordings/${sid}.wav?channel=single&expires=${future}&sig=${recordingSignature(sid, 'mp3', 'single', future)}`);
		expect(forged.status).toBe(403);
		expect((await fetch(`${origin}/__recordings/${'0'.repeat(32)}.mp3?expires=${future}&sig=x`)).status).toBe(404);
	});

	it('404 for a call without a recording and for an unknown call; 400 for a bad format or channel; 401 without auth', async () => {
		const { calls } = await allCalls();
		const without = calls.find((c) => c.Status === 'completed' && !c.RecordingUrl) ?? calls.find((c) => c.Status === 'busy')!;
		const none = await get<V2Failure>(VOICE_LOG(without.Sid));
		expect(none.status).toBe(404);
		expect(none.body.response.error_data.description).toMatch(/has no recording/);
		expect((await get(VOICE_LOG('0'.repeat(32)))).status).toBe(404);
		const sid = await recordedSid();
		expect((await get<V2Failure>(`${VOICE_LOG(sid)}?format=ogg`)).body.response.error_data.description).toMatch(/format must be mp3 or wav/);
		expect((await get(`${VOICE_LOG(sid)}?channel=stereo`)).status).toBe(400);
		expect((await call('GET', VOICE_LOG(sid))).status).toBe(401);
	});
});

// ---------------------------------------------------------------- users

describe('GET {ccm}/v2/accounts/<sid>/users', () => {
	it('pages with offset and limit (default 0 and 20), metadata {total, count, offset, limit}, no extra fields by default', async () => {
		const res = await get<UserPage>(USERS);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ request_id: expect.stringMatching(HEX32), method: 'GET', http_code: 200, metadata: { total: SANDBOX_USER_COUNT, count: 20, offset: 0, limit: 20 } });
		expect(res.body.response).toHaveLength(20);
		expect(res.body.response[0]).toEqual({
			code: 200,
			status: 'success',
			data: {
				id: 'user-1',
				first_name: expect.any(String),
				last_name: expect.any(String),
				email: expect.stringContaining('@'),
				email_verified: expect.any(Boolean),
				role: 'user',
				date_created: expect.stringMatching(ISO_UTC),
				date_updated: expect.stringMatching(ISO_UTC),
			},
		});
		const last = (await get<UserPage>(`${USERS}?offset=100&limit=50`)).body;
		expect(last.metadata).toEqual({ total: SANDBOX_USER_COUNT, count: 20, offset: 100, limit: 50 });
		expect(last.response.map((r) => r.data.id)).toEqual(Array.from({ length: 20 }, (_, i) => `user-${101 + i}`));
	});

	it('fields adds only the fields asked for', async () => {
		const devices = (await get<UserPage>(`${USERS}?fields=devices&limit=1`)).body.response[0].data;
		expect(devices.devices).toEqual([{ id: 11, name: 'Mobile', contact_uri: userPhone(1), type: 'tel', available: true, verified: true, status: 'free' }]);
		expect('active_call' in devices || 'last_login' in devices).toBe(false);
		const all = (await get<UserPage>(`${USERS}?fields=devices,active_call,last_login&offset=14&limit=1`)).body.response[0].data;
		expect(Object.keys(all)).toEqual(['id', 'first_name', 'last_name', 'email', 'email_verified', 'role', 'active_call', 'last_login', 'date_created', 'date_updated', 'devices']);
		expect(all.active_call).toMatchObject({ call_sid: expect.stringMatching(HEX32) });
		expect(all.last_login).toMatch(ISO_UTC);
		expect((await get<UserPage>(`${USERS}?fields=active_call&limit=1`)).body.response[0].data.active_call).toBeNull();
	});

	it('filters by devices.contact_uri (any device) and by email (any case)', async () => {
		const byPhone = (await get<UserPage>(`${USERS}?devices.contact_uri=${encodeURIComponent(userPhone(7))}`)).body;
		expect(byPhone.metadata.total).toBe(1);
		expect(byPhone.response[0].data.id).toBe('user-7');
		const byOffice = (await get<UserPage>(`${USERS}?devices.contact_uri=${encodeURIComponent(userOfficePhone(8))}&fields=devices`)).body;
		expect(byOffice.response[0].data.devices!.map((d) => d.contact_uri)).toEqual([userPhone(8), userOfficePhone(8)]);
		const email = byPhone.response[0].data.email;
		const byEmail = (await get<UserPage>(`${USERS}?email=${encodeURIComponent(email.toUpperCase())}`)).body;
		expect(byEmail.response.map((r) => r.data.id)).toEqual(['user-7']);
		expect((await get(`${USERS}?email=nobody@acme.example`)).body).toMatchObject({ metadata: { total: 0, count: 0 }, response: [] });
	});

	it.each([
		['limit 51', 'limit=51', /limit must be an integer from 1 to 50/],
		['limit 0', 'limit=0', /limit must be an integer from 1 to 50/],
		['offset -1', 'offset=-1', /offset must be a non-negative integer/],
		['an unknown field', 'fields=devices,groups', /unknown field 'groups'/],
		['a contact_uri without +', 'devices.contact_uri=919876500001', /must be an E\.164 number/],
		['an unencoded +', 'devices.contact_uri=+919876500001', /encode it as %2B/],
	])('400 for %s', async (_name, qs, message) => {
		const res = await get<V2Failure>(`${USERS}?${qs}`);
		expect(res.status).toBe(400);
		expect(res.body.response.error_data.description).toMatch(message);
	});

	it('one user comes with every field; unknown → 404; no auth → 401', async () => {
		const res = await get<UserPage>(`${USERS}/user-8`);
		expect(res.status).toBe(200);
		expect(res.body.metadata).toEqual({ total: 1, count: 1, offset: 0, limit: 1 });
		expect(res.body.response).toHaveLength(1);
		expect(res.body.response[0].data).toMatchObject({ id: 'user-8', devices: expect.any(Array), active_call: null, last_login: expect.stringMatching(ISO_UTC) });
		expect((await get(`${USERS}/user-999`)).status).toBe(404);
		expect((await call('GET', `${USERS}/user-8`)).status).toBe(401);
		expect((await get(`${USERS}/user-8`, BEARER)).status).toBe(401);
	});
});

// ---------------------------------------------------------------- device status

describe('integrations device status for the management API users', () => {
	it('every user has a device status; PUT sets updated_at; both disabled → 400; bearer only', async () => {
		const read = await get(DEVICES('user-2'), BEARER);
		expect(read.body).toEqual({
			success: true,
			data: {
				user_id: 'user-2',
				devices: {
					phone: { enabled: true, number: userPhone(2) },
					sip: { enabled: true, username: expect.stringMatching(/^[a-z]+\.[a-z]+2\.sandbox$/), registered: false, last_seen: expect.stringMatching(ISO_UTC) },
				},
			},
		});
		const put = await call('PUT', DEVICES('user-2'), { raw: JSON.stringify({ sip: false }), headers: { authorization: BEARER, 'content-type': 'application/json' } });
		expect(put.body).toEqual({
			success: true,
			data: { user_id: 'user-2', devices: { phone: { enabled: true, number: userPhone(2) }, sip: { enabled: false, username: expect.any(String) } }, updated_at: expect.stringMatching(ISO_UTC) },
		});
		const both = await call<{ error: { code: string } }>('PUT', DEVICES('user-2'), { raw: JSON.stringify({ phone: false }), headers: { authorization: BEARER, 'content-type': 'application/json' } });
		expect(both.status).toBe(400);
		expect(both.body.error.code).toBe('ALL_DEVICES_DISABLED');
		expect((await get(DEVICES('user-121'), BEARER)).status).toBe(404);
		expect((await get(DEVICES('user-2'), BASIC)).status).toBe(401);
	});
});
