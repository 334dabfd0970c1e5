import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { SORT_BY_DATE_OR_NAME, limitOf, returnAllOrLimit } from '../../../shared/descriptions';
import { LIMITS } from '../../../shared/limits';
import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequestAllItems } from '../../../shared/transport';
import { fieldsError, valuesOf } from '../../../shared/validation';
import { CAMPAIGNS_PATH, itemsOf } from './shared';

const show = { resource: ['campaign'], operation: ['getMany'] };
// an expression in a dropdown can yield anything: these are what the service takes
const SORT_VALUES = valuesOf(SORT_BY_DATE_OR_NAME);

export const description: INodeProperties[] = [
	...returnAllOrLimit(show, LIMITS.campaign.listLimit),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Campaigns whose name contains this' },
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: SORT_BY_DATE_OR_NAME,
				default: 'date_created:desc',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				options: [
					{ name: 'Completed', value: 'Completed' },
					{ name: 'Created', value: 'Created' },
					{ name: 'In Progress', value: 'InProgress' },
					{ name: 'Paused', value: 'Paused' },
				],
				default: [],
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: [
					{ name: 'Dynamic', value: 'dynamic' },
					{ name: 'Static', value: 'static' },
				],
				default: 'static',
				description: 'Campaign type',
			},
		],
	},
];

/** Campaigns by name, status and type, paged by offset and limit (at most 500 a page). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const limit = limitOf(this, itemIndex);
		const qs: IDataObject = {};
		if (filters.name) qs.name = String(filters.name).trim();
		const status = Array.isArray(filters.status) ? filters.status : [];
		if (status.length) qs.status = status.join(',');
		if (filters.sortBy) qs.sort_by = filters.sortBy;
		if (filters.type) qs.type = filters.type;
		return (
			fieldsError(this.getNode(), itemIndex, [
				[limit, { label: 'Limit', integer: true, min: 1 }],
				[filters.sortBy, { label: 'Sort By', oneOf: SORT_VALUES }],
			]) ?? { itemIndex, qs, limit }
		);
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, qs, limit }) =>
		await exotelRequestAllItems.call(
			this,
			{ base: 'base', method: 'GET', path: CAMPAIGNS_PATH, qs, itemIndex },
			{ pageSize: LIMITS.campaign.listLimit, limit, itemsOf },
		),
	);
	return outputOf(this, [...failures, ...outcomes]);
}
