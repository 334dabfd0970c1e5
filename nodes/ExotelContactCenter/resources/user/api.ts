// One request per item to the contact-center users API, on one session.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { requestPerItem } from '../../../shared/items/requestPerItem';
import { SESSION_REQUESTS } from '../../../shared/items/sending';
import { exotelRequest, type ExotelRequest } from '../../../shared/transport/request';

/**
 * One request per item to the contact-center users API. Its credential is a session: the first
 * request logs in, the others reuse that session.
 */
export async function eachUserRequest<T extends { itemIndex: number }>(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => T | NodeOperationError,
	request: (entry: T) => Pick<ExotelRequest, 'method' | 'path' | 'body'>,
): Promise<INodeExecutionData[]> {
	return await requestPerItem(
		context,
		items,
		prepare,
		async (entry) => {
			const response = await exotelRequest.call(context, { base: 'cc', itemIndex: entry.itemIndex, ...request(entry) });
			return response.body as IDataObject;
		},
		SESSION_REQUESTS,
	);
}
