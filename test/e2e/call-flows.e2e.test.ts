/**
 * The Exotel Call Flow Trigger and Exotel Voice → Call Flow → Answer on a real n8n (2.8.4 and the
 * newest) with the packed package: each applet's request answered exactly as the applet takes it,
 * the fallback for a failing or slow workflow, HEAD and a wrong secret starting nothing, a repeated
 * request starting no second execution.
 */
import type { CallFlowResult } from '../../sandbox/callFlows/types';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, sharedN8n, type WorkflowNode } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const SECRET = 'e2e-dummy-call-flow-SECRET-of-the-url';
const CREDENTIAL = { id: 'cred-exotelCallFlowApi', name: 'Call flow secret' };

let instance: N8nInstance;
let sandbox: ExotelSandbox;
const workflows: Record<string, { id: string; url: string }> = {};

/** The service's request as its article prints it: national numbers with their trunk 0, digits in quotes, India time. */
function query(callSid: string, more: Record<string, string> = {}): string {
	return new URLSearchParams({
		CallSid: callSid,
		CallFrom: '09876543210',
		CallTo: '08041234567',
		Direction: 'incoming',
		Created: 'Thu, 03 Dec 2026 18:30:00',
		StartTime: '2026-12-03 18:30:00',
		CurrentTime: '2026-12-03 18:30:02',
		EndTime: '1970-01-01 05:30:00',
		CallType: 'call-attempt',
		From: '09876543210',
		To: '8041234567',
		digits: '"4711"',
		...more,
	}).toString();
}

function trigger(webhookId: string, parameters: Record<string, unknown>): WorkflowNode {
	return {
		name: 'Call Flow Trigger',
		type: `${PACKAGE}.exotelCallFlowTrigger`,
		typeVersion: 1,
		webhookId,
		parameters,
		credentials: { exotelCallFlowApi: CREDENTIAL },
	};
}

function answer(parameters: Record<string, unknown>): WorkflowNode {
	return { name: 'Answer', type: `${PACKAGE}.exotelVoice`, typeVersion: 2, parameters: { resource: 'callFlow', operation: 'answer', ...parameters } };
}

const wait = (seconds: number): WorkflowNode => ({ name: 'Slow Lookup', type: 'n8n-nodes-base.wait', typeVersion: 1.1, parameters: { amount: seconds, unit: 'seconds' } });
const fail: WorkflowNode = { name: 'Lookup Failed', type: 'n8n-nodes-base.stopAndError', typeVersion: 1, parameters: { errorMessage: 'the CRM is down' } };

