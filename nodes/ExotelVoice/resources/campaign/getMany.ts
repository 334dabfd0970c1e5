import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemsOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';
import { limitCheck, listEach, listingFields, nameAndSortFilters, nameAndSortQuery, SORT_BY_DATE_OR_NAME } from '../../listing';
import { CAMPAIGN_TYPE_OPTIONS } from './fields';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many campaigns',
	description: 'List campaigns by name, status and type',
};

export const description: INodeProperties[] = listingFields(LIMITS.campaign.listLimit, [
	...nameAndSortFilters('Campaigns'),
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
		options: CAMPAIGN_TYPE_OPTIONS,
		default: 'static',
		description: 'Campaign type',
	},
]);

/** Campaigns by name, status and type, paged by offset and limit (at most 500 a page). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const listing = { endpoint: CAMPAIGNS.getMany, pageSize: LIMITS.campaign.listLimit, itemsOf };
	return await listEach(this, run, items, listing, (itemIndex, limit) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs = nameAndSortQuery(filters);
		const status = Array.isArray(filters.status) ? filters.status : [];
		if (status.length) qs.status = status.join(',');
		if (filters.type) qs.type = filters.type;
		return {
			qs,
			checks: [limitCheck(limit), [filters.sortBy, { label: 'Sort By', choices: SORT_BY_DATE_OR_NAME }]],
		};
	});
}
