import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { LIMITS } from '../../../shared/rules/limits';
import { withoutKeys } from '../../../shared/rules/values';
import { LIMIT_WAIT_TIME_OPTION, SEND_AND_WAIT, waitNotice } from '../../../shared/sendAndWait/fields';
import type { NodeRun } from '../../../shared/transport/run';
import { dltTemplateTextField } from '../../dlt';
import { recipientField, senderField } from '../../messages';
import { approvalChoices, approvalOptionsField, waitForAnswer } from '../../waitForAnswer';
import { ENCODING_TYPE_FIELD, PRIORITY_FIELD, SMS_TYPE_OPTIONS } from './fields';
import { send } from './send';

export const option: OperationOption = {
	name: 'Send and Wait for Approval',
	value: SEND_AND_WAIT,
	action: 'Send an SMS and wait for approval',
	description: 'Send an SMS with approve and decline links, and continue with the answer',
};

export const description: INodeProperties[] = [
	waitNotice(
		'The person gets an SMS with a link for each answer; a link opens a page with a button that sends that answer. The execution waits until they press it, or until Limit Wait Time if set, then continues with their answer.',
	),
	senderField('Virtual number or approved sender ID (the DLT header for Indian traffic)'),
	recipientField('Who approves; the links are theirs'),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		description: `The question; the links follow it. With them the SMS stays within ${LIMITS.sms.bodyLength} characters.`,
	},
	approvalOptionsField('Label', (answer) => `Words before the ${answer} link`),
	{
		displayName: 'The links are shortened by the service (Shorten URL, chargeable). Indian senders must add DLT Entity ID and a DLT template that allows links.',
		name: 'linkNotice',
		type: 'notice',
		default: '',
	},
	optionsCollection([
		{ displayName: 'Custom Field', name: 'customField', type: 'string', default: '', description: 'Your own reference' },
		{ displayName: 'DLT Entity ID', name: 'dltEntityId', type: 'string', default: '', description: 'Entity ID registered on the DLT portal' },
		{ displayName: 'DLT Template ID', name: 'dltTemplateId', type: 'string', default: '', description: 'DLT content template ID of the message' },
		dltTemplateTextField({
			placeholder: 'Approve the refund of Rs. {#var#}?\n\nApprove: {#var#}\nDecline: {#var#}',
			description:
				'The content template as registered on the DLT platform, with {#var#} for each variable: the message, a blank line, then a line "<label>: {#var#}" per link. Checked before sending; the links count as the short links the service makes.',
		}),
		ENCODING_TYPE_FIELD,
		LIMIT_WAIT_TIME_OPTION,
		PRIORITY_FIELD,
		{ displayName: 'Short URL Header', name: 'shortenUrlHeader', type: 'string', default: '', description: 'DLT-registered header for the short-URL domain' },
		{ displayName: 'SMS Type', name: 'smsType', type: 'options', options: SMS_TYPE_OPTIONS, default: 'transactional' },
	]),
];

/**
 * Sends through SMS → Send (same checks, same request): the body is the message and one signed
 * resume link per answer, shortened by the service.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await waitForAnswer(
		this,
		items,
		'sms',
		(context, resumeUrl) => {
			const text = String(context.getNodeParameter('message', 0, ''));
			const choices = approvalChoices(context);
			const links = choices.map((choice) => `${choice.title}: ${resumeUrl({ answer: choice.id })}`);
			const smsOptions = withoutKeys(context.getNodeParameter('options', 0, {}) as IDataObject, ['limitWaitTime']);
			const given = {
				body: `${text.trim()}\n\n${links.join('\n')}`,
				statusCallback: '',
				additionalFields: { ...smsOptions, shortenUrl: true },
			};
			return {
				question: { responseType: 'approval', text, choices, approvers: [] },
				send: async () => await send(context, run, items, given),
			};
		},
		'approvalLink',
	);
}
