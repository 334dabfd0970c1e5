/**
 * RCS and chat-app sends (`POST /v2/accounts/<sid>/messages`, one path, told apart by the body's
 * top-level keys) and the chat-app webhook configuration (`PUT /v2/accounts/<sid>/chatapp/webhook`,
 * plus GET and DELETE as sandbox conveniences), per messaging.md. In live mode the chat app is keyed
 * `whatsapp` as on the live service: `{whatsapp: {messages: [{from, to, content}]}}` sends (answered
 * under `response.whatsapp`) and `/whatsapp/webhook` (the `chatapp` body and path are refused).
 *
 * Structural problems (missing mandatory field, wrong type, bad enum value, a limit exceeded)
 * answer HTTP 400 in the v2 envelope whose `error_data.description` names the field's path.
 * Per-message business failures (RCS: `to` not E.164, template not approved; chat app: recipient
 * not on the chat app) are entries of a 202.
 */
import {
	isApprovedRcsTemplate,
	SANDBOX_CHATAPP_UNREACHABLE,
	SANDBOX_RCS_APPROVED_PREFIX,
	SANDBOX_RCS_TEMPLATES,
} from '../fixtures';
import { fail, isJsonType, isoTimestamp, isPlainObject, json, randomHex, readJson } from '../http';
import type {
	ChatAppContentType,
	ChatAppWebhookConfig,
	RcsFallback,
	RcsSmsType,
	StoredChatAppMessage,
	StoredRcsMessage,
} from '../stored';
import type { Handler, Reply, RequestContext, RouteDefinition } from '../types';

/** Strict E.164: `+`, a non-zero digit, 7 to 14 more digits. */
export const MESSAGING_E164 = /^\+[1-9]\d{7,14}$/;

/** Limits of messaging.md (lengths counted in code points). */
export const MESSAGING_LIMITS = {
	rcsMessages: 100,
	replyButtons: 3,
	replyButtonTitle: 20,
	replyButtonId: 256,
	listButtonLabel: 20,
	listSections: 10,
	listRowsTotal: 10,
	listRowTitle: 24,
	listRowDescription: 72,
	listRowId: 200,
	listSectionTitle: 24,
	headerText: 60,
	body: 1024,
	footer: 60,
} as const;

export const RCS_TEMPLATE_PARAMS = ['TemplateParam1', 'TemplateParam2', 'TemplateParam3'] as const;

export const RCS_FALLBACK_ENUMS = {
	sms_type: ['transactional', 'transactional_opt_in', 'promotional'],
	encoding_type: ['plain', 'unicode'],
	priority: ['normal', 'high'],
} as const;

export const CHATAPP_CONTENT_TYPES: readonly ChatAppContentType[] = [
	'text',
	'image',
	'audio',
	'video',
	'document',
	'sticker',
	'location',
	'contacts',
	'interactive',
];

/** Fields each media type takes besides `link`; any other of these names on another type is a 400. */
const MEDIA_FIELDS: Record<string, readonly string[]> = {
	image: ['caption'],
	audio: [],
	video: ['caption'],
	document: ['caption', 'filename'],
	sticker: [],
};

export const INTERACTIVE_HEADER_TYPES = ['text', 'image', 'video', 'document'] as const;

/** Live mode: messages in one `whatsapp.messages` send (the sandbox's choice, as RCS: nothing public says). */
export const LIVE_WHATSAPP_MESSAGES_MAX = 100;

/**
 * Per-message failure codes inside a 202 (invented where the spec is silent; the RCS ones mirror the
 * chat-app exo_status_code list, whose 3000x codes the RCS 4000x codes already mirror).
 */
export const MESSAGE_FAILURES = {
	rcsInvalidRecipient: { httpCode: 400, code: 40012, message: 'INVALID_RECIPIENT' },
	rcsTemplateNotApproved: { httpCode: 404, code: 40006, message: 'SETUP_ERROR' },
	chatAppInvalidRecipient: { httpCode: 400, code: 30012, message: 'INVALID_RECIPIENT' },
} as const;

type Failure = (typeof MESSAGE_FAILURES)[keyof typeof MESSAGE_FAILURES];

// ---------------------------------------------------------------- validation helpers

class BadRequest extends Error {}

type Obj = Record<string, unknown>;

