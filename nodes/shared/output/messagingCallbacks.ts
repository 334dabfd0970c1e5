// Messaging callbacks (delivery reports, replies, incoming messages) read into the package's vocabulary: the Messaging Trigger's events and what resumes a waiting send.
import type { IDataObject } from 'n8n-workflow';

import { objectOf } from '../rules/values';
import { UNKNOWN_EVENT } from '../webhooks/triggers';
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

function item(event: MessagingEvent, channel: string, entry: IDataObject, fields: Partial<EventItem>): EventItem {
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

function list(value: unknown): IDataObject[] {
	return Array.isArray(value) ? (value.filter((entry) => entry && typeof entry === 'object') as IDataObject[]) : [];
}

function channelStatusItem(event: MessagingEvent, channel: string, entry: IDataObject, extra: IDataObject = {}): EventItem {
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

/** The chat app's entries, under the reference's `chatapp` or the live service's `whatsapp`. */
function chatAppEntries(root: IDataObject): IDataObject[] {
	return [...list(objectAt(root, 'chatapp')?.messages), ...list(objectAt(root, 'whatsapp')?.messages)];
}

/** A chat-app entry that is a message from a person: `icm` (the reference) or `incoming_message` (live). */
const isIncoming = (entry: IDataObject) => entry.callback_type === 'icm' || entry.callback_type === 'incoming_message';

/**
 * One item per message of a callback body, whichever shape it is (CALLBACK_SHAPES in messagingEvents.ts declares
 * each, with the events it yields). Returns undefined when the body is not an object at all (the caller answers 400).
 */
export function eventItems(body: unknown): EventItem[] | undefined {
	const root = objectOf(body);
	if (!root) return undefined;
	const items: EventItem[] = [];

	if (root.event === 'incoming_message' && root.message && typeof root.message === 'object') {
		const message = root.message as IDataObject;
		const contact = (root.contact ?? {}) as IDataObject;
		const type = String(message.type ?? '');
		const typed = (message[type] ?? {}) as IDataObject;
		items.push(
			item('chatAppIncoming', 'chatapp', root, {
				messageSid: textOf(message.id),
				from: textOf(message.from),
				to: textOf(message.to),
				timestamp: textOf(message.timestamp ?? root.timestamp),
				status: 'received',
				messageType: type || null,
				text: textOf(typed.body ?? typed.text ?? typed.caption),
				replyId: textOf(typed.payload),
				inReplyTo: textOf(objectAt(message, 'context')?.id),
				contactName: textOf((contact.profile as IDataObject | undefined)?.name),
				accountSid: textOf(root.account_sid),
			}),
		);
		return items;
	}
	for (const entry of chatAppEntries(root)) {
		if (isIncoming(entry)) {
			// A person's message: a reply to a sent message (posted to its status callback) or one of their own.
			const [reply] = repliesIn({ chatapp: { messages: [entry] } });
			items.push(
				item('chatAppIncoming', 'chatapp', entry, {
					status: 'received',
					messageType: textOf(entry.type ?? objectAt(entry, 'content')?.type),
					text: reply.text,
					replyId: reply.id,
					inReplyTo: reply.inReplyTo,
					contactName: reply.name,
				}),
			);
		} else {
			items.push(channelStatusItem('chatAppStatus', 'chatapp', entry));
		}
	}
	if (root.rcs && typeof root.rcs === 'object') {
		for (const entry of list((root.rcs as IDataObject).messages)) {
			if (entry.callback_type === 'incoming_message') {
				const content = (entry.content ?? {}) as IDataObject;
				const [reply] = repliesIn({ rcs: { messages: [entry] } });
				items.push(
					item('rcsIncoming', 'rcs', entry, {
						status: 'received',
						messageType: textOf(content.type),
						text: reply.text,
						replyId: reply.id,
					}),
				);
			} else {
				items.push(channelStatusItem('rcsDeliveryReport', 'rcs', entry));
			}
		}
		// The SMS fallback fired: its entries describe the SMS channel of the same messages.
		for (const entry of list((root.sms as IDataObject | undefined)?.messages)) {
			items.push(channelStatusItem('rcsDeliveryReport', 'sms', entry, { fallback: true }));
		}
	}
	if (items.length > 0) return items;

	if (root.SmsSid !== undefined) {
		const isClick = Object.keys(root).some((key) => /click/i.test(key));
		items.push(
			item(isClick ? 'smsClick' : 'smsStatus', 'sms', root, {
				messageSid: textOf(root.SmsSid),
				to: textOf(root.To),
				from: textOf(root.From),
				status: isClick ? 'clicked' : smsStatusOf(root.DetailedStatusCode, root.Status),
				// Form fields are text: a code of digits is the number it is on the chat-app and RCS callbacks.
				code: numericCodeOf(root.DetailedStatusCode),
				timestamp: textOf(root.DateSent ?? root.ClickedAt ?? root.Timestamp),
				customData: textOf(root.CustomField),
			}),
		);
		return items;
	}
	return [item(UNKNOWN_EVENT, 'unknown', root, {})];
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
 * The replies in a callback body: chat-app entries (under `chatapp` or the live `whatsapp`) with
 * callback_type `icm` or `incoming_message`, RCS entries with `incoming_message`. The spec does not show a reply's type objects, so every shape the service's
 * chat-app and RCS payloads use is read: a tapped button (`button.payload`, or
 * `interactive.button_reply.id`), a list row (`list_reply.id`), text (`text.body`, RCS `content.text`),
 * an RCS suggestion (`content.suggested.response.reply|action`, its `postback_data`).
 */
export function repliesIn(body: IDataObject): Answer[] {
	const answers: Answer[] = [];
	const chatApp = chatAppEntries(body).filter(isIncoming);
	const rcs = list(objectAt(body, 'rcs')?.messages).filter((entry) => entry.callback_type === 'incoming_message' || entry.callback_type === 'icm');
	for (const entry of [...chatApp, ...rcs]) {
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
		answers.push({
			id,
			text: words,
			replySid: textOf(entry.sid ?? entry.id),
			number: textOf(entry.from ?? objectAt(entry, 'message')?.from),
			name: textOf(contact?.name ?? entry.name ?? entry.profile_name),
			at: textOf(entry.timestamp),
			inReplyTo: textOf((objectAt(entry, 'context') ?? objectAt(content, 'context'))?.id),
			entry,
		});
	}
	return answers;
}
