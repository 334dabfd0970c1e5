// The fields of the SMS sends: From, To, Body, Status Callback URL and the Options, with their SMS choices (also the RCS SMS fallback's).
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsCollection, statusCallbackField } from '../../../shared/descriptions/fields';
import { LIMITS } from '../../../shared/rules/limits';
import type { FieldCheck } from '../../../shared/rules/validation';
import { dltTemplateTextField } from '../../dlt';
import { senderField } from '../../messages';

/** SMS option lists shared by the SMS sends and the RCS SMS fallback. */
export const SMS_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Promotional', value: 'promotional' },
	{ name: 'Transactional', value: 'transactional' },
	{ name: 'Transactional Opt-In', value: 'transactional_opt_in' },
];

export const ENCODING_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Plain', value: 'plain' },
	{ name: 'Unicode', value: 'unicode', description: 'For non-Latin scripts and emoji' },
];

export const PRIORITY_OPTIONS: INodePropertyOptions[] = [
	{ name: 'High', value: 'high', description: 'Only for OTP messages' },
	{ name: 'Normal', value: 'normal' },
];

/**
 * The checks that an SMS's type, encoding and priority, expressions included, are values the
 * service takes; `label` goes before each field's name ("Fallback ").
 */
export function smsChoiceChecks(choices: { smsType: unknown; encodingType: unknown; priority: unknown }, label = ''): FieldCheck[] {
	return [
		[choices.smsType, { label: `${label}SMS Type`, choices: SMS_TYPE_OPTIONS }],
		[choices.encodingType, { label: `${label}Encoding Type`, choices: ENCODING_TYPE_OPTIONS }],
		[choices.priority, { label: `${label}Priority`, choices: PRIORITY_OPTIONS }],
	];
}

/** Encoding Type and Priority as an SMS is sent with them: options of the SMS sends and of the RCS SMS fallback. */
export const ENCODING_TYPE_FIELD: INodeProperties = {
	displayName: 'Encoding Type',
	name: 'encodingType',
	type: 'options',
	options: ENCODING_TYPE_OPTIONS,
	default: 'plain',
};

export const PRIORITY_FIELD: INodeProperties = {
	displayName: 'Priority',
	name: 'priority',
	type: 'options',
	options: PRIORITY_OPTIONS,
	default: 'normal',
	hint: 'Use High only for OTP messages',
};

const OPTION_FIELDS: INodeProperties[] = [
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
	{ displayName: 'DLT Template ID', name: 'dltTemplateId', type: 'string', default: '', description: 'DLT content template ID of the message' },
	dltTemplateTextField(),
	ENCODING_TYPE_FIELD,
	PRIORITY_FIELD,
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
	{ displayName: 'SMS Type', name: 'smsType', type: 'options', options: SMS_TYPE_OPTIONS, default: 'transactional' },
	{
		displayName: 'Track Clicks',
		name: 'shortenUrlTracking',
		type: 'boolean',
		default: false,
		description: 'Whether to track clicks on shortened URLs (needs Shorten URL)',
	},
];

/** An SMS's Body: the text as it is sent. */
export function bodyField(description: string, more: Partial<INodeProperties> = {}): INodeProperties {
	return { displayName: 'Body', name: 'body', type: 'string', required: true, default: '', typeOptions: { rows: 4 }, description, ...more };
}

/**
 * From, the recipient field, Body, Status Callback URL (kept in sight: the Messaging Trigger gives
 * users a URL for it) and the Options both SMS sends offer; `note` describes the Options, `bodyHint`
 * sits under Body.
 */
export function smsFields(bodyDescription: string, recipient: INodeProperties, { note, bodyHint }: { note?: string; bodyHint?: string } = {}): INodeProperties[] {
	return [
		senderField('Virtual number or approved sender ID (the DLT header for Indian traffic)'),
		recipient,
		bodyField(`${bodyDescription}, at most ${LIMITS.sms.bodyLength} characters`, bodyHint ? { hint: bodyHint } : {}),
		statusCallbackField('Messaging', 'a delivery report for each message'),
		{
			displayName: 'Indian senders sending to Indian numbers must add DLT Entity ID and DLT Template ID under Options',
			name: 'dltNotice',
			type: 'notice',
			default: '',
		},
		optionsCollection(OPTION_FIELDS, { name: 'additionalFields', ...(note ? { description: note } : {}) }),
	];
}
