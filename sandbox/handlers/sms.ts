/**
 * SMS send (single and static bulk) and dynamic bulk send, per messaging.md.
 */
import { randomBytes } from 'crypto';

import {
	fail,
	FormObject,
	FormShapeError,
	FormValue,
	indexedEntries,
	isFormObject,
	isFormType,
	json,
	nestForm,
	v1DateTime,
	v1Timestamp,
} from '../http';
import { shortenBody } from '../links';
import type { StoredSmsMessage } from '../stored';
import type { Handler, Reply, RequestContext, RouteDefinition } from '../types';

export const SMS_LIMITS = { bodyChars: 2000, staticRecipients: 100, dynamicMessages: 100 } as const;

/** A destination is valid when, with whitespace removed, it matches this (E.164-ish, `+` optional). */
export const DESTINATION_PATTERN = /^\+?[1-9]\d{7,14}$/;

/** Appended to the sender of an accepted message (`From: "<from>/EXOSBX"`). */
export const SMS_FROM_SUFFIX = 'EXOSBX';

export const SMS_ENUMS = {
	SmsType: ['transactional', 'transactional_opt_in', 'promotional'],
	EncodingType: ['plain', 'unicode'],
	Priority: ['normal', 'high'],
	ShortenUrl: ['true', 'false'],
	'ShortenUrlParams[Tracking]': ['true', 'false'],
} as const;

export const SMS_DETAILED_STATUS = {
	queued: { code: 21010, name: 'PENDING_TO_OPERATOR' },
	missingBody: { code: 23000, name: 'FAILED_MISSING_BODY' },
	/** Invented: the spec names no code for an over-long body inside a dynamic bulk entry. */
	bodyTooLong: { code: 23001, name: 'FAILED_BODY_TOO_LONG' },
	invalidDestination: { code: 23010, name: 'FAILED_INVALID_DESTINATION_NUMBER' },
	/** From the service's public status list; used for an entry with no sender at all. */
	missingSender: { code: 23072, name: 'FAILED_INVALID_SENDER' },
} as const;

type DetailedFailure = Exclude<keyof typeof SMS_DETAILED_STATUS, 'queued'>;

export const SMS_ERROR_CODES = { tooManyRecipients: 40406, tooManyMessages: 40400 } as const;

/** Live mode: `DateSent` of a message not sent yet (the live service's placeholder, the epoch in India time). */
export const LIVE_DATE_SENT_PLACEHOLDER = '1970-01-01 05:30:00';

/**
 * Live mode: an Indian number as the live service writes it back, 0 and the 10 national digits
 * (`+918884733565`, `918884733565` and `8884733565` → `08884733565`); any other text as it is.
 */
export function nationalForm(number: string): string {
	const m = /^(?:\+?91)?([1-9]\d{9})$/.exec(number.replace(/\s+/g, ''));
	return m ? `0${m[1]}` : number;
}

/**
 * The `From` of an accepted message: `<from>/EXOSBX` (spec mode); in live mode `<number>/EXOSBX`
 * with an Indian number in national form, or `/<HEADER>` when the sender is a header (letters).
 */
export function answeredSender(from: string, live: boolean): string {
	if (!live) return `${from}/${SMS_FROM_SUFFIX}`;
	return /[A-Za-z]/.test(from) ? `/${from}` : `${nationalForm(from)}/${SMS_FROM_SUFFIX}`;
}

/**
 * Live mode: an SMSMessage in the order of the live service's recorded XML answer (live-service.md),
 * `SmsUnits` after `Status` and before `DetailedStatusCode`, `DetailedStatus`; spec mode keeps the
 * spec's order (`SmsUnits` last). The XML writer writes the keys in this order (xml.ts).
 */
export function liveSmsOrder<T extends { Status: unknown; SmsUnits: unknown; DetailedStatusCode: unknown; DetailedStatus: unknown }>(message: T) {
	const { SmsUnits, DetailedStatusCode, DetailedStatus, ...head } = message;
	return { ...head, SmsUnits, DetailedStatusCode, DetailedStatus };
}

/** Characters as the service counts them: code points (an emoji is one character). */
export function bodyLength(body: string): number {
	if (body.length <= SMS_LIMITS.bodyChars) return body.length;
	return Array.from(body).length;
}

export function normaliseDestination(to: string): string {
	return to.replace(/\s+/g, '');
}

export function isValidDestination(to: string): boolean {
	return DESTINATION_PATTERN.test(normaliseDestination(to));
}

class BadRequest extends Error {
	constructor(
		message: string,
		readonly code?: number,
	) {
		super(message);
	}
}

