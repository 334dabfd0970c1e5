// The messaging events, declared once: the Messaging Trigger's Events and Statuses and an item's `event` are read
// from here; the callback shapes that carry them are in callbacks.ts (docs/development.md, "Adding a callback shape").
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
