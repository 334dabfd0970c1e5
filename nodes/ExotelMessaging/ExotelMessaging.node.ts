import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { defineResources } from '../shared/descriptions/resource';
import { operationSubtitle } from '../shared/descriptions/subtitle';
import { route } from '../shared/items/route';
import { SEND_AND_WAIT, WAITING_WEBHOOKS, waitingNodeTooltip } from '../shared/sendAndWait/fields';
import { resumeWaitingExecution } from '../shared/sendAndWait/webhook';
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
		// 2: Max Wait among each operation's Options; 1 (saved workflows) keeps its Rate Limit collection
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle(properties),
		description: 'Send SMS, RCS and chat-app messages with Exotel',
		defaults: { name: 'Exotel Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Check Against DLT Template sends nothing: no account needed.
		credentials: [{ name: 'exotelApi', required: true, displayOptions: { hide: { operation: ['checkDltTemplate'] } } }],
		// The resume URLs of the waiting operations (send and wait): made per execution, registered nowhere.
		webhooks: WAITING_WEBHOOKS,
		waitingNodeTooltip: waitingNodeTooltip({
			[SEND_AND_WAIT]: "Execution will continue after the person's answer",
			sendAndWaitForDelivery: "Execution will continue when the message's final status arrives",
		}),
		properties,
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeWaitingExecution.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, routes);
	}
}
