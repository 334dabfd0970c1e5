import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import type { ParameterReader } from '../../../shared/items/parameters';
import { sendInBatches } from '../../../shared/items/sendInBatches';
import { LIMITS } from '../../../shared/rules/limits';
import { normalizePhone } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { dltTemplates, type CompiledTemplate } from '../../dlt';
import { SMS } from '../../endpoints';
import { messageSending, recipientField, type MessageRequest } from '../../messages';
import { dynamicBulkForm, readSmsItem, smsOutcomes, staticBulkCarries, staticBulkForm } from './api';
import { smsFields } from './fields';


export const option: OperationOption = {
	name: 'Send to Many',
	value: 'sendToMany',
	action: 'Send an SMS to many recipients',
	description: 'Send the same SMS to a list of recipients, 100 to a request (static bulk; dynamic bulk when an option static bulk lacks is set)',
};

export const description: INodeProperties[] = smsFields(
	'The same text for every recipient',
	recipientField('Recipient numbers separated by commas or new lines, or an expression returning a list', {
		name: 'recipients',
		placeholder: '+919876543210, +919876543211',
		hint: `Any number of recipients: the node sends them ${LIMITS.sms.recipientsPerStaticBulk} to a request`,
	}),
	{
		note: 'Static bulk carries only DLT Entity ID and the short-URL fields. With a Status Callback URL or any other field set, the list goes through dynamic bulk instead: one message per recipient, same body, every option sent.',
	},
);

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
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const templates = dltTemplates();
	return await sendInBatches(this, items, (itemIndex) => prepare(this, itemIndex, templates), (prepared) => prepared.flat(), messageSending(this, run, 'sms'));
}

function prepare(context: IExecuteFunctions, itemIndex: number, templates: (text: string) => CompiledTemplate): MessageRequest[] | NodeOperationError {
	const node = context.getNode();
	const param: ParameterReader = (name, index, fallback) => context.getNodeParameter(name, index, fallback);
	const recipients = recipientList(param('recipients', itemIndex, ''));
	const item = readSmsItem(node, param, itemIndex, recipients, templates);
	if (item instanceof NodeOperationError) return item;
	const { from, body, request, options } = item;
	const viaStatic = staticBulkCarries(request, options);
	const size = viaStatic ? LIMITS.sms.recipientsPerStaticBulk : LIMITS.sms.messagesPerDynamicBulk;
	const requests: MessageRequest[] = [];
	for (let start = 0; start < recipients.length; start += size) {
		const chunk = recipients.slice(start, start + size);
		const sent = chunk.map((to) => ({ itemIndex, to, from }));
		requests.push({
			sent,
			outcomesOf: (answer) => smsOutcomes(node, answer, sent),
			...(viaStatic
				? { endpoint: SMS.send, form: staticBulkForm(from, chunk, body, request) }
				: {
						endpoint: SMS.bulksend,
						form: dynamicBulkForm(
							chunk.map((to) => ({ To: to, Body: body, From: from, ...options })),
							request,
						),
					}),
		});
	}
	return requests;
}
