import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach, type ExotelOperation } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError, valuesOf } from '../../../shared/validation';

const show = { resource: ['userDevice'] };
const DEVICE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Disable', value: 'disable' },
	{ name: 'Enable', value: 'enable' },
	{ name: 'Leave Unchanged', value: 'unchanged' },
];
// an expression could yield `true` or "on": anything but these three would silently disable
const DEVICE_VALUES = valuesOf(DEVICE_OPTIONS);

const target: INodeProperties[] = [
	{ displayName: 'Customer ID', name: 'customerId', type: 'string', required: true, default: '', description: 'Customer ID of the integration', displayOptions: { show } },
	{ displayName: 'App ID', name: 'appId', type: 'string', required: true, default: '', description: 'App ID of the integration the token belongs to', displayOptions: { show } },
	{ displayName: 'User ID', name: 'userId', type: 'string', required: true, default: '', displayOptions: { show } },
];

function devicesPath(context: IExecuteFunctions, itemIndex: number) {
	const ids = ['customerId', 'appId', 'userId'].map((name) => String(context.getNodeParameter(name, itemIndex, '')).trim());
	const invalid = fieldsError(context.getNode(), itemIndex, [
		[ids[0], { label: 'Customer ID', required: true }],
		[ids[1], { label: 'App ID', required: true }],
		[ids[2], { label: 'User ID', required: true }],
	]);
	if (invalid) return invalid;
	const [customer, app, user] = ids.map(encodeURIComponent);
	return `/v2/integrations/${customer}/apps/${app}/users/${user}/devices`;
}

const dataOf = (body: unknown) => (((body ?? {}) as IDataObject).data ?? body ?? {}) as IDataObject;

const getStatus: ExotelOperation = {
	description: [],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const path = devicesPath(this, itemIndex);
			return typeof path === 'string' ? { itemIndex, path } : path;
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, path }) => {
			const response = await exotelRequest.call(this, { base: 'integrations', method: 'GET', path, itemIndex });
			return dataOf(response.body);
		});
		return outputOf(this, [...failures, ...outcomes]);
	},
};

const update: ExotelOperation = {
	description: [
		{
			displayName: 'Phone (PSTN)',
			name: 'phone',
			type: 'options',
			options: DEVICE_OPTIONS,
			default: 'unchanged',
			description: 'Whether calls ring on the user’s phone number',
			displayOptions: { show: { ...show, operation: ['update'] } },
		},
		{
			displayName: 'SIP (WebRTC)',
			name: 'sip',
			type: 'options',
			options: DEVICE_OPTIONS,
			default: 'unchanged',
			description: 'Whether calls ring on the user’s WebRTC/SIP client',
			hint: 'At least one device stays enabled: disabling both is refused',
			displayOptions: { show: { ...show, operation: ['update'] } },
		},
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const path = devicesPath(this, itemIndex);
			if (typeof path !== 'string') return path;
			const choices = { phone: this.getNodeParameter('phone', itemIndex, 'unchanged'), sip: this.getNodeParameter('sip', itemIndex, 'unchanged') };
			const invalid = fieldsError(this.getNode(), itemIndex, [
				[choices.phone, { label: 'Phone (PSTN)', oneOf: DEVICE_VALUES }],
				[choices.sip, { label: 'SIP (WebRTC)', oneOf: DEVICE_VALUES }],
			]);
			if (invalid) return invalid;
			const body: IDataObject = {};
			for (const [device, choice] of Object.entries(choices)) {
				if (choice !== 'unchanged') body[device] = choice === 'enable';
			}
			if (Object.keys(body).length === 0) {
				return new NodeOperationError(this.getNode(), `Choose a change for Phone or SIP (item ${itemIndex})`, { itemIndex });
			}
			if (body.phone === false && body.sip === false) {
				return new NodeOperationError(this.getNode(), `Phone and SIP cannot both be disabled: at least one device stays enabled (item ${itemIndex})`, {
					itemIndex,
					description: 'Nothing was sent. The service refuses to leave a user without a device.',
				});
			}
			return { itemIndex, path, body };
		});
		const outcomes = await sendEach(prepared, async ({ itemIndex, path, body }) => {
			const response = await exotelRequest.call(this, { base: 'integrations', method: 'PUT', path, body, itemIndex });
			return dataOf(response.body);
		});
		return outputOf(this, [...failures, ...outcomes]);
	},
};

export const operations: Record<string, ExotelOperation> = { getStatus, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{ name: 'Get Status', value: 'getStatus', action: 'Get the device status of a user', description: 'Phone and SIP devices, with SIP registration' },
			{ name: 'Update', value: 'update', action: 'Update the devices of a user', description: 'Enable or disable the phone and SIP devices' },
		],
		default: 'getStatus',
	},
	...target,
	...update.description,
];
