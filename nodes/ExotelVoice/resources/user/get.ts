import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachById } from '../../../shared/items/byId';
import { itemsOf } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { USERS } from '../../endpoints';
import { idLocator } from '../../locators';

export const option: OperationOption = { name: 'Get', value: 'get', action: 'Get a user', description: 'Get a user with their devices' };

export const description: INodeProperties[] = [
	idLocator({
		displayName: 'User',
		name: 'userId',
		noun: 'user',
		searchListMethod: 'searchUsers',
		placeholder: 'a1f3c5e7b9d24f6a8c0e2b4d6f8a0c1e',
	}),
];

/** The user, devices included. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachById(this, items, { name: 'userId', label: 'User ID' }, async (userId, itemIndex) => {
		const response = await exotelRequest(this, run, { endpoint: USERS.get, params: { userId }, itemIndex });
		return itemsOf(response.body)[0] ?? {};
	});
}
