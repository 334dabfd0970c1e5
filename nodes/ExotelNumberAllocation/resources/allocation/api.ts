// The allocation API's envelope, requests about one allocation, and its failures in its own words.
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { eachById } from '../../../shared/items/byId';
import { ALLOCATION_NOT_FOUND, serviceCodeOf } from '../../../shared/transport/errors';
import { GREENVN_ID } from './fields';

/** Data of the allocation envelope `{success, status, code, message, data}`. */
export const allocationDataOf = (body: unknown) => (((body ?? {}) as IDataObject).data ?? {}) as IDataObject;

/** One request per item about the allocation its GreenVN ID names. */
export async function eachAllocation(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	send: (allocation: { itemIndex: number; id: string }) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	return await eachById(context, items, { name: GREENVN_ID.name, label: GREENVN_ID.displayName }, async (id, itemIndex) => await send({ itemIndex, id }));
}

/**
 * A failure of an operation on one allocation, worded by the service's code where the HTTP status
 * says too little (the allocation API answers an unknown id with a 400): `error` as it was otherwise.
 * Every operation on an id words the same failure the same way.
 */
export function allocationFailure(node: INode, error: unknown, id: string, itemIndex: number): unknown {
	const code = serviceCodeOf(error);
	if (Number(code) !== ALLOCATION_NOT_FOUND) return error;
	const apiError = error as NodeApiError;
	const hint = 'No allocation (GreenVN) has this id for the account: check the GreenVN ID (the greenvn_id the allocation returned).';
	return new NodeApiError(node, { greenvn_id: id, serviceCode: code ?? null }, {
		message: `Allocation ${id} not found (code ${code})`,
		description: `${hint} ${apiError.description ?? ''}`.trim(),
		httpCode: apiError.httpCode ?? undefined,
		itemIndex,
	});
}
