/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local HTTP receivers and spies on the request functions (http, https, net, setTimeout); never shipped */
/**
 * The callback dispatcher (callbacks/): delivery reports after real sends through the sandbox's
 * own API, incoming messages and other callbacks on demand, signatures, retries, the loopback-only
 * rule, and cancellation by reset() and stop(). Every receiver is a local http server on 127.0.0.1.
 */
import { createHmac } from 'crypto';
// the default imports are the modules themselves, which callbacks/dispatcher.ts reads http.request from at call time
import httpModule, * as http from 'http';
import httpsModule from 'https';
import type { AddressInfo } from 'net';

import { CALLBACK_TIMING, CHATAPP_INCOMING_TYPES, isLoopbackUrl, RCS_INCOMING_TYPES } from './callbacks';
import { SANDBOX_ACCOUNT } from './fixtures';
import { Receiver, sandboxCall, sandboxControl } from './receiver';
import { ExotelSandbox } from './server';
import type { CallbackAttempt } from './server';
import { budget } from './timing';

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const SEND = `/v1/Accounts/${SID}/Sms/send`;
const BULK = `/v1/Accounts/${SID}/Sms/bulksend`;
const MESSAGES = `/v2/accounts/${SID}/messages`;
const WEBHOOK = `/v2/accounts/${SID}/chatapp/webhook`;
const HEX32 = /^[0-9a-f]{32}$/;
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const V1_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** Real ms per simulated ms for most tests: reports at 1, 2, 3 ms; retries at 30, 120, 600, 3600 ms. */
const SCALE = 0.001;

// ---------------------------------------------------------------- the answers and callbacks, as the tests read them

/** An entry of an SMS send's answer. */
interface SmsEntry {
	SMSMessage: { Sid: string };
}

/** The answer to an RCS send. */
interface RcsSent {
	response: { rcs: { messages: Array<{ data: { sid: string } }> } };
}

/** The answer to a chat-app send. */
interface ChatAppSent {
	response: { chatapp: { messages: Array<{ data: { sid: string } }> } };
}

/** An entry of a callback body: a delivery report or an incoming message. */
type CallbackEntry = Record<string, unknown> & { sid: string; to: string; exo_status_code: number | string; exo_detailed_status: string };

/** An RCS callback body: the RCS entry, and the SMS fallback's next to it. */
interface RcsCallback {
	rcs: { messages: CallbackEntry[] };
	sms?: { messages: CallbackEntry[] };
}

/** A chat-app status callback body. */
interface ChatAppCallback {
	chatapp: { messages: CallbackEntry[] };
}

/** A chat-app incoming message callback body. */
interface ChatAppIncoming {
	message: Record<string, unknown> & { to: string };
}

/** The control API's answer to an on-demand callback: the first attempt, or why it was refused. */
interface OnDemand {
	callback: CallbackAttempt;
	error?: string;
}

const hmac = (raw: Buffer) => `sha256=${createHmac('sha256', A.webhookSigningSecret).update(raw).digest('hex')}`;

// ---------------------------------------------------------------- sandbox calls

let sandbox: ExotelSandbox;
let origin: string;
const rx = new Receiver();
let pathSeq = 0;
/** A fresh receiver path per use, so tests never see each other's posts. */
const fresh = (name: string) => `/${name}/${++pathSeq}`;

const call = <B = unknown>(method: string, path: string, body?: unknown, form?: Array<[string, string]>, at = origin) =>
	sandboxCall<B>(at, method, path, body, form);

const control = <B = OnDemand>(path: string, body?: unknown, at = origin) => sandboxControl<B>(at, path, body);

async function until<T>(get: () => T[], n: number, timeoutMs = 3000): Promise<T[]> {
	const deadline = Date.now() + budget(timeoutMs);
	while (get().length < n) {
		if (Date.now() > deadline) throw new Error(`expected ${n} items, got ${get().length}`);
		await new Promise((r) => setTimeout(r, 5));
	}
	return get();
}

/**
 * Resolves once `sb` has nothing scheduled, queued or in flight (pendingCallbacks 0): every report
 * and retry it had scheduled, however far ahead, has been posted and answered by then (the receiver
 * records a post before it answers), so a count taken after it is final.
 */
const idle = (sb: ExotelSandbox = sandbox) => sb.waitForCallbacks(() => sb.pendingCallbacks === 0, budget(10_000));

function rcsMessage(to: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		from: 'exotel_sandbox_bot',
		to,
		content: { type: 'template', template: { name: 'order_update', variables: { TemplateParam1: 'A-1' } } },
		...extra,
	};
}

const fallback = { from: 'EXOSMS', content: { text: 'Your order A-1 ships today', sms_type: 'transactional' } };

const chatText = (to: string, extra: Record<string, unknown> = {}) => ({
	from: '+919000000001',
	to,
	content: { type: 'text', text: { body: 'Hello' } },
	...extra,
});

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

afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

// ---------------------------------------------------------------- SMS

