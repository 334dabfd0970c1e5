/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a local HTTP server stands in for the customer's URLs and answers late on purpose (http, net, setTimeout); never shipped */
/**
 * Call flows (callFlows/, ../shared/notes/call-flows.md): an incoming call played through a flow of
 * applets, asserted at the wire of a local HTTP server that stands in for the customer's URLs: the
 * GETs and their query, the headers, HEAD before GET, each applet's answers taken or refused, the
 * budget and the Fallback URL, dialling, digits, repeated requests; and the control API.
 */
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';

import { CallFlowInputError, MAX_MENU_HEARINGS } from './callFlows';
import { callFlows, playCallFlow } from './client';
import { sandboxControl } from './receiver';
import { ExotelSandbox } from './server';
import type { CallFlowResult } from './server';
import { budget } from './timing';

const FROM = '+919876543210';
const TO = '+918041234567';
const AGENT_A = '+919812340001';
const AGENT_B = '+919812340002';
const EXOPHONE = '+918047112233';
const INDIA_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

// ---------------------------------------------------------------- the customer's URLs

/** One request the customer's server got. */
interface Hit {
	method: string;
	/** Path and query as requested. */
	url: string;
	pathname: string;
	/** The raw query, after the `?`. */
	rawQuery: string;
	query: URLSearchParams;
	headers: http.IncomingHttpHeaders;
}

/** How a path answers: status (200), content type (text/plain), body (''), after delayMs. */
interface Reply {
	status?: number;
	type?: string;
	body?: string;
	delayMs?: number;
}

type Route = Reply | ((hit: Hit, nth: number) => Reply);

const text = (body: string, extra: Reply = {}): Reply => ({ type: 'text/plain; charset=utf-8', body, ...extra });
const json = (body: unknown, extra: Reply = {}): Reply => ({ type: 'application/json', body: JSON.stringify(body), ...extra });

/** A local server standing in for the customer's URLs: records every request, answers per path (404 otherwise). */
class Customer {
	readonly hits: Hit[] = [];

	/** Answers sent, per pathname. */
	readonly answered = new Map<string, number>();

	private readonly routes = new Map<string, Route>();

	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly sockets = new Set<Socket>();

	private server!: http.Server;

	origin = '';

	async start(): Promise<void> {
		this.server = http.createServer((req, res) => this.serve(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	on(path: string, route: Route): string {
		this.routes.set(path, route);
		return this.origin + path;
	}

	at(pathname: string): Hit[] {
		return this.hits.filter((hit) => hit.pathname === pathname);
	}

	private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
		const url = req.url ?? '/';
		const parsed = new URL(url, 'http://x');
		const hit: Hit = { method: req.method ?? '', url, pathname: parsed.pathname, rawQuery: url.split('?')[1] ?? '', query: parsed.searchParams, headers: req.headers };
		const nth = this.at(hit.pathname).length;
		this.hits.push(hit);
		const route = this.routes.get(hit.pathname);
		const reply: Reply = route === undefined ? { status: 404, body: 'no route' } : typeof route === 'function' ? route(hit, nth) : route;
		const answer = () => {
			this.answered.set(hit.pathname, (this.answered.get(hit.pathname) ?? 0) + 1);
			if (res.destroyed) return;
			res.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'text/plain' });
			res.end(reply.body ?? '');
		};
		if (!reply.delayMs) return answer();
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			answer();
		}, reply.delayMs);
		this.timers.add(timer);
	}
}

// ---------------------------------------------------------------- the sandbox and the calls

let sandbox: ExotelSandbox;
let origin: string;
const customer = new Customer();
let pathSeq = 0;
/** A fresh path per use, so tests never see each other's requests. */
const fresh = (name: string) => `/webhook/flow/${name}/${++pathSeq}`;

beforeAll(async () => {
	sandbox = new ExotelSandbox();
	origin = await sandbox.start();
	await customer.start();
});

afterAll(async () => {
	await sandbox.stop();
	await customer.stop();
});

function play(flow: unknown, options: Record<string, unknown> = {}): Promise<CallFlowResult> {
	return sandbox.playCallFlow({ flow, from: FROM, to: TO, ...options });
}

/** A static Greeting that hangs up: the caller hears `words`. */
const say = (words: string, next = 'hangup') => ({ kind: 'greeting', text: words, next });

/** A sync Passthru answering 200 that hangs up: records the query the next applet got. */
function probe(): { path: string; applet: Record<string, unknown> } {
	const path = fresh('probe');
	return { path, applet: { kind: 'passthru', url: customer.on(path, { status: 200 }), mode: 'sync', next: { first: 'hangup', second: 'hangup' } } };
}

/** India wall clock `YYYY-MM-DD HH:mm:ss` as epoch ms. */
const indiaEpoch = (time: string) => Date.parse(`${time.replace(' ', 'T')}+05:30`);

