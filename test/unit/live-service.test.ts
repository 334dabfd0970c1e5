/**
 * The live service's dialect (../shared/notes/live-service.md) read by the package's pure parts: the
 * XML twin of a v1 answer, national numbers, the WhatsApp envelope in and out, India time. The
 * payloads are the recorded ones (test/helpers/live-recorded.ts, each with where it was seen).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { smsOutcomes } from '../../nodes/ExotelMessaging/resources/sms/api';
import { callbackItems, callbackOf, repliesOf, unsignedFamilyOf } from '../../nodes/shared/output/callbacks';
import { envelopeOutcomes } from '../../nodes/shared/output/envelope';
import { serviceDateInZone } from '../../nodes/shared/rules/validation';
import { sameNumber } from '../../nodes/shared/rules/values';
import { parseServiceError } from '../../nodes/shared/transport/errors';
import { accountTimeZoneOf, chatAppEnvelopeOf, chatAppSendBody, chatAppWebhookRequest } from '../../nodes/shared/transport/live';
import { readServiceXml } from '../../nodes/shared/transport/xml';
import {
	INSUFFICIENT_BALANCE_XML,
	KYC_ERROR_JSON,
	SMS_SEND_XML,
	WHATSAPP_DLR_DELIVERED_TEXT_CODE,
	WHATSAPP_DLR_SENT,
	WHATSAPP_INCOMING,
	WHATSAPP_SEND_ANSWER,
	WHATSAPP_SEND_BODY,
	whatsappReply,
} from '../helpers/live-recorded';

const node: INode = { id: '1', name: 'Exotel', type: 'x.y', typeVersion: 1, position: [0, 0], parameters: {} };

describe('a v1 SMS answer in XML reads as its JSON twin', () => {
	it('gives the item its sid, status, code and the recipient as sent', () => {
		const [outcome] = smsOutcomes(node, readServiceXml(SMS_SEND_XML), [{ itemIndex: 0, to: '+918884733565', from: '08047112233' }]);
		expect(outcome.error).toBeUndefined();
		expect(outcome.json).toMatchObject({
			messageSid: 'b6ff6e3e3c4a4b2f9d7c1a2b3c4d17b1',
			status: 'queued',
			channel: 'sms',
			// the answer's national 08884733565 is the number sent: the item keeps the number as sent
			to: '+918884733565',
			from: '08047112233',
			code: 21010,
		});
		expect((outcome.json.raw as { Body: string }).Body).toBe('Your OTP is 4821\nDo not share it <Acme>');
		expect((outcome.json.raw as { DateSent: string; SmsUnits: unknown }).SmsUnits).toBeNull();
	});

	it('reads a single {"SMSMessage": {...}} where a list is expected', () => {
		const single = { SMSMessage: { Sid: 'abc', To: '08884733565', Status: 'queued', DetailedStatusCode: 21010 } };
		const [outcome] = smsOutcomes(node, single, [{ itemIndex: 3, to: '+918884733565', from: 'ACME' }]);
		expect([outcome.itemIndex, outcome.json.messageSid, outcome.json.status, outcome.json.to]).toEqual([3, 'abc', 'queued', '+918884733565']);
	});

	it('keeps the answer\'s number where it is another one', () => {
		const single = { SMSMessage: { Sid: 'abc', To: '08884733566', Status: 'queued' } };
		const [outcome] = smsOutcomes(node, single, [{ itemIndex: 0, to: '+918884733565', from: 'ACME' }]);
		expect(outcome.json.to).toBe('08884733566');
	});

	it('takes the error words out of an XML RestException, and a JSON one with its code', () => {
		expect(parseServiceError(readServiceXml(INSUFFICIENT_BALANCE_XML))).toEqual({ message: 'Insufficient balance to send the SMS', code: undefined });
		expect(parseServiceError(KYC_ERROR_JSON)).toEqual({ message: 'Your account is not yet KYC compliant', code: 340030 });
		// "Service Unavailable; " as the live service words it
		expect(parseServiceError({ RestException: { Status: 503, Message: 'Service Unavailable; ', Code: 35008 } })?.message).toBe('Service Unavailable');
	});
});

describe('numbers in the national form', () => {
	it.each([
		['+918884733565', '08884733565', true],
		['08884733565', '918884733565', true],
		['+91 88847 33565', '08884733565', true],
		['+918884733565', '08884733566', false],
		// a trunk 0 is not a country code of four digits, nor an international prefix
		['+12348884733565', '08884733565', false],
		['0018884733565', '+18884733565', false],
		['08884733565', '08884733565', true],
		['', '', false],
	])('%s and %s: %s', (a, b, same) => {
		expect(sameNumber(a, b)).toBe(same);
		expect(sameNumber(b, a)).toBe(same);
	});
});

describe('the chat app envelope', () => {
	const regional = { region: 'mumbai' };
	const custom = { region: 'custom', baseUrl: 'http://127.0.0.1:4010' };

	it('is WhatsApp on Exotel\'s hosts and the reference\'s on a custom base URL when Auto, else as chosen', () => {
		expect(chatAppEnvelopeOf(regional)).toBe('whatsapp');
		expect(chatAppEnvelopeOf({ ...regional, chatAppEnvelope: 'auto' })).toBe('whatsapp');
		expect(chatAppEnvelopeOf(custom)).toBe('chatapp');
		expect(chatAppEnvelopeOf({ ...custom, chatAppEnvelope: 'whatsapp' })).toBe('whatsapp');
		expect(chatAppEnvelopeOf({ ...regional, chatAppEnvelope: 'chatapp' })).toBe('chatapp');
	});

	it('wraps a send as the Postman collection does, and leaves the reference\'s shape as 0.5.0 sent it', () => {
		const [message] = WHATSAPP_SEND_BODY.whatsapp.messages;
		const request = { status_callback: WHATSAPP_SEND_BODY.status_callback, custom_data: WHATSAPP_SEND_BODY.custom_data };
		expect(chatAppSendBody('whatsapp', message, request)).toEqual(WHATSAPP_SEND_BODY);
		expect(JSON.stringify(chatAppSendBody('chatapp', message, request))).toBe(
			JSON.stringify({ from: message.from, to: message.to, content: message.content, status_callback: request.status_callback, custom_data: request.custom_data }),
		);
		expect(chatAppSendBody('chatapp', message, {})).toEqual(message);
	});

	it('sets webhooks under the envelope\'s own path and key', () => {
		const webhook = { incoming_message_url: 'https://n8n.example.com/webhook/x' };
		expect(chatAppWebhookRequest('whatsapp', webhook)).toEqual({ endpoint: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/whatsapp/webhook', rate: 'chatApp' }, body: { whatsapp: { webhook } } });
		expect(chatAppWebhookRequest('chatapp', webhook)).toEqual({ endpoint: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/chatapp/webhook', rate: 'chatApp' }, body: { chatapp: { webhook } } });
	});

	it('reads the live send answer into the item as the reference\'s', () => {
		const [outcome] = envelopeOutcomes(node, 'chatapp', WHATSAPP_SEND_ANSWER, [0], [{ to: '+919876543210', from: '+918047112233' }]);
		expect(outcome.error).toBeUndefined();
		expect(outcome.json).toMatchObject({ messageSid: '0d9f7c2a1b3e4f5a6b7c8d9e0f1a2b3c', status: 'accepted', channel: 'chatapp', to: '+919876543210', requestId: WHATSAPP_SEND_ANSWER.request_id });
	});
});

/** The items the Messaging Trigger makes of a body, and the chat-app replies a wait reads in it. */
const eventItems = (body: IDataObject) => callbackItems(callbackOf(body, 'messagingTrigger'));
const repliesIn = (body: IDataObject) => repliesOf(callbackOf(body, 'wait'), 'chatapp');

