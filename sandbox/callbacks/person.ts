/**
 * Acting as the person a message was sent to: a reply to a sent chat-app or RCS message, posted to
 * that message's callback URL (where the service routes a reply, messaging.md), and the choice of
 * the link of a sent SMS that a person (or a link-preview bot) opens (browser.ts opens it).
 */
import { linksIn } from '../links';
import type { StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from '../stored';
import { liveIncomingEntry } from './chat-app';
import { hex, inputObject, isObj, isoWithOffset, jsonPost, latest, optString, signatureOption, type Obj } from './payload';
import { rcsIncomingRequest } from './rcs';
import { CallbackInputError, type DeliveryRequest, type PayloadContext } from './types';

const digitsOf = (number: string) => number.replace(/\D/g, '');

/** `2026-11-27 07:31:05 UTC` */
function readableTime(ms: number): string {
	return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/**
 * Why nothing of a kind was sent to `to`, as far as the sandbox can tell: since when it has records
 * and why they begin there (a restart without a state file, a reset), where what it did send went,
 * and `hint` (the other kind of message, which is answered another way).
 */
function nothingSentTo(what: string, whats: string, to: string, ctx: PayloadContext, sentTo: Iterable<string>, hint?: string): CallbackInputError {
	const { since, why } = ctx.state.records;
	const numbers = [...new Set(sentTo)];
	const listed = numbers.slice(0, 5).join(', ') + (numbers.length > 5 ? ` and ${numbers.length - 5} more` : '');
	const went = numbers.length ? `; in that time it sent ${whats} to ${listed}` : `; it has sent no ${what} in that time`;
	return new CallbackInputError(
		`no ${what} was sent to ${to}: the sandbox has no record of one since ${readableTime(since)} (${why})${went}${hint ? `; ${hint}` : ''}`,
	);
}

/** Numbers compared by their digits (`+91 98123 40001` is `919812340001`). */
export function sameNumber(a: string, b: string): boolean {
	const left = digitsOf(a);
	return left !== '' && left === digitsOf(b);
}

// ---------------------------------------------------------------- replies

export const REPLY_ANSWERS = ['button', 'listRow', 'text', 'suggestion'] as const;

type SentMessage = { channel: 'chatapp'; message: StoredChatAppMessage } | { channel: 'rcs'; message: StoredRcsMessage };

/** The message answered: `sid` (chat app, then RCS), else the latest chat-app or RCS message sent to `to`. */
function sentMessage(input: Obj, ctx: PayloadContext): SentMessage {
	const sid = optString(input, 'sid');
	if (sid !== undefined) {
		const chat = ctx.state.chatAppMessages.get(sid);
		if (chat) return { channel: 'chatapp', message: chat };
		const rcs = ctx.state.rcsMessages.get(sid);
		if (rcs) return { channel: 'rcs', message: rcs };
		const hint = ctx.state.smsMessages.has(sid) ? ' (it is an SMS: a person answers an SMS by opening its link, see openLink)' : '';
		throw new CallbackInputError(`no chat-app or RCS message has sid '${sid}'${hint}`);
	}
	const to = optString(input, 'to');
	if (to === undefined) throw new CallbackInputError('sid or to is required (the sent message that is answered)');
	const chat = latest(ctx.state.chatAppMessages.values(), (m) => sameNumber(m.to, to));
	const rcs = latest(ctx.state.rcsMessages.values(), (m) => sameNumber(m.to, to));
	// One request carries one channel, so request ids tell which was sent last.
	if (chat && (!rcs || chat.requestId > rcs.requestId)) return { channel: 'chatapp', message: chat };
	if (rcs) return { channel: 'rcs', message: rcs };
	const sms = latest(ctx.state.smsMessages.values(), (m) => sameNumber(m.to, to));
	const recipients = [...ctx.state.chatAppMessages.values(), ...ctx.state.rcsMessages.values()].map((m) => m.to);
	throw nothingSentTo('chat-app or RCS message', 'chat-app or RCS messages', to, ctx, recipients, sms && `an SMS was sent to it (${sms.sid}): a person answers an SMS by opening its link (open-link)`);
}

/** Which one of button, listRow, text, suggestion the input gives (exactly one). */
function answerKind(input: Obj): (typeof REPLY_ANSWERS)[number] {
	const given = REPLY_ANSWERS.filter((key) => input[key] !== undefined);
	if (given.length !== 1) {
		throw new CallbackInputError(
			`give exactly one of: ${REPLY_ANSWERS.join(', ')} (got ${given.length ? given.join(', ') : 'none'})`,
		);
	}
	return given[0];
}

interface Choice {
	id: string;
	title: string;
	description?: string;
}

function objectsAt(value: unknown, key: string): Obj[] {
	const list = isObj(value) ? value[key] : undefined;
	return Array.isArray(list) ? list.filter(isObj) : [];
}

/** The reply buttons and the list rows of a sent chat-app message (none unless interactive). */
function choicesOf(m: StoredChatAppMessage): { buttons: Choice[]; rows: Choice[] } {
	const interactive = m.content.interactive;
	const action = isObj(interactive) ? interactive.action : undefined;
	const buttons = objectsAt(action, 'buttons')
		.map((button) => button.reply)
		.filter(isObj)
		.map((reply) => ({ id: String(reply.id), title: String(reply.title) }));
	const rows: Choice[] = [];
	for (const section of objectsAt(action, 'sections')) {
		for (const row of objectsAt(section, 'rows')) {
			const choice: Choice = { id: String(row.id), title: String(row.title) };
			if (typeof row.description === 'string') choice.description = row.description;
			rows.push(choice);
		}
	}
	return { buttons, rows };
}

function describeChatApp(m: StoredChatAppMessage): string {
	return m.contentType === 'interactive' ? `an interactive ${m.interactiveType} message` : `a ${m.contentType} message`;
}

function pickChoice(m: StoredChatAppMessage, key: 'button' | 'listRow', id: string): Choice {
	const { buttons, rows } = choicesOf(m);
	const [own, other] = key === 'button' ? [buttons, rows] : [rows, buttons];
	const found = own.find((choice) => choice.id === id);
	if (found) return found;
	const what = key === 'button' ? 'reply button' : 'list row';
	const ids = (list: Choice[]) => list.map((choice) => `'${choice.id}'`).join(', ');
	let detail = own.length
		? `its ${what} ids are: ${ids(own)}`
		: `it has no ${what}s (it is ${describeChatApp(m)})`;
	if (other.length) detail += `; its ${key === 'button' ? 'list row' : 'reply button'} ids are ${ids(other)} (use ${key === 'button' ? 'listRow' : 'button'})`;
	throw new CallbackInputError(`${key} '${id}' is not a ${what} of message ${m.sid}: ${detail}`);
}

function replyFrom(input: Obj, recipient: string): string {
	return optString(input, 'from') ?? recipient;
}

/** A signed `icm` entry to the chat-app message's status_callback (else the configured status_callback_url). */
function chatAppReply(input: Obj, m: StoredChatAppMessage, kind: (typeof REPLY_ANSWERS)[number], ctx: PayloadContext): DeliveryRequest {
	if (kind === 'suggestion') {
		throw new CallbackInputError(
			`suggestion is an RCS answer; message ${m.sid} is a chat-app message (answer with button, listRow or text)`,
		);
	}
	let type: string;
	let typeObject: Obj;
	let choice: Choice | undefined;
	if (kind === 'text') {
		type = 'text';
		typeObject = { body: optString(input, 'text') as string };
	} else {
		choice = pickChoice(m, kind, optString(input, kind) as string);
		if (kind === 'button') {
			type = 'button';
			typeObject = { payload: choice.id, text: choice.title };
		} else {
			type = 'list_reply';
			typeObject = { id: choice.id, title: choice.title };
			if (choice.description !== undefined) typeObject.description = choice.description;
		}
	}
	const url = m.statusCallback ?? ctx.state.chatAppWebhook?.status_callback_url;
	if (!url) {
		throw new CallbackInputError(
			`chat-app message ${m.sid} has no callback URL (no status_callback in its send and no status_callback_url configured): the reply would go nowhere`,
		);
	}
	const from = replyFrom(input, m.to);
	if (ctx.state.live) return liveChatAppReply(input, m, url, from, choice && { kind: kind as 'button' | 'listRow', choice });
	const entry: Obj = { callback_type: 'icm', sid: hex(32), from, to: m.from, timestamp: isoWithOffset() };
	if (m.customData !== undefined) entry.custom_data = m.customData;
	entry.type = type;
	entry[type] = typeObject;
	entry.context = { from: m.from, id: m.sid };
	entry.contact = { wa_id: from.replace(/^\+/, ''), profile: { name: optString(input, 'name') ?? 'Sandbox User' } };
	return jsonPost(url, 'chatapp-reply', { chatapp: { messages: [entry] } }, true, {
		signature: signatureOption(input),
		messageSid: m.sid,
	});
}

/**
 * Live mode: the reply as the live service's WhatsApp incoming message (unsigned: the dispatcher),
 * `{whatsapp: {messages: [{callback_type: 'incoming_message', sid, from, to, timestamp, profile_name,
 * content}]}}`: text `{type: 'text', text: {body}}`, a reply button `{type: 'interactive', interactive:
 * {type: 'button_reply', button_reply: {id, title}}}`, a list row `… {type: 'list_reply', list_reply: {id,
 * title, description?}}`, each with `context {from: <business number>, id: <the sent sid>}`.
 */
function liveChatAppReply(
	input: Obj,
	m: StoredChatAppMessage,
	url: string,
	from: string,
	picked: { kind: 'button' | 'listRow'; choice: Choice } | undefined,
): DeliveryRequest {
	let content: Obj;
	if (!picked) {
		content = { type: 'text', text: { body: optString(input, 'text') as string } };
	} else if (picked.kind === 'button') {
		content = { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: picked.choice.id, title: picked.choice.title } } };
	} else {
		const row: Obj = { id: picked.choice.id, title: picked.choice.title };
		if (picked.choice.description !== undefined) row.description = picked.choice.description;
		content = { type: 'interactive', interactive: { type: 'list_reply', list_reply: row } };
	}
	content.context = { from: m.from, id: m.sid };
	const entry = liveIncomingEntry({ sid: hex(32), from, to: m.from, timestamp: isoWithOffset(), name: optString(input, 'name') ?? 'Sandbox User', content });
	return jsonPost(url, 'chatapp-reply', { whatsapp: { messages: [entry] } }, true, {
		signature: signatureOption(input),
		messageSid: m.sid,
	});
}

