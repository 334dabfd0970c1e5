// Each item's outcome, paired to its input: what it produced, or why it failed, honouring Continue On Fail.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The outcome for one input item: what it produced, or why it failed. */
export interface ItemOutcome {
	itemIndex: number;
	json: IDataObject;
	error?: NodeApiError | NodeOperationError;
}

/**
 * Turns per-item outcomes into output items paired to their inputs. With "continue" settings
 * failed items are kept; otherwise the first failure stops the node and its description accounts
 * for every item. Failed items are shaped for n8n's routing: with "continue (using error output)"
 * the item is `{ error: {...details} }`, which n8n sends to the error output merged with the input
 * item; with "continue" it is the service's answer plus an `error` message. (n8n-core replaces the
 * json of any item that carries `item.error`, so the details travel in json instead.)
 */
export function outputOf(context: IExecuteFunctions, outcomes: ItemOutcome[]): INodeExecutionData[] {
	const sorted = [...outcomes].sort((a, b) => a.itemIndex - b.itemIndex);
	const failed = sorted.filter((outcome) => outcome.error);
	if (failed.length > 0 && !context.continueOnFail()) {
		const first = failed[0].error!;
		const succeeded = sorted.length - failed.length;
		const listed = failed
			.slice(0, 20)
			.map((outcome) => `item ${outcome.itemIndex}: ${outcome.error!.message}`)
			.join('; ');
		const more = failed.length > 20 ? `; and ${failed.length - 20} more` : '';
		if (sorted.length > 1) {
			first.description = [
				first.description,
				`${failed.length} of ${sorted.length} items failed (${listed}${more}).`,
				succeeded > 0 ? `The other ${succeeded} succeeded and were not undone.` : '',
				'Set "On Error" to continue to get every item out, failures marked.',
			]
				.filter(Boolean)
				.join(' ');
		}
		throw first;
	}
	const toErrorOutput = context.getNode().onError === 'continueErrorOutput';
	return sorted.map(({ itemIndex, json, error }) => {
		if (!error) return { json, pairedItem: { item: itemIndex } };
		const details: IDataObject = { message: error.message, ...json };
		if (error.description) details.description = error.description;
		return {
			json: toErrorOutput ? { error: details } : { ...json, error: error.message },
			pairedItem: { item: itemIndex },
		};
	});
}

/**
 * Prepares every item before anything is sent, so bad input never half-sends a batch: an item that
 * cannot be prepared stops the node, or with "continue" becomes that item's failure.
 */
export function prepareItems<T>(
	context: IExecuteFunctions,
	count: number,
	prepare: (itemIndex: number) => T | NodeOperationError,
): { prepared: T[]; failures: ItemOutcome[] } {
	const prepared: T[] = [];
	const failures: ItemOutcome[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const result = prepare(itemIndex);
		if (result instanceof NodeOperationError) {
			if (!context.continueOnFail()) throw result;
			failures.push({ itemIndex, json: {}, error: result });
		} else {
			prepared.push(result);
		}
	}
	return { prepared, failures };
}
