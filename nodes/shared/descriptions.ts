import type { INodePropertyOptions, INodeProperties } from 'n8n-workflow';

type Show = Record<string, string[]>;

/** Return All / Limit, as n8n's list operations show them. */
export function returnAllOrLimit(show: Show, maxLimit?: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
			...(maxLimit ? { hint: `The service returns at most ${maxLimit} per page; the node pages for you` } : {}),
		},
	];
}

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
