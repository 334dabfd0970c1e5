import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection, statusCallbackField } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { preparedBody, type GivenParameters, type ItemParameters } from '../../../shared/items/parameters';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { v1CallItem } from '../../../shared/output/vocabulary';
import { LIMITS } from '../../../shared/rules/limits';
import { normalizePhone, trimmed, type FieldCheck } from '../../../shared/rules/validation';
import { sameNumber } from '../../../shared/rules/values';
import type { FormValue } from '../../../shared/transport/encoding';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CALLS } from '../../endpoints';
import { callTypeField, customFieldField } from '../../fields';

export const option: OperationOption = {
	name: 'Connect to Flow',
	value: 'connect',
	action: 'Connect a number to a call flow',
	description: 'Call a number and connect it to a flow once answered',
};

export const description: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210',
		description: 'Number called first; once answered it is connected to the flow',
	},
	{
		displayName: 'Caller ID',
		name: 'callerId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+918047112233',
		description: 'Your virtual number, shown to the called party',
	},
	{
		displayName: 'Flow URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'http://my.exotel.com/acme1/exoml/start_voice/926',
		description: 'URL of the call flow (applet or IVR); its app ID is in the dashboard app list',
	},
	statusCallbackField('Voice', "this call's status"),
	optionsCollection(
		[
			callTypeField('callType'),
			customFieldField('Metadata passed to the applet and echoed in the status callback'),
			{
				displayName: 'Status Callback Events',
				name: 'statusCallbackEvents',
				type: 'multiOptions',
				options: [
					{ name: 'Answered', value: 'answered' },
					{ name: 'Terminal', value: 'terminal' },
				],
				default: ['terminal'],
				description: 'Which call events are posted to the status callback',
			},
			{
				displayName: 'Time Limit (Seconds)',
				name: 'timeLimit',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: LIMITS.voice.timeLimitSeconds },
				default: 3600,
				description: `Longest the call may last, at most ${LIMITS.voice.timeLimitSeconds} seconds (4 hours)`,
			},
			{
				displayName: 'Time Out (Seconds)',
				name: 'timeOut',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 30,
				description: 'How long to ring before the call counts as unanswered',
			},
		],
		{ name: 'additionalFields' },
	),
];

/** The call an item asks for, as the form sent, and the checks of its values. */
function callOf(param: ItemParameters, extra: IDataObject): { body: Record<string, FormValue>; checks: FieldCheck[] } {
	// checked as typed, so an error quotes what the user gave (or says it is missing); sent as digits
	const typed = { from: trimmed(param('from')), callerId: trimmed(param('callerId')) };
	const form: Record<string, FormValue> = {
		From: normalizePhone(typed.from),
		CallerId: normalizePhone(typed.callerId),
		Url: trimmed(param('url')),
		CallType: extra.callType as string | undefined,
		TimeLimit: extra.timeLimit as number | undefined,
		TimeOut: extra.timeOut as number | undefined,
		StatusCallback: trimmed(param('statusCallback')),
		StatusCallbackEvents: extra.statusCallbackEvents as string[] | undefined,
		CustomField: extra.customField as string | undefined,
	};
	const checks: FieldCheck[] = [
		[typed.from, { label: 'From', required: true, format: 'phone' }],
		[typed.callerId, { label: 'Caller ID', required: true }],
		[form.Url, { label: 'Flow URL', required: true, format: 'url' }],
		[form.StatusCallback, { label: 'Status Callback URL', format: 'url' }],
		[form.TimeLimit, { label: 'Time Limit', integer: true, min: 1, max: LIMITS.voice.timeLimitSeconds }],
		[form.TimeOut, { label: 'Time Out', integer: true, min: 1 }],
		[form.StatusCallbackEvents, { label: 'Status Callback Events', oneOf: ['answered', 'terminal'] }],
	];
	return { body: form, checks };
}

/** Places one call per item and connects it to the flow once From answers. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await send(this, run, items);
}

/** The calls, with `given` parameters instead of the node's (the waiting operation's resume URL and events). */
export async function send(context: IExecuteFunctions, run: NodeRun, items: INodeExecutionData[], given: GivenParameters = {}): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		context,
		items,
		preparedBody(context, callOf, given),
		async (call) => {
			const response = await exotelRequest(context, run, {
				endpoint: CALLS.connect,
				form: call.body,
				itemIndex: call.itemIndex,
			});
			const body = response.body as IDataObject;
			const item = v1CallItem((body.Call ?? body) as IDataObject);
			// The live service answers the number national (09876543210): the item keeps it as sent.
			if (sameNumber(item.from, call.body.From)) item.from = call.body.From as string;
			return item;
		},
	);
}