/** Each workflow: its trigger, what runs before the answer, the answer. */
const FLOWS: Record<string, { applet: string; trigger: Record<string, unknown>; chain: WorkflowNode[] }> = {
	passthru: { applet: 'passthru', trigger: { applet: 'passthru', fallbackBranch: 'first' }, chain: [answer({ applet: 'passthru', branch: 'second' })] },
	select: { applet: 'passthru', trigger: { applet: 'passthru' }, chain: [answer({ applet: 'passthru', branch: 'select', select: 'vip' })] },
	connect: {
		applet: 'connect',
		trigger: { applet: 'connect', fallbackNumbers: '+919800000000' },
		chain: [answer({ applet: 'connect', connectAs: 'json', numbers: '+919812340001, +919812340002', callerId: '+918041234567', options: { maxRingingDuration: 30, record: true, recordingChannels: 'dual' } })],
	},
	gather: {
		applet: 'gather',
		trigger: { applet: 'gather', fallbackPrompt: 'Please try again later' },
		chain: [answer({ applet: 'gather', promptType: 'text', prompt: 'Enter your order number, then hash', options: { maxInputDigits: 6, finishOnKey: '#' } })],
	},
	greeting: { applet: 'greeting', trigger: { applet: 'greeting', fallbackText: 'Sorry' }, chain: [answer({ applet: 'greeting', greetingType: 'text', text: '={{ "Your order " + $json.digits + " was shipped today" }}' })] },
	slow: { applet: 'connect', trigger: { applet: 'connect', answerWithin: 1, fallbackNumbers: '+919800000000' }, chain: [wait(4), answer({ applet: 'connect', connectAs: 'json', numbers: '+919812340001' })] },
	failing: { applet: 'gather', trigger: { applet: 'gather', fallbackPrompt: 'Please try again later' }, chain: [fail, answer({ applet: 'gather', promptType: 'text', prompt: 'never' })] },
	logged: { applet: 'passthru', trigger: { applet: 'passthru', passthruMode: 'async' }, chain: [wait(2)] },
	// the IVR the sandbox calls through: a known caller to their account manager, anyone else to the order line
	route: {
		applet: 'passthru',
		trigger: { applet: 'passthru', fallbackBranch: 'second' },
		chain: [answer({ applet: 'passthru', branch: '={{ $json.fromE164 === "+919876543210" ? "first" : "second" }}' })],
	},
	accountManager: {
		applet: 'connect',
		trigger: { applet: 'connect', fallbackNumbers: '+919800000000' },
		chain: [answer({ applet: 'connect', numbers: '={{ $json.fromE164 === "+919876543210" ? "+919812340001, +919812340002" : "+919800000000" }}', callerId: '+918041234567' })],
	},
	orderPrompt: {
		applet: 'gather',
		trigger: { applet: 'gather', fallbackPrompt: 'Please enter your order number' },
		chain: [answer({ applet: 'gather', promptType: 'text', prompt: 'Please enter your order number, then hash', options: { maxInputDigits: 8 } })],
	},
	orderCheck: {
		applet: 'passthru',
		trigger: { applet: 'passthru', fallbackBranch: 'select', fallbackSelect: 'unknown' },
		chain: [answer({ applet: 'passthru', branch: 'select', select: '={{ $json.digits === "4711" ? "shipped" : "unknown" }}' })],
	},
	// the Greeting's request carries no digits (the service's list): its text comes from the caller's number
	callerGreeting: {
		applet: 'greeting',
		trigger: { applet: 'greeting', fallbackText: 'Hello' },
		chain: [answer({ applet: 'greeting', greetingType: 'text', text: '={{ $json.fromE164 === "+919876543210" ? "Hello Priya, your order 4711 was shipped today" : "Hello" }}' })],
	},
};

