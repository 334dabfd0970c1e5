import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENCODING_TYPE_OPTIONS, ENCODING_TYPES, PRIORITIES, PRIORITY_OPTIONS, SMS_TYPE_OPTIONS, SMS_TYPES } from '../../../shared/descriptions';
import { envelopeOutcomes } from '../../../shared/envelope';
import { LIMITS } from '../../../shared/limits';
import { batchesOf, inParallel, outputOf, parameterReader, prepareItems, REQUESTS_IN_FLIGHT, type ItemOutcome, type ParameterReader } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, type FieldCheck } from '../../../shared/validation';
import { unsentMessages } from '../../../shared/vocabulary';
import type { OperationOption } from '../../../shared/resource';

const showFallback = { smsFallback: [true] };

export const option: OperationOption = {
	name: 'Send Template',
	value: 'sendTemplate',
	action: 'Send an RCS template message',
	description: 'Send an approved RCS template per input item, with an optional SMS fallback',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Bot ID',
		name: 'botId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'acme_orders_bot',
		description: 'ID of the registered and verified RCS bot that sends the message',
		hint: 'The brand, its RCS templates and the bot must be registered and verified with Exotel before sending',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210',
		description: 'Recipient in E.164 format; each input item is one message',
	},
	{
		displayName: 'Template Name',
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_update',
		description: 'Name of an approved RCS template of the brand',
	},
	{
		displayName: 'Template Variables',
		name: 'templateVariables',
		type: 'collection',
		placeholder: 'Add Variable',
		default: {},
		options: [
			{ displayName: 'Template Param 1', name: 'TemplateParam1', type: 'string', default: '' },
			{ displayName: 'Template Param 2', name: 'TemplateParam2', type: 'string', default: '' },
			{
				displayName: 'Template Param 3',
				name: 'TemplateParam3',
				type: 'string',
				default: '',
				description: 'Third variable; the service also uses it for any further variable of the template',
			},
		],
	},
	{
		displayName: 'Status Callback URL',
		name: 'statusCallback',
		type: 'string',
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/exotel-messaging',
		hint: "Paste the Exotel Messaging Trigger's URL here to receive this message's delivery reports and replies",
	},
	{
		displayName: 'Add SMS Fallback',
		name: 'smsFallback',
		type: 'boolean',
		default: false,
		description: 'Whether to send an SMS when RCS delivery fails',
	},
	{
		displayName: 'Fallback From',
		name: 'fallbackFrom',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ACMEIN',
		description: 'SMS sender ID of the fallback',
		displayOptions: { show: showFallback },
	},
	{
		displayName: 'Fallback Text',
		name: 'fallbackText',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		description: `SMS text sent instead, at most ${LIMITS.sms.bodyLength} characters`,
		displayOptions: { show: showFallback },
	},
	{
		displayName: 'Fallback SMS Type',
		name: 'fallbackSmsType',
		type: 'options',
		required: true,
		options: SMS_TYPE_OPTIONS,
		default: 'transactional',
		displayOptions: { show: showFallback },
	},
	{
		displayName: 'Fallback Options',
		name: 'fallbackOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showFallback },
		options: [
			{
				displayName: 'Click Tracking Callback URL',
				name: 'clickTrackingCallbackUrl',
				type: 'string',
				default: '',
				description: 'Webhook for click events on shortened links',
			},
			{
				displayName: 'Custom Short-URL Domain',
				name: 'customDomain',
				type: 'string',
				default: '',
				description: "Domain of shortened links; the service's own when empty",
			},
			{
				displayName: 'DLT Entity ID',
				name: 'dltEntityId',
				type: 'string',
				default: '',
				hint: 'Mandatory for an Indian business sending to Indian numbers',
			},
			{ displayName: 'DLT Template ID', name: 'dltTemplateId', type: 'string', default: '' },
			{
				displayName: 'Encoding Type',
				name: 'encodingType',
				type: 'options',
				options: ENCODING_TYPE_OPTIONS,
				default: 'plain',
			},
			{
				displayName: 'Priority',
				name: 'priority',
				type: 'options',
				options: PRIORITY_OPTIONS,
				default: 'normal',
				hint: 'Use High only for OTP messages',
			},
			{
				displayName: 'Shorten URL',
				name: 'shortenUrl',
				type: 'boolean',
				default: false,
				description: 'Whether to shorten URLs in the fallback text (chargeable)',
			},
			{
				displayName: 'Track Clicks',
				name: 'tracking',
				type: 'boolean',
				default: false,
				description: 'Whether to track clicks on shortened URLs (needs Shorten URL)',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Channel Custom Data',
				name: 'channelCustomData',
				type: 'string',
				default: '',
				description: 'Metadata on the RCS channel object (rcs.custom_data)',
			},
			{
				displayName: 'Channel Status Callback URL',
				name: 'channelStatusCallback',
				type: 'string',
				default: '',
				description: 'Webhook on the RCS channel object (rcs.status_callback)',
			},
			{
				displayName: 'Custom Data',
				name: 'customData',
				type: 'string',
				default: '',
				description: 'Metadata of this message, returned in its callbacks',
			},
			{
				displayName: 'Request Custom Data',
				name: 'requestCustomData',
				type: 'string',
				default: '',
				description: 'Metadata of the whole request (top-level custom_data)',
			},
			{
				displayName: 'Request Status Callback URL',
				name: 'requestStatusCallback',
				type: 'string',
				default: '',
				description: 'Webhook for the whole request (top-level status_callback)',
			},
		],
	},
];

