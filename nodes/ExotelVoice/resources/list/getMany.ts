import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemsOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { limitCheck, listEach, listingFields, nameAndSortFilters, nameAndSortQuery } from '../../listing';

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

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await listEach(this, run, items, { endpoint: LISTS.getMany, pageSize: PAGE_SIZE, itemsOf }, (itemIndex, limit) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		return { qs: nameAndSortQuery(filters), checks: [limitCheck(limit)] };
	});
}