beforeAll(async () => {
	sandbox = new ExotelSandbox({});
	await sandbox.start();
	instance = await sharedN8n();
	await instance.importCredentials([{ ...CREDENTIAL, type: 'exotelCallFlowApi', data: { secret: SECRET, allowedAddresses: '' } }]);
	for (const [index, [name, flow]] of Object.entries(FLOWS).entries()) {
		const webhookId = `c0ffee00-0000-4000-8000-cf${String(index).padStart(10, '0')}`;
		const [id] = await instance.importWorkflows([makeWorkflow(flow.chain, { name: `Call flow ${name}`, trigger: trigger(webhookId, flow.trigger) })]);
		await instance.publish(id);
		workflows[name] = { id, url: instance.webhookUrl(`${webhookId}/${flow.applet}/${webhookId}/${SECRET}`) };
	}
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

/** GET as the service sends it; the answer's status, content type (without parameters) and body as text. */
async function ask(name: string, callSid: string, options: { method?: 'GET' | 'HEAD'; url?: string; more?: Record<string, string> } = {}) {
	const started = Date.now();
	const res = await instance.request<string>(options.method ?? 'GET', `${options.url ?? workflows[name].url}?${query(callSid, options.more)}`, {
		headers: { 'Exotel-Version': '1.0' },
		responseType: 'text',
		transformResponse: (body: string) => body,
		maxRedirects: 0,
	});
	const contentType = String(res.headers['content-type'] ?? '').split(';')[0];
	return { status: res.status, contentType, body: res.data, ms: Date.now() - started, headers: res.headers };
}

async function newExecutions(name: string, known: Set<string>): Promise<string[]> {
	return (await instance.executionIds(workflows[name].id)).filter((id) => !known.has(id));
}

test('each applet gets exactly what it takes: Passthru 302 and a Switch Case keyword, Connect JSON, Gather JSON, Greeting text', async () => {
	expect(await ask('passthru', 'cf-passthru-1')).toMatchObject({ status: 302, contentType: 'text/plain', body: '' });
	expect(await ask('select', 'cf-select-1')).toMatchObject({ status: 200, contentType: 'text/plain', body: '{"select":"vip"}' });
	const connect = await ask('connect', 'cf-connect-1');
	expect([connect.status, connect.contentType, JSON.parse(connect.body)]).toEqual([
		200,
		'application/json',
		{ destination: { numbers: ['+919812340001', '+919812340002'] }, outgoing_phone_number: '+918041234567', record: true, recording_channels: 'dual', max_ringing_duration: 30 },
	]);
	const gather = await ask('gather', 'cf-gather-1');
	expect([gather.status, gather.contentType, JSON.parse(gather.body)]).toEqual([200, 'application/json', { gather_prompt: { text: 'Enter your order number, then hash' }, max_input_digits: 6, finish_on_key: '#' }]);
	// the digits pressed before, without their quotes, read into the spoken text
	expect(await ask('greeting', 'cf-greeting-1')).toMatchObject({ status: 200, contentType: 'text/plain', body: 'Your order 4711 was shipped today' });
	// the mark the Answer hands the trigger never reaches the service
	expect(Object.keys(connect.headers)).not.toContain('x-exotel-call-flow-answer');
});

test("the trigger's item: the call's facts in the package's keys, numbers as received and in E.164, digits unquoted", async () => {
	const known = new Set(await instance.executionIds(workflows.passthru.id));
	await ask('passthru', 'cf-item-1', { more: { CustomField: 'order-4711', flow_id: '926' } });
	const [id] = await instance.pollWithLog('the Passthru execution', 60_000, async () => {
		const fresh = await newExecutions('passthru', known);
		return fresh.length ? fresh : undefined;
	});
	const saved = await instance.waitForExecutionStatus(id, 'success');
	const item = saved.data?.resultData?.runData?.['Call Flow Trigger']?.[0]?.data?.main?.[0]?.[0]?.json as Record<string, unknown>;
	expect(item).toMatchObject({
		callSid: 'cf-item-1',
		from: '09876543210',
		fromE164: '+919876543210',
		to: '08041234567',
		toE164: '+918041234567',
		direction: 'incoming',
		digits: '4711',
		callType: 'call-attempt',
		customField: 'order-4711',
		flowId: '926',
		endTime: null,
		applet: 'passthru',
	});
	expect(JSON.stringify(item)).not.toContain(SECRET);
});

test('HEAD is answered with the GET\'s content type and starts nothing; a wrong secret gets 401 and starts nothing', async () => {
	const known = new Set(await instance.executionIds(workflows.greeting.id));
	expect(await ask('greeting', 'cf-head-1', { method: 'HEAD' })).toMatchObject({ status: 200, contentType: 'text/plain', body: '' });
	const wrong = workflows.greeting.url.replace(SECRET, 'not-the-secret-0123456789');
	expect(await ask('greeting', 'cf-wrong-1', { url: wrong })).toMatchObject({ status: 401 });
	expect(await ask('greeting', 'cf-wrong-2', { url: wrong, method: 'HEAD' })).toMatchObject({ status: 401 });
	// a GET after them does start one: the count below is not empty for want of executions
	await ask('greeting', 'cf-head-2');
	const fresh = await instance.pollWithLog('the GET execution', 60_000, async () => {
		const ids = await newExecutions('greeting', known);
		return ids.length ? ids : undefined;
	});
	expect(fresh).toHaveLength(1);
	const saved = await instance.waitForExecutionStatus(fresh[0], 'success');
	expect(JSON.stringify(saved.data?.resultData?.runData?.['Call Flow Trigger'])).toContain('cf-head-2');
});

test('a workflow slower than Answer Within: the fallback goes then, and the late answer is dropped quietly', async () => {
	const known = new Set(await instance.executionIds(workflows.slow.id));
	const logBefore = instance.serverLog(1_000_000).length;
	const got = await ask('slow', 'cf-slow-1');
	expect([got.status, got.contentType, JSON.parse(got.body)]).toEqual([200, 'application/json', { destination: { numbers: ['+919800000000'] } }]);
	expect(got.ms).toBeGreaterThanOrEqual(1000);
	const [id] = await instance.pollWithLog('the slow execution', 60_000, async () => {
		const fresh = await newExecutions('slow', known);
		return fresh.length ? fresh : undefined;
	});
	// the Answer ran after the fallback went: it succeeds, and n8n logs no failed write
	const saved = await instance.waitForExecutionStatus(id, 'success');
	expect(saved.data?.resultData?.runData?.Answer?.[0]?.data?.main?.[0]?.[0]?.json).toMatchObject({ callFlowAnswer: { status: 200 } });
	const log = instance.serverLog(1_000_000).slice(logBefore);
	expect(log).not.toMatch(/Error with Webhook-Response|Error in handling webhook request|ERR_HTTP_HEADERS_SENT/);
	expect(log).toMatch(/gave the call its fallback answer \(200\): the workflow did not answer within Answer Within/);
});

test('a workflow that fails before answering: the fallback goes at once, not an empty 200 or an error', async () => {
	const got = await ask('failing', 'cf-failing-1');
	expect([got.status, got.contentType, JSON.parse(got.body)]).toEqual([200, 'application/json', { gather_prompt: { text: 'Please try again later' } }]);
});

test('a repeated request for the same call and applet starts no second execution and gets the same answer', async () => {
	const known = new Set(await instance.executionIds(workflows.connect.id));
	const [first, second] = await Promise.all([ask('connect', 'cf-repeat-1'), ask('connect', 'cf-repeat-1', { more: { CurrentTime: '2026-12-03 18:30:05' } })]);
	const third = await ask('connect', 'cf-repeat-1');
	expect(second).toMatchObject({ status: first.status, body: first.body });
	expect(third).toMatchObject({ status: first.status, body: first.body });
	expect(JSON.parse(first.body).destination.numbers).toEqual(['+919812340001', '+919812340002']);
	// another visit of the applet in the same call (after a failed dial) is a new request
	await ask('connect', 'cf-repeat-1', { more: { DialCallStatus: 'no-answer' } });
	const fresh = await instance.pollWithLog('two executions', 60_000, async () => {
		const ids = await newExecutions('connect', known);
		return ids.length >= 2 ? ids : undefined;
	});
	expect(fresh).toHaveLength(2);
});

test('an async Passthru is answered with the first branch at once while the workflow goes on', async () => {
	const known = new Set(await instance.executionIds(workflows.logged.id));
	const got = await ask('logged', 'cf-async-1');
	const answeredAt = Date.now();
	expect(got).toMatchObject({ status: 200, body: '' });
	// the workflow waits 2 s: the answer came before it could have ended
	const [id] = await instance.pollWithLog('the logged execution', 60_000, async () => {
		const fresh = await newExecutions('logged', known);
		return fresh.length ? fresh : undefined;
	});
	const saved = await instance.waitForExecutionStatus(id, 'success');
	const startedAt = Date.parse(String(saved.startedAt));
	const stoppedAt = Date.parse(String(saved.stoppedAt));
	expect(stoppedAt - startedAt).toBeGreaterThanOrEqual(2000);
	expect(answeredAt).toBeLessThan(stoppedAt);
});

/** The IVR of the examples, as the flow builder wires it: both Passthru branches, each failure path. */
function ivr(connectUrl = workflows.accountManager.url) {
	return {
		id: '926',
		start: 'route',
		applets: {
			route: { kind: 'passthru', url: workflows.route.url, mode: 'sync', next: { first: 'hello', second: 'menu' } },
			hello: { kind: 'greeting', url: workflows.callerGreeting.url, next: 'dial' },
			dial: { kind: 'connect', url: connectUrl, style: 'programmable', next: { ended: 'bye', noAnswer: 'menu', notDialled: 'menu' } },
			menu: { kind: 'gather', url: workflows.orderPrompt.url, next: { gathered: 'check', failed: 'bye' } },
			check: { kind: 'passthru', url: workflows.orderCheck.url, mode: 'sync', cases: { shipped: 'shipped', unknown: 'unknown' }, next: { first: 'unknown', second: 'unknown' } },
			shipped: { kind: 'greeting', text: 'Your order was shipped today', next: 'hangup' },
			unknown: { kind: 'greeting', text: 'We could not find that order', next: 'hangup' },
			bye: { kind: 'greeting', text: 'Goodbye', next: 'hangup' },
		},
	};
}

const path = (call: CallFlowResult) => call.steps.map((step) => `${step.applet}:${step.outcome}`);

describe('the sandbox calls through a flow of applets, each asking n8n', () => {
	test("a known caller: Passthru's first branch, a Greeting from their number (HEAD first, which starts nothing), then Connect dials their account manager", async () => {
		const known = new Set(await instance.executionIds(workflows.callerGreeting.id));
		const call = await sandbox.playCallFlow({ flow: ivr(), from: '+919876543210', to: '+918041234567', callees: { '+919812340001': 'no-answer' } });
		expect(path(call)).toEqual(['route:first', 'hello:spoken', 'dial:dialled', 'bye:spoken']);
		expect(call.heard).toEqual(['Hello Priya, your order 4711 was shipped today', 'Goodbye']);
		expect(call.dialled).toEqual([
			{ number: '+919812340001', callerId: '+918041234567', result: 'no-answer' },
			{ number: '+919812340002', callerId: '+918041234567', result: 'completed' },
		]);
		// what the service sent: GET, national numbers; HEAD before the Greeting's GET; Exotel-Version on the programmable Connect only
		const [routeRequest] = call.steps[0].requests;
		expect(routeRequest).toMatchObject({ method: 'GET', status: 200, headers: {} });
		expect(new URL(routeRequest.url).searchParams.get('CallFrom')).toBe('09876543210');
		expect(call.steps[1].requests.map((request) => [request.method, request.status, request.contentType?.split(';')[0]])).toEqual([
			['HEAD', 200, 'text/plain'],
			['GET', 200, 'text/plain'],
		]);
		expect(call.steps[2].requests[0]).toMatchObject({ method: 'GET', headers: { 'Exotel-Version': '1.0' }, status: 200, contentType: expect.stringMatching(/^application\/json/) });
		const fresh = await instance.pollWithLog('the Greeting execution', 60_000, async () => {
			const ids = await newExecutions('callerGreeting', known);
			return ids.length ? ids : undefined;
		});
		expect(fresh).toHaveLength(1);
	});

	test('another caller: the second branch, the order number gathered, then a Switch Case keyword from the digits picks the greeting', async () => {
		const call = await sandbox.playCallFlow({ flow: ivr(), from: '+919800011122', to: '+918041234567', press: ['4711#'] });
		expect(path(call)).toEqual(['route:second', 'menu:gathered', 'check:case:shipped', 'shipped:spoken']);
		expect(call.heard).toEqual(['Please enter your order number, then hash', 'Your order was shipped today']);
		// the digits came quoted, as the service sends them, and the workflow read them unquoted
		expect(new URL(call.steps[2].requests[0].url).searchParams.get('digits')).toBe('"4711"');
		const other = await sandbox.playCallFlow({ flow: ivr(), from: '+919800011122', to: '+918041234567', press: ['1234#'] });
		expect(path(other)).toEqual(['route:second', 'menu:gathered', 'check:case:unknown', 'unknown:spoken']);
	});
	test("a slow workflow: the caller is dialled to the trigger's fallback numbers within the service's budget, not left in silence", async () => {
		const call = await sandbox.playCallFlow({ flow: ivr(workflows.slow.url), from: '+919876543210', to: '+918041234567', budgetMs: 5000 });
		expect(path(call)).toEqual(['route:first', 'hello:spoken', 'dial:dialled', 'bye:spoken']);
		expect(call.dialled).toEqual([{ number: '+919800000000', callerId: '+918041234567', result: 'completed' }]);
		expect(call.steps[2].requests[0]).toMatchObject({ outcome: 'accepted', status: 200 });
	});

	test('a repeated request (the service asking again) gets the same answer and starts no second execution', async () => {
		const known = new Set(await instance.executionIds(workflows.route.id));
		const call = await sandbox.playCallFlow({ flow: { ...ivr(), applets: { route: { ...ivr().applets.route, next: { first: 'hangup', second: 'hangup' } } } }, from: '+919876543210', to: '+918041234567', repeatEachRequest: true });
		const [first, again] = call.steps[0].requests;
		expect([first.status, again.status, again.repeat]).toEqual([200, 200, true]);
		const fresh = await instance.pollWithLog('the route execution', 60_000, async () => {
			const ids = await newExecutions('route', known);
			return ids.length ? ids : undefined;
		});
		expect(fresh).toHaveLength(1);
	});
});
