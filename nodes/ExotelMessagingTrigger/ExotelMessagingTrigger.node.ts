import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { eventsSubtitle } from '../shared/descriptions/subtitle';
import { callbackItems, callbackOf } from '../shared/output/callbacks';
import { STATUS_EVENTS, STATUSES } from '../shared/output/messagingEvents';
import { objectOf } from '../shared/rules/values';
import { answerNow } from '../shared/webhooks/respond';
import { logRefusalOnce, refusalWords, signatureRefused } from '../shared/webhooks/signature';
import { CALLBACK_WEBHOOK, eventsField, setupNotice, startWithChosen } from '../shared/webhooks/triggers';
import { MESSAGING_EVENTS } from './events';
import { checkExists, create, remove } from './registration';

export class ExotelMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Messaging Trigger',
		name: 'exotelMessagingTrigger',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(MESSAGING_EVENTS),
		description: 'Starts the workflow on Exotel delivery reports and incoming SMS, RCS and chat-app messages',
		defaults: { name: 'Exotel Messaging Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelApi', required: true }],
		webhooks: [
			CALLBACK_WEBHOOK,
			// The verify-token handshake (a GET with a challenge) arrives on the same URL.
			{ name: 'setup', httpMethod: 'GET', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			setupNotice(
				"Paste this trigger's URL (Production URL above) into the Status Callback URL of an Exotel Messaging send, or register it below for chat-app messages. With a Webhook Signing Secret on the credential, unsigned chat-app callbacks are refused (401, noted once in n8n's log); the live service is not known to sign, so leave the secret empty unless your account does.",
			),
			eventsField(MESSAGING_EVENTS, 'Which events start the workflow; each message of a callback becomes one item'),
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				options: STATUSES.map((status) => ({ name: status[0].toUpperCase() + status.slice(1), value: status })),
				default: [],
				description: 'Only status callbacks with these statuses start the workflow; none selected means all',
				// shown once any status event is picked (n8n shows a field when any listed value is selected)
				displayOptions: { show: { events: [...STATUS_EVENTS] } },
			},
			{
				displayName: 'Register Chat App Webhooks on Activation',
				name: 'registerWebhooks',
				type: 'boolean',
				default: false,
				description: "Whether to set this trigger's URL as the account's chat-app incoming-message and status-callback URL when the workflow is activated",
			},
			{
				displayName:
					'The chat-app webhook URLs are account-wide: activating replaces the URLs set in the dashboard for every chat-app number. The API cannot remove them, so they stay registered after deactivation until replaced.',
				name: 'registerNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { registerWebhooks: [true] } },
			},
			{
				displayName:
					"Listen for Test Event does not register anything: the account keeps its production URLs. To test, point the service at this trigger's Test URL yourself (e.g. as a send's Status Callback URL) or use the sandbox; activate the workflow to register the Production URL.",
				name: 'testListenNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { registerWebhooks: [true] } },
			},
			{
				displayName: 'Verify Token',
				name: 'verifyToken',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'Token registered with the webhook; a GET with a matching token and a challenge is answered with the challenge',
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const answer = (status: number, body: IDataObject | string) => answerNow(this, status, body);

		if (this.getWebhookName() === 'setup') {
			// Common challenge pattern: hub.mode/hub.verify_token/hub.challenge, or verify_token/challenge.
			const query = req.query as IDataObject;
			const token = query['hub.verify_token'] ?? query.verify_token;
			const challenge = query['hub.challenge'] ?? query.challenge;
			const expected = String(this.getNodeParameter('verifyToken', '') ?? '');
			if (!expected || token !== expected || challenge === undefined) return answer(403, { error: 'verification failed' });
			return answer(200, String(challenge));
		}

		const received = objectOf(req.body);
		if (!received) return answer(400, { error: 'the body is not a JSON object or form' });
		const callback = callbackOf(received, 'messagingTrigger');
		const secret = async () => String((await this.getCredentials<ICredentialDataDecryptedObject>('exotelApi')).webhookSigningSecret ?? '');
		// With a secret, only a body wholly of a shape the service posts unsigned (SMS, RCS, a call) may come unsigned.
		const refusal = await signatureRefused(this, callback.unsigned !== undefined, secret);
		if (refusal) {
			logRefusalOnce(this, refusal);
			return answer(401, { error: refusalWords(refusal) });
		}

		const statuses = this.getNodeParameter('statuses', []) as string[];
		return startWithChosen(this, callbackItems(callback), (entry) => statuses.length === 0 || !STATUS_EVENTS.includes(entry.event) || statuses.includes(String(entry.status)));
	}
}
