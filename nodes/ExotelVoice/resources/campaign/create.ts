import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { withItemParameters } from '../../../shared/items/parameters';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { dataOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';
import { campaignBody } from './body';
import { callerIdField, campaignOptions } from './fields';

const C = LIMITS.campaign;

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	action: 'Create a campaign',
	description: 'Create a call campaign to numbers or lists',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Campaign Type',
		name: 'campaignType',
		type: 'options',
		options: [
			{ name: 'Dynamic', value: 'dynamic', description: `Calls one list whose columns fill @@ variables (at most ${C.listsDynamic} list)` },
			{ name: 'Static', value: 'static', description: `Calls numbers, or up to ${C.listsStatic} lists` },
		],
		default: 'static',
	},
	{
		displayName: 'Recipients',
		name: 'recipientSource',
		type: 'options',
		options: [
			{ name: 'Lists', value: 'lists', description: 'Contacts of one or more lists' },
			{ name: 'Numbers', value: 'numbers', description: 'Phone numbers given here' },
		],
		default: 'numbers',
		description: 'Whom the campaign calls: numbers or lists, not both',
	},
	{
		displayName: 'Numbers',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210, +919876543211',
		description: `Phone numbers separated by commas or new lines, or an expression returning a list; at most ${C.fromNumbers}`,
		displayOptions: { show: { recipientSource: ['numbers'] } },
	},
	{
		displayName: 'List IDs',
		name: 'lists',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
		description: `List IDs separated by commas, or an expression returning a list; at most ${C.listsStatic} for a static campaign, ${C.listsDynamic} for a dynamic one`,
		displayOptions: { show: { recipientSource: ['lists'] } },
	},
	{ ...callerIdField, required: true },
	optionsCollection(campaignOptions(false), { name: 'additionalFields' }),
];

/** One campaign per input item; the output is the created campaign with its id and stats. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		this,
		items,
		withItemParameters(this, (param, itemIndex) => {
			const source = param('recipientSource', 'numbers');
			const values: IDataObject = {
				...(param('additionalFields', {}) as IDataObject),
				campaignType: param('campaignType', 'static'),
				callerId: param('callerId'),
			};
			if (source === 'lists') values.lists = param('lists');
			else values.from = param('from');
			const built = campaignBody(this, itemIndex, values, 'create');
			return 'body' in built ? { itemIndex, body: built.body } : built;
		}),
		async ({ itemIndex, body }) => {
			const response = await exotelRequest(this, run, { endpoint: CAMPAIGNS.create, body, itemIndex });
			return dataOf(response.body);
		},
	);
}
