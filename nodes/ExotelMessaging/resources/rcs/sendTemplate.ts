import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection, statusCallbackField } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { parameterReader, type GivenParameters, type ParameterReader } from '../../../shared/items/parameters';
import { sendInBatches } from '../../../shared/items/sendInBatches';
import { envelopeOutcomes } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, normalizePhone, trimmed, type FieldCheck } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { dltRefusal, dltTemplates, dltTemplateTextField, type CompiledTemplate } from '../../dlt';
import { MESSAGES } from '../../endpoints';
import { batchedRequests, messageSending, recipientField, type BatchedMessage, type MessageRequest } from '../../messages';
import { ENCODING_TYPE_FIELD, PRIORITY_FIELD, SMS_TYPE_OPTIONS, smsChoiceChecks } from '../sms/fields';

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
	recipientField('Recipient in E.164 format; each input item is one message'),
	{
		displayName: 'Template Name',
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_update',
		description: 'Name of an approved RCS template of the brand',
	},
	optionsCollection(
		[
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
		{ displayName: 'Template Variables', name: 'templateVariables', placeholder: 'Add Variable' },
	),
	statusCallbackField('Messaging', "this message's delivery reports and replies"),
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
	optionsCollection(
		[
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
			dltTemplateTextField({ description: 'The fallback text\'s content template as registered on the DLT platform, with {#var#} for each variable. When set, a fallback text that differs, or has a variable over 30 characters, fails its item before anything is sent.' }),
			ENCODING_TYPE_FIELD,
			PRIORITY_FIELD,
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
		{ displayName: 'Fallback Options', name: 'fallbackOptions', displayOptions: { show: showFallback } },
	),
	optionsCollection([
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
	]),
];

/** Request-level values (`custom_data`, `status_callback`) and the channel's (`channel`). */
type PreparedRcs = BatchedMessage<IDataObject, IDataObject & { channel: IDataObject }>;

/** Template messages, one per item, batched up to 100 a request so the service's 400 above 100 is never reached. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await send(this, run, items);
}

/** The send, with `given` parameters instead of the node's (the waiting operation's resume URL). */
export async function send(context: IExecuteFunctions, run: NodeRun, items: INodeExecutionData[], given: GivenParameters = {}): Promise<INodeExecutionData[]> {
	const templates = dltTemplates();
	const node = context.getNode();
	const read = parameterReader(context, given);
	return await sendInBatches(
		context,
		items,
		(itemIndex) => prepare(node, read, itemIndex, templates),
		(prepared) => batchedRequests(prepared, LIMITS.rcs.messagesPerRequest, (batch) => request(node, batch)),
		messageSending(context, run, 'rcs'),
	);
}

/** Copies the options that are set, trimmed, onto the wire object under the spec's names. */
function putTrimmed(target: IDataObject, options: IDataObject, wire: Record<string, string>): void {
	for (const [option, field] of Object.entries(wire)) {
		const value = trimmed(options[option]);
		if (value) target[field] = value;
	}
}

/** One item's template message, its SMS fallback and the request-level values, or the first problem with them. */
function prepare(node: INode, read: ParameterReader, itemIndex: number, templates: (text: string) => CompiledTemplate): PreparedRcs | NodeOperationError {
	const param = (name: string, fallback: unknown = '') => read(name, itemIndex, fallback);
	const botId = trimmed(param('botId'));
	const typedTo = trimmed(param('to'));
	const templateName = trimmed(param('templateName'));
	const variables = param('templateVariables', {}) as IDataObject;
	const statusCallback = trimmed(param('statusCallback'));
	const options = param('options', {}) as IDataObject;
	const withFallback = param('smsFallback', false) === true;

	const checks: FieldCheck[] = [
		[botId, { label: 'Bot ID', required: true }],
		[typedTo, { label: 'To', required: true, format: 'e164' }],
		[templateName, { label: 'Template Name', required: true }],
		[statusCallback, { label: 'Status Callback URL', format: 'url' }],
		[trimmed(options.requestStatusCallback), { label: 'Request Status Callback URL', format: 'url' }],
		[trimmed(options.channelStatusCallback), { label: 'Channel Status Callback URL', format: 'url' }],
	];
	const message = templateMessage(botId, normalizePhone(typedTo), templateName, variables);
	putTrimmed(message, options, { customData: 'custom_data' });
	if (statusCallback) message.status_callback = statusCallback;

	let fallbackRefused: NodeOperationError | undefined;
	if (withFallback) {
		const fallback = smsFallbackOf(node, param, itemIndex, templates);
		if (fallback instanceof NodeOperationError) return fallback;
		checks.push(...fallback.checks);
		message.fallback = fallback.fallback;
		fallbackRefused = fallback.refused;
	}
	const invalid = fieldsError(node, itemIndex, checks);
	if (invalid) return invalid;
	if (fallbackRefused) return fallbackRefused;
	return { itemIndex, message, requestLevel: requestLevelOf(options) };
}

/** The message from the bot: the template by its name, with the variables that were given, as text. */
function templateMessage(from: string, to: string, name: string, variables: IDataObject): IDataObject {
	return {
		from,
		to,
		content: {
			type: 'template',
			template: {
				name,
				variables: Object.fromEntries(
					Object.entries(variables)
						.filter(([, value]) => value !== undefined && value !== '')
						.map(([key, value]) => [key, String(value)]),
				),
			},
		},
	};
}

/**
 * The SMS sent when RCS delivery fails (`fallback`: its sender and content), the checks of its
 * fields, and its DLT refusal, which is told after the fields' problems as the SMS sends tell it.
 */
function smsFallbackOf(
	node: INode,
	param: (name: string, fallback?: unknown) => unknown,
	itemIndex: number,
	templates: (text: string) => CompiledTemplate,
): { fallback: IDataObject; checks: FieldCheck[]; refused?: NodeOperationError } | NodeOperationError {
	const fallbackText = String(param('fallbackText'));
	const fallbackOptions = param('fallbackOptions', {}) as IDataObject;
	const content: IDataObject = { text: fallbackText, sms_type: String(param('fallbackSmsType')) };
	// parameters in camelCase, the fallback table's fields on the wire
	putTrimmed(content, fallbackOptions, { dltEntityId: 'dlt_entity_id', dltTemplateId: 'dlt_template_id', encodingType: 'encoding_type', priority: 'priority' });
	if (fallbackOptions.shortenUrl === true) {
		content.shorten_url = true;
		const shortenParams: IDataObject = {};
		putTrimmed(shortenParams, fallbackOptions, { customDomain: 'custom_domain' });
		if (fallbackOptions.tracking === true) shortenParams.tracking = true;
		putTrimmed(shortenParams, fallbackOptions, { clickTrackingCallbackUrl: 'click_tracking_callback_url' });
		if (Object.keys(shortenParams).length > 0) content.shorten_url_params = shortenParams;
	} else if (fallbackOptions.tracking === true) {
		return new NodeOperationError(node, `Fallback Track Clicks needs Shorten URL turned on (item ${itemIndex})`, { itemIndex });
	}
	const fallbackFrom = trimmed(param('fallbackFrom'));
	const checks: FieldCheck[] = [
		[fallbackFrom, { label: 'Fallback From', required: true }],
		[fallbackText.trim(), { label: 'Fallback Text', required: true, maxLength: LIMITS.sms.bodyLength }],
		[content.sms_type, { label: 'Fallback SMS Type', required: true }],
		...smsChoiceChecks({ smsType: content.sms_type, encodingType: content.encoding_type, priority: content.priority }, 'Fallback '),
		[trimmed(fallbackOptions.clickTrackingCallbackUrl), { label: 'Click Tracking Callback URL', format: 'url' }],
	];
	const refused = dltRefusal(node, itemIndex, fallbackText, fallbackOptions.dltTemplateText, {
		templates,
		shortened: fallbackOptions.shortenUrl === true,
		label: 'Fallback Text',
	});
	return { fallback: { from: fallbackFrom, content }, checks, refused };
}

/** The request's own `custom_data` and `status_callback`, and the RCS channel's (`rcs.custom_data`, `rcs.status_callback`). */
function requestLevelOf(options: IDataObject): PreparedRcs['requestLevel'] {
	const requestLevel: PreparedRcs['requestLevel'] = { channel: {} };
	putTrimmed(requestLevel, options, { requestCustomData: 'custom_data', requestStatusCallback: 'status_callback' });
	putTrimmed(requestLevel.channel, options, { channelCustomData: 'custom_data', channelStatusCallback: 'status_callback' });
	return requestLevel;
}

function request(node: INode, batch: PreparedRcs[]): MessageRequest {
	const { channel, ...envelope } = batch[0].requestLevel;
	const messages = batch.map((prepared) => prepared.message);
	return {
		endpoint: MESSAGES.send,
		body: { ...envelope, rcs: { ...channel, messages } },
		sent: batch.map(({ itemIndex, message }) => ({ itemIndex, to: message.to, from: message.from })),
		outcomesOf: (answer) =>
			envelopeOutcomes(
				node,
				'rcs',
				answer,
				batch.map((prepared) => prepared.itemIndex),
				messages,
			),
	};
}
