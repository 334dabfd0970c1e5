import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { prepareNamed } from '../../../shared/items/byId';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { integrationDataOf } from '../../../shared/output/envelope';
import { fieldsError } from '../../../shared/rules/validation';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { USER_DEVICES } from '../../endpoints';
import { deviceUserParams } from './api';
import { DEVICE_USER, deviceUserFields } from './fields';

const DEVICE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Disable', value: 'disable' },
	{ name: 'Enable', value: 'enable' },
	{ name: 'Leave Unchanged', value: 'unchanged' },
];

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	action: 'Update the devices of a user',
	description: 'Enable or disable the phone and SIP devices',
};

export const description: INodeProperties[] = [
	...deviceUserFields,
	{
		displayName: 'Phone (PSTN)',
		name: 'phone',
		type: 'options',
		options: DEVICE_OPTIONS,
		default: 'unchanged',
		description: 'Whether calls ring on the user’s phone number',
	},
	{
		displayName: 'SIP (WebRTC)',
		name: 'sip',
		type: 'options',
		options: DEVICE_OPTIONS,
		default: 'unchanged',
		description: 'Whether calls ring on the user’s WebRTC/SIP client',
		hint: 'At least one device stays enabled: disabling both is refused',
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		this,
		items,
		prepareNamed(this, DEVICE_USER, (ids, itemIndex) => {
			const choices = { phone: this.getNodeParameter('phone', itemIndex, 'unchanged'), sip: this.getNodeParameter('sip', itemIndex, 'unchanged') };
			// an expression could yield `true` or "on": anything but the three choices would silently disable
			const invalid = fieldsError(this.getNode(), itemIndex, [
				[choices.phone, { label: 'Phone (PSTN)', choices: DEVICE_OPTIONS }],
				[choices.sip, { label: 'SIP (WebRTC)', choices: DEVICE_OPTIONS }],
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
			return { params: deviceUserParams(ids), body };
		}),
		async ({ itemIndex, params, body }) => {
			const response = await exotelRequest(this, run, { endpoint: USER_DEVICES.update, params, body, itemIndex });
			return integrationDataOf(response.body);
		},
	);
}
