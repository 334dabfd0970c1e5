// Reading an item's parameters: n8n's reader, the one that saves reads (expression fast path), and values given instead.
import type { IDataObject, IExecuteFunctions, NodeOperationError, NodeParameterValueType } from 'n8n-workflow';

import { fieldsError, type FieldCheck } from '../rules/validation';
import { withoutKeys } from '../rules/values';
import { compileParameter, evaluateParameter, type CompiledParameter } from './expressions';

/** One item's parameters by name, as n8n reads them; a parameter not set reads as `fallback` ('' unless given). */
export type ItemParameters = (name: string, fallback?: unknown) => NodeParameterValueType | object;

/**
 * Values given for some parameters instead of the node's: a waiting operation runs its plain send
 * with the resume URL as the callback (and the message it builds), so the send keeps one implementation.
 */
export type GivenParameters = Readonly<Record<string, unknown>>;

const isGiven = (given: GivenParameters, name: string) => Object.prototype.hasOwnProperty.call(given, name);

/** The reader of one item's parameters (every read goes to n8n; parameterReader is the one that saves reads). */
export function itemParameters(context: IExecuteFunctions, itemIndex: number, given: GivenParameters = {}): ItemParameters {
	return (name, fallback = '') => (isGiven(given, name) ? (given[name] as NodeParameterValueType | object) : context.getNodeParameter(name, itemIndex, fallback));
}

/** A preparation (see prepareItems) handed the reader of each item's parameters. */
export function withItemParameters<T>(
	context: IExecuteFunctions,
	prepare: (param: ItemParameters, itemIndex: number) => T,
	given: GivenParameters = {},
): (itemIndex: number) => T {
	return (itemIndex) => prepare(itemParameters(context, itemIndex, given), itemIndex);
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
	given: GivenParameters = {},
): (itemIndex: number) => { itemIndex: number; body: Body } | NodeOperationError {
	return withItemParameters(
		context,
		(param, itemIndex) => {
			const { body, checks } = build(param, requestOptions((param('additionalFields', {}) ?? {}) as IDataObject));
			return fieldsError(context.getNode(), itemIndex, checks) ?? { itemIndex, body };
		},
		given,
	);
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
export function parameterReader(context: IExecuteFunctions, given: GivenParameters = {}): ParameterReader {
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
		if (isGiven(given, name)) return given[name];
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

/** An Options collection's values without the node's own settings, which are not fields of the service's request. */
export function requestOptions(collection: IDataObject): IDataObject {
	return withoutKeys(collection, ['maxWaitMinutes']);
}