/** `{reply: {text, postback_data}}` or `{action: {...}}`: the `suggested.response` of an RCS reply. */
function suggestionResponse(value: unknown): Obj {
	const shape = 'suggestion must be {reply: {text, postback_data}} or {action: {...}}';
	if (!isObj(value)) throw new CallbackInputError(shape);
	const keys = ['reply', 'action'].filter((key) => value[key] !== undefined);
	if (keys.length !== 1) throw new CallbackInputError(`${shape}: exactly one of reply, action`);
	if (value.reply !== undefined) {
		const reply = value.reply;
		if (!isObj(reply) || typeof reply.text !== 'string' || typeof reply.postback_data !== 'string') {
			throw new CallbackInputError('suggestion.reply must be {text, postback_data} (strings)');
		}
		return { reply: { ...reply } };
	}
	if (!isObj(value.action)) throw new CallbackInputError('suggestion.action must be an object');
	return { action: { ...value.action } };
}

/** An unsigned RCS `incoming_message` to the message's effective status_callback (rcsIncomingRequest's shapes). */
function rcsReply(input: Obj, m: StoredRcsMessage, kind: (typeof REPLY_ANSWERS)[number], ctx: PayloadContext): DeliveryRequest {
	if (kind === 'button' || kind === 'listRow') {
		throw new CallbackInputError(
			`${kind} is a chat-app answer; message ${m.sid} is an RCS template message ('${m.template.name}') whose ` +
				'reply buttons and list rows the sandbox does not know (it has none): answer with text or suggestion',
		);
	}
	const content =
		kind === 'text'
			? { type: 'text', text: optString(input, 'text') as string }
			: { type: 'suggested', suggested: { response: suggestionResponse(input.suggestion) } };
	if (!m.statusCallback) {
		throw new CallbackInputError(
			`RCS message ${m.sid} has no status_callback (message, rcs or request level) and the sandbox has no ` +
				'default URL configured at onboarding: the reply would go nowhere',
		);
	}
	const request = rcsIncomingRequest(
		{ url: m.statusCallback, from: replyFrom(input, m.to), to: m.from, content, signature: input.signature },
		ctx,
	);
	return { ...request, messageSid: m.sid };
}

