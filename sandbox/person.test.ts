/**
 * Acting as the person (callbacks/person.ts, callbacks/browser.ts, links.ts): a reply to a sent
 * chat-app or RCS message, SMS URL shortening and its short links, opening an SMS link as a person
 * or a link-preview bot, ending a placed call now, and delivery reports on demand for a given sid.
 * Every feature is driven through the JS method and the control endpoint; every receiver is a
 * local http server on 127.0.0.1.
 */
import { createHmac } from 'crypto';

import { BOT_USER_AGENT, PERSON_USER_AGENT } from './callbacks';
import { SANDBOX_ACCOUNT } from './fixtures';
import { Receiver, sandboxCall, sandboxControl } from './receiver';
import type { Answer, Received } from './receiver';
import { ExotelSandbox } from './server';
import type { CallbackAttempt, OpenLinkResult } from './server';
import type { StoredSmsMessage } from './stored';
import { budget } from './timing';

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const SEND = `/v1/Accounts/${SID}/Sms/send`;
const BULK = `/v1/Accounts/${SID}/Sms/bulksend`;
const MESSAGES = `/v2/accounts/${SID}/messages`;
const WEBHOOK = `/v2/accounts/${SID}/chatapp/webhook`;
const CONNECT = `/v1/Accounts/${SID}/Calls/connect`;
const FLOW = `http://my.exotel.com/${SID}/flowml/start_voice/926`;
const HEX32 = /^[0-9a-f]{32}$/;
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/;
const V1_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** Real ms per simulated ms: delivery reports at 1, 2, 3 ms. */
const SCALE = 0.001;

const BUSINESS = '+919000000001';
const CUSTOMER = '+919812345601';
const STRANGER = '+919812399999';
const BOT = 'exotel_sandbox_bot';

const hmac = (raw: Buffer) => `sha256=${createHmac('sha256', A.webhookSigningSecret).update(raw).digest('hex')}`;

// ---------------------------------------------------------------- sandbox calls

let sandbox: ExotelSandbox;
let origin: string;
const rx = new Receiver();
let pathSeq = 0;
/** A fresh receiver path per use, so tests never see each other's posts. */
const fresh = (name: string) => `/${name}/${++pathSeq}`;

// ---------------------------------------------------------------- the answers and callbacks, as the tests read them

/** A v1 SMS, as an SMS send answers it. */
interface V1Sms {
	Sid: string;
	Body: string;
}

/** A v1 call (Details only with details=true). */
interface V1Call {
	Sid: string;
	Status: string;
	Duration: string | null;
	EndTime: string | null;
	Details?: { ConversationDuration: number };
}

/** The answer to a chat-app send. */
interface ChatAppSent {
	response: { chatapp: { messages: Array<{ data: { sid: string } }> } };
}

/** The answer to an RCS send. */
interface RcsSent {
	response: { rcs: { messages: Array<{ data: { sid: string } }> } };
}

/** The control API's answer to an on-demand callback (the first attempt, null when nothing is posted), or its refusal. */
interface OnDemand {
	ok: boolean;
	callback: CallbackAttempt;
	error?: string;
}

/** A chat-app reply (icm) as its callback posts it. */
interface ChatAppReply {
	chatapp: { messages: Array<Record<string, unknown> & { sid: string }> };
}

const api = <B = unknown>(method: string, path: string, body?: unknown, form?: Array<[string, string]>, at = origin) =>
	sandboxCall<B>(at, method, path, body, form);

const control = <B = OnDemand>(path: string, body: unknown, at = origin) => sandboxControl<B>(at, path, body);

/** The attempt the sandbox logged for a delivery (the receiver answers before the sandbox logs). */
const logged = (attempt: CallbackAttempt) =>
	sandbox.waitForCallbacks((log) => log.some((a) => a.id === attempt.id && a.attempt === 1), budget(5000));

const buttons = {
	type: 'interactive',
	interactive: {
		type: 'button',
		body: { text: 'Approve the refund of ₹499?' },
		action: {
			buttons: [
				{ type: 'reply', reply: { id: 'approve', title: 'Approve' } },
				{ type: 'reply', reply: { id: 'reject', title: 'Reject' } },
			],
		},
	},
};

const listMessage = {
	type: 'interactive',
	interactive: {
		type: 'list',
		body: { text: 'Pick a delivery slot' },
		action: {
			button: 'Slots',
			sections: [
				{
					title: 'Tomorrow',
					rows: [
						{ id: 'slot-am', title: 'Morning', description: '9 to 12' },
						{ id: 'slot-pm', title: 'Afternoon' },
					],
				},
				{ title: 'Later', rows: [{ id: 'slot-next-week', title: 'Next week' }] },
			],
		},
	},
};

async function sendChat(content: unknown, extra: Record<string, unknown> = {}, to = CUSTOMER): Promise<string> {
	const res = await api<ChatAppSent>('POST', MESSAGES, { from: BUSINESS, to, content, ...extra });
	expect(res.status).toBe(202);
	return res.body.response.chatapp.messages[0].data.sid;
}

async function sendRcs(to: string, extra: Record<string, unknown> = {}, request: Record<string, unknown> = {}): Promise<string> {
	const res = await api<RcsSent>('POST', MESSAGES, {
		...request,
		rcs: {
			messages: [
				{
					from: BOT,
					to,
					content: { type: 'template', template: { name: 'order_update', variables: { TemplateParam1: 'A-1' } } },
					...extra,
				},
			],
		},
	});
	expect(res.status).toBe(202);
	return res.body.response.rcs.messages[0].data.sid;
}

async function sendSms(form: Array<[string, string]>, endpoint = SEND): Promise<V1Sms[]> {
	const res = await api<Array<{ SMSMessage: V1Sms }>>('POST', endpoint, undefined, form);
	expect(res.status).toBe(200);
	return res.body.map((e) => e.SMSMessage);
}

