// Routing: the operation the node's Resource and Operation name runs over every input item, within one run's pacing.
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PACING_POLICY } from '../transport/pacing';
import { NodeRun, type MaxWait } from '../transport/run';

/** One operation of a resource: its fields and how it runs over all input items at once. */
export interface ExotelOperation {
	description: INodeProperties[];
	/** `run` is what every request of this execution of the node shares: hand it to each request. */
	execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]>;
}

/** An operation as `route` finds it: with the name of the Options collection that holds its Max Wait (see withMaxWait; '' when it sends nothing). */
export interface RoutedOperation extends ExotelOperation {
	maxWaitIn: string;
}

export type ResourceMap = Record<string, Record<string, RoutedOperation>>;

/** Reads resource and operation once and hands every input item to that operation. */
export async function route(this: IExecuteFunctions, resources: ResourceMap): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	// Every request of this run shares one pace per account and one read of each credential.
	const run = new NodeRun(maxWaitOf(this, handler.maxWaitIn));
	return [await handler.execute.call(this, this.getInputData(), run)];
}


/**
 * Max Wait of this node: version 1 reads its Rate Limit collection, later versions the operation's
 * Options (`optionsName`, the collection's saved name: `options` or `additionalFields`).
 */
export function maxWaitOf(context: IExecuteFunctions, optionsName: string): MaxWait {
	const first = context.getNode().typeVersion < 2;
	if (!first && optionsName === '') return { ms: PACING_POLICY.defaultMaxWaitMs, setting: 'Options → Rate Limit Max Wait' };
	const collection = context.getNodeParameter(first ? 'rateLimit' : optionsName, 0, {}) as { maxWaitMinutes?: unknown } | null;
	const minutes = Number(collection?.maxWaitMinutes ?? PACING_POLICY.defaultMaxWaitMs / 60_000);
	return {
		ms: Number.isFinite(minutes) && minutes >= 0 ? minutes * 60_000 : PACING_POLICY.defaultMaxWaitMs,
		setting: first ? 'Rate Limit → Max Wait' : 'Options → Rate Limit Max Wait',
	};
}
