import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { prepareNamed } from '../../../shared/items/byId';
import type { NodeRun } from '../../../shared/transport/run';
import { CONTACT_CENTER_USERS } from '../../endpoints';
import { eachUserRequest } from './api';
import { USER, USER_ID } from './fields';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a contact center user',
	description: 'Delete a user permanently',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Deleting is permanent: the user loses their sessions and credentials and can no longer log in or be assigned to queues, campaigns or roles',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	USER_ID,
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachUserRequest(
		this,
		run,
		items,
		prepareNamed(this, [USER], ([userId]) => ({ userId })),
		({ userId }) => ({ endpoint: CONTACT_CENTER_USERS.delete, params: { userId } }),
	);
}