function join(path: string, key: string): string {
	return path ? `${path}.${key}` : key;
}

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** Length as the service counts characters: code points (an emoji is one). */
export function charLength(text: string): number {
	return Array.from(text).length;
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

interface StringRules {
	/** Refuse '' and whitespace only (default true for required strings, false for optional ones). */
	nonEmpty?: boolean;
	max?: number;
	url?: boolean;
	oneOf?: readonly string[];
}

function checkString(value: unknown, path: string, rules: StringRules): string {
	if (typeof value !== 'string') throw new BadRequest(`${path} must be a string (got ${kindOf(value)})`);
	if (rules.nonEmpty && value.trim() === '') throw new BadRequest(`${path} must not be empty`);
	if (rules.max !== undefined) {
		const length = charLength(value);
		if (length > rules.max) {
			throw new BadRequest(`${path} is ${length} characters long; at most ${rules.max} are allowed`);
		}
	}
	if (rules.url && !isHttpUrl(value)) throw new BadRequest(`${path} must be an absolute http(s) URL (got '${value}')`);
	if (rules.oneOf && !rules.oneOf.includes(value)) {
		throw new BadRequest(`${path} must be one of: ${rules.oneOf.join(', ')} (got '${value}')`);
	}
	return value;
}

function reqString(parent: Obj, key: string, path: string, rules: StringRules = {}): string {
	const at = join(path, key);
	if (parent[key] === undefined) throw new BadRequest(`${at} is required`);
	return checkString(parent[key], at, { nonEmpty: true, ...rules });
}

function optString(parent: Obj, key: string, path: string, rules: StringRules = {}): string | undefined {
	if (parent[key] === undefined) return undefined;
	return checkString(parent[key], join(path, key), rules);
}

function optBoolean(parent: Obj, key: string, path: string): boolean | undefined {
	const value = parent[key];
	if (value === undefined) return undefined;
	if (typeof value !== 'boolean') throw new BadRequest(`${join(path, key)} must be a boolean (got ${kindOf(value)})`);
	return value;
}

function reqNumber(parent: Obj, key: string, path: string, min: number, max: number): number {
	const at = join(path, key);
	const value = parent[key];
	if (value === undefined) throw new BadRequest(`${at} is required`);
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		throw new BadRequest(`${at} must be a number (got ${kindOf(value)})`);
	}
	if (value < min || value > max) throw new BadRequest(`${at} must be between ${min} and ${max} (got ${value})`);
	return value;
}

function reqObject(parent: Obj, key: string, path: string): Obj {
	const at = join(path, key);
	const value = parent[key];
	if (value === undefined) throw new BadRequest(`${at} is required`);
	if (!isPlainObject(value)) throw new BadRequest(`${at} must be an object (got ${kindOf(value)})`);
	return value;
}

function optObject(parent: Obj, key: string, path: string): Obj | undefined {
	if (parent[key] === undefined) return undefined;
	return reqObject(parent, key, path);
}

interface ArrayRules {
	min?: number;
	max?: number;
	/** Word used in limit messages: 'messages', 'buttons', ... */
	unit: string;
}

function checkArray(value: unknown, at: string, rules: ArrayRules): unknown[] {
	if (!Array.isArray(value)) throw new BadRequest(`${at} must be an array (got ${kindOf(value)})`);
	if (rules.min !== undefined && value.length < rules.min) {
		throw new BadRequest(`${at} must hold at least ${rules.min} ${rules.unit} (got ${value.length})`);
	}
	if (rules.max !== undefined && value.length > rules.max) {
		throw new BadRequest(`${at} holds ${value.length} ${rules.unit}; at most ${rules.max} are allowed`);
	}
	return value;
}

function reqArray(parent: Obj, key: string, path: string, rules: ArrayRules): unknown[] {
	const at = join(path, key);
	if (parent[key] === undefined) throw new BadRequest(`${at} is required`);
	return checkArray(parent[key], at, rules);
}

function optArray(parent: Obj, key: string, path: string, rules: ArrayRules): unknown[] | undefined {
	if (parent[key] === undefined) return undefined;
	return checkArray(parent[key], join(path, key), rules);
}

function elementObject(value: unknown, at: string): Obj {
	if (!isPlainObject(value)) throw new BadRequest(`${at} must be an object (got ${kindOf(value)})`);
	return value;
}

