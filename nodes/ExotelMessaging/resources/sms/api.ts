// What the SMS sends read and send: an item's checked fields, the static and dynamic bulk forms, each message's outcome.
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOutcome } from '../../../shared/items/outcomes';
import type { ParameterReader } from '../../../shared/items/parameters';
import { codeOf, messageItem, refusedEntry, sendStatusOf, textOf, unansweredEntry } from '../../../shared/output/vocabulary';
import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, trimmed } from '../../../shared/rules/validation';
import { objectOf, sameNumber } from '../../../shared/rules/values';
import type { FormValue } from '../../../shared/transport/encoding';
import { dltRefusal, type CompiledTemplate } from '../../dlt';
import type { SentMessage } from '../../messages';
import { smsChoiceChecks } from './fields';

/** Request-level parameters of the v1 SMS endpoints, in the service's own names. */
export interface SmsRequestOptions {
	CustomField?: string;
	DltEntityId?: string;
	EncodingType?: string;
	Priority?: string;
	ShortenUrl?: boolean;
	ShortenUrlParams?: { Header?: string; Tracking?: boolean; ClickTrackingCallbackUrl?: string };
	StatusCallback?: string;
}

/** Per-message parameters of dynamic bulk (`Messages[N][...]`). */
export interface SmsMessageFields {
	To: string;
	Body: string;
	From: string;
	SmsType?: string;
	DltTemplateId?: string;
}

/** The message fields of one item that are the user's options rather than its addressing. */
export type SmsMessageOptions = Pick<SmsMessageFields, 'SmsType' | 'DltTemplateId'>;

/**
 * All static bulk (`Sms/send` with `To[]`) carries besides From, To[] and Body: messaging.md
 * § Static bulk SMS. Every other option only dynamic bulk (`Sms/bulksend`) has a field for.
 */
const STATIC_BULK_OPTIONS: ReadonlyArray<keyof SmsRequestOptions> = ['DltEntityId', 'ShortenUrl', 'ShortenUrlParams'];

/** What both SMS sends read of an item besides its recipients: sender, body and options, checked. */
export interface SmsItem {
	from: string;
	body: string;
	request: SmsRequestOptions;
	options: SmsMessageOptions;
}

/**
 * Reads and checks From, the recipients (`to`, read by the caller), Body and the options of one
 * item, and Body against its DLT Template Text when set (`templates`: compiled once a run); the
 * first problem becomes the item's error.
 */
export function readSmsItem(
	node: INode,
	param: ParameterReader,
	itemIndex: number,
	to: string | string[],
	templates: (text: string) => CompiledTemplate,
	typedTo: string | string[] = to,
): SmsItem | NodeOperationError {
	const from = trimmed(param('from', itemIndex, ''));
	const body = String(param('body', itemIndex, ''));
	const extra = param('additionalFields', itemIndex, {}) as IDataObject;
	const request = readSmsRequestOptions(extra, trimmed(param('statusCallback', itemIndex, '')));
	const invalid = fieldsError(node, itemIndex, [
		[from, { label: 'From', required: true }],
		[typedTo, { label: 'To', required: true, format: 'phone' }],
		[body, { label: 'Body', required: true, maxLength: LIMITS.sms.bodyLength }],
		...smsChoiceChecks({ smsType: extra.smsType, encodingType: request.EncodingType, priority: request.Priority }),
		[request.StatusCallback, { label: 'Status Callback URL', format: 'url' }],
		[request.ShortenUrlParams?.ClickTrackingCallbackUrl, { label: 'Click Tracking Callback URL', format: 'url' }],
	]);
	if (invalid) return invalid;
	// The service tracks clicks only on shortened links.
	if (extra.shortenUrlTracking === true && extra.shortenUrl !== true) {
		return new NodeOperationError(node, `Track Clicks needs Shorten URL turned on (item ${itemIndex})`, { itemIndex });
	}
	const refused = dltRefusal(node, itemIndex, body, extra.dltTemplateText, { templates, shortened: request.ShortenUrl === true, label: 'Body' });
	if (refused) return refused;
	return { from, body, request, options: readSmsMessageOptions(extra) };
}

