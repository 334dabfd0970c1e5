import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { defineResources } from '../shared/descriptions/resource';
import { operationSubtitle } from '../shared/descriptions/subtitle';
import { route } from '../shared/items/route';
import { campaign } from './resources/campaign';
import { user } from './resources/user';
import { voiceLog } from './resources/voiceLog';

const { properties, routes } = defineResources([campaign, user, voiceLog], 'user');

export class ExotelContactCenter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Contact Center',
		name: 'exotelContactCenter',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		// 2: Max Wait among each operation's Options; 1 (saved workflows) keeps its Rate Limit collection
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle(properties),
		description: 'Manage contact-center users, download voice logs and list campaigns with Exotel',
		defaults: { name: 'Exotel Contact Center' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// Hidden for Campaign rather than shown for User and Voice Log: credentials shown for every
			// Resource make the editor take Resource for an authentication choice and hide it.
			{ name: 'exotelContactCenterApi', required: true, displayOptions: { hide: { resource: ['campaign'] } } },
			{ name: 'exotelBearerTokenApi', required: true, displayOptions: { show: { resource: ['campaign'] } } },
		],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, routes);
	}
}
