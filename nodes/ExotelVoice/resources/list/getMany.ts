import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemsOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { limitCheck, listEach, listingFields, nameAndSortFilters, nameAndSortQuery } from '../../listing';
import { LISTS_PATH } from './api';

// The spec gives list listings a default page (20) but no maximum; the node pages as the campaign
// listing allows.
const PAGE_SIZE = LIMITS.campaign.listLimit;

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many lists',
	description: 'List lists, searched by name',
};

export const description: INodeProperties[] = listingFields(PAGE_SIZE, nameAndSortFilters('Lists'));

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await listEach(this, items, { base: 'base', pageSize: PAGE_SIZE, itemsOf }, (itemIndex, limit) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		return { path: LISTS_PATH, qs: nameAndSortQuery(filters), checks: [limitCheck(limit)] };
	});
}
