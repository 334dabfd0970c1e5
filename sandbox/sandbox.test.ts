/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- raw sockets and timings (net, perf_hooks, setTimeout); never shipped */
import net from 'net';
import { performance } from 'perf_hooks';

import { SANDBOX_ACCOUNT, SANDBOX_GREENVN_POOL } from './fixtures';
import { FormObject, FormShapeError, indexedEntries, nestForm } from './http';
import { basicOf, call as sandboxCall, type Answer, type CallOptions } from './client';
import { ExotelSandbox } from './server';
import type { Allocation, StoredSmsMessage } from './stored';
import type { RecordedRequest } from './types';

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const BASIC = basicOf(A.apiKey, A.apiToken);
const BEARER = `Bearer ${A.bearerToken}`;
const ALLOC = basicOf(A.allocUsername, A.allocPassword);

const SEND = `/v1/Accounts/${SID}/Sms/send`;
const BULK = `/v1/Accounts/${SID}/Sms/bulksend`;
const CALLS = `/v1/Accounts/${SID}/Calls.json`;
const GREENVN = `/alloc/v1/tenants/${SID}/greenvn`;
const DEVICES = '/integrations/v2/integrations/cust-1/apps/app-1/users';
const CMS = '/cms/configuration/hierarchyconfig/campaign';
const LOGIN = '/cc/servicerestapi/session/userLogin';
const CC_USERS = '/cc/servicerestapi/cc/contactCenterUsers';
const UPLOAD = `/ccm/v2/accounts/${SID}/contacts/upload`;

const SMS_FIELDS = [
	'Sid',
	'AccountSid',
	'From',
	'To',
	'DateCreated',
	'DateUpdated',
	'DateSent',
	'Body',
	'Direction',
	'Uri',
	'ApiVersion',
	'Price',
	'Status',
	'DetailedStatusCode',
	'DetailedStatus',
	'SmsUnits',
].sort();

// ---------------------------------------------------------------- the answers, as the tests read them

/** An entry of an SMS send's answer (a failed entry has null fields). */
type SmsEntry = { SMSMessage: Record<string, unknown> };

/** A v1 error. */
interface V1Error {
	RestException: { Status: number; Message: string; Code?: number };
}

/** A page of the bulk call query. */
interface CallPage {
	Metadata: { PageSize: number };
	Calls: unknown[];
}

/** A hierarchy campaign of the configuration lookup. */
type HierarchyCampaign = Record<string, unknown> & { contactCenterId: number; campaignContextType: string };

/** The contact center's login answer. */
interface LoginAnswer {
	sessionId: string;
	loginTime: number;
	lastLoginInfo: Record<string, unknown> & { sessionId: string };
	passwordStateDetail: unknown;
	loginProperties: unknown;
}

/** The contact center's failure. */
interface CcFailure {
	status: string;
	message: string;
}

/** The allocation envelope with the allocation. */
interface AllocSuccess {
	data: Allocation;
}

/** The allocation envelope of a refusal. */
interface AllocFailure {
	success: false;
	code: number;
	message: string;
	data: null;
}

/** The contact upload's answer (v2 envelope). */
interface UploadAnswer {
	response: { data: { upload_id: string; status: string } };
}

/** A v2 failure. */
interface V2Failure {
	response: { error_data: { description: string } };
}

let sandbox: ExotelSandbox;
let origin: string;

async function call<B = unknown>(method: string, path: string, options: CallOptions = {}, at = origin): Promise<Answer<B>> {
	return await sandboxCall<B>(at, method, path, options);
}

const sms = <B = SmsEntry[]>(form: Array<[string, string]>, auth = BASIC) => call<B>('POST', SEND, { form, headers: { authorization: auth } });
const bulk = <B = SmsEntry[]>(form: Array<[string, string]>, auth = BASIC) => call<B>('POST', BULK, { form, headers: { authorization: auth } });

async function login(extra: Record<string, unknown> = {}): Promise<Answer<LoginAnswer>> {
	return call('POST', LOGIN, {
		json: { userId: A.ccUserId, token: A.ccToken, forceLogin: true, terminalInfo: 'jest', ...extra },
	});
}

function validUser(overrides: Record<string, unknown> = {}) {
	return { userId: 'new.agent', userType: 'Agent', userName: 'New Agent', contactCenterId: 1, ...overrides };
}

function allocBody(overrides: Record<string, unknown> = {}) {
	return {
		connection_id: 'conn-1',
		aparty_numbers: ['+919800000001'],
		bparty_numbers: ['+919800000002'],
		usage: 'twoway',
		...overrides,
	};
}

const allocate = <B = AllocSuccess>(body: unknown, auth = ALLOC) => call<B>('POST', GREENVN, { json: body, headers: { authorization: auth } });

function dynamicMessages(n: number, from = 'EXOTEL'): Array<[string, string]> {
	const pairs: Array<[string, string]> = [['From', from]];
	for (let i = 0; i < n; i++) {
		pairs.push([`Messages[${i}][To]`, `+9198${String(i).padStart(8, '0')}`]);
		pairs.push([`Messages[${i}][Body]`, `Hello ${i}`]);
	}
	return pairs;
}

function csvUpload(csv: string, fields: Record<string, string> = {}, filename = 'contacts.csv'): FormData {
	const data = new FormData();
	data.append('file', new Blob([csv], { type: 'text/csv' }), filename);
	for (const [k, v] of Object.entries(fields)) data.append(k, v);
	return data;
}

beforeAll(async () => {
	sandbox = new ExotelSandbox({ port: 0 });
	origin = await sandbox.start();
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	sandbox.reset();
	sandbox.setLatency(0);
});

describe('lifecycle', () => {
	it('listens on a random loopback port and reports its origin', () => {
		expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sandbox.origin).toBe(origin);
		expect(Number(origin.split(':')[2])).toBeGreaterThan(0);
	});

	it('throws on origin before start, and stops quickly with keep-alive sockets open', async () => {
		const other = new ExotelSandbox();
		expect(() => other.origin).toThrow(/not started/);
		const at = await other.start();
		// Leave a keep-alive connection open, then stop.
		expect((await call('GET', '/__sandbox/health', {}, at)).status).toBe(200);
		const t0 = performance.now();
		await other.stop();
		// Left open, the idle socket would hold stop() until the client closed it (the server never times it out).
		expect(performance.now() - t0).toBeLessThan(5000);
		await expect(fetch(`${at}/__sandbox/health`)).rejects.toThrow();
	});

	it('leaves closing an idle keep-alive connection to the client (no timeout to race its reuse)', async () => {
		const port = Number(origin.split(':')[2]);
		const socket = net.connect(port, '127.0.0.1');
		let received = '';
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => (received += chunk));
		const answered = async (count: number) => {
			while ((received.match(/HTTP\/1\.1 200/g) ?? []).length < count) {
				if (socket.destroyed) throw new Error(`the sandbox closed the connection; it had answered:\n${received}`);
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
		};
		const request = 'GET /__sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';
		socket.write(request);
		await answered(1);
		// a Keep-Alive timeout would be the server closing the connection after that long idle
		expect(received.toLowerCase()).toContain('connection: keep-alive');
		expect(received.toLowerCase()).not.toContain('keep-alive: timeout');
		socket.write(request);
		await answered(2);
		socket.destroy();
	});
});