/** The body as a JSON object; the content type must be JSON. */
function readJsonObject(ctx: RequestContext): Obj {
	if (!isJsonType(ctx.request.contentType)) {
		throw new BadRequest(`Content-Type must be application/json (got ${ctx.request.contentType ?? 'none'})`);
	}
	const parsed = readJson(ctx);
	if (!parsed.ok) throw new BadRequest('The body is not valid JSON');
	if (!isPlainObject(parsed.value)) throw new BadRequest(`The body must be a JSON object (got ${kindOf(parsed.value)})`);
	return parsed.value;
}

function guarded(handler: (ctx: RequestContext) => Reply): Handler {
	const run = async (ctx: RequestContext) => handler(ctx);
	return (ctx) =>
		run(ctx).catch((error: unknown) => {
			if (error instanceof BadRequest) return fail(ctx, 400, error.message);
			throw error;
		});
}

// ---------------------------------------------------------------- answers

interface EntryOutcome {
	sid?: string;
	failure?: Failure;
	description?: string;
}

function entryOf(outcome: EntryOutcome, failedStatus: 'failure' | 'failed', successCode: number) {
	if (outcome.failure) {
		return {
			code: outcome.failure.httpCode,
			error_data: {
				code: outcome.failure.code,
				message: outcome.failure.message,
				description: outcome.description ?? '',
			},
			status: failedStatus,
			data: null,
		};
	}
	return { code: successCode, error_data: null, status: 'success', data: { sid: outcome.sid } };
}

/** The 202 of a send; the live `whatsapp` entries say `code: 202` where the spec's say 200. */
function sendEnvelope(ctx: RequestContext, channel: 'rcs' | 'chatapp' | 'whatsapp', outcomes: EntryOutcome[]): Reply {
	const failed = outcomes.filter((o) => o.failure).length;
	return json(202, {
		request_id: randomHex(32),
		method: ctx.request.method,
		http_code: 202,
		metadata: { total: outcomes.length, success: outcomes.length - failed, failed },
		response: {
			[channel]: { messages: outcomes.map((o) => entryOf(o, channel === 'rcs' ? 'failure' : 'failed', channel === 'whatsapp' ? 202 : 200)) },
		},
	});
}

// ---------------------------------------------------------------- RCS

/** One RCS message of a send as read, before it is accepted and stored. */
type RcsPlan = Pick<StoredRcsMessage, 'index' | 'from' | 'to' | 'template' | 'fallback' | 'customData' | 'statusCallback'>;

function readFallback(message: Obj, path: string): RcsFallback | undefined {
	const fallback = optObject(message, 'fallback', path);
	if (!fallback) return undefined;
	const at = join(path, 'fallback');
	const from = reqString(fallback, 'from', at);
	const content = reqObject(fallback, 'content', at);
	const cat = join(at, 'content');
	const out: RcsFallback['content'] = {
		text: reqString(content, 'text', cat),
		sms_type: reqString(content, 'sms_type', cat, { oneOf: RCS_FALLBACK_ENUMS.sms_type }) as RcsSmsType,
	};
	const dltEntityId = optString(content, 'dlt_entity_id', cat);
	if (dltEntityId !== undefined) out.dlt_entity_id = dltEntityId;
	const dltTemplateId = optString(content, 'dlt_template_id', cat);
	if (dltTemplateId !== undefined) out.dlt_template_id = dltTemplateId;
	const encoding = optString(content, 'encoding_type', cat, { oneOf: RCS_FALLBACK_ENUMS.encoding_type });
	if (encoding !== undefined) out.encoding_type = encoding as 'plain' | 'unicode';
	const priority = optString(content, 'priority', cat, { oneOf: RCS_FALLBACK_ENUMS.priority });
	if (priority !== undefined) out.priority = priority as 'normal' | 'high';
	const shortenUrl = optBoolean(content, 'shorten_url', cat);
	if (shortenUrl !== undefined) out.shorten_url = shortenUrl;
	const params = optObject(content, 'shorten_url_params', cat);
	if (params) {
		const pat = join(cat, 'shorten_url_params');
		const p: NonNullable<RcsFallback['content']['shorten_url_params']> = {};
		const customDomain = optString(params, 'custom_domain', pat, { nonEmpty: true });
		if (customDomain !== undefined) p.custom_domain = customDomain;
		const tracking = optBoolean(params, 'tracking', pat);
		if (tracking !== undefined) p.tracking = tracking;
		const click = optString(params, 'click_tracking_callback_url', pat, { url: true });
		if (click !== undefined) p.click_tracking_callback_url = click;
		if (tracking === true && shortenUrl !== true) {
			throw new BadRequest(`${join(pat, 'tracking')} is true, which requires ${join(cat, 'shorten_url')} to be true`);
		}
		out.shorten_url_params = p;
	}
	return { from, content: out };
}

