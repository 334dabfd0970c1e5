import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { LIMITS } from '../../../shared/rules/limits';
import { trimmed } from '../../../shared/rules/validation';
import { APPROVERS_OPTION, LIMIT_WAIT_TIME_OPTION, SEND_AND_WAIT, waitNotice } from '../../../shared/sendAndWait/fields';
import type { Choice, Question } from '../../../shared/sendAndWait/waitingItem';
import type { NodeRun } from '../../../shared/transport/run';
import { recipientField, senderField } from '../../messages';
import { approvalMessage } from '../../toolInput';
import { approvalChoices, approvalOptionsField, waitForAnswer, type AnswerWait } from '../../waitForAnswer';
import { send } from './send';

const L = LIMITS.chatApp;

export const option: OperationOption = {
	name: 'Send and Wait for Response',
	value: SEND_AND_WAIT,
	action: 'Send a chat app message and wait for the response',
	description: 'Ask with reply buttons, a list or a question, and continue with the answer given in the chat',
};

const approval = { responseType: ['approval'] };
const choice = { responseType: ['choice'] };

export const description: INodeProperties[] = [
	waitNotice(
		'The person gets a chat message with buttons, a list or a question, and answers in the chat. The execution waits for their answer, or until Limit Wait Time if set, then continues with it.',
	),
	senderField('Business number with the chat app enabled, in E.164 format'),
	recipientField('Who answers, in E.164 format'),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: `The question; at most ${L.body} characters with buttons or a list`,
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{ name: 'Approval', value: 'approval', description: 'Approve, and optionally decline, buttons' },
			{ name: 'Choice', value: 'choice', description: `Up to ${L.replyButtons} reply buttons, or a list of up to ${L.listRowsTotal} rows` },
			{ name: 'Free Text', value: 'freeText', description: 'Any text the person writes back' },
		],
	},
	approvalOptionsField('Button Label', () => `At most ${L.replyButtonTitle} characters`, { displayOptions: { show: approval } }),
	{
		displayName: 'Choice Style',
		name: 'choiceStyle',
		type: 'options',
		default: 'buttons',
		displayOptions: { show: choice },
		options: [
			{ name: 'List', value: 'list', description: `A button that opens a list of up to ${L.listRowsTotal} rows` },
			{ name: 'Reply Buttons', value: 'buttons', description: `Up to ${L.replyButtons} buttons under the message` },
		],
	},
	{
		displayName: 'Choices',
		name: 'choices',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Choice',
		default: {},
		displayOptions: { show: choice },
		options: [
			{
				displayName: 'Choice',
				name: 'choice',
				values: [
					{ displayName: 'Title', name: 'title', type: 'string', default: '', description: `Words shown; at most ${L.replyButtonTitle} characters on a button, ${L.listRowTitle} in a list` },
					{ displayName: 'ID', name: 'id', type: 'string', default: '', description: 'What the output’s answer says when this is picked; the title when empty' },
					{ displayName: 'Description', name: 'description', type: 'string', default: '', description: `Shown under the title in a list; at most ${L.listRowDescription} characters` },
				],
			},
		],
	},
	{
		displayName: 'List Button Label',
		name: 'listButton',
		type: 'string',
		default: 'Choose',
		description: `Label of the button that opens the list; at most ${L.listButtonLabel} characters`,
		displayOptions: { show: { ...choice, choiceStyle: ['list'] } },
	},
	optionsCollection([
		APPROVERS_OPTION,
		{ displayName: 'Custom Data', name: 'customData', type: 'string', default: '', description: 'Your own metadata, echoed in the callbacks' },
		{ displayName: 'Footer Text', name: 'footerText', type: 'string', default: '', description: `Under the buttons or list; at most ${L.footer} characters` },
		{ displayName: 'Header Text', name: 'headerText', type: 'string', default: '', description: `Above the question with buttons or a list; at most ${L.headerText} characters` },
		LIMIT_WAIT_TIME_OPTION,
	]),
];

function entries(value: unknown, key: string): IDataObject[] {
	const collection = (value ?? {}) as IDataObject;
	return Array.isArray(collection[key]) ? (collection[key] as IDataObject[]) : [];
}

/** The choices the message offers: approve (and decline), or the user's choices with their ids. */
function choicesOf(context: IExecuteFunctions, responseType: string): Choice[] {
	if (responseType === 'approval') return approvalChoices(context);
	if (responseType === 'choice') {
		return entries(context.getNodeParameter('choices', 0, {}), 'choice').map((entry) => ({
			id: trimmed(entry.id) || trimmed(entry.title),
			title: trimmed(entry.title),
			...(trimmed(entry.description) ? { description: trimmed(entry.description) } : {}),
		}));
	}
	return [];
}

/** The chat-app content of the question: text for free text, else reply buttons or a list. */
function contentOf(
	context: IExecuteFunctions,
	question: Question,
	choices: Array<Choice & { description?: string }>,
	options: IDataObject,
	asList: boolean,
): IDataObject {
	if (question.responseType === 'freeText') return { type: 'text', text: { body: question.text ?? '' } };
	const interactive: IDataObject = { body: { text: question.text ?? '' } };
	if (trimmed(options.headerText)) interactive.header = { type: 'text', text: trimmed(options.headerText) };
	if (trimmed(options.footerText)) interactive.footer = { text: trimmed(options.footerText) };
	if (asList) {
		interactive.type = 'list';
		interactive.action = { button: trimmed(context.getNodeParameter('listButton', 0, 'Choose')), sections: [{ rows: choices }] };
	} else {
		interactive.type = 'button';
		interactive.action = { buttons: choices.map(({ id, title }) => ({ type: 'reply', reply: { id, title } })) };
	}
	return { type: 'interactive', interactive };
}

/** Sends the question through Chat App → Send (same checks, same request) with the resume URL as its status callback. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await waitForAnswer(this, items, 'chatapp', (context, resumeUrl): AnswerWait => {
		const responseType = String(context.getNodeParameter('responseType', 0, 'approval')) as Question['responseType'];
		const choices = choicesOf(context, responseType);
		const asList = responseType === 'choice' && context.getNodeParameter('choiceStyle', 0, 'buttons') === 'list';
		if (responseType === 'choice') {
			const most = asList ? L.listRowsTotal : L.replyButtons;
			if (choices.length === 0 || choices.length > most) {
				const problem = choices.length === 0 ? 'add at least one choice' : `${choices.length} given; at most ${most} ${asList ? 'rows in a list' : 'reply buttons (a list takes up to ' + L.listRowsTotal + ')'}`;
				throw new NodeOperationError(context.getNode(), `Choices: ${problem} (item 0)`, { itemIndex: 0 });
			}
		}
		// a human-review tool's approval shows the tool's input line by line (n8n's default would read [object Object])
		const text = approvalMessage(context, L.body);
		const question: Question = { responseType, text, choices: choices.map(({ id, title }) => ({ id, title })), approvers: [] };
		const options = context.getNodeParameter('options', 0, {}) as IDataObject;
		const given = {
			contentMode: 'json',
			contentJson: contentOf(context, question, choices, options, asList),
			statusCallback: resumeUrl(),
			options: { customData: options.customData },
		};
		return { question, send: async () => await send(context, run, items, given) };
	});
}
