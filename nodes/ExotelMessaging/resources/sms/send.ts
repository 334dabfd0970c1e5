import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../../../shared/limits';
import { batchesOf, inParallel, outputOf, parameterReader, prepareItems, REQUESTS_IN_FLIGHT, type ItemOutcome, type ParameterReader } from '../../../shared/operation';
import type { OperationOption } from '../../../shared/resource';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, normalizePhone } from '../../../shared/validation';
import { unsentMessages } from '../../../shared/vocabulary';
import {
	dynamicBulkForm,
	MESSAGE_FIELDS,
	readSmsMessageOptions,
	readSmsRequestOptions,
	senderAndBody,
	smsOptionChecks,
	smsOutcome,
	smsRequestOptions,
	trackingWithoutShortening,
	type SmsMessageFields,
	type SmsRequestOptions,
} from './shared';

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send an SMS',
	description: 'Send one SMS per input item, batched 100 to a request',
};

export const description: INodeProperties[] = [
	...senderAndBody('Message text', {
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210',
		description: 'Recipient number; each input item is one message',
	}),
	...smsRequestOptions(MESSAGE_FIELDS),
];

interface PreparedMessage {
	itemIndex: number;
	message: SmsMessageFields;
	request: SmsRequestOptions;
	/** Items with the same request-level values can share a request. */
	batchKey: string;
}

/**
 * One message per input item, sent through dynamic bulk: items that share the request-level
 * options go out 100 to a request, a few requests at a time, and each answer entry comes back
 * to the item it was made from.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const param = parameterReader(this);
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => prepare(node, param, itemIndex));
	const batches = batchesOf(prepared, (message) => message.batchKey, LIMITS.sms.messagesPerDynamicBulk);
	const answered = await inParallel(
		batches.map((batch) => () => sendChunk(this, batch)),
		REQUESTS_IN_FLIGHT,
	);
	return outputOf(this, [...failures, ...answered.flat()]);
}

function prepare(node: INode, param: ParameterReader, itemIndex: number): PreparedMessage | NodeOperationError {
	const from = String(param('from', itemIndex, '')).trim();
	const to = normalizePhone(String(param('to', itemIndex, '')));
	const body = String(param('body', itemIndex, ''));
	const extra = param('additionalFields', itemIndex, {}) as IDataObject;
	const request = readSmsRequestOptions(param, itemIndex);
	const invalid = fieldsError(node, itemIndex, [
		[from, { label: 'From', required: true }],
		[to, { label: 'To', required: true, format: 'phone' }],
		[body, { label: 'Body', required: true, maxLength: LIMITS.sms.bodyLength }],
		...smsOptionChecks(request, extra.smsType),
	]);
	if (invalid) return invalid;
	if (trackingWithoutShortening(extra)) {
		return new NodeOperationError(node, `Track Clicks needs Shorten URL turned on (item ${itemIndex})`, { itemIndex });
	}
	const message: SmsMessageFields = { To: to, Body: body, From: from, ...readSmsMessageOptions(param, itemIndex) };
	return { itemIndex, message, request, batchKey: JSON.stringify(request) };
}

async function sendChunk(context: IExecuteFunctions, chunk: PreparedMessage[]): Promise<ItemOutcome[]> {
	const form = dynamicBulkForm(
		chunk.map(({ message }) => message),
		chunk[0].request,
	);
	try {
		const response = await exotelRequest.call(context, {
			base: 'base',
			method: 'POST',
			path: '/v1/Accounts/{accountSid}/Sms/bulksend',
			form,
			itemIndex: chunk[0].itemIndex,
		});
		const entries = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
		return chunk.map((prepared, position) => smsOutcome(context, prepared.itemIndex, entries[position], { to: prepared.message.To, from: prepared.message.From }));
	} catch (error) {
		// The whole request failed: every message in it shares the cause.
		return unsentMessages(
			'sms',
			chunk.map(({ itemIndex, message }) => ({ itemIndex, to: message.To, from: message.From })),
			error,
		);
	}
}
