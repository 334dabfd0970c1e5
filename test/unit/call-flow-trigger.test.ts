/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a local HTTP server carries the trigger's requests, and n8n's late writes are played on timers (http, setTimeout); never shipped */
/**
 * The Exotel Call Flow Trigger at the HTTP level, on a real Node server: who may ask (the secret in
 * the path, allowed addresses), HEAD, the held request (the Answer operation's answer passes with
 * its mark taken off, anything else n8n writes becomes the fallback, as does a slow workflow), and
 * repeats. n8n's own writes are played here the way its webhook helpers make them (setHeader /
 * setHeaders, then end); test/e2e/call-flows.e2e.test.ts runs the same on real n8n.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { addressAllowed, badAddressEntries, secretMatches } from '../../nodes/ExotelCallFlowTrigger/access';
import { ExotelCallFlowTrigger } from '../../nodes/ExotelCallFlowTrigger/ExotelCallFlowTrigger.node';
import { fallbackAnswer } from '../../nodes/ExotelCallFlowTrigger/fields';
import { earlierAnswer, rememberRequest, REPEAT_WINDOW_MS, requestKey } from '../../nodes/ExotelCallFlowTrigger/inFlight';
import { ANSWER_MARK } from '../../nodes/shared/callFlows/answers';

const SECRET = 'unit-call-flow-secret-of-the-url';
const trigger = new ExotelCallFlowTrigger();

/** What the test plays as n8n once webhook() returned: nothing, the Answer's write, or n8n's own. */
type N8nWrite = 'none' | 'answer' | 'emptyOk' | 'error' | 'answerAtOnceHeaders';

interface Exchange {
	parameters: IDataObject;
	credentials?: IDataObject;
	n8n: N8nWrite;
	/** ms after webhook() returned before n8n writes */
	delayMs?: number;
	node?: string;
}

let server: http.Server;
let origin: string;
let current: Exchange;
const returned: IWebhookResponseData[] = [];
const warnings: string[] = [];
const laterWriteErrors: unknown[] = [];

/** Express's helpers, as n8n's `res` has them, over Node's methods (which the trigger guards). */
function expressLike(res: http.ServerResponse) {
	const out = res as http.ServerResponse & Record<string, (...args: never[]) => unknown>;
	out.status = ((code: number) => {
		res.statusCode = code;
		return out;
	}) as never;
	out.type = ((type: string) => {
		res.setHeader('Content-Type', type);
		return out;
	}) as never;
	out.send = ((body: string | undefined = '') => {
		if (!res.getHeader('content-type')) res.setHeader('Content-Type', 'text/html');
		res.setHeader('Content-Length', String(Buffer.byteLength(body)));
		res.end(body);
		return out;
	}) as never;
	out.json = ((body: unknown) => {
		res.setHeader('Content-Type', 'application/json');
		// as Express: JSON.stringify(undefined) is no body at all
		return (out.send as (b?: string) => unknown)(JSON.stringify(body));
	}) as never;
	return out;
}

/** n8n's writes after the trigger returned, in the order its webhook helpers make them. */
function n8nWrites(res: ReturnType<typeof expressLike>, write: N8nWrite): void {
	const send = res.send as (body: string) => unknown;
	try {
		if (write === 'answer') {
			res.statusCode = 302;
			res.setHeader(ANSWER_MARK, 'passthru');
			res.setHeader('content-type', 'text/plain');
			send('');
		} else if (write === 'answerAtOnceHeaders') {
			// newer n8n: WebhookResponseHeaders.applyToResponse → res.setHeaders(map)
			res.statusCode = 200;
			res.setHeaders(new Map([[ANSWER_MARK, 'gather'], ['content-type', 'application/json']]));
			send('{"gather_prompt":{"text":"Your order number, please"}}');
		} else if (write === 'emptyOk') {
			(res.json as (body: unknown) => unknown)(undefined);
		} else if (write === 'error') {
			res.statusCode = 500;
			(res.json as (body: unknown) => unknown)({ code: 0, message: 'Error in workflow' });
		}
	} catch (error) {
		laterWriteErrors.push(error);
	}
}