describe('SMS StatusCallback', () => {
	it('posts one form-encoded report per accepted message, with the outcome chosen by the recipient', async () => {
		const path = fresh('sms');
		const res = await call<SmsEntry[]>('POST', SEND, undefined, [
			['From', 'EXOTEL'],
			['To[]', '+919812340001'],
			['To[]', '+919812340099'],
			['To[]', '+919812340098'],
			['To[]', '0123'],
			['Body', 'Hello there'],
			['StatusCallback', rx.url(path)],
			['CustomField', 'order-42'],
		]);
		expect(res.status).toBe(207);
		const sids = res.body.slice(0, 3).map((e) => e.SMSMessage.Sid);
		const got = await until(() => rx.at(path), 3);
		await idle();
		expect(rx.at(path)).toHaveLength(3); // the invalid destination gets no report
		expect(sandbox.callbacks({ url: rx.url(path) })).toHaveLength(3);
		const forms = got.map((r) => {
			expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
			expect(r.headers['x-service-signature']).toBeUndefined();
			return Object.fromEntries(new URLSearchParams(r.text));
		});
		const bySid = Object.fromEntries(forms.map((f) => [f.SmsSid, f]));
		expect(Object.keys(bySid).sort()).toEqual([...sids].sort());
		expect(bySid[sids[0]]).toEqual({
			SmsSid: sids[0],
			To: '+919812340001',
			Status: 'sent',
			SmsUnits: '1',
			DetailedStatus: 'DELIVERED_TO_HANDSET',
			DetailedStatusCode: '20005',
			DateSent: expect.stringMatching(V1_DATE),
			CustomField: 'order-42',
		});
		expect(bySid[sids[1]]).toMatchObject({ Status: 'failed_dnd', DetailedStatus: 'FAILED_DND', DetailedStatusCode: '23005' });
		expect(bySid[sids[2]]).toMatchObject({ Status: 'failed', DetailedStatus: 'FAILED_HANDSET_ERROR', DetailedStatusCode: '24105' });
		// Field order as listed by the service.
		expect([...new URLSearchParams(got[0].text).keys()]).toEqual([
			'SmsSid',
			'To',
			'Status',
			'SmsUnits',
			'DetailedStatus',
			'DetailedStatusCode',
			'DateSent',
			'CustomField',
		]);
		// The receiver answers before the sandbox logs: wait for the log too.
		await sandbox.waitForCallbacks((l) => l.length === 3);
		const log = sandbox.callbacks({ kind: 'sms-status' });
		expect(log).toHaveLength(3);
		expect(log.every((a) => a.outcome === 'delivered' && a.status === 200 && !a.signed && a.attempt === 1)).toBe(true);
		expect(log.map((a) => a.messageSid).sort()).toEqual([...sids].sort());
	});

	it('reports dynamic bulk entries, without CustomField when none was given, and counts units', async () => {
		const path = fresh('bulk');
		const long = 'x'.repeat(200);
		const res = await call('POST', BULK, undefined, [
			['From', 'EXOTEL'],
			['Messages[0][To]', '+919812340011'],
			['Messages[0][Body]', long],
			['Messages[1][To]', '+919812340012'],
			['Messages[1][Body]', ''],
			['Messages[2][To]', '+919812340013'],
			['Messages[2][Body]', 'Namaste 🙏'],
			['StatusCallback', rx.url(path)],
		]);
		expect(res.status).toBe(207);
		const got = await until(() => rx.at(path), 2);
		const forms = got.map((r) => Object.fromEntries(new URLSearchParams(r.text)));
		for (const f of forms) expect(f.CustomField).toBeUndefined();
		const byTo = Object.fromEntries(forms.map((f) => [f.To, f]));
		expect(byTo['+919812340011'].SmsUnits).toBe('2'); // 200 plain characters: 2 parts of 153
		expect(byTo['+919812340013'].SmsUnits).toBe('1');
		expect(byTo['+919812340012']).toBeUndefined();
	});

	it('schedules nothing for 10,000 SMS sent without a StatusCallback', async () => {
		for (let r = 0; r < 100; r++) {
			const form: Array<[string, string]> = [['From', 'EXOTEL']];
			for (let i = 0; i < 100; i++) {
				form.push([`Messages[${i}][To]`, `+9198${String(r * 100 + i).padStart(8, '0')}`]);
				form.push([`Messages[${i}][Body]`, 'Bulk']);
			}
			const res = await call('POST', BULK, undefined, form);
			expect(res.status).toBe(200);
		}
		expect(sandbox.messages()).toHaveLength(10_000);
		expect(sandbox.pendingCallbacks).toBe(0);
		await idle();
		expect(sandbox.callbacks()).toEqual([]);
	});
});

// ---------------------------------------------------------------- RCS

