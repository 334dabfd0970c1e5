import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { exotelCredentials } from '../shared/transport/address';
import { chatAppEnvelopeOf, chatAppWebhookRequest } from '../shared/transport/live';
import { exotelRequest } from '../shared/transport/request';
import { NodeRun } from '../shared/transport/run';

/**
 * The chat-app webhook URLs are account-wide and the API can only set them (PUT chatapp/webhook, or
 * whatsapp/webhook on the live service):
 * there is no read or delete. So the trigger remembers what it registered in the workflow's static
 * data, re-registers when its URL changed, and on deactivation forgets it (the URLs stay at the
 * service until something replaces them).
 *
 * A "listen for test event" never registers: re-pointing the account at the short-lived test URL
 * would leave every live chat-app number sending to a dead URL once the listen ends.
 */
export function isTestListen(context: IHookFunctions): boolean {
	// n8n starts a test listen with mode and activation 'manual' (activation uses 'trigger' and init/activate/update/leadershipChange).
	if (context.getMode() === 'manual' || context.getActivationMode() === 'manual') return true;
	// It ends one in mode 'internal' like a deactivation; only the hook's URL, the test one, tells them apart.
	const url = context.getNodeWebhookUrl('default') ?? '';
	return url.includes('/webhook-test/');
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	// Nothing to create for a test listen, nor with registration off.
	if (!this.getNodeParameter('registerWebhooks', false) || isTestListen(this)) return true;
	const data = this.getWorkflowStaticData('node');
	return data.registeredUrl === this.getNodeWebhookUrl('default');
}

export async function create(this: IHookFunctions): Promise<boolean> {
	// Checked again here: create must never send a test URL to the service, whoever calls it.
	if (!this.getNodeParameter('registerWebhooks', false) || isTestListen(this)) return true;
	const url = this.getNodeWebhookUrl('default') as string;
	const webhook: IDataObject = { incoming_message_url: url, status_callback_url: url };
	const verifyToken = String(this.getNodeParameter('verifyToken', '') ?? '');
	if (verifyToken) webhook.verify_token = verifyToken;
	// Activation is no execution: the request paces alone.
	const run = NodeRun.alone();
	const envelope = chatAppEnvelopeOf(await exotelCredentials(this, run, 'exotelApi'));
	await exotelRequest(this, run, { ...chatAppWebhookRequest(envelope, webhook), secrets: verifyToken ? [verifyToken] : [] });
	const data = this.getWorkflowStaticData('node');
	data.registeredUrl = url;
	return true;
}

export async function remove(this: IHookFunctions): Promise<boolean> {
	// The end of a test listen must not forget the production registration.
	if (isTestListen(this)) return true;
	const data = this.getWorkflowStaticData('node');
	delete data.registeredUrl;
	return true;
}
