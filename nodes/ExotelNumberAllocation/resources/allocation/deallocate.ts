import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { ALLOCATION_ALREADY_DEALLOCATED, ALLOCATION_NOT_FOUND, serviceCodeOf } from '../../../shared/transport/errors';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { ALLOCATIONS } from '../../endpoints';
import { allocationDataOf, allocationFailure, eachAllocation } from './api';
import { GREENVN_ID } from './fields';

export const option: OperationOption = {
	name: 'Deallocate',
	value: 'deallocate',
	action: 'Deallocate a virtual number',
	description: 'Release an allocation (it moves to the vault)',
};

export const description: INodeProperties[] = [GREENVN_ID];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachAllocation(this, items, async ({ itemIndex, id }) => {
		try {
			const response = await exotelRequest(this, run, { endpoint: ALLOCATIONS.deallocate, params: { greenvnId: id }, itemIndex });
			return { greenvn_id: id, deallocated: true, ...allocationDataOf(response.body) };
		} catch (error) {
			const apiError = error as NodeApiError;
			const code = serviceCodeOf(error);
			const refusal = (message: string, description: string | undefined, httpCode: string | undefined) =>
				new NodeApiError(this.getNode(), { greenvn_id: id, serviceCode: code ?? null }, { message, description, httpCode, itemIndex });
			const httpCode = apiError.httpCode ?? undefined;
			// Read by the service's code, not the HTTP status alone: both answers below are 400s.
			// Code 1 is "GreenVN not found" (an unknown id, worded as Get words it); code 5 on a
			// deallocation is how the service refuses one that already happened (the id exists, its state is vault).
			if (Number(code) === ALLOCATION_NOT_FOUND) throw allocationFailure(this.getNode(), error, id, itemIndex);
			if (httpCode === '400' && Number(code) === ALLOCATION_ALREADY_DEALLOCATED) {
				throw refusal(`Allocation ${id} is already deallocated`, `${apiError.message}. ${apiError.description ?? ''}`.trim(), '400');
			}
			throw refusal(apiError.message, apiError.description ?? undefined, httpCode);
		}
	});
}
