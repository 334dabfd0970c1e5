import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requestPerItem } from '../../../shared/requestPerItem';
import type { OperationOption } from '../../../shared/resource';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, trimmed } from '../../../shared/validation';
import { v1CallItem } from '../../../shared/vocabulary';
import { callSidField } from '../../descriptions';

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

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		this,
		items,
		(itemIndex) => {
			const callSid = trimmed(this.getNodeParameter('callSid', itemIndex, ''));
			const details = this.getNodeParameter('details', itemIndex, true) === true;
			return fieldsError(this.getNode(), itemIndex, [[callSid, { label: 'Call SID', required: true }]]) ?? { itemIndex, callSid, details };
		},
		async ({ itemIndex, callSid, details }) => {
			const response = await exotelRequest.call(this, {
				base: 'base',
				method: 'GET',
				path: `/v1/Accounts/{accountSid}/Calls/${encodeURIComponent(callSid)}.json`,
				qs: details ? { details: 'true' } : undefined,
				itemIndex,
			});
			const body = response.body as IDataObject;
			return v1CallItem((body.Call ?? body) as IDataObject);
		},
	);
}
