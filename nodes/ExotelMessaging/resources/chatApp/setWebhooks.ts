import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { statusCallbackField } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { outputOf, prepareItems } from '../../../shared/items/outcomes';
import { sendEach } from '../../../shared/items/sending';
import { fieldsError, trimmed } from '../../../shared/rules/validation';
import { exotelCredentials } from '../../../shared/transport/address';
import { chatAppEnvelopeOf, chatAppWebhookRequest } from '../../../shared/transport/live';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { redact } from '../../../shared/transport/secrets';

export const option: OperationOption = {
	name: 'Set Webhooks',
	value: 'setWebhooks',
	action: 'Set the chat app webhooks',
	description: 'Set the account-wide URLs for incoming messages and status callbacks',
};

export const description: INodeProperties[] = [
	{
		displayName: 'These URLs are account-wide: they replace the ones set in the dashboard for every chat-app number',
		name: 'webhookNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Incoming Message URL',
		name: 'incomingMessageUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/exotel-messaging',
		description: 'URL that receives incoming messages, for example the Exotel Messaging Trigger URL',
	},
	// the account's URL rather than one request's: described, without the paste-here hint
	statusCallbackField('Messaging', 'delivery and read receipts', {
		name: 'statusCallbackUrl',
		hint: undefined,
		description: 'URL that receives delivery and read receipts',
	}),
	{
		displayName: 'Verify Token',
		name: 'verifyToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'Token for the webhook verification handshake',
	},
];

/**
 * PUT chatapp/webhook (whatsapp/webhook on the live service) with the URLs of each item (usually
 * one), one item after the other: the last one set stays.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const envelope = chatAppEnvelopeOf(await exotelCredentials(this, run, 'exotelApi'));
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const incoming = trimmed(this.getNodeParameter('incomingMessageUrl', itemIndex, ''));
		const status = trimmed(this.getNodeParameter('statusCallbackUrl', itemIndex, ''));
		const verifyToken = String(this.getNodeParameter('verifyToken', itemIndex, ''));
		const invalid = fieldsError(this.getNode(), itemIndex, [
			[incoming, { label: 'Incoming Message URL', required: true, format: 'url' }],
			[status, { label: 'Status Callback URL', format: 'url' }],
		]);
		if (invalid) return invalid;
		const webhook: IDataObject = { incoming_message_url: incoming };
		if (status) webhook.status_callback_url = status;
		if (verifyToken) webhook.verify_token = verifyToken;
		return { itemIndex, webhook };
	});
	const outcomes = await sendEach(
		prepared,
		async ({ itemIndex, webhook }) => {
			// The verify token is a secret: the output says whether one was set, never its value.
			const { verify_token: verifyToken, ...shown } = webhook;
			const secrets = typeof verifyToken === 'string' ? [verifyToken] : [];
			const response = await exotelRequest(this, run, { ...chatAppWebhookRequest(envelope, webhook), itemIndex, secrets });
			return { ...shown, verifyTokenSet: verifyToken !== undefined, raw: redact(response.body as IDataObject, secrets) };
		},
		{ inFlight: 1 },
	);
	return outputOf(this, [...failures, ...outcomes]);
}
