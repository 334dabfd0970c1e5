// One request per item to the contact-center users API, on one session.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { requestPerItem } from '../../../shared/items/requestPerItem';
import { SESSION_REQUESTS } from '../../../shared/items/sending';
import { exotelRequest, type ExotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';

/**
 * One request per item to the contact-center users API. Its credential is a session: the first
 * request logs in, the others reuse that session.
 */
export async function eachUserRequest<T extends { itemIndex: number }>(
	context: IExecuteFunctions,
	run: NodeRun,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => T | NodeOperationError,
	request: (entry: T) => Pick<ExotelRequest, 'endpoint' | 'params' | 'body'>,
): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		context,
		items,
		prepare,
		async (entry) => {
			const response = await exotelRequest(context, run, { itemIndex: entry.itemIndex, ...request(entry) });
			return response.body as IDataObject;
		},
		SESSION_REQUESTS,
	);
}
