import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachById } from '../../../shared/items/byId';
import { dataOf } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { LIST_SID, listSidField } from './fields';

export const option: OperationOption = { name: 'Get', value: 'get', action: 'Get a list', description: 'Get a list with its contact count' };

export const description: INodeProperties[] = [listSidField];

/** The list's metadata, with its contact count. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachById(this, items, LIST_SID, async (listSid, itemIndex) => {
		const response = await exotelRequest(this, run, { endpoint: LISTS.get, params: { listSid }, itemIndex });
		return dataOf(response.body);
	});
}