/** Resolves once the kept call `callSid` satisfies `done` (an async answer arrives late), else rejects after `ms`. */
async function keptCall(callSid: string, done: (call: CallFlowResult) => boolean, ms: number): Promise<CallFlowResult> {
	const until = Date.now() + ms;
	for (;;) {
		const call = sandbox.callFlows().find((c) => c.callSid === callSid);
		if (call && done(call)) return call;
		if (Date.now() > until) throw new Error(`call ${callSid} not done in ${ms} ms: ${JSON.stringify(call)}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

// ---------------------------------------------------------------- the request at the wire

describe('every URL request is a GET with the service query', () => {
	it('sends the call parameters in the national form, India wall-clock times, the EndTime placeholder, replacing the URL query', async () => {
		const path = fresh('route');
		const before = Date.now();
		const call = await play(
			{ id: 7701, start: 'route', applets: { route: { kind: 'passthru', url: customer.on(path, { status: 200 }) + '?secret=old&x=1', mode: 'sync', next: { first: 'hangup' } } } },
			{ callSid: 'c0ffee01', customField: 'order-42' },
		);
		const after = Date.now();
		const [hit] = customer.at(path);
		expect(customer.at(path)).toHaveLength(1);
		expect(hit.method).toBe('GET');
		expect([...hit.query.keys()]).toEqual([
			'CallSid', 'CallFrom', 'CallTo', 'Direction', 'Created', 'StartTime', 'EndTime', 'CallType', 'DialWhomNumber', 'From', 'To', 'CurrentTime', 'flow_id', 'tenant_id', 'CustomField',
		]);
		const q = Object.fromEntries(hit.query);
		expect(q).toMatchObject({
			CallSid: 'c0ffee01',
			CallFrom: '09876543210',
			From: '09876543210',
			CallTo: '08041234567',
			To: '8041234567',
			Direction: 'incoming',
			EndTime: '1970-01-01 05:30:00',
			CallType: 'call-attempt',
			DialWhomNumber: '',
			flow_id: '7701',
			CustomField: 'order-42',
		});
		expect(hit.rawQuery).toContain('EndTime=1970-01-01+05%3A30%3A00');
		for (const key of ['Created', 'StartTime', 'CurrentTime']) {
			expect(q[key]).toMatch(INDIA_TIME);
			// UTC+5:30 whatever this machine's zone: the wall clock read back as India time is now
			expect(indiaEpoch(q[key])).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
			expect(indiaEpoch(q[key])).toBeLessThanOrEqual(after);
		}
		expect(call.steps).toEqual([
			{ applet: 'route', kind: 'passthru', outcome: 'first', next: 'hangup', requests: [expect.objectContaining({ method: 'GET', url: `${customer.origin}${hit.url}`, headers: {}, status: 200, outcome: 'first' })] },
		]);
		expect(call).toMatchObject({ callSid: 'c0ffee01', from: FROM, to: TO, ended: 'hangup', heard: [], dialled: [] });
	});

	it('sends no CustomField when the call has none, and a CallSid of 32 hex when none is given', async () => {
		const { path, applet } = probe();
		const call = await play({ start: 'p', applets: { p: applet } });
		const [hit] = customer.at(path);
		expect(hit.query.has('CustomField')).toBe(false);
		expect(hit.query.has('digits')).toBe(false);
		expect(hit.query.get('CallSid')).toBe(call.callSid);
		expect(call.callSid).toMatch(/^[0-9a-f]{32}$/);
	});

	it('sends Exotel-Version: 1.0 with a Gather and a programmable Connect, not with a classic Connect', async () => {
		const menu = customer.on(fresh('menu'), json({ gather_prompt: { text: 'Press 1' } }));
		const dial = customer.on(fresh('dial'), json({ destination: { numbers: [AGENT_A] } }));
		const classic = customer.on(fresh('classic'), text(AGENT_B));
		const call = await play(
			{
				start: 'menu',
				applets: {
					menu: { kind: 'gather', url: menu, next: { gathered: 'dial' } },
					dial: { kind: 'connect', url: dial, style: 'programmable', next: { ended: 'classic' } },
					classic: { kind: 'connect', url: classic, style: 'classic', next: { ended: 'hangup' } },
				},
			},
			{ press: ['1'] },
		);
		const version = (url: string) => customer.at(new URL(url).pathname).map((hit) => hit.headers['exotel-version']);
		expect(version(menu)).toEqual(['1.0']);
		expect(version(dial)).toEqual(['1.0']);
		expect(version(classic)).toEqual([undefined]);
		expect(call.steps.map((step) => step.requests.map((r) => r.headers))).toEqual([[{ 'Exotel-Version': '1.0' }], [{ 'Exotel-Version': '1.0' }], [{}]]);
		expect(call.steps.map((step) => step.outcome)).toEqual(['gathered', 'dialled', 'dialled']);
	});
});

// ---------------------------------------------------------------- Greeting

describe('Greeting: text from a URL', () => {
	it('sends a HEAD, then a GET with the same query of CallSid, From, To and DialWhomNumber only; speaks the text, plays audio lines', async () => {
		const spoken = fresh('greet');
		const audio = fresh('audio');
		customer.on(spoken, text('Your order ships today.'));
		customer.on(audio, text('http://127.0.0.1:9/hello.wav\n\nhttps://127.0.0.1:9/menu.mp3\n'));
		const call = await play(
			{ start: 'g1', applets: { g1: { kind: 'greeting', url: customer.origin + spoken, next: 'g2' }, g2: { kind: 'greeting', url: customer.origin + audio, next: 'bye' }, bye: say('Goodbye') } },
			{ customField: 'cf-1' },
		);
		const hits = customer.at(spoken);
		expect(hits.map((hit) => hit.method)).toEqual(['HEAD', 'GET']);
		expect(hits[0].url).toBe(hits[1].url);
		expect(Object.fromEntries(hits[1].query)).toEqual({ CallSid: call.callSid, From: '09876543210', To: '8041234567', DialWhomNumber: '', CustomField: 'cf-1' });
		expect(customer.at(audio).map((hit) => hit.method)).toEqual(['HEAD', 'GET']);
		expect(call.heard).toEqual(['Your order ships today.', 'audio: http://127.0.0.1:9/hello.wav', 'audio: https://127.0.0.1:9/menu.mp3', 'Goodbye']);
		expect(call.steps.map((step) => [step.outcome, step.requests.map((r) => r.method)])).toEqual([
			['spoken', ['HEAD', 'GET']],
			['spoken', ['HEAD', 'GET']],
			['spoken', []],
		]);
	});

	it.each([
		['the HEAD and the GET answer application/json', () => json({ text: 'hi' }), ['HEAD']],
		['the HEAD answers text/plain but the GET application/json', (hit: Hit) => (hit.method === 'HEAD' ? text('') : json({ text: 'hi' })), ['HEAD', 'GET']],
	])('fails when %s: the caller hears nothing of it and the flow goes on', async (_name, answer, methods) => {
		const path = fresh('greet-json');
		customer.on(path, answer);
		const call = await play({ start: 'g', applets: { g: { kind: 'greeting', url: customer.origin + path, next: 'bye' }, bye: say('Goodbye') } });
		expect(customer.at(path).map((hit) => hit.method)).toEqual(methods);
		expect(call.steps[0]).toMatchObject({ outcome: 'failed', reason: 'invalid: content type application/json, not text/plain', next: 'bye' });
		expect(call.heard).toEqual(['Goodbye']);
	});
});

// ---------------------------------------------------------------- Passthru

describe('Passthru', () => {
	const branches = (url: string, extra: Record<string, unknown> = {}) => ({
		start: 'route',
		applets: { route: { kind: 'passthru', url, mode: 'sync', next: { first: 'yes', second: 'no' }, ...extra }, yes: say('first branch'), no: say('second branch'), vip: say('vip case') },
	});

	it.each([
		[200, 'first', 'first branch', undefined],
		[302, 'second', 'second branch', 'status 302'],
		[404, 'second', 'second branch', 'status 404'],
		[500, 'second', 'second branch', 'status 500'],
	])('answered %i takes the %s branch', async (status, outcome, heard, reason) => {
		const call = await play(branches(customer.on(fresh('branch'), { status, body: 'ignored' })));
		expect(call.steps[0].outcome).toBe(outcome);
		expect(call.steps[0].reason).toBe(reason);
		expect(call.heard).toEqual([heard]);
	});

	it('with a Switch Case, a 200 text/plain {"select": "<case>"} takes that case; an unknown case or another content type the second branch', async () => {
		const cases = { vip: 'vip', other: 'no' };
		const vip = await play(branches(customer.on(fresh('select'), text('{"select":"vip"}')), { cases }));
		expect(vip.steps[0]).toMatchObject({ outcome: 'case:vip', next: 'vip' });
		expect(vip.heard).toEqual(['vip case']);
		const unknown = await play(branches(customer.on(fresh('select'), text('{"select":"gold"}')), { cases }));
		expect(unknown.steps[0]).toMatchObject({ outcome: 'second', reason: "invalid: unknown case 'gold' (cases: vip, other)", next: 'no' });
		const asJson = await play(branches(customer.on(fresh('select'), json({ select: 'vip' })), { cases }));
		expect(asJson.steps[0]).toMatchObject({ outcome: 'second', reason: 'invalid: content type application/json, not text/plain' });
	});

	it('async: the call goes on at once without waiting for the answer, which is recorded when it comes', async () => {
		const path = fresh('log');
		customer.on(path, { status: 200, body: 'logged', delayMs: 1500 });
		const call = await play({ start: 'log', applets: { log: { kind: 'passthru', url: customer.origin + path, mode: 'async', next: 'hello' }, hello: say('Hello') } });
		// the customer has not answered yet: the call did not wait
		expect(customer.answered.get(path) ?? 0).toBe(0);
		expect(call.steps[0]).toMatchObject({ outcome: 'async', next: 'hello', requests: [{ status: 0, outcome: 'pending' }] });
		expect(call.heard).toEqual(['Hello']);
		const kept = await keptCall(call.callSid, (c) => c.steps[0].requests[0].status !== 0, budget(5000));
		expect(customer.at(path)).toHaveLength(1);
		expect(kept.steps[0].requests[0]).toMatchObject({ status: 200, body: 'logged', outcome: 'ignored' });
		expect(kept.steps[0].requests[0].ms).toBeGreaterThanOrEqual(1400);
	});
});

// ---------------------------------------------------------------- the budget and the Fallback URL

describe('the time budget and the Fallback URL', () => {
	const late = (body: unknown): Reply => json(body, { delayMs: 1500 });
	const dialFlow = (url: string, fallbackUrl?: string) => ({
		start: 'dial',
		applets: { dial: { kind: 'connect', url, ...(fallbackUrl ? { fallbackUrl } : {}), next: { ended: 'hangup', notDialled: 'sorry' } }, sorry: say('Sorry') },
	});

	it('a URL answering after the budget: the Fallback URL is asked, the same request', async () => {
		const primary = fresh('slow');
		const fallback = fresh('fallback');
		customer.on(primary, late({ destination: { numbers: [AGENT_A] } }));
		customer.on(fallback, json({ destination: { numbers: [AGENT_B] } }));
		const call = await play(dialFlow(customer.origin + primary, customer.origin + fallback), { budgetMs: 300 });
		expect(call.steps[0]).toMatchObject({ outcome: 'dialled', next: 'hangup' });
		const [first, second] = call.steps[0].requests;
		expect(first).toMatchObject({ status: 0, outcome: 'timeout' });
		expect(first.ms).toBeGreaterThanOrEqual(290);
		expect(first.ms).toBeLessThan(1400);
		expect(second).toMatchObject({ status: 200, outcome: 'accepted', headers: { 'Exotel-Version': '1.0' } });
		expect(customer.at(fallback)[0].query.get('CallSid')).toBe(customer.at(primary)[0].query.get('CallSid'));
		expect(call.dialled).toEqual([{ number: AGENT_B, callerId: TO, result: 'completed' }]);
	});

	it('both late: the failure transition (Connect: notDialled), reason timeout', async () => {
		const primary = fresh('slow');
		const fallback = fresh('slow-fallback');
		customer.on(primary, late({ destination: { numbers: [AGENT_A] } }));
		customer.on(fallback, late({ destination: { numbers: [AGENT_B] } }));
		const call = await play(dialFlow(customer.origin + primary, customer.origin + fallback), { budgetMs: 300 });
		expect(call.steps[0]).toMatchObject({ outcome: 'notDialled', reason: 'timeout', next: 'sorry' });
		expect(call.steps[0].requests.map((r) => r.outcome)).toEqual(['timeout', 'timeout']);
		expect(call.heard).toEqual(['Sorry']);
		expect(call.dialled).toEqual([]);
	});

	it('a Gather late, then its Fallback URL answering 500: failed, reason status 500; a late sync Passthru takes its second branch', async () => {
		const menu = customer.on(fresh('slow-menu'), late({ gather_prompt: { text: 'late' } }));
		const menuFallback = customer.on(fresh('menu-500'), { status: 500 });
		const route = customer.on(fresh('slow-route'), { status: 200, delayMs: 1500 });
		const call = await play(
			{
				start: 'menu',
				applets: {
					menu: { kind: 'gather', url: menu, fallbackUrl: menuFallback, next: { gathered: 'hangup', failed: 'route' } },
					route: { kind: 'passthru', url: route, mode: 'sync', next: { first: 'hangup', second: 'hangup' } },
				},
			},
			{ budgetMs: 300, press: ['1'] },
		);
		expect(call.steps.map(({ applet, outcome, reason }) => ({ applet, outcome, reason }))).toEqual([
			{ applet: 'menu', outcome: 'failed', reason: 'status 500' },
			{ applet: 'route', outcome: 'second', reason: 'timeout' },
		]);
		expect(call.heard).toEqual([]);
	});

	it('a connection refused is an error, and the failure transition follows', async () => {
		// a port just closed: nobody listens there
		const probeServer = http.createServer();
		await new Promise<void>((resolve) => probeServer.listen(0, '127.0.0.1', () => resolve()));
		const { port } = probeServer.address() as AddressInfo;
		await new Promise<void>((resolve) => probeServer.close(() => resolve()));
		const call = await play(dialFlow(`http://127.0.0.1:${port}/nobody-listens`));
		expect(call.steps[0]).toMatchObject({ outcome: 'notDialled', reason: 'error', requests: [{ status: 0, outcome: 'error', error: 'ECONNREFUSED' }] });
	});
});

