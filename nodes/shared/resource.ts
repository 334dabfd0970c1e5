import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { RATE_LIMIT_OPTIONS } from './descriptions';
import type { ExotelOperation, ResourceMap } from './operation';

/** An operation's entry in its resource's Operation dropdown; `action` is also its canvas subtitle. */
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
}

/** What `resources/<resource>/index.ts` exports: its Resource dropdown entry, its Operation dropdown and fields, its routes. */
export interface ExotelResource {
	option: INodePropertyOptions & { value: string };
	description: INodeProperties[];
	operations: Record<string, ExotelOperation>;
}

/**
 * A resource from its operation modules: the Operation dropdown built from their entries, then each
 * operation's fields shown only for it (n8n's updateDisplayOptions merges resource and operation
 * into each field's own conditions). The fields follow in the order the modules are given;
 * `before` are fields of the whole resource shown above the dropdown (how it authenticates).
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
	const fields = modules.flatMap((module) =>
		updateDisplayOptions({ show: { resource, operation: [module.option.value] } }, module.description),
	);
	return {
		option,
		description: [...updateDisplayOptions({ show: { resource } }, before), dropdown, ...fields],
		operations: Object.fromEntries(modules.map((module) => [module.option.value, module])),
	};
}

/**
 * An action node's parameters from its resources: the Resource dropdown, every resource's fields,
 * then Rate Limit; and the table `route` dispatches on.
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
