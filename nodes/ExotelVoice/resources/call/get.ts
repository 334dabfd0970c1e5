import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { v1CallItem } from '../../../shared/vocabulary';
import { callSidField } from './fields';

const show = { resource: ['call'], operation: ['get'] };

export const description: INodeProperties[] = [
	callSidField(show),
	{
		displayName: 'Include Leg Details',
		name: 'details',
		type: 'boolean',
		default: true,
		description: 'Whether to add conversation duration and the status and duration of each leg',
		displayOptions: { show },
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const callSid = String(this.getNodeParameter('callSid', itemIndex, '')).trim();
		const details = this.getNodeParameter('details', itemIndex, true) === true;
		return fieldsError(this.getNode(), itemIndex, [[callSid, { label: 'Call SID', required: true }]]) ?? { itemIndex, callSid, details };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, callSid, details }) => {
		const response = await exotelRequest.call(this, {
			base: 'base',
			method: 'GET',
			path: `/v1/Accounts/{accountSid}/Calls/${encodeURIComponent(callSid)}.json`,
			qs: details ? { details: 'true' } : undefined,
			itemIndex,
		});
		const body = response.body as IDataObject;
		return v1CallItem((body.Call ?? body) as IDataObject);
	});
	return outputOf(this, [...failures, ...outcomes]);
}
