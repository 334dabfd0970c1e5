import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import { campaignAction } from './action';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getCallDetails from './getCallDetails';
import * as getMany from './getMany';
import { campaignIdField } from './shared';
import * as update from './update';

export const operations: Record<string, ExotelOperation> = {
	archive: campaignAction('archive'),
	complete: campaignAction('complete'),
	create,
	delete: del,
	get,
	getCallDetails,
	getMany,
	pause: campaignAction('pause'),
	resume: campaignAction('resume'),
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		options: [
			{ name: 'Archive', value: 'archive', action: 'Archive a campaign', description: 'Archive a completed campaign' },
			{ name: 'Complete', value: 'complete', action: 'Complete a campaign', description: 'End a paused campaign; its remaining calls are marked failed' },
			{ name: 'Create', value: 'create', action: 'Create a campaign', description: 'Create a call campaign to numbers or lists' },
			{ name: 'Delete', value: 'delete', action: 'Delete a campaign' },
			{ name: 'Get', value: 'get', action: 'Get a campaign', description: 'Get a campaign with its status and stats' },
			{ name: 'Get Call Details', value: 'getCallDetails', action: 'Get the calls of a campaign', description: 'Get the call records of a campaign' },
			{ name: 'Get Many', value: 'getMany', action: 'Get many campaigns', description: 'List campaigns by name, status and type' },
			{ name: 'Pause', value: 'pause', action: 'Pause a campaign', description: 'Pause a created or running campaign' },
			{ name: 'Resume', value: 'resume', action: 'Resume a campaign', description: 'Resume a paused campaign' },
			{ name: 'Update', value: 'update', action: 'Update a campaign', description: 'Change a campaign’s parameters (only its callbacks after the send time)' },
		],
		default: 'create',
	},
	campaignIdField(['archive', 'complete', 'delete', 'get', 'getCallDetails', 'pause', 'resume', 'update']),
	...create.description,
	...update.description,
	...getMany.description,
	...getCallDetails.description,
];
