import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { IdParameter } from '../../../shared/items/byId';
import { LIMITS } from '../../../shared/rules/limits';
import { callTypeField, customFieldField } from '../../fields';
import { idLocator } from '../../locators';

const C = LIMITS.campaign;

export const CAMPAIGN_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Dynamic', value: 'dynamic' },
	{ name: 'Static', value: 'static' },
];
export const FLOW_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Greeting', value: 'greeting', description: 'Play a greeting (see Greeting Text)' },
	{ name: 'IVR', value: 'ivr', description: 'Run the call flow of Flow URL' },
];
export const MODE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Auto', value: 'auto', description: 'The service paces the calls' },
	{ name: 'Custom', value: 'custom', description: 'Calls per minute set by Throttle' },
];

/** The campaign's ID parameter and its label in messages. */
export const CAMPAIGN_ID: IdParameter = { name: 'campaignId', label: 'Campaign ID' };

/** The campaign, picked from the account or by ID; read it with `extractValue: true`. */
export const campaignIdField: INodeProperties = idLocator({
	displayName: 'Campaign',
	name: 'campaignId',
	noun: 'campaign',
	searchListMethod: 'searchCampaigns',
	placeholder: 'a8c3f6e2d1b04c9e8f7a6b5c4d3e2f10',
});

/** Caller ID as Update Fields has it; Create asks for it (required). */
export const callerIdField: INodeProperties = {
	displayName: 'Caller ID',
	name: 'callerId',
	type: 'string',
	default: '',
	placeholder: '+918047112233',
	description: 'Virtual number that places the calls',
};

/** Where the service posts one of the campaign's callbacks: the Voice Trigger's URL, `?callback=` naming which. */
const callbackField = (displayName: string, name: string, callback: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: `https://your-n8n.example.com/webhook/exotel-voice?callback=${callback}`,
	description,
	hint: `Paste the Exotel Voice Trigger's URL here with ?callback=${callback} added, so the trigger knows which callback it got`,
});

/** Fields of Options (create) and of Update Fields (update), in the service's terms. */
const settingFields: INodeProperties[] = [
	{
		displayName: 'Call Duplicate Numbers',
		name: 'callDuplicateNumbers',
		type: 'boolean',
		default: false,
		description: 'Whether a number given more than once is called more than once',
	},
	callbackField('Call Schedule Callback URL', 'callScheduleCallback', 'campaignCallSchedule', 'Webhook called for a number once all its retries are done'),
	callbackField('Call Status Callback URL', 'callStatusCallback', 'campaignCallStatus', 'Webhook called with the status of each call'),
	callTypeField('type'),
	customFieldField('Your own metadata for the application'),
	{
		displayName: 'End At',
		name: 'endAt',
		type: 'dateTime',
		default: '',
		description: 'When the campaign stops calling; read in the workflow time zone unless it carries an offset',
	},
	{
		displayName: 'Flow Type',
		name: 'flowType',
		type: 'options',
		options: FLOW_TYPE_OPTIONS,
		default: 'ivr',
	},
	{
		displayName: 'Flow URL',
		name: 'url',
		type: 'string',
		default: '',
		placeholder: 'http://my.exotel.com/acme1/exoml/start_voice/926',
		description: 'URL of the call flow; its app ID is in the dashboard app list',
	},
	{
		displayName: 'Greeting Text',
		name: 'readViaText',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Text read out to the callee; @@ColumnName inserts a column of a dynamic list',
	},
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		options: MODE_OPTIONS,
		default: 'auto',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: `At least ${C.nameMinLength} characters; the service makes one up when empty`,
	},
	{
		displayName: 'Repeat Menu Attempts',
		name: 'repeatMenuAttempts',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'How many times the IVR menu is repeated',
	},
	{
		displayName: 'Retries',
		name: 'retries',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Retries',
		options: [
			{
				displayName: 'Settings',
				name: 'settings',
				values: [
					{
						displayName: 'Number of Retries',
						name: 'numberOfRetries',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: C.retriesMax },
						default: 1,
						description: `From 0 to ${C.retriesMax}`,
					},
					{
						displayName: 'Interval (Minutes)',
						name: 'intervalMins',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 10,
						description: 'Minutes between attempts',
					},
					{
						displayName: 'Mechanism',
						name: 'mechanism',
						type: 'options',
						options: [
							{ name: 'Exponential', value: 'Exponential', description: 'The interval doubles each time' },
							{ name: 'Linear', value: 'Linear', description: 'The same interval each time' },
						],
						default: 'Linear',
					},
					{
						displayName: 'Retry On',
						name: 'onStatus',
						type: 'multiOptions',
						options: [
							{ name: 'Busy', value: 'busy' },
							{ name: 'Failed', value: 'failed' },
							{ name: 'No Answer', value: 'no-answer' },
						],
						default: ['busy', 'no-answer'],
						description: 'Call outcomes that are retried',
					},
				],
			},
		],
	},
	{
		displayName: 'Send At',
		name: 'sendAt',
		type: 'dateTime',
		default: '',
		description: 'When the campaign starts calling (empty: at once); read in the workflow time zone unless it carries an offset',
		hint: 'After this time only the three callback URLs can be changed',
	},
	callbackField('Status Callback URL', 'statusCallback', 'campaignStatus', 'Webhook called when the campaign completes'),
	{
		displayName: 'Throttle (Calls per Minute)',
		name: 'throttle',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 10,
		description: 'Calls per minute, from 1 to the account limit minus 1; needs Mode set to Custom',
	},
];

/** What only Update Fields has: the caller, and whom the campaign calls (Create asks for them as its own fields). */
const recipientFields: INodeProperties[] = [
	callerIdField,
	{
		displayName: 'Campaign Type',
		name: 'campaignType',
		type: 'options',
		options: CAMPAIGN_TYPE_OPTIONS,
		default: 'static',
	},
	{
		displayName: 'List IDs',
		name: 'lists',
		type: 'string',
		default: '',
		description: `Replaces the numbers or lists called: list IDs separated by commas, at most ${C.listsStatic} (static) or ${C.listsDynamic} (dynamic)`,
	},
	{
		displayName: 'Numbers',
		name: 'from',
		type: 'string',
		default: '',
		description: `Replaces the numbers or lists called: numbers separated by commas or new lines, at most ${C.fromNumbers}`,
	},
];

/** Fields of Options (create) and Update Fields (update), in the service's terms. */
export function campaignOptions(forUpdate: boolean): INodeProperties[] {
	if (!forUpdate) return [...settingFields];
	return [...settingFields, ...recipientFields].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

