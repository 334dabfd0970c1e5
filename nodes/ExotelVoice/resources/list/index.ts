import type { INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../../../shared/limits';
import type { ExotelOperation } from '../../../shared/operation';
import * as bulkRename from './bulkRename';
import * as del from './delete';
import * as get from './get';
import * as getContacts from './getContacts';
import * as getMany from './getMany';
import * as removeContact from './removeContact';
import * as rename from './rename';
import { listSidField } from './shared';

export const operations: Record<string, ExotelOperation> = {
	bulkRename,
	delete: del,
	get,
	getContacts,
	getMany,
	removeContact,
	rename,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['list'] } },
		options: [
			{
				name: 'Bulk Rename',
				value: 'bulkRename',
				action: 'Rename many lists',
				description: `Rename one list per input item, ${LIMITS.campaign.bulkListRename} lists to a request; each item gets its own list's outcome`,
			},
			{ name: 'Delete', value: 'delete', action: 'Delete a list' },
			{ name: 'Get', value: 'get', action: 'Get a list', description: 'Get a list with its contact count' },
			{ name: 'Get Contacts', value: 'getContacts', action: 'Get the contacts of a list' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many lists', description: 'List lists, searched by name' },
			{
				name: 'Remove Contact',
				value: 'removeContact',
				action: 'Remove a contact from a list',
				description: 'Take a contact out of a list; the contact itself stays',
			},
			{ name: 'Rename', value: 'rename', action: 'Rename a list' },
		],
		default: 'getMany',
	},
	listSidField(['bulkRename', 'delete', 'get', 'getContacts', 'removeContact', 'rename']),
	{
		displayName: 'New Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'The list’s new name; list names are unique',
		displayOptions: { show: { resource: ['list'], operation: ['bulkRename', 'rename'] } },
	},
	...bulkRename.description,
	...getMany.description,
	...getContacts.description,
	...removeContact.description,
];