/** The one chat-app `icm` entry the receiver got at `path`, with its request. */
function replyAt(path: string): { request: Received; body: ChatAppReply } {
	const replies = rx
		.at(path)
		.map((request) => ({ request, body: JSON.parse(request.text) }))
		.filter(({ body }) => body.chatapp?.messages?.[0]?.callback_type === 'icm' || body.rcs?.messages?.[0]?.callback_type === 'incoming_message');
	expect(replies).toHaveLength(1);
	return replies[0];
}

beforeAll(async () => {
	await rx.start();
	sandbox = new ExotelSandbox({ timeScale: SCALE });
	origin = await sandbox.start();
});

afterAll(async () => {
	await sandbox.stop();
	await rx.stop();
});

beforeEach(() => {
	sandbox.reset();
});

// ---------------------------------------------------------------- reply: chat app

describe('reply to a chat-app message', () => {
	it('posts a signed icm button reply to the message’s status_callback, with the defaults (JS method)', async () => {
		const path = fresh('chat-button');
		const sid = await sendChat(buttons, { status_callback: rx.url(path), custom_data: 'refund-7' });
		const attempt = await sandbox.reply({ sid, button: 'approve' });
		expect(attempt).toMatchObject({ kind: 'chatapp-reply', url: rx.url(path), outcome: 'delivered', status: 200, signed: true, attempt: 1, messageSid: sid });
		const { request, body } = replyAt(path);
		expect(request.method).toBe('POST');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['x-service-signature']).toBe(hmac(request.raw));
		expect(request.text).toBe(attempt.body);
		expect(body).toEqual({
			chatapp: {
				messages: [
					{
						callback_type: 'icm',
						sid: expect.stringMatching(HEX32),
						from: CUSTOMER,
						to: BUSINESS,
						timestamp: expect.stringMatching(ISO_OFFSET),
						custom_data: 'refund-7',
						type: 'button',
						button: { payload: 'approve', text: 'Approve' },
						context: { from: BUSINESS, id: sid },
						contact: { wa_id: CUSTOMER.slice(1), profile: { name: 'Sandbox User' } },
					},
				],
			},
		});
		expect(Object.keys(body.chatapp.messages[0])).toEqual([
			'callback_type', 'sid', 'from', 'to', 'timestamp', 'custom_data', 'type', 'button', 'context', 'contact',
		]);
		expect(body.chatapp.messages[0].sid).not.toBe(sid);
		await logged(attempt);
		expect(sandbox.callbacks({ kind: 'chatapp-reply' })).toHaveLength(1);
	});

	it('answers a list row through the control API, finding the message by recipient, with a profile name', async () => {
		const path = fresh('chat-list');
		const sid = await sendChat(listMessage, { status_callback: rx.url(path) });
		const res = await control('/reply', { to: CUSTOMER, listRow: 'slot-am', name: 'Asha Rao' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ ok: true, callback: expect.objectContaining({ kind: 'chatapp-reply', outcome: 'delivered', signed: true, messageSid: sid }) });
		const first = replyAt(path).body.chatapp.messages[0];
		expect(first).toMatchObject({
			type: 'list_reply',
			list_reply: { id: 'slot-am', title: 'Morning', description: '9 to 12' },
			context: { from: BUSINESS, id: sid },
			contact: { wa_id: CUSTOMER.slice(1), profile: { name: 'Asha Rao' } },
		});
		expect(first.custom_data).toBeUndefined();
		expect(rx.at(path).find((r) => r.text === res.body.callback.body)?.headers['x-service-signature']).toBe(hmac(Buffer.from(res.body.callback.body)));

		const other = fresh('chat-list-2');
		await sendChat(listMessage, { status_callback: rx.url(other) });
		await sandbox.reply({ to: CUSTOMER, listRow: 'slot-next-week' });
		expect(replyAt(other).body.chatapp.messages[0].list_reply).toEqual({ id: 'slot-next-week', title: 'Next week' });
	});

	it('answers with text from a stranger (from = another number), via both entry points', async () => {
		const path = fresh('chat-text');
		const sid = await sendChat({ type: 'text', text: { body: 'Reply YES to confirm' } }, { status_callback: rx.url(path) });
		await sandbox.reply({ sid, text: 'YES', from: STRANGER });
		const res = await control('/reply', { sid, text: 'me too' });
		expect(res.status).toBe(200);
		const bodies = rx
			.at(path)
			.map((r) => JSON.parse(r.text).chatapp.messages[0])
			.filter((entry) => entry.callback_type === 'icm');
		expect(bodies).toHaveLength(2);
		const stranger = bodies.find((entry) => entry.text.body === 'YES');
		const recipient = bodies.find((entry) => entry.text.body === 'me too');
		expect(stranger).toMatchObject({ from: STRANGER, to: BUSINESS, type: 'text', text: { body: 'YES' }, context: { from: BUSINESS, id: sid }, contact: { wa_id: STRANGER.slice(1) } });
		expect(recipient).toMatchObject({ from: CUSTOMER, contact: { wa_id: CUSTOMER.slice(1) } });
	});

	it('goes to the configured status_callback_url when the send had none; signature null or forged on request', async () => {
		const configured = fresh('chat-configured');
		await api('PUT', WEBHOOK, { chatapp: { webhook: { incoming_message_url: rx.url(fresh('in')), status_callback_url: rx.url(configured) } } });
		const sid = await sendChat(buttons);
		const none = await sandbox.reply({ sid, button: 'reject', signature: null });
		const forged = await control('/reply', { sid, button: 'approve', signature: 'sha256=bad' });
		expect(none).toMatchObject({ url: rx.url(configured), signed: false });
		expect(forged.body.callback).toMatchObject({ url: rx.url(configured), signed: false });
		const got = rx.at(configured).filter((r) => JSON.parse(r.text).chatapp.messages[0].callback_type === 'icm');
		expect(got.find((r) => r.text === none.body)?.headers['x-service-signature']).toBeUndefined();
		expect(got.find((r) => r.text === forged.body.callback.body)?.headers['x-service-signature']).toBe('sha256=bad');
	});

	it('picks the latest message sent to `to` across chat app and RCS', async () => {
		const [chatPath, rcsPath, chatPath2] = [fresh('latest-chat'), fresh('latest-rcs'), fresh('latest-chat-2')];
		await sendChat({ type: 'text', text: { body: 'one' } }, { status_callback: rx.url(chatPath) });
		await sendRcs(CUSTOMER, { status_callback: rx.url(rcsPath) });
		expect((await sandbox.reply({ to: CUSTOMER, text: 'to the RCS one' })).url).toBe(rx.url(rcsPath));
		await sendChat({ type: 'text', text: { body: 'two' } }, { status_callback: rx.url(chatPath2) });
		expect((await control('/reply', { to: CUSTOMER.slice(1), text: 'to the second chat' })).body.callback.url).toBe(rx.url(chatPath2));
	});
});

