import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RATE_LIMIT_OPTIONS } from '../shared/descriptions';
import { route, type ResourceMap } from '../shared/operation';
import { operationSubtitle } from '../shared/subtitle';
import * as campaign from './resources/campaign';
import * as user from './resources/user';
import * as voiceLog from './resources/voiceLog';

const resources: ResourceMap = { campaign: campaign.operations, user: user.operations, voiceLog: voiceLog.operations };

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Campaign', value: 'campaign' },
			{ name: 'User', value: 'user' },
			{ name: 'Voice Log', value: 'voiceLog' },
		],
		default: 'user',
	},
	...campaign.description,
	...user.description,
	...voiceLog.description,
	RATE_LIMIT_OPTIONS,
];

export class ExotelContactCenter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Contact Center',
		name: 'exotelContactCenter',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(properties),
		description: 'Manage contact-center users, download voice logs and list campaigns with Exotel',
		defaults: { name: 'Exotel Contact Center' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'exotelContactCenterApi', required: true, displayOptions: { show: { resource: ['user', 'voiceLog'] } } },
			{ name: 'exotelBearerTokenApi', required: true, displayOptions: { show: { resource: ['campaign'] } } },
		],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, resources);
	}
}
