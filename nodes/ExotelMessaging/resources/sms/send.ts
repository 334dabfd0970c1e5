import type { IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { parameterReader, type GivenParameters, type ParameterReader } from '../../../shared/items/parameters';
import { sendInBatches } from '../../../shared/items/sendInBatches';
import { LIMITS } from '../../../shared/rules/limits';
import { normalizePhone, trimmed } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { dltTemplates, type CompiledTemplate } from '../../dlt';
import { SMS } from '../../endpoints';
import { batchedRequests, messageSending, recipientField, type BatchedMessage, type MessageRequest } from '../../messages';
import { dynamicBulkForm, readSmsItem, smsOutcomes, staticBulkCarries, staticBulkForm, type SmsMessageFields, type SmsRequestOptions } from './api';
import { smsFields } from './fields';

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send an SMS',
	description: 'Send one SMS per input item; one text to one or many goes through Sms/send, different texts 100 to a request through Sms/bulksend',
};

export const description: INodeProperties[] = smsFields('Message text', recipientField('Recipient number; each input item is one message'), {
	bodyHint: 'One message, or one text to many, counts against the SMS limit (200 requests a minute); different texts go as bulk (50 a minute, 100 messages each)',
	note: 'A Status Callback URL, or any option but DLT Entity ID and the short-URL fields, sends the messages as bulk (Sms/bulksend), the endpoint that has a field for it',
});

type PreparedMessage = BatchedMessage<SmsMessageFields, SmsRequestOptions>;

/**
 * One message per input item: items that share the request-level options go out 100 to a
 * request, a few requests at a time, and each answer entry comes back to the item it was made from.
 *
 * The service limits bulk (`Sms/bulksend`) to 50 requests a minute and `Sms/send` to 200, so a
 * request whose messages are one text from one sender goes through static bulk (`To[]`), a batch
 * of one included; anything static bulk cannot carry goes through dynamic bulk.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await send(this, run, items);
}

/** The send, with `given` parameters instead of the node's (the waiting operations' resume URL and message). */
export async function send(context: IExecuteFunctions, run: NodeRun, items: INodeExecutionData[], given: GivenParameters = {}): Promise<INodeExecutionData[]> {
	// Static bulk takes as many recipients as dynamic bulk takes messages, so one batch size fits both.
	const size = Math.min(LIMITS.sms.messagesPerDynamicBulk, LIMITS.sms.recipientsPerStaticBulk);
	const templates = dltTemplates();
	const node = context.getNode();
	const param = parameterReader(context, given);
	return await sendInBatches(
		context,
		items,
		(itemIndex) => prepare(node, param, itemIndex, templates),
		(prepared) => batchedRequests(prepared, size, (batch) => request(node, batch)),
		messageSending(context, run, 'sms'),
	);
}

function prepare(node: INode, param: ParameterReader, itemIndex: number, templates: (text: string) => CompiledTemplate): PreparedMessage | NodeOperationError {
	// checked as typed, so an error quotes what the user gave; sent as digits
	const typed = trimmed(param('to', itemIndex, ''));
	const to = normalizePhone(typed);
	const item = readSmsItem(node, param, itemIndex, to, templates, typed);
	if (item instanceof NodeOperationError) return item;
	return { itemIndex, message: { To: to, Body: item.body, From: item.from, ...item.options }, requestLevel: item.request };
}

function request(node: INode, batch: PreparedMessage[]): MessageRequest {
	const sent = batch.map(({ itemIndex, message }) => ({ itemIndex, to: message.To, from: message.From }));
	const messages = batch.map(({ message }) => message);
	const { requestLevel } = batch[0];
	const [first] = messages;
	return {
		...(oneText(messages, requestLevel)
			? { endpoint: SMS.send, form: staticBulkForm(first.From, messages.map((message) => message.To), first.Body, requestLevel) }
			: { endpoint: SMS.bulksend, form: dynamicBulkForm(messages, requestLevel) }),
		sent,
		outcomesOf: (answer) => smsOutcomes(node, answer, sent),
	};
}

/** Whether static bulk carries the batch: one sender, one body, no per-message option, no request option it lacks. */
function oneText(messages: SmsMessageFields[], requestLevel: SmsRequestOptions): boolean {
	const [first] = messages;
	return (
		staticBulkCarries(requestLevel, {}) &&
		messages.every(
			(message) => message.From === first.From && message.Body === first.Body && message.SmsType === undefined && message.DltTemplateId === undefined,
		)
	);
}
