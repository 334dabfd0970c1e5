import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { exotelRequest } from '../../../shared/transport/request';
import { allocationDataOf, allocationFailure, eachAllocation } from './api';
import { GREENVN_ID } from './fields';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get an allocation',
	description: 'Get the details of an allocation',
};

export const description: INodeProperties[] = [GREENVN_ID];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await eachAllocation(this, items, async ({ itemIndex, id, path }) => {
		try {
			const response = await exotelRequest.call(this, { base: 'alloc', method: 'GET', path, itemIndex });
			return allocationDataOf(response.body);
		} catch (error) {
			throw allocationFailure(this.getNode(), error, id, itemIndex);
		}
	});
}
