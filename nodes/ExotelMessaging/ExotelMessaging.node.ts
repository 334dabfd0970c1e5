import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { route } from '../shared/operation';
import { defineResources } from '../shared/resource';
import { operationSubtitle } from '../shared/subtitle';
import { chatApp } from './resources/chatApp';
import { rcs } from './resources/rcs';
import { sms } from './resources/sms';

const { properties, routes } = defineResources([chatApp, rcs, sms], 'sms');

export class ExotelMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Messaging',
		name: 'exotelMessaging',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: operationSubtitle(properties),
		description: 'Send SMS, RCS and chat-app messages with Exotel',
		defaults: { name: 'Exotel Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelApi', required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, routes);
	}
}
