// The messages of messaging callbacks (delivery reports, replies, incoming messages) read into the package's vocabulary:
// the Messaging Trigger's items and what a person answered. Which body is which, and where its messages are, is
// callbacks.ts's.
import type { IDataObject } from 'n8n-workflow';

import type { MessagingEvent } from './messagingEvents';
import { codeOf, messageItem, textOf, type MessageFields } from './vocabulary';

/** A chat-app or RCS code (3xxxx, 4xxxx) as one of STATUSES (messagingEvents.ts): ...1 sent, ...2 delivered, ...3 seen, else failed. */
export function statusOfCode(code: unknown): string | undefined {
	const value = Number(code);
	if (!Number.isFinite(value)) return undefined;
	const last = value % 10000;
	if (value >= 30000 && value < 50000) {
		if (last === 1) return 'sent';
		if (last === 2) return 'delivered';
		if (last === 3) return 'seen';
		return 'failed';
	}
	return undefined;
}

function numericCodeOf(value: unknown): number | string | null {
	const code = codeOf(value);
	return typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : code;
}

/**
 * An SMS status folded onto the same words, however the service gave it: by its code first (20xxx
 * delivered, 21xxx pending, 23xxx and 24xxx failed: the SMS code list), else by its words (a status
 * callback's Status, a fallback entry's exo_detailed_status). A pending SMS is on its way: `sent`.
 * The service's own code and words stay in `code` and `raw`.
 */
function smsStatusOf(code: unknown, words: unknown): string | null {
	const value = Number(codeOf(code) ?? Number.NaN);
	if (value >= 20000 && value < 21000) return 'delivered';
	if (value >= 21000 && value < 22000) return 'sent';
	if (value >= 23000 && value < 25000) return 'failed';
	const word = String(words ?? '').toLowerCase();
	if (word.startsWith('fail')) return 'failed';
	// The status callback's `sent` is the SMS handed to the handset (DELIVERED_TO_HANDSET).
	if (word === 'sent' || word.startsWith('delivered')) return 'delivered';
	if (word === 'queued' || word === 'submitted' || /^(pending|sending)/.test(word)) return 'sent';
	return null;
}

/** One message of a callback in the package's vocabulary (vocabulary.ts), the message as received under `raw`. */
export interface EventItem extends IDataObject, MessageFields {
	event: MessagingEvent;
	timestamp: string | null;
	customData: string | null;
	raw: IDataObject;
}

export function item(event: MessagingEvent, channel: string, entry: IDataObject, fields: Partial<EventItem>): EventItem {
	// What a callback family does not name comes from the entry's own snake_case fields.
	const {
		messageSid = textOf(entry.sid),
		status = null,
		to = textOf(entry.to),
		from = textOf(entry.from),
		code = null,
		timestamp = textOf(entry.timestamp),
		customData = textOf(entry.custom_data),
		...extra
	} = fields;
	return {
		event,
		...messageItem({ messageSid, status, channel, to, from, code }, entry, { timestamp, customData, ...extra }),
	} as EventItem;
}

export function channelStatusItem(event: MessagingEvent, channel: string, entry: IDataObject, extra: IDataObject = {}): EventItem {
	return item(event, channel, entry, {
		...extra,
		// An SMS-fallback entry carries SMS codes (20005 DELIVERED_TO_HANDSET), not the RCS table's.
		status:
			channel === 'sms'
				? smsStatusOf(entry.exo_status_code, entry.exo_detailed_status)
				: statusOfCode(entry.exo_status_code) ?? textOf(entry.exo_detailed_status),
		// The live service sends the code as a number or as text: a code of digits is always the number.
		code: numericCodeOf(entry.exo_status_code),
	});
}

/** What a person sent: the id of what they picked (a button, a row, a suggestion), and its words. */
export interface Answer {
	id: string | null;
	text: string | null;
	replySid: string | null;
	number: string | null;
	name: string | null;
	at: string | null;
	/** The id of the message the reply answers, when it names one (a chat-app reply's `context.id`). */
	inReplyTo: string | null;
	entry: IDataObject;
}

