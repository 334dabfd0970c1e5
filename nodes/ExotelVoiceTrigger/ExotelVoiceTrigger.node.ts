import type { INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventsSubtitle } from '../shared/descriptions/subtitle';
import { callbackItems, callbackOf } from '../shared/output/callbacks';
import { objectOf } from '../shared/rules/values';
import { answerNow } from '../shared/webhooks/respond';
import { CALLBACK_WEBHOOK, eventsField, setupNotice, startWithChosen, URL_GIVEN_BY_HAND } from '../shared/webhooks/triggers';
import { CALL_EVENTS, callEventOf, VOICE_EVENTS } from './events';

export class ExotelVoiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Voice Trigger',
		name: 'exotelVoiceTrigger',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(VOICE_EVENTS),
		description: 'Starts the workflow on Exotel call and campaign status callbacks',
		defaults: { name: 'Exotel Voice Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [CALLBACK_WEBHOOK],
		properties: [
			setupNotice(
				"Paste this trigger's URL into the Status Callback URL of Exotel Voice → Call → Connect to Flow. For campaigns, paste it into the callback fields with ?callback=campaignStatus, ?callback=campaignCallStatus or ?callback=campaignCallSchedule added, so each callback is named. The service does not sign voice callbacks: keep the URL private.",
			),
			eventsField(VOICE_EVENTS, 'Which callbacks start the workflow'),
			{
				displayName: 'Call Events',
				name: 'callEvents',
				type: 'multiOptions',
				options: [...CALL_EVENTS],
				default: ['answered', 'terminal'],
				description: "Which of a call's status callbacks start the workflow; a call sends those its Status Callback Events asked for",
				displayOptions: { show: { events: ['callStatus'] } },
			},
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'string',
				default: '',
				placeholder: 'completed, no-answer, busy',
				description: 'Comma-separated statuses that start the workflow; empty means all. An answered call is in-progress.',
			},
		],
	};

	// Voice callback URLs are given per call and per campaign: nothing to register at the service.
	webhookMethods = URL_GIVEN_BY_HAND;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const received = objectOf(req.body);
		if (!received) return answerNow(this, 400, { error: 'the body is not a form or JSON object' });
		// The campaign callbacks do not say which they are: the URL's `?callback=` names it.
		const callback = callbackOf(received, 'voiceTrigger', typeof req.query.callback === 'string' ? req.query.callback : undefined);
		const statuses = String(this.getNodeParameter('statuses', '') ?? '')
			.split(',')
			.map((status) => status.trim().toLowerCase())
			.filter(Boolean);
		const callEvents = this.getNodeParameter('callEvents', ['answered', 'terminal']) as string[];
		return startWithChosen(
			this,
			callbackItems(callback),
			(event) =>
				(event.event !== 'callStatus' || callEvents.includes(callEventOf(event))) &&
				(statuses.length === 0 || statuses.includes(String(event.status ?? '').toLowerCase())),
		);
	}
}