describe('RCS delivery reports', () => {
	it('posts 40001, 40002, 40003 in order to the message-level status_callback, echoing custom_data', async () => {
		const path = fresh('rcs');
		const res = await call<RcsSent>('POST', MESSAGES, {
			custom_data: 'request-data',
			status_callback: rx.url(fresh('never')),
			rcs: { messages: [rcsMessage('+919812340021', { status_callback: rx.url(path), custom_data: 'message-data' })] },
		});
		expect(res.status).toBe(202);
		const sid = res.body.response.rcs.messages[0].data.sid;
		const bodies = (await until(() => rx.json<RcsCallback>(path), 3)).map((b) => b);
		expect(bodies.map((b) => b.rcs.messages[0].exo_status_code)).toEqual([40001, 40002, 40003]);
		expect(bodies[0]).toEqual({
			rcs: {
				messages: [
					{
						callback_type: 'dlr',
						sid,
						to: '+919812340021',
						exo_status_code: 40001,
						exo_detailed_status: 'EX_MESSAGE_SENT',
						description: expect.any(String),
						timestamp: expect.stringMatching(ISO_OFFSET),
						custom_data: 'message-data',
					},
				],
			},
		});
		expect(bodies[1].rcs.messages[0].exo_detailed_status).toBe('EX_MESSAGE_DELIVERED');
		expect(bodies[2].rcs.messages[0].exo_detailed_status).toBe('EX_MESSAGE_SEEN');
		for (const r of rx.at(path)) {
			expect(r.headers['content-type']).toBe('application/json');
			expect(r.headers['x-service-signature']).toBeUndefined();
		}
		await sandbox.waitForCallbacks((l) => l.filter((a) => a.kind === 'rcs-dlr' && a.messageSid === sid).length === 3);
	});

	it('resolves status_callback as message, then channel, then request', async () => {
		const [message, channel, request] = [fresh('m'), fresh('c'), fresh('r')];
		await call('POST', MESSAGES, {
			status_callback: rx.url(request),
			rcs: {
				status_callback: rx.url(channel),
				messages: [rcsMessage('+919812340031', { status_callback: rx.url(message) }), rcsMessage('+919812340032')],
			},
		});
		await call('POST', MESSAGES, { status_callback: rx.url(request), rcs: { messages: [rcsMessage('+919812340033')] } });
		await until(() => rx.at(message), 3);
		await until(() => rx.at(channel), 3);
		await until(() => rx.at(request), 3);
		expect(rx.json<RcsCallback>(message)[0].rcs.messages[0].to).toBe('+919812340031');
		expect(rx.json<RcsCallback>(channel)[0].rcs.messages[0].to).toBe('+919812340032');
		expect(rx.json<RcsCallback>(request)[0].rcs.messages[0].to).toBe('+919812340033');
	});

	it('reports a not-RCS-capable recipient with the SMS fallback in the same body', async () => {
		const path = fresh('fallback');
		const res = await call<RcsSent>('POST', MESSAGES, {
			rcs: { messages: [rcsMessage('+919812340077', { fallback, status_callback: rx.url(path), custom_data: 'cd-1' })] },
		});
		const sid = res.body.response.rcs.messages[0].data.sid;
		const [body] = await until(() => rx.json<RcsCallback>(path), 1);
		await idle();
		expect(rx.at(path)).toHaveLength(1); // one body, nothing after it
		expect(body).toEqual({
			rcs: {
				messages: [
					{
						callback_type: 'dlr',
						sid,
						to: '+919812340077',
						exo_status_code: 40004,
						exo_detailed_status: 'EX_SYSTEM_ERROR',
						description: expect.stringContaining('fallback'),
						timestamp: expect.stringMatching(ISO_OFFSET),
						custom_data: 'cd-1',
					},
				],
			},
			sms: {
				messages: [
					{
						callback_type: 'dlr',
						sid: expect.stringMatching(HEX32),
						channel_sid: expect.stringMatching(HEX32),
						to: '+919812340077',
						exo_status_code: 20005,
						exo_detailed_status: 'DELIVERED_TO_HANDSET',
						description: expect.any(String),
						sms_units: 1,
						timestamp: expect.stringMatching(ISO_OFFSET),
						custom_data: 'cd-1',
					},
				],
			},
		});
		expect(body.sms!.messages[0].sid).not.toBe(sid);
	});

	it('reports a fallback that could not be triggered (…0076) and a failure without fallback (…0077)', async () => {
		const [failsPath, noFallbackPath] = [fresh('fb-fails'), fresh('no-fb')];
		await call('POST', MESSAGES, {
			rcs: {
				messages: [
					rcsMessage('+919812340076', { fallback, status_callback: rx.url(failsPath) }),
					rcsMessage('+919812340077', { status_callback: rx.url(noFallbackPath) }),
				],
			},
		});
		const [fails] = await until(() => rx.json<RcsCallback>(failsPath), 1);
		expect(fails.rcs.messages[0]).toMatchObject({ exo_status_code: 40004, exo_detailed_status: 'EX_SYSTEM_ERROR' });
		expect(fails.rcs.messages[0].custom_data).toBeUndefined();
		expect(fails.sms!.messages[0]).toMatchObject({
			channel_sid: null,
			sms_units: null,
			exo_status_code: 24010,
			exo_detailed_status: 'FAILED_SYSTEM_ERROR',
		});
		const [alone] = await until(() => rx.json<RcsCallback>(noFallbackPath), 1);
		expect(Object.keys(alone)).toEqual(['rcs']);
		expect(alone.rcs.messages[0].exo_status_code).toBe(40004);
		await idle();
		expect(rx.at(failsPath)).toHaveLength(1);
		expect(rx.at(noFallbackPath)).toHaveLength(1);
	});

	it('posts in order at once with timeScale 0, and nothing for messages without a status_callback', async () => {
		const fast = new ExotelSandbox({ timeScale: 0 });
		const at = await fast.start();
		try {
			const path = fresh('fast');
			await call('POST', MESSAGES, { rcs: { messages: [rcsMessage('+919812340041', { status_callback: rx.url(path) })] } }, undefined, at);
			await call('POST', MESSAGES, { rcs: { messages: [rcsMessage('+919812340042')] } }, undefined, at);
			const bodies = await until(() => rx.json<RcsCallback>(path), 3, 1000);
			expect(bodies.map((b) => b.rcs.messages[0].exo_status_code)).toEqual([40001, 40002, 40003]);
			await fast.waitForCallbacks((log) => log.length === 3);
			expect(fast.callbacks().every((a) => a.url === rx.url(path))).toBe(true);
		} finally {
			await fast.stop();
		}
	});

	it('spaces the reports 1 s, 2 s, 3 s after acceptance, times timeScale', async () => {
		const scaled = new ExotelSandbox({ timeScale: 0.02 }); // 20, 40, 60 ms
		const at = await scaled.start();
		try {
			const path = fresh('spaced');
			const sentAt = Date.now();
			await call('POST', MESSAGES, { rcs: { messages: [rcsMessage('+919812340051', { status_callback: rx.url(path) })] } }, undefined, at);
			const got = await until(() => rx.at(path), 3);
			const offsets = got.map((r) => r.at - sentAt);
			expect(offsets[0]).toBeGreaterThanOrEqual(18);
			expect(offsets[1]).toBeGreaterThanOrEqual(38);
			expect(offsets[2]).toBeGreaterThanOrEqual(58);
		} finally {
			await scaled.stop();
		}
	});
});

// ---------------------------------------------------------------- chat app

