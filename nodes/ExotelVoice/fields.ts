// Fields several Voice resources share: the Call SID, the call statuses.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { IdParameter } from '../shared/items/byId';

/** The Call SID field of the operations that read one call (call get and details, voice log). */
export const callSidField: INodeProperties = {
	displayName: 'Call SID',
	name: 'callSid',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'c9f3a1d2e4b5a6c7d8e9f0a1b2c3d4e5',
};

/** The call those operations read: the Call SID parameter and its label in messages. */
export const CALL_SID: IdParameter = { name: callSidField.name, label: callSidField.displayName };

/** The service's call type (transactional is the one it offers), under the parameter `name` of its operation. */
export const callTypeField = (name: string): INodeProperties => ({
	displayName: 'Call Type',
	name,
	type: 'options',
	options: [{ name: 'Transactional', value: 'trans' }],
	default: 'trans',
});

/** Custom Field: the user's own text the service carries along; `description` says where it goes. */
export const customFieldField = (description: string): INodeProperties => ({
	displayName: 'Custom Field',
	name: 'customField',
	type: 'string',
	default: '',
	description,
});

/** Final statuses of a call, as queries and campaign call records name them. */
export const CALL_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Busy', value: 'busy' },
	{ name: 'Completed', value: 'completed' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'No Answer', value: 'no-answer' },
];
