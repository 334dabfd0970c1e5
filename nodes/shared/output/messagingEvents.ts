// The messaging events and the callback shapes that carry them, declared once: the Messaging Trigger's Events and
// Statuses, an item's `event`, and which callbacks may come unsigned are all read from here (docs/development.md,
// "Adding a callback shape").
import type { IDataObject } from 'n8n-workflow';

import { UNKNOWN_EVENT } from '../webhooks/triggers';

/** One event as the package names it; its key in CALLBACK_EVENTS is the value workflows save. */
interface EventDeclaration {
	/** Its entry in the trigger's Events list; `action` is how n8n's nodes panel lists it. */
	readonly displayName: string;
	readonly action: string;
	readonly description: string;
	/** Whether its items carry a delivery status (one of STATUSES): the trigger's Statuses filter reads those. */
	readonly carriesStatus: boolean;
}

/** The events a messaging callback can be, in the order of the Events list (by display name). */
export const CALLBACK_EVENTS = {
	chatAppIncoming: {
		displayName: 'Chat App Incoming Message',
		action: 'On chat app incoming message',
		description: 'A user wrote to your chat-app number',
		carriesStatus: false,
	},
	chatAppStatus: {
		displayName: 'Chat App Status Callback',
		action: 'On chat app status callback',
		description: 'Sent, delivered, seen or failed',
		carriesStatus: true,
	},
	rcsDeliveryReport: {
		displayName: 'RCS Delivery Report',
		action: 'On RCS delivery report',
		description: 'RCS status, and the SMS fallback when it fired',
		carriesStatus: true,
	},
	rcsIncoming: {
		displayName: 'RCS Incoming Message',
		action: 'On RCS incoming message',
		description: 'A reply or a message to your bot',
		carriesStatus: false,
	},
	smsClick: { displayName: 'SMS Click', action: 'On SMS click', description: 'A click on a tracked short link', carriesStatus: false },
	smsStatus: { displayName: 'SMS Status Callback', action: 'On SMS status callback', description: 'Terminal status of an SMS', carriesStatus: true },
} as const satisfies Record<string, EventDeclaration>;

/** A declared event; its item's `event`. */
export type DeclaredEvent = keyof typeof CALLBACK_EVENTS;

/** The events a messaging callback can be; `unknown` is a payload no shape describes, passed through whole. */
export type MessagingEvent = DeclaredEvent | typeof UNKNOWN_EVENT;

/** The declared events, in their order. */
export const DECLARED_EVENTS = Object.keys(CALLBACK_EVENTS) as DeclaredEvent[];

/** Statuses users filter on, from the chat-app and RCS code tables (30001/40001 sent, ...); SMS statuses are folded onto them. */
export const STATUSES = ['sent', 'delivered', 'seen', 'failed'] as const;

/** The events whose items carry a status: where the trigger's Statuses filter applies, and shows. */
export const STATUS_EVENTS: readonly MessagingEvent[] = DECLARED_EVENTS.filter((event) => CALLBACK_EVENTS[event].carriesStatus);

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isRecord = (value: unknown): value is IDataObject => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const isFlatObject = (value: unknown) => isRecord(value) && Object.values(value).every(isScalar);
/** A form's fields, each flat but for `list`, a list of flat objects (a call's `Legs`). */
const isFlatForm = (body: IDataObject, list?: string) =>
	Object.entries(body).every(([key, value]) => isScalar(value) || (key === list && Array.isArray(value) && value.every(isFlatObject)));

/** One body the service posts, as the package recognises it. */
interface ShapeDeclaration {
	/**
	 * Whether a body (its bracket keys nested) is of this shape. An unsigned shape's holds only for a body wholly
	 * of it, so no chat-app payload rides along unsigned; a signed shape's may hold for more (a chat-app payload
	 * beside an RCS one is still signed). So no body is of a signed shape and an unsigned one at once.
	 */
	readonly is: (body: IDataObject) => boolean;
	/** The events its messages become (eventItems reads them); none when the Messaging Trigger does not start on it. */
	readonly events: readonly DeclaredEvent[];
	/**
	 * `signed`: per the spec, chat-app webhooks carry X-Service-Signature, so with a signing secret an unsigned one is
	 * refused. `unsigned`: the service posts it without one, so it passes whatever the secret.
	 */
	readonly signing: 'signed' | 'unsigned';
}

/** The callback bodies the package reads, in the order eventItems looks for them. */
export const CALLBACK_SHAPES = {
	/** The spec's chat-app incoming message webhook: `event: incoming_message` with a `message` object. */
	chatAppIncomingMessage: {
		is: (body) => body.event === 'incoming_message' && Boolean(body.message) && typeof body.message === 'object',
		events: ['chatAppIncoming'],
		signing: 'signed',
	},
	/** The spec's chat-app status callback, `chatapp.messages[]`: delivery reports (`dlr`) and replies (`icm`). */
	chatapp: { is: (body) => isRecord(body.chatapp), events: ['chatAppStatus', 'chatAppIncoming'], signing: 'signed' },
	/**
	 * The live service's WhatsApp envelope of the same, `whatsapp.messages[]` (replies `incoming_message`). A chat-app
	 * payload, so signed per the spec; the live service is not known to sign, so its users leave the secret empty.
	 */
	whatsapp: { is: (body) => isRecord(body.whatsapp), events: ['chatAppStatus', 'chatAppIncoming'], signing: 'signed' },
	/** RCS delivery reports and incoming messages, `rcs.messages[]`, and `sms.messages[]` when the SMS fallback fired. */
	rcs: {
		is: (body) => isRecord(body.rcs) && Object.keys(body).every((key) => (key === 'rcs' || key === 'sms') && isRecord(body[key])),
		events: ['rcsDeliveryReport', 'rcsIncoming'],
		signing: 'unsigned',
	},
	/** An SMS StatusCallback or click-tracking callback: a form with `SmsSid`, flat fields only (a click names a click field). */
	sms: { is: (body) => body.SmsSid !== undefined && isFlatForm(body), events: ['smsStatus', 'smsClick'], signing: 'unsigned' },
	/** A v1 call status callback: a form with `CallSid`, its `Legs` a list of flat objects. A call wait reads it, not the Messaging Trigger. */
	call: { is: (body) => body.CallSid !== undefined && isFlatForm(body, 'Legs'), events: [], signing: 'unsigned' },
} as const satisfies Record<string, ShapeDeclaration>;

export type CallbackShape = keyof typeof CALLBACK_SHAPES;

/** The shapes the service posts unsigned: the signature check's unsigned families. */
export type UnsignedFamily = { [Shape in CallbackShape]: (typeof CALLBACK_SHAPES)[Shape]['signing'] extends 'unsigned' ? Shape : never }[CallbackShape];

/** The first shape that a body (bracket keys nested) is, or undefined when it is none of them: an unknown payload, a form carrying an object. */
export function shapeOf(body: IDataObject): CallbackShape | undefined {
	return (Object.keys(CALLBACK_SHAPES) as CallbackShape[]).find((shape) => CALLBACK_SHAPES[shape].is(body));
}

/**
 * Which unsigned shape a body wholly is, or undefined when it is anything else (a chat-app payload, a mix, an
 * unknown shape): only such a body may come without a signature when the credential has a signing secret.
 */
export function unsignedFamilyOf(body: IDataObject): UnsignedFamily | undefined {
	const shape = shapeOf(body);
	return shape !== undefined && CALLBACK_SHAPES[shape].signing === 'unsigned' ? (shape as UnsignedFamily) : undefined;
}
