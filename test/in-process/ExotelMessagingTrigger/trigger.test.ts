import { HookContext } from 'n8n-core';
import type { IDataObject, IHookFunctions, INode, INodeParameters, INodeType, IWebhookData, WorkflowActivateMode, WorkflowExecuteMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ExotelMessagingTrigger } from '../../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
// The service's side of the signature: the sandbox's own signer (sandbox/callbacks/dispatcher.ts), never
// the product's signPayload, so a wrong signing scheme in the product fails these tests.
import { signPayload } from '../../../sandbox/callbacks';
import { sandboxCredentialData } from '../../../sandbox/fixtures';
import type { ExotelSandbox } from '../../../sandbox/server';
import { CredentialStore, hookAdditionalData, packageNodeType, packageNodeTypes } from '../../helpers/n8n-core-harness';
import { SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { dump, GOOD, SECRETS, SIGNING_SECRET, VERIFY_TOKEN } from '../../helpers/secrets';
import { callWebhook } from '../../helpers/webhook-context';

const trigger = new ExotelMessagingTrigger();
const SECRET = SANDBOX_ACCOUNT.webhookSigningSecret;
const ALL_EVENTS = ['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus', 'unknown'];
/** Every item's keys, in order: the event, the message vocabulary (nodes/shared/output/vocabulary.ts), when and the custom data, what the event adds, the message as received under raw. */
const MESSAGE_KEYS = ['event', 'messageSid', 'status', 'channel', 'to', 'from', 'code', 'timestamp', 'customData'];
const keysOf = (...extras: string[]) => [...MESSAGE_KEYS, ...extras, 'raw'];

function post(body: unknown, options: { signature?: string | null; secret?: string; parameters?: IDataObject; contentType?: string } = {}) {
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	const secret = options.secret ?? SECRET;
	const signature = options.signature === undefined ? signPayload(raw, SECRET) : options.signature;
	return callWebhook(trigger, {
		rawBody: raw,
		contentType: options.contentType,
		headers: signature === null ? {} : { 'X-Service-Signature': signature },
		parameters: { events: ALL_EVENTS, statuses: [], ...options.parameters },
		credentials: { ...sandboxCredentialData('http://127.0.0.1:1').exotelApi, webhookSigningSecret: secret },
	});
}

const incoming = (type: string, typed: IDataObject, extra: IDataObject = {}) => ({
	event: 'incoming_message',
	timestamp: '2026-11-22T10:15:00+05:30',
	account_sid: SANDBOX_ACCOUNT.accountSid,
	message: { id: `wamid.${type}`, from: '+919876543210', to: '+918047112233', timestamp: '2026-11-22T10:14:59+05:30', type, [type]: typed, ...extra },
	contact: { wa_id: '919876543210', profile: { name: 'Asha Rao' } },
});

describe('the signer these tests use is the spec\'s rule (shared/spec/messaging.md: X-Service-Signature)', () => {
	it('sha256= and the hex HMAC-SHA256 of the raw bytes keyed with the signing secret (a fixed vector)', () => {
		// Computed once by hand, following the spec's words:
		// node -e 'const c=require("crypto"); console.log("sha256="+c.createHmac("sha256","whsec-spec-vector").update(Buffer.from("{\"event\":\"incoming_message\"}","utf8")).digest("hex"))'
		expect(signPayload('{"event":"incoming_message"}', 'whsec-spec-vector')).toBe('sha256=9b94225729597307c5c23a495f80106e54186fd64453d5712394d1f43d8d3054');
	});
});

describe('Exotel Messaging Trigger: chat-app incoming messages (signed)', () => {
	it.each([
		['text', { body: 'Where is my order?' }, {}, 'Where is my order?'],
		['image', { id: 'img-1', mime_type: 'image/jpeg', sha256: 'abc', caption: 'Broken box' }, {}, 'Broken box'],
		['video', { id: 'vid-1', mime_type: 'video/mp4', caption: 'Unboxing' }, {}, 'Unboxing'],
		['audio', { id: 'aud-1', mime_type: 'audio/ogg' }, {}, null],
		['document', { id: 'doc-1', mime_type: 'application/pdf', filename: 'invoice.pdf', caption: 'Invoice' }, {}, 'Invoice'],
		['location', { latitude: 12.97, longitude: 77.59, name: 'Home', address: 'MG Road' }, {}, null],
		['contacts', { }, { contacts: [{ name: { formatted_name: 'Ravi' }, phones: [{ phone: '+919812345678' }] }] }, null],
		['sticker', { id: 'stk-1', mime_type: 'image/webp' }, {}, null],
		['button', { text: 'Yes', payload: 'yes' }, { context: { from: '+918047112233', id: 'wamid.original' } }, 'Yes'],
		['list_reply', { id: 'slot-1', title: 'Monday 10am' }, {}, null],
		['order', { catalog_id: 'cat-1', product_items: [{ product_retailer_id: 'sku-1', quantity: 2 }] }, {}, null],
	])('%s: one item in the message vocabulary, the whole payload under raw', async (type, typed, extra, text) => {
		const body = incoming(type, typed, extra);
		const answer = await post(body);
		expect(answer.status).toBe(200);
		expect(answer.workflowData).toEqual([
			{
				event: 'chatAppIncoming',
				messageSid: `wamid.${type}`,
				status: 'received',
				channel: 'chatapp',
				to: '+918047112233',
				from: '+919876543210',
				code: null,
				timestamp: '2026-11-22T10:14:59+05:30',
				customData: null,
				messageType: type,
				text,
				// a tapped button: its payload, and the message it was under
				replyId: type === 'button' ? 'yes' : null,
				inReplyTo: type === 'button' ? 'wamid.original' : null,
				contactName: 'Asha Rao',
				accountSid: SANDBOX_ACCOUNT.accountSid,
				raw: body,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf('messageType', 'text', 'replyId', 'inReplyTo', 'contactName', 'accountSid'));
		expect(JSON.stringify(answer.workflowData)).not.toContain(SECRET);
	});

	it('a reply to a sent message (callback_type icm at the status callback): received, with the button tapped and who', async () => {
		const entry = {
			callback_type: 'icm',
			sid: 'reply-1',
			from: '+919876543210',
			to: '+918047112233',
			timestamp: '2026-11-22T10:16:00+05:30',
			custom_data: 'order-1042',
			type: 'button',
			button: { payload: 'approve', text: 'Approve refund' },
			context: { from: '+918047112233', id: 'sent-1' },
			contact: { wa_id: '919876543210', profile: { name: 'Asha Rao' } },
		};
		const answer = await post({ chatapp: { messages: [entry] } });
		expect(answer.workflowData).toEqual([
			{
				event: 'chatAppIncoming',
				messageSid: 'reply-1',
				status: 'received',
				channel: 'chatapp',
				to: '+918047112233',
				from: '+919876543210',
				code: null,
				timestamp: '2026-11-22T10:16:00+05:30',
				customData: 'order-1042',
				messageType: 'button',
				text: 'Approve refund',
				replyId: 'approve',
				inReplyTo: 'sent-1',
				contactName: 'Asha Rao',
				raw: entry,
			},
		]);
	});

	it('a forged signature gets 401 and starts nothing', async () => {
		const answer = await post(incoming('text', { body: 'hi' }), { signature: signPayload('something else', SECRET) });
		expect(answer.status).toBe(401);
		expect(answer.workflowData).toBeUndefined();
	});

	it('a missing or malformed signature gets 401 and starts nothing', async () => {
		for (const signature of [null, 'sha256=', 'md5=abc', 'sha256=zz']) {
			const answer = await post(incoming('text', { body: 'hi' }), { signature });
			expect([signature, answer.status, answer.workflowData]).toEqual([signature, 401, undefined]);
			// the answer says which: absent, or not matching
			expect((answer.body as { error: string }).error).toMatch(signature === null ? /header is missing/ : /does not match/);
		}
	});

	it('the signature covers the raw bytes: re-serialised JSON with the same data does not pass', async () => {
		const raw = JSON.stringify(incoming('text', { body: 'hi' }), null, 2);
		const answer = await post(raw, { signature: signPayload(JSON.stringify(JSON.parse(raw)), SECRET) });
		expect(answer.status).toBe(401);
	});

	it('without a signing secret, requests are accepted unverified', async () => {
		const answer = await post(incoming('text', { body: 'hi' }), { secret: '', signature: null });
		expect(answer.status).toBe(200);
		expect(answer.workflowData).toHaveLength(1);
	});
});

describe('Exotel Messaging Trigger: status callbacks and delivery reports', () => {
	const chatStatus = (code: number, status: string, sid = 'chat-1') => ({
		callback_type: 'dlr', sid, to: '+919876543210', exo_status_code: code, exo_detailed_status: status,
		description: status, timestamp: '2026-11-22T10:15:00+05:30', custom_data: 'ticket-7',
	});

	it('chat-app status callback: one item per message, statuses named', async () => {
		const body = { chatapp: { messages: [chatStatus(30001, 'EX_MESSAGE_SENT'), chatStatus(30002, 'EX_MESSAGE_DELIVERED', 'chat-2'), chatStatus(30012, 'INVALID_RECIPIENT', 'chat-3')] } };
		const answer = await post(body);
		expect(answer.workflowData?.map((item) => [item.event, item.messageSid, item.status, item.code, item.customData])).toEqual([
			['chatAppStatus', 'chat-1', 'sent', 30001, 'ticket-7'],
			['chatAppStatus', 'chat-2', 'delivered', 30002, 'ticket-7'],
			['chatAppStatus', 'chat-3', 'failed', 30012, 'ticket-7'],
		]);
		expect(answer.workflowData?.[1]).toEqual({
			event: 'chatAppStatus',
			messageSid: 'chat-2',
			status: 'delivered',
			channel: 'chatapp',
			to: '+919876543210',
			from: null,
			code: 30002,
			timestamp: '2026-11-22T10:15:00+05:30',
			customData: 'ticket-7',
			raw: body.chatapp.messages[1],
		});
		for (const item of answer.workflowData ?? []) expect(Object.keys(item)).toEqual(keysOf());
		expect(answer.workflowData?.map((item) => item.raw)).toEqual(body.chatapp.messages);
	});

	it('filters on statuses', async () => {
		const body = { chatapp: { messages: [chatStatus(30001, 'EX_MESSAGE_SENT'), chatStatus(30002, 'EX_MESSAGE_DELIVERED', 'chat-2')] } };
		const answer = await post(body, { parameters: { statuses: ['delivered'] } });
		expect(answer.workflowData?.map((item) => item.messageSid)).toEqual(['chat-2']);
		const none = await post(body, { parameters: { statuses: ['failed'] } });
		expect(none.status).toBe(200);
		expect(none.workflowData).toBeUndefined();
	});

	it('RCS delivery report with the SMS fallback: one item per channel entry, the channel named', async () => {
		const body = {
			rcs: { messages: [{ callback_type: 'dlr', sid: 'rcs-1', to: '+919876543210', exo_status_code: 40004, exo_detailed_status: 'EX_SYSTEM_ERROR', description: 'failed', timestamp: '2026-11-22T10:15:00+05:30', custom_data: 'order-9' }] },
			sms: { messages: [{ callback_type: 'dlr', sid: 'sms-1', channel_sid: 'ch-1', to: '+919876543210', exo_status_code: 20005, exo_detailed_status: 'DELIVERED_TO_HANDSET', description: 'ok', sms_units: 1, timestamp: '2026-11-22T10:15:05+05:30', custom_data: 'order-9' }] },
		};
		const answer = await post(body, { signature: null });
		expect(answer.status).toBe(200);
		expect(answer.workflowData?.map((item) => [item.event, item.channel, item.messageSid, item.status, item.fallback])).toEqual([
			['rcsDeliveryReport', 'rcs', 'rcs-1', 'failed', undefined],
			// the fallback SMS's code folded onto the same words; the service's name stays under raw
			['rcsDeliveryReport', 'sms', 'sms-1', 'delivered', true],
		]);
		expect(answer.workflowData).toEqual([
			{
				event: 'rcsDeliveryReport',
				messageSid: 'rcs-1',
				status: 'failed',
				channel: 'rcs',
				to: '+919876543210',
				from: null,
				code: 40004,
				timestamp: '2026-11-22T10:15:00+05:30',
				customData: 'order-9',
				raw: body.rcs.messages[0],
			},
			{
				event: 'rcsDeliveryReport',
				messageSid: 'sms-1',
				status: 'delivered',
				channel: 'sms',
				to: '+919876543210',
				from: null,
				code: 20005,
				timestamp: '2026-11-22T10:15:05+05:30',
				customData: 'order-9',
				fallback: true,
				raw: body.sms.messages[0],
			},
		]);
		expect(answer.workflowData?.map((item) => Object.keys(item))).toEqual([keysOf(), keysOf('fallback')]);
	});

	const fallbackEntry = (sid: string, code: number, name: string) => ({
		callback_type: 'dlr', sid, channel_sid: code >= 23000 ? null : `ch-${sid}`, to: '+919876543210', exo_status_code: code, exo_detailed_status: name,
		description: name, sms_units: code >= 23000 ? null : 1, timestamp: '2026-11-22T10:15:05+05:30', custom_data: 'order-9',
	});

	it('every SMS-fallback code is folded onto the same words as every other status (the code and the name kept)', async () => {
		const codes: Array<[number, string, string]> = [
			[20005, 'DELIVERED_TO_HANDSET', 'delivered'],
			[20006, 'DELIVERED_TO_OPERATOR', 'delivered'],
			[21010, 'PENDING_TO_OPERATOR', 'sent'],
			[21015, 'SENDING_TO_OPERATOR', 'sent'],
			[21020, 'PENDING_ON_OPERATOR', 'sent'],
			[23010, 'FAILED_INVALID_DESTINATION_NUMBER', 'failed'],
			[24010, 'FAILED_SYSTEM_ERROR', 'failed'],
		];
		const body = {
			rcs: { messages: [{ callback_type: 'dlr', sid: 'rcs-1', to: '+919876543210', exo_status_code: 40004, exo_detailed_status: 'EX_SYSTEM_ERROR', description: 'failed', timestamp: '2026-11-22T10:15:00+05:30' }] },
			sms: { messages: codes.map(([code, name], i) => fallbackEntry(`sms-${i}`, code, name)) },
		};
		const answer = await post(body, { signature: null });
		const fallbacks = (answer.workflowData ?? []).filter((item) => item.fallback === true);
		expect(fallbacks.map((item) => [item.status, item.code, (item.raw as IDataObject).exo_detailed_status])).toEqual(codes.map(([code, name, status]) => [status, code, name]));
		for (const item of fallbacks) expect(Object.keys(item)).toEqual(keysOf('fallback'));
		// A code the list does not place is read by its name, as an SMS status callback's words are.
		const named = await post({ rcs: { messages: [] }, sms: { messages: [fallbackEntry('sms-x', 29999, 'DELIVERED_TO_HANDSET')] } }, { signature: null });
		expect(named.workflowData?.map((item) => [item.status, item.code])).toEqual([['delivered', 29999]]);
	});

	it('the Statuses filter picks SMS-fallback entries by the same words as the RCS ones', async () => {
		const body = {
			rcs: { messages: [{ callback_type: 'dlr', sid: 'rcs-1', to: '+919876543210', exo_status_code: 40004, exo_detailed_status: 'EX_SYSTEM_ERROR', description: 'failed', timestamp: '2026-11-22T10:15:00+05:30' }] },
			sms: { messages: [fallbackEntry('sms-1', 20005, 'DELIVERED_TO_HANDSET')] },
		};
		const delivered = await post(body, { signature: null, parameters: { statuses: ['delivered'] } });
		expect(delivered.workflowData?.map((item) => [item.channel, item.messageSid, item.status])).toEqual([['sms', 'sms-1', 'delivered']]);
		const failed = await post({ ...body, sms: { messages: [fallbackEntry('sms-2', 24010, 'FAILED_SYSTEM_ERROR')] } }, { signature: null, parameters: { statuses: ['failed'] } });
		expect(failed.workflowData?.map((item) => [item.channel, item.messageSid, item.status])).toEqual([
			['rcs', 'rcs-1', 'failed'],
			['sms', 'sms-2', 'failed'],
		]);
	});

	it('an SMS status callback’s pending words are folded too (queued, sending, submitted are on their way: sent)', async () => {
		const statuses: string[] = [];
		for (const [status, code] of [['queued', '21010'], ['sending', ''], ['submitted', '']]) {
			const form = new URLSearchParams({ SmsSid: `sms-${status}`, To: '+919876543210', Status: status, ...(code ? { DetailedStatusCode: code } : {}) }).toString();
			const answer = await post(form, { contentType: 'application/x-www-form-urlencoded', signature: null });
			statuses.push(String(answer.workflowData?.[0].status));
			expect((answer.workflowData?.[0].raw as IDataObject).Status).toBe(status);
		}
		expect(statuses).toEqual(['sent', 'sent', 'sent']);
	});

	it.each([
		['text', { type: 'text', text: 'Yes please' }, 'Yes please', null],
		['file', { type: 'file', file: { url: 'https://files.example/a.jpg', name: 'a.jpg', type: 'image/jpeg', size: 2048 } }, null, null],
		['location', { type: 'location', location: { latitude: 12.9, longitude: 77.5 } }, null, null],
		['suggested', { type: 'suggested', suggested: { response: { reply: { text: 'Track', postback_data: 'track' } } } }, 'Track', 'track'],
		['error', { type: 'error', error: { code: 1, message: 'bad' } }, null, null],
	])('RCS incoming %s message (a suggestion: its words and postback data)', async (type, content, text, replyId) => {
		const entry = { callback_type: 'incoming_message', sid: `in-${type}`, from: '+919876543210', to: 'acme_orders_bot', timestamp: '2026-11-22T10:15:00+05:30', content };
		const answer = await post({ rcs: { messages: [entry] } }, { signature: null });
		expect(answer.workflowData).toEqual([
			{
				event: 'rcsIncoming',
				messageSid: `in-${type}`,
				status: 'received',
				channel: 'rcs',
				to: 'acme_orders_bot',
				from: '+919876543210',
				code: null,
				timestamp: '2026-11-22T10:15:00+05:30',
				customData: null,
				messageType: type,
				text,
				replyId,
				raw: entry,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf('messageType', 'text', 'replyId'));
	});

	it('SMS status callback, form-encoded, with the known fields easy to reach', async () => {
		const form = 'SmsSid=sms-9&To=%2B919876543210&Status=sent&SmsUnits=1&DetailedStatus=DELIVERED_TO_HANDSET&DetailedStatusCode=20005&DateSent=2026-11-22+10%3A15%3A00&CustomField=order-9';
		const answer = await post(form, { contentType: 'application/x-www-form-urlencoded', signature: null });
		expect(answer.workflowData).toEqual([
			{
				event: 'smsStatus',
				messageSid: 'sms-9',
				status: 'delivered',
				channel: 'sms',
				to: '+919876543210',
				from: null,
				code: 20005,
				timestamp: '2026-11-22 10:15:00',
				customData: 'order-9',
				raw: Object.fromEntries(new URLSearchParams(form)),
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf());
		expect(answer.workflowData?.[0].raw).toMatchObject({ SmsSid: 'sms-9', DetailedStatus: 'DELIVERED_TO_HANDSET', SmsUnits: '1' });
	});

	it('n8n answers a callback that starts the workflow once it holds the execution; a filtered or refused one is answered at once', async () => {
		const form = 'SmsSid=sms-9&To=%2B919876543210&Status=sent&DetailedStatus=DELIVERED_TO_HANDSET&DetailedStatusCode=20005';
		const started = await post(form, { contentType: 'application/x-www-form-urlencoded', signature: null });
		expect([started.answeredBy, started.status, started.body, started.workflowData?.length]).toEqual(['n8n', 200, { received: 1, accepted: 1 }, 1]);
		const filtered = await post(form, { contentType: 'application/x-www-form-urlencoded', signature: null, parameters: { statuses: ['failed'] } });
		expect([filtered.answeredBy, filtered.status, filtered.body, filtered.workflowData]).toEqual(['node', 200, { received: 1, accepted: 0 }, undefined]);
		const refused = await post(incoming('text', { body: 'hi' }), { signature: null });
		expect([refused.answeredBy, refused.status, refused.workflowData]).toEqual(['node', 401, undefined]);
	});

	it('an unsigned SMS or RCS report is taken without reading the credential; a chat-app payload reads it for the secret', async () => {
		const sms = await post('SmsSid=sms-9&Status=sent', { contentType: 'application/x-www-form-urlencoded', signature: null });
		const rcs = await post({ rcs: { messages: [{ callback_type: 'dlr', sid: 'r-1', exo_status_code: 40002 }] } }, { signature: null });
		expect([sms.credentialReads, sms.workflowData?.length, rcs.credentialReads, rcs.workflowData?.length]).toEqual([0, 1, 0, 1]);
		const chatApp = await post(incoming('text', { body: 'hi' }));
		expect([chatApp.credentialReads, chatApp.status]).toEqual([1, 200]);
		// one that carries a signature is checked whatever its family
		expect((await post('SmsSid=sms-9&Status=sent', { contentType: 'application/x-www-form-urlencoded', signature: 'sha256=00' })).credentialReads).toBe(1);
	});

	it('SMS status callback as JSON, failed', async () => {
		const body = { SmsSid: 'sms-8', To: '+919876543210', Status: 'failed_dnd', DetailedStatusCode: 24003 };
		const answer = await post(body, { signature: null });
		expect(answer.workflowData).toEqual([
			{
				event: 'smsStatus',
				messageSid: 'sms-8',
				status: 'failed',
				channel: 'sms',
				to: '+919876543210',
				from: null,
				code: 24003,
				timestamp: null,
				customData: null,
				raw: body,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf());
	});

	it('SMS click-tracking callback is passed through whole', async () => {
		const body = { SmsSid: 'sms-7', To: '+919876543210', Url: 'https://acme.example/o/1', ClickedAt: '2026-11-22 10:20:00' };
		const answer = await post(body, { signature: null });
		expect(answer.workflowData).toEqual([
			{
				event: 'smsClick',
				messageSid: 'sms-7',
				status: 'clicked',
				channel: 'sms',
				to: '+919876543210',
				from: null,
				code: null,
				timestamp: '2026-11-22 10:20:00',
				customData: null,
				raw: body,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf());
	});

	it('unrecognised JSON objects are passed through as "unknown" when selected, and ignored otherwise; with a secret only signed', async () => {
		const body = { something: 'new', nested: { a: 1 } };
		const answer = await post(body, { signature: null, secret: '' });
		expect(answer.workflowData).toEqual([
			{ event: 'unknown', messageSid: null, status: null, channel: 'unknown', to: null, from: null, code: null, timestamp: null, customData: null, raw: body },
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf());
		const ignored = await post(body, { signature: null, secret: '', parameters: { events: ['smsStatus'] } });
		expect([ignored.status, ignored.workflowData]).toEqual([200, undefined]);
		// With a signing secret, only SMS and RCS callbacks (which the service does not sign) may come unsigned.
		const unsigned = await post(body, { signature: null });
		expect([unsigned.status, unsigned.workflowData]).toEqual([401, undefined]);
		expect((await post(body)).workflowData).toEqual(answer.workflowData);
	});

	it('a body that is not an object gets 400 and starts nothing', async () => {
		for (const raw of ['"just a string"', '[1,2,3]']) {
			const answer = await post(raw, { signature: null });
			expect([raw, answer.status, answer.workflowData]).toEqual([raw, 400, undefined]);
		}
		const text = await post('hello', { contentType: 'text/plain', signature: null });
		expect([text.status, text.workflowData]).toEqual([400, undefined]);
	});

	it('any request that carries a signature must carry a valid one, whatever its family', async () => {
		const answer = await post({ SmsSid: 'sms-6', Status: 'sent' }, { signature: 'sha256=deadbeef' });
		expect(answer.status).toBe(401);
	});
});

describe('Exotel Messaging Trigger: verify-token handshake', () => {
	const handshake = (query: IDataObject, verifyToken = 'verify-SECRET-1') =>
		callWebhook(trigger, { method: 'GET', query, parameters: { verifyToken } });

	it('answers the challenge when the token matches (hub.* and plain forms)', async () => {
		expect(await handshake({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-SECRET-1', 'hub.challenge': '1158201444' })).toMatchObject({ status: 200, body: '1158201444' });
		expect(await handshake({ verify_token: 'verify-SECRET-1', challenge: 'abc' })).toMatchObject({ status: 200, body: 'abc' });
	});

	it('refuses a wrong or missing token, and any handshake when no token is configured', async () => {
		expect((await handshake({ 'hub.verify_token': 'nope', 'hub.challenge': '1' })).status).toBe(403);
		expect((await handshake({ 'hub.challenge': '1' })).status).toBe(403);
		expect((await handshake({ 'hub.verify_token': '', 'hub.challenge': '1' }, '')).status).toBe(403);
	});
});

describe('Exotel Messaging Trigger: registration on activation', () => {
	const sandbox = useSandbox();

	const PRODUCTION_URL = 'http://127.0.0.1:5678/webhook/abc/webhook';
	const TEST_URL = 'http://127.0.0.1:5678/webhook-test/abc/webhook';
	type Lifecycle = { mode: WorkflowExecuteMode; activation: WorkflowActivateMode };
	// What n8n 2.8.4 passes (cli webhooks/test-webhooks.js, active-workflow-manager.js).
	const ACTIVATE: Lifecycle = { mode: 'trigger', activation: 'activate' };
	const TEST_LISTEN: Lifecycle = { mode: 'manual', activation: 'manual' };
	const REMOVE: Lifecycle = { mode: 'internal', activation: 'update' };
	const N8N_URL = 'http://127.0.0.1:5678/';

	/**
	 * The hook context n8n builds to run the trigger's webhookMethods: a real n8n-core HookContext on a
	 * workflow holding the node, its credential read (and decrypted) through the harness's credentials
	 * helper, its requests through n8n-core's own httpRequestWithAuthentication, which applies the
	 * credential type's `authenticate` (credentials/ExotelApi.credentials.ts). `webhookUrl` is the URL
	 * n8n gives the node (a production or test URL, `<base>/<webhookId>/webhook`); `staticData` the
	 * node's static data, kept between contexts when the same object is given.
	 */
	function hooks(parameters: IDataObject, staticData: IDataObject, webhookUrl = PRODUCTION_URL, lifecycle: Lifecycle = ACTIVATE, credential: IDataObject = {}): IHookFunctions {
		const parts = /^http:\/\/127\.0\.0\.1:5678\/(webhook|webhook-test)\/([^/]+)\/webhook$/.exec(webhookUrl);
		if (!parts) throw new Error(`Not a webhook URL this test knows: ${webhookUrl}`);
		const [, base, webhookId] = parts;
		const store = new CredentialStore(sandboxCredentials(sandbox, { exotelApi: credential }));
		const node: INode = {
			id: 'messaging-trigger',
			name: 'Exotel Messaging Trigger',
			type: packageNodeType('exotelMessagingTrigger'),
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			parameters: parameters as INodeParameters,
			credentials: store.nodeCredentials('exotelApi'),
		};
		const workflow = new Workflow({
			id: 'workflow-1',
			nodes: [node],
			connections: {},
			active: lifecycle.mode === 'trigger',
			nodeTypes: packageNodeTypes(),
			// n8n keeps a node's static data under `node:<name>`
			staticData: { [`node:${node.name}`]: staticData },
			settings: { executionOrder: 'v1' },
		});
		const additionalData = hookAdditionalData(store, N8N_URL);
		const workflowNode = workflow.getNode(node.name) as INode;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, 1) as INodeType;
		const webhookDescription = nodeType.description.webhooks!.find((webhook) => webhook.name === 'default')!;
		// a test listen's webhooks are marked isTest, which gives the node the test URL
		const webhookData = { httpMethod: 'POST', node: node.name, path: 'webhook', webhookDescription, workflowId: workflow.id, webhookId, isTest: base === 'webhook-test' } as unknown as IWebhookData;
		const context = new HookContext(workflow, workflowNode, additionalData, lifecycle.mode, lifecycle.activation, webhookData);
		// the URL n8n gives the node is the one the test means
		expect(context.getNodeWebhookUrl('default')).toBe(webhookUrl);
		return context;
	}

	/** The Basic credentials the sandbox was sent, as it decoded them. */
	const basic = (user: string, ok: boolean) => ({ scheme: 'basic', user, ok });

	it('registers this trigger’s URL for incoming messages and status callbacks, once', async () => {
		const staticData: IDataObject = {};
		const context = hooks({ registerWebhooks: true, verifyToken: 'verify-SECRET-1' }, staticData);
		const methods = trigger.webhookMethods.default;
		expect(await methods.checkExists.call(context)).toBe(false);
		expect(await methods.create.call(context)).toBe(true);
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'PUT', path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/chatapp/webhook`, status: 200 });
		// authenticated by the credential's own `authenticate` (Basic, API key and token), through n8n-core
		expect(request.auth).toEqual(basic(SANDBOX_ACCOUNT.apiKey, true));
		expect(request.json).toEqual({
			chatapp: {
				webhook: {
					incoming_message_url: 'http://127.0.0.1:5678/webhook/abc/webhook',
					status_callback_url: 'http://127.0.0.1:5678/webhook/abc/webhook',
					verify_token: 'verify-SECRET-1',
				},
			},
		});
		expect(await methods.checkExists.call(context)).toBe(true);
		// a changed URL (e.g. a new WEBHOOK_URL) registers again
		expect(await methods.checkExists.call(hooks({ registerWebhooks: true }, staticData, 'http://127.0.0.1:5678/webhook/new/webhook'))).toBe(false);
		expect(await methods.delete.call(context)).toBe(true);
		expect(staticData).toEqual({});
	});

	it('a test listen (manual mode, the test URL) sends nothing to the service and keeps the production registration', async () => {
		const methods = trigger.webhookMethods.default;
		const parameters = { registerWebhooks: true, verifyToken: 'verify-SECRET-1' };
		// n8n gives a test listen its own static data, starting empty
		const testData: IDataObject = {};
		const listen = hooks(parameters, testData, TEST_URL, TEST_LISTEN);
		expect(await methods.checkExists.call(listen)).toBe(true);
		expect(await methods.create.call(listen)).toBe(true);
		// ending the listen: the same 'internal' / 'update' a deactivation gets, on the test URL
		expect(await methods.delete.call(hooks(parameters, testData, TEST_URL, REMOVE))).toBe(true);
		expect(sandbox.requests()).toHaveLength(0);
		expect(sandbox.chatAppWebhook()).toBeNull();
		expect(testData).toEqual({});

		// activation afterwards registers the production URL
		const staticData: IDataObject = {};
		const activate = hooks(parameters, staticData, PRODUCTION_URL, ACTIVATE);
		expect(await methods.checkExists.call(activate)).toBe(false);
		expect(await methods.create.call(activate)).toBe(true);
		expect(sandbox.requests({ method: 'PUT' }).map((request) => request.json)).toEqual([
			{ chatapp: { webhook: { incoming_message_url: PRODUCTION_URL, status_callback_url: PRODUCTION_URL, verify_token: 'verify-SECRET-1' } } },
		]);
		expect(staticData).toEqual({ registeredUrl: PRODUCTION_URL });

		// a test listen while the workflow is active: no PUT, and its end does not forget the production registration
		expect(await methods.checkExists.call(hooks(parameters, staticData, TEST_URL, TEST_LISTEN))).toBe(true);
		expect(await methods.create.call(hooks(parameters, staticData, TEST_URL, TEST_LISTEN))).toBe(true);
		expect(await methods.delete.call(hooks(parameters, staticData, TEST_URL, REMOVE))).toBe(true);
		expect(sandbox.requests({ method: 'PUT' })).toHaveLength(1);
		expect(staticData).toEqual({ registeredUrl: PRODUCTION_URL });
		expect(sandbox.chatAppWebhook()).toMatchObject({ incoming_message_url: PRODUCTION_URL, status_callback_url: PRODUCTION_URL });

		// a restart ('init') finds it registered; a real deactivation forgets it
		expect(await methods.checkExists.call(hooks(parameters, staticData, PRODUCTION_URL, { mode: 'trigger', activation: 'init' }))).toBe(true);
		expect(await methods.delete.call(hooks(parameters, staticData, PRODUCTION_URL, REMOVE))).toBe(true);
		expect(staticData).toEqual({});
	});

	it('manual mode alone is enough: no PUT even if the URL does not look like a test URL', async () => {
		const methods = trigger.webhookMethods.default;
		for (const lifecycle of [TEST_LISTEN, { mode: 'manual', activation: 'activate' } as Lifecycle, { mode: 'trigger', activation: 'manual' } as Lifecycle]) {
			const context = hooks({ registerWebhooks: true }, {}, PRODUCTION_URL, lifecycle);
			expect(await methods.checkExists.call(context)).toBe(true);
			expect(await methods.create.call(context)).toBe(true);
		}
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('does nothing at the service when registration is off', async () => {
		const context = hooks({ registerWebhooks: false }, {});
		const methods = trigger.webhookMethods.default;
		expect(await methods.checkExists.call(context)).toBe(true);
		expect(await methods.create.call(context)).toBe(true);
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('a wrong API token in the credential: the service refuses it (401) and the activation fails with its message', async () => {
		const staticData: IDataObject = {};
		const context = hooks({ registerWebhooks: true }, staticData, PRODUCTION_URL, ACTIVATE, { apiToken: 'wrong' });
		await expect(trigger.webhookMethods.default.create.call(context)).rejects.toMatchObject({
			httpCode: '401',
			description: expect.stringContaining('The service said: "Authentication failed"'),
		});
		// the 401 is the sandbox's answer to the credential's own key and (wrong) token
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'PUT', path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/chatapp/webhook`, status: 401 });
		expect(request.auth).toEqual(basic(SANDBOX_ACCOUNT.apiKey, false));
		expect(sandbox.chatAppWebhook()).toBeNull();
		// nothing noted as registered
		expect(staticData).toEqual({});
	});
});

describe('Messaging Trigger: no secret in what it answers or emits', () => {
	const trigger = new ExotelMessagingTrigger();
	const body = JSON.stringify({
		event: 'incoming_message',
		timestamp: '2026-11-22T10:15:00+05:30',
		account_sid: SANDBOX_ACCOUNT.accountSid,
		message: { id: 'wamid.1', from: '+919876543210', to: '+918047112233', timestamp: '2026-11-22T10:14:59+05:30', type: 'text', text: { body: 'hi' } },
		contact: { wa_id: '919876543210', profile: { name: 'Asha Rao' } },
	});
	const credentials = { ...sandboxCredentials({ origin: 'http://127.0.0.1:1' } as ExotelSandbox, GOOD)[0].data };
	const post = (signature: string | null) =>
		callWebhook(trigger, {
			rawBody: body,
			headers: signature === null ? {} : { 'X-Service-Signature': signature },
			parameters: { events: ['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus', 'unknown'], statuses: [], verifyToken: VERIFY_TOKEN },
			credentials,
		});
	const good = signPayload(body, SIGNING_SECRET);

	it.each([
		['a valid signature', good, 200],
		['a forged signature', signPayload(body, 'another-secret'), 401],
		['a missing signature', null, 401],
		['a malformed signature', 'sha256=zz', 401],
	])('%s', async (_name, signature, expected) => {
		const answer = await post(signature);
		expect(answer.status).toBe(expected);
		const text = dump({ body: answer.body, workflowData: answer.workflowData, response: answer.response });
		for (const secret of SECRETS) expect(text).not.toContain(secret);
		// Nor the signature the secret would give: that would let anyone replay this body.
		if (expected !== 200) expect(text).not.toContain(good.slice('sha256='.length));
	});

	it.each([
		['a wrong verify token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '42' }, 403],
		['no verify token', { 'hub.challenge': '42' }, 403],
		['the right verify token', { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '42' }, 200],
	])('handshake with %s', async (_name, query, expected) => {
		const answer = await callWebhook(trigger, { method: 'GET', query, parameters: { verifyToken: VERIFY_TOKEN }, credentials });
		expect(answer.status).toBe(expected);
		expect(dump({ body: answer.body, workflowData: answer.workflowData })).not.toContain(VERIFY_TOKEN);
	});
});