function readRcsMessage(value: unknown, index: number, inherited: { customData?: string; statusCallback?: string }): RcsPlan {
	const path = `rcs.messages[${index}]`;
	const message = elementObject(value, path);
	const customData = optString(message, 'custom_data', path);
	const statusCallback = optString(message, 'status_callback', path, { url: true });
	const from = reqString(message, 'from', path);
	// `to` must be a string here; whether it is E.164 is a per-message outcome.
	const toAt = join(path, 'to');
	if (message.to === undefined || message.to === null) throw new BadRequest(`${toAt} is required`);
	const to = checkString(message.to, toAt, {});
	const content = reqObject(message, 'content', path);
	const cat = join(path, 'content');
	reqString(content, 'type', cat, { oneOf: ['template'] });
	const template = reqObject(content, 'template', cat);
	const tat = join(cat, 'template');
	const name = reqString(template, 'name', tat);
	const variablesIn = reqObject(template, 'variables', tat);
	const variables: Record<string, string> = {};
	for (const [key, v] of Object.entries(variablesIn)) {
		const vat = join(join(tat, 'variables'), key);
		if (!(RCS_TEMPLATE_PARAMS as readonly string[]).includes(key)) {
			throw new BadRequest(`${vat} is not allowed; the keys are ${RCS_TEMPLATE_PARAMS.join(', ')}`);
		}
		variables[key] = checkString(v, vat, {});
	}
	const fallback = readFallback(message, path);
	return {
		index,
		from,
		to,
		template: { name, variables },
		fallback,
		customData: customData ?? inherited.customData,
		statusCallback: statusCallback ?? inherited.statusCallback,
	};
}

const sendRcs = (ctx: RequestContext, body: Obj): Reply => {
	const requestCustomData = optString(body, 'custom_data', '');
	const requestCallback = optString(body, 'status_callback', '', { url: true });
	const rcs = reqObject(body, 'rcs', '');
	const channelCustomData = optString(rcs, 'custom_data', 'rcs');
	const channelCallback = optString(rcs, 'status_callback', 'rcs', { url: true });
	const messages = reqArray(rcs, 'messages', 'rcs', { min: 1, max: MESSAGING_LIMITS.rcsMessages, unit: 'messages' });
	const inherited = {
		customData: channelCustomData ?? requestCustomData,
		statusCallback: channelCallback ?? requestCallback,
	};
	const plans = messages.map((m, i) => readRcsMessage(m, i, inherited));

	const acceptedAt = isoTimestamp();
	const accepted: StoredRcsMessage[] = [];
	const outcomes: EntryOutcome[] = plans.map((plan) => {
		if (!MESSAGING_E164.test(plan.to)) {
			return {
				failure: MESSAGE_FAILURES.rcsInvalidRecipient,
				description: `rcs.messages[${plan.index}].to '${plan.to}' is not an E.164 number (+, then 8 to 15 digits)`,
			};
		}
		if (!isApprovedRcsTemplate(plan.template.name)) {
			return {
				failure: MESSAGE_FAILURES.rcsTemplateNotApproved,
				description:
					`rcs.messages[${plan.index}].content.template.name '${plan.template.name}' is not an approved RCS template ` +
					`of this brand (sandbox: ${SANDBOX_RCS_TEMPLATES.join(', ')} or a name starting with '${SANDBOX_RCS_APPROVED_PREFIX}')`,
			};
		}
		const sid = randomHex(32);
		const stored: StoredRcsMessage = {
			sid,
			accountSid: ctx.params.sid,
			requestId: ctx.request.id,
			index: plan.index,
			from: plan.from,
			to: plan.to,
			template: plan.template,
			acceptedAt,
		};
		if (plan.fallback) stored.fallback = plan.fallback;
		if (plan.customData !== undefined) stored.customData = plan.customData;
		if (plan.statusCallback !== undefined) stored.statusCallback = plan.statusCallback;
		ctx.state.rcsMessages.set(sid, stored);
		if (stored.statusCallback) accepted.push(stored);
		return { sid };
	});
	if (accepted.length) ctx.callbacks?.rcsAccepted(accepted);
	return sendEnvelope(ctx, 'rcs', outcomes);
};

