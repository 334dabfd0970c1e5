import { unrecognizedPayload } from '../shared/webhooks/triggers';

export { eventItems, STATUSES } from '../shared/output/messagingCallbacks';

/** Event names the trigger emits, in the service's terms. */
export const MESSAGING_EVENTS = [
	{ name: 'Chat App Incoming Message', value: 'chatAppIncoming', action: 'On chat app incoming message', description: 'A user wrote to your chat-app number' },
	{ name: 'Chat App Status Callback', value: 'chatAppStatus', action: 'On chat app status callback', description: 'Sent, delivered, seen or failed' },
	{ name: 'RCS Delivery Report', value: 'rcsDeliveryReport', action: 'On RCS delivery report', description: 'RCS status, and the SMS fallback when it fired' },
	{ name: 'RCS Incoming Message', value: 'rcsIncoming', action: 'On RCS incoming message', description: 'A reply or a message to your bot' },
	{ name: 'SMS Click', value: 'smsClick', action: 'On SMS click', description: 'A click on a tracked short link' },
	{ name: 'SMS Status Callback', value: 'smsStatus', action: 'On SMS status callback', description: 'Terminal status of an SMS' },
	unrecognizedPayload('Any other JSON object, passed through whole'),
] as const;