/** The request-level parameters of one item's options and Status Callback URL; unset ones stay out of the request. */
function readSmsRequestOptions(extra: IDataObject, statusCallback: string): SmsRequestOptions {
	const options: SmsRequestOptions = {};
	if (extra.customField) options.CustomField = String(extra.customField);
	if (extra.dltEntityId) options.DltEntityId = String(extra.dltEntityId);
	if (extra.encodingType) options.EncodingType = String(extra.encodingType);
	if (extra.priority) options.Priority = String(extra.priority);
	if (statusCallback) options.StatusCallback = statusCallback;
	if (extra.shortenUrl === true) {
		options.ShortenUrl = true;
		const params: SmsRequestOptions['ShortenUrlParams'] = {};
		if (extra.shortenUrlHeader) params.Header = String(extra.shortenUrlHeader);
		if (extra.shortenUrlTracking === true) params.Tracking = true;
		if (extra.clickTrackingCallbackUrl) params.ClickTrackingCallbackUrl = String(extra.clickTrackingCallbackUrl);
		if (Object.keys(params).length > 0) options.ShortenUrlParams = params;
	}
	return options;
}

/** SMS Type and DLT Template ID of one item's options, left out when unset. */
function readSmsMessageOptions(extra: IDataObject): SmsMessageOptions {
	const options: SmsMessageOptions = {};
	if (extra.smsType) options.SmsType = String(extra.smsType);
	if (extra.dltTemplateId) options.DltTemplateId = String(extra.dltTemplateId);
	return options;
}

/** Whether static bulk has a field for every option set; if not, only dynamic bulk sends them all. */
export function staticBulkCarries(request: SmsRequestOptions, message: SmsMessageOptions): boolean {
	const set = [...Object.keys(request), ...Object.keys(message)] as Array<keyof SmsRequestOptions>;
	return set.every((key) => STATIC_BULK_OPTIONS.includes(key));
}

/** A static bulk form: From, To[] (repeated), Body and only the options its table lists. */
export function staticBulkForm(from: string, recipients: string[], body: string, request: SmsRequestOptions): Record<string, FormValue> {
	const form: Record<string, FormValue> = { From: from, To: recipients, Body: body };
	for (const key of STATIC_BULK_OPTIONS) form[key] = request[key];
	return form;
}

/** A dynamic bulk form: the first sender is the default, messages repeat From only where they differ. */
export function dynamicBulkForm(messages: SmsMessageFields[], request: SmsRequestOptions): Record<string, FormValue> {
	const defaultFrom = messages[0].From;
	return {
		From: defaultFrom,
		Messages: messages.map((message) => ({
			To: message.To,
			Body: message.Body,
			From: message.From === defaultFrom ? undefined : message.From,
			SmsType: message.SmsType,
			DltTemplateId: message.DltTemplateId,
		})),
		...(request as Record<string, FormValue>),
	};
}

/**
 * The entries of a v1 SMS answer (a list of `{SMSMessage}`, or one such object where the live service
 * answers a single recipient), each the outcome of the message sent at its place.
 */
export function smsOutcomes(node: INode, answer: unknown, sent: SentMessage[]): ItemOutcome[] {
	const entries = Array.isArray(answer) ? (answer as IDataObject[]) : objectOf(objectOf(answer)?.SMSMessage) ? [answer as IDataObject] : [];
	return sent.map((message, position) => smsOutcome(node, entries[position], message));
}

/** One SMSMessage answer entry as the item's output; a `failed` entry becomes that item's error. */
function smsOutcome(node: INode, entry: IDataObject | undefined, sent: SentMessage): ItemOutcome {
	const { itemIndex } = sent;
	const message = (entry?.SMSMessage ?? entry) as IDataObject | undefined;
	if (!message || typeof message !== 'object') {
		return unansweredEntry(node, 'sms', itemIndex, sent, 'Its answer had fewer SMSMessage entries');
	}
	const json = smsItem(message, sent);
	if (json.status !== 'failed') return { itemIndex, json };
	return refusedEntry(node, itemIndex, json, {
		reason: `${String(message.DetailedStatus)} (${String(message.DetailedStatusCode)})`,
		description: `To ${String(message.To ?? '')}: the service reported Status "${String(message.Status)}" for this message; the other messages of the request are unaffected.`,
		httpCode: '207',
	});
}

/**
 * An SMSMessage in the package's vocabulary, the entry itself under `raw`. `from` is the sender as
 * sent: the service's `From` adds a `/<suffix>` to it on an accepted message. `to` is the recipient
 * as sent when the answer names the same number (the live service writes it national: `08884733565`).
 */
function smsItem(message: IDataObject, sent: SentMessage): IDataObject {
	const to = sameNumber(sent.to, message.To) ? sent.to : message.To;
	return messageItem(
		{
			messageSid: textOf(message.Sid),
			status: sendStatusOf(message.Status),
			channel: 'sms',
			to: textOf(to),
			from: textOf(sent.from),
			code: codeOf(message.DetailedStatusCode),
		},
		message,
	);
}
