import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RATE_LIMIT_OPTIONS } from '../shared/descriptions';
import { route } from '../shared/operation';
import { operationSubtitle } from '../shared/subtitle';
import { resourceDescription, resources } from './resources';

export class ExotelMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Messaging',
		name: 'exotelMessaging',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(resourceDescription),
		description: 'Send SMS, RCS and chat-app messages with Exotel',
		defaults: { name: 'Exotel Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelApi', required: true }],
		properties: [...resourceDescription, RATE_LIMIT_OPTIONS],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, resources);
	}
}
