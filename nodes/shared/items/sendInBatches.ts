import type { IExecuteFunctions, INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { outputOf, prepareItems, type ItemOutcome } from './outcomes';
import { inParallel, REQUESTS_IN_FLIGHT } from './sending';

/** How the requests of a batched operation are sent, and what their entries get when one fails whole. */
export interface BatchSending<Request> {
	/** Sends one request and reads its answer into one outcome per entry it carries. */
	send(request: Request): Promise<ItemOutcome[]>;
	/** The outcomes of a request that failed as a whole: each of its entries fails with the same cause. */
	failed(request: Request, error: NodeApiError | NodeOperationError): ItemOutcome[];
	/** Requests in flight at once (REQUESTS_IN_FLIGHT unless given). */
	inFlight?: number;
}

/**
 * The batched operation, where one request carries the entries of several items: every item is
 * prepared before anything is sent (bad input never half-sends), the prepared entries are made
 * into requests, a few requests go in flight, and every outcome comes out paired to its item.
 */
export async function sendInBatches<Prepared, Request>(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => Prepared | NodeOperationError,
	requestsOf: (prepared: Prepared[]) => Request[],
	sending: BatchSending<Request>,
): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(context, items.length, prepare);
	const run = async (request: Request): Promise<ItemOutcome[]> => {
		try {
			return await sending.send(request);
		} catch (error) {
			return sending.failed(request, error);
		}
	};
	const answered = await inParallel(
		requestsOf(prepared).map((request) => async () => await run(request)),
		sending.inFlight ?? REQUESTS_IN_FLIGHT,
	);
	return outputOf(context, [...failures, ...answered.flat()]);
}