// ---------------------------------------------------------------- Connect

describe('Connect: the answer', () => {
	const VALID = {
		fetch_after_attempt: false,
		destination: { numbers: [AGENT_A] },
		outgoing_phone_number: EXOPHONE,
		record: true,
		recording_channels: 'dual',
		max_ringing_duration: 60,
		max_conversation_duration: 4500,
		music_on_hold: { type: 'operator_tone' },
		start_call_playback: { playback_to: 'both', type: 'text', value: 'This call is recorded' },
		parallel_ringing: { activate: false, max_parallel_attempts: 5 },
	};
	const dialFlow = (url: string, style = 'programmable') => ({
		start: 'dial',
		applets: { dial: { kind: 'connect', url, style, next: { ended: 'hangup', noAnswer: 'hangup', notDialled: 'sorry' } }, sorry: say('Sorry') },
	});

	it('takes a JSON answer with every field at its limit: dials, the callee sees outgoing_phone_number, both hear the playback', async () => {
		const call = await play(dialFlow(customer.on(fresh('dial'), json(VALID))));
		expect(call.steps[0]).toMatchObject({ outcome: 'dialled', next: 'hangup' });
		expect(call.dialled).toEqual([{ number: AGENT_A, callerId: EXOPHONE, result: 'completed' }]);
		expect(call.heard).toEqual(['This call is recorded']);
	});

	it.each([
		['playback_to caller', { start_call_playback: { playback_to: 'caller', type: 'text', value: 'hi' } }, 'invalid: start_call_playback.playback_to must be one of "both", "callee" (got "caller")'],
		['max_ringing_duration 61', { max_ringing_duration: 61 }, 'invalid: max_ringing_duration must be an integer from 1 to 60 (got 61)'],
		['a caller id not in E.164', { outgoing_phone_number: '08047112233' }, 'invalid: outgoing_phone_number must be an E.164 number like +918041234567 (got "08047112233")'],
		['max_conversation_duration 4501', { max_conversation_duration: 4501 }, 'invalid: max_conversation_duration must be an integer from 1 to 4500 (got 4501)'],
		['max_parallel_attempts 6', { parallel_ringing: { activate: true, max_parallel_attempts: 6 } }, 'invalid: parallel_ringing.max_parallel_attempts must be an integer from 1 to 5 (got 6)'],
		['recording_channels stereo', { recording_channels: 'stereo' }, 'invalid: recording_channels must be one of "single", "dual" (got "stereo")'],
		['record "yes"', { record: 'yes' }, 'invalid: record must be true or false (got "yes")'],
		['music_on_hold jazz', { music_on_hold: { type: 'jazz' } }, 'invalid: music_on_hold.type must be one of "default_tone", "operator_tone", "custom_tone" (got "jazz")'],
		['numbers as a string', { destination: { numbers: AGENT_A } }, `invalid: destination.numbers must be an array of number strings (got "${AGENT_A}")`],
		['an unknown field', { dial_whom: AGENT_A }, 'invalid: unknown field dial_whom'],
	])('refuses %s: notDialled, nobody dialled', async (_name, change, reason) => {
		const call = await play(dialFlow(customer.on(fresh('dial-bad'), json({ ...VALID, ...change }))));
		expect(call.steps[0]).toMatchObject({ outcome: 'notDialled', next: 'sorry' });
		expect(call.steps[0].reason?.startsWith(reason)).toBe(true);
		expect(call.dialled).toEqual([]);
		expect(call.heard).toEqual(['Sorry']);
	});

	it('refuses the JSON as text/plain, a 200 without destination, and dials no one for []', async () => {
		const asText = await play(dialFlow(customer.on(fresh('dial-text'), text(JSON.stringify(VALID)))));
		expect(asText.steps[0]).toMatchObject({ outcome: 'notDialled', reason: 'invalid: content type text/plain; charset=utf-8, not application/json' });
		const none = await play(dialFlow(customer.on(fresh('dial-none'), json({ record: false }))));
		expect(none.steps[0]).toMatchObject({ outcome: 'notDialled', reason: 'invalid: destination is required' });
		const empty = await play(dialFlow(customer.on(fresh('dial-empty'), json({ destination: { numbers: [] } }))));
		expect(empty.steps[0]).toMatchObject({ outcome: 'notDialled', reason: 'destination.numbers is empty: nobody to dial' });
		expect([asText, none, empty].every((call) => call.dialled.length === 0)).toBe(true);
	});

	it('classic: a text/plain answer of comma-separated numbers, the Dial Whom parameters (CallStatus, no CurrentTime); JSON refused', async () => {
		const path = fresh('classic');
		const call = await play(dialFlow(customer.on(path, text(`09812340001, ${AGENT_B}`)), 'classic'), { callees: { [AGENT_A]: 'busy' } });
		expect(call.dialled).toEqual([
			{ number: '09812340001', callerId: TO, result: 'busy' },
			{ number: AGENT_B, callerId: TO, result: 'completed' },
		]);
		const q = customer.at(path)[0].query;
		expect(q.get('CallStatus')).toBe('in-progress');
		expect(q.has('CurrentTime') || q.has('flow_id')).toBe(false);
		const asJson = await play(dialFlow(customer.on(fresh('classic-json'), json(VALID)), 'classic'));
		expect(asJson.steps[0]).toMatchObject({ outcome: 'notDialled', reason: 'invalid: content type application/json, not text/plain' });
	});
});

