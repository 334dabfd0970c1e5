import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { deleteEach } from '../../../shared/items/byId';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { LIST_SID, listSidField } from './fields';

export const option: OperationOption = { name: 'Delete', value: 'delete', action: 'Delete a list' };

export const description: INodeProperties[] = [listSidField];

/** Deletes the list (the spec does not show the answer's body). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await deleteEach(this, run, items, LIST_SID, { endpoint: LISTS.delete, placeholder: 'listSid', key: 'sid' });
}
