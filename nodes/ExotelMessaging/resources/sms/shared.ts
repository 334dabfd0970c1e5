import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ENCODING_TYPE_OPTIONS, ENCODING_TYPES, PRIORITIES, PRIORITY_OPTIONS, SMS_TYPE_OPTIONS, SMS_TYPES } from '../../../shared/descriptions';
import type { FormValue } from '../../../shared/encoding';
import { LIMITS } from '../../../shared/limits';
import type { ItemOutcome, ParameterReader } from '../../../shared/operation';
import type { FieldCheck } from '../../../shared/validation';
import { codeOf, messageItem, sendStatusOf, textOf, unansweredMessage } from '../../../shared/vocabulary';



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

/**
 * Status Callback URL (kept in sight, the Messaging Trigger gives users a URL for it) and the
 * Options collection shared by the SMS send operations, plus fields of one operation.
 */
export function smsRequestOptions(operationFields: INodeProperties[], note?: string): INodeProperties[] {
	const requestFields: INodeProperties[] = [
		{
			displayName: 'Click Tracking Callback URL',
			name: 'clickTrackingCallbackUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/webhook/exotel-clicks',
			description: 'Webhook for click events on shortened links (needs Shorten URL and Track Clicks)',
		},
		{
			displayName: 'Custom Field',
			name: 'customField',
			type: 'string',
			default: '',
			description: 'Your own reference, returned in the status callback',
		},
		{
			displayName: 'DLT Entity ID',
			name: 'dltEntityId',
			type: 'string',
			default: '',
			hint: 'Mandatory for an Indian business sending to Indian numbers',
			description: 'Entity ID registered on the DLT portal',
		},
		{
			displayName: 'Encoding Type',
			name: 'encodingType',
			type: 'options',
			options: ENCODING_TYPE_OPTIONS,
			default: 'plain',
		},
		{
			displayName: 'Priority',
			name: 'priority',
			type: 'options',
			options: PRIORITY_OPTIONS,
			default: 'normal',
			hint: 'Use High only for OTP messages',
		},
		{
			displayName: 'Short URL Header',
			name: 'shortenUrlHeader',
			type: 'string',
			default: '',
			description: 'DLT-registered header for the short-URL domain',
		},
		{
			displayName: 'Shorten URL',
			name: 'shortenUrl',
			type: 'boolean',
			default: false,
			description: 'Whether to shorten URLs in the body (chargeable)',
		},
		{
			displayName: 'Track Clicks',
			name: 'shortenUrlTracking',
			type: 'boolean',
			default: false,
			description: 'Whether to track clicks on shortened URLs (needs Shorten URL)',
		},
	];
	return [
		{
			displayName: 'Status Callback URL',
			name: 'statusCallback',
			type: 'string',
			default: '',
			placeholder: 'https://your-n8n.example.com/webhook/exotel-messaging',
			hint: "Paste the Exotel Messaging Trigger's URL here to receive a delivery report for each message",
		},
		{
			displayName: 'Indian senders sending to Indian numbers must add DLT Entity ID and DLT Template ID under Options',
			name: 'dltNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Options',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			...(note ? { description: note } : {}),
			options: [...requestFields, ...operationFields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	];
}

/** From, (recipients) and Body, as both SMS sends show them. */
export function senderAndBody(bodyDescription: string, recipient: INodeProperties): INodeProperties[] {
	return [
		{
			displayName: 'From',
			name: 'from',
			type: 'string',
			required: true,
			default: '',
			placeholder: '+918047112233',
			description: 'Virtual number or approved sender ID (the DLT header for Indian traffic)',
		},
		recipient,
		{
			displayName: 'Body',
			name: 'body',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 4 },
			description: `${bodyDescription}, at most ${LIMITS.sms.bodyLength} characters`,
		},
	];
}

/** Message fields both sends offer under Options. */
export const MESSAGE_FIELDS: INodeProperties[] = [
	{ displayName: 'DLT Template ID', name: 'dltTemplateId', type: 'string', default: '', description: 'DLT content template ID of the message' },
	{ displayName: 'SMS Type', name: 'smsType', type: 'options', options: SMS_TYPE_OPTIONS, default: 'transactional' },
];

/** The checks every SMS send makes of its request-level options and message type. */
export function smsOptionChecks(request: SmsRequestOptions, smsType: unknown): FieldCheck[] {
	return [
		[smsType, { label: 'SMS Type', oneOf: SMS_TYPES }],
		[request.EncodingType, { label: 'Encoding Type', oneOf: ENCODING_TYPES }],
		[request.Priority, { label: 'Priority', oneOf: PRIORITIES }],
		[request.StatusCallback, { label: 'Status Callback URL', format: 'url' }],
		[request.ShortenUrlParams?.ClickTrackingCallbackUrl, { label: 'Click Tracking Callback URL', format: 'url' }],
	];
}

/** The service tracks clicks only on shortened links. */
export function trackingWithoutShortening(extra: IDataObject): boolean {
	return extra.shortenUrlTracking === true && extra.shortenUrl !== true;
}

/** Reads the request-level parameters of one item; unset ones stay out of the request. */
export function readSmsRequestOptions(param: ParameterReader, itemIndex: number): SmsRequestOptions {
	const extra = param('additionalFields', itemIndex, {}) as IDataObject;
	const statusCallback = String(param('statusCallback', itemIndex, '')).trim();
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

/** SMS Type and DLT Template ID of one item, left out when unset. */
export function readSmsMessageOptions(param: ParameterReader, itemIndex: number): SmsMessageOptions {
	const extra = param('additionalFields', itemIndex, {}) as IDataObject;
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

/** One SMSMessage answer entry as the item's output; a `failed` entry becomes that item's error. */
export function smsOutcome(
	context: IExecuteFunctions,
	itemIndex: number,
	entry: IDataObject | undefined,
	sent: { to: string; from: string },
): ItemOutcome {
	const message = (entry?.SMSMessage ?? entry) as IDataObject | undefined;
	if (!message || typeof message !== 'object') {
		return {
			itemIndex,
			json: unansweredMessage('sms', sent),
			error: new NodeApiError(context.getNode(), {}, {
				message: 'The service answered without an entry for this message',
				description: 'Its answer had fewer SMSMessage entries than messages sent; the message may or may not have been accepted.',
				itemIndex,
			}),
		};
	}
	const json = smsItem(message, sent.from);
	if (json.status === 'failed') {
		return {
			itemIndex,
			json,
			error: new NodeApiError(context.getNode(), { ...message } as JsonObject, {
				message: `Message not accepted: ${String(message.DetailedStatus)} (${String(message.DetailedStatusCode)})`,
				description: `To ${String(message.To ?? '')}: the service reported Status "${String(message.Status)}" for this message; the other messages of the request are unaffected.`,
				httpCode: '207',
				itemIndex,
			}),
		};
	}
	return { itemIndex, json };
}

/**
 * An SMSMessage in the package's vocabulary, the entry itself under `raw`. `from` is the sender as
 * sent: the service's `From` adds a `/<suffix>` to it on an accepted message.
 */
export function smsItem(message: IDataObject, sender: string): IDataObject {
	return messageItem(
		{
			messageSid: textOf(message.Sid),
			status: sendStatusOf(message.Status),
			channel: 'sms',
			to: textOf(message.To),
			from: textOf(sender),
			code: codeOf(message.DetailedStatusCode),
		},
		message,
	);
}