describe('Connect: dialling', () => {
	it('tries the numbers in order until one answers; the next applet gets DialCallStatus, DialWhomNumber, the legs', async () => {
		const { path, applet } = probe();
		const call = await play(
			{
				start: 'dial',
				applets: {
					dial: { kind: 'connect', url: customer.on(fresh('dial'), json({ destination: { numbers: [AGENT_A, AGENT_B] }, outgoing_phone_number: EXOPHONE })), next: { ended: 'after', noAnswer: 'hangup' } },
					after: applet,
				},
			},
			{ callees: { [AGENT_A]: 'no-answer' }, conversationSeconds: 45 },
		);
		expect(call.dialled).toEqual([
			{ number: AGENT_A, callerId: EXOPHONE, result: 'no-answer' },
			{ number: AGENT_B, callerId: EXOPHONE, result: 'completed' },
		]);
		expect(call.steps[0]).toMatchObject({ outcome: 'dialled', next: 'after' });
		const q = Object.fromEntries(customer.at(path)[0].query);
		expect(q).toMatchObject({
			CallType: 'completed',
			DialCallStatus: 'completed',
			DialWhomNumber: '09812340002',
			DialCallDuration: '45',
			'Legs[0][Number]': '09812340001',
			'Legs[0][OnCallDuration]': '0',
			'Legs[0][CallerId]': '08047112233',
			'Legs[1][Number]': '09812340002',
			'Legs[1][OnCallDuration]': '45',
			'Legs[1][CallerId]': '08047112233',
		});
		// the conversation is simulated time: the clock the next request reads has moved on by it
		expect(indiaEpoch(q.CurrentTime) - indiaEpoch(q.StartTime)).toBeGreaterThanOrEqual(44_000);
	});

	it('nobody answers: the noAnswer transition, CallType incomplete, the last status', async () => {
		const { path, applet } = probe();
		const call = await play(
			{
				start: 'dial',
				applets: { dial: { kind: 'connect', url: customer.on(fresh('dial'), json({ destination: { numbers: [AGENT_A, AGENT_B] } })), next: { ended: 'hangup', noAnswer: 'after' } }, after: applet },
			},
			{ callees: { [AGENT_A]: 'no-answer', [AGENT_B]: 'busy' } },
		);
		expect(call.steps[0]).toMatchObject({ outcome: 'dialled', next: 'after' });
		expect(Object.fromEntries(customer.at(path)[0].query)).toMatchObject({ CallType: 'incomplete', DialCallStatus: 'busy', DialWhomNumber: '09812340002', DialCallDuration: '0' });
	});

	it('fetch_after_attempt: the URL is asked again after a failed attempt, with its DialCallStatus and Legs, and its answer is dialled', async () => {
		const path = fresh('dial-again');
		customer.on(path, (_hit, nth) => json(nth === 0 ? { fetch_after_attempt: true, destination: { numbers: [AGENT_A] } } : { destination: { numbers: [AGENT_B] } }));
		const call = await play(
			{ start: 'dial', applets: { dial: { kind: 'connect', url: customer.origin + path, next: { ended: 'hangup' } } } },
			{ callees: { [AGENT_A]: 'busy' } },
		);
		const [first, again] = customer.at(path);
		expect(customer.at(path)).toHaveLength(2);
		expect(first.query.has('DialCallStatus')).toBe(false);
		expect(Object.fromEntries(again.query)).toMatchObject({ DialCallStatus: 'busy', DialWhomNumber: '09812340001', 'Legs[0][Number]': '09812340001', 'Legs[0][OnCallDuration]': '0', CallType: 'incomplete' });
		expect(again.query.has('Legs[1][Number]')).toBe(false);
		expect(again.headers['exotel-version']).toBe('1.0');
		expect(call.dialled).toEqual([
			{ number: AGENT_A, callerId: TO, result: 'busy' },
			{ number: AGENT_B, callerId: TO, result: 'completed' },
		]);
		expect(call.steps[0].requests).toHaveLength(2);
	});
});

