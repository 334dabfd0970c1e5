import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { exotelRequest, type ExotelCredentialType } from '../../../shared/transport';
import { dataOf } from '../campaign/shared';

/** Contact upload lives on the contact-center management API: `{ccm_base_url}/v2/accounts/<sid>/contacts/upload`. */
export const UPLOAD_PATH = '/v2/accounts/{accountSid}/contacts/upload';

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
	displayOptions: { show: { resource: ['contact'] } },
};

export function credentialTypeOf(context: IExecuteFunctions): ExotelCredentialType {
	return context.getNodeParameter('authentication', 0, 'apiKey') === 'bearerToken' ? 'exotelBearerTokenApi' : 'exotelApi';
}

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

export interface WaitSettings {
	wait: boolean;
	intervalMs: number;
	timeoutMs: number;
}

export function waitSettingsOf(options: IDataObject): WaitSettings {
	return {
		wait: options.waitForCompletion === true,
		intervalMs: Math.max(100, Number(options.pollInterval ?? 2) * 1000),
		timeoutMs: Math.max(1000, Number(options.waitTimeout ?? 300) * 1000),
	};
}

export async function uploadStatus(
	context: IExecuteFunctions,
	uploadId: string,
	itemIndex: number,
	credentialType: ExotelCredentialType,
): Promise<IDataObject> {
	const response = await exotelRequest.call(context, {
		base: 'ccm',
		method: 'GET',
		path: `${UPLOAD_PATH}/${encodeURIComponent(uploadId)}`,
		credentialType,
		itemIndex,
	});
	return dataOf(response.body);
}

const processing = (status: IDataObject) => String(status.status ?? '').toLowerCase() === 'processing';

/**
 * Checks the upload until it is no longer `processing` (first check after `firstDelayMs`) and
 * returns the final status; past the timeout the item fails, the upload going on at the service.
 */
export async function waitForUpload(
	context: IExecuteFunctions,
	uploadId: string,
	itemIndex: number,
	credentialType: ExotelCredentialType,
	settings: WaitSettings,
	firstDelayMs: number,
): Promise<IDataObject> {
	const deadline = Date.now() + settings.timeoutMs;
	if (firstDelayMs > 0) await sleep(Math.min(firstDelayMs, settings.timeoutMs));
	for (;;) {
		const status = await uploadStatus(context, uploadId, itemIndex, credentialType);
		if (!processing(status)) return status;
		if (Date.now() + settings.intervalMs > deadline) {
			throw new NodeOperationError(
				context.getNode(),
				`Upload ${uploadId} is still processing after ${Math.round(settings.timeoutMs / 1000)} s (item ${itemIndex})`,
				{
					itemIndex,
					description: 'The upload goes on at the service. Check it later with Get Upload Status, or raise the timeout.',
				},
			);
		}
		await sleep(settings.intervalMs);
	}
}