// ---------------------------------------------------------------- reply: RCS

describe('reply to an RCS message', () => {
	it('posts an unsigned incoming_message with text to the message’s status_callback (JS method)', async () => {
		const path = fresh('rcs-text');
		const sid = await sendRcs(CUSTOMER, { status_callback: rx.url(path), custom_data: 'cd' });
		const attempt = await sandbox.reply({ sid, text: 'YES' });
		expect(attempt).toMatchObject({ kind: 'rcs-incoming', url: rx.url(path), outcome: 'delivered', signed: false, messageSid: sid });
		const { request, body } = replyAt(path);
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['x-service-signature']).toBeUndefined();
		expect(request.text).toBe(attempt.body);
		expect(body).toEqual({
			rcs: {
				messages: [
					{
						callback_type: 'incoming_message',
						sid: expect.stringMatching(HEX32),
						from: CUSTOMER,
						to: BOT,
						timestamp: expect.stringMatching(ISO_OFFSET),
						content: { type: 'text', text: 'YES' },
					},
				],
			},
		});
	});

	it('posts a suggestion reply or action (control API and JS), to the request-level status_callback, from a stranger', async () => {
		const path = fresh('rcs-suggested');
		const sid = await sendRcs(CUSTOMER, {}, { status_callback: rx.url(path) });
		const res = await control('/reply', { to: CUSTOMER, suggestion: { reply: { text: 'Track order', postback_data: 'TRACK_A1' } } });
		expect(res.status).toBe(200);
		expect(res.body.callback).toMatchObject({ kind: 'rcs-incoming', messageSid: sid, signed: false });
		await sandbox.reply({ sid, from: STRANGER, suggestion: { action: { text: 'Call us', postback_data: 'CALL', dial: '+918047090000' } } });
		const entries = rx
			.at(path)
			.map((r) => JSON.parse(r.text).rcs.messages[0])
			.filter((entry) => entry.callback_type === 'incoming_message');
		expect(entries.map((entry) => [entry.from, entry.to, entry.content])).toEqual([
			[CUSTOMER, BOT, { type: 'suggested', suggested: { response: { reply: { text: 'Track order', postback_data: 'TRACK_A1' } } } }],
			[STRANGER, BOT, { type: 'suggested', suggested: { response: { action: { text: 'Call us', postback_data: 'CALL', dial: '+918047090000' } } } }],
		]);
	});
});

// ---------------------------------------------------------------- reply: refused

describe('reply refused (400 / rejects), nothing posted', () => {
	let chatSid: string;
	let textSid: string;
	let bareSid: string;
	let rcsSid: string;
	let rcsBareSid: string;
	let smsSid: string;

	beforeEach(async () => {
		chatSid = await sendChat(buttons, { status_callback: rx.url(fresh('refused')) });
		textSid = await sendChat({ type: 'text', text: { body: 'hi' } }, { status_callback: rx.url(fresh('refused')) }, '+919812345602');
		bareSid = await sendChat(buttons, {}, '+919812345603');
		rcsSid = await sendRcs('+919812345604', { status_callback: rx.url(fresh('refused')) });
		rcsBareSid = await sendRcs('+919812345605');
		smsSid = (await sendSms([['From', 'EXOTEL'], ['To', '+919812345606'], ['Body', 'hi']]))[0].Sid;
	});

	const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
		['no message named', () => ({ text: 'x' }), /^sid or to is required/],
		['an unknown sid', () => ({ sid: 'nope', text: 'x' }), /^no chat-app or RCS message has sid 'nope'$/],
		['an SMS sid', () => ({ sid: smsSid, text: 'x' }), /it is an SMS: a person answers an SMS by opening its link, see openLink/],
		[
			'nothing sent to `to`: since when the sandbox has records and why, and where what it sent went',
			() => ({ to: '+919800000001', text: 'x' }),
			/^no chat-app or RCS message was sent to \+919800000001: the sandbox has no record of one since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(when it was reset, which forgets everything it sent\); in that time it sent chat-app or RCS messages to \+91981234560[1-5], /,
		],
		['an SMS went to `to`', () => ({ to: '+919812345606', text: 'x' }), /; an SMS was sent to it \([0-9a-f]{32}\): a person answers an SMS by opening its link \(open-link\)$/],
		['no answer', () => ({ sid: chatSid }), /^give exactly one of: button, listRow, text, suggestion \(got none\)$/],
		['two answers', () => ({ sid: chatSid, button: 'approve', text: 'x' }), /\(got button, text\)$/],
		['an unknown button id', () => ({ sid: chatSid, button: 'maybe' }), /^button 'maybe' is not a reply button of message [0-9a-f]{32}: its reply button ids are: 'approve', 'reject'$/],
		['a list row on a button message', () => ({ sid: chatSid, listRow: 'slot-am' }), /^listRow 'slot-am' is not a list row of message [0-9a-f]{32}: it has no list rows \(it is an interactive button message\); its reply button ids are 'approve', 'reject' \(use button\)$/],
		['a button on a text message', () => ({ sid: textSid, button: 'approve' }), /it has no reply buttons \(it is a text message\)$/],
		['a suggestion on a chat-app message', () => ({ sid: chatSid, suggestion: { reply: { text: 'a', postback_data: 'b' } } }), /^suggestion is an RCS answer/],
		['a chat-app message without a callback URL', () => ({ sid: bareSid, button: 'approve' }), /has no callback URL .*: the reply would go nowhere$/],
		['a button on an RCS message', () => ({ sid: rcsSid, button: 'approve' }), /^button is a chat-app answer; message [0-9a-f]{32} is an RCS template message \('order_update'\)/],
		['an RCS message without a status_callback', () => ({ sid: rcsBareSid, text: 'x' }), /^RCS message [0-9a-f]{32} has no status_callback/],
		['a malformed suggestion', () => ({ sid: rcsSid, suggestion: { reply: { text: 'a' } } }), /^suggestion.reply must be \{text, postback_data\}/],
		['a suggestion with both', () => ({ sid: rcsSid, suggestion: { reply: {}, action: {} } }), /exactly one of reply, action$/],
		['an empty text', () => ({ sid: chatSid, text: '' }), /^text must be a non-empty string$/],
		['a bad signature option', () => ({ sid: chatSid, text: 'x', signature: 1 }), /^signature must be a string/],
	];

	it.each(cases)('%s', async (_name, input, error) => {
		await expect(sandbox.reply(input())).rejects.toThrow(error);
		const res = await control('/reply', input());
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ ok: false, error: expect.stringMatching(error) });
		expect(sandbox.callbacks().filter((a) => a.kind === 'chatapp-reply' || a.kind === 'rcs-incoming')).toEqual([]);
	});

	it('answers 400 for a body that is not a JSON object', async () => {
		const res = await fetch(`${origin}/__sandbox/reply`, { method: 'POST', body: '[1]', headers: { 'content-type': 'application/json' } });
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({ ok: false, error: 'body must be a JSON object' });
	});
});

