import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import type { ItemOutcome } from '../../../shared/items/outcomes';
import { parameterReader } from '../../../shared/items/parameters';
import { sendInBatches } from '../../../shared/items/sendInBatches';
import { batchesOf } from '../../../shared/items/sending';
import { responseEntries } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, trimmed } from '../../../shared/rules/validation';
import { objectOf } from '../../../shared/rules/values';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { LISTS } from '../../endpoints';
import { LIST_SID, listSidField, NEW_NAME, newNameField } from './fields';

export const option: OperationOption = {
	name: 'Bulk Rename',
	value: 'bulkRename',
	action: 'Rename many lists',
	description: `Rename one list per input item, ${LIMITS.campaign.bulkListRename} lists to a request; each item gets its own list's outcome`,
};

// The fields of Rename; how items are sent is in the operation's description.
export const description: INodeProperties[] = [listSidField, newNameField];

interface Rename {
	itemIndex: number;
	sid: string;
	name: string;
}

/**
 * The outcome of one list from a bulk answer (HTTP 200, or 207 when some failed). Entries are in
 * the order sent; an entry naming another sid is looked up by sid instead.
 */
function outcomeOf(context: IExecuteFunctions, rename: Rename, entry: IDataObject | undefined, httpCode: number): ItemOutcome {
	const { itemIndex, sid, name } = rename;
	if (!entry) {
		return {
			itemIndex,
			json: { sid, name },
			error: new NodeApiError(context.getNode(), {}, {
				message: 'The service answered without an entry for this list',
				description: 'Its answer had fewer entries than lists sent; the list may or may not have been renamed.',
				itemIndex,
			}),
		};
	}
	const data = objectOf(entry.data) ?? {};
	const failed = entry.status !== undefined ? entry.status !== 'success' : Number(entry.code ?? 200) >= 400;
	if (!failed) return { itemIndex, json: Object.keys(data).length ? data : { sid, name } };
	const errorData = objectOf(entry.error_data) ?? {};
	const code = errorData.code !== undefined ? ` (code ${String(errorData.code)})` : '';
	return {
		itemIndex,
		json: { sid, name, code: entry.code ?? null, error_data: entry.error_data ?? null },
		error: new NodeApiError(context.getNode(), { ...entry } as JsonObject, {
			message: `List ${sid} not renamed: ${String(errorData.message ?? entry.status ?? 'failed')}${code}`,
			description: String(errorData.description ?? 'The service reported a failure for this list; the other lists of the request are unaffected.'),
			httpCode: String(entry.code ?? httpCode),
			itemIndex,
		}),
	};
}

/** Sends one batch of renames and gives each list its outcome from the answer. */
async function sendBatch(context: IExecuteFunctions, run: NodeRun, batch: Rename[]): Promise<ItemOutcome[]> {
	const response = await exotelRequest(context, run, {
		endpoint: LISTS.bulkRename,
		body: { lists: batch.map(({ sid, name }) => ({ sid, name })) },
		itemIndex: batch[0].itemIndex,
	});
	const list = responseEntries(response.body) as IDataObject[];
	const sidOf = (entry: unknown) => objectOf(objectOf(entry)?.data)?.sid;
	return batch.map((rename, position) => {
		const named = sidOf(list[position]);
		const entry = named === undefined || named === rename.sid ? list[position] : list.find((e) => sidOf(e) === rename.sid);
		return outcomeOf(context, rename, entry as IDataObject | undefined, response.statusCode);
	});
}

/** Renames one list per input item with the bulk endpoint; every item is paired to its list's outcome. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const param = parameterReader(this);
	const node = this.getNode();
	return await sendInBatches(
		this,
		items,
		(itemIndex) => {
			const sid = trimmed(param(LIST_SID.name, itemIndex, '', { extractValue: true }));
			const name = trimmed(param(NEW_NAME.name, itemIndex, ''));
			return (
				fieldsError(node, itemIndex, [
					[sid, { label: LIST_SID.label, required: true }],
					[name, { label: NEW_NAME.label, required: true }],
				]) ?? { itemIndex, sid, name }
			);
		},
		(prepared) => batchesOf(prepared, () => 'lists', LIMITS.campaign.bulkListRename),
		{
			send: async (batch) => await sendBatch(this, run, batch),
			// The whole request failed: every list in it shares the cause.
			failed: (batch, error) => batch.map(({ itemIndex, sid, name }) => ({ itemIndex, json: { sid, name }, error })),
			// One batch at a time: a later batch may rename to a name an earlier one freed.
			inFlight: 1,
		},
	);
}