describe('WhatsApp callbacks in the live envelope read as the reference\'s', () => {
	it('delivery reports, the code a number whether it came as one or as text', () => {
		const [sent] = eventItems(WHATSAPP_DLR_SENT)!;
		const [delivered] = eventItems(WHATSAPP_DLR_DELIVERED_TEXT_CODE)!;
		expect([sent.event, sent.status, sent.code, sent.channel, sent.timestamp]).toEqual(['chatAppStatus', 'sent', 30001, 'chatapp', '2026-08-23T00:13:07+05:30']);
		expect([delivered.event, delivered.status, delivered.code]).toEqual(['chatAppStatus', 'delivered', 30002]);
		// the same report in the reference's envelope gives the same item
		const reference = eventItems({ chatapp: WHATSAPP_DLR_SENT.whatsapp })![0];
		expect(reference).toEqual(sent);
	});

	it('an incoming message: the person\'s name from profile_name, the text, and what it replies to', () => {
		const [message] = eventItems(WHATSAPP_INCOMING)!;
		expect(message).toMatchObject({
			event: 'chatAppIncoming',
			messageSid: '5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
			status: 'received',
			from: '+919876543210',
			messageType: 'text',
			text: 'Hello',
			contactName: 'Test User',
			inReplyTo: null,
		});
		const [reply] = eventItems(whatsappReply('0d9f7c2a1b3e4f5a6b7c8d9e0f1a2b3c'))!;
		expect([reply.text, reply.inReplyTo]).toEqual(['Yes', '0d9f7c2a1b3e4f5a6b7c8d9e0f1a2b3c']);
		const [answer] = repliesIn(whatsappReply('sid-1', { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'approve', title: 'Approve' } } }));
		expect([answer.id, answer.text, answer.inReplyTo, answer.name, answer.number]).toEqual(['approve', 'Approve', 'sid-1', 'Test User', '+919876543210']);
	});

	it('is never one of the families taken unsigned', () => {
		for (const body of [WHATSAPP_DLR_SENT, WHATSAPP_INCOMING]) expect(unsignedFamilyOf(body)).toBeUndefined();
	});
});

