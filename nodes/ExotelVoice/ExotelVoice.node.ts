import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { defineResources } from '../shared/descriptions/resource';
import { operationSubtitle } from '../shared/descriptions/subtitle';
import { route } from '../shared/items/route';
import { WAITING_WEBHOOKS, waitingNodeTooltip } from '../shared/sendAndWait/fields';
import { resumeWaitingExecution } from '../shared/sendAndWait/webhook';
import * as listSearch from './methods/listSearch';
import { call } from './resources/call';
import { callFlow } from './resources/callFlow';
import { campaign } from './resources/campaign';
import { contact } from './resources/contact';
import { list } from './resources/list';
import { user } from './resources/user';
import { userDevice } from './resources/userDevice';
import { voiceLog } from './resources/voiceLog';

const { properties, routes } = defineResources([call, callFlow, campaign, contact, list, user, userDevice, voiceLog], 'call');

export class ExotelVoice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Voice',
		name: 'exotelVoice',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['output'],
		// 2: Max Wait among each operation's Options; 1 (saved workflows) keeps its Rate Limit collection
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle(properties),
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
				// Hidden for User Device and Call Flow (which answers n8n's own request) rather than shown for the others: credentials shown for every
				// Resource make the editor take Resource for an authentication choice and hide it.
				displayOptions: { hide: { resource: ['userDevice', 'callFlow'], authentication: ['bearerToken'] } },
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
		// The resume URLs of the waiting operations (send and wait): made per execution, registered nowhere.
		webhooks: WAITING_WEBHOOKS,
		waitingNodeTooltip: waitingNodeTooltip({ connectAndWait: 'Execution will continue when the call ends' }),
		properties,
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeWaitingExecution.call(this);
	}

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, routes);
	}
}
