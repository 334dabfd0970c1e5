import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fieldsError, trimmed, type FieldCheck } from '../rules/validation';
import type { Endpoint } from '../transport/endpoint';
import { exotelRequest } from '../transport/request';
import type { NodeRun } from '../transport/run';
import { requestPerItem } from './requestPerItem';

/** An ID parameter and its label in messages. */
export interface IdParameter {
	name: string;
	label: string;
}

/** The item's required text parameters, trimmed (a resource locator gives its ID alone), or the error naming the first missing. */
function requiredValues(context: IExecuteFunctions, itemIndex: number, parameters: IdParameter[]): string[] | NodeOperationError {
	const values = parameters.map(({ name }) => trimmed(context.getNodeParameter(name, itemIndex, '', { extractValue: true })));
	const checks = parameters.map(({ label }, position): FieldCheck => [values[position], { label, required: true }]);
	return fieldsError(context.getNode(), itemIndex, checks) ?? values;
}

/**
 * The preparation of an item named by required text parameters (see requiredValues): an item
 * missing one fails, naming the first; `rest` then reads what else the item sends, or its problem.
 */
export function prepareNamed<T extends object>(
	context: IExecuteFunctions,
	parameters: IdParameter[],
	rest: (values: string[], itemIndex: number) => T | NodeOperationError,
): (itemIndex: number) => (T & { itemIndex: number }) | NodeOperationError {
	return (itemIndex) => {
		const values = requiredValues(context, itemIndex, parameters);
		if (!Array.isArray(values)) return values;
		const prepared = rest(values, itemIndex);
		return prepared instanceof NodeOperationError ? prepared : { ...prepared, itemIndex };
	};
}

/**
 * An operation on one thing per input item, named by required text parameters (IDs, a resource
 * locator read with `extractValue` giving its ID alone): an item missing one fails, naming the
 * first, before anything is sent; then one request per item, a few at a time.
 */
export async function eachWith(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	parameters: IdParameter[],
	send: (values: string[], itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		context,
		items,
		prepareNamed(context, parameters, (values) => ({ values })),
		async ({ values, itemIndex }) => await send(values, itemIndex),
	);
}

/** An operation on one thing per input item, named by one ID parameter (see eachWith). */
export async function eachById(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	parameter: IdParameter,
	send: (id: string, itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	return await eachWith(context, items, [parameter], async ([id], itemIndex) => await send(id, itemIndex));
}

/**
 * Deletes one thing per input item (the endpoint, its `placeholder` the ID). The service's answer
 * says nothing worth keeping, so each item comes out as the ID deleted, under `key`, and `deleted: true`.
 */
export async function deleteEach(
	context: IExecuteFunctions,
	run: NodeRun,
	items: INodeExecutionData[],
	parameter: IdParameter,
	target: { endpoint: Endpoint; placeholder: string; key: string },
): Promise<INodeExecutionData[]> {
	return await eachById(context, items, parameter, async (id, itemIndex) => {
		await exotelRequest(context, run, { endpoint: target.endpoint, params: { [target.placeholder]: id }, itemIndex });
		return { [target.key]: id, deleted: true };
	});
}