/**
 * The person's reply to a sent message. Input: `{sid? | to?, from? (the recipient), name?
 * ('Sandbox User'), button? | listRow? | text? | suggestion? (exactly one), signature?}`.
 */
export function replyRequest(raw: unknown, ctx: PayloadContext): DeliveryRequest {
	const input = inputObject(raw);
	for (const key of ['from', 'name', 'button', 'listRow', 'text'] as const) optString(input, key);
	signatureOption(input);
	const sent = sentMessage(input, ctx);
	const kind = answerKind(input);
	return sent.channel === 'chatapp' ? chatAppReply(input, sent.message, kind, ctx) : rcsReply(input, sent.message, kind, ctx);
}

// ---------------------------------------------------------------- SMS links

export interface OpenLinkPlan {
	/** The SMS whose link is opened. */
	sid: string;
	as: 'person' | 'bot';
	/** `shortUrl` is the sandbox's short link the body carries (null when the URL was not shortened). */
	link: { shortUrl: string | null; longUrl: string };
}

/** The SMS and the link of its delivered body a person opens. Input: `{sid? | to?, link? (0) | match?, as? ('person' | 'bot')}`. */
export function openLinkPlan(raw: unknown, ctx: PayloadContext): OpenLinkPlan {
	const input = inputObject(raw);
	const sid = optString(input, 'sid');
	const to = optString(input, 'to');
	let sms: StoredSmsMessage | undefined;
	if (sid !== undefined) {
		sms = ctx.state.smsMessages.get(sid);
		if (!sms) {
			const hint = ctx.state.chatAppMessages.has(sid) || ctx.state.rcsMessages.has(sid) ? ' (it is a chat-app or RCS message: see reply)' : '';
			throw new CallbackInputError(`no SMS has sid '${sid}'${hint}`);
		}
	} else if (to !== undefined) {
		sms = latest(ctx.state.smsMessages.values(), (m) => sameNumber(m.to, to));
		if (!sms) {
			const other = latest([...ctx.state.chatAppMessages.values(), ...ctx.state.rcsMessages.values()], (m) => sameNumber(m.to, to));
			const recipients = [...ctx.state.smsMessages.values()].map((m) => m.to);
			throw nothingSentTo('SMS', 'SMS messages', to, ctx, recipients, other && `a chat-app or RCS message was sent to it (${other.sid}): answer it with reply`);
		}
	} else {
		throw new CallbackInputError('sid or to is required (the SMS whose link is opened)');
	}
	const as = input.as ?? 'person';
	if (as !== 'person' && as !== 'bot') throw new CallbackInputError("as must be 'person' or 'bot'");
	if (input.link !== undefined && input.match !== undefined) throw new CallbackInputError('give link or match, not both');

	const message = sms;
	const links = linksIn(message.deliveredBody ?? message.body).map(({ url }) => {
		const short = message.shortLinks?.find((link) => link.shortUrl === url);
		return short ? { shortUrl: short.shortUrl, longUrl: short.longUrl } : { shortUrl: null, longUrl: url };
	});
	if (!links.length) throw new CallbackInputError(`SMS ${message.sid} has no http(s) link in its body`);
	const listed = links.map((link, i) => `${i}: ${link.longUrl}`).join(', ');
	let link: OpenLinkPlan['link'] | undefined;
	if (input.match !== undefined) {
		const match = optString(input, 'match') as string;
		link = links.find((candidate) => candidate.longUrl.includes(match));
		if (!link) throw new CallbackInputError(`no link of SMS ${message.sid} contains '${match}' (its links: ${listed})`);
	} else {
		const index = input.link ?? 0;
		if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
			throw new CallbackInputError('link must be a non-negative integer (0 = the first link of the body)');
		}
		link = links[index];
		if (!link) {
			throw new CallbackInputError(`link ${index} is out of range: SMS ${message.sid} has ${links.length} link(s) (${listed})`);
		}
	}
	return { sid: message.sid, as, link };
}

// ---------------------------------------------------------------- calls

export const END_CALL_STATUSES = ['completed', 'failed', 'busy', 'no-answer'] as const;

export type EndCallStatus = (typeof END_CALL_STATUSES)[number];

/** `{callSid, status? ('completed')}` of endCall. */
export function endCallInput(raw: unknown): { callSid: string; status: EndCallStatus } {
	const input = inputObject(raw);
	const callSid = optString(input, 'callSid');
	if (callSid === undefined) throw new CallbackInputError('callSid is required');
	const status = input.status ?? 'completed';
	if (typeof status !== 'string' || !(END_CALL_STATUSES as readonly string[]).includes(status)) {
		throw new CallbackInputError(`status must be one of: ${END_CALL_STATUSES.join(', ')}`);
	}
	return { callSid, status: status as EndCallStatus };
}
