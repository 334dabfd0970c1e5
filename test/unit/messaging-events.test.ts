/**
 * The messaging events (nodes/shared/output/messagingEvents.ts) and the callback shapes posted where the signing
 * secret applies (MESSAGING_SHAPES, nodes/shared/output/callbacks.ts) hold together: every event is
 * declared whole and comes from some shape; every shape has sample bodies here that are recognised as it, read as
 * exactly its events, and are taken unsigned exactly when SIGNING below, written here by hand, says the service
 * posts it unsigned. A new shape adds its samples to SAMPLES and its row to SIGNING (docs/development.md, "Adding a
 * callback shape").
 */
import type { IDataObject } from 'n8n-workflow';

import { ExotelMessagingTrigger } from '../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { MESSAGING_EVENTS } from '../../nodes/ExotelMessagingTrigger/events';
import { callbackItems, callbackOf, MESSAGING_SHAPES, shapeOf, unsignedFamilyOf, type MessagingShape } from '../../nodes/shared/output/callbacks';
import { CALLBACK_EVENTS, DECLARED_EVENTS, STATUSES } from '../../nodes/shared/output/messagingEvents';
import { nestBracketKeys } from '../../nodes/shared/webhooks/respond';
import { UNKNOWN_EVENT } from '../../nodes/shared/webhooks/triggers';
import { ANSWERED_CALL_CALLBACK, WHATSAPP_DLR_SENT, WHATSAPP_INCOMING } from '../helpers/live-recorded';

const AT = '2026-08-23T00:13:07+05:30';
const PERSON = '+919876543210';
const BUSINESS = '+918047112233';

/** Bodies of each shape, as the spec (or the live-service notes) shows them; together they yield all its events. */
const SAMPLES: Record<MessagingShape, IDataObject[]> = {
	chatAppIncomingMessage: [
		{
			event: 'incoming_message',
			timestamp: AT,
			account_sid: 'acme',
			message: { id: 'wamid-1', from: PERSON, to: BUSINESS, timestamp: AT, type: 'text', text: { body: 'Hello' } },
			contact: { wa_id: '919876543210', profile: { name: 'Asha Rao' } },
		},
	],
	chatapp: [
		{
			chatapp: {
				messages: [
					{ callback_type: 'dlr', sid: 'c-1', to: PERSON, exo_status_code: 30002, exo_detailed_status: 'EX_MESSAGE_DELIVERED', timestamp: AT },
					{ callback_type: 'icm', sid: 'c-2', from: PERSON, to: BUSINESS, timestamp: AT, content: { type: 'text', text: { body: 'Yes' } } },
				],
			},
		},
	],
	whatsapp: [WHATSAPP_DLR_SENT, WHATSAPP_INCOMING],
	rcs: [
		{
			rcs: {
				messages: [
					{ callback_type: 'dlr', sid: 'r-1', to: PERSON, exo_status_code: 40003, exo_detailed_status: 'EX_MESSAGE_SEEN', timestamp: AT },
					{ callback_type: 'incoming_message', sid: 'r-2', from: PERSON, to: 'bot-1', timestamp: AT, content: { type: 'text', text: 'Yes' } },
				],
			},
			sms: {
				messages: [
					{ callback_type: 'dlr', sid: 's-1', channel_sid: 'ch-1', to: PERSON, exo_status_code: 20005, exo_detailed_status: 'DELIVERED_TO_HANDSET', sms_units: 1, timestamp: AT },
				],
			},
		},
	],
	sms: [
		{ SmsSid: 'sms-1', To: PERSON, Status: 'failed', DetailedStatusCode: '24003', DateSent: '2026-08-23 00:13:07' },
		{ SmsSid: 'sms-7', To: PERSON, Url: 'https://acme.example/o/1', ClickedAt: '2026-08-23 00:20:00' },
	],
	call: [nestBracketKeys(ANSWERED_CALL_CALLBACK)],
};

/**
 * Which shapes the service signs, written by hand rather than read from MESSAGING_SHAPES (the table unsignedFamilyOf
 * reads), so a wrong row there fails here. The spec signs every chat-app webhook, in any envelope, so those must
 * come signed (docs/nodes.md, "Security"; docs/send-and-wait.md, "Signed where the service signs"); the service
 * signs no RCS, SMS or call callback, so a body wholly of one of those is taken unsigned.
 */
const SIGNING: Record<MessagingShape, 'signed' | 'unsigned'> = {
	chatAppIncomingMessage: 'signed',
	chatapp: 'signed',
	whatsapp: 'signed',
	rcs: 'unsigned',
	sms: 'unsigned',
	call: 'unsigned',
};

