import type { INodeProperties } from 'n8n-workflow';

/** The spec allows basic credentials or a bearer access token for contact upload. */
export const authenticationField: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey', description: 'The Exotel API credential (API key and token)' },
		{ name: 'Bearer Token', value: 'bearerToken', description: 'An access token, with its Contact Upload Base URL' },
	],
	default: 'apiKey',
};

/** Wait for Completion and its polling, as options of Upload and Get Upload Status. */
export const waitOptions: INodeProperties[] = [
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: 2,
		description: 'With Wait for Completion: seconds between two status checks',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description: 'With Wait for Completion: how long to wait before failing the item (the upload goes on at the service)',
	},
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description: 'Whether to check the upload status until it is no longer processing and output the final status',
	},
];