describe('authentication', () => {
	it('v1 paths: missing, wrong or foreign-account credentials answer 401 RestException; valid ones 200', async () => {
		const v1Unauthorized = { RestException: { Status: 401, Message: 'Authentication is required to view this page.' } };
		const cases: Array<[string, Record<string, string>, string]> = [
			['missing', {}, CALLS],
			['wrong token', { authorization: basicOf(A.apiKey, 'nope') }, CALLS],
			['wrong key', { authorization: basicOf('other', A.apiToken) }, CALLS],
			['bearer on a v1 path', { authorization: BEARER }, CALLS],
			['allocation credentials', { authorization: ALLOC }, CALLS],
			['another account in the path', { authorization: BASIC }, '/v1/Accounts/otheraccount/Calls.json'],
		];
		for (const [name, headers, path] of cases) {
			const res = await call('GET', path, { headers });
			expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 401, body: v1Unauthorized });
		}
		const ok = await call('GET', CALLS, { headers: { authorization: BASIC } });
		expect(ok.status).toBe(200);
	});

	it('records the scheme, the user name and the outcome, never the password', async () => {
		await call('GET', CALLS, { headers: { authorization: BASIC } });
		await call('GET', CALLS, { headers: { authorization: basicOf(A.apiKey, 'bad') } });
		await call('GET', CALLS, { headers: { authorization: BEARER } });
		await call('GET', CALLS);
		const auths = sandbox.requests().map((r) => r.auth);
		expect(auths).toEqual([
			{ scheme: 'basic', user: A.apiKey, ok: true },
			{ scheme: 'basic', user: A.apiKey, ok: false },
			{ scheme: 'bearer', ok: false },
			{ scheme: 'none', ok: false },
		]);
		expect(JSON.stringify(auths)).not.toContain(A.apiToken);
	});

	it('ccm contact upload accepts basic or bearer; failures use the v2 envelope', async () => {
		const csv = 'phone_number,first_name\n+919800000001,Asha\n';
		for (const authorization of [BASIC, BEARER]) {
			const res = await call('POST', UPLOAD, { raw: csvUpload(csv), headers: { authorization } });
			expect(res.status).toBe(202);
		}
		for (const headers of [{ authorization: `Bearer wrong` }, {}, { authorization: ALLOC }] as Array<Record<string, string>>) {
			const res = await call('POST', UPLOAD, { raw: csvUpload(csv), headers });
			expect(res.status).toBe(401);
			expect(res.body).toEqual({
				request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
				method: 'POST',
				http_code: 401,
				response: {
					code: 401,
					status: 'failure',
					error_data: { code: 1010, message: 'Authentication failed', description: expect.any(String) },
				},
			});
		}
		const foreign = await call('POST', `/ccm/v2/accounts/otheraccount/contacts/upload`, {
			raw: csvUpload(csv),
			headers: { authorization: BEARER },
		});
		expect(foreign.status).toBe(401);
	});

	it('integrations take only the bearer token', async () => {
		expect((await call('GET', `${DEVICES}/user-1/devices`, { headers: { authorization: BEARER } })).status).toBe(200);
		for (const headers of [{}, { authorization: BASIC }, { authorization: 'Bearer nope' }] as Array<Record<string, string>>) {
			const res = await call('GET', `${DEVICES}/user-1/devices`, { headers });
			expect(res.status).toBe(401);
			expect(res.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
		}
	});

	it('configuration lookup takes only the bearer token; failures use the cms error body', async () => {
		expect((await call('GET', `${CMS}?contactCenterId=1`, { headers: { authorization: BEARER } })).status).toBe(200);
		for (const headers of [{}, { authorization: BASIC }, { authorization: 'Bearer nope' }] as Array<Record<string, string>>) {
			const res = await call('GET', `${CMS}?contactCenterId=1`, { headers });
			expect(res.status).toBe(401);
			expect(res.body).toEqual({
				statusCode: 401,
				status: 'UNAUTHORIZED',
				errorCode: 'CONF-1002',
				errorMessage: expect.any(String),
			});
		}
	});

	it('allocation takes its own basic credentials and answers code 7 otherwise', async () => {
		const expected = { success: false, status: 401, code: 7, message: 'Authentication failed or not provided', data: null };
		for (const [auth, path] of [
			[BASIC, GREENVN],
			[basicOf(A.allocUsername, 'bad'), GREENVN],
			['', GREENVN],
			[ALLOC, `/alloc/v1/tenants/otheraccount/greenvn`],
		]) {
			const res = await call('POST', path, { json: allocBody(), headers: auth ? { authorization: auth } : {} });
			expect(res.status).toBe(401);
			expect(res.body).toEqual(expected);
		}
		expect(sandbox.allocations()).toHaveLength(0);
		expect((await allocate(allocBody())).status).toBe(200);
	});
});