// ---------------------------------------------------------------- chat app

function readMedia(content: Obj, type: string, cat: string): void {
	const media = reqObject(content, type, cat);
	const at = join(cat, type);
	reqString(media, 'link', at, { url: true });
	for (const field of ['caption', 'filename']) {
		if (media[field] === undefined) continue;
		if (!MEDIA_FIELDS[type].includes(field)) throw new BadRequest(`${join(at, field)} is not supported for ${type} messages`);
		checkString(media[field], join(at, field), {});
	}
}

function readContacts(content: Obj, cat: string): void {
	const contacts = reqArray(content, 'contacts', cat, { min: 1, unit: 'contacts' });
	contacts.forEach((value, i) => {
		const at = `${join(cat, 'contacts')}[${i}]`;
		const contact = elementObject(value, at);
		const name = reqObject(contact, 'name', at);
		const nat = join(at, 'name');
		const formatted = optString(name, 'formatted_name', nat);
		const first = optString(name, 'first_name', nat);
		optString(name, 'last_name', nat);
		if (!formatted?.trim() && !first?.trim()) {
			throw new BadRequest(`${nat}.formatted_name or ${nat}.first_name is required`);
		}
		const phones = optArray(contact, 'phones', at, { unit: 'phones' });
		phones?.forEach((p, j) => {
			const pat = `${join(at, 'phones')}[${j}]`;
			const phone = elementObject(p, pat);
			reqString(phone, 'phone', pat);
			optString(phone, 'type', pat);
		});
		const emails = optArray(contact, 'emails', at, { unit: 'emails' });
		emails?.forEach((e, j) => {
			const eat = `${join(at, 'emails')}[${j}]`;
			const email = elementObject(e, eat);
			reqString(email, 'email', eat);
			optString(email, 'type', eat);
		});
		const org = optObject(contact, 'org', at);
		if (org) {
			optString(org, 'company', join(at, 'org'));
			optString(org, 'title', join(at, 'org'));
		}
	});
}

/** An interactive message's header (text, or a media link), body and footer. */
function readInteractiveFrame(interactive: Obj, at: string): void {
	const header = optObject(interactive, 'header', at);
	if (header) {
		const hat = join(at, 'header');
		const headerType = reqString(header, 'type', hat, { oneOf: INTERACTIVE_HEADER_TYPES });
		if (headerType === 'text') {
			reqString(header, 'text', hat, { max: MESSAGING_LIMITS.headerText });
		} else {
			const media = reqObject(header, headerType, hat);
			reqString(media, 'link', join(hat, headerType), { url: true });
		}
	}
	const body = reqObject(interactive, 'body', at);
	reqString(body, 'text', join(at, 'body'), { max: MESSAGING_LIMITS.body });
	const footer = optObject(interactive, 'footer', at);
	if (footer) reqString(footer, 'text', join(at, 'footer'), { max: MESSAGING_LIMITS.footer });
}

/** Reply buttons: 1 to 3, ids unique. */
function readReplyButtons(action: Obj, aat: string): void {
	const buttons = reqArray(action, 'buttons', aat, { min: 1, max: MESSAGING_LIMITS.replyButtons, unit: 'buttons' });
	const ids = new Set<string>();
	buttons.forEach((value, i) => {
		const bat = `${join(aat, 'buttons')}[${i}]`;
		const button = elementObject(value, bat);
		reqString(button, 'type', bat, { oneOf: ['reply'] });
		const reply = reqObject(button, 'reply', bat);
		const rat = join(bat, 'reply');
		const id = reqString(reply, 'id', rat, { max: MESSAGING_LIMITS.replyButtonId });
		reqString(reply, 'title', rat, { max: MESSAGING_LIMITS.replyButtonTitle });
		if (ids.has(id)) throw new BadRequest(`${join(rat, 'id')} '${id}' is used by another button; button ids must be unique`);
		ids.add(id);
	});
}