beforeAll(async () => {
	server = http.createServer((req, rawRes) => {
		const res = expressLike(rawRes);
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const exchange = current;
		const context = {
			getRequestObject: () => ({ method: req.method, query: Object.fromEntries(url.searchParams), body: {}, ip: req.socket.remoteAddress, headers: req.headers }),
			getResponseObject: () => res,
			getParamsData: () => ({ secret: url.pathname.split('/').pop() }),
			getNodeParameter: (name: string, fallback?: unknown) => (name in exchange.parameters ? exchange.parameters[name] : fallback),
			getCredentials: async () => exchange.credentials ?? { secret: SECRET, allowedAddresses: '' },
			getNode: () => ({ id: exchange.node ?? 'node-1', name: 'Call Flow Trigger' }),
			getWorkflow: () => ({ id: 'workflow-1', name: 'Route callers' }),
			logger: { warn: (message: string) => warnings.push(message) },
			helpers: { returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })) },
		} as unknown as IWebhookFunctions;
		void trigger.webhook.call(context).then((response) => {
			returned.push(response);
			if (response.noWebhookResponse || !response.workflowData) return;
			setTimeout(() => n8nWrites(res, exchange.n8n), exchange.delayMs ?? 0);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
	returned.length = 0;
	warnings.length = 0;
	laterWriteErrors.length = 0;
});

async function ask(exchange: Exchange, options: { method?: string; secret?: string; callSid?: string; more?: Record<string, string> } = {}) {
	current = exchange;
	const query = new URLSearchParams({ CallSid: options.callSid ?? `call-${Math.random()}`, From: '09876543210', CurrentTime: '2026-12-03 18:30:00', ...options.more });
	const response = await fetch(`${origin}/webhook/id/passthru/id/${options.secret ?? SECRET}?${query}`, { method: options.method ?? 'GET' });
	return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text(), headers: [...response.headers.keys()] };
}

const passthru = { applet: 'passthru', passthruMode: 'sync', answerWithin: 2, fallbackBranch: 'first' };

describe('who may ask', () => {
	test('the secret is compared whole: another, a prefix, a longer one, none, or a credential secret shorter than 16 all fail', () => {
		expect(secretMatches(SECRET, SECRET)).toBe(true);
		for (const given of ['x', SECRET.slice(0, -1), `${SECRET}x`, '', undefined, 42]) expect(secretMatches(given, SECRET)).toBe(false);
		expect(secretMatches('short-secret', 'short-secret')).toBe(false);
	});

	test('allowed addresses: any when empty, else exact addresses and IPv4 ranges, IPv4 in IPv6 read as IPv4', () => {
		expect(addressAllowed('', '203.0.113.9')).toBe(true);
		expect(addressAllowed('203.0.113.9', '203.0.113.9')).toBe(true);
		expect(addressAllowed('203.0.113.9', '203.0.113.10')).toBe(false);
		expect(addressAllowed('198.51.100.0/24, 10.0.0.1', '::ffff:198.51.100.77')).toBe(true);
		expect(addressAllowed('198.51.100.0/24', '198.51.101.1')).toBe(false);
		expect(addressAllowed('10.0.0.0/8', '10.255.1.2')).toBe(true);
		expect(addressAllowed('2001:db8::1', '2001:db8::1')).toBe(true);
		expect(addressAllowed('10.0.0.0/8', undefined)).toBe(false);
		expect(badAddressEntries('10.0.0.0/8, 10.0.0.300, example.com, 10.0.0.0/33, ::1')).toEqual(['10.0.0.300', 'example.com', '10.0.0.0/33']);
	});

	test('a wrong secret gets 401 and a source outside Allowed Addresses 403, each starting nothing', async () => {
		expect(await ask({ parameters: passthru, n8n: 'answer' }, { secret: 'not-the-secret-at-all' })).toMatchObject({ status: 401 });
		expect(await ask({ parameters: passthru, n8n: 'answer', credentials: { secret: SECRET, allowedAddresses: '203.0.113.0/24' } })).toMatchObject({ status: 403 });
		expect(returned).toEqual([{ noWebhookResponse: true }, { noWebhookResponse: true }]);
	});

	test('the credential test refuses a short secret, one unfit for a URL path and a bad address', async () => {
		const test = (data: IDataObject) => trigger.methods.credentialTest.callFlowSecretTest.call({} as never, { id: '1', name: 'c', type: 'exotelCallFlowApi', data: data as never });
		expect(await test({ secret: 'short' })).toMatchObject({ status: 'Error', message: expect.stringContaining('at least 16') });
		expect(await test({ secret: 'has a space in it ok?' })).toMatchObject({ status: 'Error', message: expect.stringContaining('URL path') });
		expect(await test({ secret: SECRET, allowedAddresses: 'exotel.com' })).toMatchObject({ status: 'Error', message: expect.stringContaining('exotel.com') });
		expect(await test({ secret: SECRET, allowedAddresses: '203.0.113.0/24' })).toMatchObject({ status: 'OK' });
	});
});

