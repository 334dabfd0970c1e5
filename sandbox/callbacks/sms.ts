/**
 * SMS callbacks: the StatusCallback of an accepted SMS (form-encoded, unsigned) on its terminal
 * state, the same on demand, and the click-tracking callback of a shortened URL.
 */
import { dltMatches } from '../dlt';
import { v1DateTime } from '../http';
import { SANDBOX_CHATAPP_CUSTOMER, smsOutcomeFor } from '../fixtures';
import type { StoredSmsMessage } from '../stored';
import { applyFieldOverrides, formatOption, formPost, hex, inputObject, isoWithOffset, optString, payloadOption, signatureOption, v1Date } from './payload';
import { CALLBACK_TIMING, CallbackInputError, type DeliveryRequest, type PayloadContext, type ScheduledReport } from './types';

/** SMS terminal states by sandbox outcome (DetailedStatus codes from the service's public list). */
export const SMS_TERMINAL = {
	sent: { status: 'sent', code: 20005, name: 'DELIVERED_TO_HANDSET', description: 'Delivered to the handset' },
	failed_dnd: { status: 'failed_dnd', code: 23005, name: 'FAILED_DND', description: 'The recipient is on the DND registry' },
	failed: { status: 'failed', code: 24105, name: 'FAILED_HANDSET_ERROR', description: 'The handset could not take the message' },
	dltMismatch: {
		status: 'failed',
		code: 23185,
		name: 'DLT_TEMPLATE_DOES_NOT_MATCH',
		description: 'The message does not match its DLT content template',
	},
	fallbackNotTriggered: {
		status: 'failed',
		code: 24010,
		name: 'FAILED_SYSTEM_ERROR',
		description: 'The SMS fallback could not be triggered',
	},
} as const;

/**
 * SMS units, approximately: 160 characters (153 per part when longer) for plain text, 70 (67) when
 * the body has any non-ASCII character or the encoding is unicode.
 */
export function smsUnitsOf(body: string, encoding?: string): number {
	const chars = Array.from(body);
	const unicode = encoding === 'unicode' || /[\u0080-\uffff]/.test(body);
	const [single, part] = unicode ? [70, 67] : [160, 153];
	return chars.length <= single ? 1 : Math.ceil(chars.length / part);
}

/** How an accepted SMS ends: as the operators scrub it against its DLT template, then by the sandbox's number rules. */
export function smsOutcomeOf(m: StoredSmsMessage, templates: ReadonlyMap<string, string>): keyof typeof SMS_TERMINAL {
	const template = m.dltTemplateId === undefined ? undefined : templates.get(m.dltTemplateId);
	// the operator sees the text as delivered: short links in place of URLs
	if (template !== undefined && !dltMatches(template, m.deliveredBody ?? m.body)) return 'dltMismatch';
	return smsOutcomeFor(m.to);
}

/** `live`: DateSent in India wall-clock time, as the live service's v1 dates. */
function smsStatusFields(m: StoredSmsMessage, outcome: keyof typeof SMS_TERMINAL, live = false): Record<string, string> {
	const terminal = SMS_TERMINAL[outcome];
	const fields: Record<string, string> = {
		SmsSid: m.sid,
		To: m.to,
		Status: terminal.status,
		// what the handset receives (short links in place of URLs with ShortenUrl=true)
		SmsUnits: String(smsUnitsOf(m.deliveredBody ?? m.body, m.encodingType)),
		DetailedStatus: terminal.name,
		DetailedStatusCode: String(terminal.code),
		DateSent: live ? v1DateTime(new Date(), true) : v1Date(),
	};
	if (m.customField !== undefined) fields.CustomField = m.customField;
	return fields;
}

/** The StatusCallback of each accepted SMS that has one, on its terminal state. */
export function smsStatusReports(messages: readonly StoredSmsMessage[], templates: ReadonlyMap<string, string>, isLive: () => boolean = () => false): ScheduledReport[] {
	return messages
		.filter((m) => m.statusCallback)
		.map((m) => ({
			delayMs: CALLBACK_TIMING.smsReportMs,
			make: () => formPost(m.statusCallback as string, 'sms-status', smsStatusFields(m, smsOutcomeOf(m, templates), isLive()), { messageSid: m.sid }),
		}));
}

/**
 * An SMS StatusCallback (unsigned). Input: `{url?, sid?, to?, status? ('sent'|'failed_dnd'|'failed'),
 * fields? (override; null removes a field), format? ('form' (default) | 'json'), payload?, signature?}`.
 * With `sid` of an accepted SMS, the fields and `url` (its StatusCallback) come from it.
 */
