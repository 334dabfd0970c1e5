import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { exotelRequest } from '../shared/transport';

/**
 * The chat-app webhook URLs are account-wide and the API can only set them (PUT chatapp/webhook):
 * there is no read or delete. So the trigger remembers what it registered in the workflow's static
 * data, re-registers when its URL changed, and on deactivation forgets it (the URLs stay at the
 * service until something replaces them).
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	if (!this.getNodeParameter('registerWebhooks', false)) return true;
	const data = this.getWorkflowStaticData('node');
	return data.registeredUrl === this.getNodeWebhookUrl('default');
}

export async function create(this: IHookFunctions): Promise<boolean> {
	if (!this.getNodeParameter('registerWebhooks', false)) return true;
	const url = this.getNodeWebhookUrl('default') as string;
	const webhook: IDataObject = { incoming_message_url: url, status_callback_url: url };
	const verifyToken = String(this.getNodeParameter('verifyToken', '') ?? '');
	if (verifyToken) webhook.verify_token = verifyToken;
	await exotelRequest.call(this, {
		base: 'base',
		method: 'PUT',
		path: '/v2/accounts/{accountSid}/chatapp/webhook',
		body: { chatapp: { webhook } },
		secrets: verifyToken ? [verifyToken] : [],
	});
	const data = this.getWorkflowStaticData('node');
	data.registeredUrl = url;
	return true;
}

export async function remove(this: IHookFunctions): Promise<boolean> {
	const data = this.getWorkflowStaticData('node');
	delete data.registeredUrl;
	return true;
}