// ---------------------------------------------------------------- Gather

describe('Gather', () => {
	const gatherFlow = (menu: string, after: Record<string, unknown>) => ({
		start: 'menu',
		applets: { menu: { kind: 'gather', url: menu, next: { gathered: 'after', failed: 'after' } }, after },
	});

	it('the digits pressed go to the next applet quoted, the finish key stripped, never back to the Gather', async () => {
		const menu = fresh('menu');
		customer.on(menu, json({ gather_prompt: { text: 'Enter your order number' }, finish_on_key: '#' }));
		const { path, applet } = probe();
		const call = await play(gatherFlow(customer.origin + menu, applet), { press: ['1234#'] });
		expect(call.steps[0]).toMatchObject({ outcome: 'gathered', next: 'after' });
		expect(call.heard).toEqual(['Enter your order number']);
		expect(customer.at(path)[0].rawQuery).toContain('digits=%221234%22');
		expect(customer.at(path)[0].query.get('digits')).toBe('"1234"');
		expect(customer.at(menu)[0].query.has('digits')).toBe(false);
	});

	it('keeps max_input_digits and reads an audio prompt', async () => {
		const menu = customer.on(fresh('menu'), json({ gather_prompt: { audio_url: 'http://127.0.0.1:9/menu.wav' }, max_input_digits: 3, finish_on_key: '' }));
		const { path, applet } = probe();
		const call = await play(gatherFlow(menu, applet), { press: ['98765'] });
		expect(customer.at(path)[0].query.get('digits')).toBe('"987"');
		expect(call.heard).toEqual(['audio: http://127.0.0.1:9/menu.wav']);
	});

	it('nothing pressed: the prompt again repeat_menu times, then failed; the next applet gets empty quoted digits', async () => {
		const menu = customer.on(fresh('menu'), json({ gather_prompt: { text: 'Press 1 for sales' }, repeat_menu: 2, repeat_gather_prompt: { text: 'Please press 1' } }));
		const { path, applet } = probe();
		const call = await play(gatherFlow(menu, applet));
		expect(call.steps[0]).toMatchObject({ outcome: 'failed', reason: 'no input', next: 'after' });
		expect(call.heard).toEqual(['Press 1 for sales', 'Please press 1', 'Please press 1']);
		expect(customer.at(path)[0].rawQuery).toContain('digits=%22%22');
		// a repeat hearing takes the caller's next entry: '' presses nothing, '2' is gathered
		const again = await play(gatherFlow(menu, probe().applet), { press: ['', '2'] });
		expect(again.steps[0].outcome).toBe('gathered');
		expect(again.heard).toEqual(['Press 1 for sales', 'Please press 1']);
		expect(MAX_MENU_HEARINGS).toBeGreaterThan(3);
	});

	it.each([
		['text and audio_url together', { gather_prompt: { text: 'a', audio_url: 'http://127.0.0.1:9/a.wav' } }, 'invalid: gather_prompt must have exactly one of text, audio_url (got text, audio_url)'],
		['no gather_prompt', { max_input_digits: 4 }, 'invalid: gather_prompt is required'],
		['finish_on_key A', { gather_prompt: { text: 'a' }, finish_on_key: 'A' }, 'invalid: finish_on_key must be one of'],
		['max_input_digits 256', { gather_prompt: { text: 'a' }, max_input_digits: 256 }, 'invalid: max_input_digits must be an integer from 1 to 255 (got 256)'],
	])('refuses %s: failed, the prompt never heard', async (_name, body, reason) => {
		const call = await play(gatherFlow(customer.on(fresh('menu-bad'), json(body)), say('Bye')), { press: ['1'] });
		expect(call.steps[0]).toMatchObject({ outcome: 'failed', next: 'after' });
		expect(call.steps[0].reason?.startsWith(reason)).toBe(true);
		expect(call.heard).toEqual(['Bye']);
	});
});

