/**
 * Chat-app callbacks (signed by default): the status reports of an accepted chat-app message
 * (sent, delivered, seen; or sent, failed), and an incoming message or a status callback on demand.
 * In live mode they take the live service's WhatsApp shapes (`{whatsapp: {messages: [...]}}`; liveMessages)
 * and go unsigned (the dispatcher).
 */
import { createHash } from 'crypto';

import { chatAppDeliveryFails, SANDBOX_CHATAPP_BUSINESS_NUMBER, SANDBOX_CHATAPP_CUSTOMER } from '../fixtures';
import type { StoredChatAppMessage } from '../stored';
import { hex, inputObject, isoWithOffset, jsonPost, latest, optString, overlay, payloadOption, signatureOption, type Obj } from './payload';
import { CALLBACK_TIMING, CallbackInputError, type DeliveryRequest, type PayloadContext, type ScheduledReport } from './types';

/** From the service's public exo_status_code list (service-facts.md). */
export const CHATAPP_STATUS_CODES: Readonly<Record<number, string>> = {
	30001: 'EX_MESSAGE_SENT',
	30002: 'EX_MESSAGE_DELIVERED',
	30003: 'EX_MESSAGE_SEEN',
	30004: 'EX_SYSTEM_ERROR',
	30005: 'NUMBER_ERROR',
	30006: 'SETUP_ERROR',
	30007: 'RATE_LIMIT_HIT',
	30008: 'SPAM_RATE_LIMIT_HIT',
	30009: 'TOO_MANY_REQUEST',
	30010: 'INVALID_REQUEST',
	30011: 'UNKNOWN_ERROR',
	30012: 'INVALID_RECIPIENT',
	30013: 'INCAPABLE_RECIPIENT',
	30014: 'RECIPIENT_BLOCKED',
	30015: 'UNSUPPORTED_MESSAGE',
	30016: 'MEDIA_DOWNLOAD_ERROR',
	30017: 'MEDIA_UPLOAD_ERROR',
	30018: 'REENGAGEMENT_ERROR',
	30019: 'INVALID_PARAM',
	30020: 'MISSING_PARAM',
};

const CHATAPP_DESCRIPTIONS: Readonly<Record<number, string>> = {
	30001: 'Message sent to the user',
	30002: 'Message delivered to the user',
	30003: 'Message seen by the user',
	30004: 'Delivery failed (system error)',
};

/** Live mode's descriptions (the live service's: "Message Sent"); the others as the spec mode's. */
const LIVE_DESCRIPTIONS: Readonly<Record<number, string>> = {
	30001: 'Message Sent',
	30002: 'Message Delivered',
	30003: 'Message Seen',
};

/**
 * Live mode: the codes whose `exo_status_code` the scheduled reports send as a string (`"30003"`): the
 * live service's type varies between reports, so a receiver must take both.
 */
export const LIVE_STRING_CODES: readonly number[] = [30003];

/** The body of a chat-app callback: `{chatapp: {messages}}` (spec), `{whatsapp: {messages}}` in live mode. */
function envelope(entries: Obj[], live: boolean): Obj {
	return { [live ? 'whatsapp' : 'chatapp']: { messages: entries } };
}

/**
 * Live mode: a WhatsApp incoming message entry, `{callback_type: 'incoming_message', sid, from, to,
 * timestamp, profile_name, content}` (`content` `{type, <type>, context?}`; person.ts builds replies with it).
 */
export function liveIncomingEntry(args: { sid: string; from: string; to: string; timestamp: string; name: string; content: Obj }): Obj {
	return {
		callback_type: 'incoming_message',
		sid: args.sid,
		from: args.from,
		to: args.to,
		timestamp: args.timestamp,
		profile_name: args.name,
		content: args.content,
	};
}

// ---------------------------------------------------------------- incoming messages

export const CHATAPP_INCOMING_TYPES = [
	'text',
	'image',
	'video',
	'audio',
	'document',
	'location',
	'contacts',
	'sticker',
	'button',
	'list_reply',
	'order',
] as const;

