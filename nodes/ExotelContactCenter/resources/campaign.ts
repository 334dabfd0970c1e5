import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach, type ExotelOperation } from '../../shared/operation';
import { exotelRequest } from '../../shared/transport';
import { fieldsError } from '../../shared/validation';

const show = { show: { resource: ['campaign'], operation: ['getMany'] } };

const getMany: ExotelOperation = {
	description: [
		{
			displayName: 'Contact Center ID',
			name: 'contactCenterId',
			type: 'number',
			required: true,
			default: 1,
			hint: 'Uses the Exotel Bearer Token API credential: its Configuration Server Base URL, or one derived from its Contact-Center Base URL',
			displayOptions: show,
		},
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const contactCenterId = Number(this.getNodeParameter('contactCenterId', itemIndex, 0));
			return (
				fieldsError(this.getNode(), itemIndex, [[contactCenterId, { label: 'Contact Center ID', required: true, integer: true, min: 1 }]]) ?? {
					itemIndex,
					contactCenterId,
				}
			);
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, contactCenterId }) => {
			const response = await exotelRequest.call(this, {
				base: 'cms',
				method: 'GET',
				path: '/configuration/hierarchyconfig/campaign',
				qs: { contactCenterId },
				itemIndex,
			});
			return (Array.isArray(response.body) ? response.body : []) as IDataObject[];
		});
		return outputOf(this, [...failures, ...outcomes]);
	},
};

export const operations: Record<string, ExotelOperation> = { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many campaigns',
				description: 'Get the campaigns of a contact center from the configuration server',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
