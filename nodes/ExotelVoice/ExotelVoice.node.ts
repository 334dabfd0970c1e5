import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RATE_LIMIT_OPTIONS } from '../shared/descriptions';
import { route } from '../shared/operation';
import { operationSubtitle } from '../shared/subtitle';
import * as listSearch from './methods/listSearch';
import { resourceDescription, resources } from './resources';

export class ExotelVoice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Voice',
		name: 'exotelVoice',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(resourceDescription),
		description: 'Place calls, run call campaigns and manage lists, contacts, users and devices with Exotel',
		defaults: { name: 'Exotel Voice' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'exotelApi',
				required: true,
				// Contact upload takes this credential or a bearer token (its Authentication parameter).
				displayOptions: {
					show: { resource: ['call', 'campaign', 'contact', 'list', 'user', 'voiceLog'] },
					hide: { authentication: ['bearerToken'] },
				},
			},
			{
				name: 'exotelBearerTokenApi',
				required: true,
				displayOptions: {
					show: { resource: ['contact', 'userDevice'] },
					hide: { authentication: ['apiKey'] },
				},
			},
		],
		properties: [...resourceDescription, RATE_LIMIT_OPTIONS],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, resources);
	}
}
