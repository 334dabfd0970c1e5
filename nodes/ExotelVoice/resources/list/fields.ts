import type { INodeProperties } from 'n8n-workflow';

import type { IdParameter } from '../../../shared/items/byId';
import { idLocator } from '../../locators';

/** The list's ID parameter and its label in messages. */
export const LIST_SID: IdParameter = { name: 'listSid', label: 'List ID' };

/** The list, picked from the account or by ID; read it with `extractValue: true`. */
export const listSidField: INodeProperties = idLocator({
	displayName: 'List',
	name: 'listSid',
	noun: 'list',
	searchListMethod: 'searchLists',
	placeholder: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
	description: 'The list’s sid',
});

/** The new name's parameter and its label in messages. */
export const NEW_NAME: IdParameter = { name: 'name', label: 'New Name' };

/** The name Rename and Bulk Rename give the list. */
export const newNameField: INodeProperties = {
	displayName: 'New Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	description: 'The list’s new name; list names are unique',
};