describe('chat-app status callbacks', () => {
	it('posts signed 30001, 30002, 30003 to the per-message status_callback', async () => {
		const path = fresh('chat');
		const res = await call<ChatAppSent>('POST', MESSAGES, chatText('+919812340061', { status_callback: rx.url(path), custom_data: 'c-7' }));
		expect(res.status).toBe(202);
		const sid = res.body.response.chatapp.messages[0].data.sid;
		const got = await until(() => rx.at(path), 3);
		for (const r of got) {
			expect(r.headers['content-type']).toBe('application/json');
			expect(r.headers['x-service-signature']).toBe(hmac(r.raw));
		}
		const bodies = got.map((r) => JSON.parse(r.text));
		expect(bodies.map((b) => b.chatapp.messages[0].exo_detailed_status)).toEqual([
			'EX_MESSAGE_SENT',
			'EX_MESSAGE_DELIVERED',
			'EX_MESSAGE_SEEN',
		]);
		expect(bodies[1]).toEqual({
			chatapp: {
				messages: [
					{
						callback_type: 'dlr',
						sid,
						to: '+919812340061',
						exo_status_code: 30002,
						exo_detailed_status: 'EX_MESSAGE_DELIVERED',
						description: expect.any(String),
						timestamp: expect.stringMatching(ISO_OFFSET),
						custom_data: 'c-7',
					},
				],
			},
		});
		const log = await sandbox.waitForCallbacks((l) => l.length === 3);
		expect(log.every((a) => a.kind === 'chatapp-status' && a.signed)).toBe(true);
	});

	it('falls back to the configured status_callback_url; a …0088 recipient gets 30001 then 30004', async () => {
		const path = fresh('configured');
		expect(
			(await call('PUT', WEBHOOK, { chatapp: { webhook: { incoming_message_url: rx.url(fresh('in')), status_callback_url: rx.url(path) } } }))
				.status,
		).toBe(200);
		await call('POST', MESSAGES, chatText('+919812340088'));
		const got = await until(() => rx.json<ChatAppCallback>(path), 2);
		expect(got.map((b) => [b.chatapp.messages[0].exo_status_code, b.chatapp.messages[0].exo_detailed_status])).toEqual([
			[30001, 'EX_MESSAGE_SENT'],
			[30004, 'EX_SYSTEM_ERROR'],
		]);
		await idle();
		expect(rx.at(path)).toHaveLength(2);
	});

	it('posts nothing without a per-message or configured URL', async () => {
		await call('POST', MESSAGES, chatText('+919812340062'));
		expect(sandbox.pendingCallbacks).toBe(0);
	});
});

// ---------------------------------------------------------------- incoming messages on demand

