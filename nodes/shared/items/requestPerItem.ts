import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { outputOf, prepareItems } from './outcomes';
import { sendEach } from './sending';

/**
 * The plain operation: every item is prepared before anything is sent (a bad one stops the node,
 * or with "continue" fails alone), then each sends its own request, a few at a time (`options` as
 * for sendEach), and the answers come out paired to their items, a list answer as one item an entry.
 */
export async function requestPerItem<T extends { itemIndex: number }>(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => T | NodeOperationError,
	send: (entry: T) => Promise<IDataObject | IDataObject[]>,
	options?: Parameters<typeof sendEach>[2],
): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(context, items.length, prepare);
	const outcomes = await sendEach(prepared, send, options);
	return outputOf(context, [...failures, ...outcomes]);
}
