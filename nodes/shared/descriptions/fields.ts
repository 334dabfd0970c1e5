import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

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
