import type { IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../../../shared/limits';
import type { ParameterReader } from '../../../shared/operation';
import type { OperationOption } from '../../../shared/resource';
import { normalizePhone } from '../../../shared/validation';
import { recipientField, sendBatched, type BatchedMessage, type MessageRequest } from '../messages';
import { dynamicBulkForm, readSmsItem, smsFields, smsOutcomes, type SmsMessageFields, type SmsRequestOptions } from './shared';

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send an SMS',
	description: 'Send one SMS per input item, batched 100 to a request',
};

export const description: INodeProperties[] = smsFields('Message text', recipientField('Recipient number; each input item is one message'));

type PreparedMessage = BatchedMessage<SmsMessageFields, SmsRequestOptions>;

/**
 * One message per input item, sent through dynamic bulk: items that share the request-level
 * options go out 100 to a request, a few requests at a time, and each answer entry comes back
 * to the item it was made from.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await sendBatched(this, 'sms', items, LIMITS.sms.messagesPerDynamicBulk, prepare, request);
}

function prepare(node: INode, param: ParameterReader, itemIndex: number): PreparedMessage | NodeOperationError {
	const to = normalizePhone(String(param('to', itemIndex, '')));
	const item = readSmsItem(node, param, itemIndex, to);
	if (item instanceof NodeOperationError) return item;
	return { itemIndex, message: { To: to, Body: item.body, From: item.from, ...item.options }, requestLevel: item.request };
}

function request(node: INode, batch: PreparedMessage[]): MessageRequest {
	const sent = batch.map(({ itemIndex, message }) => ({ itemIndex, to: message.To, from: message.From }));
	return {
		path: '/v1/Accounts/{accountSid}/Sms/bulksend',
		form: dynamicBulkForm(
			batch.map(({ message }) => message),
			batch[0].requestLevel,
		),
		sent,
		outcomesOf: (answer) => smsOutcomes(node, answer, sent),
	};
}