function readForm(ctx: RequestContext): FormObject {
	if (!isFormType(ctx.request.contentType)) {
		throw new BadRequest(
			`Content-Type must be application/x-www-form-urlencoded (got ${ctx.request.contentType ?? 'none'})`,
		);
	}
	// a FormShapeError answers 400 as a BadRequest does (guarded)
	return nestForm(ctx.request.form ?? []);
}

/** A single value, or undefined; a list or object where one value belongs is an error. */
function scalar(value: FormValue | undefined, name: string): string | undefined {
	if (value === undefined || typeof value === 'string') return value;
	throw new BadRequest(`Parameter '${name}' must be a single value`);
}

function nonEmpty(value: string | undefined): string | undefined {
	return value !== undefined && value.trim() !== '' ? value : undefined;
}

function checkEnum(value: string | undefined, name: string, allowed: readonly string[]): void {
	if (value !== undefined && !allowed.includes(value)) {
		throw new BadRequest(`Invalid value '${value}' for ${name}; expected one of: ${allowed.join(', ')}`);
	}
}

function checkUrl(value: string | undefined, name: string): void {
	if (value === undefined) return;
	let ok = false;
	try {
		const url = new URL(value);
		ok = url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		ok = false;
	}
	if (!ok) throw new BadRequest(`${name} must be an absolute http(s) URL (got '${value}')`);
}

interface CommonOptions {
	dltEntityId?: string;
	encodingType?: string;
	priority?: string;
	shortenUrl?: string;
	shortenUrlParams?: StoredSmsMessage['shortenUrlParams'];
	statusCallback?: string;
	customField?: string;
}

/** Request-level options both endpoints share; validates their values. */
function commonOptions(form: FormObject): CommonOptions {
	const options: CommonOptions = {
		dltEntityId: scalar(form.DltEntityId, 'DltEntityId'),
		encodingType: scalar(form.EncodingType, 'EncodingType'),
		priority: scalar(form.Priority, 'Priority'),
		shortenUrl: scalar(form.ShortenUrl, 'ShortenUrl'),
		statusCallback: nonEmpty(scalar(form.StatusCallback, 'StatusCallback')),
		customField: scalar(form.CustomField, 'CustomField'),
	};
	checkEnum(options.encodingType, 'EncodingType', SMS_ENUMS.EncodingType);
	checkEnum(options.priority, 'Priority', SMS_ENUMS.Priority);
	checkEnum(options.shortenUrl, 'ShortenUrl', SMS_ENUMS.ShortenUrl);
	checkUrl(options.statusCallback, 'StatusCallback');
	const params = form.ShortenUrlParams;
	if (params !== undefined) {
		if (!isFormObject(params)) {
			throw new BadRequest(
				'ShortenUrlParams must be sent as ShortenUrlParams[Header], ShortenUrlParams[Tracking], ShortenUrlParams[ClickTrackingCallbackUrl]',
			);
		}
		options.shortenUrlParams = {
			header: scalar(params.Header, 'ShortenUrlParams[Header]'),
			tracking: scalar(params.Tracking, 'ShortenUrlParams[Tracking]'),
			clickTrackingCallbackUrl: nonEmpty(
				scalar(params.ClickTrackingCallbackUrl, 'ShortenUrlParams[ClickTrackingCallbackUrl]'),
			),
		};
		checkEnum(options.shortenUrlParams.tracking, 'ShortenUrlParams[Tracking]', SMS_ENUMS['ShortenUrlParams[Tracking]']);
		checkUrl(options.shortenUrlParams.clickTrackingCallbackUrl, 'ShortenUrlParams[ClickTrackingCallbackUrl]');
	}
	return options;
}

/** One planned entry of the answer: accepted or failed with a detailed status. */
interface Entry {
	from?: string;
	to?: string;
	body: string;
	failure?: DetailedFailure;
	smsType?: string;
	dltTemplateId?: string;
}

/** How an answer writes its messages; live mode: India wall-clock dates, the DateSent placeholder, national To. */
interface AnswerStyle {
	accountSid: string;
	/** DateCreated and DateUpdated as answered */
	answeredAt: string;
	dateSent: string | null;
	live: boolean;
}

