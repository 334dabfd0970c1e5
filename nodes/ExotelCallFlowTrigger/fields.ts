// The trigger's panel: which applet it answers, how fast, and what the caller gets when the workflow cannot answer.
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { answerFor, APPLET_OPTIONS, type Applet, type CallFlowAnswer } from '../shared/callFlows/answers';
import { setupNotice } from '../shared/webhooks/triggers';

/** What the service gives a URL, as production code budgets it; the docs name no figure. */
export const SERVICE_BUDGET_SECONDS = 5;

const forApplet = (...applet: Applet[]) => ({ displayOptions: { show: { applet } } });

export const properties: INodeProperties[] = [
	setupNotice(
		"Paste this trigger's URL into the applet's URL field in Exotel's flow builder, with :secret replaced by the credential's URL Secret. The service cannot sign these requests: the secret in the path is what keeps others out. Answer the request with Exotel Voice → Call Flow → Answer.",
	),
	{
		displayName: 'Applet',
		name: 'applet',
		type: 'options',
		noDataExpression: true,
		options: APPLET_OPTIONS,
		default: 'passthru',
		description: 'The applet whose URL this is: each applet kind takes its own answer',
	},
	{
		displayName: 'Mode',
		name: 'passthruMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Async (Log the Call)', value: 'async', description: 'Answered at once; the call goes on while the workflow runs' },
			{ name: 'Sync (Pick the Branch)', value: 'sync', description: 'The call waits for the workflow, which picks the branch' },
		],
		default: 'sync',
		description: "As the applet's own Make Passthru Async box is set",
		...forApplet('passthru'),
	},
	{
		displayName: 'Answer Within (Seconds)',
		name: 'answerWithin',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 30, numberPrecision: 1 },
		default: 4,
		description: `The fallback answer goes when the workflow has not answered by then. The service gives a URL about ${SERVICE_BUDGET_SECONDS} seconds (production code's figure; the docs name none) and the caller hears silence meanwhile.`,
		displayOptions: { hide: { passthruMode: ['async'] } },
	},
	{
		displayName: 'Fallback Branch',
		name: 'fallbackBranch',
		type: 'options',
		options: [
			{ name: 'First (200)', value: 'first' },
			{ name: 'Second (302)', value: 'second' },
			{ name: 'Switch Case Keyword', value: 'select' },
		],
		default: 'second',
		description: 'The branch the call takes when the workflow fails or is too slow',
		displayOptions: { show: { applet: ['passthru'], passthruMode: ['sync'] } },
	},
	{
		displayName: 'Fallback Keyword',
		name: 'fallbackSelect',
		type: 'string',
		default: '',
		placeholder: 'default',
		description: 'The Switch Case keyword the call takes when the workflow fails or is too slow',
		displayOptions: { show: { applet: ['passthru'], passthruMode: ['sync'], fallbackBranch: ['select'] } },
	},
	{
		displayName: 'Fallback Numbers',
		name: 'fallbackNumbers',
		type: 'string',
		default: '',
		placeholder: '+919876543210, +919812340001',
		description: "Numbers dialled in order when the workflow fails or is too slow, comma-separated; empty answers 503, so the service tries the applet's Fallback URL, then its failure path",
		...forApplet('connect'),
	},
	{
		displayName: 'Fallback Caller ID',
		name: 'fallbackCallerId',
		type: 'string',
		default: '',
		placeholder: '+918041234567',
		description: 'The ExoPhone the callee sees for the fallback numbers, in E.164; empty keeps the number the call came in on',
		...forApplet('connect'),
	},
	{
		displayName: 'Fallback Prompt',
		name: 'fallbackPrompt',
		type: 'string',
		default: '',
		placeholder: 'Please enter your order number followed by the hash key',
		description: "The prompt spoken when the workflow fails or is too slow; empty answers 503, so the service tries the applet's Fallback URL, then its failure path",
		...forApplet('gather'),
	},
	{
		displayName: 'Fallback Text',
		name: 'fallbackText',
		type: 'string',
		default: '',
		placeholder: 'Sorry, we cannot look that up right now',
		description: 'The text spoken when the workflow fails or is too slow; empty answers 503 and the caller hears nothing here',
		...forApplet('greeting'),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Country Code',
				name: 'countryCode',
				type: 'string',
				default: '91',
				description: 'The country code a number in the national form (with its leading 0) gets in the E.164 keys',
			},
		],
	},
];

/** Answered when there is no fallback to give: the service then tries the Fallback URL, then the failure path. */
const NO_FALLBACK: CallFlowAnswer = { status: 503, contentType: 'text/plain', body: '' };

/** The trigger's fallback answer, built and checked as the Answer operation's are; problems name the field. */
export function fallbackAnswer(applet: Applet, parameter: (name: string) => unknown): CallFlowAnswer | { problems: string[] } {
	const text = (name: string) => String(parameter(name) ?? '').trim();
	switch (applet) {
		case 'passthru': {
			const branch = text('fallbackBranch');
			const built = branch === 'select' ? answerFor('passthru', { select: text('fallbackSelect') }) : answerFor('passthru', { branch: branch === 'first' ? 'first' : 'second' });
			return named('Fallback Keyword', built);
		}
		case 'connect': {
			const numbers = text('fallbackNumbers').split(',').map((n) => n.trim()).filter(Boolean);
			if (numbers.length === 0) return NO_FALLBACK;
			const callerId = text('fallbackCallerId');
			const connect: IDataObject = { destination: { numbers }, ...(callerId ? { outgoing_phone_number: callerId } : {}) };
			return named('Fallback Numbers or Fallback Caller ID', answerFor('connect', connect as never));
		}
		case 'gather': {
			const prompt = text('fallbackPrompt');
			return prompt ? named('Fallback Prompt', answerFor('gather', { gather_prompt: { text: prompt } })) : NO_FALLBACK;
		}
		default: {
			const spoken = text('fallbackText');
			return spoken ? named('Fallback Text', answerFor('greeting', { text: spoken })) : NO_FALLBACK;
		}
	}
}

function named(field: string, built: CallFlowAnswer | { problems: string[] }): CallFlowAnswer | { problems: string[] } {
	return 'problems' in built ? { problems: built.problems.map((problem) => `${field}: ${problem}`) } : built;
}
