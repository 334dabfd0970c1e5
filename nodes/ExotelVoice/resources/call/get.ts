import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { prepareNamed } from '../../../shared/items/byId';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { v1CallItem } from '../../../shared/output/vocabulary';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CALLS } from '../../endpoints';
import { CALL_SID, callSidField } from '../../fields';

export const option: OperationOption = { name: 'Get', value: 'get', action: 'Get a call', description: 'Get a call, with its legs' };

export const description: INodeProperties[] = [
	callSidField,
	{
		displayName: 'Include Leg Details',
		name: 'details',
		type: 'boolean',
		default: true,
		description: 'Whether to add conversation duration and the status and duration of each leg',
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		this,
		items,
		prepareNamed(this, [CALL_SID], ([callSid], itemIndex) => ({ callSid, details: this.getNodeParameter('details', itemIndex, true) === true })),
		async ({ itemIndex, callSid, details }) => {
			const response = await exotelRequest(this, run, {
				endpoint: CALLS.get,
				params: { callSid },
				qs: details ? { details: 'true' } : undefined,
				itemIndex,
			});
			const body = response.body as IDataObject;
			return v1CallItem((body.Call ?? body) as IDataObject);
		},
	);
}
