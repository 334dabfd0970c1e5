import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachWith } from '../../../shared/items/byId';
import { dataOf } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { LIST_SID, listSidField, NEW_NAME, newNameField } from './fields';

export const option: OperationOption = { name: 'Rename', value: 'rename', action: 'Rename a list' };

export const description: INodeProperties[] = [listSidField, newNameField];

/** PUT `{name}` on the list, one request per item. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachWith(this, items, [LIST_SID, NEW_NAME], async ([listSid, name], itemIndex) => {
		const response = await exotelRequest(this, run, { endpoint: LISTS.rename, params: { listSid }, body: { name }, itemIndex });
		const list = dataOf(response.body);
		// The spec does not show the answer: without a list in it, the request says what changed.
		return list.sid !== undefined ? list : { sid: listSid, name };
	});
}
