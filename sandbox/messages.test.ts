/* eslint-disable @n8n/community-nodes/no-restricted-imports -- times answers (perf_hooks); never shipped */
/**
 * RCS and chat-app sends (POST /v2/accounts/<sid>/messages) and the chat-app webhook
 * configuration, against messaging.md; see README.md for the choices where the spec is silent.
 */
import { performance } from 'perf_hooks';

import { SANDBOX_ACCOUNT, SANDBOX_CHATAPP_UNREACHABLE } from './fixtures';
import { basicOf, call as sandboxCall, type Answer, type CallOptions } from './client';
import { ExotelSandbox } from './server';

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const BASIC = basicOf(A.apiKey, A.apiToken);
const MESSAGES = `/v2/accounts/${SID}/messages`;
const WEBHOOK = `/v2/accounts/${SID}/chatapp/webhook`;
const HEX32 = /^[0-9a-f]{32}$/;

let sandbox: ExotelSandbox;
let origin: string;

/** The shared client with this file's defaults: basic auth, and a body that is not JSON kept as text. */
async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
	const answer = await sandboxCall(origin, method, path, { ...options, headers: { authorization: BASIC, ...options.headers } });
	return { ...answer, body: answer.body === undefined ? answer.text : answer.body };
}

const post = (body: unknown, headers?: Record<string, string>) => call('POST', MESSAGES, { json: body, headers });

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// ---------------------------------------------------------------- the answers, as the tests read them

/** A v2 failure. */
interface V2Failure {
	response: { error_data: { code: number; description: string } };
}

/** An entry of the answer to a send: its status, and its sid or error. */
interface SendEntry {
	status: string;
	data: { sid: string };
	error_data: { code: number };
}

/** The answer to an RCS send. */
interface RcsSent {
	metadata: unknown;
	response: { rcs: { messages: SendEntry[] } };
}

/** The answer to a chat-app send. */
interface ChatAppSent {
	response: { chatapp: { messages: SendEntry[] } };
}

// ---------------------------------------------------------------- the bodies, as the tests build and break them

/** Sets a field of a valid body to a value its type does not allow: the tests break bodies on purpose. */
function set<T extends object>(target: T, key: keyof T, value: unknown): void {
	Reflect.set(target, key, value);
}

/** Deletes a field a valid body must have. */
function drop<T extends object>(target: T, key: keyof T): void {
	Reflect.deleteProperty(target, key);
}

/** The description of a 400 v2 envelope, after checking the envelope itself. */
function badRequest(res: Answer, method = 'POST'): string {
	expect(res.status).toBe(400);
	expect(res.body).toEqual({
		request_id: expect.stringMatching(HEX32),
		method,
		http_code: 400,
		response: {
			code: 400,
			status: 'failure',
			error_data: { code: 1001, message: 'Invalid request', description: expect.any(String) },
		},
	});
	return (res.body as V2Failure).response.error_data.description;
}

// ---------------------------------------------------------------- RCS bodies

interface RcsMessage {
	from: string;
	to: string;
	content: { type: string; template: { name: string; variables: Record<string, string> } };
	fallback?: Fallback;
	custom_data?: string;
	status_callback?: string;
}

interface RcsBody {
	rcs: { messages: RcsMessage[]; custom_data?: string; status_callback?: string };
	custom_data?: string;
	status_callback?: string;
}

interface Fallback {
	from: string;
	content: { text: string; sms_type: string } & Record<string, unknown>;
}

function rcsMessage(i = 0): RcsMessage {
	return {
		from: 'exotel_sandbox_bot',
		to: `+9198765${String(i).padStart(5, '0')}`,
		content: { type: 'template', template: { name: 'order_update', variables: { TemplateParam1: `order-${i}` } } },
	};
}

function rcsBody(n = 1): RcsBody {
	return { rcs: { messages: Array.from({ length: n }, (_, i) => rcsMessage(i)) } };
}

function fullFallback() {
	return {
		from: 'EXOSMS',
		content: {
			text: 'Your order has shipped',
			sms_type: 'transactional',
			dlt_entity_id: '1101000000000001',
			dlt_template_id: '1107000000000001',
			encoding_type: 'unicode',
			priority: 'high',
			shorten_url: true,
			shorten_url_params: {
				custom_domain: 'sho.rt',
				tracking: true,
				click_tracking_callback_url: 'https://hooks.example.com/click',
			},
		},
	};
}

// ---------------------------------------------------------------- chat-app bodies

interface ChatBody {
	from: string;
	to: string;
	/** text content, or another kind the test sets */
	content: Record<string, unknown>;
	status_callback?: string;
	custom_data?: string;
}

function chat(content: Record<string, unknown>, extra: Record<string, unknown> = {}): ChatBody {
	return { from: '+919000000001', to: '+919812345678', content, ...extra };
}

const textContent = () => ({ recipient_type: 'individual', type: 'text', text: { body: 'Hello', preview_url: false } });
type TextContent = ReturnType<typeof textContent>;

/** A list row (tests leave out its id or title on purpose). */
interface Row {
	id?: string;
	title?: string;
	description?: string;
}

