import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { dataOf } from '../../../shared/output/envelope';
import { exotelRequest, type ExotelCredentialType } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CONTACT_UPLOADS } from '../../endpoints';

/** The credential of the Authentication choice: the API key, or the bearer token. */
export function credentialTypeOf(context: IExecuteFunctions): ExotelCredentialType {
	return context.getNodeParameter('authentication', 0, 'apiKey') === 'bearerToken' ? 'exotelBearerTokenApi' : 'exotelApi';
}

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
	run: NodeRun,
	uploadId: string,
	itemIndex: number,
	credentialType: ExotelCredentialType,
): Promise<IDataObject> {
	const response = await exotelRequest(context, run, {
		endpoint: CONTACT_UPLOADS.getStatus,
		params: { uploadId },
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
	run: NodeRun,
	uploadId: string,
	itemIndex: number,
	credentialType: ExotelCredentialType,
	settings: WaitSettings,
	firstDelayMs: number,
): Promise<IDataObject> {
	const deadline = Date.now() + settings.timeoutMs;
	if (firstDelayMs > 0) await sleep(Math.min(firstDelayMs, settings.timeoutMs));
	for (;;) {
		const status = await uploadStatus(context, run, uploadId, itemIndex, credentialType);
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
