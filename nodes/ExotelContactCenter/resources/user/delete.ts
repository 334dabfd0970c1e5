import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/resource';
import { fieldsError, trimmed } from '../../../shared/validation';
import { eachUserRequest, USER_ID } from './shared';

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

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await eachUserRequest(
		this,
		items,
		(itemIndex) => {
			const userId = trimmed(this.getNodeParameter('userId', itemIndex, ''));
			return fieldsError(this.getNode(), itemIndex, [[userId, { label: 'User ID', required: true }]]) ?? { itemIndex, userId };
		},
		({ userId }) => ({ method: 'DELETE', path: `/servicerestapi/user/users/${encodeURIComponent(userId)}` }),
	);
}
