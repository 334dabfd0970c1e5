// What the Messaging operations that wait for a person's answer share: Approval Options, the approvers, the wait.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Channel } from '../shared/output/vocabulary';
import { normalizePhone, problemWith, trimmed } from '../shared/rules/validation';
import { numbersIn } from '../shared/rules/values';
import { sendThenWait } from '../shared/sendAndWait/execute';
import type { ResumeUrl } from '../shared/sendAndWait/resumeUrl';
import { answerItem, type Choice, type Question, type WaitingFor } from '../shared/sendAndWait/waitingItem';

/** One waiting send: the question asked, and the plain send that asks it. */
export interface AnswerWait {
	question: Question;
	send(): Promise<INodeExecutionData[]>;
}

/**
 * Approval Options, named as in n8n's own send-and-wait nodes (an AI agent's human-review tool keeps
 * them): approve only, or approve and decline, each with its label. `label` names a label ("Button
 * Label", "Label"), `describe` says where it shows.
 */
export function approvalOptionsField(label: string, describe: (answer: string) => string, more: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add Option',
		default: {},
		...more,
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'double',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Decline', value: 'double' },
						],
					},
					{ displayName: `Approve ${label}`, name: 'approveLabel', type: 'string', default: 'Approve', description: describe('approve') },
					{
						displayName: `Decline ${label}`,
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						description: describe('decline'),
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	};
}

/** The choices of an approval: approve, and decline unless Approve Only, with their labels. */
export function approvalChoices(context: IExecuteFunctions): Choice[] {
	const values = ((context.getNodeParameter('approvalOptions', 0, {}) as IDataObject).values ?? {}) as IDataObject;
	const choices: Choice[] = [{ id: 'approve', title: trimmed(values.approveLabel) || 'Approve' }];
	if (values.approvalType !== 'single') choices.push({ id: 'decline', title: trimmed(values.disapproveLabel) || 'Decline' });
	return choices;
}

/** Approver Numbers, each checked: only these numbers' replies count (none given: the recipient's). */
function approversOf(context: IExecuteFunctions): string[] {
	const given = (context.getNodeParameter('options', 0, {}) as IDataObject).approvers;
	if (!given) return [];
	return numbersIn(given).map((number) => {
		const normalized = normalizePhone(number);
		const problem = problemWith(normalized, { label: 'Approver Numbers', format: 'e164' });
		if (problem) throw new NodeOperationError(context.getNode(), `${problem} (item 0)`, { itemIndex: 0 });
		return normalized;
	});
}

/**
 * Sends the question with the resume URL as its callback and waits for the answer. The item a
 * timeout gives has the keys an answer has, empty, and `timedOut: true`.
 */
export async function waitForAnswer(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	channel: Channel,
	build: (context: IExecuteFunctions, resumeUrl: ResumeUrl) => AnswerWait,
	waitingFor: WaitingFor = 'reply',
): Promise<INodeExecutionData[]> {
	return await sendThenWait(
		context,
		items,
		(ctx, resumeUrl) => {
			const approvers = approversOf(ctx);
			const { question, send } = build(ctx, resumeUrl);
			question.approvers = approvers;
			return {
				send,
				timedOut: (sent) =>
					answerItem(
						{ messageSid: sent.messageSid, channel, to: sent.to, from: sent.from, waitingFor, question: question as unknown as IDataObject },
						question,
						null,
						null,
					),
			};
		},
	);
}