// ---------------------------------------------------------------- repeatEachRequest

describe('repeatEachRequest', () => {
	it('sends each request a second time, identically, once the first has its answer; the call goes on with the first', async () => {
		const route = fresh('route');
		const greet = fresh('greet');
		customer.on(route, (_hit, nth) => ({ status: nth === 0 ? 200 : 500 }));
		customer.on(greet, text('Welcome'));
		const call = await play(
			{ start: 'route', applets: { route: { kind: 'passthru', url: customer.origin + route, mode: 'sync', next: { first: 'greet', second: 'hangup' } }, greet: { kind: 'greeting', url: customer.origin + greet } } },
			{ repeatEachRequest: true },
		);
		const routeHits = customer.at(route);
		expect(routeHits).toHaveLength(2);
		expect(routeHits[1].url).toBe(routeHits[0].url);
		expect(customer.at(greet).map((hit) => hit.method)).toEqual(['HEAD', 'HEAD', 'GET', 'GET']);
		expect(new Set(customer.at(greet).map((hit) => hit.url)).size).toBe(1);
		expect(call.steps[0]).toMatchObject({ outcome: 'first', next: 'greet' });
		expect(call.steps[0].requests.map((r) => [r.status, r.outcome, r.repeat])).toEqual([
			[200, 'first', undefined],
			[500, 'second', true],
		]);
		expect(call.steps[1].requests.map((r) => [r.method, r.repeat])).toEqual([
			['HEAD', undefined],
			['HEAD', true],
			['GET', undefined],
			['GET', true],
		]);
		expect(call.heard).toEqual(['Welcome']);
	});
});

