import { defineResource } from '../../../shared/descriptions/resource';
import * as bulkRename from './bulkRename';
import * as del from './delete';
import * as get from './get';
import * as getContacts from './getContacts';
import * as getMany from './getMany';
import * as removeContact from './removeContact';
import * as rename from './rename';

export const list = defineResource(
	{ name: 'List', value: 'list' },
	[bulkRename, del, get, getContacts, getMany, removeContact, rename],
	'getMany',
);
