import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormValue } from '../../../shared/encoding';
import { LIMITS } from '../../../shared/limits';
import { inParallel, outputOf, prepareItems, REQUESTS_IN_FLIGHT, type ItemOutcome, type ParameterReader } from '../../../shared/operation';
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
	staticBulkCarries,
	staticBulkForm,
	trackingWithoutShortening,
} from './shared';

const STATIC_BULK_PATH = '/v1/Accounts/{accountSid}/Sms/send';
const DYNAMIC_BULK_PATH = '/v1/Accounts/{accountSid}/Sms/bulksend';

export const option: OperationOption = {
	name: 'Send to Many',
	value: 'sendToMany',
	action: 'Send an SMS to many recipients',
	description: 'Send the same SMS to a list of recipients, 100 to a request (static bulk; dynamic bulk when an option static bulk lacks is set)',
};

export const description: INodeProperties[] = [
	...senderAndBody('The same text for every recipient', {
		displayName: 'To',
		name: 'recipients',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210, +919876543211',
		description: 'Recipient numbers separated by commas or new lines, or an expression returning a list',
		hint: `Any number of recipients: the node sends them ${LIMITS.sms.recipientsPerStaticBulk} to a request`,
	}),
	...smsRequestOptions(
		MESSAGE_FIELDS,
		'Static bulk carries only DLT Entity ID and the short-URL fields. With a Status Callback URL or any other field set, the list goes through dynamic bulk instead: one message per recipient, same body, every option sent.',
	),
];

interface BulkRequest {
	itemIndex: number;
	path: string;
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
 *
 * Static bulk has no Status Callback, SMS Type, DLT Template ID, Encoding Type, Priority or
 * Custom Field. Rather than drop one the user set (or send it off-spec), such an item goes through
 * dynamic bulk, which carries them all: one message per recipient with the same body, still 100 to
 * a request and the same SMSMessage answer. Hiding them instead would lose delivery reports and
 * the DLT template id Indian traffic needs.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => prepare(this, itemIndex));
	const answered = await inParallel(
		prepared.flat().map((request) => () => sendBulk(this, request)),
		REQUESTS_IN_FLIGHT,
	);
	return outputOf(this, [...failures, ...answered.flat()]);
}

function prepare(context: IExecuteFunctions, itemIndex: number): BulkRequest[] | NodeOperationError {
	const node = context.getNode();
	const param: ParameterReader = (name, index, fallback) => context.getNodeParameter(name, index, fallback);
	const from = String(param('from', itemIndex, '')).trim();
	const recipients = recipientList(param('recipients', itemIndex, ''));
	const body = String(param('body', itemIndex, ''));
	const extra = param('additionalFields', itemIndex, {}) as IDataObject;
	const request = readSmsRequestOptions(param, itemIndex);
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
	const message = readSmsMessageOptions(param, itemIndex);
	const viaStatic = staticBulkCarries(request, message);
	const size = viaStatic ? LIMITS.sms.recipientsPerStaticBulk : LIMITS.sms.messagesPerDynamicBulk;
	const requests: BulkRequest[] = [];
	for (let start = 0; start < recipients.length; start += size) {
		const chunk = recipients.slice(start, start + size);
		requests.push(
			viaStatic
				? { itemIndex, recipients: chunk, path: STATIC_BULK_PATH, form: staticBulkForm(from, chunk, body, request) }
				: {
						itemIndex,
						recipients: chunk,
						path: DYNAMIC_BULK_PATH,
						form: dynamicBulkForm(
							chunk.map((to) => ({ To: to, Body: body, From: from, ...message })),
							request,
						),
					},
		);
	}
	return requests;
}

async function sendBulk(context: IExecuteFunctions, request: BulkRequest): Promise<ItemOutcome[]> {
	const { itemIndex, recipients, path, form } = request;
	try {
		const response = await exotelRequest.call(context, {
			base: 'base',
			method: 'POST',
			path,
			form,
			itemIndex,
		});
		const entries = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
		return recipients.map((to, position) => smsOutcome(context, itemIndex, entries[position], { to, from: String(form.From) }));
	} catch (error) {
		// The whole request failed: every recipient in it shares the cause.
		return unsentMessages(
			'sms',
			recipients.map((to) => ({ itemIndex, to, from: form.From })),
			error,
		);
	}
}
