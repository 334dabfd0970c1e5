import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { deleteEach } from '../../../shared/items/byId';
import { listPath } from './api';
import { LIST_SID, listSidField } from './fields';

export const option: OperationOption = { name: 'Delete', value: 'delete', action: 'Delete a list' };

export const description: INodeProperties[] = [listSidField];

/** Deletes the list (the spec does not show the answer's body). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await deleteEach(this, items, LIST_SID, { base: 'base', pathOf: listPath, key: 'sid' });
}