export type ChatAppIncomingType = (typeof CHATAPP_INCOMING_TYPES)[number];

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/** Default type objects; the spec shows text, image, location and button, the others are the sandbox's choice. */
function chatAppTypeDefaults(type: ChatAppIncomingType): unknown {
	const mediaId = hex(16);
	switch (type) {
		case 'text':
			return { body: 'Hello from the sandbox' };
		case 'image':
			return { id: mediaId, mime_type: 'image/jpeg', sha256: sha256Of(mediaId), caption: 'Sandbox image' };
		case 'video':
			return { id: mediaId, mime_type: 'video/mp4', sha256: sha256Of(mediaId), caption: 'Sandbox video' };
		case 'audio':
			return { id: mediaId, mime_type: 'audio/ogg; codecs=opus', sha256: sha256Of(mediaId), voice: true };
		case 'document':
			return {
				id: mediaId,
				mime_type: 'application/pdf',
				sha256: sha256Of(mediaId),
				filename: 'invoice.pdf',
				caption: 'Sandbox document',
			};
		case 'sticker':
			return { id: mediaId, mime_type: 'image/webp', sha256: sha256Of(mediaId), animated: false };
		case 'location':
			return { latitude: 12.9716, longitude: 77.5946, name: 'Sandbox office', address: 'MG Road, Bengaluru 560001' };
		case 'contacts':
			return [
				{
					name: { formatted_name: 'Asha Rao', first_name: 'Asha', last_name: 'Rao' },
					phones: [{ phone: '+919812300001', wa_id: '919812300001', type: 'MOBILE' }],
					emails: [{ email: 'asha.rao@example.invalid', type: 'WORK' }],
					org: { company: 'Sandbox Traders', title: 'Buyer' },
				},
			];
		case 'button':
			return { text: 'Yes', payload: 'CONFIRM_YES' };
		case 'list_reply':
			return { id: 'row-1', title: 'Tomorrow 10-12', description: 'Morning slot' };
		case 'order':
			return {
				catalog_id: 'sandbox-catalog-1',
				text: 'Please deliver before 6 pm',
				product_items: [{ product_retailer_id: 'SKU-1001', quantity: 2, item_price: 249.5, currency: 'INR' }],
			};
	}
}

/** Types that carry `context {from, id}` (the message replied to) by default. */
const CHATAPP_CONTEXT_TYPES: readonly string[] = ['button', 'list_reply'];

/** An incoming message as read from the input, before it takes the live or the spec form. */
interface Incoming {
	type: string;
	typeObject: unknown;
	from: string;
	to: string;
	timestamp: string;
	/** the message replied to, when the message carries one */
	context?: unknown;
}

/** The live service's form: a `whatsapp` envelope; a list row is an interactive reply, the other types keep their objects. */
function liveIncomingBody(input: Obj, m: Incoming): unknown {
	const content: Obj =
		m.type === 'list_reply' ? { type: 'interactive', interactive: { type: 'list_reply', list_reply: m.typeObject } } : { type: m.type, [m.type]: m.typeObject };
	if (m.context !== undefined) content.context = m.context;
	const entry = liveIncomingEntry({
		sid: optString(input, 'id') ?? hex(32),
		from: m.from,
		to: m.to,
		timestamp: m.timestamp,
		name: optString(input, 'name') ?? 'Sandbox User',
		content,
	});
	return envelope([entry], true);
}

/** The spec's form: `{event: 'incoming_message', timestamp, account_sid, message, contact}`. */
function specIncomingBody(input: Obj, accountSid: string, m: Incoming): unknown {
	const message: Obj = { id: optString(input, 'id') ?? hex(32), from: m.from, to: m.to, timestamp: m.timestamp, type: m.type, [m.type]: m.typeObject };
	if (m.context !== undefined) message.context = m.context;
	return {
		event: 'incoming_message',
		timestamp: m.timestamp,
		account_sid: accountSid,
		message,
		contact: { wa_id: m.from.replace(/^\+/, ''), profile: { name: optString(input, 'name') ?? 'Sandbox User' } },
	};
}

/**
 * A signed chat-app incoming message to the configured `incoming_message_url` (or `url`).
 * Input: `{type, from?, to?, name?, id?, timestamp?, <type>?: object (merged over the default),
 * context?: {from?, id?} | null, payload?: complete body, url?, signature?}`.
 */
export function chatAppIncomingRequest(raw: unknown, ctx: PayloadContext): DeliveryRequest {
	const input = inputObject(raw);
	const url = optString(input, 'url') ?? ctx.state.chatAppWebhook?.incoming_message_url;
	if (!url) {
		throw new CallbackInputError(
			`no incoming_message_url is configured (PUT /v2/accounts/<sid>/${ctx.state.live ? 'whatsapp' : 'chatapp'}/webhook) and no url was given`,
		);
	}
	const signature = signatureOption(input);
	const custom = payloadOption(input);
	if (custom) {
		return { url, kind: 'chatapp-incoming', ...custom, contentType: 'application/json', signByDefault: true, signature };
	}
	const type = input.type;
	if (typeof type !== 'string' || !(CHATAPP_INCOMING_TYPES as readonly string[]).includes(type)) {
		throw new CallbackInputError(`type must be one of: ${CHATAPP_INCOMING_TYPES.join(', ')} (or give payload, a complete body)`);
	}
	const from = optString(input, 'from') ?? SANDBOX_CHATAPP_CUSTOMER;
	const replyTo = latest(ctx.state.chatAppMessages.values(), (m) => m.to === from);
	const to = optString(input, 'to') ?? replyTo?.from ?? SANDBOX_CHATAPP_BUSINESS_NUMBER;
	const timestamp = optString(input, 'timestamp') ?? isoWithOffset(new Date());
	// `text: 'hi'` is read as `text: {body: 'hi'}`.
	const given = type === 'text' && typeof input.text === 'string' ? { body: input.text } : input[type];
	const typeObject = overlay(chatAppTypeDefaults(type as ChatAppIncomingType), given);
	const contextGiven = input.context;
	const withContext = contextGiven !== null && (contextGiven !== undefined || CHATAPP_CONTEXT_TYPES.includes(type));
	const context = withContext ? overlay({ from: to, id: replyTo?.sid ?? hex(32) }, contextGiven) : undefined;
	const incoming: Incoming = { type, typeObject, from, to, timestamp, context };
	const body = ctx.state.live ? liveIncomingBody(input, incoming) : specIncomingBody(input, ctx.accountSid, incoming);
	return jsonPost(url, 'chatapp-incoming', body, true, { signature });
}

