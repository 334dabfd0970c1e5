// Every callback the package receives, declared once, as each node declares its requests in its endpoints.ts: how a
// body is recognised, where it is posted, whether the service signs it, the events it yields and how it is read into
// items. The triggers and the waits ask callbackOf once per body (docs/development.md, "Adding a callback shape").
import type { IDataObject } from 'n8n-workflow';

import { nestBracketKeys } from '../webhooks/respond';
import { UNKNOWN_EVENT } from '../webhooks/triggers';
import { answerOf, channelStatusItem, incomingMessageItem, item, objectAt, smsItem, type Answer, type EventItem } from './messagingCallbacks';
import { callStatusItem, campaignCallItem, managementCallItem, textOf, type Channel } from './vocabulary';

/** Where the package has the service post a callback: a trigger's URL, or a waiting operation's resume URL. */
export type Receiver = 'messagingTrigger' | 'voiceTrigger' | 'wait';

/** One message of a body: an entry of an envelope's `messages` (its channel named), or the whole body. */
export interface CallbackMessage {
	readonly message: IDataObject;
	/** An envelope entry's channel: `sms` for the SMS fallback's entries of an RCS body. */
	readonly channel?: Channel;
}

/** One body the service posts, as the package recognises and reads it. */
export interface CallbackDeclaration {
	/** Where it is posted. The Messaging Trigger and the waits hold the one credential, and so share its signing rule. */
	readonly postedTo: readonly Receiver[];
	/**
	 * Whether a body (its bracket keys nested) is of this shape. An unsigned shape's holds only for a body wholly
	 * of it, so no chat-app payload rides along unsigned; a signed shape's may hold for more (a chat-app payload
	 * beside an RCS one is still signed). So no body is of a signed shape and an unsigned one at once.
	 */
	readonly is: (body: IDataObject) => boolean;
	/** Whether a body carries it beside fields it does not have: read as it, though never taken unsigned. `is` if not given. */
	readonly carries?: (body: IDataObject) => boolean;
	/**
	 * Where a body carries its messages (`<key>.messages[]`, read from any body that has some) and their channel;
	 * `fallback` is the key, and channel, of the SMS sent where the message could not go. None: the body is the message.
	 */
	readonly envelope?: { readonly key: string; readonly channel: Channel; readonly fallback?: Channel };
	/** Whether the trigger's URL may name it (`?callback=`): the service's campaign callbacks do not say which they are. */
	readonly named?: boolean;
	/**
	 * `signed`: per the spec, chat-app webhooks carry X-Service-Signature, so with a signing secret an unsigned one is
	 * refused. `unsigned`: the service posts it without one, so it passes whatever the secret.
	 */
	readonly signing: 'signed' | 'unsigned';
	/** The events its items are, at the trigger it is posted to. */
	readonly events: readonly string[];
	/** One message as an item of that trigger: the vocabulary's keys first, the message under `raw`. */
	readonly read: (entry: CallbackMessage) => IDataObject;
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isRecord = (value: unknown): value is IDataObject => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
const isFlatObject = (value: unknown) => isRecord(value) && Object.values(value).every(isScalar);
/** A form's fields, each flat but for `list`, a list of flat objects (a call's `Legs`). */
const isFlatForm = (body: IDataObject, list?: string) =>
	Object.entries(body).every(([key, value]) => isScalar(value) || (key === list && Array.isArray(value) && value.every(isFlatObject)));

/** A person's message in a chat-app or RCS envelope: `icm` (the reference) or `incoming_message` (live, and RCS). */
const PERSON_MESSAGE: readonly unknown[] = ['icm', 'incoming_message'];
const isPersonMessage = (entry: IDataObject) => PERSON_MESSAGE.includes(entry.callback_type);

/** A chat-app entry: a person's message (a reply posted to a sent message's status callback, or one of their own), else a report. */
function chatAppEntryItem({ message }: CallbackMessage): EventItem {
	if (!isPersonMessage(message)) return channelStatusItem('chatAppStatus', 'chatapp', message);
	const answer = answerOf(message);
	return item('chatAppIncoming', 'chatapp', message, {
		status: 'received',
		messageType: textOf(message.type ?? objectAt(message, 'content')?.type),
		text: answer.text,
		replyId: answer.id,
		inReplyTo: answer.inReplyTo,
		contactName: answer.name,
	});
}

/** An RCS entry: a person's message, else a delivery report; the SMS fallback's entries report the SMS channel of the same messages. */
function rcsEntryItem({ message, channel }: CallbackMessage): EventItem {
	if (channel === 'sms') return channelStatusItem('rcsDeliveryReport', 'sms', message, { fallback: true });
	// Only `incoming_message` starts rcsIncoming, as it always has; a wait takes an RCS `icm` as a reply too.
	if (message.callback_type !== 'incoming_message') return channelStatusItem('rcsDeliveryReport', 'rcs', message);
	const answer = answerOf(message);
	return item('rcsIncoming', 'rcs', message, { status: 'received', messageType: textOf(objectAt(message, 'content')?.type), text: answer.text, replyId: answer.id });
}

/** The chat app's status callback in one of its two envelopes: the same shape, signed, read alike. */
const chatAppStatusCallback = (key: 'chatapp' | 'whatsapp') =>
	({
		postedTo: ['messagingTrigger', 'wait'],
		is: (body: IDataObject) => isRecord(body[key]),
		envelope: { key, channel: 'chatapp' },
		signing: 'signed',
		events: ['chatAppStatus', 'chatAppIncoming'],
		read: chatAppEntryItem,
	}) as const;

/** A Voice Trigger item: its event, then the call vocabulary of the payload. */
const voiceItem =
	(event: string, read: (payload: IDataObject) => IDataObject) =>
	({ message }: CallbackMessage): IDataObject => ({ event, ...read(message) });

/** The callback bodies the package reads, in the order they are looked for (a receiver looks only at those posted to it). */
export const CALLBACKS = {
	/** The spec's chat-app incoming message webhook: `event: incoming_message` with a `message` object. Registered account-wide. */
	chatAppIncomingMessage: {
		postedTo: ['messagingTrigger'],
		is: (body) => body.event === 'incoming_message' && Boolean(body.message) && typeof body.message === 'object',
		signing: 'signed',
		events: ['chatAppIncoming'],
		read: ({ message }) => incomingMessageItem(message),
	},
	/** The spec's chat-app status callback, `chatapp.messages[]`: delivery reports (`dlr`) and replies (`icm`). */
	chatapp: chatAppStatusCallback('chatapp'),
	/**
	 * The live service's WhatsApp envelope of the same, `whatsapp.messages[]` (replies `incoming_message`). A chat-app
	 * payload, so signed per the spec; the live service is not known to sign, so its users leave the secret empty.
	 */
	whatsapp: chatAppStatusCallback('whatsapp'),
	/** RCS delivery reports and incoming messages, `rcs.messages[]`, and `sms.messages[]` when the SMS fallback fired. */
	rcs: {
		postedTo: ['messagingTrigger', 'wait'],
		is: (body) => isRecord(body.rcs) && Object.keys(body).every((key) => (key === 'rcs' || key === 'sms') && isRecord(body[key])),
		envelope: { key: 'rcs', channel: 'rcs', fallback: 'sms' },
		signing: 'unsigned',
		events: ['rcsDeliveryReport', 'rcsIncoming'],
		read: rcsEntryItem,
	},
	/** An SMS StatusCallback or click-tracking callback: a form with `SmsSid`, flat fields only (a click names a click field). */
	sms: {
		postedTo: ['messagingTrigger', 'wait'],
		is: (body) => body.SmsSid !== undefined && isFlatForm(body),
		carries: (body) => body.SmsSid !== undefined,
		signing: 'unsigned',
		events: ['smsStatus', 'smsClick'],
		read: ({ message }) => smsItem(message),
	},
	/** A v1 call status callback: a form with `CallSid`, its `Legs` a list of flat objects. A call wait reads it too. */
	call: {
		postedTo: ['voiceTrigger', 'wait'],
		is: (body) => body.CallSid !== undefined && isFlatForm(body, 'Legs'),
		carries: (body) => body.CallSid !== undefined,
		signing: 'unsigned',
		events: ['callStatus'],
		read: voiceItem('callStatus', callStatusItem),
	},
	/** The contact-center management API's call status callback: `call_sid` and `event_type`, no campaign. */
	callStatusManagement: {
		postedTo: ['voiceTrigger'],
		is: (body) => body.call_sid !== undefined && body.event_type !== undefined && body.campaign_sid === undefined,
		signing: 'unsigned',
		events: ['callStatusManagement'],
		read: voiceItem('callStatusManagement', managementCallItem),
	},
	/** A campaign's status callback (its `status_callback`): the campaign's `call_sids`, or no one call. */
	campaignStatus: {
		postedTo: ['voiceTrigger'],
		named: true,
		is: (body) => body.campaign_sid !== undefined && (Array.isArray(body.call_sids) || body.call_sid === undefined),
		signing: 'unsigned',
		events: ['campaignStatus'],
		read: voiceItem('campaignStatus', campaignCallItem),
	},
	/** The status of one call of a campaign (its `call_status_callback`): a `call_sid`. */
	campaignCallStatus: {
		postedTo: ['voiceTrigger'],
		named: true,
		is: (body) => body.campaign_sid !== undefined && !Array.isArray(body.call_sids) && body.call_sid !== undefined,
		signing: 'unsigned',
		events: ['campaignCallStatus'],
		read: voiceItem('campaignCallStatus', campaignCallItem),
	},
	/** A campaign call that finished all its retries (its `call_schedule_callback`): a call's status, so known by the URL's name alone. */
	campaignCallSchedule: {
		postedTo: ['voiceTrigger'],
		named: true,
		is: () => false,
		signing: 'unsigned',
		events: ['campaignCallSchedule'],
		read: voiceItem('campaignCallSchedule', campaignCallItem),
	},
} as const satisfies Record<string, CallbackDeclaration>;

export type CallbackShape = keyof typeof CALLBACKS;

/** The shapes posted to any of `Where`. */
type PostedTo<Where extends Receiver> = {
	[Shape in CallbackShape]: [Extract<(typeof CALLBACKS)[Shape]['postedTo'][number], Where>] extends [never] ? never : Shape;
}[CallbackShape];

/** The shapes posted where the credential's signing secret applies: the Messaging Trigger and the waits. */
export type MessagingShape = PostedTo<'messagingTrigger' | 'wait'>;

/** The Voice Trigger's shapes, and its events. */
export type VoiceShape = PostedTo<'voiceTrigger'>;
export type VoiceEvent = (typeof CALLBACKS)[VoiceShape]['events'][number];

/** The shapes the service posts unsigned where the signing secret applies: the signature check's unsigned families. */
export type UnsignedFamily = { [Shape in MessagingShape]: (typeof CALLBACKS)[Shape]['signing'] extends 'unsigned' ? Shape : never }[MessagingShape];

const SHAPES = Object.keys(CALLBACKS) as CallbackShape[];
/** A shape's declaration, as the interface reads (one type for every shape). */
const declared = (shape: CallbackShape): CallbackDeclaration => CALLBACKS[shape];
/** Where the credential's signing secret applies: the receivers that hold the credential. */
const SIGNING_RECEIVERS: readonly Receiver[] = ['messagingTrigger', 'wait'];

/**
 * The shapes posted where the credential's signing secret applies, each with its events at the Messaging Trigger (a
 * call's are the Voice Trigger's, so none here): what a body there wholly is, and where the messaging events come from.
 */
export const MESSAGING_SHAPES = Object.fromEntries(
	SHAPES.filter((shape) => declared(shape).postedTo.some((to) => SIGNING_RECEIVERS.includes(to))).map((shape) => {
		const declaration = declared(shape);
		return [shape, { ...declaration, events: declaration.postedTo.includes('messagingTrigger') ? declaration.events : [] }];
	}),
) as Record<MessagingShape, CallbackDeclaration>;

/** The first shape posted where the signing secret applies that a body (bracket keys nested) is, or undefined. */
export function shapeOf(body: IDataObject): MessagingShape | undefined {
	return (Object.keys(MESSAGING_SHAPES) as MessagingShape[]).find((shape) => MESSAGING_SHAPES[shape].is(body));
}

/**
 * Which unsigned shape a body wholly is, or undefined when it is anything else (a chat-app payload, a mix, an
 * unknown shape): only such a body may come without a signature when the credential has a signing secret.
 */
export function unsignedFamilyOf(body: IDataObject): UnsignedFamily | undefined {
	const shape = shapeOf(body);
	return shape !== undefined && CALLBACKS[shape].signing === 'unsigned' ? (shape as UnsignedFamily) : undefined;
}

/** One message of a callback, with the shape that reads it. */
export interface CallbackEntry extends CallbackMessage {
	readonly shape: CallbackShape;
}

/** A body as a receiver reads it. */
export interface Callback<At extends Receiver = Receiver> {
	readonly at: At;
	/** The body, its bracket keys nested. */
	readonly body: IDataObject;
	/** Its messages, each with the shape that reads it; none when no shape posted here has one in it. */
	readonly entries: readonly CallbackEntry[];
	/** The unsigned shape the body wholly is (`unsignedFamilyOf`): only then may it come without a signature. */
	readonly unsigned: UnsignedFamily | undefined;
}

function envelopeEntries(shape: CallbackShape, body: IDataObject): CallbackEntry[] {
	const { envelope } = declared(shape);
	const holder = envelope && objectAt(body, envelope.key);
	if (!envelope || !holder) return [];
	const messages = (value: unknown) => (Array.isArray(value) ? (value.filter((entry) => entry && typeof entry === 'object') as IDataObject[]) : []);
	const fallback = envelope.fallback;
	return [
		...messages(holder.messages).map((message) => ({ shape, channel: envelope.channel, message })),
		...(fallback ? messages(objectAt(body, fallback)?.messages).map((message) => ({ shape, channel: fallback, message })) : []),
	];
}

/** A shape's messages in a body: its envelope's entries, or the body itself when the shape carries it (or the URL names it). */
function messagesOf(shape: CallbackShape, body: IDataObject, named: string | undefined): CallbackEntry[] {
	const { envelope, carries, is } = declared(shape);
	if (envelope) return envelopeEntries(shape, body);
	const nameable = declared(shape).named === true && SHAPES.some((other) => other === named && declared(other).named);
	return (nameable ? shape === named : (carries ?? is)(body)) ? [{ shape, message: body }] : [];
}

/**
 * What a receiver makes of a body (an object: a trigger answers anything else 400). Its messages are those of the first
 * shape posted there that has any in it, a shape the trigger URL names (`named`, `?callback=`) going first among those
 * it may name; a body carrying envelopes is read whole, envelope by envelope (a chat-app payload beside an RCS one).
 */
export function callbackOf<At extends Receiver>(received: IDataObject, at: At, named?: string): Callback<At> {
	const body = nestBracketKeys(received);
	const posted = SHAPES.filter((shape) => declared(shape).postedTo.includes(at));
	let entries: CallbackEntry[] = [];
	for (const shape of posted) {
		entries = messagesOf(shape, body, named);
		if (entries.length > 0) break;
	}
	if (entries.length > 0 && declared(entries[0].shape).envelope) entries = posted.flatMap((shape) => envelopeEntries(shape, body));
	return { at, body, entries, unsigned: unsignedFamilyOf(body) };
}

/** What a trigger makes of a body no shape posted to it describes: the body whole, as an unrecognised payload. */
const UNRECOGNISED: Record<Exclude<Receiver, 'wait'>, (body: IDataObject) => IDataObject> = {
	messagingTrigger: (body) => item(UNKNOWN_EVENT, 'unknown', body, {}),
	voiceTrigger: (body) => ({ event: UNKNOWN_EVENT, ...campaignCallItem(body) }),
};

/** A callback's items: one per message, read by its shape; at a trigger, a body with none is passed on whole. */
export function callbackItems(callback: Callback<'messagingTrigger'>): EventItem[];
export function callbackItems(callback: Callback): IDataObject[];
export function callbackItems(callback: Callback): IDataObject[] {
	if (callback.entries.length > 0) return callback.entries.map((entry) => declared(entry.shape).read(entry));
	return callback.at === 'wait' ? [] : [UNRECOGNISED[callback.at](callback.body)];
}

/** What people answered in a callback: its entries of `channel` that are a person's message. */
export function repliesOf(callback: Callback, channel: 'chatapp' | 'rcs'): Answer[] {
	return callback.entries.filter((entry) => entry.channel === channel && isPersonMessage(entry.message)).map((entry) => answerOf(entry.message));
}
