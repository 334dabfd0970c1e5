import type { INodeProperties } from 'n8n-workflow';

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