describe('the held request', () => {
	test('HEAD gets the content type the GET would, no body and no execution', async () => {
		expect(await ask({ parameters: { ...passthru, applet: 'greeting' }, n8n: 'answer' }, { method: 'HEAD' })).toMatchObject({ status: 200, contentType: 'text/plain', body: '' });
		expect(await ask({ parameters: { ...passthru, applet: 'connect' }, n8n: 'answer' }, { method: 'HEAD' })).toMatchObject({ status: 200, contentType: 'application/json' });
		expect(returned.every((response) => response.workflowData === undefined)).toBe(true);
	});

	test("the Answer operation's answer passes as written, without the mark", async () => {
		const got = await ask({ parameters: passthru, n8n: 'answer' });
		expect(got).toMatchObject({ status: 302, contentType: 'text/plain', body: '' });
		expect(got.headers).not.toContain(ANSWER_MARK);
		const atOnce = await ask({ parameters: { ...passthru, applet: 'gather', fallbackPrompt: 'Later' }, n8n: 'answerAtOnceHeaders' });
		expect(atOnce).toMatchObject({ status: 200, contentType: 'application/json', body: '{"gather_prompt":{"text":"Your order number, please"}}' });
		expect(atOnce.headers).not.toContain(ANSWER_MARK);
		expect(returned[0].workflowData?.[0]?.[0]?.json).toMatchObject({ from: '09876543210', fromE164: '+919876543210', applet: 'passthru' });
		expect(laterWriteErrors).toEqual([]);
	});

	test('what n8n writes on its own when the workflow ends without an answer (an empty 200, an error) becomes the fallback', async () => {
		expect(await ask({ parameters: passthru, n8n: 'emptyOk' })).toMatchObject({ status: 200, contentType: 'text/plain', body: '' });
		const gather = { applet: 'gather', answerWithin: 2, fallbackPrompt: 'Please call again later' };
		expect(await ask({ parameters: gather, n8n: 'error' })).toMatchObject({ status: 200, contentType: 'application/json', body: '{"gather_prompt":{"text":"Please call again later"}}' });
		// the second branch as fallback, so that an empty 200 (the first) is not what came through
		expect(await ask({ parameters: { ...passthru, fallbackBranch: 'second' }, n8n: 'emptyOk' })).toMatchObject({ status: 302 });
		expect(warnings.filter((w) => w.includes('ended without an Answer'))).toHaveLength(3);
	});

	test('a workflow slower than Answer Within gets the fallback then; its late answer is dropped without an error', async () => {
		const started = Date.now();
		const got = await ask({ parameters: { ...passthru, answerWithin: 1, fallbackBranch: 'second' }, n8n: 'answer', delayMs: 2500 });
		expect(got).toMatchObject({ status: 302, body: '' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(laterWriteErrors).toEqual([]);
		expect(warnings).toEqual(['Exotel: "Call Flow Trigger" of workflow "Route callers" gave the call its fallback answer (302): the workflow did not answer within Answer Within']);
	});

	test('an async Passthru is answered with the first branch at once; what the workflow writes later is dropped', async () => {
		const got = await ask({ parameters: { applet: 'passthru', passthruMode: 'async' }, n8n: 'error', delayMs: 200 });
		expect(got).toMatchObject({ status: 200, body: '' });
		expect(returned[0].workflowData).toHaveLength(1);
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect(laterWriteErrors).toEqual([]);
	});

	test('a repeat of a request (the clock aside) gets the first answer and starts nothing; another visit does start', async () => {
		const callSid = 'repeat-call-1';
		const first = await ask({ parameters: passthru, n8n: 'answer', node: 'repeat-node' }, { callSid });
		const again = await ask({ parameters: passthru, n8n: 'emptyOk', node: 'repeat-node' }, { callSid, more: { CurrentTime: '2026-12-03 18:30:07' } });
		expect(again).toMatchObject({ status: first.status, body: first.body });
		expect(again.status).toBe(302);
		const other = await ask({ parameters: passthru, n8n: 'answer', node: 'repeat-node' }, { callSid, more: { digits: '"2"' } });
		expect(other.status).toBe(302);
		expect(returned.map((response) => response.workflowData !== undefined)).toEqual([true, false, true]);
	});
});

describe('remembering requests', () => {
	test('a key is the trigger, the call and its parameters but the clock; none without a CallSid', () => {
		const key = requestKey('w/n', { CallSid: 'c1', From: '0987', CurrentTime: '18:30:00' });
		expect(requestKey('w/n', { From: '0987', CurrentTime: '18:31:00', CallSid: 'c1' })).toBe(key);
		expect(requestKey('w/n', { CallSid: 'c1', From: '0987', digits: '"1"' })).not.toBe(key);
		expect(requestKey('w/other', { CallSid: 'c1', From: '0987' })).not.toBe(key);
		expect(requestKey('w/n', { From: '0987' })).toBeUndefined();
	});

	test('an answer is given again within the window only', async () => {
		const answer = Promise.resolve({ status: 200, contentType: 'text/plain', body: '', by: 'workflow' as const });
		rememberRequest('window-key', answer, 1_000);
		expect(earlierAnswer('window-key', 1_000 + REPEAT_WINDOW_MS - 1)).toBe(answer);
		expect(earlierAnswer('window-key', 1_000 + REPEAT_WINDOW_MS)).toBeUndefined();
	});
});

describe('the fallback answer', () => {
	const of = (applet: 'passthru' | 'connect' | 'gather' | 'greeting', parameters: IDataObject) => fallbackAnswer(applet, (name) => parameters[name] ?? '');

	test('each applet: the branch, the numbers with their caller id, the prompt, the text; 503 where none is given', () => {
		expect(of('passthru', { fallbackBranch: 'select', fallbackSelect: 'default' })).toEqual({ status: 200, contentType: 'text/plain', body: '{"select":"default"}' });
		expect(of('connect', { fallbackNumbers: '+919812340001, +919812340002', fallbackCallerId: '+918041234567' })).toEqual({
			status: 200,
			contentType: 'application/json',
			body: '{"destination":{"numbers":["+919812340001","+919812340002"]},"outgoing_phone_number":"+918041234567"}',
		});
		expect(of('gather', { fallbackPrompt: 'Press 1 for sales' })).toEqual({ status: 200, contentType: 'application/json', body: '{"gather_prompt":{"text":"Press 1 for sales"}}' });
		expect(of('greeting', { fallbackText: 'We are closed' })).toEqual({ status: 200, contentType: 'text/plain', body: 'We are closed' });
		for (const applet of ['connect', 'gather', 'greeting'] as const) expect(of(applet, {})).toEqual({ status: 503, contentType: 'text/plain', body: '' });
	});

	test('a fallback the service would refuse names its field', () => {
		expect(of('connect', { fallbackNumbers: '+919812340001', fallbackCallerId: '08041234567' })).toEqual({
			problems: ['Fallback Numbers or Fallback Caller ID: outgoing_phone_number must be an ExoPhone in E.164 (+918041234567), got "08041234567"'],
		});
		expect(of('passthru', { fallbackBranch: 'select', fallbackSelect: ' ' })).toEqual({ problems: ['Fallback Keyword: the Switch Case keyword is empty'] });
	});
});
