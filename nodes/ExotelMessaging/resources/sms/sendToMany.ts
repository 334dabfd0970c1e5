import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormValue } from '../../../shared/encoding';
import { LIMITS } from '../../../shared/limits';
import { inParallel, outputOf, prepareItems, REQUESTS_IN_FLIGHT, type ItemOutcome } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, normalizePhone } from '../../../shared/validation';
import {
	MESSAGE_FIELDS,
	readSmsRequestOptions,
	senderAndBody,
	smsOptionChecks,
	smsOutcome,
	smsRequestOptions,
	trackingWithoutShortening,
	type SmsRequestOptions,
} from './shared';

const show = { resource: ['sms'], operation: ['sendToMany'] };

export const description: INodeProperties[] = [
	...senderAndBody(show, 'The same text for every recipient', {
		displayName: 'To',
		name: 'recipients',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210, +919876543211',
		description: 'Recipient numbers separated by commas or new lines, or an expression returning a list',
		hint: `Any number of recipients: the node sends them ${LIMITS.sms.recipientsPerStaticBulk} to a request`,
	}),
	...smsRequestOptions(show, MESSAGE_FIELDS),
];

interface StaticBulkRequest {
	itemIndex: number;
	form: Record<string, FormValue>;
	recipients: string[];
}

function recipientList(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : String(value ?? '').split(/[,;\n]/);
	return entries.map((entry) => normalizePhone(String(entry))).filter(Boolean);
}

/**
 * One body to many recipients per input item (static bulk, repeated `To[]`). Lists longer than
 * the service's 100 are split into several requests rather than rejected with 40406; every
 * recipient's SMSMessage comes out as its own item, paired to the input item.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => prepare(this, itemIndex));
	const answered = await inParallel(
		prepared.flat().map((request) => () => sendStaticBulk(this, request)),
		REQUESTS_IN_FLIGHT,
	);
	return outputOf(this, [...failures, ...answered.flat()]);
}

function prepare(context: IExecuteFunctions, itemIndex: number): StaticBulkRequest[] | NodeOperationError {
	const node = context.getNode();
	const from = String(context.getNodeParameter('from', itemIndex, '')).trim();
	const recipients = recipientList(context.getNodeParameter('recipients', itemIndex, ''));
	const body = String(context.getNodeParameter('body', itemIndex, ''));
	const extra = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const request: SmsRequestOptions & { SmsType?: string; DltTemplateId?: string } = readSmsRequestOptions(
		(name, index, fallback) => context.getNodeParameter(name, index, fallback),
		itemIndex,
	);
	const invalid = fieldsError(node, itemIndex, [
		[from, { label: 'From', required: true }],
		[recipients, { label: 'To', required: true, format: 'phone' }],
		[body, { label: 'Body', required: true, maxLength: LIMITS.sms.bodyLength }],
		...smsOptionChecks(request, extra.smsType),
	]);
	if (invalid) return invalid;
	if (trackingWithoutShortening(extra)) {
		return new NodeOperationError(node, `Track Clicks needs Shorten URL turned on (item ${itemIndex})`, { itemIndex });
	}
	if (extra.smsType) request.SmsType = String(extra.smsType);
	if (extra.dltTemplateId) request.DltTemplateId = String(extra.dltTemplateId);
	const requests: StaticBulkRequest[] = [];
	for (let start = 0; start < recipients.length; start += LIMITS.sms.recipientsPerStaticBulk) {
		const chunk = recipients.slice(start, start + LIMITS.sms.recipientsPerStaticBulk);
		requests.push({
			itemIndex,
			recipients: chunk,
			form: { From: from, To: chunk, Body: body, ...(request as Record<string, FormValue>) },
		});
	}
	return requests;
}

async function sendStaticBulk(context: IExecuteFunctions, request: StaticBulkRequest): Promise<ItemOutcome[]> {
	const { itemIndex, recipients, form } = request;
	try {
		const response = await exotelRequest.call(context, {
			base: 'base',
			method: 'POST',
			path: '/v1/Accounts/{accountSid}/Sms/send',
			form,
			itemIndex,
		});
		const entries = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
		return recipients.map((_, position) => smsOutcome(context, itemIndex, entries[position]));
	} catch (error) {
		// The whole request failed: every recipient in it shares the cause.
		return recipients.map((to) => ({
			itemIndex,
			json: { To: to, Status: 'failed', deliveryUnknown: error.context?.deliveryUnknown === true },
			error,
		}));
	}
}
