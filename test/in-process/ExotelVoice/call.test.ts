/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- runs a local HTTP server and waits on timers (http, net, setTimeout); never shipped */
/**
 * Exotel Voice → Call (Connect to Flow, Get, Get Many, Get Details) through n8n-core against the
 * sandbox: exact requests on the wire, paging, validation before sending, and the error paths.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject } from 'n8n-workflow';

import { SANDBOX_CALL_CUSTOMERS, SANDBOX_SEEDED_CALLS, SANDBOX_VIRTUAL_NUMBERS, seededCallSid } from '../../../sandbox/handlers/calls';
import { describeBadInput, list, refused, type ContinueCase, type RefusedCase } from '../../helpers/bad-input';
import { basicAuthHeader, formFields, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { describeNoSecrets, giveUpSoon, limitStorm, resetAfter, resetBefore, WRONG_CREDENTIALS, type SecretCase } from '../../helpers/secrets';

const SID = SANDBOX_ACCOUNT.accountSid;
const CONNECT_PATH = `/v1/Accounts/${SID}/Calls/connect`;
const CALLS_PATH = `/v1/Accounts/${SID}/Calls.json`;
const FLOW = `http://my.exotel.com/${SID}/flowml/start_voice/926`;
const V1_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** The call vocabulary (nodes/shared/output/vocabulary.ts), in order. */
const CALL_KEYS = ['callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl'];

/**
 * A v1 Call item (Connect, Get, Get Many): the call keys read from the Call the service answered, kept
 * whole under raw (`Duration`, text on the wire, a number of seconds); with `Details`, the conversation
 * duration beside them.
 */
function expectV1CallItem(json: IDataObject) {
	const raw = json.raw as IDataObject;
	const details = raw.Details as IDataObject | undefined;
	expect(json).toEqual({
		callSid: raw.Sid,
		status: raw.Status,
		from: raw.From,
		to: raw.To ?? null,
		direction: raw.Direction,
		startTime: raw.StartTime ?? null,
		endTime: raw.EndTime ?? null,
		duration: raw.Duration === null || raw.Duration === undefined ? null : Number(raw.Duration),
		recordingUrl: raw.RecordingUrl ?? null,
		...(details ? { conversationDuration: Number(details.ConversationDuration) } : {}),
		raw,
	});
	expect(Object.keys(json)).toEqual([...CALL_KEYS, ...(details ? ['conversationDuration'] : []), 'raw']);
	if (raw.Duration !== null && raw.Duration !== undefined) expect(typeof json.duration).toBe('number');
}

// Placed calls end 35 ms after the connect (35 simulated seconds × 0.001).
const sandbox = useSandbox({ timeScale: 0.001 });

async function run(
	parameters: Record<string, unknown>,
	items: Array<Record<string, unknown>> = [{}],
	settings: Parameters<typeof packageNode>[2] = {},
	credentialOverrides: Parameters<typeof sandboxCredentials>[1] = {},
) {
	return await runNode(sandbox, 'exotelVoice', { resource: 'call', ...parameters }, items, { settings, credentialOverrides });
}

const connectParameters = (extra: Record<string, unknown> = {}) => ({
	operation: 'connect',
	from: '+919876543210',
	callerId: '+918047112233',
	url: FLOW,
	...extra,
});

/** Every seeded call, newest first, read straight from the sandbox (the oracle of the filter tests). */
async function everyCall(): Promise<Array<Record<string, string>>> {
	const calls: Array<Record<string, string>> = [];
	let next: string | null = `${CALLS_PATH}?PageSize=100`;
	while (next) {
		const res = await fetch(sandbox.origin + next, { headers: { authorization: basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken) } });
		const body = (await res.json()) as { Calls: Array<Record<string, string>>; Metadata: { NextPageUri: string | null } };
		calls.push(...body.Calls);
		next = body.Metadata.NextPageUri;
	}
	sandbox.clearRequests();
	return calls;
}