// ---------------------------------------------------------------- status callbacks

function statusEntry(args: {
	sid: string;
	to: string;
	code: number;
	name?: string;
	description?: string;
	customData?: string;
	callbackType?: string;
	timestamp?: string;
	/** live mode: the live descriptions, and `exo_status_code` a string for LIVE_STRING_CODES when `varyCodeType` */
	live?: boolean;
	varyCodeType?: boolean;
}): Obj {
	const descriptions = args.live ? { ...CHATAPP_DESCRIPTIONS, ...LIVE_DESCRIPTIONS } : CHATAPP_DESCRIPTIONS;
	const entry: Obj = {
		callback_type: args.callbackType ?? 'dlr',
		sid: args.sid,
		to: args.to,
		exo_status_code: args.live && args.varyCodeType && LIVE_STRING_CODES.includes(args.code) ? String(args.code) : args.code,
		exo_detailed_status: args.name ?? CHATAPP_STATUS_CODES[args.code] ?? 'UNKNOWN_ERROR',
		description: args.description ?? descriptions[args.code] ?? `Status ${args.code}`,
		timestamp: args.timestamp ?? isoWithOffset(),
	};
	if (args.customData !== undefined) entry.custom_data = args.customData;
	return entry;
}

/** The status reports of an accepted chat-app message, to its status_callback or else the configured one. */
export function chatAppStatusReports(message: StoredChatAppMessage, ctx: PayloadContext): ScheduledReport[] {
	const url = message.statusCallback ?? ctx.state.chatAppWebhook?.status_callback_url;
	if (!url) return [];
	const codes = chatAppDeliveryFails(message.to) ? [30001, 30004] : [30001, 30002, 30003];
	const delays = [CALLBACK_TIMING.sentMs, CALLBACK_TIMING.deliveredMs, CALLBACK_TIMING.seenMs];
	return codes.map((code, i) => ({
		delayMs: delays[i],
		make: () => {
			// the mode when it is posted
			const live = ctx.state.live;
			const entry = statusEntry({ sid: message.sid, to: message.to, code, customData: message.customData, live, varyCodeType: true });
			return jsonPost(url, 'chatapp-status', envelope([entry], live), true, { messageSid: message.sid });
		},
	}));
}

/**
 * A signed chat-app status callback. Input: `{url?, sid?, to?, exo_status_code? (30002),
 * exo_detailed_status?, description?, custom_data?, callback_type? ('dlr'), timestamp?, payload?, signature?}`.
 * `url` defaults to the message's status_callback (when `sid` is a sent chat-app message), else
 * the configured status_callback_url.
 */
export function chatAppStatusRequest(raw: unknown, ctx: PayloadContext): DeliveryRequest {
	const input = inputObject(raw);
	const sid = optString(input, 'sid');
	const stored = sid ? ctx.state.chatAppMessages.get(sid) : undefined;
	const url =
		optString(input, 'url') ?? stored?.statusCallback ?? ctx.state.chatAppWebhook?.status_callback_url;
	if (!url) throw new CallbackInputError('url is required (no status_callback_url is configured)');
	const signature = signatureOption(input);
	const custom = payloadOption(input);
	if (custom) {
		return { url, kind: 'chatapp-status', ...custom, contentType: 'application/json', signByDefault: true, signature, messageSid: sid };
	}
	const codeIn = input.exo_status_code;
	if (codeIn !== undefined && (typeof codeIn !== 'number' || !Number.isInteger(codeIn))) {
		throw new CallbackInputError('exo_status_code must be an integer');
	}
	const code = (codeIn as number | undefined) ?? 30002;
	const entry = statusEntry({
		sid: sid ?? hex(32),
		to: optString(input, 'to') ?? stored?.to ?? SANDBOX_CHATAPP_CUSTOMER,
		code,
		name: optString(input, 'exo_detailed_status'),
		description: optString(input, 'description'),
		customData: input.custom_data !== undefined ? String(input.custom_data) : stored?.customData,
		callbackType: optString(input, 'callback_type'),
		timestamp: optString(input, 'timestamp'),
		live: ctx.state.live,
	});
	return jsonPost(url, 'chatapp-status', envelope([entry], ctx.state.live), true, { signature, messageSid: sid });
}
