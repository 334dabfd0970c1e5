import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachWith } from '../../../shared/items/byId';
import { integrationDataOf } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { USER_DEVICES } from '../../endpoints';
import { deviceUserParams } from './api';
import { DEVICE_USER, deviceUserFields } from './fields';

export const option: OperationOption = {
	name: 'Get Status',
	value: 'getStatus',
	action: 'Get the device status of a user',
	description: 'Phone and SIP devices, with SIP registration',
};

export const description: INodeProperties[] = deviceUserFields;

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachWith(this, items, DEVICE_USER, async (ids, itemIndex) => {
		const response = await exotelRequest(this, run, { endpoint: USER_DEVICES.getStatus, params: deviceUserParams(ids), itemIndex });
		return integrationDataOf(response.body);
	});
}