/** One SMSMessage of the answer, in the spec's field order (live mode: the recorded order). Without a sid: a failed entry. */
function messageView(
	style: AnswerStyle,
	m: { sid: string | null; from: string | null; to: string | null; body: string; status: string; detail: { code: number; name: string } },
) {
	const view = {
		Sid: m.sid,
		AccountSid: style.accountSid,
		From: m.from,
		To: m.to === null || !style.live ? m.to : nationalForm(m.to),
		DateCreated: style.answeredAt,
		DateUpdated: style.answeredAt,
		DateSent: style.dateSent,
		Body: m.body,
		Direction: m.sid === null ? null : 'outbound-api',
		Uri: m.sid === null ? null : `/v1/Accounts/${style.accountSid}/SMS/Messages/${m.sid}.json`,
		ApiVersion: null,
		Price: null,
		Status: m.status,
		DetailedStatusCode: m.detail.code,
		DetailedStatus: m.detail.name,
		SmsUnits: null,
	};
	return { SMSMessage: style.live ? liveSmsOrder(view) : view };
}

/** Keeps an accepted message (the store keeps the spec's forms), its body shortened when asked. */
function storeMessage(ctx: RequestContext, entry: Entry & { from: string; to: string }, sid: string, how: { endpoint: 'send' | 'bulksend'; options: CommonOptions; now: string }): StoredSmsMessage {
	const { endpoint, options, now } = how;
	const stored: StoredSmsMessage = {
		sid,
		accountSid: ctx.params.sid,
		endpoint,
		requestId: ctx.request.id,
		from: entry.from,
		to: entry.to,
		body: entry.body,
		status: 'queued',
		detailedStatusCode: SMS_DETAILED_STATUS.queued.code,
		detailedStatus: SMS_DETAILED_STATUS.queued.name,
		dateCreated: now,
		dateUpdated: now,
		dateSent: null,
		smsUnits: null,
		...options,
		smsType: entry.smsType,
		dltTemplateId: entry.dltTemplateId,
	};
	if (options.shortenUrl === 'true') {
		// As the service does: the handset gets short links in place of the body's URLs.
		const { deliveredBody, shortLinks } = shortenBody(entry.body, ctx.origin, ctx.state.shortLinks);
		stored.deliveredBody = deliveredBody;
		stored.shortLinks = shortLinks;
		for (const link of shortLinks) ctx.state.shortLinks.set(link.code, { ...link, smsSid: sid });
	}
	ctx.state.smsMessages.set(sid, stored);
	return stored;
}

function answer(ctx: RequestContext, endpoint: 'send' | 'bulksend', entries: Entry[], options: CommonOptions): Reply {
	const at = new Date();
	const live = ctx.state.live;
	const style: AnswerStyle = { accountSid: ctx.params.sid, answeredAt: v1DateTime(at, live), dateSent: live ? LIVE_DATE_SENT_PLACEHOLDER : null, live };
	const how = { endpoint, options, now: v1Timestamp(at) };
	const sids = randomBytes(16 * entries.length).toString('hex');
	const accepted: StoredSmsMessage[] = [];
	const out = entries.map((entry, i) => {
		if (entry.failure) {
			const detail = SMS_DETAILED_STATUS[entry.failure];
			return messageView(style, { sid: null, from: entry.from ?? null, to: entry.to ?? null, body: entry.body, status: 'failed', detail });
		}
		const sid = sids.slice(i * 32, i * 32 + 32);
		const stored = storeMessage(ctx, { ...entry, from: entry.from as string, to: normaliseDestination(entry.to as string) }, sid, how);
		if (stored.statusCallback) accepted.push(stored);
		const queued = SMS_DETAILED_STATUS.queued;
		return messageView(style, { sid, from: answeredSender(stored.from, live), to: stored.to, body: entry.body, status: 'queued', detail: queued });
	});
	// Delivery reports only when a StatusCallback was given: nothing is scheduled otherwise.
	if (accepted.length) ctx.callbacks?.smsAccepted(accepted);
	return json(entries.some((entry) => entry.failure) ? 207 : 200, out);
}

function guarded(handler: (ctx: RequestContext) => Reply): Handler {
	const run = async (ctx: RequestContext) => handler(ctx);
	return (ctx) =>
		run(ctx).catch((error: unknown) => {
			if (error instanceof BadRequest) {
				return fail(ctx, 400, error.message, error.code !== undefined ? { code: error.code } : {});
			}
			if (error instanceof FormShapeError) return fail(ctx, 400, error.message, {});
			throw error;
		});
}

