import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { FormValue } from '../../../shared/encoding';
import { LIMITS, PRIORITIES, SMS_TYPES, ENCODING_TYPES } from '../../../shared/limits';
import { inParallel, outputOf, type ItemOutcome } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, normalizePhone } from '../../../shared/validation';
import { smsRequestOptions, readSmsRequestOptions, type SmsRequestOptions } from './shared';

const show = { resource: ['sms'], operation: ['send'] };

export const description: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+918047112233',
		description: 'Virtual number or approved sender ID (the DLT header for Indian traffic)',
		displayOptions: { show },
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210',
		description: 'Recipient number; each input item is one message',
		displayOptions: { show },
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: `Message text, at most ${LIMITS.sms.bodyLength} characters`,
		displayOptions: { show },
	},
	...smsRequestOptions(show, [
		{
			displayName: 'DLT Template ID',
			name: 'dltTemplateId',
			type: 'string',
			default: '',
			description: 'DLT content template ID of this message',
		},
		{
			displayName: 'SMS Type',
			name: 'smsType',
			type: 'options',
			options: [
				{ name: 'Promotional', value: 'promotional' },
				{ name: 'Transactional', value: 'transactional' },
				{ name: 'Transactional Opt-In', value: 'transactional_opt_in' },
			],
			default: 'transactional',
		},
	]),
];

interface PreparedMessage {
	itemIndex: number;
	message: { To: string; Body: string; From: string; SmsType?: string; DltTemplateId?: string };
	request: SmsRequestOptions;
	/** Items with the same request-level values can share a request. */
	batchKey: string;
}

const IN_FLIGHT = 3;

/**
 * One message per input item, sent through dynamic bulk: items that share the request-level
 * options go out 100 to a request, a few requests at a time, and each answer entry comes back
 * to the item it was made from.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const outcomes: ItemOutcome[] = [];
	const batches = new Map<string, PreparedMessage[]>();

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const prepared = prepare(this, itemIndex);
		if (prepared instanceof NodeOperationError) {
			// Every item is checked before the first request, so bad input sends nothing.
			if (!this.continueOnFail()) throw prepared;
			outcomes.push({ itemIndex, json: {}, error: prepared });
			continue;
		}
		const batch = batches.get(prepared.batchKey);
		if (batch) batch.push(prepared);
		else batches.set(prepared.batchKey, [prepared]);
	}

	const requests: PreparedMessage[][] = [];
	for (const batch of batches.values()) {
		for (let start = 0; start < batch.length; start += LIMITS.sms.messagesPerDynamicBulk) {
			requests.push(batch.slice(start, start + LIMITS.sms.messagesPerDynamicBulk));
		}
	}
	const answered = await inParallel(
		requests.map((chunk) => () => sendChunk(this, chunk)),
		IN_FLIGHT,
	);
	for (const chunkOutcomes of answered) outcomes.push(...chunkOutcomes);
	return outputOf(this, outcomes);
}

function prepare(context: IExecuteFunctions, itemIndex: number): PreparedMessage | NodeOperationError {
	const from = String(context.getNodeParameter('from', itemIndex, '')).trim();
	const to = normalizePhone(String(context.getNodeParameter('to', itemIndex, '')));
	const body = String(context.getNodeParameter('body', itemIndex, ''));
	const extra = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const request = readSmsRequestOptions(context, itemIndex);
	const invalid = fieldsError(context.getNode(), itemIndex, [
		[from, { label: 'From', required: true }],
		[to, { label: 'To', required: true, format: 'phone' }],
		[body, { label: 'Body', required: true, maxLength: LIMITS.sms.bodyLength }],
		[extra.smsType, { label: 'SMS Type', oneOf: SMS_TYPES }],
		[request.EncodingType, { label: 'Encoding Type', oneOf: ENCODING_TYPES }],
		[request.Priority, { label: 'Priority', oneOf: PRIORITIES }],
		[request.StatusCallback, { label: 'Status Callback URL', format: 'url' }],
		[request.ShortenUrlParams?.ClickTrackingCallbackUrl, { label: 'Click Tracking Callback URL', format: 'url' }],
	]);
	if (invalid) return invalid;
	if (extra.shortenUrlTracking === true && extra.shortenUrl !== true) {
		// The service tracks clicks only on shortened links.
		return new NodeOperationError(context.getNode(), `Track Clicks needs Shorten URL turned on (item ${itemIndex})`, { itemIndex });
	}
	const message: PreparedMessage['message'] = { To: to, Body: body, From: from };
	if (extra.smsType) message.SmsType = String(extra.smsType);
	if (extra.dltTemplateId) message.DltTemplateId = String(extra.dltTemplateId);
	return { itemIndex, message, request, batchKey: JSON.stringify(request) };
}

async function sendChunk(context: IExecuteFunctions, chunk: PreparedMessage[]): Promise<ItemOutcome[]> {
	// The first sender becomes the request default; messages repeat From only where they differ.
	const defaultFrom = chunk[0].message.From;
	const form: Record<string, FormValue> = {
		From: defaultFrom,
		Messages: chunk.map(({ message }) => ({
			To: message.To,
			Body: message.Body,
			From: message.From === defaultFrom ? undefined : message.From,
			SmsType: message.SmsType,
			DltTemplateId: message.DltTemplateId,
		})),
		...(chunk[0].request as Record<string, FormValue>),
	};
	try {
		const response = await exotelRequest.call(context, {
			base: 'base',
			method: 'POST',
			path: '/v1/Accounts/{accountSid}/Sms/bulksend',
			form,
			itemIndex: chunk[0].itemIndex,
		});
		const entries = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
		return chunk.map((prepared, position) => smsOutcome(context, prepared.itemIndex, entries[position]));
	} catch (error) {
		// The whole request failed: every message in it shares the cause.
		return chunk.map(({ itemIndex, message }) => ({
			itemIndex,
			json: { To: message.To, Status: 'failed', deliveryUnknown: error.context?.deliveryUnknown === true },
			error,
		}));
	}
}

/** One SMSMessage answer entry as the item's output; a `failed` entry becomes that item's error. */
export function smsOutcome(context: IExecuteFunctions, itemIndex: number, entry: IDataObject | undefined): ItemOutcome {
	const message = (entry?.SMSMessage ?? entry) as IDataObject | undefined;
	if (!message || typeof message !== 'object') {
		return {
			itemIndex,
			json: {},
			error: new NodeApiError(context.getNode(), {}, {
				message: 'The service answered without an entry for this message',
				description: 'Its answer had fewer SMSMessage entries than messages sent; the message may or may not have been accepted.',
				itemIndex,
			}),
		};
	}
	if (message.Status === 'failed') {
		return {
			itemIndex,
			json: message,
			error: new NodeApiError(context.getNode(), { ...message } as JsonObject, {
				message: `Message not accepted: ${String(message.DetailedStatus)} (${String(message.DetailedStatusCode)})`,
				description: `To ${String(message.To ?? '')}: the service reported Status "failed" for this message; the other messages of the request are unaffected.`,
				httpCode: '207',
				itemIndex,
			}),
		};
	}
	return { itemIndex, json: message };
}
