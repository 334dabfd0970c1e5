import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ExotelOperation, ResourceMap, RoutedOperation } from '../items/route';
import { MAX_WAIT_OPTION, optionsCollection, RATE_LIMIT_OPTIONS, SINCE_VERSION_2 } from './fields';

/** An operation's entry in its resource's Operation dropdown; `action` is the sentence n8n's node panel lists it by. */
export interface OperationOption extends INodePropertyOptions {
	value: string;
	action: string;
}

/**
 * What `resources/<resource>/<operation>.ts` exports: its dropdown entry, its fields (without
 * resource and operation in their display conditions: the resource adds them) and how it runs.
 */
export interface OperationModule extends ExotelOperation {
	option: OperationOption;
	/** False for an operation that sends no request: it has no Max Wait to offer. */
	paced?: false;
}

/** What `resources/<resource>/index.ts` exports: its Resource dropdown entry, its Operation dropdown and fields, its routes. */
export interface ExotelResource {
	option: INodePropertyOptions & { value: string };
	description: INodeProperties[];
	operations: Record<string, RoutedOperation>;
}

/**
 * An operation's fields with Max Wait among its Options from version 2 on: in the collection the
 * panel shows as Options, whatever its saved name, or in an Options collection of its own when the
 * operation has none (Filters and Update Fields are not options). Also the name of that collection.
 */
export function withMaxWait(fields: INodeProperties[]): { fields: INodeProperties[]; maxWaitIn: string } {
	const at = fields.findIndex((field) => field.type === 'collection' && field.displayName === 'Options');
	if (at === -1) {
		return { fields: [...fields, optionsCollection([MAX_WAIT_OPTION], { displayOptions: SINCE_VERSION_2 })], maxWaitIn: 'options' };
	}
	const options = fields[at];
	// optionsCollection keeps the collection as it is (name, description) and sorts the entries again
	const merged = optionsCollection([...(options.options as INodeProperties[]), MAX_WAIT_OPTION], options);
	return { fields: fields.map((field, index) => (index === at ? merged : field)), maxWaitIn: options.name };
}

/**
 * A resource from its operation modules: the Operation dropdown built from their entries, then each
 * operation's fields, Max Wait among them (withMaxWait), shown only for it (n8n's updateDisplayOptions
 * merges resource and operation into each field's own conditions). The fields follow in the order
 * the modules are given; `before` are fields of the whole resource shown above the dropdown (how it
 * authenticates).
 */
export function defineResource(
	option: INodePropertyOptions & { value: string },
	modules: OperationModule[],
	defaultOperation: string = modules[0].option.value,
	before: INodeProperties[] = [],
): ExotelResource {
	const resource = [option.value];
	const dropdown: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource } },
		options: modules.map((module) => module.option).sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	const operations = modules.map((module) => ({ module, ...(module.paced === false ? { fields: module.description, maxWaitIn: '' } : withMaxWait(module.description)) }));
	const fields = operations.flatMap((operation) =>
		updateDisplayOptions({ show: { resource, operation: [operation.module.option.value] } }, operation.fields),
	);
	return {
		option,
		description: [...updateDisplayOptions({ show: { resource } }, before), dropdown, ...fields],
		operations: Object.fromEntries(operations.map(({ module, maxWaitIn }) => [module.option.value, { ...module, maxWaitIn }])),
	};
}

/**
 * An action node's parameters from its resources: the Resource dropdown, every resource's fields,
 * then version 1's Rate Limit; and the table `route` dispatches on.
 */
export function defineResources(
	resources: ExotelResource[],
	defaultResource: string = resources[0].option.value,
): { properties: INodeProperties[]; routes: ResourceMap } {
	const dropdown: INodeProperties = {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources.map((resource) => resource.option).sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultResource,
	};
	return {
		properties: [dropdown, ...resources.flatMap((resource) => resource.description), RATE_LIMIT_OPTIONS],
		routes: Object.fromEntries(resources.map((resource) => [resource.option.value, resource.operations])),
	};
}