/** A list: its button label, sections (titled when more than one) of rows, row ids unique, rows limited in all. */
function readListSections(action: Obj, aat: string): void {
	reqString(action, 'button', aat, { max: MESSAGING_LIMITS.listButtonLabel });
	const sections = reqArray(action, 'sections', aat, { min: 1, max: MESSAGING_LIMITS.listSections, unit: 'sections' });
	let rowsTotal = 0;
	const ids = new Set<string>();
	sections.forEach((value, i) => {
		const sat = `${join(aat, 'sections')}[${i}]`;
		const section = elementObject(value, sat);
		if (sections.length > 1) reqString(section, 'title', sat, { max: MESSAGING_LIMITS.listSectionTitle });
		else optString(section, 'title', sat, { max: MESSAGING_LIMITS.listSectionTitle });
		const rows = reqArray(section, 'rows', sat, { min: 1, unit: 'rows' });
		rows.forEach((r, j) => {
			const rat = `${join(sat, 'rows')}[${j}]`;
			const row = elementObject(r, rat);
			const id = reqString(row, 'id', rat, { max: MESSAGING_LIMITS.listRowId });
			reqString(row, 'title', rat, { max: MESSAGING_LIMITS.listRowTitle });
			optString(row, 'description', rat, { max: MESSAGING_LIMITS.listRowDescription });
			if (ids.has(id)) throw new BadRequest(`${join(rat, 'id')} '${id}' is used by another row; row ids must be unique`);
			ids.add(id);
		});
		rowsTotal += rows.length;
	});
	if (rowsTotal > MESSAGING_LIMITS.listRowsTotal) {
		throw new BadRequest(`${join(aat, 'sections')} hold ${rowsTotal} rows in total; at most ${MESSAGING_LIMITS.listRowsTotal} are allowed`);
	}
}

function readInteractive(content: Obj, cat: string): 'button' | 'list' {
	const interactive = reqObject(content, 'interactive', cat);
	const at = join(cat, 'interactive');
	const kind = reqString(interactive, 'type', at, { oneOf: ['button', 'list'] }) as 'button' | 'list';
	readInteractiveFrame(interactive, at);
	const action = reqObject(interactive, 'action', at);
	const aat = join(at, 'action');
	if (kind === 'button') readReplyButtons(action, aat);
	else readListSections(action, aat);
	return kind;
}

/** One chat-app message as read and checked, before it is accepted. */
interface ChatAppPlan {
	from: string;
	to: string;
	statusCallback?: string;
	customData?: string;
	content: Obj;
	type: ChatAppContentType;
	interactiveType?: 'button' | 'list';
}

/**
 * A chat-app message `{from, to, status_callback?, custom_data?, content}` at `path` ('' for the spec's
 * top-level body, `whatsapp.messages[N]` in live mode); a problem is a 400 naming the field's path.
 */
function readChatAppMessage(message: Obj, path: string): ChatAppPlan {
	const from = reqString(message, 'from', path);
	if (!MESSAGING_E164.test(from)) throw new BadRequest(`${join(path, 'from')} must be an E.164 number (+, then 8 to 15 digits; got '${from}')`);
	const to = reqString(message, 'to', path);
	if (!MESSAGING_E164.test(to)) throw new BadRequest(`${join(path, 'to')} must be an E.164 number (+, then 8 to 15 digits; got '${to}')`);
	const statusCallback = optString(message, 'status_callback', path, { url: true });
	const customData = optString(message, 'custom_data', path);
	const content = reqObject(message, 'content', path);
	const cat = join(path, 'content');
	optString(content, 'recipient_type', cat, { oneOf: ['individual'] });
	const type = reqString(content, 'type', cat, { oneOf: CHATAPP_CONTENT_TYPES }) as ChatAppContentType;
	let interactiveType: 'button' | 'list' | undefined;
	switch (type) {
		case 'text': {
			const text = reqObject(content, 'text', cat);
			reqString(text, 'body', join(cat, 'text'));
			optBoolean(text, 'preview_url', join(cat, 'text'));
			break;
		}
		case 'image':
		case 'audio':
		case 'video':
		case 'document':
		case 'sticker':
			readMedia(content, type, cat);
			break;
		case 'location': {
			const location = reqObject(content, 'location', cat);
			const lat = join(cat, 'location');
			reqNumber(location, 'longitude', lat, -180, 180);
			reqNumber(location, 'latitude', lat, -90, 90);
			optString(location, 'name', lat);
			optString(location, 'address', lat);
			break;
		}
		case 'contacts':
			readContacts(content, cat);
			break;
		case 'interactive':
			interactiveType = readInteractive(content, cat);
			break;
	}
	const plan: ChatAppPlan = { from, to, content, type };
	if (statusCallback !== undefined) plan.statusCallback = statusCallback;
	if (customData !== undefined) plan.customData = customData;
	if (interactiveType) plan.interactiveType = interactiveType;
	return plan;
}

