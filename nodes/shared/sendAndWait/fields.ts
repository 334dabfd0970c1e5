// What a waiting operation shows and declares: the resume webhooks, Limit Wait Time, Approver Numbers, the notice and the editor's tooltip.
import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

/**
 * The resume webhooks of a waiting execution: GET and POST on `/webhook-waiting/<execution>/<node id>`,
 * as n8n's own send-and-wait nodes declare them. They are registered nowhere at the service: the URL
 * is made per execution and given in the send itself, so there is no checkExists/create/delete to
 * write (see docs/send-and-wait.md, "How it works inside", on n8n's webhook-lifecycle-complete lint rule).
 */
export const WAITING_WEBHOOKS: IWebhookDescription[] = (['GET', 'POST'] as const).map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

/** The operation value n8n gives its own send-and-wait treatment (signed resume URLs, AI agents' human review). */
export const SEND_AND_WAIT = SEND_AND_WAIT_OPERATION;

/**
 * What the editor shows on a node while its execution waits, as n8n's own send-and-wait nodes have
 * it: `waits` maps each waiting operation's value to what it waits for; other operations show nothing.
 */
export function waitingNodeTooltip(waits: Record<string, string>): string {
	return `={{ ${JSON.stringify(waits)}[$parameter["operation"]] || "" }}`;
}

/** Limit Wait Time, as n8n's send-and-wait nodes offer it (an Options entry). */
export const LIMIT_WAIT_TIME_OPTION: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description: 'Whether to stop waiting after a time; the node then outputs timedOut: true',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{ name: 'After Time Interval', value: 'afterTimeInterval', description: 'Waits for a certain amount of time' },
						{ name: 'At Specified Time', value: 'atSpecifiedTime', description: 'Waits until the set date and time' },
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					default: 45,
					typeOptions: { minValue: 0, numberPrecision: 2 },
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'minutes',
					options: [
						{ name: 'Days', value: 'days' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Seconds', value: 'seconds' },
					],
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Continue execution after the specified date and time',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

/** Who may answer besides the recipient (an Options entry of the reply waits). */
export const APPROVERS_OPTION: INodeProperties = {
	displayName: 'Approver Numbers',
	name: 'approvers',
	type: 'string',
	default: '',
	placeholder: '+919876543210, +919812345678',
	description: 'Numbers in E.164 format, comma-separated, whose reply counts; by default only the recipient’s. A reply from any other number is acknowledged and ignored.',
};

/**
 * The notice every waiting operation shows, in the words of the person setting it up: `what` says
 * what the other side gets, what the execution waits for (or until Limit Wait Time) and what it
 * continues with; the notice adds that it takes one item.
 */
export function waitNotice(what: string): INodeProperties {
	return {
		displayName: `${what} It takes one input item: loop over items for more.`,
		name: 'waitNotice',
		type: 'notice',
		default: '',
	};
}

/**
 * A plain send's fields for its waiting twin: without the Status Callback URL (the resume URL takes
 * its place) and the options in `drop`, with `add` in its optional-fields collection.
 */
export function waitingFields(fields: INodeProperties[], add: INodeProperties[], drop: string[] = []): INodeProperties[] {
	return fields
		.filter((field) => field.name !== 'statusCallback')
		.map((field) =>
			field.type === 'collection' && (field.name === 'options' || field.name === 'additionalFields')
				? {
						...field,
						options: [...(field.options as INodeProperties[]).filter((option) => !drop.includes(option.name)), ...add].sort((a, b) =>
							a.displayName.localeCompare(b.displayName),
						),
					}
				: field,
		);
}