describe('dates for the account\'s zone', () => {
	it('is India on Exotel\'s hosts, the credential\'s zone when set, none (as typed) on a custom base URL', () => {
		expect(accountTimeZoneOf({ region: 'singapore' })).toBe('Asia/Kolkata');
		expect(accountTimeZoneOf({ region: 'custom', timeZone: ' Asia/Singapore ' })).toBe('Asia/Singapore');
		expect(accountTimeZoneOf({ region: 'custom' })).toBeUndefined();
	});

	it.each([
		// the workflow's wall clock, converted: New York is 10:30 behind India in November
		['2026-11-20T10:00:00', 'America/New_York', 'Asia/Kolkata', '2026-11-20 20:30:00'],
		// a date with its zone is that instant, whatever the workflow's zone
		['2026-11-20T10:00:00+05:30', 'America/New_York', 'Asia/Kolkata', '2026-11-20 10:00:00'],
		['2026-11-20T04:30:00.000Z', 'Europe/Berlin', 'Asia/Kolkata', '2026-11-20 10:00:00'],
		['2026-11-20 10:00:00', 'Asia/Kolkata', 'Asia/Kolkata', '2026-11-20 10:00:00'],
		['2026-11-20', 'Asia/Kolkata', 'UTC', '2026-11-19 18:30:00'],
		// summer time in the workflow's zone
		['2026-07-01T12:00:00', 'Europe/London', 'Asia/Kolkata', '2026-07-01 16:30:00'],
	])('%s in %s is %s %s', (value, workflowZone, zone, expected) => {
		expect(serviceDateInZone(value, workflowZone, zone)).toBe(expected);
	});

	it('is undefined for what is no date', () => {
		expect(serviceDateInZone('yesterday', 'UTC', 'Asia/Kolkata')).toBeUndefined();
	});
});