/** A checked chat-app message: a failed entry when `to` is not on the chat app, else stored and its reports scheduled. */
function acceptChatApp(ctx: RequestContext, plan: ChatAppPlan): EntryOutcome {
	if (SANDBOX_CHATAPP_UNREACHABLE.includes(plan.to)) {
		return {
			failure: MESSAGE_FAILURES.chatAppInvalidRecipient,
			description: `${plan.to} is not on the chat app, so the message cannot be delivered`,
		};
	}
	const sid = randomHex(32);
	const stored: StoredChatAppMessage = {
		sid,
		accountSid: ctx.params.sid,
		requestId: ctx.request.id,
		from: plan.from,
		to: plan.to,
		contentType: plan.type,
		content: JSON.parse(JSON.stringify(plan.content)) as Record<string, unknown>,
		acceptedAt: isoTimestamp(),
	};
	if (plan.interactiveType) stored.interactiveType = plan.interactiveType;
	if (plan.statusCallback !== undefined) stored.statusCallback = plan.statusCallback;
	if (plan.customData !== undefined) stored.customData = plan.customData;
	ctx.state.chatAppMessages.set(sid, stored);
	ctx.callbacks?.chatAppAccepted(stored);
	return { sid };
}

/** The spec's chat-app send: one message, `from`, `to`, `content` at the top level. */
const sendChatApp = (ctx: RequestContext, body: Obj): Reply => sendEnvelope(ctx, 'chatapp', [acceptChatApp(ctx, readChatAppMessage(body, ''))]);

/**
 * Live mode's WhatsApp send: `{custom_data?, status_callback?, whatsapp: {messages: [{from, to, content,
 * custom_data?, status_callback?}]}}`, each message checked as the spec's chat-app body (a message's
 * own custom_data and status_callback win over the request's). One problem refuses the whole request.
 */
const sendWhatsApp = (ctx: RequestContext, body: Obj): Reply => {
	const requestCustomData = optString(body, 'custom_data', '');
	const requestCallback = optString(body, 'status_callback', '', { url: true });
	const whatsapp = reqObject(body, 'whatsapp', '');
	const messages = reqArray(whatsapp, 'messages', 'whatsapp', { min: 1, max: LIVE_WHATSAPP_MESSAGES_MAX, unit: 'messages' });
	const plans = messages.map((value, i) => {
		const path = `whatsapp.messages[${i}]`;
		const plan = readChatAppMessage(elementObject(value, path), path);
		const customData = plan.customData ?? requestCustomData;
		const statusCallback = plan.statusCallback ?? requestCallback;
		if (customData !== undefined) plan.customData = customData;
		if (statusCallback !== undefined) plan.statusCallback = statusCallback;
		return plan;
	});
	return sendEnvelope(ctx, 'whatsapp', plans.map((plan) => acceptChatApp(ctx, plan)));
};

/** Live mode: `rcs` → RCS send; `whatsapp` → WhatsApp send; the spec's top-level chat-app body is refused. */
function sendLive(ctx: RequestContext, body: Obj): Reply {
	const isRcs = body.rcs !== undefined;
	const isWhatsApp = body.whatsapp !== undefined;
	if (isRcs && isWhatsApp) throw new BadRequest('The body mixes an RCS send (rcs) with a WhatsApp send (whatsapp); send one or the other');
	const topLevel = ['from', 'to', 'content'].filter((k) => body[k] !== undefined);
	if (topLevel.length) {
		throw new BadRequest(
			`${topLevel.join(', ')} at the top level is not a send this API takes: a WhatsApp message goes in whatsapp.messages[] ({whatsapp: {messages: [{from, to, content}]}})`,
		);
	}
	if (isRcs) return sendRcs(ctx, body);
	if (isWhatsApp) return sendWhatsApp(ctx, body);
	throw new BadRequest('The body must carry either rcs (an RCS send) or whatsapp (a WhatsApp send: {whatsapp: {messages: [{from, to, content}]}})');
}