const SHAPES = Object.keys(MESSAGING_SHAPES) as MessagingShape[];
/** The items the Messaging Trigger makes of a body. */
const eventItems = (body: IDataObject) => callbackItems(callbackOf(body, 'messagingTrigger'));
const samplesOf = (shape: MessagingShape) => SAMPLES[shape] ?? [];
const itemsOf = (shape: MessagingShape) => samplesOf(shape).flatMap((body) => eventItems(body) ?? []);
const holding = (body: IDataObject) => SHAPES.filter((shape) => MESSAGING_SHAPES[shape].is(body));

describe('every messaging event', () => {
	it.each(DECLARED_EVENTS)('%s is declared whole: a display name, its action, a description, whether it carries a status', (event) => {
		const { displayName, action, description, carriesStatus } = CALLBACK_EVENTS[event];
		expect(displayName).toMatch(/^[A-Z]/);
		// the nodes panel's action names the same event: "On " and the display name in sentence case
		expect(action.toLowerCase()).toBe(`on ${displayName.toLowerCase()}`);
		expect(description).toMatch(/^[A-Z].*[^.]$/);
		expect(typeof carriesStatus).toBe('boolean');
	});

	it.each(DECLARED_EVENTS)('%s comes from a declared callback shape', (event) => {
		expect(SHAPES.filter((shape) => (MESSAGING_SHAPES[shape].events as readonly string[]).includes(event))).not.toEqual([]);
	});

	it('keeps every value workflows save, each once', () => {
		const values = MESSAGING_EVENTS.map((event) => event.value);
		expect(values).toEqual(expect.arrayContaining(['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus', UNKNOWN_EVENT]));
		expect(new Set(values).size).toBe(values.length);
	});

	it('the Events list, the Statuses filter and the items are the same events', () => {
		expect(MESSAGING_EVENTS.map((event) => event.value)).toEqual([...DECLARED_EVENTS, UNKNOWN_EVENT]);
		// by display name, as n8n lists options, Unrecognized Payload last
		const names = DECLARED_EVENTS.map((event) => CALLBACK_EVENTS[event].displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		const statuses = new ExotelMessagingTrigger().description.properties.find((property) => property.name === 'statuses');
		expect(statuses?.displayOptions?.show?.events).toEqual(DECLARED_EVENTS.filter((event) => CALLBACK_EVENTS[event].carriesStatus));
		const yielded = SHAPES.flatMap((shape) => itemsOf(shape).map((item) => item.event));
		expect([...new Set(yielded)].sort()).toEqual([...DECLARED_EVENTS, UNKNOWN_EVENT].sort());
	});
});

describe('every callback shape', () => {
	it.each(SHAPES)('%s has sample bodies in this test', (shape) => {
		expect(samplesOf(shape).length).toBeGreaterThan(0);
	});

	it.each(SHAPES)('%s: its samples are recognised as it, no earlier shape taking them', (shape) => {
		for (const body of samplesOf(shape)) expect(shapeOf(body)).toBe(shape);
	});

	it.each(SHAPES)('%s: its samples read as exactly its declared events (none: an unrecognized payload)', (shape) => {
		const declared: readonly string[] = MESSAGING_SHAPES[shape].events;
		const read = new Set(itemsOf(shape).map((item) => item.event));
		expect([...read].sort()).toEqual(declared.length > 0 ? [...declared].sort() : [UNKNOWN_EVENT]);
	});

	it.each(SHAPES)('%s: its samples are taken unsigned exactly when the service posts it unsigned, and it is declared so', (shape) => {
		const expected = SIGNING[shape] === 'unsigned' ? shape : undefined;
		for (const body of samplesOf(shape)) expect(unsignedFamilyOf(body)).toBe(expected);
		expect(MESSAGING_SHAPES[shape].signing).toBe(SIGNING[shape]);
	});

	it.each(SHAPES)('%s: an item of a status event carries a status the Statuses filter offers; any other item does not', (shape) => {
		for (const item of itemsOf(shape)) {
			if (item.event === UNKNOWN_EVENT) continue;
			expect([item.event, (STATUSES as readonly unknown[]).includes(item.status)]).toEqual([item.event, CALLBACK_EVENTS[item.event].carriesStatus]);
		}
	});

	it('no body is of a signed shape and an unsigned one at once, so the order of the shapes never decides the signing', () => {
		const bodies = SHAPES.flatMap(samplesOf);
		const mixes = bodies.flatMap((a) => bodies.map((b) => ({ ...a, ...b })));
		for (const body of [...bodies, ...mixes]) {
			const signings = new Set(holding(body).map((shape) => SIGNING[shape]));
			expect([body, signings.size]).toEqual([body, Math.min(signings.size, 1)]);
			// and a body holding a chat-app payload, alone or beside anything, is never taken unsigned
			if (signings.has('signed')) expect([body, unsignedFamilyOf(body)]).toEqual([body, undefined]);
		}
	});
});
