import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { answerFor, ANSWER_MARK, APPLET_OPTIONS, APPLETS, type Applet, type CallFlowAnswer, type ConnectAnswer, type GatherAnswer, type GreetingAnswer } from '../../../shared/callFlows/answers';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { outputOf } from '../../../shared/items/outcomes';
import { connectFields, gatherFields, greetingFields, passthruFields } from './fields';

export const option: OperationOption = {
	name: 'Answer',
	value: 'answer',
	action: 'Answer a call flow request',
	description: "Tell the call flow what the caller gets next: the branch, who to dial, the prompt or the text",
};

/** It answers the request that started the workflow and sends nothing to the service. */
export const paced = false;

export const description: INodeProperties[] = [
	{
		displayName: 'Applet',
		name: 'applet',
		type: 'options',
		noDataExpression: true,
		options: APPLET_OPTIONS,
		default: 'passthru',
		description: 'The applet of the Exotel Call Flow Trigger that started this workflow',
	},
	...passthruFields,
	...connectFields,
	...gatherFields,
	...greetingFields,
];

const TRIGGER_TYPE = '.exotelCallFlowTrigger';

/** The Call Flow Trigger this answer goes back through; its applet must be the one answered. */
function checkTrigger(context: IExecuteFunctions, applet: Applet): void {
	const parents = context.getParentNodes(context.getNode().name, { includeNodeParameters: true });
	const trigger = parents.find((parent) => parent.type.endsWith(TRIGGER_TYPE));
	if (!trigger) {
		throw new NodeOperationError(context.getNode(), 'No Exotel Call Flow Trigger before this node', {
			description: 'Answer answers the call-flow request that started the workflow: put it after an Exotel Call Flow Trigger.',
		});
	}
	// a parameter left at its default may not be saved: the trigger's default applet is Passthru
	const triggerApplet = String((trigger.parameters as IDataObject | undefined)?.applet ?? 'passthru');
	if (triggerApplet !== applet && (APPLETS as readonly string[]).includes(triggerApplet)) {
		throw new NodeOperationError(context.getNode(), `Applet is ${applet}, but "${trigger.name}" answers a ${triggerApplet} applet`, {
			description: `Set Applet to the trigger's: each applet takes only its own answer.`,
		});
	}
}

/** The answer from the panel's fields for one item. */
export function answerOf(context: IExecuteFunctions, applet: Applet, itemIndex: number): CallFlowAnswer | { problems: string[] } {
	const parameter = (name: string, fallback: unknown = '') => context.getNodeParameter(name, itemIndex, fallback);
	switch (applet) {
		case 'passthru':
			return parameter('branch') === 'select' ? answerFor('passthru', { select: String(parameter('select')) }) : answerFor('passthru', { branch: parameter('branch') === 'first' ? 'first' : 'second' });
		case 'connect':
			return parameter('connectAs') === 'dialWhom' ? answerFor('connect', { dialWhom: String(parameter('numbers')) }) : answerFor('connect', connectJson(parameter));
		case 'gather':
			return answerFor('gather', gatherJson(parameter));
		default:
			return answerFor('greeting', greetingOf(parameter));
	}
}

type Parameter = (name: string, fallback?: unknown) => unknown;

const listOf = (value: unknown, separator: RegExp) =>
	String(value ?? '')
		.split(separator)
		.map((entry) => entry.trim())
		.filter(Boolean);

function connectJson(parameter: Parameter): ConnectAnswer {
	const options = parameter('options', {}) as IDataObject;
	const callerId = String(parameter('callerId')).trim();
	const answer: ConnectAnswer = { destination: { numbers: listOf(parameter('numbers'), /,/) } };
	if (callerId) answer.outgoing_phone_number = callerId;
	if (options.fetchAfterAttempt !== undefined) answer.fetch_after_attempt = options.fetchAfterAttempt === true;
	if (options.record !== undefined) answer.record = options.record === true;
	if (options.recordingChannels !== undefined) answer.recording_channels = options.recordingChannels as 'single' | 'dual';
	if (options.maxRingingDuration !== undefined) answer.max_ringing_duration = Number(options.maxRingingDuration);
	if (options.maxConversationDuration !== undefined) answer.max_conversation_duration = Number(options.maxConversationDuration);
	if (options.maxParallelAttempts !== undefined) answer.parallel_ringing = { activate: true, max_parallel_attempts: Number(options.maxParallelAttempts) };
	if (options.musicOnHold !== undefined) {
		const custom = options.musicOnHold === 'custom_tone';
		answer.music_on_hold = { type: options.musicOnHold as 'default_tone', ...(custom ? { value: String(options.musicOnHoldUrl ?? '') } : {}) };
	}
	if (options.playbackValue !== undefined) {
		answer.start_call_playback = {
			playback_to: (options.playbackTo ?? 'both') as 'both',
			type: (options.playbackType ?? 'text') as 'text',
			value: String(options.playbackValue),
		};
	}
	if (options.dialPassthruEventUrl !== undefined) answer.dial_passthru_event_url = String(options.dialPassthruEventUrl);
	return answer;
}

function gatherJson(parameter: Parameter): GatherAnswer {
	const options = parameter('options', {}) as IDataObject;
	const promptOf = (type: unknown, value: unknown) => (type === 'audioUrl' ? { audio_url: String(value ?? '').trim() } : { text: String(value ?? '') });
	const answer: GatherAnswer = { gather_prompt: promptOf(parameter('promptType'), parameter('prompt')) };
	if (options.maxInputDigits !== undefined) answer.max_input_digits = Number(options.maxInputDigits);
	if (options.finishOnKey !== undefined) answer.finish_on_key = options.finishOnKey === 'none' ? '' : String(options.finishOnKey);
	if (options.inputTimeout !== undefined) answer.input_timeout = Number(options.inputTimeout);
	if (options.repeatMenu !== undefined) answer.repeat_menu = Number(options.repeatMenu);
	if (options.repeatPrompt !== undefined) answer.repeat_gather_prompt = promptOf(parameter('promptType'), options.repeatPrompt);
	return answer;
}

function greetingOf(parameter: Parameter): GreetingAnswer {
	return parameter('greetingType') === 'audioUrls' ? { audioUrls: listOf(parameter('audioUrls'), /[\n,]/) } : { text: String(parameter('text')) };
}

/**
 * Built from the first item, as n8n answers a webhook once: checked before anything is sent, then
 * handed to n8n, which writes it to the request the Call Flow Trigger holds. The items go on as
 * they came, the first with the answer it gave.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const applet = this.getNodeParameter('applet', 0) as Applet;
	checkTrigger(this, applet);
	const built = answerOf(this, applet, 0);
	if ('problems' in built) {
		const error = new NodeOperationError(this.getNode(), `The ${applet} answer cannot be sent: ${built.problems.join('; ')}`, {
			itemIndex: 0,
			description: "Nothing was answered: the call gets the trigger's fallback answer.",
		});
		return outputOf(this, items.map((item, itemIndex) => ({ itemIndex, json: item.json, ...(itemIndex === 0 ? { error } : {}) })));
	}
	this.sendResponse({ body: built.body, headers: { [ANSWER_MARK]: applet, 'content-type': built.contentType }, statusCode: built.status });
	const callFlowAnswer = { applet, status: built.status, contentType: built.contentType, body: built.body };
	return items.map((item, itemIndex) => ({ json: itemIndex === 0 ? { ...item.json, callFlowAnswer } : item.json, pairedItem: { item: itemIndex } }));
}
