import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemsOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { trimmed } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { limitCheck, listEach, returnAllOrLimit } from '../../listing';
import { LIST_SID, listSidField } from './fields';

// As for Get Many: no maximum page size in the spec, the campaign listing's is used.
const PAGE_SIZE = LIMITS.campaign.listLimit;

export const option: OperationOption = { name: 'Get Contacts', value: 'getContacts', action: 'Get the contacts of a list' };

export const description: INodeProperties[] = [listSidField, ...returnAllOrLimit(PAGE_SIZE)];

/** The contacts of a list, one item each. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await listEach(this, run, items, { endpoint: LISTS.getContacts, pageSize: PAGE_SIZE, itemsOf }, (itemIndex, limit) => {
		const listSid = trimmed(this.getNodeParameter(LIST_SID.name, itemIndex, '', { extractValue: true }));
		return {
			params: { listSid },
			checks: [[listSid, { label: LIST_SID.label, required: true }], limitCheck(limit)],
		};
	});
}
