import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { preparedBody, type ItemParameters } from '../../../shared/items/parameters';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { ALLOCATION_REGIONS } from '../../../shared/rules/limits';
import { normalizePhone, trimmed, type FieldCheck } from '../../../shared/rules/validation';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { ALLOCATIONS } from '../../endpoints';
import { allocationDataOf } from './api';

export const option: OperationOption = {
	name: 'Allocate',
	value: 'allocate',
	action: 'Allocate a virtual number',
	description: 'Map a-party numbers to b-party numbers through a virtual number',
};

const NUMBER_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Landline', value: 'landline' },
	{ name: 'Mobile', value: 'mobile' },
];

export const description: INodeProperties[] = [
	{ displayName: 'Connection ID', name: 'connectionId', type: 'string', required: true, default: '', placeholder: 'order-10482', description: 'Your unique ID for this mapping, for example an order number' },
	{ displayName: 'A-Party Numbers', name: 'apartyNumbers', type: 'string', required: true, default: '', placeholder: '+919876543210', description: 'E.164 numbers of one side, comma-separated; with One Way only these can call' },
	{ displayName: 'B-Party Numbers', name: 'bpartyNumbers', type: 'string', required: true, default: '', placeholder: '+919812345678', description: 'E.164 numbers of the other side, comma-separated' },
	{
		displayName: 'Usage',
		name: 'usage',
		type: 'options',
		options: [
			{ name: 'One Way', value: 'oneway', description: 'Only a-party callers may reach the b-party' },
			{ name: 'Two Way', value: 'twoway', description: 'Both sides can call each other through the number' },
		],
		default: 'twoway',
	},
	optionsCollection(
		[
			{ displayName: 'A-Party PINs', name: 'apartyPins', type: 'string', default: '', placeholder: '4821, 7730', description: 'Positive integers that let unregistered a-party callers join; 4-digit unique PINs are recommended' },
			{ displayName: 'B-Party PINs', name: 'bpartyPins', type: 'string', default: '', placeholder: '5190', description: 'Same for the b-party' },
			{ displayName: 'Deallocate After', name: 'duration', type: 'string', default: '', placeholder: '2d', description: 'A number with a unit: d (days), m (minutes) or s (seconds), for example 2d or 3600s; the account default applies when empty' },
			{ displayName: 'Flow ID', name: 'flowId', type: 'string', default: '', description: 'Call flow to associate; needed when the account has several flows' },
			{ displayName: 'Preferred Number', name: 'greenvn', type: 'string', default: '', placeholder: '+918047112233', description: 'A specific virtual number to allocate' },
			{ displayName: 'Preferred Number Type', name: 'type', type: 'options', options: NUMBER_TYPE_OPTIONS, default: 'mobile' },
			{ displayName: 'Preferred PIN Code', name: 'pinCode', type: 'string', default: '', placeholder: '560001', description: 'A postal code; one outside the supported regions gets a number from the nearest one' },
			{
				displayName: 'Preferred Region',
				name: 'region',
				type: 'options',
				options: ALLOCATION_REGIONS.map((region) => ({ name: region, value: region })),
				default: 'KA',
			},
			{ displayName: 'Strict Preferences', name: 'strictness', type: 'boolean', default: false, description: 'Whether to allocate only when every preference is met, instead of the closest number' },
		],
		{ name: 'additionalFields' },
	),
];

const numbers = (value: unknown): string[] =>
	(Array.isArray(value) ? value : String(value ?? '').split(/[,;\n]/)).map((entry) => normalizePhone(String(entry))).filter(Boolean);

const pins = (value: unknown): number[] =>
	(Array.isArray(value) ? value : String(value ?? '').split(/[,;\s]+/)).filter((entry) => String(entry).trim() !== '').map(Number);

/** The allocation an item asks for, and the checks of its values. */
function allocationOf(param: ItemParameters, extra: IDataObject): { body: IDataObject; checks: FieldCheck[] } {
	const body: IDataObject = {
		connection_id: trimmed(param('connectionId')),
		aparty_numbers: numbers(param('apartyNumbers')),
		bparty_numbers: numbers(param('bpartyNumbers')),
		usage: param('usage', 'twoway'),
	};
	const aPins = pins(extra.apartyPins);
	const bPins = pins(extra.bpartyPins);
	if (aPins.length) body.aparty_pins = aPins;
	if (bPins.length) body.bparty_pins = bPins;
	if (extra.strictness !== undefined) body.strictness = extra.strictness === true;
	const preferences: IDataObject = {};
	if (extra.greenvn) preferences.greenvn = normalizePhone(String(extra.greenvn));
	if (extra.region) preferences.region = extra.region;
	if (extra.pinCode) preferences.pin_code = trimmed(extra.pinCode);
	if (extra.type) preferences.type = extra.type;
	if (Object.keys(preferences).length) body.preferences = preferences;
	if (extra.duration) body.deallocation_policy = { duration: trimmed(extra.duration) };
	if (extra.flowId) body.flow_id = trimmed(extra.flowId);
	const checks: FieldCheck[] = [
		[body.connection_id, { label: 'Connection ID', required: true }],
		[body.aparty_numbers, { label: 'A-Party Numbers', required: true, format: 'e164' }],
		[body.bparty_numbers, { label: 'B-Party Numbers', required: true, format: 'e164' }],
		[body.usage, { label: 'Usage', oneOf: ['oneway', 'twoway'] }],
		[aPins, { label: 'A-Party PINs', integer: true, min: 1 }],
		[bPins, { label: 'B-Party PINs', integer: true, min: 1 }],
		[preferences.greenvn, { label: 'Preferred Number', format: 'e164' }],
		[preferences.region, { label: 'Preferred Region', oneOf: ALLOCATION_REGIONS }],
		[preferences.type, { label: 'Preferred Number Type', choices: NUMBER_TYPE_OPTIONS }],
		[
			(body.deallocation_policy as IDataObject | undefined)?.duration,
			{ label: 'Deallocate After', pattern: { regex: /^\d+[dms]$/, shape: 'a number followed by d, m or s, such as 2d or 3600s' } },
		],
	];
	return { body, checks };
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		this,
		items,
		preparedBody(this, allocationOf),
		async ({ itemIndex, body }) => {
			const response = await exotelRequest(this, run, { endpoint: ALLOCATIONS.allocate, body, itemIndex });
			return allocationDataOf(response.body);
		},
	);
}
