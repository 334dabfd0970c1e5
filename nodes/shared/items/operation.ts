import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { maxWaitOf, requestOptions } from '../descriptions/fields';
import { compileParameter, evaluateParameter, type CompiledParameter } from './expressions';
import { startRun } from '../transport/run';
import { fieldsError, type FieldCheck } from '../rules/validation';

/** One operation of a resource: its fields and how it runs over all input items at once. */
export interface ExotelOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

/** An operation as `route` finds it: with the name of the Options collection that holds its Max Wait (see withMaxWait). */
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
	startRun(this, maxWaitOf(this, handler.maxWaitIn));
	return [await handler.execute.call(this, this.getInputData())];
}

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

/** One item's parameters by name, as n8n reads them; a parameter not set reads as `fallback` ('' unless given). */
export type ItemParameters = (name: string, fallback?: unknown) => NodeParameterValueType | object;

/** The reader of one item's parameters (every read goes to n8n; parameterReader is the one that saves reads). */
export function itemParameters(context: IExecuteFunctions, itemIndex: number): ItemParameters {
	return (name, fallback = '') => context.getNodeParameter(name, itemIndex, fallback);
}

/** A preparation (see prepareItems) handed the reader of each item's parameters. */
export function withItemParameters<T>(
	context: IExecuteFunctions,
	prepare: (param: ItemParameters, itemIndex: number) => T,
): (itemIndex: number) => T {
	return (itemIndex) => prepare(itemParameters(context, itemIndex), itemIndex);
}

/**
 * The preparation of an item whose request is one body built from its fields: `build` reads the
 * item's parameters (`param`, and `extra`: its Options saved as `additionalFields`, without the
 * node's Max Wait) into the body and the checks of its values, in the order their problems are
 * told; the first problem fails the item.
 */
export function preparedBody<Body>(
	context: IExecuteFunctions,
	build: (param: ItemParameters, extra: IDataObject) => { body: Body; checks: FieldCheck[] },
): (itemIndex: number) => { itemIndex: number; body: Body } | NodeOperationError {
	return withItemParameters(context, (param, itemIndex) => {
		const { body, checks } = build(param, requestOptions((param('additionalFields', {}) ?? {}) as IDataObject));
		return fieldsError(context.getNode(), itemIndex, checks) ?? { itemIndex, body };
	});
}

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

export type ParameterReader = (
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: { extractValue?: boolean },
) => unknown;

/**
 * Reads node parameters per item, but reads a parameter that holds no expression only once:
 * its value is the same for every item, and at 10,000 items the repeated reads cost more than
 * the requests. Likewise a parameter that only reads `$json` properties (`={{ $json.phone }}`, or a
 * collection / fixedCollection whose every expression is such a template) is looked up in the
 * item directly instead of through n8n's expression engine, which would cost about 100 µs per
 * expression and item; a collection comes back as a new object on every read, as from n8n. See
 * expressions.ts for what qualifies and when n8n still decides.
 */
export function parameterReader(context: IExecuteFunctions): ParameterReader {
	const raw = context.getNode().parameters;
	const items = context.getInputData();
	const constant = new Map<string, unknown>();
	const compiled = new Map<string, CompiledParameter | undefined>();
	const compiledOf = (name: string) => {
		if (!compiled.has(name)) {
			compiled.set(name, Object.prototype.hasOwnProperty.call(raw, name) ? compileParameter(raw[name]) : undefined);
		}
		return compiled.get(name);
	};
	return (name, itemIndex, fallback, options) => {
		const key = options?.extractValue ? `${name}:value` : name;
		if (constant.has(key)) return constant.get(key);
		const parameter = options ? undefined : compiledOf(name);
		const fast = parameter && evaluateParameter(parameter, items[itemIndex]?.json);
		if (fast !== undefined) return fast;
		const value = context.getNodeParameter(name, itemIndex, fallback, options);
		if (!holdsExpression(raw[name])) constant.set(key, value);
		return value;
	};
}

/**
 * Requests in flight at once: enough to hide the service's latency. The account's rate limit is
 * kept by the run's pacing (pacing.ts), not by this number; more in flight only adds a few 429s
 * at the first full window.
 */
export const REQUESTS_IN_FLIGHT = 6;

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

/** Groups entries that may share a request (same key), then cuts each group to the service's size limit. */
export function batchesOf<T>(entries: T[], keyOf: (entry: T) => string, size: number): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = keyOf(entry);
		const group = groups.get(key);
		if (group) group.push(entry);
		else groups.set(key, [entry]);
	}
	const batches: T[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += size) batches.push(group.slice(start, start + size));
	}
	return batches;
}

/**
 * Sends one request per prepared item, a few at a time. A result that is a list gives one output
 * item per entry (list operations); a thrown error becomes that item's failure, marked when the
 * service may have acted on it anyway.
 */
export async function sendEach<T extends { itemIndex: number }>(
	prepared: T[],
	send: (entry: T) => Promise<IDataObject | IDataObject[]>,
	options: { inFlight?: number; firstAlone?: boolean } = {},
): Promise<ItemOutcome[]> {
	const run = async (entry: T): Promise<ItemOutcome[]> => {
		try {
			const result = await send(entry);
			const list = Array.isArray(result) ? result : [result];
			return list.map((json) => ({ itemIndex: entry.itemIndex, json }));
		} catch (error) {
			const json: IDataObject = error.context?.deliveryUnknown === true ? { deliveryUnknown: true } : {};
			return [{ itemIndex: entry.itemIndex, json, error }];
		}
	};
	// With a session credential the first request logs in; the others then reuse that session
	// instead of each logging in at the same time.
	const head = options.firstAlone && prepared.length > 1 ? [await run(prepared[0])] : [];
	const rest = await inParallel(
		prepared.slice(head.length).map((entry) => async () => await run(entry)),
		options.inFlight ?? REQUESTS_IN_FLIGHT,
	);
	return [...head, ...rest].flat();
}

/** For session-credential requests: the first one logs in, the rest reuse its session. */
export const SESSION_REQUESTS = { firstAlone: true };

/** Runs tasks with at most `limit` in flight, keeping results in task order. */
export async function inParallel<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
	const results = new Array<T>(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
	return results;
}

/**
 * The context with some parameters given instead of read from the node: a waiting operation runs
 * the plain send with its callback URL set to the resume URL (and its own message), so the send
 * keeps one implementation. `overrides` maps a name to its value, or to a function of what n8n reads.
 */
export function withParameters(
	context: IExecuteFunctions,
	overrides: Record<string, unknown | ((read: unknown) => unknown)>,
): IExecuteFunctions {
	const getNodeParameter = (name: string, itemIndex: number, fallback?: unknown, options?: object) => {
		if (!Object.prototype.hasOwnProperty.call(overrides, name)) return context.getNodeParameter(name, itemIndex, fallback as never, options as never);
		const override = overrides[name];
		return typeof override === 'function' ? (override as (read: unknown) => unknown)(context.getNodeParameter(name, itemIndex, fallback as never)) : override;
	};
	const node = context.getNode();
	// parameterReader looks at the raw parameters to skip the engine: overridden names must go through getNodeParameter.
	const parameters = Object.fromEntries(Object.entries(node.parameters).filter(([name]) => !(name in overrides)));
	return new Proxy(context, {
		get(target, property, receiver) {
			if (property === 'getNodeParameter') return getNodeParameter;
			if (property === 'getNode') return () => ({ ...target.getNode(), parameters });
			const value = Reflect.get(target, property, receiver) as unknown;
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}