/** POST Sms/send: one `To`, or `To[]` repeated (static bulk); `To[0]`, `To[1]`... are read as a list too. */
export const sendSms = guarded((ctx) => {
	const form = readForm(ctx);
	const from = nonEmpty(scalar(form.From, 'From'));
	if (from === undefined) throw new BadRequest('Missing parameter: From');

	const toValue = form.To;
	let recipients: string[];
	if (toValue === undefined) throw new BadRequest("Missing parameter: To (one 'To', or 'To[]' repeated per recipient)");
	if (typeof toValue === 'string') {
		recipients = [toValue];
	} else if (Array.isArray(toValue)) {
		recipients = toValue.map((v) => scalar(v, 'To[]') as string);
	} else {
		const entries = indexedEntries(toValue);
		if (!entries) throw new BadRequest("To must be one value or a list sent as 'To[]'");
		recipients = entries.map(([i, v]) => scalar(v, `To[${i}]`) as string);
	}

	const body = scalar(form.Body, 'Body');
	if (body === undefined || body === '') throw new BadRequest('Missing parameter: Body');
	if (recipients.length > SMS_LIMITS.staticRecipients) {
		throw new BadRequest(
			`Too many recipients: ${recipients.length} given, at most ${SMS_LIMITS.staticRecipients} are allowed in one request`,
			SMS_ERROR_CODES.tooManyRecipients,
		);
	}
	const length = bodyLength(body);
	if (length > SMS_LIMITS.bodyChars) {
		throw new BadRequest(`Body is ${length} characters long; at most ${SMS_LIMITS.bodyChars} are allowed`);
	}
	const smsType = scalar(form.SmsType, 'SmsType');
	checkEnum(smsType, 'SmsType', SMS_ENUMS.SmsType);
	const dltTemplateId = scalar(form.DltTemplateId, 'DltTemplateId');
	const options = commonOptions(form);

	const entries: Entry[] = recipients.map((to) => ({
		from,
		to: nonEmpty(to) === undefined ? undefined : to,
		body,
		failure: isValidDestination(to) ? undefined : 'invalidDestination',
		smsType,
		dltTemplateId,
	}));
	return answer(ctx, 'send', entries, options);
});

/** POST Sms/bulksend: `Messages[N][To|Body|From|SmsType|DltTemplateId]`, answered in index order. */
export const bulkSendSms = guarded((ctx) => {
	const form = readForm(ctx);
	const outerFrom = nonEmpty(scalar(form.From, 'From'));
	const messages = form.Messages;
	if (messages === undefined) throw new BadRequest('Missing parameter: Messages (send Messages[0][To], Messages[0][Body], ...)');
	const indexed = isFormObject(messages) ? indexedEntries(messages) : undefined;
	if (!indexed) {
		throw new BadRequest('Messages must be indexed as Messages[N][To], Messages[N][Body] with N = 0, 1, 2, ...');
	}
	if (indexed.length > SMS_LIMITS.dynamicMessages) {
		throw new BadRequest(
			`Too many messages: ${indexed.length} given, at most ${SMS_LIMITS.dynamicMessages} are allowed in one request`,
			SMS_ERROR_CODES.tooManyMessages,
		);
	}
	const options = commonOptions(form);

	const entries: Entry[] = indexed.map(([n, value]) => {
		if (!isFormObject(value)) throw new BadRequest(`Messages[${n}] must carry fields: Messages[${n}][To], Messages[${n}][Body]`);
		const to = nonEmpty(scalar(value.To, `Messages[${n}][To]`));
		const body = scalar(value.Body, `Messages[${n}][Body]`) ?? '';
		const from = nonEmpty(scalar(value.From, `Messages[${n}][From]`)) ?? outerFrom;
		const smsType = scalar(value.SmsType, `Messages[${n}][SmsType]`);
		checkEnum(smsType, `Messages[${n}][SmsType]`, SMS_ENUMS.SmsType);
		const dltTemplateId = scalar(value.DltTemplateId, `Messages[${n}][DltTemplateId]`);
		let failure: DetailedFailure | undefined;
		if (body === '') failure = 'missingBody';
		else if (bodyLength(body) > SMS_LIMITS.bodyChars) failure = 'bodyTooLong';
		else if (to === undefined || !isValidDestination(to)) failure = 'invalidDestination';
		else if (from === undefined) failure = 'missingSender';
		return { from, to, body, failure, smsType, dltTemplateId };
	});
	return answer(ctx, 'bulksend', entries, options);
});

export const smsRoutes: RouteDefinition[] = [
	{ base: 'base', method: 'POST', path: '/v1/Accounts/:sid/Sms/send', auth: 'basic', handler: sendSms },
	{ base: 'base', method: 'POST', path: '/v1/Accounts/:sid/Sms/bulksend', auth: 'basic', handler: bulkSendSms },
];
