import type { INodeProperties } from 'n8n-workflow';

/**
 * An ID parameter as a resource locator: picked from the account (a `listSearch` method of the
 * node, searchable) or entered as an ID. Operations read it with `extractValue: true`, which
 * gives the ID alone, and gives a plain string (older workflows, expressions) unchanged. Where it
 * is shown is left to the operation that lists it (defineResource adds resource and operation).
 */
export function idLocator(field: {
	displayName: string;
	name: string;
	/** The thing in lower case, for placeholders and messages: `campaign`. */
	noun: string;
	/** The node's `listSearch` method that lists the things to pick from. */
	searchListMethod: string;
	placeholder: string;
	description?: string;
	required?: boolean;
	displayOptions?: INodeProperties['displayOptions'];
}): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: field.required ?? true,
		...(field.description ? { description: field.description } : {}),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${field.noun}...`,
				typeOptions: { searchListMethod: field.searchListMethod, searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: field.placeholder,
				// IDs go into the URL path; a space, slash, ? or # means something else was pasted (a URL, two IDs).
				validation: [
					{
						type: 'regex',
						properties: { regex: '[^\\s/?#]+', errorMessage: `Not a valid ${field.noun} ID` },
					},
				],
			},
		],
		...(field.displayOptions ? { displayOptions: field.displayOptions } : {}),
	};
}