interface PreparedRcs {
	itemIndex: number;
	message: IDataObject;
	/** Request- and channel-level values; items sharing them share a request. */
	envelope: { custom_data?: string; status_callback?: string; channel: { custom_data?: string; status_callback?: string } };
	batchKey: string;
}

/** Template messages, one per item, batched up to 100 a request so the service's 400 above 100 is never reached. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const read = parameterReader(this);
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => prepare(node, read, itemIndex));
	const batches = batchesOf(prepared, (message) => message.batchKey, LIMITS.rcs.messagesPerRequest);
	const answered = await inParallel(
		batches.map((batch) => () => sendChunk(this, batch)),
		REQUESTS_IN_FLIGHT,
	);
	return outputOf(this, [...failures, ...answered.flat()]);
}

function text(value: unknown): string | undefined {
	const trimmed = String(value ?? '').trim();
	return trimmed ? trimmed : undefined;
}

function prepare(node: INode, read: ParameterReader, itemIndex: number): PreparedRcs | NodeOperationError {
	const param = (name: string, fallback: unknown = '') => read(name, itemIndex, fallback);
	const botId = text(param('botId'));
	const to = text(param('to'))?.replace(/[\s\-().]/g, '');
	const templateName = text(param('templateName'));
	const variables = param('templateVariables', {}) as IDataObject;
	const statusCallback = text(param('statusCallback'));
	const options = param('options', {}) as IDataObject;
	const withFallback = param('smsFallback', false) === true;

	const checks: FieldCheck[] = [
		[botId, { label: 'Bot ID', required: true }],
		[to, { label: 'To', required: true, format: 'e164' }],
		[templateName, { label: 'Template Name', required: true }],
		[statusCallback, { label: 'Status Callback URL', format: 'url' }],
		[text(options.requestStatusCallback), { label: 'Request Status Callback URL', format: 'url' }],
		[text(options.channelStatusCallback), { label: 'Channel Status Callback URL', format: 'url' }],
	];
	const message: IDataObject = {
		from: botId,
		to,
		content: {
			type: 'template',
			template: {
				name: templateName,
				variables: Object.fromEntries(
					Object.entries(variables)
						.filter(([, value]) => value !== undefined && value !== '')
						.map(([key, value]) => [key, String(value)]),
				),
			},
		},
	};
	if (text(options.customData)) message.custom_data = text(options.customData);
	if (statusCallback) message.status_callback = statusCallback;

	if (withFallback) {
		const fallbackText = String(param('fallbackText'));
		const fallbackOptions = param('fallbackOptions', {}) as IDataObject;
		const content: IDataObject = { text: fallbackText, sms_type: String(param('fallbackSmsType')) };
		// parameters in camelCase, the fallback table's fields on the wire
		const wire = { dltEntityId: 'dlt_entity_id', dltTemplateId: 'dlt_template_id', encodingType: 'encoding_type', priority: 'priority' };
		for (const [option, field] of Object.entries(wire)) {
			if (text(fallbackOptions[option])) content[field] = text(fallbackOptions[option]);
		}
		if (fallbackOptions.shortenUrl === true) {
			content.shorten_url = true;
			const shortenParams: IDataObject = {};
			if (text(fallbackOptions.customDomain)) shortenParams.custom_domain = text(fallbackOptions.customDomain);
			if (fallbackOptions.tracking === true) shortenParams.tracking = true;
			if (text(fallbackOptions.clickTrackingCallbackUrl)) {
				shortenParams.click_tracking_callback_url = text(fallbackOptions.clickTrackingCallbackUrl);
			}
			if (Object.keys(shortenParams).length > 0) content.shorten_url_params = shortenParams;
		} else if (fallbackOptions.tracking === true) {
			return new NodeOperationError(node, `Fallback Track Clicks needs Shorten URL turned on (item ${itemIndex})`, { itemIndex });
		}
		checks.push(
			[text(param('fallbackFrom')), { label: 'Fallback From', required: true }],
			[fallbackText.trim(), { label: 'Fallback Text', required: true, maxLength: LIMITS.sms.bodyLength }],
			[content.sms_type, { label: 'Fallback SMS Type', required: true, oneOf: SMS_TYPES }],
			[content.encoding_type, { label: 'Fallback Encoding Type', oneOf: ENCODING_TYPES }],
			[content.priority, { label: 'Fallback Priority', oneOf: PRIORITIES }],
			[text(fallbackOptions.clickTrackingCallbackUrl), { label: 'Click Tracking Callback URL', format: 'url' }],
		);
		message.fallback = { from: text(param('fallbackFrom')), content };
	}
	const invalid = fieldsError(node, itemIndex, checks);
	if (invalid) return invalid;

	const envelope: PreparedRcs['envelope'] = { channel: {} };
	if (text(options.requestCustomData)) envelope.custom_data = text(options.requestCustomData);
	if (text(options.requestStatusCallback)) envelope.status_callback = text(options.requestStatusCallback);
	if (text(options.channelCustomData)) envelope.channel.custom_data = text(options.channelCustomData);
	if (text(options.channelStatusCallback)) envelope.channel.status_callback = text(options.channelStatusCallback);
	return { itemIndex, message, envelope, batchKey: JSON.stringify(envelope) };
}

async function sendChunk(context: IExecuteFunctions, chunk: PreparedRcs[]): Promise<ItemOutcome[]> {
	const { envelope } = chunk[0];
	const messages = chunk.map((prepared) => prepared.message);
	const body: IDataObject = {
		...(envelope.custom_data ? { custom_data: envelope.custom_data } : {}),
		...(envelope.status_callback ? { status_callback: envelope.status_callback } : {}),
		rcs: { ...envelope.channel, messages },
	};
	const itemIndexes = chunk.map((prepared) => prepared.itemIndex);
	try {
		const response = await exotelRequest.call(context, {
			base: 'base',
			method: 'POST',
			path: '/v2/accounts/{accountSid}/messages',
			body,
			itemIndex: itemIndexes[0],
		});
		return envelopeOutcomes(context.getNode(), 'rcs', response.body, itemIndexes, messages);
	} catch (error) {
		return unsentMessages(
			'rcs',
			chunk.map(({ itemIndex, message }) => ({ itemIndex, to: message.to, from: message.from })),
			error,
		);
	}
}
