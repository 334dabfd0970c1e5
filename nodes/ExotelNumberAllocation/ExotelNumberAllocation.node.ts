import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RATE_LIMIT_OPTIONS } from '../shared/descriptions';
import { route } from '../shared/operation';
import { operationSubtitle } from '../shared/subtitle';
import { description as allocationDescription, operations } from './allocation';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [{ name: 'Allocation', value: 'allocation' }],
		default: 'allocation',
	},
	...allocationDescription,
	RATE_LIMIT_OPTIONS,
];

export class ExotelNumberAllocation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Number Allocation',
		name: 'exotelNumberAllocation',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(properties),
		description: 'Allocate masked virtual numbers (ExoBridge) that connect two sets of numbers',
		defaults: { name: 'Exotel Number Allocation' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelAllocationApi', required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, { allocation: operations });
	}
}
