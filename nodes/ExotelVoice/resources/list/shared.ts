import type { INodeProperties } from 'n8n-workflow';

import { idLocator } from '../../methods/locators';

/** Lists live under `{base_url}/v2/accounts/<sid>/lists`. */
export const LISTS_PATH = '/v2/accounts/{accountSid}/lists';

export const listPath = (listSid: string) => `${LISTS_PATH}/${encodeURIComponent(listSid)}`;

/** The list, picked from the account or by ID; read it with `extractValue: true`. */
export const listSidField = (operations: string[]): INodeProperties =>
	idLocator({
		displayName: 'List',
		name: 'listSid',
		noun: 'list',
		searchListMethod: 'searchLists',
		placeholder: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
		description: 'The list’s sid',
		displayOptions: { show: { resource: ['list'], operation: operations } },
	});

export { dataOf, itemsOf, text } from '../campaign/shared';