describe('chat-app incoming messages', () => {
	let inPath: string;

	beforeEach(async () => {
		inPath = fresh('incoming');
		await call('PUT', WEBHOOK, { chatapp: { webhook: { incoming_message_url: rx.url(inPath) } } });
	});

	it('answers 400 from the control API when no incoming_message_url is configured', async () => {
		await call('DELETE', WEBHOOK);
		const res = await control('/chatapp-incoming', { type: 'text' });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/incoming_message_url/);
		await expect(sandbox.postChatAppIncoming({ type: 'text' })).rejects.toThrow(/incoming_message_url/);
	});

	it('refuses an unknown type unless a complete payload is given', async () => {
		expect((await control('/chatapp-incoming', { type: 'reaction' })).status).toBe(400);
		const res = await control('/chatapp-incoming', { payload: { event: 'incoming_message', message: { type: 'reaction' } } });
		expect(res.status).toBe(200);
		const [got] = await until(() => rx.at(inPath), 1);
		expect(JSON.parse(got.text)).toEqual({ event: 'incoming_message', message: { type: 'reaction' } });
		expect(got.headers['x-service-signature']).toBe(hmac(got.raw));
	});

	it.each(CHATAPP_INCOMING_TYPES)('posts a signed %s message through the control API', async (type) => {
		const res = await control('/chatapp-incoming', { type, from: '+919812340071', name: 'Asha' });
		expect(res.status).toBe(200);
		expect(res.body.callback).toMatchObject({ kind: 'chatapp-incoming', outcome: 'delivered', status: 200, signed: true, attempt: 1 });
		const [got] = await until(() => rx.at(inPath), 1);
		expect(got.headers['x-service-signature']).toBe(hmac(got.raw));
		expect(got.text).toBe(res.body.callback.body);
		const body = JSON.parse(got.text);
		expect(body).toEqual({
			event: 'incoming_message',
			timestamp: expect.stringMatching(ISO_OFFSET),
			account_sid: SID,
			message: expect.objectContaining({
				id: expect.stringMatching(HEX32),
				from: '+919812340071',
				to: expect.stringMatching(/^\+\d+$/),
				timestamp: expect.stringMatching(ISO_OFFSET),
				type,
				[type]: expect.anything(),
			}),
			contact: { wa_id: '919812340071', profile: { name: 'Asha' } },
		});
		const object = body.message[type];
		switch (type) {
			case 'text':
				expect(object).toEqual({ body: expect.any(String) });
				break;
			case 'image':
			case 'video':
				expect(object).toEqual({ id: expect.any(String), mime_type: expect.stringMatching(`^${type}/`), sha256: expect.stringMatching(/^[0-9a-f]{64}$/), caption: expect.any(String) });
				break;
			case 'audio':
			case 'document':
			case 'sticker':
				expect(object).toMatchObject({ id: expect.any(String), mime_type: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
				break;
			case 'location':
				expect(object).toEqual({ latitude: expect.any(Number), longitude: expect.any(Number), name: expect.any(String), address: expect.any(String) });
				break;
			case 'contacts':
				expect(object[0]).toMatchObject({ name: { formatted_name: expect.any(String) }, phones: [{ phone: expect.any(String) }] });
				break;
			case 'button':
				expect(object).toEqual({ text: expect.any(String), payload: expect.any(String) });
				break;
			case 'list_reply':
				expect(object).toEqual({ id: expect.any(String), title: expect.any(String), description: expect.any(String) });
				break;
			case 'order':
				expect(object).toMatchObject({ catalog_id: expect.any(String), product_items: [expect.objectContaining({ quantity: 2 })] });
				break;
		}
		if (type === 'button' || type === 'list_reply') expect(body.message.context).toEqual({ from: body.message.to, id: expect.any(String) });
		else expect(body.message.context).toBeUndefined();
	});

	it('merges given type fields over the defaults and replies in the context of the sent message', async () => {
		const sent = await call<ChatAppSent>('POST', MESSAGES, chatText('+919812340072', { from: '+919000000009' }));
		const sid = sent.body.response.chatapp.messages[0].data.sid;
		await sandbox.postChatAppIncoming({ type: 'button', from: '+919812340072', button: { payload: 'NO' } });
		await sandbox.postChatAppIncoming({ type: 'text', from: '+919812340072', text: 'plain string body' });
		await sandbox.postChatAppIncoming({ type: 'image', image: { caption: 'mine' }, context: { id: 'orig-1' } });
		const [button, text, image] = await until(() => rx.json<ChatAppIncoming>(inPath), 3);
		expect(button.message).toMatchObject({
			to: '+919000000009',
			button: { text: 'Yes', payload: 'NO' },
			context: { from: '+919000000009', id: sid },
		});
		expect(text.message.text).toEqual({ body: 'plain string body' });
		expect(image.message.image).toMatchObject({ caption: 'mine', mime_type: 'image/jpeg' });
		expect(image.message.context).toEqual({ from: image.message.to, id: 'orig-1' });
	});

	it('sends a forged or a missing signature on request', async () => {
		const forged = await sandbox.postChatAppIncoming({ type: 'text', signature: 'sha256=bad' });
		const missing = await control('/chatapp-incoming', { type: 'text', signature: null });
		const wrongSecret = `sha256=${createHmac('sha256', 'other').update(forged.body).digest('hex')}`;
		await sandbox.postChatAppIncoming({ type: 'text', payload: '{"raw":true}', signature: wrongSecret });
		const got = await until(() => rx.at(inPath), 3);
		expect(got[0].headers['x-service-signature']).toBe('sha256=bad');
		expect(got[1].headers['x-service-signature']).toBeUndefined();
		expect(got[2].headers['x-service-signature']).toBe(wrongSecret);
		expect(got[2].text).toBe('{"raw":true}');
		expect(forged).toMatchObject({ signed: false, outcome: 'delivered' });
		expect(missing.body.callback.signed).toBe(false);
		expect(sandbox.callbacks({ kind: 'chatapp-incoming' }).map((a) => a.signed)).toEqual([false, false, false]);
	});
});

describe('other callbacks on demand', () => {
	it('posts a signed chat-app status body (default entry or an arbitrary payload)', async () => {
		const path = fresh('status');
		const res = await control('/chatapp-callback', { url: rx.url(path), sid: 'abc', exo_status_code: 30014, custom_data: 'x' });
		expect(res.status).toBe(200);
		await control('/chatapp-callback', { url: rx.url(path), payload: { chatapp: { messages: [{ anything: true }] } } });
		const got = await until(() => rx.at(path), 2);
		for (const r of got) expect(r.headers['x-service-signature']).toBe(hmac(r.raw));
		expect(JSON.parse(got[0].text)).toEqual({
			chatapp: {
				messages: [
					{
						callback_type: 'dlr',
						sid: 'abc',
						to: expect.any(String),
						exo_status_code: 30014,
						exo_detailed_status: 'RECIPIENT_BLOCKED',
						description: expect.any(String),
						timestamp: expect.stringMatching(ISO_OFFSET),
						custom_data: 'x',
					},
				],
			},
		});
		expect(JSON.parse(got[1].text)).toEqual({ chatapp: { messages: [{ anything: true }] } });
		expect((await control('/chatapp-callback', {})).status).toBe(400);
	});

	it.each(RCS_INCOMING_TYPES)('posts an RCS incoming %s message', async (type) => {
		const path = fresh('rcs-in');
		const res = await control('/rcs-incoming', { url: rx.url(path), type, from: '+919812340081' });
		expect(res.status).toBe(200);
		const [got] = await until(() => rx.at(path), 1);
		expect(got.headers['x-service-signature']).toBeUndefined();
		const body = JSON.parse(got.text);
		expect(body).toEqual({
			rcs: {
				messages: [
					{
						callback_type: 'incoming_message',
						sid: expect.stringMatching(HEX32),
						from: '+919812340081',
						to: expect.any(String),
						timestamp: expect.stringMatching(ISO_OFFSET),
						content: { type, [type]: expect.anything() },
					},
				],
			},
		});
		const content = body.rcs.messages[0].content;
		if (type === 'text') expect(typeof content.text).toBe('string');
		if (type === 'file') expect(content.file).toMatchObject({ url: expect.any(String), name: expect.any(String), type: expect.any(String), size: expect.any(Number) });
		if (type === 'location') expect(content.location).toEqual({ latitude: expect.any(Number), longitude: expect.any(Number) });
		if (type === 'suggested') expect(Object.keys(content.suggested.response)).toEqual(['reply']);
	});

	it('routes an RCS reply to the status_callback of the message sent to that user', async () => {
		const path = fresh('rcs-reply');
		await call('POST', MESSAGES, { rcs: { messages: [rcsMessage('+919812340082', { status_callback: rx.url(path) })] } });
		await until(() => rx.at(path), 3);
		const res = await sandbox.postRcsIncoming({ from: '+919812340082', text: 'STOP' });
		expect(res.outcome).toBe('delivered');
		const last = rx.json<RcsCallback>(path)[3];
		expect(last.rcs.messages[0]).toMatchObject({ from: '+919812340082', to: 'exotel_sandbox_bot', content: { type: 'text', text: 'STOP' } });
		await expect(sandbox.postRcsIncoming({ from: '+910000000000' })).rejects.toThrow(/url is required/);
	});

	it('posts an SMS status callback as a form (by default, from a stored message) or as JSON', async () => {
		const path = fresh('sms-cb');
		const sent = await call<SmsEntry[]>('POST', SEND, undefined, [
			['From', 'EXOTEL'],
			['To', '+919812340091'],
			['Body', 'Hi'],
			['StatusCallback', rx.url(path)],
			['CustomField', 'cf'],
		]);
		const sid = sent.body[0].SMSMessage.Sid;
		await until(() => rx.at(path), 1);
		await control('/sms-callback', { sid, status: 'failed_dnd' });
		await control('/sms-callback', { url: rx.url(path), format: 'json', fields: { Status: 'sent', DateSent: null, Extra: 1 } });
		const got = await until(() => rx.at(path), 3);
		expect(got[1].headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(Object.fromEntries(new URLSearchParams(got[1].text))).toMatchObject({
			SmsSid: sid,
			To: '+919812340091',
			Status: 'failed_dnd',
			DetailedStatusCode: '23005',
			CustomField: 'cf',
		});
		expect(got[2].headers['content-type']).toBe('application/json');
		const json = JSON.parse(got[2].text);
		expect(json).toMatchObject({ Status: 'sent', Extra: '1', SmsSid: expect.stringMatching(HEX32) });
		expect(json.DateSent).toBeUndefined();
		expect((await control('/sms-callback', { url: rx.url(path), status: 'lost' })).status).toBe(400);
	});

	it('posts a click-tracking callback (JSON by default, form on request)', async () => {
		const path = fresh('click');
		const sent = await call<SmsEntry[]>('POST', SEND, undefined, [
			['From', 'EXOTEL'],
			['To', '+919812340092'],
			['Body', 'Sale: https://shop.test/sale'],
			['ShortenUrl', 'true'],
			['ShortenUrlParams[Tracking]', 'true'],
			['ShortenUrlParams[ClickTrackingCallbackUrl]', rx.url(path)],
			['CustomField', 'camp-1'],
		]);
		const sid = sent.body[0].SMSMessage.Sid;
		const res = await control('/click-callback', { sid });
		expect(res.body.callback).toMatchObject({ kind: 'click', outcome: 'delivered', signed: false });
		await sandbox.postClickCallback({ url: rx.url(path), format: 'form' });
		const got = await until(() => rx.at(path), 2);
		expect(JSON.parse(got[0].text)).toMatchObject({
			sms_sid: sid,
			to: '+919812340092',
			long_url: 'https://shop.test/sale',
			short_url: expect.stringMatching(/^https:\/\/exo\.tl\//),
			custom_field: 'camp-1',
			total_clicks: 1,
			account_sid: SID,
		});
		expect(got[1].headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(new URLSearchParams(got[1].text).get('total_clicks')).toBe('1');
	});

	it('posts any payload with kind custom', async () => {
		const path = fresh('custom');
		const res = await control('/callback', { url: rx.url(path), payload: 'a=1', contentType: 'text/plain', sign: true });
		expect(res.body.callback).toMatchObject({ kind: 'custom', signed: true });
		const [got] = await until(() => rx.at(path), 1);
		expect(got.text).toBe('a=1');
		expect(got.headers['x-service-signature']).toBe(hmac(got.raw));
		expect((await control('/callback', { url: rx.url(path) })).status).toBe(400);
	});
});

// ---------------------------------------------------------------- retries

describe('acknowledgement and retries', () => {
	it('retries a 500 after 30 s, then 2 min (× timeScale), and stops at the first 200', async () => {
		const path = fresh('retry');
		let n = 0;
		rx.on(path, (r) => (r.text.includes('"exo_status_code":30001') && ++n <= 2 ? 500 : 200));
		await call('POST', MESSAGES, chatText('+919812340101', { status_callback: rx.url(path) }));
		// 3 reports; the first (30001) is answered 500, 500, then 200.
		const log = await sandbox.waitForCallbacks((l) => l.filter((a) => a.outcome === 'delivered').length === 3);
		const first = log.filter((a) => a.id === 1);
		expect(first.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
			[1, 500, 'retry-scheduled'],
			[2, 500, 'retry-scheduled'],
			[3, 200, 'delivered'],
		]);
		expect(first[0].nextAttemptInMs).toBe(30_000 * SCALE);
		expect(first[1].nextAttemptInMs).toBe(120_000 * SCALE);
		expect(first[1].time - first[0].time).toBeGreaterThanOrEqual(30_000 * SCALE - 1);
		expect(first[2].time - first[1].time).toBeGreaterThanOrEqual(120_000 * SCALE - 1);
		// Scaled: nowhere near the spec's real 120 s.
		expect(first[2].time - first[1].time).toBeLessThan(120_000 / 4);
		expect(first.every((a) => a.body === first[0].body && a.signed)).toBe(true);
		// The receiver saw the same bytes, signed, with the attempt number.
		const seen = rx.at(path).filter((r) => r.text === first[0].body);
		expect(seen.map((r) => r.headers['x-sandbox-callback-attempt'])).toEqual(['1', '2', '3']);
		for (const r of seen) expect(r.headers['x-service-signature']).toBe(hmac(r.raw));
		expect(sandbox.failingWebhooks()).toEqual([]);
	});

	it('marks the webhook failing after 4 failed retries (5 attempts), timeouts and refusals included', async () => {
		// Retries at 3, 12, 60, 360 ms; a 50 ms timeout (the default floor is 500 ms).
		const quick = new ExotelSandbox({ timeScale: 0.0001, callbackTimeoutMs: 50 });
		await quick.start();
		try {
			const path = fresh('down');
			let n = 0;
			rx.on(path, () => (++n === 2 ? 'hang' : 503));
			const first = await quick.postChatAppIncoming({ type: 'text', url: rx.url(path) });
			expect(first).toMatchObject({ attempt: 1, status: 503, outcome: 'retry-scheduled', error: 'HTTP 503' });
			const log = await quick.waitForCallbacks((l) => l.some((a) => a.outcome === 'failed'));
			expect(log.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
				[1, 503, 'retry-scheduled'],
				[2, 0, 'retry-scheduled'],
				[3, 503, 'retry-scheduled'],
				[4, 503, 'retry-scheduled'],
				[5, 503, 'failed'],
			]);
			expect(log[1].error).toBe('timeout after 50 ms');
			expect(log.map((a) => a.nextAttemptInMs)).toEqual([3, 12, 60, 360, undefined].map((v) => (v === undefined ? v : expect.closeTo(v, 6))));
			expect(quick.failingWebhooks()).toEqual([
				{ url: rx.url(path), kind: 'chatapp-incoming', deliveryId: 1, markedAt: expect.any(Number), lastStatus: 503, lastError: 'HTTP 503' },
			]);
			const viaControl = await control('/failing-webhooks', undefined, quick.origin);
			expect(viaControl.body).toHaveLength(1);
			expect(quick.pendingCallbacks).toBe(0);

			// A refused connection counts as a failure too.
			const closed = http.createServer();
			await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
			const port = (closed.address() as AddressInfo).port;
			await new Promise<void>((r) => closed.close(() => r()));
			const refused = await quick.postCallback({ url: `http://127.0.0.1:${port}/x`, payload: {} });
			expect(refused).toMatchObject({ status: 0, outcome: 'retry-scheduled', error: 'ECONNREFUSED' });
		} finally {
			await quick.stop();
		}
		expect(quick.pendingCallbacks).toBe(0);
	});

	it('follows the spec schedule, and times out after the spec\'s 5 s whatever the timeScale (an answer takes real time)', async () => {
		expect(CALLBACK_TIMING.retryDelaysMs).toEqual([30_000, 120_000, 600_000, 3_600_000]);
		expect(CALLBACK_TIMING.ackTimeoutMs).toBe(5000);
		const path = fresh('slow-receiver');
		rx.on(path, () => 'hang');
		const first = await sandbox.postCallback({ url: rx.url(path), payload: {} });
		expect(first).toMatchObject({ status: 0, outcome: 'retry-scheduled', error: `timeout after ${CALLBACK_TIMING.ackTimeoutMs} ms` });
		expect(first.durationMs).toBeGreaterThanOrEqual(CALLBACK_TIMING.ackTimeoutMs - 1);
	});

	it('treats any status but 200 as not acknowledged (204, 302)', async () => {
		const path = fresh('not200');
		rx.on(path, (r) => (r.headers['x-sandbox-callback-attempt'] === '1' ? 204 : 302));
		const first = await sandbox.postCallback({ url: rx.url(path), payload: { a: 1 } });
		expect(first).toMatchObject({ status: 204, outcome: 'retry-scheduled' });
		const log = await sandbox.waitForCallbacks((l) => l.length >= 2);
		expect(log[1]).toMatchObject({ status: 302, outcome: 'retry-scheduled', attempt: 2 });
	});
});

// ---------------------------------------------------------------- loopback only

describe('loopback only', () => {
	it('knows which URLs are loopback', () => {
		for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'https://LOCALHOST:8443', 'http://[::1]:80/']) {
			expect(isLoopbackUrl(url)).toBe(true);
		}
		for (const url of [
			'https://example.com/webhook/exotel',
			'http://127.0.0.1.nip.io/',
			'http://localhost.example.com/',
			'http://127.0.0.1@example.com/',
			'http://10.0.0.1/',
			'http://192.168.1.10/',
			'http://127.0.0.2/',
			'ftp://127.0.0.1/',
			'not a url',
		]) {
			expect(isLoopbackUrl(url)).toBe(false);
		}
	});

	it('logs callbacks to other hosts as skipped-non-loopback and never opens a connection for them', async () => {
		const httpSpy = jest.spyOn(httpModule, 'request');
		const httpsSpy = jest.spyOn(httpsModule, 'request');
		await call('POST', SEND, undefined, [
			['From', 'EXOTEL'],
			['To', '+919812340111'],
			['Body', 'Hi'],
			['StatusCallback', 'https://example.com/webhook/exotel-messaging'],
		]);
		await call('POST', MESSAGES, {
			rcs: { messages: [rcsMessage('+919812340112', { status_callback: 'https://example.com/webhook/rcs' })] },
		});
		await call('POST', MESSAGES, chatText('+919812340113', { status_callback: 'http://192.168.1.10/hook' }));
		await call('PUT', WEBHOOK, { chatapp: { webhook: { incoming_message_url: 'https://n8n.example.com/webhook/in' } } });
		const incoming = await control('/chatapp-incoming', { type: 'text' });
		expect(incoming.body.callback).toMatchObject({ outcome: 'skipped-non-loopback', status: 0 });
		const log = await sandbox.waitForCallbacks((l) => l.length === 8);
		expect(log.every((a) => a.outcome === 'skipped-non-loopback' && a.status === 0 && a.attempt === 1)).toBe(true);
		expect(log.map((a) => a.kind).sort()).toEqual(
			['chatapp-incoming', 'chatapp-status', 'chatapp-status', 'chatapp-status', 'rcs-dlr', 'rcs-dlr', 'rcs-dlr', 'sms-status'].sort(),
		);
		// The log still holds what would have been sent (signed for chat app).
		expect(log.find((a) => a.kind === 'chatapp-incoming')?.signed).toBe(true);
		await idle();
		expect(sandbox.callbacks()).toHaveLength(8); // no retries
		expect(sandbox.failingWebhooks()).toEqual([]);
		// The spies do see the sandbox's requests: one loopback post goes through them.
		await sandbox.postCallback({ url: rx.url(fresh('spy')), payload: {} });
		const hosts = [...httpSpy.mock.calls, ...httpsSpy.mock.calls].map((c) => (c[0] as http.RequestOptions).host);
		expect(hosts).toEqual(['127.0.0.1']);
	});

	it('connects to localhost as 127.0.0.1', async () => {
		const path = fresh('localhost');
		const url = rx.url(path).replace('127.0.0.1', 'localhost');
		const res = await sandbox.postCallback({ url, payload: { hi: 1 } });
		expect(res).toMatchObject({ outcome: 'delivered', url });
		const [got] = await until(() => rx.at(path), 1);
		expect(got.headers.host).toBe(new URL(url).host);
	});
});

