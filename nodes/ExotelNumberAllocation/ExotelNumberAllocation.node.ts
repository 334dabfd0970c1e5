import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { defineResources } from '../shared/descriptions/resource';
import { operationSubtitle } from '../shared/descriptions/subtitle';
import { route } from '../shared/items/route';
import { allocation } from './resources/allocation';

const { properties, routes } = defineResources([allocation]);

export class ExotelNumberAllocation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Number Allocation',
		name: 'exotelNumberAllocation',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		// 2: Max Wait among each operation's Options; 1 (saved workflows) keeps its Rate Limit collection
		version: [1, 2],
		defaultVersion: 2,
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