// ---------------------------------------------------------------- what the sandbox is given

describe('the flow and the call, checked before any request', () => {
	it.each([
		['a URL not on loopback', { url: 'https://example.com/webhook/x' }, "flow.applets.route.url must be a loopback http(s) URL (127.0.0.1, localhost, [::1]): the sandbox requests nothing else (got 'https://example.com/webhook/x')"],
		['a transition to no applet', { next: { first: 'menu' } }, "flow.applets.route.next.first names no applet: 'menu' (applets: route; or 'hangup')"],
		['a Fallback URL on a Passthru', { fallbackUrl: 'http://127.0.0.1:9/x' }, "flow.applets.route.fallbackUrl is not a field of a passthru applet (the service's passthru has no Fallback URL"],
		['an unknown mode', { mode: 'later' }, 'flow.applets.route.mode must be one of sync, async (got "later")'],
	])('refuses %s, naming the field, and requests nothing', async (_name, change, message) => {
		const path = fresh('never');
		const flow = { start: 'route', applets: { route: { kind: 'passthru', url: customer.on(path, { status: 200 }), mode: 'sync', next: { first: 'hangup' }, ...change } } };
		const kept = sandbox.callFlows().length;
		await expect(play(flow)).rejects.toThrow(CallFlowInputError);
		await expect(play(flow)).rejects.toThrow(message);
		expect(customer.at(path)).toHaveLength(0);
		expect(sandbox.callFlows()).toHaveLength(kept);
	});

	it('refuses a non-loopback Fallback URL, a number not in E.164, an unknown callee behaviour, bad keys to press', async () => {
		const dial = { start: 'dial', applets: { dial: { kind: 'connect', url: customer.on(fresh('never'), json({})), fallbackUrl: 'http://10.0.0.5/dial', next: {} } } };
		await expect(play(dial)).rejects.toThrow("flow.applets.dial.fallbackUrl must be a loopback http(s) URL (127.0.0.1, localhost, [::1]): the sandbox requests nothing else (got 'http://10.0.0.5/dial')");
		const greet = { start: 'g', applets: { g: say('hi') } };
		await expect(sandbox.playCallFlow({ flow: greet, from: '9876543210', to: TO })).rejects.toThrow('from must be an E.164 number like +919876543210 (got "9876543210")');
		await expect(play(greet, { callees: { [AGENT_A]: 'declines' } })).rejects.toThrow(`callees.${AGENT_A} must be one of answers, no-answer, busy (got "declines")`);
		await expect(play(greet, { press: ['12a'] })).rejects.toThrow('press[0] must be keys 0-9, * and #');
		await expect(play(greet, { budgetMs: 0 })).rejects.toThrow('budgetMs must be an integer from 1 to 60000 (got 0)');
	});
});