describe('Exotel Voice → Call → Connect to Flow', () => {
	it('posts the form with every field, StatusCallbackEvents[] repeated, basic auth, and outputs the Call', async () => {
		const result = await run(
			connectParameters({
				from: '+91 98765-43210',
				statusCallback: 'https://n8n.example.com/webhook/exotel-voice',
				additionalFields: { callType: 'trans', timeLimit: 600, timeOut: 25, statusCallbackEvents: ['answered', 'terminal'], customField: 'order-7' },
			}),
		);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'POST', path: CONNECT_PATH, contentType: 'application/x-www-form-urlencoded', status: 200 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(request.form).toEqual([
			['From', '+919876543210'],
			['CallerId', '+918047112233'],
			['Url', FLOW],
			['CallType', 'trans'],
			['TimeLimit', '600'],
			['TimeOut', '25'],
			['StatusCallback', 'https://n8n.example.com/webhook/exotel-voice'],
			['StatusCallbackEvents[]', 'answered'],
			['StatusCallbackEvents[]', 'terminal'],
			['CustomField', 'order-7'],
		]);
		const [out] = result.output('Exotel');
		expect(out.pairedItem).toEqual({ item: 0 });
		const raw = out.json.raw as IDataObject;
		expect(raw).toMatchObject({
			Sid: expect.stringMatching(/^[0-9a-f]{32}$/),
			AccountSid: SID,
			From: '+919876543210',
			To: null,
			PhoneNumberSid: '+918047112233',
			Status: 'in-progress',
			Direction: 'outbound-api',
			DateCreated: expect.stringMatching(V1_DATE),
			Uri: `/v1/Accounts/${SID}/Calls.json/${raw.Sid as string}`,
		});
		expectV1CallItem(out.json);
		expect(out.json).toMatchObject({
			callSid: expect.stringMatching(/^[0-9a-f]{32}$/),
			status: 'in-progress',
			from: '+919876543210',
			to: null,
			direction: 'outbound-api',
			startTime: expect.stringMatching(V1_DATE),
		});
	});

	it('sends only the required fields when nothing else is set', async () => {
		const result = await run(connectParameters());
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].form).toEqual([
			['From', '+919876543210'],
			['CallerId', '+918047112233'],
			['Url', FLOW],
		]);
	});

	it('places one call per item, paired, each with its own From', async () => {
		const items = [{ phone: '+919876543210' }, { phone: '+919876543211' }, { phone: '+919876543212' }];
		const result = await run(connectParameters({ from: '={{ $json.phone }}' }), items);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests({ method: 'POST' });
		expect(requests.map((r) => formFields(r.form).From[0]).sort()).toEqual(items.map((i) => i.phone));
		expect(result.output('Exotel').map((o) => [o.pairedItem, o.json.from, (o.json.raw as IDataObject).From])).toEqual(items.map((item, i) => [{ item: i }, item.phone, item.phone]));
		for (const o of result.output('Exotel')) expectV1CallItem(o.json);
	});

	it('the status callback reaches a loopback receiver: answered, then terminal with CustomField and Legs[0][...]', async () => {
		const received: string[] = [];
		const server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (c: Buffer) => (body += c.toString()));
			req.on('end', () => {
				received.push(body);
				res.writeHead(200, { connection: 'close' }).end('ok');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		try {
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/voice`;
			const result = await run(connectParameters({ statusCallback: url, additionalFields: { statusCallbackEvents: ['answered', 'terminal'], customField: 'ticket-9' } }));
			expect(result.error).toBeUndefined();
			const sid = result.output('Exotel')[0].json.callSid as string;
			expect(sid).toBe((result.output('Exotel')[0].json.raw as IDataObject).Sid);
			await sandbox.waitForCallbacks((log) => log.filter((a) => a.kind === 'call-status').length === 2);
			const [answered, terminal] = received.map((body) => Object.fromEntries(new URLSearchParams(body)));
			expect(answered).toMatchObject({ CallSid: sid, EventType: 'answered', Status: 'in-progress', CustomField: 'ticket-9' });
			expect(terminal).toMatchObject({
				CallSid: sid,
				EventType: 'terminal',
				Status: 'completed',
				CustomField: 'ticket-9',
				ConversationDuration: '30',
				'Legs[0][OnCallDuration]': '30',
				'Legs[0][Status]': 'completed',
				'Legs[0][AnsweredBy]': 'NA',
			});
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	describe('refused before sending', () => {
		it.each([
			['Time Limit 14401', { additionalFields: { timeLimit: 14401 } }, 'Time Limit is 14401; the maximum is 14400 (item 0)'],
			['Time Limit 1.5', { additionalFields: { timeLimit: 1.5 } }, 'Time Limit must be a whole number (got 1.5) (item 0)'],
			['a From that is no number', { from: 'call me' }, 'From must be a phone number such as +919876543210 (got "call me") (item 0)'],
			['a From with a dash and letters, quoted as typed', { from: '98765-abc' }, 'From must be a phone number such as +919876543210 (got "98765-abc") (item 0)'],
			['an empty From', { from: '={{ "" }}' }, 'From is required (item 0)'],
			['a From whose expression finds nothing: missing, not "undefined"', { from: '={{ $json.phone }}' }, 'From is required (item 0)'],
			['an empty Caller ID', { callerId: '={{ "" }}' }, 'Caller ID is required (item 0)'],
			['a Flow URL that is no URL', { url: 'my-flow' }, 'Flow URL must be an http(s) URL (got "my-flow") (item 0)'],
			['a status callback that is no URL', { statusCallback: 'n8n/webhook' }, 'Status Callback URL must be an http(s) URL (got "n8n/webhook") (item 0)'],
		])('%s', async (_name, parameters, message) => {
			const result = await run(connectParameters(parameters));
			expect(result.error?.message).toBe(message);
			expect(result.error?.name).toBe('NodeOperationError');
			expect(sandbox.requests()).toHaveLength(0);
		});

		it('accepts Time Limit 14400 exactly', async () => {
			const result = await run(connectParameters({ additionalFields: { timeLimit: 14400 } }));
			expect(result.error).toBeUndefined();
			expect(formFields(sandbox.requests()[0].form).TimeLimit).toEqual(['14400']);
		});
	});

	it('a service 400 comes through with its message (a flow URL of another account)', async () => {
		const result = await run(connectParameters({ url: 'http://my.exotel.com/otheraccount/flowml/start_voice/1' }));
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toBe(`Url names account 'otheraccount'; the flow must belong to ${SID}`);
		expect(result.error?.description).toContain(`HTTP 400 from POST ${CONNECT_PATH}`);
	});

	it('401 with a wrong token: clear, without the secret, and not retried', async () => {
		const result = await run(connectParameters(), [{}], {}, { exotelApi: { apiToken: 'wrong-SECRET-voice' } });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe("Authentication failed: check the credential's API key and token");
		expect(result.error?.description).toMatch(/^The service said: "Authentication is required to view this page\."/);
		expect(JSON.stringify(result.error)).not.toContain('wrong-SECRET-voice');
		expect(sandbox.requests()).toHaveLength(1);
	});

	it('a connect whose answer was lost is not sent again (the call may have been placed)', async () => {
		sandbox.injectFaults({ kind: 'reset', when: 'after' }, 1, { pathIncludes: 'Calls/connect' });
		const result = await run(connectParameters(), [{}], { onError: 'continueRegularOutput' });
		expect(sandbox.requests()).toHaveLength(1);
		expect(result.output('Exotel')[0].json).toMatchObject({ deliveryUnknown: true, error: expect.stringMatching(/Could not reach the service/) });
	});
});

describe('Exotel Voice → Call → Get', () => {
	it('asks for details=true by default and outputs the Call with Details', async () => {
		const sid = seededCallSid(1);
		const result = await run({ operation: 'get', callSid: ` ${sid} ` });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'GET', path: `/v1/Accounts/${SID}/Calls/${sid}.json`, query: { details: 'true' }, status: 200 });
		const [out] = result.output('Exotel');
		expect(out.json.callSid).toBe(sid);
		expect((out.json.raw as IDataObject).Sid).toBe(sid);
		expect(Object.keys((out.json.raw as IDataObject).Details as object)).toEqual(['ConversationDuration', 'Leg1Status', 'Leg2Status', 'Legs']);
		expectV1CallItem(out.json);
		expect(out.json.conversationDuration).toEqual(expect.any(Number));
	});

	it('without leg details: no query, no Details', async () => {
		const result = await run({ operation: 'get', callSid: seededCallSid(2), details: false });
		expect(sandbox.requests()[0].query).toEqual({});
		const [out] = result.output('Exotel');
		expect((out.json.raw as IDataObject).Details).toBeUndefined();
		expect(out.json).not.toHaveProperty('conversationDuration');
		expectV1CallItem(out.json);
	});

	it('reads a call placed by Connect to Flow once it has ended', async () => {
		const placed = await run(connectParameters({ from: '+919876500022' }));
		const sid = placed.output('Exotel')[0].json.callSid as string;
		await new Promise((resolve) => setTimeout(resolve, 20));
		const result = await run({ operation: 'get', callSid: sid });
		const [out] = result.output('Exotel');
		expect(out.json.raw).toMatchObject({ Sid: sid, Status: 'busy', Details: { Leg1Status: 'busy', Leg2Status: null } });
		expect(out.json).toMatchObject({ callSid: sid, status: 'busy', from: '+919876500022', endTime: expect.stringMatching(V1_DATE), duration: expect.any(Number) });
		expectV1CallItem(out.json);
	});

	it('404 for an unknown call names the call; with continue, the item carries the error', async () => {
		const unknown = '0'.repeat(32);
		const result = await run({ operation: 'get', callSid: unknown });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe(`Call ${unknown} does not exist in this account`);
		const continued = await run({ operation: 'get', callSid: '={{ $json.sid }}' }, [{ sid: seededCallSid(3) }, { sid: unknown }], { onError: 'continueRegularOutput' });
		const out = continued.output('Exotel');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json.callSid).toBe(seededCallSid(3));
		expectV1CallItem(out[0].json);
		expect(out[1].json.error).toBe(`Call ${unknown} does not exist in this account`);
	});

	it('an empty Call SID is refused before sending', async () => {
		const result = await run({ operation: 'get', callSid: '={{ "" }}' });
		expect(result.error?.message).toBe('Call SID is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

describe('Exotel Voice → Call → Get Many', () => {
	const day = (offsetDays: number) => new Date(Date.now() - offsetDays * 86_400_000).toISOString().slice(0, 19);

	it('puts every filter on the query in the service’s wire form', async () => {
		const sids = [seededCallSid(1), seededCallSid(2)];
		const [from, to] = [day(20), day(1)];
		const result = await run({
			operation: 'getMany',
			returnAll: false,
			limit: 100,
			filters: {
				sid: ` ${sids[0]}, ${sids[1]} `,
				dateCreatedFrom: from,
				dateCreatedTo: to,
				to: `${SANDBOX_CALL_CUSTOMERS[0]},${SANDBOX_CALL_CUSTOMERS[1]}`,
				from: SANDBOX_CALL_CUSTOMERS[2],
				phoneNumber: SANDBOX_VIRTUAL_NUMBERS.join(','),
				status: 'completed',
				direction: 'inbound',
				durationMin: 10,
				durationMax: 45,
				priceMin: 0.5,
				priceMax: 2.5,
				oldestFirst: true,
				pageSize: 100,
				recordingUrlValidity: 15,
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'GET', path: CALLS_PATH, status: 200 });
		expect(request.query).toEqual({
			PageSize: '100',
			Sid: sids.join(','),
			To: `${SANDBOX_CALL_CUSTOMERS[0]},${SANDBOX_CALL_CUSTOMERS[1]}`,
			From: SANDBOX_CALL_CUSTOMERS[2],
			PhoneNumber: SANDBOX_VIRTUAL_NUMBERS.join(','),
			Status: 'completed',
			Direction: 'inbound',
			SortBy: 'DateCreated:asc',
			RecordingUrlValidity: '15',
			DateCreated: `gte:${from.replace('T', ' ')};lte:${to.replace('T', ' ')}`,
			Duration: 'gte:10s;lte:45s',
			Price: 'gte:0.5;lte:2.5',
		});
	});

	it('a single bound sends one side of the range, and a duration of 30 to 30 sends both sides', async () => {
		const from = day(20);
		await run({ operation: 'getMany', filters: { dateCreatedFrom: from, durationMin: 30, durationMax: 30, priceMax: 1 } });
		expect(sandbox.requests()[0]).toMatchObject({ status: 200, query: { DateCreated: `gte:${from.replace('T', ' ')}`, Duration: 'gte:30s;lte:30s', Price: 'lte:1' } });
	});

	it('Return All follows NextPageUri across 3 pages (100, 100, 30): each call once, newest first', async () => {
		const oracle = await everyCall();
		const result = await run({ operation: 'getMany', returnAll: true, filters: { pageSize: 100 } });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests).toHaveLength(3);
		expect(requests[0].query).toEqual({ PageSize: '100' });
		expect(requests[1].query).toEqual({ PageSize: '100', After: expect.any(String) });
		expect(requests[2].query).toEqual({ PageSize: '100', After: expect.any(String) });
		expect(requests[1].query.After).not.toBe(requests[2].query.After);
		const out = result.output('Exotel');
		expect(out).toHaveLength(SANDBOX_SEEDED_CALLS);
		expect(out.map((o) => o.json.callSid)).toEqual(oracle.map((c) => c.Sid));
		expect(out.map((o) => (o.json.raw as IDataObject).Sid)).toEqual(oracle.map((c) => c.Sid));
		expect(out.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
		for (const o of out) expectV1CallItem(o.json);
		// the list has no Details: no conversation duration
		expect(out.some((o) => 'conversationDuration' in o.json)).toBe(false);
		expect(out.map((o) => o.json.duration)).toEqual(oracle.map((c) => (c.Duration === null ? null : Number(c.Duration))));
	});

	it('Return All keeps the filters on every page (the cursor pages carry them)', async () => {
		const oracle = (await everyCall()).filter((c) => c.Status === 'completed');
		const result = await run({ operation: 'getMany', returnAll: true, filters: { status: 'completed', pageSize: 60 } });
		const requests = sandbox.requests();
		expect(requests.length).toBe(Math.ceil(oracle.length / 60));
		expect(requests.every((r) => r.query.Status === 'completed' && r.query.PageSize === '60')).toBe(true);
		expect(result.output('Exotel').map((o) => o.json.callSid)).toEqual(oracle.map((c) => c.Sid));
		expect(result.output('Exotel').every((o) => o.json.status === 'completed' && (o.json.raw as IDataObject).Status === 'completed')).toBe(true);
	});

	it('Limit 30 makes one request with PageSize 30 and stops', async () => {
		const result = await run({ operation: 'getMany', returnAll: false, limit: 30 });
		expect(sandbox.requests().map((r) => r.query)).toEqual([{ PageSize: '30' }]);
		expect(result.output('Exotel')).toHaveLength(30);
	});

	it('Limit 120 with pages of 100: the second page asks only for the 20 still wanted', async () => {
		const oracle = await everyCall();
		const result = await run({ operation: 'getMany', returnAll: false, limit: 120, filters: { pageSize: 100 } });
		const requests = sandbox.requests();
		expect(requests.map((r) => r.query.PageSize)).toEqual(['100', '20']);
		expect(requests[1].query.After).toEqual(expect.any(String));
		expect(result.output('Exotel').map((o) => o.json.callSid)).toEqual(oracle.slice(0, 120).map((c) => c.Sid));
	});

	it('a filter with few matches ends on a short last page without a NextPageUri', async () => {
		const result = await run({ operation: 'getMany', returnAll: true, filters: { sid: [seededCallSid(5), seededCallSid(6)].join(',') } });
		expect(sandbox.requests()).toHaveLength(1);
		expect(result.output('Exotel').map((o) => o.json.callSid).sort()).toEqual([seededCallSid(5), seededCallSid(6)].sort());
	});

	describe('refused before sending', () => {
		const many = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(',');
		it.each([
			['101 call SIDs', { sid: many(101, seededCallSid) }, 'Call SIDs has 101 entries; the limit is 100 (item 0)'],
			['6 To numbers', { to: many(6, (i) => `+91998870000${i}`) }, 'To has 6 entries; the limit is 5 (item 0)'],
			['6 From numbers', { from: many(6, (i) => `+91998870000${i}`) }, 'From has 6 entries; the limit is 5 (item 0)'],
			['6 phone numbers', { phoneNumber: many(6, (i) => `+91804711223${i}`) }, 'Phone Number has 6 entries; the limit is 5 (item 0)'],
			['page size 101', { pageSize: 101 }, 'Page Size is 101; the maximum is 100 (item 0)'],
			['recording URL validity 61', { recordingUrlValidity: 61 }, 'Recording URL Validity is 61; the maximum is 60 (item 0)'],
			['recording URL validity 4', { recordingUrlValidity: 4 }, 'Recording URL Validity is 4; the minimum is 5 (item 0)'],
		])('%s', async (_name, filters, message) => {
			const result = await run({ operation: 'getMany', filters });
			expect(result.error?.message).toBe(message);
			expect(sandbox.requests()).toHaveLength(0);
		});

		it('accepts exactly 100 SIDs and 5 numbers', async () => {
			const result = await run({ operation: 'getMany', filters: { sid: many(100, seededCallSid), to: SANDBOX_CALL_CUSTOMERS.slice(0, 5).join(',') } });
			expect(result.error).toBeUndefined();
			expect(sandbox.requests()[0].status).toBe(200);
		});
	});

	describe('the history window (6 months back, 1 month per request), checked before sending', () => {
		it('a 40-day range with a Limit is refused naming the fields, the item and the limit; nothing is sent', async () => {
			const result = await run({ operation: 'getMany', returnAll: false, limit: 10, filters: { dateCreatedFrom: day(40), dateCreatedTo: day(1) } });
			expect(result.error?.message).toMatch(/^Created After to Created Before spans (39|40) days; the limit is 1 month per request \(turn on Return All to fetch a longer range month by month\) \(item 0\)$/);
			expect(sandbox.requests()).toHaveLength(0);
		});

		it('a bound older than 6 months is refused (even with Return All), naming the field and the limit', async () => {
			const result = await run({ operation: 'getMany', returnAll: true, filters: { dateCreatedFrom: day(200), dateCreatedTo: day(190) } });
			expect(result.error?.message).toMatch(/^Created After is \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}; the service keeps 6 months of history \(nothing before .+\) \(item 0\)$/);
			expect(sandbox.requests()).toHaveLength(0);
		});

		it('the item that breaks the window fails alone: the next item is sent', async () => {
			const result = await run(
				{ operation: 'getMany', returnAll: false, limit: 5, filters: { dateCreatedFrom: '={{ $json.from }}', dateCreatedTo: day(1) } },
				[{ from: day(40) }, { from: day(10) }],
				{ onError: 'continueRegularOutput' },
			);
			const out = result.output('Exotel');
			expect(out[0].json.error).toMatch(/spans .* days; the limit is 1 month per request .*\(item 0\)$/);
			expect(sandbox.requests()).toHaveLength(1);
			expect(sandbox.requests()[0].status).toBe(200);
		});

		it('exactly one month is one request, and the service takes it', async () => {
			// Fixed dates, whatever today is: the clock (Date only; timers stay real, and it runs on from
			// there) reads 2026-03-20, so 6 months back is 2025-09-20. 15 January to 15 February is one
			// calendar month of 31 days, clear of the end-of-month clamp, both bounds inside the window.
			jest.useFakeTimers({
				now: new Date('2026-03-20T12:00:00Z'),
				advanceTimers: true,
				doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
			});
			try {
				const [from, to] = ['2026-01-15T08:30:00', '2026-02-15T08:30:00'];
				const result = await run({ operation: 'getMany', returnAll: true, filters: { dateCreatedFrom: from, dateCreatedTo: to, pageSize: 100 } });
				expect(result.error).toBeUndefined();
				const requests = sandbox.requests();
				expect(requests.length).toBeGreaterThan(0);
				expect(new Set(requests.map((r) => r.query.DateCreated))).toEqual(new Set(['gte:2026-01-15 08:30:00;lte:2026-02-15 08:30:00']));
				expect(requests.every((r) => r.status === 200)).toBe(true);
			} finally {
				jest.useRealTimers();
			}
		});

		it.each([
			['newest first', false],
			['oldest first', true],
		])('Return All over 50 days is split into month-sized ranges, each paged, %s: the same calls as one query would give', async (_name, oldestFirst) => {
			const [from, to] = [day(50), day(0)];
			const [lo, hi] = [from.replace('T', ' '), to.replace('T', ' ')];
			const newestFirst = (await everyCall()).filter((c) => c.DateCreated >= lo && c.DateCreated <= hi);
			const oracle = oldestFirst ? [...newestFirst].reverse() : newestFirst;
			const result = await run({ operation: 'getMany', returnAll: true, filters: { dateCreatedFrom: from, dateCreatedTo: to, pageSize: 100, oldestFirst } });
			expect(result.error).toBeUndefined();
			const requests = sandbox.requests();
			// Every request within the window: the service answered each, none was refused.
			expect(requests.every((r) => r.status === 200)).toBe(true);
			const ranges = [...new Set(requests.map((r) => String(r.query.DateCreated)))];
			expect(ranges).toHaveLength(2);
			const bounds = ranges.map((r) => /^gte:(.+);lte:(.+)$/.exec(r)!.slice(1));
			const ordered = oldestFirst ? bounds : [...bounds].reverse();
			expect(ordered[0][0]).toBe(lo);
			expect(ordered[1][1]).toBe(hi);
			// Contiguous, no overlap: the second starts one second after the first ends.
			expect(Date.parse(`${ordered[1][0].replace(' ', 'T')}Z`) - Date.parse(`${ordered[0][1].replace(' ', 'T')}Z`)).toBe(1000);
			// The first range is paged through (more than one page of 100) before the second starts.
			expect(requests.length).toBeGreaterThan(2);
			const firstRangeRequests = requests.filter((r) => r.query.DateCreated === ranges[0]).length;
			expect(requests.slice(0, firstRangeRequests).every((r) => r.query.DateCreated === ranges[0])).toBe(true);
			expect(result.output('Exotel').map((o) => o.json.callSid)).toEqual(oracle.map((c) => c.Sid));
		});
	});

	it('401 with a wrong token', async () => {
		const result = await run({ operation: 'getMany' }, [{}], {}, { exotelApi: { apiToken: 'bad-SECRET' } });
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.message).toBe("Authentication failed: check the credential's API key and token");
	});
});

describe('Exotel Voice → Call → Get Details (management API)', () => {
	// the call vocabulary, then what the management API adds, then the answer's call_details under raw
	const keys = [
		...CALL_KEYS,
		'state', 'virtualNumber', 'customerNumber', 'createdTime', 'updatedTime', 'talkTime', 'recordingAvailable', 'customField', 'agent', 'legsPath', 'shape', 'raw',
	];

	it('shape A and shape B give items with the same keys, the answer kept under raw', async () => {
		const oracle = await everyCall();
		const shapeA = oracle.find((c) => !c.Sid.startsWith('b') && c.Status === 'completed' && c.RecordingUrl && c.Direction === 'outbound-api')!;
		const shapeB = oracle.find((c) => c.Sid.startsWith('b') && c.Status === 'completed' && c.RecordingUrl && c.Direction === 'outbound-api')!;
		const result = await run({ operation: 'getDetails', callSid: '={{ $json.sid }}' }, [{ sid: shapeA.Sid }, { sid: shapeB.Sid }]);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => [r.base, r.path]).sort()).toEqual(
			[
				['ccm', `/v2/accounts/${SID}/calls/${shapeA.Sid}`],
				['ccm', `/v2/accounts/${SID}/calls/${shapeB.Sid}`],
			].sort(),
		);
		expect(requests.every((r) => r.headers.authorization === basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken))).toBe(true);
		const [a, b] = result.output('Exotel').map((o) => o.json);
		expect(Object.keys(a)).toEqual(keys);
		expect(Object.keys(b)).toEqual(keys);
		expect(a).toMatchObject({
			callSid: shapeA.Sid,
			state: 'terminal',
			status: 'completed',
			direction: 'outbound',
			virtualNumber: shapeA.PhoneNumberSid,
			from: shapeA.From,
			to: shapeA.To,
			customerNumber: shapeA.To,
			duration: Number(shapeA.Duration),
			recordingUrl: expect.stringContaining('/__recordings/'),
			recordingAvailable: true,
			customField: expect.stringMatching(/^order-/),
			agent: { userId: expect.stringMatching(/^user-/), name: expect.any(String), email: expect.stringContaining('@'), contactUri: null },
			legsPath: null,
			shape: 'A',
			raw: { call_sid: shapeA.Sid, agent_details: expect.any(Object) },
		});
		// the times and the talk time as shape A names them (it has no created or updated time)
		const rawA = a.raw as IDataObject;
		expect([a.startTime, a.endTime, a.createdTime, a.updatedTime, a.talkTime, a.recordingUrl, a.customField]).toEqual([
			rawA.start_time,
			rawA.end_time,
			null,
			null,
			rawA.talk_time,
			rawA.recording_url,
			rawA.custom_field,
		]);
		expect(typeof a.startTime).toBe('string');
		expect(typeof a.talkTime).toBe('number');
		expect(b).toMatchObject({
			callSid: shapeB.Sid,
			state: 'terminal',
			status: 'completed',
			direction: 'outbound-api',
			virtualNumber: shapeB.PhoneNumberSid,
			from: null,
			to: null,
			customerNumber: shapeB.To,
			createdTime: expect.any(String),
			duration: Number(shapeB.Duration),
			recordingUrl: expect.stringContaining('/__recordings/'),
			recordingAvailable: true,
			agent: { userId: expect.stringMatching(/^user-/), name: null, email: null, contactUri: expect.stringMatching(/^\+91/) },
			legsPath: `/v2/accounts/${SID}/calls/${shapeB.Sid}/legs`,
			shape: 'B',
			raw: { sid: shapeB.Sid, recording: { available: true, url: expect.any(String) } },
		});
		// the times, durations and recording as shape B names them
		const rawB = b.raw as IDataObject;
		expect([b.startTime, b.endTime, b.createdTime, b.updatedTime, b.duration, b.talkTime, b.recordingUrl]).toEqual([
			rawB.start_time,
			rawB.end_time,
			rawB.created_time,
			rawB.updated_time,
			rawB.total_duration,
			rawB.total_talk_time,
			(rawB.recording as IDataObject).url,
		]);
		expect(typeof b.startTime).toBe('string');
		expect(typeof b.talkTime).toBe('number');
	});

	it('a call without a recording reads the same in both shapes: recordingAvailable false, recordingUrl null', async () => {
		const oracle = await everyCall();
		const a = oracle.find((c) => !c.Sid.startsWith('b') && !c.RecordingUrl)!;
		const b = oracle.find((c) => c.Sid.startsWith('b') && !c.RecordingUrl)!;
		const result = await run({ operation: 'getDetails', callSid: '={{ $json.sid }}' }, [{ sid: a.Sid }, { sid: b.Sid }]);
		const out = result.output('Exotel').map((o) => o.json);
		expect(out.map((o) => [o.shape, o.recordingAvailable, o.recordingUrl])).toEqual([
			['A', false, null],
			['B', false, null],
		]);
		expect('recording_url' in (out[0].raw as object)).toBe(false);
		expect((out[1].raw as IDataObject).recording).toEqual({ available: false, url: null });
	});

	it('404 for an unknown call, in the service’s words', async () => {
		const result = await run({ operation: 'getDetails', callSid: 'f'.repeat(32) });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe(`Not found (code 1004)`);
		expect(result.error?.description).toContain(`Call ${'f'.repeat(32)} does not exist for this account`);
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const EXOML_FLOW = 'http://my.exotel.com/exotelsandbox1/exoml/start_voice/926';
const CONNECT = { resource: 'call', operation: 'connect', from: '+919876543210', callerId: '+918047112233', url: EXOML_FLOW };
const GET_MANY = { resource: 'call', operation: 'getMany' };

const REFUSED: RefusedCase[] = [
	refused('Connect Time Limit 14401', 'exotelVoice', { ...CONNECT, additionalFields: { timeLimit: 14401 } }, 'Time Limit is 14401; the maximum is 14400'),
	refused('Connect bad From', 'exotelVoice', { ...CONNECT, from: '={{ $json.from }}' }, 'From must be a phone number such as +919876543210 (got "call me")', { items: [{ from: '+919876543210' }, { from: 'call me' }], item: 1 }),
	refused('Connect empty Caller ID', 'exotelVoice', { ...CONNECT, callerId: '={{ "" }}' }, 'Caller ID is required'),
	refused('Connect bad Flow URL', 'exotelVoice', { ...CONNECT, url: 'my-flow' }, 'Flow URL must be an http(s) URL (got "my-flow")'),
	refused('Get Many 101 call SIDs', 'exotelVoice', { ...GET_MANY, filters: { sid: list(101, seededCallSid) } }, 'Call SIDs has 101 entries; the limit is 100'),
	refused('Get Many 6 To numbers', 'exotelVoice', { ...GET_MANY, filters: { to: list(6, (i) => `+91998870000${i}`) } }, 'To has 6 entries; the limit is 5'),
	refused('Get Many 6 From numbers', 'exotelVoice', { ...GET_MANY, filters: { from: list(6, (i) => `+91998870000${i}`) } }, 'From has 6 entries; the limit is 5'),
	refused('Get Many 6 phone numbers', 'exotelVoice', { ...GET_MANY, filters: { phoneNumber: list(6, (i) => `+91804711223${i}`) } }, 'Phone Number has 6 entries; the limit is 5'),
	refused('Get Many Page Size 101', 'exotelVoice', { ...GET_MANY, filters: { pageSize: 101 } }, 'Page Size is 101; the maximum is 100'),
	refused('Get Many Recording URL Validity 4', 'exotelVoice', { ...GET_MANY, filters: { recordingUrlValidity: 4 } }, 'Recording URL Validity is 4; the minimum is 5'),
	refused('Get Many Recording URL Validity 61', 'exotelVoice', { ...GET_MANY, filters: { recordingUrlValidity: 61 } }, 'Recording URL Validity is 61; the maximum is 60'),
	refused('Call get empty SID', 'exotelVoice', { resource: 'call', operation: 'get', callSid: '={{ "" }}' }, 'Call SID is required'),
	refused('Connect empty From', 'exotelVoice', { ...CONNECT, from: '={{ "" }}' }, 'From is required'),
	refused('Connect empty Flow URL', 'exotelVoice', { ...CONNECT, url: '={{ "" }}' }, 'Flow URL is required'),
	refused('Connect bad Status Callback URL', 'exotelVoice', { ...CONNECT, statusCallback: 'status' }, 'Status Callback URL must be an http(s) URL (got "status")'),
	refused('Connect fractional Time Limit', 'exotelVoice', { ...CONNECT, additionalFields: { timeLimit: 90.5 } }, 'Time Limit must be a whole number (got 90.5)'),
	refused('Connect fractional Time Out', 'exotelVoice', { ...CONNECT, additionalFields: { timeOut: 20.5 } }, 'Time Out must be a whole number (got 20.5)'),
	refused('Connect bad Status Callback Events (expression)', 'exotelVoice', { ...CONNECT, additionalFields: { statusCallbackEvents: '={{ ["ringing"] }}' } }, 'Status Callback Events [0] must be one of answered, terminal (got "ringing")'),
	refused('Get Many non-E.164 To', 'exotelVoice', { ...GET_MANY, filters: { to: '+919988700001, 09988700002' } }, 'To [1] must be an E.164 number such as +919876543210 (got "09988700002")'),
	refused('Get Many non-E.164 From', 'exotelVoice', { ...GET_MANY, filters: { from: '9988700001' } }, 'From [0] must be an E.164 number such as +919876543210 (got "9988700001")'),
	refused('Get Many bad Status (expression)', 'exotelVoice', { ...GET_MANY, filters: { status: '={{ "ringing" }}' } }, 'Status must be one of busy, completed, failed, no-answer (got "ringing")'),
	refused('Get Many bad Direction (expression)', 'exotelVoice', { ...GET_MANY, filters: { direction: '={{ "outbound" }}' } }, 'Direction must be one of inbound, outbound-api, outbound-dial (got "outbound")'),
	refused('Call get details empty SID', 'exotelVoice', { resource: 'call', operation: 'getDetails', callSid: '={{ "" }}' }, 'Call SID is required'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'voice call', node: 'exotelVoice', parameters: { ...CONNECT, additionalFields: { timeLimit: '={{ $json.limit }}' } }, items: [{ limit: 600 }, { limit: 14401 }], bad: 1, message: 'Time Limit is 14401; the maximum is 14400 (item 1)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'Call connect: success', node: 'exotelVoice', parameters: CONNECT, outcome: 'ok' },
	{ name: 'Call connect: wrong API token (401)', node: 'exotelVoice', parameters: CONNECT, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Call connect: service 400 (flow of another account)', node: 'exotelVoice', parameters: { ...CONNECT, url: 'http://my.exotel.com/otheraccount/exoml/start_voice/1' }, outcome: 'error', httpCode: '400' },
	{ name: 'Call connect: reset before', node: 'exotelVoice', parameters: CONNECT, faults: [[resetBefore, 6]], outcome: 'error' },
	{ name: 'Call connect: reset after', node: 'exotelVoice', parameters: CONNECT, faults: [[resetAfter, 1]], outcome: 'error' },
	{ name: 'Call get: 404, continue', node: 'exotelVoice', parameters: { resource: 'call', operation: 'get', callSid: 'f'.repeat(32) }, onError: 'continueRegularOutput', outcome: 'ok' },
	{ name: 'Call get many: 429s past Rate Limit → Max Wait', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getMany', limit: 5, ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'Call get many: reset before on every attempt', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getMany', limit: 5 }, faults: [[resetBefore, 6]], outcome: 'error' },
	{ name: 'Call get details: success', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getDetails', callSid: seededCallSid(1) }, outcome: 'ok' },
	{ name: 'Call get details: wrong API token (401, ccm base)', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getDetails', callSid: seededCallSid(1) }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
];

describeNoSecrets(SECRET_CASES);
