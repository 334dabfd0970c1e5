import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { SORT_BY_DATE_OR_NAME, limitOf, returnAllOrLimit } from '../../../shared/descriptions';
import { LIMITS } from '../../../shared/limits';
import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequestAllItems } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { itemsOf, LISTS_PATH } from './shared';

const show = { resource: ['list'], operation: ['getMany'] };

// The spec gives list listings a default page (20) but no maximum; the node pages as the campaign
// listing allows.
const PAGE_SIZE = LIMITS.campaign.listLimit;

export const description: INodeProperties[] = [
	...returnAllOrLimit(show, PAGE_SIZE),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Lists whose name contains this' },
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: SORT_BY_DATE_OR_NAME,
				default: 'date_created:desc',
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const limit = limitOf(this, itemIndex);
		const qs: IDataObject = {};
		if (filters.name) qs.name = String(filters.name).trim();
		if (filters.sortBy) qs.sort_by = filters.sortBy;
		return fieldsError(this.getNode(), itemIndex, [[limit, { label: 'Limit', integer: true, min: 1 }]]) ?? { itemIndex, qs, limit };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, qs, limit }) =>
		await exotelRequestAllItems.call(
			this,
			{ base: 'base', method: 'GET', path: LISTS_PATH, qs, itemIndex },
			{ pageSize: PAGE_SIZE, limit, itemsOf },
		),
	);
	return outputOf(this, [...failures, ...outcomes]);
}