// ---------------------------------------------------------------- SMS short links

describe('SMS URL shortening', () => {
	it('stores the body as sent, the delivered body with short links, and serves GET /s/<code> as a 302', async () => {
		const body = 'Approve: https://shop.test/approve?id=1&x=2. Again: https://shop.test/approve?id=1&x=2 or http://127.0.0.1:9/reject';
		const [sent] = await sendSms([
			['From', 'EXOTEL'],
			['To', CUSTOMER],
			['Body', body],
			['ShortenUrl', 'true'],
		]);
		expect(sent.Body).toBe(body);
		const [stored] = sandbox.messages();
		expect(stored.body).toBe(body);
		expect(stored.shortLinks).toEqual([
			{ code: expect.stringMatching(/^[A-Za-z0-9_-]{8}$/), shortUrl: expect.any(String), longUrl: 'https://shop.test/approve?id=1&x=2' },
			{ code: expect.stringMatching(/^[A-Za-z0-9_-]{8}$/), shortUrl: expect.any(String), longUrl: 'http://127.0.0.1:9/reject' },
		]);
		const [first, second] = stored.shortLinks!;
		expect(first.code).not.toBe(second.code);
		expect(first.shortUrl).toBe(`${origin}/s/${first.code}`);
		expect(stored.deliveredBody).toBe(`Approve: ${first.shortUrl}. Again: ${first.shortUrl} or ${second.shortUrl}`);

		const requestsBefore = sandbox.requests().length;
		const redirect = await fetch(first.shortUrl, { redirect: 'manual' });
		expect(redirect.status).toBe(302);
		expect(redirect.headers.get('location')).toBe('https://shop.test/approve?id=1&x=2');
		const head = await fetch(second.shortUrl, { method: 'HEAD', redirect: 'manual' });
		expect([head.status, head.headers.get('location')]).toEqual([302, 'http://127.0.0.1:9/reject']);
		expect((await fetch(`${origin}/s/AAAAAAAA`, { redirect: 'manual' })).status).toBe(404);
		expect((await fetch(`${origin}/s/not-a-code-at-all`, { redirect: 'manual' })).status).toBe(404);
		const post = await fetch(first.shortUrl, { method: 'POST', redirect: 'manual' });
		expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
		// served like the control API: not recorded (nor faulted, nor counted by the rate limit)
		expect(sandbox.requests()).toHaveLength(requestsBefore);

		const listed = (await fetch(`${origin}/__sandbox/messages`).then((r) => r.json())) as StoredSmsMessage[];
		expect(listed[0]).toMatchObject({ body, deliveredBody: stored.deliveredBody, shortLinks: stored.shortLinks });
	});

	it('shortens each dynamic bulk message on its own, counts units on the delivered body, and changes nothing without ShortenUrl', async () => {
		const path = fresh('bulk-short');
		const longUrl = `http://127.0.0.1:9/${'p'.repeat(80)}`;
		await sendSms(
			[
				['From', 'EXOTEL'],
				['Messages[0][To]', '+919812345611'],
				['Messages[0][Body]', `${'x'.repeat(120)} ${longUrl}`],
				['Messages[1][To]', '+919812345612'],
				['Messages[1][Body]', `Open ${longUrl}`],
				['ShortenUrl', 'true'],
				['StatusCallback', rx.url(path)],
			],
			BULK,
		);
		const [a, b] = sandbox.messages();
		expect(a.shortLinks![0].longUrl).toBe(longUrl);
		expect(b.shortLinks![0].longUrl).toBe(longUrl);
		expect(a.shortLinks![0].code).not.toBe(b.shortLinks![0].code);
		expect(b.deliveredBody).toBe(`Open ${b.shortLinks![0].shortUrl}`);
		await sandbox.waitForCallbacks((log) => log.filter((x) => x.kind === 'sms-status').length === 2);
		const report = rx.at(path).map((r) => Object.fromEntries(new URLSearchParams(r.text))).find((f) => f.SmsSid === a.sid);
		expect(a.body.length).toBeGreaterThan(160); // 2 units as sent
		expect(report?.SmsUnits).toBe('1'); // 1 unit as delivered

		sandbox.reset();
		await sendSms([['From', 'EXOTEL'], ['To', CUSTOMER], ['Body', `See ${longUrl}`], ['ShortenUrl', 'false']]);
		await sendSms([['From', 'EXOTEL'], ['To', CUSTOMER], ['Body', `See ${longUrl}`]]);
		for (const m of sandbox.messages()) {
			expect(m.body).toBe(`See ${longUrl}`);
			expect('deliveredBody' in m).toBe(false);
			expect('shortLinks' in m).toBe(false);
		}
	});
});

