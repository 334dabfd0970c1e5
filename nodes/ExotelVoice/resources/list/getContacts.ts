import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { limitOf, returnAllOrLimit } from '../../../shared/descriptions';
import { LIMITS } from '../../../shared/limits';
import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequestAllItems } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { itemsOf, listPath, text } from './shared';

const show = { resource: ['list'], operation: ['getContacts'] };

// As for Get Many: no maximum page size in the spec, the campaign listing's is used.
const PAGE_SIZE = LIMITS.campaign.listLimit;

export const description: INodeProperties[] = [...returnAllOrLimit(show, PAGE_SIZE)];

/** The contacts of a list, one item each. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const listSid = text(this.getNodeParameter('listSid', itemIndex, '', { extractValue: true }));
		const limit = limitOf(this, itemIndex);
		return (
			fieldsError(this.getNode(), itemIndex, [
				[listSid, { label: 'List ID', required: true }],
				[limit, { label: 'Limit', integer: true, min: 1 }],
			]) ?? { itemIndex, listSid, limit }
		);
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, listSid, limit }) =>
		await exotelRequestAllItems.call(
			this,
			{ base: 'base', method: 'GET', path: `${listPath(listSid)}/contacts`, itemIndex },
			{ pageSize: PAGE_SIZE, limit, itemsOf },
		),
	);
	return outputOf(this, [...failures, ...outcomes]);
}
