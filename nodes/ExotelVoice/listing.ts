// The Voice listings: Return All / Limit, name and sort filters, and the paged requests behind them.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions/fields';
import { requestPerItem } from '../shared/items/requestPerItem';
import { fieldsError, trimmed, type FieldCheck } from '../shared/rules/validation';
import type { Endpoint } from '../shared/transport/endpoint';
import { exotelRequestAllItems } from '../shared/transport/request';
import type { NodeRun } from '../shared/transport/run';

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

/** Sort orders the v2 listings take (campaigns, lists). */
export const SORT_BY_DATE_OR_NAME: INodePropertyOptions[] = [
	{ name: 'Date Created (Newest First)', value: 'date_created:desc' },
	{ name: 'Date Created (Oldest First)', value: 'date_created:asc' },
	{ name: 'Name (A to Z)', value: 'name:asc' },
	{ name: 'Name (Z to A)', value: 'name:desc' },
];

/** A listing's fields: Return All / Limit (`maxLimit` a page), then its Filters, listed alphabetically. */
export function listingFields(maxLimit: number, filters: INodeProperties[]): INodeProperties[] {
	return [...returnAllOrLimit(maxLimit), optionsCollection(filters, { displayName: 'Filters', name: 'filters', placeholder: 'Add Filter' })];
}

/** Name and Sort By, the filters of the v2 listings of named things; `things` names them in the Name filter's description ("Campaigns"). */
export function nameAndSortFilters(things: string): INodeProperties[] {
	return [
		{ displayName: 'Name', name: 'name', type: 'string', default: '', description: `${things} whose name contains this` },
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: SORT_BY_DATE_OR_NAME,
			default: 'date_created:desc',
		},
	];
}

/** The query of Name and Sort By: the name searched for (trimmed) and the order. */
export function nameAndSortQuery(filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	if (filters.name) qs.name = trimmed(filters.name);
	if (filters.sortBy) qs.sort_by = filters.sortBy;
	return qs;
}

/** The check of Limit: a whole number of at least 1 (none with Return All). */
export const limitCheck = (limit: number | undefined): FieldCheck => [limit, { label: 'Limit', integer: true, min: 1 }];

/** One item's listing request: the endpoint's path values, what it asks, and the checks on the item's values, in the order their problems are told. */
export interface ListingRequest {
	params?: Record<string, string>;
	qs?: IDataObject;
	checks: FieldCheck[];
}

/**
 * A listing per input item, paged by offset and limit until the item's Limit or the last page:
 * `requestOf` gives the item's path values, query and checks (`limitCheck` among them) from its values;
 * an item whose checks fail fails before anything is sent.
 */
export async function listEach(
	context: IExecuteFunctions,
	run: NodeRun,
	items: INodeExecutionData[],
	listing: { endpoint: Endpoint; pageSize: number; itemsOf: (body: unknown) => IDataObject[] },
	requestOf: (itemIndex: number, limit: number | undefined) => ListingRequest,
): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		context,
		items,
		(itemIndex) => {
			const limit = limitOf(context, itemIndex);
			const { params, qs, checks } = requestOf(itemIndex, limit);
			return fieldsError(context.getNode(), itemIndex, checks) ?? { itemIndex, limit, params, qs };
		},
		async ({ itemIndex, limit, params, qs }) =>
			await exotelRequestAllItems(
				context,
				run,
				{ endpoint: listing.endpoint, params, qs, itemIndex },
				{ pageSize: listing.pageSize, limit, itemsOf: listing.itemsOf },
			),
	);
}
