import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { route } from '../shared/operation';
import { defineResources } from '../shared/resource';
import { operationSubtitle } from '../shared/subtitle';
import { allocation } from './resources/allocation';

const { properties, routes } = defineResources([allocation]);

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
		return await route.call(this, routes);
	}
}