/** POST /v2/accounts/<sid>/messages: `rcs` → RCS send; `from`/`to`/`content` → chat-app send (live mode: sendLive). */
export const sendMessages = guarded((ctx) => {
	const body = readJsonObject(ctx);
	if (ctx.state.live) return sendLive(ctx, body);
	const isRcs = body.rcs !== undefined;
	const chatAppKeys = ['from', 'to', 'content'].filter((k) => body[k] !== undefined);
	if (isRcs && chatAppKeys.length) {
		throw new BadRequest(
			`The body mixes an RCS send (rcs) with a chat-app send (${chatAppKeys.join(', ')}); send one or the other`,
		);
	}
	if (isRcs) return sendRcs(ctx, body);
	if (chatAppKeys.length) return sendChatApp(ctx, body);
	throw new BadRequest('The body must carry either rcs (an RCS send) or from, to and content (a chat-app send)');
});

// ---------------------------------------------------------------- chat-app webhook

/** The webhook configuration's answer, under `chatapp` (spec) or `whatsapp` (live mode's path). */
function webhookEnvelope(ctx: RequestContext, webhook: ChatAppWebhookConfig | null, key: 'chatapp' | 'whatsapp' = 'chatapp'): Reply {
	return json(200, {
		request_id: randomHex(32),
		method: ctx.request.method,
		http_code: 200,
		response: { code: 200, status: 'success', data: { [key]: { webhook: webhook ? { ...webhook } : null } } },
	});
}

/** PUT of the webhook configuration: `{chatapp: {webhook}}` on the spec's path, `{whatsapp: {webhook}}` on live mode's. */
function putWebhook(key: 'chatapp' | 'whatsapp') {
	return guarded((ctx) => {
		const body = readJsonObject(ctx);
		const channel = reqObject(body, key, '');
		const webhook = reqObject(channel, 'webhook', key);
		const at = `${key}.webhook`;
		const config: ChatAppWebhookConfig = {
			incoming_message_url: reqString(webhook, 'incoming_message_url', at, { url: true }),
		};
		const statusUrl = optString(webhook, 'status_callback_url', at, { url: true });
		if (statusUrl !== undefined) config.status_callback_url = statusUrl;
		const verifyToken = optString(webhook, 'verify_token', at, { nonEmpty: true });
		if (verifyToken !== undefined) config.verify_token = verifyToken;
		ctx.state.chatAppWebhook = config;
		return webhookEnvelope(ctx, config, key);
	});
}

export const putChatAppWebhook = putWebhook('chatapp');

/** Live mode's `PUT /v2/accounts/<sid>/whatsapp/webhook` (the same configuration). */
export const putWhatsAppWebhook = putWebhook('whatsapp');

/**
 * The webhook routes of one path: PUT (the spec's), GET and DELETE (sandbox conveniences; DELETE is
 * idempotent). The `chatapp` path exists in spec mode only, the `whatsapp` path in live mode only.
 */
function webhookRoutes(key: 'chatapp' | 'whatsapp'): RouteDefinition[] {
	const path = `/v2/accounts/:sid/${key}/webhook`;
	const live = key === 'whatsapp';
	return [
		{ base: 'base', method: 'PUT', path, auth: 'basic', live, handler: key === 'chatapp' ? putChatAppWebhook : putWhatsAppWebhook },
		{ base: 'base', method: 'GET', path, auth: 'basic', live, handler: (ctx) => webhookEnvelope(ctx, ctx.state.chatAppWebhook, key) },
		{
			base: 'base',
			method: 'DELETE',
			path,
			auth: 'basic',
			live,
			handler: (ctx) => {
				ctx.state.chatAppWebhook = null;
				return webhookEnvelope(ctx, null, key);
			},
		},
	];
}

export const messagesRoutes: RouteDefinition[] = [
	{ base: 'base', method: 'POST', path: '/v2/accounts/:sid/messages', auth: 'basic', handler: sendMessages },
	...webhookRoutes('chatapp'),
	...webhookRoutes('whatsapp'),
];