// ---------------------------------------------------------------- open a link

describe('openLink', () => {
	const formPage = (extra = '') =>
		'<!doctype html><html><body><h1>Approve</h1>' +
		`<form METHOD="POST" action="${extra}"><input type="hidden" name="answer" value="approve">` +
		'<input type="hidden" name="note" value="a &amp; b"><input type="text" name="free" value="typed">' +
		'<button type="submit" name="confirm" value="1">Confirm: Approve</button></form></body></html>';

	/** An SMS whose body carries links to the receiver: approve (a page with a post form), reject. */
	async function smsWithLinks(shorten: boolean, page: string, more = ''): Promise<string> {
		const form: Array<[string, string]> = [
			['From', 'EXOTEL'],
			['To', CUSTOMER],
			['Body', `Approve: ${rx.url(page)}?exec=12&token=t0k. Reject: ${rx.url(`${page}-reject`)}?exec=12${more}`],
		];
		if (shorten) form.push(['ShortenUrl', 'true']);
		return (await sendSms(form))[0].Sid;
	}

	it('as a person: GET with a browser User-Agent, then POSTs the page’s form with its hidden fields, button and cookie (JS method)', async () => {
		const page = fresh('approve');
		rx.on(page, (r): Answer =>
			r.method === 'GET'
				? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'set-cookie': ['seen=1; Path=/; HttpOnly'] }, body: formPage() }
				: { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<p>Thank you</p>' },
		);
		const sid = await smsWithLinks(true, page);
		const [stored] = sandbox.messages();
		const result = await sandbox.openLink({ sid });
		const pageUrl = `${rx.url(page)}?exec=12&token=t0k`;
		expect(result).toEqual<OpenLinkResult>({
			ok: true,
			sid,
			as: 'person',
			link: { shortUrl: stored.shortLinks![0].shortUrl, longUrl: pageUrl },
			pages: [
				{
					method: 'GET',
					url: stored.shortLinks![0].shortUrl,
					status: 302,
					contentType: 'text/plain; charset=utf-8',
					bodyExcerpt: `Found: ${pageUrl}`,
					location: pageUrl,
				},
				{ method: 'GET', url: pageUrl, status: 200, contentType: 'text/html; charset=utf-8', bodyExcerpt: formPage().slice(0, 500) },
				{
					method: 'POST',
					url: pageUrl,
					status: 200,
					contentType: 'text/html; charset=utf-8',
					bodyExcerpt: '<p>Thank you</p>',
					requestBody: 'answer=approve&note=a+%26+b&confirm=1',
				},
			],
		});
		const [get, post] = rx.at(page);
		expect(rx.at(page)).toHaveLength(2);
		expect([get.method, get.url]).toEqual(['GET', `${page}?exec=12&token=t0k`]);
		expect(get.headers['user-agent']).toBe(PERSON_USER_AGENT);
		expect(get.headers['user-agent']).toMatch(/^Mozilla\/5\.0 .*Chrome\/120/);
		expect([post.method, post.url]).toEqual(['POST', `${page}?exec=12&token=t0k`]);
		expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(post.text).toBe('answer=approve&note=a+%26+b&confirm=1');
		expect(Object.fromEntries(new URLSearchParams(post.text))).toEqual({ answer: 'approve', note: 'a & b', confirm: '1' });
		expect(post.headers.cookie).toBe('seen=1');
		expect(post.headers.referer).toBe(pageUrl);
		expect(post.headers['user-agent']).toBe(PERSON_USER_AGENT);
	});

	it('as a bot (control API): one GET and one HEAD with a preview User-Agent, no form submitted', async () => {
		const page = fresh('preview');
		rx.on(page, () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: formPage() }));
		const sid = await smsWithLinks(true, page);
		const res = await control<OpenLinkResult>('/open-link', { to: CUSTOMER, as: 'bot' });
		expect(res.status).toBe(200);
		const pageUrl = `${rx.url(page)}?exec=12&token=t0k`;
		expect(res.body).toEqual({
			ok: true,
			sid,
			as: 'bot',
			link: { shortUrl: sandbox.messages()[0].shortLinks![0].shortUrl, longUrl: pageUrl },
			pages: [
				{ method: 'GET', url: pageUrl, status: 200, contentType: 'text/html', bodyExcerpt: formPage().slice(0, 500) },
				{ method: 'HEAD', url: pageUrl, status: 200, contentType: 'text/html', bodyExcerpt: '' },
			],
		});
		expect(rx.at(page).map((r) => r.method)).toEqual(['GET', 'HEAD']);
		for (const r of rx.at(page)) expect(r.headers['user-agent']).toBe(BOT_USER_AGENT);
		expect(BOT_USER_AGENT).toMatch(/^WhatsApp\/2\.23/);
	});

	it('picks a link by index or by text of its long URL, without shortening too (shortUrl null)', async () => {
		const page = fresh('pick');
		const sid = await smsWithLinks(false, page);
		const second = await control<OpenLinkResult>('/open-link', { sid, link: 1, as: 'bot' });
		expect(second.body.link).toEqual({ shortUrl: null, longUrl: `${rx.url(`${page}-reject`)}?exec=12` });
		const matched = await sandbox.openLink({ to: CUSTOMER, match: '-reject', as: 'bot' });
		expect(matched.link.longUrl).toBe(`${rx.url(`${page}-reject`)}?exec=12`);
		expect(rx.at(`${page}-reject`).map((r) => r.method)).toEqual(['GET', 'HEAD', 'GET', 'HEAD']);
	});

	it('follows up to 3 loopback redirects, resolves an action against the page, and never leaves loopback', async () => {
		const page = fresh('redirect');
		rx.on(page, () => ({ status: 302, headers: { location: `${page}-hop1` } }));
		rx.on(`${page}-hop1`, () => ({ status: 301, headers: { location: `${rx.url(`${page}-form`)}?step=2` } }));
		rx.on(`${page}-form`, () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: formPage('submit') }));
		rx.on(`${page}-reject`, () => ({ status: 302, headers: { location: 'https://example.com/elsewhere' } }));
		const sid = await smsWithLinks(true, page);
		const result = await sandbox.openLink({ sid });
		const [short] = sandbox.messages()[0].shortLinks!;
		expect(result.pages.map((p) => [p.method, p.url.replace(rx.origin, ''), p.status])).toEqual([
			['GET', short.shortUrl, 302], // the short link: the first of the 3 redirects
			['GET', `${page}?exec=12&token=t0k`, 302],
			['GET', `${page}-hop1`, 301],
			['GET', `${page}-form?step=2`, 200],
			['POST', `/redirect/submit`, 200],
		]);
		expect(result.pages[0].location).toBe(short.longUrl);
		expect(result.pages[1].location).toBe(`${page}-hop1`);
		expect(result.stopped).toBeUndefined();
		expect(rx.at('/redirect/submit')[0].text).toBe('answer=approve&note=a+%26+b&confirm=1');

		const away = await control<OpenLinkResult>('/open-link', { sid, link: 1 });
		expect(away.body.pages.map((p) => p.status)).toEqual([302, 302]); // the short link, then the page
		expect(away.body.stopped).toBe('redirect to a non-loopback URL not followed: https://example.com/elsewhere');

		const loop = fresh('loop');
		rx.on(loop, (r) => ({ status: 302, headers: { location: `${loop}?n=${Number(new URL(r.url, 'http://x').searchParams.get('n') ?? 0) + 1}` } }));
		await sendSms([['From', 'EXOTEL'], ['To', '+919812345690'], ['Body', `Go ${rx.url(loop)}`]]);
		const looped = await sandbox.openLink({ to: '+919812345690' });
		expect(looped.pages).toHaveLength(4); // the first request and 3 redirects
		expect(looped.stopped).toMatch(/^more than 3 redirects/);
	});

	it('does not submit a GET form nor a non-HTML page', async () => {
		const page = fresh('get-form');
		rx.on(page, () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<form method="get" action=""><input type="hidden" name="a" value="1"></form>' }));
		rx.on(`${page}-reject`, () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: '<form method="post"></form>' }));
		const sid = await smsWithLinks(false, page);
		expect((await sandbox.openLink({ sid })).pages.map((p) => p.method)).toEqual(['GET']);
		expect((await sandbox.openLink({ sid, link: 1 })).pages.map((p) => p.method)).toEqual(['GET']);
		expect(rx.at(page).map((r) => r.method)).toEqual(['GET']);
	});

	it('gives each request the callbacks’ acknowledgement timeout (callbackTimeoutMs), then stops', async () => {
		const quick = new ExotelSandbox({ timeScale: SCALE, callbackTimeoutMs: 50 });
		const at = await quick.start();
		try {
			const page = fresh('hang');
			rx.on(page, () => ({ status: 0 }));
			const sent = await api<Array<{ SMSMessage: V1Sms }>>('POST', SEND, undefined, [['From', 'EXOTEL'], ['To', CUSTOMER], ['Body', `Open ${rx.url(page)}`]], at);
			const sid = sent.body[0].SMSMessage.Sid;
			const person = await quick.openLink({ sid });
			expect(person.pages).toEqual([
				{ method: 'GET', url: rx.url(page), status: 0, contentType: null, bodyExcerpt: '', error: 'timeout after 50 ms' },
			]);
			expect(person.stopped).toBe(`no answer from ${rx.url(page)}: timeout after 50 ms`);
			const bot = await control<OpenLinkResult>('/open-link', { sid, as: 'bot' }, at);
			expect(bot.body.pages.map((p) => [p.method, p.status, p.error])).toEqual([
				['GET', 0, 'timeout after 50 ms'],
				['HEAD', 0, 'timeout after 50 ms'],
			]);
			await quick.waitForCallbacks(() => quick.pendingCallbacks === 0, budget(5000)); // the destroyed requests close
		} finally {
			await quick.stop();
		}
	});

	it('refuses (400 / rejects) what it cannot open, sending nothing', async () => {
		const sid = await smsWithLinks(false, fresh('refuse'));
		const away = (await sendSms([['From', 'EXOTEL'], ['To', '+919812345691'], ['Body', 'Visit https://example.com/approve']]))[0].Sid;
		const plain = (await sendSms([['From', 'EXOTEL'], ['To', '+919812345692'], ['Body', 'No link here']]))[0].Sid;
		const chat = await sendChat(buttons, {}, '+919812345693'); // no callback URL: nothing arrives meanwhile
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{}, /^sid or to is required/],
			[{ sid: 'nope' }, /^no SMS has sid 'nope'$/],
			[{ sid: chat }, /it is a chat-app or RCS message: see reply/],
			[{ to: '+919800000002' }, /^no SMS was sent to \+919800000002: the sandbox has no record of one since .+ UTC \(when it was reset, .*\); in that time it sent SMS messages to \+9198/],
			[{ to: '+919812345693' }, /^no SMS was sent to \+919812345693: .*; a chat-app or RCS message was sent to it \([0-9a-f]{32}\): answer it with reply$/],
			[{ sid, as: 'robot' }, /^as must be 'person' or 'bot'$/],
			[{ sid, link: 0, match: 'x' }, /^give link or match, not both$/],
			[{ sid, link: 2 }, /^link 2 is out of range: SMS [0-9a-f]{32} has 2 link\(s\) \(0: http/],
			[{ sid, link: -1 }, /^link must be a non-negative integer/],
			[{ sid, match: 'nowhere' }, /^no link of SMS [0-9a-f]{32} contains 'nowhere'/],
			[{ sid: plain }, /has no http\(s\) link in its body$/],
			[{ sid: away }, /^the link https:\/\/example\.com\/approve is not a loopback URL/],
		];
		const before = rx.received.length;
		for (const [input, error] of cases) {
			await expect(sandbox.openLink(input)).rejects.toThrow(error);
			const res = await control('/open-link', input);
			expect([res.status, res.body]).toEqual([400, { ok: false, error: expect.stringMatching(error) }]);
		}
		expect(rx.received.length).toBe(before);
	});
});

