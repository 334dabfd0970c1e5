import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodePropertyOptions, INodeProperties } from 'n8n-workflow';

import { PACING_POLICY } from '../transport/pacing';
import type { FieldCheck } from '../rules/validation';

/** Return All / Limit, as n8n's list operations show them (the operation's own display conditions are added by defineResource). */
export function returnAllOrLimit(maxLimit?: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
			...(maxLimit ? { hint: `The service returns at most ${maxLimit} per page; the node pages for you` } : {}),
		},
	];
}

/** The item's Return All / Limit choice: the number of results wanted, or undefined for all. */
export function limitOf(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, false) === true) return undefined;
	return Number(context.getNodeParameter('limit', itemIndex, 50));
}

/**
 * An operation's optional fields under one label. `more` may rename it (operations keep their saved
 * `additionalFields` so workflows still open; Filters for a listing); the fields are listed
 * alphabetically, as the editor expects.
 */
export function optionsCollection(options: INodeProperties[], more: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...more,
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** Where the service posts this request's callbacks: the URL of one of this package's triggers. */
export function statusCallbackField(trigger: 'Messaging' | 'Voice', receives: string, more: Partial<INodeProperties> = {}): INodeProperties {
	const path = trigger === 'Messaging' ? 'exotel-messaging' : 'exotel-voice';
	return {
		displayName: 'Status Callback URL',
		name: 'statusCallback',
		type: 'string',
		default: '',
		placeholder: `https://your-n8n.example.com/webhook/${path}`,
		hint: `Paste the Exotel ${trigger} Trigger's URL here to receive ${receives}`,
		...more,
	};
}

/** Sort orders the v2 listings take (campaigns, lists). */
export const SORT_BY_DATE_OR_NAME: INodePropertyOptions[] = [
	{ name: 'Date Created (Newest First)', value: 'date_created:desc' },
	{ name: 'Date Created (Oldest First)', value: 'date_created:asc' },
	{ name: 'Name (A to Z)', value: 'name:asc' },
	{ name: 'Name (Z to A)', value: 'name:desc' },
];

/** Final statuses of a call, as queries and campaign call records name them. */
export const CALL_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Busy', value: 'busy' },
	{ name: 'Completed', value: 'completed' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'No Answer', value: 'no-answer' },
];

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

const MAX_WAIT_DESCRIPTION =
	"How long the node keeps waiting while the account's rate limit (HTTP 429) lets nothing through. Past it, items not yet sent fail; accepted ones keep their IDs.";

/** Shown from version 2 of the action nodes on, where Max Wait is an Options entry of every operation. */
export const SINCE_VERSION_2: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };

/**
 * Max Wait where version 1 shows it: alone in a Rate Limit collection, every action node's last
 * parameter. Workflows saved with version 1 keep `rateLimit.maxWaitMinutes` and this collection.
 * The limit is the account's, shared by every execution, so a large send paces itself to it.
 */
export const RATE_LIMIT_OPTIONS: INodeProperties = {
	displayName: 'Rate Limit',
	name: 'rateLimit',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { '@version': [1] } },
	options: [
		{
			displayName: 'Max Wait (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 15,
			description: MAX_WAIT_DESCRIPTION,
		},
	],
};

/** Max Wait from version 2 on: an entry of every operation's Options (resource.ts puts it there). */
export const MAX_WAIT_OPTION: INodeProperties = {
	displayName: 'Rate Limit Max Wait (Minutes)',
	name: 'maxWaitMinutes',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 15,
	description: MAX_WAIT_DESCRIPTION,
	displayOptions: SINCE_VERSION_2,
};

/** The node's Max Wait, and the setting's place as the panel of the node's version shows it (for error messages). */
export interface MaxWait {
	ms: number;
	setting: string;
}

/**
 * Max Wait of this node: version 1 reads its Rate Limit collection, later versions the operation's
 * Options (`optionsName`, the collection's saved name: `options` or `additionalFields`).
 */
export function maxWaitOf(context: IExecuteFunctions, optionsName: string): MaxWait {
	const first = context.getNode().typeVersion < 2;
	const collection = context.getNodeParameter(first ? 'rateLimit' : optionsName, 0, {}) as { maxWaitMinutes?: unknown } | null;
	const minutes = Number(collection?.maxWaitMinutes ?? PACING_POLICY.defaultMaxWaitMs / 60_000);
	return {
		ms: Number.isFinite(minutes) && minutes >= 0 ? minutes * 60_000 : PACING_POLICY.defaultMaxWaitMs,
		setting: first ? 'Rate Limit → Max Wait' : 'Options → Rate Limit Max Wait',
	};
}

/** An Options collection's values without the node's own settings, which are not fields of the service's request. */
export function requestOptions(collection: IDataObject): IDataObject {
	const { maxWaitMinutes, ...fields } = collection;
	return fields;
}