export function smsCallbackRequest(raw: unknown, ctx: PayloadContext): DeliveryRequest {
	const input = inputObject(raw);
	const sid = optString(input, 'sid');
	const stored = sid ? ctx.state.smsMessages.get(sid) : undefined;
	const url = optString(input, 'url') ?? stored?.statusCallback;
	if (!url) throw new CallbackInputError('url is required (or sid of an SMS sent with a StatusCallback)');
	const { format, contentType } = formatOption(input, 'form');
	const signature = signatureOption(input);
	const custom = payloadOption(input);
	if (custom) return { url, kind: 'sms-status', ...custom, contentType, signByDefault: false, signature, messageSid: sid };
	const statusIn = optString(input, 'status');
	if (statusIn !== undefined && !['sent', 'failed_dnd', 'failed'].includes(statusIn)) {
		throw new CallbackInputError('status must be one of: sent, failed_dnd, failed');
	}
	const to = optString(input, 'to') ?? stored?.to ?? SANDBOX_CHATAPP_CUSTOMER;
	const base: StoredSmsMessage = stored ?? {
		sid: sid ?? hex(32),
		accountSid: ctx.accountSid,
		endpoint: 'send',
		requestId: 0,
		from: 'SANDBX',
		to,
		body: 'Sandbox message',
		status: 'queued',
		detailedStatusCode: 21010,
		detailedStatus: 'PENDING_TO_OPERATOR',
		dateCreated: v1Date(),
		dateUpdated: v1Date(),
		dateSent: null,
		smsUnits: null,
	};
	const message = { ...base, to };
	const fields = smsStatusFields(message, (statusIn as keyof typeof SMS_TERMINAL | undefined) ?? smsOutcomeOf(message, ctx.state.dltTemplates), ctx.state.live);
	applyFieldOverrides(fields, input.fields, (value) => String(value));
	const body = format === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
	return { url, kind: 'sms-status', body, contentType, signByDefault: false, signature, messageSid: base.sid };
}

/**
 * A click-tracking callback (unsigned; JSON by default). Input: `{url?, sid? (an SMS sid), to?,
 * fields? (override; null removes), format? ('json' | 'form'), payload?, signature?}`; `url`
 * defaults to the SMS's ShortenUrlParams[ClickTrackingCallbackUrl].
 */
export function clickCallbackRequest(raw: unknown, ctx: PayloadContext): DeliveryRequest {
	const input = inputObject(raw);
	const sid = optString(input, 'sid');
	const stored = sid ? ctx.state.smsMessages.get(sid) : undefined;
	const url = optString(input, 'url') ?? stored?.shortenUrlParams?.clickTrackingCallbackUrl;
	if (!url) throw new CallbackInputError('url is required (or sid of an SMS sent with ShortenUrlParams[ClickTrackingCallbackUrl])');
	const { format, contentType } = formatOption(input, 'json');
	const signature = signatureOption(input);
	const custom = payloadOption(input);
	if (custom) return { url, kind: 'click', ...custom, contentType, signByDefault: false, signature, messageSid: sid };
	const now = new Date();
	const shortCode = hex(6);
	const longUrl = /https?:\/\/\S+/.exec(stored?.body ?? '')?.[0] ?? 'https://www.example.com/offer';
	const fields: Record<string, string | number | boolean | null> = {
		sid: hex(32),
		short_url: `https://exo.tl/${shortCode}`,
		short_code: shortCode,
		long_url: longUrl,
		tracking: true,
		custom_field: stored?.customField ?? null,
		expires_at: isoWithOffset(new Date(now.getTime() + 30 * 86_400_000)),
		created_time: isoWithOffset(now),
		last_viewed: isoWithOffset(now),
		total_clicks: 1,
		account_sid: ctx.accountSid,
		country_code: 'IN',
		date_created: isoWithOffset(now),
		sms_sid: sid ?? hex(32),
		to: optString(input, 'to') ?? stored?.to ?? SANDBOX_CHATAPP_CUSTOMER,
		city: 'Bengaluru',
		country: 'IN',
		ip: '203.0.113.7',
		postal_code: '560001',
		region: 'KA',
		accuracy_radius: 20,
		os_version: '14',
		os_name: 'Android',
		device_name: 'Pixel 8',
		platform_type: 'mobile',
	};
	applyFieldOverrides(fields, input.fields, (value) => value as string | number | boolean);
	const body =
		format === 'json'
			? JSON.stringify(fields)
			: new URLSearchParams(
					Object.entries(fields).map(([k, v]) => [k, v === null ? '' : String(v)] as [string, string]),
				).toString();
	return { url, kind: 'click', body, contentType, signByDefault: false, signature, messageSid: sid };
}