/** The object at a path inside a payload, or undefined when any step is not an object. */
export function objectAt(value: unknown, ...path: string[]): IDataObject | undefined {
	let node: unknown = value;
	for (const key of path) {
		if (!node || typeof node !== 'object') return undefined;
		node = (node as IDataObject)[key];
	}
	return node && typeof node === 'object' ? (node as IDataObject) : undefined;
}

/**
 * What a person's message (a chat-app or RCS entry) answered. The spec does not show a reply's type objects, so every
 * shape the service's chat-app and RCS payloads use is read: a tapped button (`button.payload`, or
 * `interactive.button_reply.id`), a list row (`list_reply.id`), text (`text.body`, RCS `content.text`), an RCS
 * suggestion (`content.suggested.response.reply|action`, its `postback_data`).
 */
export function answerOf(entry: IDataObject): Answer {
	const content = objectAt(entry, 'content') ?? entry;
	const interactive = objectAt(content, 'interactive');
	const picked =
		objectAt(content, 'button') ??
		objectAt(interactive, 'button_reply') ??
		objectAt(content, 'button_reply') ??
		objectAt(interactive, 'list_reply') ??
		objectAt(content, 'list_reply');
	const suggestion = objectAt(content, 'suggested', 'response', 'reply') ?? objectAt(content, 'suggested', 'response', 'action');
	const text = typeof content.text === 'string' ? content.text : textOf(objectAt(content, 'text')?.body);
	const id = picked ? textOf(picked.payload ?? picked.id) : suggestion ? textOf(suggestion.postback_data ?? suggestion.postbackData) : null;
	const words = picked ? textOf(picked.text ?? picked.title) : suggestion ? textOf(suggestion.text) : text;
	const contact = objectAt(entry, 'contact', 'profile') ?? objectAt(entry, 'profile');
	// The live service names the person `profile_name` and puts the message replied to in `content.context`.
	return {
		id,
		text: words,
		replySid: textOf(entry.sid ?? entry.id),
		number: textOf(entry.from ?? objectAt(entry, 'message')?.from),
		name: textOf(contact?.name ?? entry.name ?? entry.profile_name),
		at: textOf(entry.timestamp),
		inReplyTo: textOf((objectAt(entry, 'context') ?? objectAt(content, 'context'))?.id),
		entry,
	};
}

/** The spec's chat-app incoming message webhook: the message, its typed part's words, who wrote it. */
export function incomingMessageItem(body: IDataObject): EventItem {
	const message = body.message as IDataObject;
	const contact = (body.contact ?? {}) as IDataObject;
	const type = String(message.type ?? '');
	const typed = (message[type] ?? {}) as IDataObject;
	return item('chatAppIncoming', 'chatapp', body, {
		messageSid: textOf(message.id),
		from: textOf(message.from),
		to: textOf(message.to),
		timestamp: textOf(message.timestamp ?? body.timestamp),
		status: 'received',
		messageType: type || null,
		text: textOf(typed.body ?? typed.text ?? typed.caption),
		replyId: textOf(typed.payload),
		inReplyTo: textOf(objectAt(message, 'context')?.id),
		contactName: textOf((contact.profile as IDataObject | undefined)?.name),
		accountSid: textOf(body.account_sid),
	});
}

/** An SMS StatusCallback, or a click-tracking callback (a form naming a click field). */
export function smsItem(body: IDataObject): EventItem {
	const isClick = Object.keys(body).some((key) => /click/i.test(key));
	return item(isClick ? 'smsClick' : 'smsStatus', 'sms', body, {
		messageSid: textOf(body.SmsSid),
		to: textOf(body.To),
		from: textOf(body.From),
		status: isClick ? 'clicked' : smsStatusOf(body.DetailedStatusCode, body.Status),
		// Form fields are text: a code of digits is the number it is on the chat-app and RCS callbacks.
		code: numericCodeOf(body.DetailedStatusCode),
		timestamp: textOf(body.DateSent ?? body.ClickedAt ?? body.Timestamp),
		customData: textOf(body.CustomField),
	});
}
