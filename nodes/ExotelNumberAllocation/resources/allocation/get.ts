import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { ALLOCATIONS } from '../../endpoints';
import { allocationDataOf, allocationFailure, eachAllocation } from './api';
import { GREENVN_ID } from './fields';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get an allocation',
	description: 'Get the details of an allocation',
};

export const description: INodeProperties[] = [GREENVN_ID];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachAllocation(this, items, async ({ itemIndex, id }) => {
		try {
			const response = await exotelRequest(this, run, { endpoint: ALLOCATIONS.get, params: { greenvnId: id }, itemIndex });
			return allocationDataOf(response.body);
		} catch (error) {
			throw allocationFailure(this.getNode(), error, id, itemIndex);
		}
	});
}
