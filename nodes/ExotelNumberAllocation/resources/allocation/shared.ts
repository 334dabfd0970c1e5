import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { eachById } from '../../../shared/byId';

/** Allocations (GreenVNs) of the account; one is `ALLOCATIONS_PATH/<greenvn_id>`. */
export const ALLOCATIONS_PATH = '/v1/tenants/{accountSid}/greenvn';

/** Data of the allocation envelope `{success, status, code, message, data}`. */
export const dataOf = (body: unknown) => (((body ?? {}) as IDataObject).data ?? {}) as IDataObject;

export const GREENVN_ID: INodeProperties = {
	displayName: 'GreenVN ID',
	name: 'greenvnId',
	type: 'string',
	required: true,
	default: '',
	description: 'The greenvn_id the allocation returned',
};

/** One request per item about the allocation its GreenVN ID names, at `path` (ALLOCATIONS_PATH/<id>). */
export async function eachAllocation(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	send: (allocation: { itemIndex: number; id: string; path: string }) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	return await eachById(context, items, { name: GREENVN_ID.name, label: GREENVN_ID.displayName }, async (id, itemIndex) =>
		await send({ itemIndex, id, path: `${ALLOCATIONS_PATH}/${encodeURIComponent(id)}` }),
	);
}