// ---------------------------------------------------------------- end a call

describe('endCall', () => {
	const base: Array<[string, string]> = [
		['From', '+919876543210'],
		['CallerId', '+918047112233'],
		['Url', FLOW],
	];
	const connect = async (form: Array<[string, string]>, at: string) => {
		const res = await api<{ Call: V1Call }>('POST', CONNECT, undefined, form, at);
		expect(res.status).toBe(200);
		return res.body.Call.Sid as string;
	};
	const pairsOf = (r: Received) => [...new URLSearchParams(r.text)];
	/** Resolves once nothing is scheduled or in flight; a report left scheduled (35 s away) would time this out. */
	const idle = (sb: ExotelSandbox) => sb.waitForCallbacks(() => sb.pendingCallbacks === 0, budget(5000));

	it('posts the terminal callback at once, cancels the rest, and the call reads ended (JS method, timeScale 1)', async () => {
		const slow = new ExotelSandbox({ timeScale: 1 });
		const at = await slow.start();
		try {
			const path = fresh('end-now');
			const sid = await connect([...base, ['StatusCallback', rx.url(path)], ['StatusCallbackEvents[]', 'terminal'], ['CustomField', 'ticket-9']], at);
			expect(slow.pendingCallbacks).toBeGreaterThan(0); // the terminal report, 35 s away
			const attempt = await slow.endCall({ callSid: sid });
			expect(attempt).toMatchObject({ kind: 'call-status', url: rx.url(path), outcome: 'delivered', status: 200, signed: false, messageSid: sid });
			await idle(slow); // nothing else is scheduled
			const got = rx.at(path);
			expect(got).toHaveLength(1);
			expect(got[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
			expect(got[0].text).toBe(attempt!.body);
			expect(pairsOf(got[0]).map(([k]) => k)).toEqual([
				'CallSid', 'DateUpdated', 'Status', 'RecordingUrl', 'EventType', 'DateCreated', 'To', 'From', 'PhoneNumberSid', 'StartTime', 'EndTime',
				'ConversationDuration', 'Direction', 'CustomField', 'Legs[0][OnCallDuration]', 'Legs[0][Status]', 'Legs[0][AnsweredBy]',
			]);
			const view = (await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${sid}.json`, undefined, undefined, at)).body.Call;
			expect(view).toMatchObject({ Status: 'completed', EndTime: expect.stringMatching(V1_DATE) });
			const duration = Number(view.Duration); // simulated seconds from the connect to endCall: 0 or 1 on a quiet machine
			expect(duration).toBeLessThan(35);
			// answered at 5 s: ended before that, the call never had a conversation
			const conversation = String(Math.max(0, duration - 5));
			const fields = Object.fromEntries(pairsOf(got[0]));
			expect(fields).toMatchObject({
				CallSid: sid,
				Status: 'completed',
				EventType: 'terminal',
				To: '',
				From: '+919876543210',
				EndTime: view.EndTime,
				ConversationDuration: conversation,
				Direction: 'outbound-api',
				CustomField: 'ticket-9',
				'Legs[0][OnCallDuration]': conversation,
				'Legs[0][Status]': 'completed',
				'Legs[0][AnsweredBy]': 'NA',
			});
			expect(fields.RecordingUrl).toContain(`/__recordings/${sid}.mp3`);

			await expect(slow.endCall({ callSid: sid })).rejects.toThrow(`call ${sid} has already ended (completed)`);
			const again = await control('/end-call', { callSid: sid }, at);
			expect(again).toEqual({ status: 400, body: { ok: false, error: `call ${sid} has already ended (completed)` } });
		} finally {
			await slow.stop();
		}
	});

	it('ends an answered call through the control API after its answered event, counting the duration to now', async () => {
		const scaled = new ExotelSandbox({ timeScale: 0.2 }); // answered at 1 s, terminal at 7 s
		const at = await scaled.start();
		try {
			const path = fresh('end-answered');
			const sid = await connect(
				[...base, ['StatusCallback', rx.url(path)], ['StatusCallbackEvents[]', 'answered'], ['StatusCallbackEvents[]', 'terminal']],
				at,
			);
			await scaled.waitForCallbacks((log) => log.some((a) => a.messageSid === sid && a.body.includes('EventType=answered')));
			const res = await control('/end-call', { callSid: sid, status: 'completed' }, at);
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ ok: true, callback: expect.objectContaining({ kind: 'call-status', outcome: 'delivered', messageSid: sid }) });
			await idle(scaled);
			const [answered, terminal] = rx.at(path).map((r) => Object.fromEntries(pairsOf(r)));
			expect(rx.at(path)).toHaveLength(2);
			expect(answered.EventType).toBe('answered');
			expect(terminal).toMatchObject({ EventType: 'terminal', Status: 'completed', 'Legs[0][Status]': 'completed' });
			const view = (await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${sid}.json?details=true`, undefined, undefined, at)).body.Call;
			const duration = Number(view.Duration);
			expect(duration).toBeGreaterThanOrEqual(5);
			expect(duration).toBeLessThan(35);
			expect(Number(terminal.ConversationDuration)).toBe(duration - 5);
			expect(view.Details!.ConversationDuration).toBe(duration - 5);
		} finally {
			await scaled.stop();
		}
	});

	it('ends as busy, failed or no-answer: no recording, no conversation', async () => {
		const slow = new ExotelSandbox({ timeScale: 1 });
		const at = await slow.start();
		try {
			for (const status of ['busy', 'failed', 'no-answer'] as const) {
				const path = fresh(`end-${status}`);
				const sid = await connect([...base, ['StatusCallback', rx.url(path)]], at);
				const attempt = status === 'busy' ? await slow.endCall({ callSid: sid, status }) : (await control('/end-call', { callSid: sid, status }, at)).body.callback;
				expect(attempt).toMatchObject({ kind: 'call-status', outcome: 'delivered' });
				const fields = Object.fromEntries(pairsOf(rx.at(path)[0]));
				expect(fields).toMatchObject({ Status: status, EventType: 'terminal', ConversationDuration: '0', 'Legs[0][Status]': status });
				expect(fields.RecordingUrl).toBeUndefined();
				const view = (await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${sid}.json`, undefined, undefined, at)).body.Call;
				expect(view).toMatchObject({ Status: status, Price: '0.00', RecordingUrl: null });
			}
			await idle(slow);
		} finally {
			await slow.stop();
		}
	});

	it('ends a call with nothing to post (no StatusCallback, or answered only): callback null', async () => {
		const slow = new ExotelSandbox({ timeScale: 1 });
		const at = await slow.start();
		try {
			const quiet = await connect(base, at);
			expect(await slow.endCall({ callSid: quiet })).toBeNull();
			const path = fresh('answered-only');
			const answeredOnly = await connect([...base, ['StatusCallback', rx.url(path)], ['StatusCallbackEvents[]', 'answered']], at);
			expect(await control('/end-call', { callSid: answeredOnly }, at)).toEqual({ status: 200, body: { ok: true, callback: null } });
			await idle(slow);
			expect(rx.at(path)).toEqual([]);
			expect((await api<{ Call: V1Call }>('GET', `/v1/Accounts/${SID}/Calls/${quiet}.json`, undefined, undefined, at)).body.Call.Status).toBe('completed');
		} finally {
			await slow.stop();
		}
	});

	it('refuses (400 / rejects) a bad input, an unknown call and an ended one', async () => {
		const seeded = (await api<{ Calls: V1Call[] }>('GET', `/v1/Accounts/${SID}/Calls.json?PageSize=1`)).body.Calls[0];
		const cases: Array<[Record<string, unknown>, string | RegExp]> = [
			[{}, 'callSid is required'],
			[{ callSid: 'nope' }, "no call has sid 'nope'"],
			[{ callSid: seeded.Sid, status: 'hung-up' }, 'status must be one of: completed, failed, busy, no-answer'],
			[{ callSid: seeded.Sid }, `call ${seeded.Sid} has already ended (${seeded.Status})`],
		];
		for (const [input, error] of cases) {
			await expect(sandbox.endCall(input)).rejects.toThrow(error);
			const res = await control('/end-call', input);
			expect(res.status).toBe(400);
			expect(res.body.ok).toBe(false);
			expect(res.body.error).toEqual(typeof error === 'string' ? error : expect.stringMatching(error));
		}
	});
});

// ---------------------------------------------------------------- delivery reports on demand

describe('delivery reports on demand for a given sid', () => {
	it('posts an SMS report to the StatusCallback of a message sent with Sms/bulksend', async () => {
		const path = fresh('bulk-report');
		const [sent] = await sendSms(
			[
				['From', 'EXOTEL'],
				['Messages[0][To]', CUSTOMER],
				['Messages[0][Body]', 'Approve? http://127.0.0.1:9/a'],
				['StatusCallback', rx.url(path)],
				['CustomField', 'wait-1'],
			],
			BULK,
		);
		await sandbox.waitForCallbacks((log) => log.some((a) => a.kind === 'sms-status' && a.messageSid === sent.Sid));
		const js = await sandbox.postSmsCallback({ sid: sent.Sid, status: 'failed' });
		const res = await control('/sms-callback', { sid: sent.Sid, status: 'failed_dnd' });
		expect(js).toMatchObject({ kind: 'sms-status', url: rx.url(path), outcome: 'delivered', messageSid: sent.Sid });
		expect(res.body.callback).toMatchObject({ kind: 'sms-status', url: rx.url(path), outcome: 'delivered', messageSid: sent.Sid });
		const reports = rx.at(path).map((r) => Object.fromEntries(new URLSearchParams(r.text)));
		expect(reports.map((f) => [f.SmsSid, f.To, f.Status, f.DetailedStatusCode, f.CustomField])).toEqual([
			[sent.Sid, CUSTOMER, 'sent', '20005', 'wait-1'],
			[sent.Sid, CUSTOMER, 'failed', '24105', 'wait-1'],
			[sent.Sid, CUSTOMER, 'failed_dnd', '23005', 'wait-1'],
		]);
	});

	it('posts a signed chat-app report with a given exo_status_code to the message’s status_callback', async () => {
		const path = fresh('chat-report');
		const sid = await sendChat(buttons, { status_callback: rx.url(path), custom_data: 'cd-9' });
		await sandbox.waitForCallbacks((log) => log.filter((a) => a.kind === 'chatapp-status' && a.messageSid === sid).length === 3);
		const js = await sandbox.postChatAppCallback({ sid, exo_status_code: 30004 });
		const res = await control('/chatapp-callback', { sid, exo_status_code: 30014 });
		expect(js).toMatchObject({ url: rx.url(path), signed: true, messageSid: sid });
		expect(res.body.callback).toMatchObject({ url: rx.url(path), signed: true, messageSid: sid });
		const got = rx.at(path).slice(3);
		for (const r of got) expect(r.headers['x-service-signature']).toBe(hmac(r.raw));
		expect(got.map((r) => JSON.parse(r.text).chatapp.messages[0])).toEqual([
			expect.objectContaining({ callback_type: 'dlr', sid, to: CUSTOMER, exo_status_code: 30004, exo_detailed_status: 'EX_SYSTEM_ERROR', custom_data: 'cd-9' }),
			expect.objectContaining({ callback_type: 'dlr', sid, to: CUSTOMER, exo_status_code: 30014, exo_detailed_status: 'RECIPIENT_BLOCKED', custom_data: 'cd-9' }),
		]);
	});
});