// ---------------------------------------------------------------- log, control API, cancellation

describe('the callback log and cancellation', () => {
	it('serves the log over the control API with filters, and clears it', async () => {
		const [a, b] = [fresh('log-a'), fresh('log-b')];
		await sandbox.postCallback({ url: rx.url(a), payload: {} });
		await sandbox.postChatAppCallback({ url: rx.url(b) });
		const all = await control<CallbackAttempt[]>('/callbacks');
		expect(all.body.map((c: CallbackAttempt) => c.id)).toEqual([1, 2]);
		expect(all.body[1]).toMatchObject({
			id: 2,
			url: rx.url(b),
			kind: 'chatapp-status',
			attempt: 1,
			status: 200,
			outcome: 'delivered',
			signed: true,
			body: expect.any(String),
			headers: expect.objectContaining({ 'x-service-signature': expect.any(String), 'content-type': 'application/json' }),
			time: expect.any(Number),
		});
		const filtered = await control(`/callbacks?kind=custom&url=${encodeURIComponent(rx.url(a))}`);
		expect(filtered.body).toHaveLength(1);
		const status = await control('/callbacks/status');
		expect(status.body).toEqual({ ok: true, callbacks: 2, pendingCallbacks: 0, failingWebhooks: 0 });
		await fetch(`${origin}/__sandbox/callbacks`, { method: 'DELETE' });
		expect(sandbox.callbacks()).toEqual([]);
	});

	it('rejects waitForCallbacks after its timeout', async () => {
		await expect(sandbox.waitForCallbacks((l) => l.length > 0, 30)).rejects.toThrow(/not satisfied within 30 ms/);
	});

	/**
	 * The dispatcher's timers (scheduled reports, retries, acknowledgement timeouts) on jest's clock,
	 * the http traffic real: nothing scheduled fires before the test looks, however busy the machine,
	 * and jest counts every timer still armed, however far ahead it would fire.
	 */
	const fakeDispatcherClock = () =>
		jest.useFakeTimers({
			doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'],
		});

	/** After cancellation: no timer is left armed (so no report or retry can ever fire) and nothing is in flight. */
	async function expectNothingMoreFrom(sb: ExotelSandbox): Promise<void> {
		expect(jest.getTimerCount()).toBe(0);
		jest.useRealTimers();
		await idle(sb); // anything posted by now is answered, and so recorded by the receiver
	}

	it('reset() cancels scheduled reports and retries and clears the log', async () => {
		const slow = new ExotelSandbox({ timeScale: 0.2 }); // reports at 200, 400, 600 ms; retry at 6 s (on jest's clock)
		const at = await slow.start();
		try {
			fakeDispatcherClock();
			const [reports, retry] = [fresh('cancel'), fresh('cancel-retry')];
			rx.on(retry, () => 500);
			const first = await slow.postCallback({ url: rx.url(retry), payload: {} });
			expect(first.outcome).toBe('retry-scheduled');
			await call('POST', MESSAGES, chatText('+919812340121', { status_callback: rx.url(reports) }), undefined, at);
			expect(slow.pendingCallbacks).toBe(2); // the retry and the first report
			expect(jest.getTimerCount()).toBe(2);
			slow.reset();
			expect(slow.pendingCallbacks).toBe(0);
			expect(slow.callbacks()).toEqual([]);
			await expectNothingMoreFrom(slow);
			expect(rx.at(reports)).toHaveLength(0);
			expect(rx.at(retry)).toHaveLength(1);
			expect(slow.callbacks()).toEqual([]);
		} finally {
			jest.useRealTimers();
			await slow.stop();
		}
	});

	it('stop() cancels scheduled reports and requests in flight', async () => {
		const slow = new ExotelSandbox({ timeScale: 0.2 }); // reports at 200 ms... (on jest's clock); ack timeout 5 s
		const at = await slow.start();
		try {
			fakeDispatcherClock();
			const [reports, hang] = [fresh('stop'), fresh('hang')];
			const arrived = new Promise<void>((resolve) =>
				rx.on(hang, () => {
					resolve();
					return 'hang';
				}),
			);
			const inFlight = slow.postCallback({ url: rx.url(hang), payload: {} });
			await arrived;
			await call('POST', MESSAGES, chatText('+919812340122', { status_callback: rx.url(reports) }), undefined, at);
			expect(slow.pendingCallbacks).toBe(3); // the request in flight, its timeout, the first report
			expect(jest.getTimerCount()).toBe(2); // the timeout and the first report
			await slow.stop();
			expect(slow.pendingCallbacks).toBe(0);
			expect(await inFlight).toMatchObject({ outcome: 'failed', error: 'cancelled' });
			await expectNothingMoreFrom(slow);
			expect(rx.at(reports)).toHaveLength(0);
			expect(rx.at(hang)).toHaveLength(1);
			expect(slow.callbacks()).toEqual([]);
		} finally {
			jest.useRealTimers();
			await slow.stop();
		}
	});
});
