import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { fieldsError } from '../../../shared/rules/validation';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGN_CONFIGURATION } from '../../endpoints';

export const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many campaigns',
	description: 'Get the campaigns of a contact center from the configuration server',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Contact Center ID',
		name: 'contactCenterId',
		type: 'number',
		required: true,
		default: 1,
		hint: 'Uses the Exotel Bearer Token API credential: its Configuration Server Base URL, or one derived from its Contact-Center Base URL',
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		this,
		items,
		(itemIndex) => {
			const contactCenterId = Number(this.getNodeParameter('contactCenterId', itemIndex, 0));
			const invalid = fieldsError(this.getNode(), itemIndex, [[contactCenterId, { label: 'Contact Center ID', required: true, integer: true, min: 1 }]]);
			return invalid ?? { itemIndex, contactCenterId };
		},
		async ({ itemIndex, contactCenterId }) => {
			const response = await exotelRequest(this, run, { endpoint: CAMPAIGN_CONFIGURATION.getMany, qs: { contactCenterId }, itemIndex });
			return (Array.isArray(response.body) ? response.body : []) as IDataObject[];
		},
	);
}