// ---------------------------------------------------------------- the control API and the kept calls

describe('the control API', () => {
	it('POST /__sandbox/call-flow plays the call → {ok, call}; GET /__sandbox/call-flows lists it; a bad field is a 400 naming it', async () => {
		const { path, applet } = probe();
		const flow = { start: 'p', applets: { p: applet } };
		const res = await sandboxControl<{ ok: boolean; call: CallFlowResult }>(origin, '/call-flow', { flow, from: FROM, to: TO, callSid: 'ctl-1', customField: 'x' });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ ok: true, call: { callSid: 'ctl-1', from: FROM, to: TO, ended: 'hangup', steps: [{ applet: 'p', outcome: 'first' }] } });
		expect(customer.at(path)[0].query.get('CustomField')).toBe('x');
		const list = await sandboxControl<{ calls: CallFlowResult[] }>(origin, '/call-flows');
		expect(list.body.calls.at(-1)?.callSid).toBe('ctl-1');
		const bad = await sandboxControl<{ ok: boolean; error: string }>(origin, '/call-flow', { flow: { start: 'p', applets: { p: { ...applet, url: 'http://192.168.1.10/x' } } }, from: FROM, to: TO });
		expect(bad.status).toBe(400);
		expect(bad.body).toEqual({ ok: false, error: "flow.applets.p.url must be a loopback http(s) URL (127.0.0.1, localhost, [::1]): the sandbox requests nothing else (got 'http://192.168.1.10/x')" });
		const noFlow = await sandboxControl<{ ok: boolean; error: string }>(origin, '/call-flow', { from: FROM, to: TO });
		expect(noFlow.body).toEqual({ ok: false, error: 'flow is required: {start, applets}' });
	});

	it("the client's playCallFlow and callFlows, for a sandbox in another process", async () => {
		const call = await playCallFlow(origin, { flow: { start: 'g', applets: { g: say('over the wire') } }, from: FROM, to: TO, callSid: 'client-1' });
		expect(call).toMatchObject({ callSid: 'client-1', heard: ['over the wire'], ended: 'hangup' });
		expect((await callFlows(origin)).at(-1)?.callSid).toBe('client-1');
		await expect(playCallFlow(origin, { flow: {}, from: FROM, to: TO })).rejects.toThrow('answered 400: flow.applets must be an object');
	});

	it('keeps the last 200 calls; a flow that loops hangs up as the caller; reset forgets them', async () => {
		for (let i = 0; i < 205; i++) await play({ start: 'g', applets: { g: say(`call ${i}`) } }, { callSid: `keep-${i}` });
		const kept = sandbox.callFlows();
		expect(kept).toHaveLength(200);
		expect(kept[0].callSid).toBe('keep-5');
		expect(kept[199].callSid).toBe('keep-204');
		const loop = await play({ start: 'a', applets: { a: say('again', 'b'), b: say('and again', 'a') } });
		expect(loop.ended).toBe('caller-hangup');
		expect(loop.steps.length).toBe(100);
		sandbox.reset();
		expect(sandbox.callFlows()).toEqual([]);
	});
});