const rows = (n: number, prefix = 'r'): Row[] =>
	Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}`, description: 'd' }));

type ButtonContent = {
	type: string;
	interactive: {
		type: string;
		/** a text header, or one of another type with its media */
		header: { type: string; text?: string; [media: string]: unknown };
		body: { text: string };
		footer: { text: string };
		action: { buttons: Array<{ type: string; reply: { id: string; title: string } }> };
	};
};

function buttonContent(buttons = 3): ButtonContent {
	return {
		type: 'interactive',
		interactive: {
			type: 'button',
			header: { type: 'text', text: 'Header' },
			body: { text: 'Pick one' },
			footer: { text: 'Footer' },
			action: {
				buttons: Array.from({ length: buttons }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: `Choice ${i}` } })),
			},
		},
	};
}

function listContent(sections: Array<{ title?: string; rows: Row[] }> = [{ title: 'S', rows: rows(2) }]) {
	return {
		type: 'interactive',
		interactive: {
			type: 'list',
			body: { text: 'Choose' },
			action: { button: 'Options', sections },
		},
	};
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

// ================================================================ body shape

describe('messages: body and dispatch', () => {
	it.each<[string, Record<string, string>, string, RegExp]>([
		['form-encoded body', { 'content-type': 'application/x-www-form-urlencoded' }, 'rcs=1', /Content-Type must be application\/json/],
		['text/plain body', { 'content-type': 'text/plain' }, JSON.stringify(rcsBody()), /Content-Type must be application\/json \(got text\/plain\)/],
		['broken JSON', { 'content-type': 'application/json' }, '{"rcs":', /not valid JSON/],
		['empty body', { 'content-type': 'application/json' }, '', /not valid JSON/],
		['JSON array', { 'content-type': 'application/json' }, '[]', /must be a JSON object \(got an array\)/],
		['neither shape', { 'content-type': 'application/json' }, '{"custom_data":"x"}', /either rcs .* or from, to and content/],
		[
			'both shapes',
			{ 'content-type': 'application/json' },
			JSON.stringify({ ...rcsBody(), ...chat(textContent()) }),
			/mixes an RCS send \(rcs\) with a chat-app send \(from, to, content\)/,
		],
	])('%s → 400', async (_name, headers, raw, description) => {
		const res = await call('POST', MESSAGES, { raw, headers });
		expect(badRequest(res)).toMatch(description);
		expect(sandbox.rcsMessages()).toHaveLength(0);
		expect(sandbox.chatAppMessages()).toHaveLength(0);
	});

	it('application/json with a charset parameter is accepted', async () => {
		const res = await call('POST', MESSAGES, {
			raw: JSON.stringify(rcsBody()),
			headers: { 'content-type': 'application/json; charset=utf-8' },
		});
		expect(res.status).toBe(202);
	});

	it('a chat-app body missing one of from, to, content is a chat-app send that names the missing field', async () => {
		const body = chat(textContent());
		drop(body, 'content');
		expect(badRequest(await post(body))).toBe('content is required');
	});
});

// ================================================================ RCS

describe('RCS send', () => {
	it('accepts one message: exact 202 envelope, sid, stored with template and bot', async () => {
		const res = await post(rcsBody(1));
		expect(res.status).toBe(202);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'POST',
			http_code: 202,
			metadata: { total: 1, success: 1, failed: 0 },
			response: { rcs: { messages: [{ code: 200, error_data: null, status: 'success', data: { sid: expect.stringMatching(HEX32) } }] } },
		});
		const sid = (res.body as RcsSent).response.rcs.messages[0].data.sid;
		expect(sandbox.rcsMessages()).toEqual([
			{
				sid,
				accountSid: SID,
				requestId: 1,
				index: 0,
				from: 'exotel_sandbox_bot',
				to: '+919876500000',
				template: { name: 'order_update', variables: { TemplateParam1: 'order-0' } },
				acceptedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
			},
		]);
	});

	it('100 messages are accepted; 101 answer 400 and store nothing', async () => {
		const ok = await post(rcsBody(100));
		expect(ok.status).toBe(202);
		const sent = ok.body as RcsSent;
		expect(sent.metadata).toEqual({ total: 100, success: 100, failed: 0 });
		expect(sent.response.rcs.messages).toHaveLength(100);
		expect(new Set(sent.response.rcs.messages.map((m) => m.data.sid)).size).toBe(100);
		expect(sandbox.rcsMessages()).toHaveLength(100);
		sandbox.reset();
		expect(badRequest(await post(rcsBody(101)))).toBe('rcs.messages holds 101 messages; at most 100 are allowed');
		expect(sandbox.rcsMessages()).toHaveLength(0);
	});

	it('mixed request: valid, invalid to, unknown template, valid → 202 with counts and entries in message order', async () => {
		const body = rcsBody(5);
		body.rcs.messages[1].to = '9876500001';
		body.rcs.messages[2].content.template.name = 'not_registered';
		body.rcs.messages[3].content.template.name = 'approved_winter_sale';
		body.rcs.messages[4].to = '+0123456789';
		const res = await post(body);
		expect(res.status).toBe(202);
		const sent = res.body as RcsSent;
		expect(sent.metadata).toEqual({ total: 5, success: 2, failed: 3 });
		const entries = sent.response.rcs.messages;
		expect(entries.map((e) => e.status)).toEqual(['success', 'failure', 'failure', 'success', 'failure']);
		expect(entries[1]).toEqual({
			code: 400,
			error_data: {
				code: 40012,
				message: 'INVALID_RECIPIENT',
				description: "rcs.messages[1].to '9876500001' is not an E.164 number (+, then 8 to 15 digits)",
			},
			status: 'failure',
			data: null,
		});
		expect(entries[2]).toEqual({
			code: 404,
			error_data: {
				code: 40006,
				message: 'SETUP_ERROR',
				description: expect.stringContaining("rcs.messages[2].content.template.name 'not_registered' is not an approved RCS template"),
			},
			status: 'failure',
			data: null,
		});
		expect(entries[4].error_data.code).toBe(40012);
		const stored = sandbox.rcsMessages();
		expect(stored.map((m) => [m.index, m.sid])).toEqual([
			[0, entries[0].data.sid],
			[3, entries[3].data.sid],
		]);
		expect(stored[1].template.name).toBe('approved_winter_sale');
	});

	it('an invalid to wins over an unknown template; an empty to is an invalid recipient, not a 400', async () => {
		const body = rcsBody(2);
		body.rcs.messages[0].to = '+91 98765 00000';
		body.rcs.messages[0].content.template.name = 'unknown';
		body.rcs.messages[1].to = '';
		const res = await post(body);
		expect(res.status).toBe(202);
		const sent = res.body as RcsSent;
		expect(sent.response.rcs.messages.map((e) => e.error_data.code)).toEqual([40012, 40012]);
		expect(sent.metadata).toEqual({ total: 2, success: 0, failed: 2 });
	});

	it.each([
		['order_update', true],
		['otp_code', true],
		['delivery_slot', true],
		['approved_anything', true],
		['approved', false],
		['Order_Update', false],
		['my_approved_template', false],
	])('template registry: %s → accepted %s', async (name, accepted) => {
		const body = rcsBody(1);
		body.rcs.messages[0].content.template.name = name;
		const res = await post(body);
		expect(res.status).toBe(202);
		expect((res.body as RcsSent).response.rcs.messages[0].status).toBe(accepted ? 'success' : 'failure');
		expect(sandbox.rcsMessages()).toHaveLength(accepted ? 1 : 0);
	});

	it('custom_data and status_callback resolve message > channel > request', async () => {
		const body = rcsBody(3);
		body.custom_data = 'req';
		body.status_callback = 'https://hooks.example.com/request';
		body.rcs.custom_data = 'chan';
		body.rcs.messages[0].custom_data = 'msg';
		body.rcs.messages[0].status_callback = 'https://hooks.example.com/message';
		body.rcs.messages[1].status_callback = 'http://hooks.example.com/m1';
		const res = await post(body);
		expect(res.status).toBe(202);
		expect(sandbox.rcsMessages().map((m) => [m.customData, m.statusCallback])).toEqual([
			['msg', 'https://hooks.example.com/message'],
			['chan', 'http://hooks.example.com/m1'],
			['chan', 'https://hooks.example.com/request'],
		]);
		sandbox.reset();
		const bare = await post(rcsBody(1));
		expect(bare.status).toBe(202);
		const [m] = sandbox.rcsMessages();
		expect('customData' in m).toBe(false);
		expect('statusCallback' in m).toBe(false);
		const channelOnly = rcsBody(1);
		channelOnly.rcs.status_callback = 'https://hooks.example.com/channel';
		await post(channelOnly);
		expect(sandbox.rcsMessages()[1].statusCallback).toBe('https://hooks.example.com/channel');
	});

	it('a full fallback is accepted and stored as sent; all three template params are allowed', async () => {
		const body = rcsBody(1);
		body.rcs.messages[0].fallback = fullFallback();
		body.rcs.messages[0].content.template.variables = { TemplateParam1: 'a', TemplateParam2: 'b', TemplateParam3: 'c, d' };
		const res = await post(body);
		expect(res.status).toBe(202);
		const [m] = sandbox.rcsMessages();
		expect(m.fallback).toEqual(fullFallback());
		expect(m.template.variables).toEqual({ TemplateParam1: 'a', TemplateParam2: 'b', TemplateParam3: 'c, d' });
	});

	it('a minimal fallback (from, text, sms_type) and empty variables are accepted', async () => {
		const body = rcsBody(1);
		body.rcs.messages[0].content.template.variables = {};
		body.rcs.messages[0].fallback = { from: 'EXOSMS', content: { text: 'x', sms_type: 'promotional' } };
		expect((await post(body)).status).toBe(202);
		expect(sandbox.rcsMessages()[0].fallback).toEqual({ from: 'EXOSMS', content: { text: 'x', sms_type: 'promotional' } });
	});

	it.each(['transactional', 'transactional_opt_in', 'promotional'])('fallback sms_type %s is accepted', async (smsType) => {
		const body = rcsBody(1);
		body.rcs.messages[0].fallback = { from: 'EXOSMS', content: { text: 'x', sms_type: smsType } };
		expect((await post(body)).status).toBe(202);
	});

	type Mutation = (body: RcsBody) => void;
	const m3 = (fn: (m: RcsMessage) => void): Mutation => (b) => fn(b.rcs.messages[3]);
	const fb = (fn: (f: ReturnType<typeof fullFallback>) => void): Mutation => (b) => {
		const fallback = fullFallback();
		b.rcs.messages[3].fallback = fallback;
		fn(fallback);
	};
	const P = 'rcs.messages[3]';
	const F = `${P}.fallback`;
	const C = `${F}.content`;

	it.each<[string, Mutation, string]>([
		['rcs not an object', (b) => set(b, 'rcs', []), 'rcs must be an object (got an array)'],
		['rcs.messages missing', (b) => drop(b.rcs, 'messages'), 'rcs.messages is required'],
		['rcs.messages not an array', (b) => set(b.rcs, 'messages', { 0: rcsMessage() }), 'rcs.messages must be an array (got an object)'],
		['rcs.messages empty', (b) => (b.rcs.messages = []), 'rcs.messages must hold at least 1 messages (got 0)'],
		['message not an object', (b) => set(b.rcs.messages, 3, 'hi'), `${P} must be an object (got a string)`],
		['from missing', m3((m) => drop(m, 'from')), `${P}.from is required`],
		['from empty', m3((m) => (m.from = ' ')), `${P}.from must not be empty`],
		['from a number', m3((m) => set(m, 'from', 42)), `${P}.from must be a string (got a number)`],
		['to missing', m3((m) => drop(m, 'to')), `${P}.to is required`],
		['to null', m3((m) => set(m, 'to', null)), `${P}.to is required`],
		['to a number', m3((m) => set(m, 'to', 919876500000)), `${P}.to must be a string (got a number)`],
		['content missing', m3((m) => drop(m, 'content')), `${P}.content is required`],
		['content.type missing', m3((m) => drop(m.content, 'type')), `${P}.content.type is required`],
		['content.type text', m3((m) => (m.content.type = 'text')), `${P}.content.type must be one of: template (got 'text')`],
		['template missing', m3((m) => drop(m.content, 'template')), `${P}.content.template is required`],
		['template.name missing', m3((m) => drop(m.content.template, 'name')), `${P}.content.template.name is required`],
		['template.name empty', m3((m) => (m.content.template.name = '')), `${P}.content.template.name must not be empty`],
		['variables missing', m3((m) => drop(m.content.template, 'variables')), `${P}.content.template.variables is required`],
		[
			'variables an array',
			m3((m) => set(m.content.template, 'variables', ['a'])),
			`${P}.content.template.variables must be an object (got an array)`,
		],
		[
			'variables unknown key',
			m3((m) => (m.content.template.variables.TemplateParam4 = 'x')),
			`${P}.content.template.variables.TemplateParam4 is not allowed; the keys are TemplateParam1, TemplateParam2, TemplateParam3`,
		],
		[
			'variable not a string',
			m3((m) => set(m.content.template.variables, 'TemplateParam2', 5)),
			`${P}.content.template.variables.TemplateParam2 must be a string (got a number)`,
		],
		['fallback not an object', m3((m) => set(m, 'fallback', 'sms')), `${F} must be an object (got a string)`],
		['fallback.from missing', fb((f) => drop(f, 'from')), `${F}.from is required`],
		['fallback.content missing', fb((f) => drop(f, 'content')), `${F}.content is required`],
		['fallback text missing', fb((f) => drop(f.content, 'text')), `${C}.text is required`],
		['fallback sms_type missing', fb((f) => drop(f.content, 'sms_type')), `${C}.sms_type is required`],
		[
			'fallback sms_type bad',
			fb((f) => (f.content.sms_type = 'otp')),
			`${C}.sms_type must be one of: transactional, transactional_opt_in, promotional (got 'otp')`,
		],
		['fallback dlt_entity_id a number', fb((f) => set(f.content, 'dlt_entity_id', 1101)), `${C}.dlt_entity_id must be a string (got a number)`],
		['fallback dlt_template_id an object', fb((f) => set(f.content, 'dlt_template_id', {})), `${C}.dlt_template_id must be a string (got an object)`],
		[
			'fallback encoding_type bad',
			fb((f) => (f.content.encoding_type = 'utf8')),
			`${C}.encoding_type must be one of: plain, unicode (got 'utf8')`,
		],
		['fallback priority bad', fb((f) => (f.content.priority = 'urgent')), `${C}.priority must be one of: normal, high (got 'urgent')`],
		['fallback shorten_url a string', fb((f) => set(f.content, 'shorten_url', 'true')), `${C}.shorten_url must be a boolean (got a string)`],
		[
			'shorten_url_params not an object',
			fb((f) => set(f.content, 'shorten_url_params', 'x')),
			`${C}.shorten_url_params must be an object (got a string)`,
		],
		[
			'tracking not a boolean',
			fb((f) => set(f.content.shorten_url_params, 'tracking', 1)),
			`${C}.shorten_url_params.tracking must be a boolean (got a number)`,
		],
		[
			'tracking true without shorten_url',
			fb((f) => drop(f.content, 'shorten_url')),
			`${C}.shorten_url_params.tracking is true, which requires ${C}.shorten_url to be true`,
		],
		[
			'tracking true with shorten_url false',
			fb((f) => (f.content.shorten_url = false)),
			`${C}.shorten_url_params.tracking is true, which requires ${C}.shorten_url to be true`,
		],
		[
			'click_tracking_callback_url not a URL',
			fb((f) => (f.content.shorten_url_params.click_tracking_callback_url = 'ftp://x.example.com')),
			`${C}.shorten_url_params.click_tracking_callback_url must be an absolute http(s) URL (got 'ftp://x.example.com')`,
		],
		[
			'custom_domain a number',
			fb((f) => set(f.content.shorten_url_params, 'custom_domain', 7)),
			`${C}.shorten_url_params.custom_domain must be a string (got a number)`,
		],
		['request custom_data a number', (b) => set(b, 'custom_data', 1), 'custom_data must be a string (got a number)'],
		['request status_callback not a URL', (b) => (b.status_callback = 'hooks'), "status_callback must be an absolute http(s) URL (got 'hooks')"],
		['channel custom_data an object', (b) => set(b.rcs, 'custom_data', {}), 'rcs.custom_data must be a string (got an object)'],
		['channel status_callback not a URL', (b) => (b.rcs.status_callback = '/cb'), "rcs.status_callback must be an absolute http(s) URL (got '/cb')"],
		['message custom_data a boolean', m3((m) => set(m, 'custom_data', true)), `${P}.custom_data must be a string (got a boolean)`],
		[
			'message status_callback not a URL',
			m3((m) => (m.status_callback = 'mailto:a@b.c')),
			`${P}.status_callback must be an absolute http(s) URL (got 'mailto:a@b.c')`,
		],
	])('%s → 400 naming the field', async (_name, mutate, description) => {
		const body = rcsBody(5);
		mutate(body);
		expect(badRequest(await post(body))).toBe(description);
		expect(sandbox.rcsMessages()).toHaveLength(0);
	});

	it('one structural problem refuses the whole request, even when other messages are valid', async () => {
		const body = rcsBody(3);
		set(body.rcs.messages[2].content.template, 'variables', null);
		const res = await post(body);
		expect(badRequest(res)).toBe('rcs.messages[2].content.template.variables must be an object (got null)');
		expect(sandbox.rcsMessages()).toEqual([]);
	});
});

// ================================================================ chat app

describe('chat-app send', () => {
	it('accepts a text message: exact 202 envelope, stored with type, callback and custom data', async () => {
		const res = await post(chat(textContent(), { status_callback: 'https://hooks.example.com/chat', custom_data: 'c-1' }));
		expect(res.status).toBe(202);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'POST',
			http_code: 202,
			metadata: { total: 1, success: 1, failed: 0 },
			response: {
				chatapp: { messages: [{ code: 200, error_data: null, status: 'success', data: { sid: expect.stringMatching(HEX32) } }] },
			},
		});
		expect(sandbox.chatAppMessages()).toEqual([
			{
				sid: (res.body as ChatAppSent).response.chatapp.messages[0].data.sid,
				accountSid: SID,
				requestId: 1,
				from: '+919000000001',
				to: '+919812345678',
				contentType: 'text',
				content: textContent(),
				statusCallback: 'https://hooks.example.com/chat',
				customData: 'c-1',
				acceptedAt: expect.any(String),
			},
		]);
	});

	it.each<[string, Record<string, unknown>]>([
		['text', { type: 'text', text: { body: 'See https://example.com', preview_url: true } }],
		['image', { type: 'image', image: { link: 'https://cdn.example.com/a.png', caption: 'A' } }],
		['audio', { type: 'audio', audio: { link: 'https://cdn.example.com/a.mp3' } }],
		['video', { type: 'video', video: { link: 'http://cdn.example.com/a.mp4', caption: 'V' } }],
		['document', { type: 'document', document: { link: 'https://cdn.example.com/a.pdf', caption: 'D', filename: 'invoice.pdf' } }],
		['sticker', { type: 'sticker', sticker: { link: 'https://cdn.example.com/s.webp' } }],
		['location', { type: 'location', location: { longitude: 77.5946, latitude: 12.9716, name: 'Office', address: 'MG Road' } }],
		[
			'contacts',
			{
				type: 'contacts',
				contacts: [
					{
						name: { formatted_name: 'Asha Rao', first_name: 'Asha', last_name: 'Rao' },
						phones: [{ phone: '+919800000001', type: 'WORK' }],
						emails: [{ email: 'asha@example.com', type: 'WORK' }],
						org: { company: 'Acme', title: 'CTO' },
					},
					{ name: { first_name: 'Ravi' } },
				],
			},
		],
		['interactive', buttonContent(3)],
	])('content type %s is accepted and stored', async (type, content) => {
		const res = await post(chat({ recipient_type: 'individual', ...content }));
		expect(res.status).toBe(202);
		expect((res.body as ChatAppSent).response.chatapp.messages[0].status).toBe('success');
		const [stored] = sandbox.chatAppMessages();
		expect(stored.contentType).toBe(type);
		expect(stored.content).toEqual({ recipient_type: 'individual', ...content });
	});

	it('interactive list is accepted; interactiveType records button or list', async () => {
		expect((await post(chat(listContent()))).status).toBe(202);
		expect((await post(chat(buttonContent(1)))).status).toBe(202);
		expect(sandbox.chatAppMessages().map((m) => [m.contentType, m.interactiveType])).toEqual([
			['interactive', 'list'],
			['interactive', 'button'],
		]);
	});

	it.each(['image', 'video', 'document'])('interactive header of type %s with a link is accepted', async (type) => {
		const content = buttonContent(1);
		content.interactive.header = { type, [type]: { link: `https://cdn.example.com/h.${type}` } };
		expect((await post(chat(content))).status).toBe(202);
	});

	it.each(SANDBOX_CHATAPP_UNREACHABLE)('%s (not on the chat app) → 202 with a failed entry 30012, nothing stored', async (to) => {
		const res = await post(chat(textContent(), { to }));
		expect(res.status).toBe(202);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'POST',
			http_code: 202,
			metadata: { total: 1, success: 0, failed: 1 },
			response: {
				chatapp: {
					messages: [
						{
							code: 400,
							error_data: { code: 30012, message: 'INVALID_RECIPIENT', description: `${to} is not on the chat app, so the message cannot be delivered` },
							status: 'failed',
							data: null,
						},
					],
				},
			},
		});
		expect(sandbox.chatAppMessages()).toHaveLength(0);
	});

	type Mutation = (body: ChatBody) => void;
	const withContent = (content: Record<string, unknown>): Mutation => (b) => (b.content = content);
	// every body starts as chat(textContent())
	const onText = (fn: (c: TextContent) => void): Mutation => (b) => fn(b.content as TextContent);
	const I = 'content.interactive';

	it.each<[string, Mutation, string]>([
		['from missing', (b) => drop(b, 'from'), 'from is required'],
		['from not E.164', (b) => (b.from = '09000000001'), "from must be an E.164 number (+, then 8 to 15 digits; got '09000000001')"],
		['to missing', (b) => drop(b, 'to'), 'to is required'],
		['to empty', (b) => (b.to = ''), 'to must not be empty'],
		['to not E.164', (b) => (b.to = '+91 98123 45678'), "to must be an E.164 number (+, then 8 to 15 digits; got '+91 98123 45678')"],
		['to a number', (b) => set(b, 'to', 919812345678), 'to must be a string (got a number)'],
		['content not an object', (b) => set(b, 'content', 'hello'), 'content must be an object (got a string)'],
		['status_callback not a URL', (b) => (b.status_callback = 'example.com/cb'), "status_callback must be an absolute http(s) URL (got 'example.com/cb')"],
		['custom_data a number', (b) => set(b, 'custom_data', 3), 'custom_data must be a string (got a number)'],
		['recipient_type group', onText((c) => (c.recipient_type = 'group')), "content.recipient_type must be one of: individual (got 'group')"],
		['type missing', onText((c) => drop(c, 'type')), 'content.type is required'],
		[
			'type poll',
			onText((c) => (c.type = 'poll')),
			"content.type must be one of: text, image, audio, video, document, sticker, location, contacts, interactive (got 'poll')",
		],
		['text object missing', onText((c) => drop(c, 'text')), 'content.text is required'],
		['text.body missing', onText((c) => drop(c.text, 'body')), 'content.text.body is required'],
		['text.body empty', onText((c) => (c.text.body = '')), 'content.text.body must not be empty'],
		['text.preview_url a string', onText((c) => set(c.text, 'preview_url', 'yes')), 'content.text.preview_url must be a boolean (got a string)'],
		['image object missing', withContent({ type: 'image' }), 'content.image is required'],
		['image.link missing', withContent({ type: 'image', image: { caption: 'x' } }), 'content.image.link is required'],
		[
			'image.link not http(s)',
			withContent({ type: 'image', image: { link: 'ftp://cdn.example.com/a.png' } }),
			"content.image.link must be an absolute http(s) URL (got 'ftp://cdn.example.com/a.png')",
		],
		['image.caption a number', withContent({ type: 'image', image: { link: 'https://x.io/a', caption: 1 } }), 'content.image.caption must be a string (got a number)'],
		['audio.link missing', withContent({ type: 'audio', audio: {} }), 'content.audio.link is required'],
		['audio with a caption', withContent({ type: 'audio', audio: { link: 'https://x.io/a', caption: 'c' } }), 'content.audio.caption is not supported for audio messages'],
		['video.link relative', withContent({ type: 'video', video: { link: '/v.mp4' } }), "content.video.link must be an absolute http(s) URL (got '/v.mp4')"],
		['video with a filename', withContent({ type: 'video', video: { link: 'https://x.io/v', filename: 'v.mp4' } }), 'content.video.filename is not supported for video messages'],
		['document.link missing', withContent({ type: 'document', document: { filename: 'a.pdf' } }), 'content.document.link is required'],
		['document.filename a number', withContent({ type: 'document', document: { link: 'https://x.io/d', filename: 5 } }), 'content.document.filename must be a string (got a number)'],
		['sticker.link missing', withContent({ type: 'sticker', sticker: {} }), 'content.sticker.link is required'],
		['sticker with a caption', withContent({ type: 'sticker', sticker: { link: 'https://x.io/s.webp', caption: 'c' } }), 'content.sticker.caption is not supported for sticker messages'],
		['location object missing', withContent({ type: 'location' }), 'content.location is required'],
		['longitude missing', withContent({ type: 'location', location: { latitude: 1 } }), 'content.location.longitude is required'],
		['latitude missing', withContent({ type: 'location', location: { longitude: 1 } }), 'content.location.latitude is required'],
		['latitude a string', withContent({ type: 'location', location: { longitude: 1, latitude: '12.9' } }), 'content.location.latitude must be a number (got a string)'],
		['latitude 90.5', withContent({ type: 'location', location: { longitude: 1, latitude: 90.5 } }), 'content.location.latitude must be between -90 and 90 (got 90.5)'],
		['longitude -181', withContent({ type: 'location', location: { longitude: -181, latitude: 0 } }), 'content.location.longitude must be between -180 and 180 (got -181)'],
		['location.name a number', withContent({ type: 'location', location: { longitude: 1, latitude: 1, name: 2 } }), 'content.location.name must be a string (got a number)'],
		['location.address a boolean', withContent({ type: 'location', location: { longitude: 1, latitude: 1, address: true } }), 'content.location.address must be a string (got a boolean)'],
		['contacts missing', withContent({ type: 'contacts' }), 'content.contacts is required'],
		['contacts empty', withContent({ type: 'contacts', contacts: [] }), 'content.contacts must hold at least 1 contacts (got 0)'],
		['contacts an object', withContent({ type: 'contacts', contacts: { name: {} } }), 'content.contacts must be an array (got an object)'],
		['contact name missing', withContent({ type: 'contacts', contacts: [{ phones: [] }] }), 'content.contacts[0].name is required'],
		[
			'contact name without formatted_name or first_name',
			withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' } }, { name: { last_name: 'Rao' } }] }),
			'content.contacts[1].name.formatted_name or content.contacts[1].name.first_name is required',
		],
		['phones not an array', withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' }, phones: '+91' }] }), 'content.contacts[0].phones must be an array (got a string)'],
		['phone missing', withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' }, phones: [{ type: 'HOME' }] }] }), 'content.contacts[0].phones[0].phone is required'],
		['phone type a number', withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' }, phones: [{ phone: '+1', type: 1 }] }] }), 'content.contacts[0].phones[0].type must be a string (got a number)'],
		['email missing', withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' }, emails: [{}] }] }), 'content.contacts[0].emails[0].email is required'],
		['org a string', withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' }, org: 'Acme' }] }), 'content.contacts[0].org must be an object (got a string)'],
		['org.company a number', withContent({ type: 'contacts', contacts: [{ name: { first_name: 'A' }, org: { company: 1 } }] }), 'content.contacts[0].org.company must be a string (got a number)'],
		['interactive object missing', withContent({ type: 'interactive' }), `${I} is required`],
		['interactive type carousel', (b) => ((b.content = buttonContent()).interactive.type = 'carousel'), `${I}.type must be one of: button, list (got 'carousel')`],
		['interactive body missing', (b) => drop((b.content = buttonContent()).interactive, 'body'), `${I}.body is required`],
		['interactive body.text missing', (b) => set((b.content = buttonContent()).interactive, 'body', {}), `${I}.body.text is required`],
		['header type audio', (b) => set((b.content = buttonContent()).interactive, 'header', { type: 'audio' }), `${I}.header.type must be one of: text, image, video, document (got 'audio')`],
		['header text missing', (b) => set((b.content = buttonContent()).interactive, 'header', { type: 'text' }), `${I}.header.text is required`],
		['header image object missing', (b) => set((b.content = buttonContent()).interactive, 'header', { type: 'image' }), `${I}.header.image is required`],
		['header image link not a URL', (b) => set((b.content = buttonContent()).interactive, 'header', { type: 'image', image: { link: 'x' } }), `${I}.header.image.link must be an absolute http(s) URL (got 'x')`],
		['footer without text', (b) => set((b.content = buttonContent()).interactive, 'footer', {}), `${I}.footer.text is required`],
		['action missing', (b) => drop((b.content = buttonContent()).interactive, 'action'), `${I}.action is required`],
		['buttons missing', (b) => set((b.content = buttonContent()).interactive, 'action', {}), `${I}.action.buttons is required`],
		['no buttons', (b) => (b.content = buttonContent(0)), `${I}.action.buttons must hold at least 1 buttons (got 0)`],
		['button type url', (b) => ((b.content = buttonContent()).interactive.action.buttons[1].type = 'url'), `${I}.action.buttons[1].type must be one of: reply (got 'url')`],
		['button reply missing', (b) => drop((b.content = buttonContent()).interactive.action.buttons[0], 'reply'), `${I}.action.buttons[0].reply is required`],
		['button id missing', (b) => drop((b.content = buttonContent()).interactive.action.buttons[2].reply, 'id'), `${I}.action.buttons[2].reply.id is required`],
		['button title missing', (b) => drop((b.content = buttonContent()).interactive.action.buttons[0].reply, 'title'), `${I}.action.buttons[0].reply.title is required`],
		['duplicate button ids', (b) => ((b.content = buttonContent()).interactive.action.buttons[2].reply.id = 'b0'), `${I}.action.buttons[2].reply.id 'b0' is used by another button; button ids must be unique`],
		['list action.button missing', (b) => drop((b.content = listContent()).interactive.action, 'button'), `${I}.action.button is required`],
		['list sections missing', (b) => drop((b.content = listContent()).interactive.action, 'sections'), `${I}.action.sections is required`],
		['list with no sections', (b) => (b.content = listContent([])), `${I}.action.sections must hold at least 1 sections (got 0)`],
		['section without rows', (b) => (b.content = listContent([{ title: 'S', rows: [] }])), `${I}.action.sections[0].rows must hold at least 1 rows (got 0)`],
		['row id missing', (b) => (b.content = listContent([{ rows: [{ title: 'x' }] }])), `${I}.action.sections[0].rows[0].id is required`],
		['row title missing', (b) => (b.content = listContent([{ rows: [{ id: 'x' }] }])), `${I}.action.sections[0].rows[0].title is required`],
		['duplicate row ids across sections', (b) => (b.content = listContent([{ title: 'A', rows: rows(1) }, { title: 'B', rows: rows(1) }])), `${I}.action.sections[1].rows[0].id 'r0' is used by another row; row ids must be unique`],
		['section title missing with several sections', (b) => (b.content = listContent([{ title: 'A', rows: rows(1, 'a') }, { rows: rows(1, 'b') }])), `${I}.action.sections[1].title is required`],
	])('%s → 400 naming the field', async (_name, mutate, description) => {
		const body = chat(textContent());
		mutate(body);
		expect(badRequest(await post(body))).toBe(description);
		expect(sandbox.chatAppMessages()).toHaveLength(0);
	});

	it('recipient_type may be omitted; a single list section needs no title', async () => {
		const content = textContent();
		drop(content, 'recipient_type');
		expect((await post(chat(content))).status).toBe(202);
		expect((await post(chat(listContent([{ rows: rows(1) }])))).status).toBe(202);
	});

	describe('limits at their boundary (ok at the limit, 400 one above)', () => {
		const s = (n: number, ch = 'x') => ch.repeat(n);
		type Build = (n: number) => Record<string, unknown>;
		const button = (fn: (c: ButtonContent['interactive'], n: number) => void): Build => (n) => {
			const c = buttonContent();
			fn(c.interactive, n);
			return c;
		};
		const list = (fn: (c: ReturnType<typeof listContent>['interactive'], n: number) => void): Build => (n) => {
			const c = listContent();
			fn(c.interactive, n);
			return c;
		};
		it.each<[string, number, Build, string]>([
			['reply buttons', 3, (n) => buttonContent(n), `${I}.action.buttons holds 4 buttons; at most 3 are allowed`],
			['reply button title', 20, button((i, n) => (i.action.buttons[0].reply.title = s(n))), `${I}.action.buttons[0].reply.title is 21 characters long; at most 20 are allowed`],
			['reply button id', 256, button((i, n) => (i.action.buttons[1].reply.id = s(n))), `${I}.action.buttons[1].reply.id is 257 characters long; at most 256 are allowed`],
			['list action.button label', 20, list((i, n) => (i.action.button = s(n))), `${I}.action.button is 21 characters long; at most 20 are allowed`],
			[
				'list sections',
				10,
				list((i, n) => (i.action.sections = Array.from({ length: n }, (_, k) => ({ title: `S${k}`, rows: [{ id: `r${k}`, title: 't' }] })))),
				`${I}.action.sections holds 11 sections; at most 10 are allowed`,
			],
			[
				'list rows in total',
				10,
				list((i, n) => (i.action.sections = [{ title: 'A', rows: rows(5, 'a') }, { title: 'B', rows: rows(n - 5, 'b') }])),
				`${I}.action.sections hold 11 rows in total; at most 10 are allowed`,
			],
			['list rows in one section', 10, list((i, n) => (i.action.sections = [{ rows: rows(n) }])), `${I}.action.sections hold 11 rows in total; at most 10 are allowed`],
			['list row title', 24, list((i, n) => (i.action.sections[0].rows[1].title = s(n))), `${I}.action.sections[0].rows[1].title is 25 characters long; at most 24 are allowed`],
			['list row description', 72, list((i, n) => (i.action.sections[0].rows[0].description = s(n))), `${I}.action.sections[0].rows[0].description is 73 characters long; at most 72 are allowed`],
			['list row id', 200, list((i, n) => (i.action.sections[0].rows[0].id = s(n))), `${I}.action.sections[0].rows[0].id is 201 characters long; at most 200 are allowed`],
			['list section title', 24, list((i, n) => (i.action.sections[0].title = s(n))), `${I}.action.sections[0].title is 25 characters long; at most 24 are allowed`],
			['header text', 60, button((i, n) => (i.header.text = s(n))), `${I}.header.text is 61 characters long; at most 60 are allowed`],
			['body text', 1024, button((i, n) => (i.body.text = s(n))), `${I}.body.text is 1025 characters long; at most 1024 are allowed`],
			['footer text', 60, button((i, n) => (i.footer.text = s(n))), `${I}.footer.text is 61 characters long; at most 60 are allowed`],
			['list body text', 1024, list((i, n) => (i.body.text = s(n))), `${I}.body.text is 1025 characters long; at most 1024 are allowed`],
		])('%s: %i ok, one more → 400', async (_name, limit, build, description) => {
			const ok = await post(chat(build(limit)));
			expect(ok.status).toBe(202);
			expect(badRequest(await post(chat(build(limit + 1))))).toBe(description);
			expect(sandbox.chatAppMessages()).toHaveLength(1);
		});

		it('lengths count code points: 20 emoji make a valid button title, 21 do not', async () => {
			const title = (n: number) => {
				const c = buttonContent(1);
				c.interactive.action.buttons[0].reply.title = '🎉'.repeat(n);
				return c;
			};
			expect((await post(chat(title(20)))).status).toBe(202);
			expect(badRequest(await post(chat(title(21))))).toMatch(/is 21 characters long; at most 20/);
		});

		it('location at the edges of its range is accepted', async () => {
			for (const [longitude, latitude] of [
				[180, 90],
				[-180, -90],
				[0, 0],
			]) {
				expect((await post(chat({ type: 'location', location: { longitude, latitude } }))).status).toBe(202);
			}
			expect(sandbox.chatAppMessages()).toHaveLength(3);
		});
	});
});

// ================================================================ webhook

describe('chat-app webhook configuration', () => {
	const config = {
		incoming_message_url: 'https://hooks.example.com/incoming',
		status_callback_url: 'https://hooks.example.com/status',
		verify_token: 'verify-me',
	};
	const envelope = (method: string, webhook: unknown) => ({
		request_id: expect.stringMatching(HEX32),
		method,
		http_code: 200,
		response: { code: 200, status: 'success', data: { chatapp: { webhook } } },
	});

	it('GET before any PUT answers 200 with webhook null', async () => {
		const res = await call('GET', WEBHOOK);
		expect(res.status).toBe(200);
		expect(res.body).toEqual(envelope('GET', null));
		expect(sandbox.chatAppWebhook()).toBeNull();
	});

	it('PUT stores the configuration and answers it; GET, the accessor and the control API return it', async () => {
		const put = await call('PUT', WEBHOOK, { json: { chatapp: { webhook: { ...config, extra: 'ignored' } } } });
		expect(put.status).toBe(200);
		expect(put.body).toEqual(envelope('PUT', config));
		expect((await call('GET', WEBHOOK)).body).toEqual(envelope('GET', config));
		expect(sandbox.chatAppWebhook()).toEqual(config);
		expect((await call('GET', '/__sandbox/chatapp-webhook')).body).toEqual({ webhook: config });
	});

	it('a PUT replaces the whole configuration (no merge); only incoming_message_url is required', async () => {
		await call('PUT', WEBHOOK, { json: { chatapp: { webhook: config } } });
		const res = await call('PUT', WEBHOOK, { json: { chatapp: { webhook: { incoming_message_url: 'http://other.example.com/in' } } } });
		expect(res.body).toEqual(envelope('PUT', { incoming_message_url: 'http://other.example.com/in' }));
		expect(sandbox.chatAppWebhook()).toEqual({ incoming_message_url: 'http://other.example.com/in' });
	});

	it('DELETE clears it (idempotent); GET then answers null', async () => {
		await call('PUT', WEBHOOK, { json: { chatapp: { webhook: config } } });
		const del = await call('DELETE', WEBHOOK);
		expect(del.status).toBe(200);
		expect(del.body).toEqual(envelope('DELETE', null));
		expect(sandbox.chatAppWebhook()).toBeNull();
		expect((await call('GET', WEBHOOK)).body).toEqual(envelope('GET', null));
		expect((await call('DELETE', WEBHOOK)).status).toBe(200);
	});

	it.each<[string, unknown, string]>([
		['chatapp missing', { webhook: config }, 'chatapp is required'],
		['webhook missing', { chatapp: {} }, 'chatapp.webhook is required'],
		['webhook a string', { chatapp: { webhook: 'https://x.io' } }, 'chatapp.webhook must be an object (got a string)'],
		['incoming_message_url missing', { chatapp: { webhook: { status_callback_url: config.status_callback_url } } }, 'chatapp.webhook.incoming_message_url is required'],
		['incoming_message_url not a URL', { chatapp: { webhook: { incoming_message_url: 'hooks.example.com' } } }, "chatapp.webhook.incoming_message_url must be an absolute http(s) URL (got 'hooks.example.com')"],
		['status_callback_url not http(s)', { chatapp: { webhook: { ...config, status_callback_url: 'ws://x.io' } } }, "chatapp.webhook.status_callback_url must be an absolute http(s) URL (got 'ws://x.io')"],
		['verify_token a number', { chatapp: { webhook: { ...config, verify_token: 123 } } }, 'chatapp.webhook.verify_token must be a string (got a number)'],
		['verify_token empty', { chatapp: { webhook: { ...config, verify_token: '' } } }, 'chatapp.webhook.verify_token must not be empty'],
	])('PUT with %s → 400 and the stored configuration is unchanged', async (_name, body, description) => {
		await call('PUT', WEBHOOK, { json: { chatapp: { webhook: config } } });
		expect(badRequest(await call('PUT', WEBHOOK, { json: body }), 'PUT')).toBe(description);
		expect(sandbox.chatAppWebhook()).toEqual(config);
	});

	it('PUT with a non-JSON body → 400', async () => {
		const res = await call('PUT', WEBHOOK, { raw: 'incoming_message_url=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		expect(badRequest(res, 'PUT')).toMatch(/Content-Type must be application\/json/);
	});

	it('another method answers 405 with Allow', async () => {
		const res = await call('PATCH', WEBHOOK, { json: {} });
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('PUT, GET, DELETE');
	});
});

// ================================================================ auth, state, core

describe('messaging: authentication', () => {
	const cases: Array<[string, Record<string, string>, string]> = [
		['missing', { authorization: '' }, MESSAGES],
		['wrong token', { authorization: basicOf(A.apiKey, 'nope') }, MESSAGES],
		['bearer token', { authorization: `Bearer ${A.bearerToken}` }, MESSAGES],
		['another account', {}, '/v2/accounts/someoneelse/messages'],
	];
	it.each(cases)('POST messages with %s credentials → 401 v2 envelope, nothing stored', async (_name, headers, path) => {
		const res = await call('POST', path, { json: rcsBody(1), headers });
		expect(res.status).toBe(401);
		expect(res.body).toEqual({
			request_id: expect.stringMatching(HEX32),
			method: 'POST',
			http_code: 401,
			response: { code: 401, status: 'failure', error_data: { code: 1010, message: 'Authentication failed', description: expect.any(String) } },
		});
		expect(sandbox.rcsMessages()).toHaveLength(0);
		expect(sandbox.requests()[0].auth.ok).toBe(false);
	});

	it.each(['PUT', 'GET', 'DELETE'])('%s chatapp/webhook without valid credentials → 401', async (method) => {
		const res = await call(method, WEBHOOK, {
			json: method === 'PUT' ? { chatapp: { webhook: { incoming_message_url: 'https://x.io/in' } } } : undefined,
			headers: { authorization: basicOf('someone', 'else') },
		});
		expect(res.status).toBe(401);
		expect((res.body as V2Failure).response.error_data.code).toBe(1010);
		expect(sandbox.chatAppWebhook()).toBeNull();
	});

	it('authentication comes before validation: an invalid body without credentials is a 401', async () => {
		expect((await call('POST', MESSAGES, { raw: 'junk', headers: { authorization: '' } })).status).toBe(401);
	});
});

describe('messaging: state, accessors and control API', () => {
	it('accessors and control endpoints list what was accepted; reset clears everything', async () => {
		await post(rcsBody(2));
		await post(chat(textContent()));
		await call('PUT', WEBHOOK, { json: { chatapp: { webhook: { incoming_message_url: 'https://x.io/in' } } } });
		expect(sandbox.rcsMessages()).toHaveLength(2);
		expect(sandbox.chatAppMessages()).toHaveLength(1);
		expect((await call('GET', '/__sandbox/rcs-messages')).body).toEqual(sandbox.rcsMessages());
		expect((await call('GET', '/__sandbox/chatapp-messages')).body).toEqual(sandbox.chatAppMessages());
		expect((await call('GET', '/__sandbox/chatapp-webhook')).body).toEqual({ webhook: { incoming_message_url: 'https://x.io/in' } });

		sandbox.reset();
		expect(sandbox.rcsMessages()).toEqual([]);
		expect(sandbox.chatAppMessages()).toEqual([]);
		expect(sandbox.chatAppWebhook()).toBeNull();

		await post(rcsBody(1));
		await post(chat(textContent()));
		await call('PUT', WEBHOOK, { json: { chatapp: { webhook: { incoming_message_url: 'https://x.io/in' } } } });
		expect((await call('POST', '/__sandbox/reset')).status).toBe(200);
		expect((await call('GET', '/__sandbox/rcs-messages')).body).toEqual([]);
		expect((await call('GET', '/__sandbox/chatapp-messages')).body).toEqual([]);
		expect((await call('GET', '/__sandbox/chatapp-webhook')).body).toEqual({ webhook: null });
	});

	it('accessors return copies: changing them does not change the sandbox', async () => {
		await post(rcsBody(1));
		await post(chat(textContent()));
		await call('PUT', WEBHOOK, { json: { chatapp: { webhook: { incoming_message_url: 'https://x.io/in' } } } });
		sandbox.rcsMessages()[0].template.variables.TemplateParam1 = 'changed';
		(sandbox.chatAppMessages()[0].content as TextContent).text.body = 'changed';
		sandbox.chatAppWebhook()!.incoming_message_url = 'changed';
		expect(sandbox.rcsMessages()[0].template.variables.TemplateParam1).toBe('order-0');
		expect((sandbox.chatAppMessages()[0].content as TextContent).text.body).toBe('Hello');
		expect(sandbox.chatAppWebhook()!.incoming_message_url).toBe('https://x.io/in');
	});

	it('RCS and chat-app stores are separate from the SMS store', async () => {
		await post(rcsBody(1));
		await post(chat(textContent()));
		expect(sandbox.messages()).toEqual([]);
	});
});

describe('messaging: faults, latency and the request log', () => {
	it('a status fault answers in the v2 envelope before auth and processing; the next request passes', async () => {
		sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 3 }, 1, { method: 'POST', pathIncludes: '/messages' });
		const faulted = await post(rcsBody(1), { authorization: '' });
		expect(faulted.status).toBe(429);
		expect(faulted.headers.get('retry-after')).toBe('3');
		expect(faulted.body).toMatchObject({ method: 'POST', http_code: 429, response: { status: 'failure', error_data: { code: 1029 } } });
		expect(sandbox.rcsMessages()).toHaveLength(0);
		expect((await post(rcsBody(1))).status).toBe(202);
		expect(sandbox.requests().map((r) => [r.status, r.fault ?? '-'])).toEqual([
			[429, 'status:429'],
			[202, '-'],
		]);
	});

	it('a fault matched to the webhook path leaves sends alone', async () => {
		sandbox.injectFaults({ kind: 'status', status: 503 }, 1, { pathIncludes: 'chatapp/webhook' });
		expect((await post(chat(textContent()))).status).toBe(202);
		expect((await call('GET', WEBHOOK)).status).toBe(503);
		expect((await call('GET', WEBHOOK)).status).toBe(200);
	});

	it("reset 'after': the chat-app message is stored but the answer is lost", async () => {
		sandbox.injectFaults({ kind: 'reset', when: 'after' });
		await expect(post(chat(textContent()))).rejects.toThrow();
		expect(sandbox.chatAppMessages()).toHaveLength(1);
		expect(sandbox.requests()[0]).toMatchObject({ status: 0, fault: 'reset:after' });
	});

	it("reset 'before': nothing is stored", async () => {
		sandbox.injectFaults({ kind: 'reset', when: 'before' });
		await expect(post(rcsBody(3))).rejects.toThrow();
		expect(sandbox.rcsMessages()).toHaveLength(0);
	});

	it('latency applies to these routes', async () => {
		sandbox.setLatency(100);
		const t0 = performance.now();
		expect((await post(rcsBody(1))).status).toBe(202);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
	});

	it('the request log records the JSON body, the auth outcome and the status', async () => {
		const body = chat(textContent(), { custom_data: 'log-me' });
		await post(body);
		await post(clone(rcsBody(101)));
		const log = sandbox.requests({ base: 'base', method: 'POST', pathIncludes: '/messages' });
		expect(log.map((r) => r.status)).toEqual([202, 400]);
		expect(log[0]).toMatchObject({
			path: MESSAGES,
			contentType: 'application/json',
			json: body,
			auth: { scheme: 'basic', user: A.apiKey, ok: true },
		});
		expect(JSON.stringify(log)).not.toContain(A.apiToken);
	});
});