describe('SMS send (single and static bulk)', () => {
	it('answers one SMSMessage with every field of the table for a single To', async () => {
		const res = await sms([
			['From', 'EXOTEL'],
			['To', '+919876543210'],
			['Body', 'Your OTP is 1234'],
		]);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(Array.isArray(res.body)).toBe(true);
		expect(res.body).toHaveLength(1);
		expect(Object.keys(res.body[0])).toEqual(['SMSMessage']);
		const m = res.body[0].SMSMessage;
		expect(Object.keys(m).sort()).toEqual(SMS_FIELDS);
		expect(m.Sid).toMatch(/^[0-9a-f]{32}$/);
		expect(m).toEqual({
			Sid: m.Sid,
			AccountSid: SID,
			From: 'EXOTEL/EXOSBX',
			To: '+919876543210',
			DateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			DateUpdated: m.DateCreated,
			DateSent: null,
			Body: 'Your OTP is 1234',
			Direction: 'outbound-api',
			Uri: `/v1/Accounts/${SID}/SMS/Messages/${m.Sid}.json`,
			ApiVersion: null,
			Price: null,
			Status: 'queued',
			DetailedStatusCode: 21010,
			DetailedStatus: 'PENDING_TO_OPERATOR',
			SmsUnits: null,
		});
		expect(Math.abs(Date.parse(`${(m.DateCreated as string).replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(5000);
	});

	it('answers 207 with a failed entry per invalid recipient, in order, and stores the accepted ones', async () => {
		const res = await sms([
			['From', '08047091001'],
			['To[]', '+919876543210'],
			['To[]', '12345'],
			['To[]', '98765 43211'],
			['Body', 'Hello'],
			['StatusCallback', 'http://127.0.0.1:9/sms-status'],
			['CustomField', 'order-42'],
			['DltEntityId', '1101'],
			['DltTemplateId', '1107'],
			['SmsType', 'transactional'],
			['EncodingType', 'plain'],
			['Priority', 'high'],
			['ShortenUrl', 'true'],
			['ShortenUrlParams[Header]', 'EXOTL'],
			['ShortenUrlParams[Tracking]', 'true'],
			['ShortenUrlParams[ClickTrackingCallbackUrl]', 'http://127.0.0.1:9/clicks'],
		]);
		expect(res.status).toBe(207);
		const entries = res.body.map((e: { SMSMessage: Record<string, unknown> }) => e.SMSMessage);
		expect(entries.map((e: Record<string, unknown>) => [e.To, e.Status, e.DetailedStatusCode])).toEqual([
			['+919876543210', 'queued', 21010],
			['12345', 'failed', 23010],
			['9876543211', 'queued', 21010],
		]);
		const failed = entries[1];
		expect(Object.keys(failed).sort()).toEqual(SMS_FIELDS);
		expect(failed).toMatchObject({
			Sid: null,
			Direction: null,
			Uri: null,
			Status: 'failed',
			DetailedStatus: 'FAILED_INVALID_DESTINATION_NUMBER',
			Body: 'Hello',
			AccountSid: SID,
		});
		const stored = sandbox.messages();
		expect(stored.map((s) => s.sid)).toEqual([entries[0].Sid, entries[2].Sid]);
		expect(stored[0]).toMatchObject({
			endpoint: 'send',
			from: '08047091001',
			to: '+919876543210',
			body: 'Hello',
			status: 'queued',
			statusCallback: 'http://127.0.0.1:9/sms-status',
			customField: 'order-42',
			dltEntityId: '1101',
			dltTemplateId: '1107',
			smsType: 'transactional',
			encodingType: 'plain',
			priority: 'high',
			shortenUrl: 'true',
			shortenUrlParams: { header: 'EXOTL', tracking: 'true', clickTrackingCallbackUrl: 'http://127.0.0.1:9/clicks' },
			requestId: sandbox.requests()[0].id,
		});
		expect(sandbox.message(entries[2].Sid as string)?.to).toBe('9876543211');
	});

	it('reads raw (unencoded) brackets and indexed To[N] as lists', async () => {
		const raw = 'From=EXOTEL&To[]=%2B919876543210&To[]=%2B919876543211&Body=Hi';
		const res = await call<SmsEntry[]>('POST', SEND, {
			raw,
			headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
		});
		expect(res.status).toBe(200);
		expect(res.body.map((e) => e.SMSMessage.To)).toEqual(['+919876543210', '+919876543211']);
		const indexed = await sms([
			['From', 'EXOTEL'],
			['To[1]', '+919876543211'],
			['To[0]', '+919876543210'],
			['Body', 'Hi'],
		]);
		expect(indexed.body.map((e) => e.SMSMessage.To)).toEqual(['+919876543210', '+919876543211']);
	});

	it('takes 100 recipients and refuses 101 with code 40406, storing nothing', async () => {
		const recipients = (n: number) => Array.from({ length: n }, (_, i): [string, string] => ['To[]', `+9198${String(i).padStart(8, '0')}`]);
		const ok = await sms([['From', 'EXOTEL'], ...recipients(100), ['Body', 'x']]);
		expect(ok.status).toBe(200);
		expect(ok.body).toHaveLength(100);
		sandbox.reset();
		const tooMany = await sms([['From', 'EXOTEL'], ...recipients(101), ['Body', 'x']]);
		expect(tooMany.status).toBe(400);
		expect(tooMany.body).toEqual({ RestException: { Status: 400, Code: 40406, Message: expect.stringContaining('101') } });
		expect(sandbox.messages()).toHaveLength(0);
	});

	it('refuses missing From, To or Body and a Body over 2000 characters (counted in code points)', async () => {
		const cases: Array<[Array<[string, string]>, RegExp]> = [
			[[['To', '+919876543210'], ['Body', 'x']], /From/],
			[[['From', 'EXOTEL'], ['Body', 'x']], /\bTo\b/],
			[[['From', 'EXOTEL'], ['To', '+919876543210']], /Body/],
			[[['From', 'EXOTEL'], ['To', '+919876543210'], ['Body', '']], /Body/],
			[[['From', 'EXOTEL'], ['To', '+919876543210'], ['Body', 'a'.repeat(2001)]], /2000/],
		];
		for (const [form, message] of cases) {
			const res = await sms<V1Error>(form);
			expect(res.status).toBe(400);
			expect(res.body.RestException.Status).toBe(400);
			expect(res.body.RestException.Message).toMatch(message);
			expect(res.body.RestException.Code).toBeUndefined();
		}
		expect((await sms([['From', 'E'], ['To', '+919876543210'], ['Body', 'a'.repeat(2000)]])).status).toBe(200);
		// 2000 emoji are 4000 UTF-16 units but 2000 characters.
		expect((await sms([['From', 'E'], ['To', '+919876543210'], ['Body', '😀'.repeat(2000)]])).status).toBe(200);
		expect((await sms([['From', 'E'], ['To', '+919876543210'], ['Body', '😀'.repeat(2001)]])).status).toBe(400);
	});

	it('validates enum values and URLs, naming the parameter', async () => {
		const base: Array<[string, string]> = [['From', 'EXOTEL'], ['To', '+919876543210'], ['Body', 'x']];
		for (const [name, value] of [
			['SmsType', 'marketing'],
			['EncodingType', 'utf8'],
			['Priority', 'urgent'],
			['ShortenUrl', 'yes'],
			['ShortenUrlParams[Tracking]', '1'],
			['StatusCallback', 'not a url'],
		]) {
			const res = await sms<V1Error>([...base, [name, value]]);
			expect(res.status).toBe(400);
			expect(res.body.RestException.Message).toContain(name);
		}
		expect((await sms([...base, ['SmsType', 'transactional_opt_in'], ['EncodingType', 'unicode'], ['Priority', 'normal']])).status).toBe(200);
	});

	it('refuses a plain key given twice, mixed To and To[], and non-form bodies', async () => {
		const twice = await sms<V1Error>([['From', 'EXOTEL'], ['To', '+919876543210'], ['To', '+919876543211'], ['Body', 'x']]);
		expect(twice.status).toBe(400);
		expect(twice.body.RestException.Message).toMatch(/To.*more than once/);
		const mixed = await sms([['From', 'EXOTEL'], ['To', '+919876543210'], ['To[]', '+919876543211'], ['Body', 'x']]);
		expect(mixed.status).toBe(400);
		const asJson = await call<V1Error>('POST', SEND, {
			json: { From: 'EXOTEL', To: '+919876543210', Body: 'x' },
			headers: { authorization: BASIC },
		});
		expect(asJson.status).toBe(400);
		expect(asJson.body.RestException.Message).toMatch(/x-www-form-urlencoded/);
		expect(sandbox.messages()).toHaveLength(0);
	});
});

describe('SMS dynamic bulk (bulksend)', () => {
	it('answers in index order whatever the pair order; the log keeps the pairs exactly as sent', async () => {
		const pairs: Array<[string, string]> = [
			['Messages[1][Body]', 'second'],
			['From', 'EXOTEL'],
			['Messages[1][To]', '+919800000002'],
			['Messages[0][To]', '+919800000001'],
			['Messages[10][To]', '+919800000010'],
			['Messages[0][Body]', 'first'],
			['Messages[10][Body]', 'eleventh'],
		];
		const res = await bulk(pairs);
		expect(res.status).toBe(200);
		expect(res.body.map((e) => e.SMSMessage.Body)).toEqual(['first', 'second', 'eleventh']);
		expect(sandbox.requests()[0].form).toEqual(pairs);
	});

	it('answers 207 with 23000, 23001, 23010 and 23072 entries next to accepted ones', async () => {
		const res = await bulk([
			['Messages[0][To]', '+919800000001'],
			['Messages[0][Body]', 'ok'],
			['Messages[0][From]', 'SENDER'],
			['Messages[1][To]', '+919800000002'],
			['Messages[1][From]', 'SENDER'],
			['Messages[2][To]', 'abc'],
			['Messages[2][Body]', 'bad number'],
			['Messages[2][From]', 'SENDER'],
			['Messages[3][To]', '+919800000004'],
			['Messages[3][Body]', 'no sender anywhere'],
			['Messages[4][To]', '+919800000005'],
			['Messages[4][Body]', 'x'.repeat(2001)],
			['Messages[4][From]', 'SENDER'],
			['Messages[5][Body]', 'no To at all'],
			['Messages[5][From]', 'SENDER'],
		]);
		expect(res.status).toBe(207);
		const entries = res.body.map((e: { SMSMessage: Record<string, unknown> }) => e.SMSMessage);
		expect(entries.map((e: Record<string, unknown>) => [e.Status, e.DetailedStatusCode, e.DetailedStatus])).toEqual([
			['queued', 21010, 'PENDING_TO_OPERATOR'],
			['failed', 23000, 'FAILED_MISSING_BODY'],
			['failed', 23010, 'FAILED_INVALID_DESTINATION_NUMBER'],
			['failed', 23072, 'FAILED_INVALID_SENDER'],
			['failed', 23001, 'FAILED_BODY_TOO_LONG'],
			['failed', 23010, 'FAILED_INVALID_DESTINATION_NUMBER'],
		]);
		expect(entries[1].Body).toBe('');
		expect(entries[5].To).toBeNull();
		for (const failed of entries.slice(1)) {
			expect(Object.keys(failed).sort()).toEqual(SMS_FIELDS);
			expect([failed.Sid, failed.Direction, failed.Uri]).toEqual([null, null, null]);
		}
		expect(entries[0].From).toBe('SENDER/EXOSBX');
		expect(sandbox.messages()).toHaveLength(1);
	});

	it('falls back to the outer From and keeps per-message and request options', async () => {
		const res = await bulk([
			['From', 'OUTER'],
			['StatusCallback', 'http://127.0.0.1:9/dlr'],
			['CustomField', 'batch-7'],
			['EncodingType', 'unicode'],
			['Priority', 'normal'],
			['DltEntityId', '1101'],
			['Messages[0][To]', '+919800000001'],
			['Messages[0][Body]', 'a'],
			['Messages[0][SmsType]', 'promotional'],
			['Messages[0][DltTemplateId]', 'T1'],
			['Messages[1][To]', '+919800000002'],
			['Messages[1][Body]', 'b'],
			['Messages[1][From]', 'OWN'],
		]);
		expect(res.status).toBe(200);
		expect(res.body.map((e) => e.SMSMessage.From)).toEqual(['OUTER/EXOSBX', 'OWN/EXOSBX']);
		const [first, second] = sandbox.messages();
		expect(first).toMatchObject({
			endpoint: 'bulksend',
			from: 'OUTER',
			smsType: 'promotional',
			dltTemplateId: 'T1',
			statusCallback: 'http://127.0.0.1:9/dlr',
			customField: 'batch-7',
			encodingType: 'unicode',
			priority: 'normal',
			dltEntityId: '1101',
		});
		expect(second).toMatchObject({ from: 'OWN', statusCallback: 'http://127.0.0.1:9/dlr', customField: 'batch-7' });
		expect(second.smsType).toBeUndefined();
	});

	it('takes 100 messages and refuses 101 with code 40400', async () => {
		const ok = await bulk(dynamicMessages(100));
		expect(ok.status).toBe(200);
		expect(ok.body).toHaveLength(100);
		sandbox.reset();
		const tooMany = await bulk(dynamicMessages(101));
		expect(tooMany.status).toBe(400);
		expect(tooMany.body).toEqual({ RestException: { Status: 400, Code: 40400, Message: expect.stringContaining('101') } });
		expect(sandbox.messages()).toHaveLength(0);
	});

	it('refuses bad enums (naming the parameter), missing or unindexed Messages', async () => {
		const badType = await bulk<V1Error>([...dynamicMessages(2), ['Messages[1][SmsType]', 'spam']]);
		expect(badType.status).toBe(400);
		expect(badType.body.RestException.Message).toContain('Messages[1][SmsType]');
		const badPriority = await bulk<V1Error>([...dynamicMessages(1), ['Priority', 'urgent']]);
		expect(badPriority.body.RestException.Message).toContain('Priority');
		const badEncoding = await bulk<V1Error>([...dynamicMessages(1), ['EncodingType', 'ascii']]);
		expect(badEncoding.body.RestException.Message).toContain('EncodingType');
		const none = await bulk<V1Error>([['From', 'EXOTEL']]);
		expect(none.status).toBe(400);
		expect(none.body.RestException.Message).toMatch(/Messages/);
		const named = await bulk([['Messages[first][To]', '+919800000001'], ['Messages[first][Body]', 'x']]);
		expect(named.status).toBe(400);
		const pushed = await bulk([['Messages[][To]', '+919800000001']]);
		expect(pushed.status).toBe(400);
		expect(sandbox.messages()).toHaveLength(0);
	});

	it('handles 10,000 messages in 100 requests quickly', async () => {
		const bodies = Array.from({ length: 100 }, (_, r) => {
			const pairs: Array<[string, string]> = [['From', 'EXOTEL'], ['StatusCallback', 'http://127.0.0.1:9/dlr']];
			for (let i = 0; i < 100; i++) {
				pairs.push([`Messages[${i}][To]`, `+9197${String(r * 100 + i).padStart(8, '0')}`]);
				pairs.push([`Messages[${i}][Body]`, `Message ${r}-${i} `.padEnd(160, 'x')]);
			}
			return new URLSearchParams(pairs).toString();
		});
		for (let batch = 0; batch < 100; batch += 10) {
			const answers = await Promise.all(
				bodies.slice(batch, batch + 10).map((body) =>
					fetch(origin + BULK, {
						method: 'POST',
						body,
						headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
					}).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown[] })),
				),
			);
			for (const a of answers) {
				expect(a.status).toBe(200);
				expect(a.body).toHaveLength(100);
			}
		}
		expect(sandbox.messages()).toHaveLength(10_000);
		expect(new Set(sandbox.messages().map((m) => m.sid)).size).toBe(10_000);
	});
});

describe('bracket-form parsing', () => {
	it('builds lists, nested objects and indexed maps, keeping order', () => {
		const form = nestForm([
			['To[]', 'a'],
			['ShortenUrlParams[Header]', 'H'],
			['To[]', 'b'],
			['Messages[1][To]', 'x'],
			['Messages[0][To]', 'y'],
			['ShortenUrlParams[Tracking]', 'true'],
			['To[]', 'c'],
		]);
		expect(form.To).toEqual(['a', 'b', 'c']);
		expect({ ...(form.ShortenUrlParams as object) }).toEqual({ Header: 'H', Tracking: 'true' });
		const messages = indexedEntries(form.Messages as FormObject);
		expect(messages?.map(([i, m]) => [i, (m as FormObject).To])).toEqual([
			[0, 'y'],
			[1, 'x'],
		]);
		expect(indexedEntries(nestForm([['M[a][To]', 'x']]).M as FormObject)).toBeUndefined();
	});

	it('rejects repeated plain keys and conflicting shapes, and keeps __proto__ as data', () => {
		expect(() => nestForm([['From', 'a'], ['From', 'b']])).toThrow(FormShapeError);
		expect(() => nestForm([['To', 'a'], ['To[]', 'b']])).toThrow(FormShapeError);
		expect(() => nestForm([['M[0][To]', 'a'], ['M[0]', 'b']])).toThrow(FormShapeError);
		const form = nestForm([['__proto__[polluted]', 'yes']]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.keys(form)).toEqual(['__proto__']);
	});
});

describe('voice: bulk call query (the rest is in voice-calls.test.ts)', () => {
	it('answers the seeded calls with metadata and honours PageSize up to 100', async () => {
		const def = await call<CallPage>('GET', CALLS, { headers: { authorization: BASIC } });
		expect(def.body.Metadata).toEqual({
			Total: 230,
			PageSize: 50,
			FirstPageUri: `/v1/Accounts/${SID}/Calls.json?PageSize=50`,
			PrevPageUri: null,
			NextPageUri: expect.stringMatching(new RegExp(`^/v1/Accounts/${SID}/Calls\\.json\\?PageSize=50&After=[\\w-]+$`)),
		});
		expect(def.body.Calls).toHaveLength(50);
		const hundred = await call<CallPage>('GET', `${CALLS}?PageSize=100`, { headers: { authorization: BASIC } });
		expect(hundred.body.Metadata.PageSize).toBe(100);
		for (const bad of ['101', '0', 'abc', '-1']) {
			const res = await call<V1Error>('GET', `${CALLS}?PageSize=${bad}`, { headers: { authorization: BASIC } });
			expect(res.status).toBe(400);
			expect(res.body.RestException.Message).toMatch(/PageSize/);
		}
	});
});

describe('configuration lookup', () => {
	it('answers two hierarchy campaigns with every field for contact center 1', async () => {
		const res = await call<HierarchyCampaign[]>('GET', `${CMS}?contactCenterId=1`, {
			headers: { authorization: BEARER, accept: 'application/json' },
		});
		expect(res.status).toBe(200);
		expect(res.body).toHaveLength(2);
		for (const c of res.body) {
			expect(Object.keys(c).sort()).toEqual(
				[
					'campaignContextId',
					'campaignContextName',
					'campaignContextType',
					'contactCenterId',
					'processId',
					'description',
					'dateAdded',
					'dateModified',
					'ref',
					'version',
				].sort(),
			);
			expect(c.contactCenterId).toBe(1);
			for (const key of ['campaignContextId', 'processId', 'ref', 'version']) expect(Number.isInteger(c[key])).toBe(true);
			for (const key of ['dateAdded', 'dateModified']) expect(Number.isNaN(Date.parse(String(c[key])))).toBe(false);
		}
		expect(res.body[0].campaignContextType).toBe('Interaction Campaign');
	});

	it('answers 400 for a missing or non-integer id and 404 CONF-1001 for an unknown one', async () => {
		for (const query of ['', '?contactCenterId=', '?contactCenterId=abc', '?contactCenterId=1.5']) {
			const res = await call('GET', CMS + query, { headers: { authorization: BEARER } });
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				statusCode: 400,
				status: 'BAD_REQUEST',
				errorCode: 'CONF-1000',
				errorMessage: expect.stringContaining('contactCenterId'),
			});
		}
		const missing = await call('GET', `${CMS}?contactCenterId=2`, { headers: { authorization: BEARER } });
		expect(missing.status).toBe(404);
		expect(missing.body).toMatchObject({ statusCode: 404, status: 'NOT_FOUND', errorCode: 'CONF-1001' });
	});
});

describe('session-based contact center', () => {
	it('logs in with every field of the login response and a fresh session id each time', async () => {
		const before = Date.now();
		const first = await login();
		expect(first.status).toBe(200);
		const b = first.body;
		expect(Object.keys(b).sort()).toEqual(
			[
				'userId',
				'terminalInfo',
				'sessionId',
				'loginTime',
				'userType',
				'contactCenterId',
				'userName',
				'lastLoginInfo',
				'loginProperties',
				'passwordStateDetail',
			].sort(),
		);
		expect(b).toMatchObject({ userId: A.ccUserId, terminalInfo: 'jest', contactCenterId: 1 });
		expect(typeof b.sessionId).toBe('string');
		expect(b.loginTime).toBeGreaterThanOrEqual(before);
		expect(Number.isInteger(b.loginTime)).toBe(true);
		expect(Object.keys(b.lastLoginInfo).sort()).toEqual(
			[
				'userId',
				'userName',
				'lastLoginTime',
				'lastLogoutTime',
				'sessionId',
				'localIp',
				'publicIp',
				'clientType',
				'clientVersion',
				'browserInfo',
			].sort(),
		);
		expect(b.passwordStateDetail).toEqual({
			passwordValid: true,
			warnUser: false,
			shouldChangePassword: false,
			reason: expect.any(String),
		});
		expect(typeof b.loginProperties).toBe('object');
		const second = await login();
		expect(second.body.sessionId).not.toBe(b.sessionId);
		expect(second.body.lastLoginInfo.sessionId).toBe(b.sessionId);
		expect(sandbox.loginCount).toBe(2);
	});

	it('refuses a wrong user id or token with 401 and does not count it', async () => {
		for (const extra of [{ token: 'wrong' }, { userId: 'someone.else' }, { token: undefined }]) {
			const res = await login(extra);
			expect(res.status).toBe(401);
			expect(res.body).toEqual({ status: 'failure', message: expect.any(String) });
		}
		expect(sandbox.loginCount).toBe(0);
		expect(sandbox.requests({ base: 'cc' })[0].auth).toEqual({ scheme: 'none', user: A.ccUserId, ok: false });
		const bad = await call('POST', LOGIN, { raw: 'not json', headers: { 'content-type': 'application/json' } });
		expect(bad.status).toBe(400);
	});

	it('refuses a second login without forceLogin while a session is live', async () => {
		expect((await login()).status).toBe(200);
		const again = await login({ forceLogin: false });
		expect(again.status).toBe(409);
		expect((await login({ forceLogin: true })).status).toBe(200);
		sandbox.expireSessions();
		expect((await login({ forceLogin: false })).status).toBe(200);
	});

	it('requires a live session id (sessionId or SessionId header) to create users', async () => {
		expect((await call('POST', CC_USERS, { json: validUser() })).status).toBe(401);
		const wrong = await call('POST', CC_USERS, { json: validUser(), headers: { sessionId: 'made-up' } });
		expect(wrong.status).toBe(401);
		expect(wrong.body).toEqual({ status: 'failure', message: expect.stringMatching(/session/i) });
		const { sessionId } = (await login()).body;
		const created = await call<{ ccUserId: number; skillIds: unknown }>('POST', CC_USERS, {
			json: validUser({ maxAllowedLogins: '2', mappingUserId: 'crm-9', defaultReady: true }),
			headers: { SessionId: sessionId },
		});
		expect(created.status).toBe(200);
		expect(Object.keys(created.body).sort()).toEqual(
			[
				'ccUserId',
				'userId',
				'userType',
				'skillIds',
				'skillIIds',
				'userName',
				'systemUserType',
				'privilegePlanId',
				'defaultReady',
				'maskedPrivileges',
				'maxAllowedLogins',
				'loginPolicy',
				'mappingUserId',
			].sort(),
		);
		expect(created.body).toMatchObject({
			userId: 'new.agent',
			userType: 'Agent',
			userName: 'New Agent',
			systemUserType: 'Agent',
			defaultReady: true,
			maxAllowedLogins: '2',
			mappingUserId: 'crm-9',
		});
		expect(Number.isInteger(created.body.ccUserId)).toBe(true);
		expect(Array.isArray(created.body.skillIds)).toBe(true);
		const record = sandbox.requests({ pathIncludes: 'contactCenterUsers' }).pop();
		expect(record?.auth).toEqual({ scheme: 'session', user: A.ccUserId, ok: true });
		const dup = await call('POST', CC_USERS, { json: validUser(), headers: { sessionId } });
		expect(dup.status).toBe(409);
	});

	it('answers 400 {status: failure, message} for missing or mistyped fields', async () => {
		const { sessionId } = (await login()).body;
		const missing = await call<CcFailure>('POST', CC_USERS, { json: { userType: 'Agent' }, headers: { sessionId } });
		expect(missing.status).toBe(400);
		expect(missing.body.status).toBe('failure');
		expect(missing.body.message).toMatch(/userId.*userName.*contactCenterId/);
		const stringId = await call<CcFailure>('POST', CC_USERS, { json: validUser({ contactCenterId: '1' }), headers: { sessionId } });
		expect(stringId.status).toBe(400);
		expect(stringId.body.message).toMatch(/contactCenterId/);
	});

	it('expired sessions answer 401 and a new login works', async () => {
		const old = (await login()).body.sessionId;
		expect((await call('POST', CC_USERS, { json: validUser(), headers: { sessionId: old } })).status).toBe(200);
		expect(sandbox.expireSessions()).toBe(1);
		expect((await call('POST', CC_USERS, { json: validUser({ userId: 'u2' }), headers: { sessionId: old } })).status).toBe(401);
		const fresh = (await login()).body.sessionId;
		expect((await call('POST', CC_USERS, { json: validUser({ userId: 'u2' }), headers: { sessionId: fresh } })).status).toBe(200);
		expect((await call('POST', CC_USERS, { json: validUser({ userId: 'u3' }), headers: { sessionId: old } })).status).toBe(401);
		expect(sandbox.loginCount).toBe(2);
	});
});

describe('number allocation', () => {
	it('allocates from the pool and answers the success envelope', async () => {
		const res = await allocate(allocBody({ aparty_pins: [1234], flow_id: 'flow-9' }));
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			success: true,
			status: 200,
			code: null,
			message: null,
			data: {
				connection_id: 'conn-1',
				aparty_numbers: ['+919800000001'],
				bparty_numbers: ['+919800000002'],
				aparty_pins: [1234],
				bparty_pins: [],
				usage: 'twoway',
				greenvn: SANDBOX_GREENVN_POOL[0].number,
				greenvn_id: expect.stringMatching(/^[0-9a-f]{24}$/),
				state: 'active',
				flow_id: 'flow-9',
			},
		});
		const noFlow = await allocate(allocBody({ connection_id: 'conn-2' }));
		expect('flow_id' in noFlow.body.data).toBe(false);
		expect(noFlow.body.data.greenvn).toBe(SANDBOX_GREENVN_POOL[1].number);
	});

	it('refuses a duplicate active connection id with 409 code 18', async () => {
		const first = await allocate(allocBody());
		const dup = await allocate(allocBody());
		expect(dup.status).toBe(409);
		expect(dup.body).toEqual({ success: false, status: 409, code: 18, message: expect.any(String), data: null });
		await call('DELETE', `${GREENVN}/${first.body.data.greenvn_id}`, { headers: { authorization: ALLOC } });
		expect((await allocate(allocBody())).status).toBe(200);
	});

	it('validates the body with codes 3, 5, 14, 15 and 16', async () => {
		const cases: Array<[unknown, number]> = [
			[{ connection_id: 'c', usage: 'oneway' }, 3],
			[allocBody({ usage: 'both' }), 5],
			[allocBody({ aparty_numbers: '+919800000001' }), 5],
			[allocBody({ aparty_numbers: ['9800000001'] }), 16],
			[allocBody({ bparty_numbers: ['+919800000001'] }), 14],
			[allocBody({ aparty_pins: [0] }), 5],
			[allocBody({ preferences: { region: 'XX' } }), 15],
			[allocBody({ deallocation_policy: { duration: 'soon' } }), 5],
		];
		for (const [body, code] of cases) {
			const res = await allocate<AllocFailure>(body);
			expect({ status: res.status, code: res.body.code, success: res.body.success, data: res.body.data }).toEqual({
				status: 400,
				code,
				success: false,
				data: null,
			});
		}
		const missing = await allocate<AllocFailure>({ connection_id: 'c' });
		expect(missing.body.message).toMatch(/aparty_numbers.*bparty_numbers.*usage/);
		expect(sandbox.allocations()).toHaveLength(0);
	});

	it('answers code 4 when the pool is empty, and honours strict preferences', async () => {
		const strictDl = await allocate(allocBody({ connection_id: 'dl', strictness: true, preferences: { region: 'DL' } }));
		expect(strictDl.body.data.greenvn).toBe(SANDBOX_GREENVN_POOL.find((p) => p.region === 'DL')?.number);
		const strictAgain = await allocate<AllocFailure>(allocBody({ connection_id: 'dl2', strictness: true, preferences: { region: 'DL' } }));
		expect(strictAgain.status).toBe(400);
		expect(strictAgain.body.code).toBe(4);
		const loose = await allocate(allocBody({ connection_id: 'dl3', preferences: { region: 'DL' } }));
		expect(loose.status).toBe(200);
		for (let i = 0; i < SANDBOX_GREENVN_POOL.length - 2; i++) {
			expect((await allocate(allocBody({ connection_id: `fill-${i}` }))).status).toBe(200);
		}
		const empty = await allocate(allocBody({ connection_id: 'one-too-many' }));
		expect(empty.status).toBe(400);
		expect(empty.body).toEqual({ success: false, status: 400, code: 4, message: expect.stringMatching(/No free green VN/), data: null });
	});

	it('reads details, deallocates to vault once, and frees the number', async () => {
		const created = (await allocate(allocBody())).body.data;
		const url = `${GREENVN}/${created.greenvn_id}`;
		const details = await call('GET', url, { headers: { authorization: ALLOC } });
		expect(details.body).toEqual({ success: true, status: 200, code: null, message: null, data: created });
		const gone = await call<AllocSuccess>('DELETE', url, { headers: { authorization: ALLOC } });
		expect(gone.status).toBe(200);
		expect(gone.body.data).toEqual({ ...created, state: 'vault' });
		expect((await call<AllocSuccess>('GET', url, { headers: { authorization: ALLOC } })).body.data.state).toBe('vault');
		const again = await call<AllocFailure>('DELETE', url, { headers: { authorization: ALLOC } });
		expect(again.status).toBe(400);
		expect(again.body).toMatchObject({ success: false, status: 400, code: 5, data: null });
		expect(again.body.message).toMatch(/already deallocated/);
		const unknown = await call('GET', `${GREENVN}/n8n-credential-test`, { headers: { authorization: ALLOC } });
		expect(unknown.status).toBe(400);
		expect(unknown.body).toEqual({ success: false, status: 400, code: 1, message: expect.stringMatching(/GreenVN not found/), data: null });
		const unknownDelete = await call('DELETE', `${GREENVN}/nope`, { headers: { authorization: ALLOC } });
		expect(unknownDelete.status).toBe(400);
		expect(unknownDelete.body).toMatchObject({ success: false, status: 400, code: 1, message: expect.stringMatching(/GreenVN not found/) });
		// The freed number is handed out again (at the end of the free list).
		const numbers: string[] = [];
		for (let i = 0; i < SANDBOX_GREENVN_POOL.length; i++) {
			numbers.push((await allocate(allocBody({ connection_id: `n${i}` }))).body.data.greenvn);
		}
		expect(new Set(numbers).size).toBe(SANDBOX_GREENVN_POOL.length);
		expect(numbers).toContain(created.greenvn);
	});

	it('greenvnPoolSize grows the pool past the fixture (kept across reset), then runs out as usual', async () => {
		const big = new ExotelSandbox({ greenvnPoolSize: 6 });
		const at = await big.start();
		try {
			big.reset();
			const post = <B = AllocSuccess>(i: number) => call<B>('POST', GREENVN, { json: allocBody({ connection_id: `big${i}` }), headers: { authorization: ALLOC } }, at);
			const numbers: string[] = [];
			for (let i = 0; i < 6; i++) numbers.push((await post(i)).body.data.greenvn);
			expect(numbers.slice(0, 4).sort()).toEqual(SANDBOX_GREENVN_POOL.map((e) => e.number).sort());
			expect(numbers.slice(4)).toEqual(['+918047100000', '+918047100001']);
			const none = await post<AllocFailure>(6);
			expect(none.status).toBe(400);
			expect(none.body.message).toMatch(/No free green VN/);
		} finally {
			await big.stop();
		}
	});
});

describe('integrations: device status', () => {
	const url = `${DEVICES}/user-1/devices`;
	const auth = { authorization: BEARER };

	it('reads the seeded user with registration details', async () => {
		const res = await call('GET', url, { headers: auth });
		expect(res.body).toEqual({
			success: true,
			data: {
				user_id: 'user-1',
				devices: {
					phone: { enabled: true, number: expect.stringMatching(/^\+\d+$/) },
					sip: { enabled: true, username: expect.any(String), registered: true, last_seen: expect.any(String) },
				},
			},
		});
	});

	it('toggles devices, refuses to disable both, and 404s an unknown user', async () => {
		const off = await call('PUT', url, { json: { phone: false }, headers: auth });
		expect(off.status).toBe(200);
		expect(off.body).toEqual({
			success: true,
			data: {
				user_id: 'user-1',
				devices: { phone: { enabled: false, number: expect.any(String) }, sip: { enabled: true, username: expect.any(String) } },
				updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
			},
		});
		expect((await call<{ data: { devices: { phone: { enabled: boolean } } } }>('GET', url, { headers: auth })).body.data.devices.phone.enabled).toBe(false);
		const both = await call('PUT', url, { json: { sip: false }, headers: auth });
		expect(both.status).toBe(400);
		expect(both.body).toEqual({ success: false, error: { code: 'ALL_DEVICES_DISABLED', message: expect.any(String) } });
		const explicit = await call('PUT', url, { json: { phone: false, sip: false }, headers: auth });
		expect(explicit.status).toBe(400);
		expect((await call('PUT', url, { json: { phone: 'yes' }, headers: auth })).status).toBe(400);
		expect((await call('PUT', url, { json: {}, headers: auth })).status).toBe(400);
		const unknown = await call<{ success: boolean }>('GET', `${DEVICES}/user-404/devices`, { headers: auth });
		expect(unknown.status).toBe(404);
		expect(unknown.body.success).toBe(false);
		expect((await call('PUT', `${DEVICES}/user-404/devices`, { json: { sip: true }, headers: auth })).status).toBe(404);
	});
});

describe('contact upload', () => {
	const csv = 'phone_number,first_name\n+919800000001,Asha\n+919800000001,Asha again\nnot-a-number,Bad\n"+919800000003","Ravi, Jr."\n';

	it('accepts a CSV with the 202 envelope and reports processing', async () => {
		const res = await call<UploadAnswer>('POST', UPLOAD, { raw: csvUpload(csv), headers: { authorization: BEARER } });
		expect(res.status).toBe(202);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
			method: 'POST',
			http_code: 202,
			response: {
				code: 202,
				status: 'accepted',
				data: { upload_id: expect.any(String), total_records: 4, status: 'processing', estimated_time_seconds: 1 },
			},
		});
		const status = await call<UploadAnswer>('GET', `${UPLOAD}/${res.body.response.data.upload_id}`, { headers: { authorization: BASIC } });
		expect(status.body.response.data.status).toBe('processing');
		const missing = await call('GET', `${UPLOAD}/nope`, { headers: { authorization: BASIC } });
		expect(missing.status).toBe(404);
	});

	it('completes at once with timeScale 0 and counts successes, failures and duplicates', async () => {
		const fast = new ExotelSandbox({ timeScale: 0 });
		const at = await fast.start();
		try {
			const res = await call<UploadAnswer>('POST', UPLOAD, { raw: csvUpload(csv, { list_id: 'list-1' }), headers: { authorization: BEARER } }, at);
			const status = await call<UploadAnswer>('GET', `${UPLOAD}/${res.body.response.data.upload_id}`, { headers: { authorization: BEARER } }, at);
			expect(status.body.response.data).toEqual({
				upload_id: res.body.response.data.upload_id,
				status: 'completed',
				total_records: 4,
				successful: 2,
				failed: 1,
				duplicates_skipped: 1,
				error_file_id: expect.any(String),
			});
		} finally {
			await fast.stop();
		}
	});

	it('answers 400 for a CSV without phone_number, a non-CSV file or a non-multipart body', async () => {
		const noPhone = await call<V2Failure>('POST', UPLOAD, { raw: csvUpload('name\nAsha\n'), headers: { authorization: BEARER } });
		expect(noPhone.status).toBe(400);
		expect(noPhone.body.response.error_data.description).toMatch(/phone_number/);
		const notCsv = await call('POST', UPLOAD, { raw: csvUpload(csv, {}, 'contacts.xlsx'), headers: { authorization: BEARER } });
		expect(notCsv.status).toBe(400);
		const asJson = await call('POST', UPLOAD, { json: { file: csv }, headers: { authorization: BEARER } });
		expect(asJson.status).toBe(400);
	});
});

describe('routing', () => {
	it('answers 404 with a JSON body in the family of each base for unknown paths', async () => {
		const v1 = await call<V1Error>('GET', `/v1/Accounts/${SID}/Nothing`, { headers: { authorization: BASIC } });
		expect(v1.status).toBe(404);
		expect(v1.body.RestException.Status).toBe(404);
		const v2 = await call<{ http_code: number }>('GET', `/ccm/v2/accounts/${SID}/nothing`, { headers: { authorization: BASIC } });
		expect(v2.body.http_code).toBe(404);
		expect((await call<{ errorCode: string }>('GET', '/cms/nothing')).body.errorCode).toBe('CONF-1001');
		expect((await call<{ success: boolean }>('GET', '/integrations/nothing')).body.success).toBe(false);
		expect((await call<CcFailure>('GET', '/cc/nothing')).body.status).toBe('failure');
		expect((await call('GET', '/alloc/nothing')).body).toMatchObject({ success: false, status: 404, code: 1 });
		// A doubled slash (a base URL with a trailing slash) is not silently accepted.
		expect((await call('GET', `/${CALLS}`, { headers: { authorization: BASIC } })).status).toBe(404);
	});

	it('answers 405 with Allow for a known path and another method', async () => {
		const res = await call<V1Error>('GET', SEND, { headers: { authorization: BASIC } });
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST');
		expect(res.body.RestException.Status).toBe(405);
	});

	it('accepts extra routes added later', async () => {
		sandbox.addRoute({
			base: 'base',
			method: 'GET',
			path: '/v2/accounts/:sid/probe/:thing',
			auth: 'basic',
			handler: (ctx) => ({ status: 200, json: { thing: ctx.params.thing } }),
		});
		const res = await call('GET', `/v2/accounts/${SID}/probe/a%20b`, { headers: { authorization: BASIC } });
		expect(res.body).toEqual({ thing: 'a b' });
		expect((await call('GET', `/v2/accounts/${SID}/probe/x`)).status).toBe(401);
	});
});

describe('request log', () => {
	it('records every field of a request', async () => {
		const before = Date.now();
		await call('POST', `${SEND}?trace=1&tag=a&tag=b`, {
			raw: 'From=EXOTEL&To%5B%5D=%2B919800000001&To%5B%5D=%2B919800000002&Body=Hi+there',
			headers: {
				authorization: BASIC,
				'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
				'X-Custom-Thing': 'Value',
			},
		});
		await call('POST', CC_USERS, { json: { a: 1 }, headers: { sessionId: 'nope' } });
		const [smsRecord, ccRecord] = sandbox.requests();
		expect(smsRecord).toEqual({
			id: 1,
			time: expect.any(Number),
			base: 'base',
			method: 'POST',
			path: SEND,
			query: { trace: '1', tag: ['a', 'b'] },
			headers: expect.objectContaining({ 'x-custom-thing': 'Value', authorization: BASIC }),
			contentType: 'application/x-www-form-urlencoded',
			auth: { scheme: 'basic', user: A.apiKey, ok: true },
			rawBody: 'From=EXOTEL&To%5B%5D=%2B919800000001&To%5B%5D=%2B919800000002&Body=Hi+there',
			form: [
				['From', 'EXOTEL'],
				['To[]', '+919800000001'],
				['To[]', '+919800000002'],
				['Body', 'Hi there'],
			],
			status: 200,
		});
		expect(smsRecord.time).toBeGreaterThanOrEqual(before);
		expect(Object.keys(smsRecord.headers).every((h) => h === h.toLowerCase())).toBe(true);
		expect(ccRecord).toMatchObject({
			id: 2,
			base: 'cc',
			path: '/servicerestapi/cc/contactCenterUsers',
			contentType: 'application/json',
			json: { a: 1 },
			status: 401,
			auth: { scheme: 'session', ok: false },
		});
		expect(ccRecord.form).toBeUndefined();
	});

	it('filters by base, method and path, clears, and never records the control API', async () => {
		await call('GET', CALLS, { headers: { authorization: BASIC } });
		await sms([['From', 'E'], ['To', '+919800000001'], ['Body', 'x']]);
		await login();
		await call('GET', '/__sandbox/health');
		await call('GET', '/__sandbox/requests');
		expect(sandbox.requests()).toHaveLength(3);
		expect(sandbox.requests({ base: 'cc' }).map((r) => r.path)).toEqual(['/servicerestapi/session/userLogin']);
		expect(sandbox.requests({ method: 'get' }).map((r) => r.path)).toEqual([CALLS]);
		expect(sandbox.requests({ base: 'base', method: 'POST', pathIncludes: 'Sms/' })).toHaveLength(1);
		expect(sandbox.requests({ pathIncludes: 'nothing-like-this' })).toHaveLength(0);
		sandbox.clearRequests();
		expect(sandbox.requests()).toHaveLength(0);
		expect(sandbox.messages()).toHaveLength(1);
	});
});

describe('faults', () => {
	const smsForm: Array<[string, string]> = [['From', 'E'], ['To', '+919800000001'], ['Body', 'x']];

	it('status fault: answers the status with Retry-After and the family body, without processing', async () => {
		sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 7 });
		const res = await sms(smsForm);
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe('7');
		expect(res.body).toEqual({ RestException: { Status: 429, Message: expect.stringMatching(/Too Many Requests/i) } });
		expect(sandbox.messages()).toHaveLength(0);
		expect(sandbox.requests()[0]).toMatchObject({ status: 429, fault: 'status:429' });
		const next = await sms(smsForm);
		expect(next.status).toBe(200);
		expect(sandbox.requests()[1].fault).toBeUndefined();
		expect(sandbox.messages()).toHaveLength(1);
	});

	it('status fault applies before authentication and uses each family envelope or a given body', async () => {
		sandbox.injectFaults({ kind: 'status', status: 429 }, 1, { base: 'alloc' });
		const alloc = await allocate(allocBody(), 'Basic bad');
		expect(alloc.status).toBe(429);
		expect(alloc.body).toMatchObject({ success: false, status: 429, code: 17, data: null });
		sandbox.injectFaults({ kind: 'status', status: 503, body: { custom: true } });
		const custom = await call('GET', CALLS, { headers: { authorization: BASIC } });
		expect(custom.status).toBe(503);
		expect(custom.body).toEqual({ custom: true });
		expect(custom.headers.get('retry-after')).toBeNull();
	});

	it('honours count and match (base, method, pathIncludes); other requests pass and do not consume it', async () => {
		sandbox.injectFaults({ kind: 'status', status: 500 }, 2, { base: 'base', method: 'post', pathIncludes: '/Sms/send' });
		expect((await call('GET', CALLS, { headers: { authorization: BASIC } })).status).toBe(200);
		expect((await bulk(dynamicMessages(1))).status).toBe(200);
		expect((await login()).status).toBe(200);
		expect((await sms(smsForm)).status).toBe(500);
		expect((await sms(smsForm)).status).toBe(500);
		expect((await sms(smsForm)).status).toBe(200);
		expect(sandbox.requests().map((r) => r.fault ?? '-')).toEqual(['-', '-', '-', 'status:500', 'status:500', '-']);
	});

	it('takes one fault per request, oldest first', async () => {
		sandbox.injectFaults({ kind: 'status', status: 502 });
		sandbox.injectFaults({ kind: 'status', status: 504 });
		expect((await sms(smsForm)).status).toBe(502);
		expect((await sms(smsForm)).status).toBe(504);
		expect((await sms(smsForm)).status).toBe(200);
	});

	it('delay fault: waits, then processes normally', async () => {
		sandbox.injectFaults({ kind: 'delay', ms: 200 });
		const t0 = performance.now();
		const res = await sms(smsForm);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(195);
		expect(res.status).toBe(200);
		expect(sandbox.messages()).toHaveLength(1);
		expect(sandbox.requests()[0]).toMatchObject({ fault: 'delay:200', status: 200 });
		await sms(smsForm);
		// The fault was used up by the first request: the second one carries none.
		expect(sandbox.requests()[1]).toMatchObject({ status: 200 });
		expect(sandbox.requests()[1].fault).toBeUndefined();
	});

	it("reset 'before': the connection drops and nothing is processed", async () => {
		sandbox.injectFaults({ kind: 'reset', when: 'before' });
		await expect(sms(smsForm)).rejects.toThrow();
		expect(sandbox.messages()).toHaveLength(0);
		expect(sandbox.requests()[0]).toMatchObject({ status: 0, fault: 'reset:before', rawBody: expect.stringContaining('From=E') });
		expect((await sms(smsForm)).status).toBe(200);
	});

	it("reset without 'when' means before", async () => {
		sandbox.injectFaults({ kind: 'reset' }, 1, { base: 'cc' });
		await expect(login()).rejects.toThrow();
		expect(sandbox.loginCount).toBe(0);
		expect(sandbox.requests()[0].fault).toBe('reset:before');
	});

	it("reset 'after': the messages are accepted but the answer is lost", async () => {
		sandbox.injectFaults({ kind: 'reset', when: 'after' });
		await expect(bulk(dynamicMessages(3))).rejects.toThrow();
		expect(sandbox.messages()).toHaveLength(3);
		expect(sandbox.requests()[0]).toMatchObject({ status: 0, fault: 'reset:after' });
		expect((await bulk(dynamicMessages(1))).status).toBe(200);
	});

	it('latency: every answer waits the set time (setLatency and the constructor option)', async () => {
		sandbox.setLatency(120);
		const t0 = performance.now();
		expect((await call('GET', CALLS, { headers: { authorization: BASIC } })).status).toBe(200);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
		sandbox.setLatency(0);
		const slow = new ExotelSandbox({ latencyMs: 100 });
		const at = await slow.start();
		try {
			const t1 = performance.now();
			expect((await call('GET', CALLS, { headers: { authorization: BASIC } }, at)).status).toBe(200);
			expect(performance.now() - t1).toBeGreaterThanOrEqual(95);
		} finally {
			await slow.stop();
		}
	});
});

describe('control API', () => {
	it('health reports counts', async () => {
		await login();
		await sms([['From', 'E'], ['To', '+919800000001'], ['Body', 'x']]);
		const res = await call('GET', '/__sandbox/health');
		expect(res.body).toEqual({
			ok: true,
			origin,
			requests: 2,
			messages: 1,
			pendingFaults: 0,
			loginCount: 1,
			liveSessions: 1,
			latencyMs: 0,
			rateLimited: 0,
		});
	});

	it('lists requests with filters and clears them', async () => {
		await call('GET', CALLS, { headers: { authorization: BASIC } });
		await login();
		const all = await call<RecordedRequest[]>('GET', '/__sandbox/requests');
		expect(all.body.map((r: { path: string }) => r.path)).toEqual([CALLS, '/servicerestapi/session/userLogin']);
		const cc = await call<RecordedRequest[]>('GET', '/__sandbox/requests?base=cc&method=POST&pathIncludes=userLogin');
		expect(cc.body).toHaveLength(1);
		expect(cc.body[0].json).toMatchObject({ userId: A.ccUserId });
		expect((await call('GET', '/__sandbox/requests?base=nowhere')).status).toBe(400);
		expect((await call('DELETE', '/__sandbox/requests')).body).toEqual({ ok: true });
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('injects faults from JSON and validates them', async () => {
		const posted = await call('POST', '/__sandbox/faults', {
			json: { fault: { kind: 'status', status: 429, retryAfterSeconds: 3 }, count: 2, match: { base: 'base', pathIncludes: 'Calls' } },
		});
		expect(posted.body).toEqual({ ok: true, pendingFaults: 2 });
		expect((await login()).status).toBe(200);
		const faulted = await call('GET', CALLS, { headers: { authorization: BASIC } });
		expect(faulted.status).toBe(429);
		expect(faulted.headers.get('retry-after')).toBe('3');
		expect((await call<{ ok: boolean }>('DELETE', '/__sandbox/faults')).body.ok).toBe(true);
		expect((await call('GET', CALLS, { headers: { authorization: BASIC } })).status).toBe(200);
		for (const bad of [
			{ fault: { kind: 'explode' } },
			{ fault: { kind: 'status', status: 42 } },
			{ fault: { kind: 'delay' } },
			{ fault: { kind: 'reset', when: 'during' } },
			{ fault: { kind: 'status', status: 500 }, count: 0 },
			{ fault: { kind: 'status', status: 500 }, match: { base: 'mars' } },
		]) {
			const res = await call<{ ok: boolean }>('POST', '/__sandbox/faults', { json: bad });
			expect(res.status).toBe(400);
			expect(res.body.ok).toBe(false);
		}
		expect((await call('POST', '/__sandbox/faults', { raw: '{oops' })).status).toBe(400);
		expect(sandbox.pendingFaults).toBe(0);
	});

	it('expires sessions, resets state, lists messages and sets latency', async () => {
		const { sessionId } = (await login()).body;
		expect((await call('POST', '/__sandbox/sessions/expire')).body).toEqual({ ok: true, expired: 1 });
		expect((await call('POST', CC_USERS, { json: validUser(), headers: { sessionId } })).status).toBe(401);

		await sms([['From', 'E'], ['To', '+919800000001'], ['Body', 'x'], ['StatusCallback', 'http://127.0.0.1:9/x']]);
		const messages = await call<StoredSmsMessage[]>('GET', '/__sandbox/messages');
		expect(messages.body).toHaveLength(1);
		expect(messages.body[0]).toMatchObject({ to: '+919800000001', statusCallback: 'http://127.0.0.1:9/x' });

		await allocate(allocBody());
		expect((await call('GET', '/__sandbox/allocations')).body).toHaveLength(1);

		sandbox.injectFaults({ kind: 'status', status: 500 });
		expect((await call('POST', '/__sandbox/reset')).body).toEqual({ ok: true });
		expect(sandbox.messages()).toHaveLength(0);
		expect(sandbox.requests()).toHaveLength(0);
		expect(sandbox.loginCount).toBe(0);
		expect(sandbox.pendingFaults).toBe(0);
		expect(sandbox.allocations()).toHaveLength(0);

		expect((await call('POST', '/__sandbox/latency', { json: { ms: 80 } })).body).toEqual({ ok: true, latencyMs: 80 });
		const t0 = performance.now();
		await call('GET', CALLS, { headers: { authorization: BASIC } });
		expect(performance.now() - t0).toBeGreaterThanOrEqual(75);
		expect((await call('POST', '/__sandbox/latency', { json: { ms: -1 } })).status).toBe(400);
		expect((await call('GET', '/__sandbox/nothing')).status).toBe(404);
	});
});
