import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { fieldsError, trimmed } from '../../../shared/rules/validation';
import type { NodeRun } from '../../../shared/transport/run';
import { credentialTypeOf, uploadStatus, waitForUpload, waitSettingsOf } from './api';
import { waitOptions } from './fields';

export const option: OperationOption = {
	name: 'Get Upload Status',
	value: 'getUploadStatus',
	action: 'Get the status of a contact upload',
	description: 'Processing, or completed with counts of successful, failed and skipped records',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Upload ID',
		name: 'uploadId',
		type: 'string',
		required: true,
		default: '',
		description: 'The upload_id the upload answered with',
	},
	optionsCollection(waitOptions),
];

/** The upload's status: processing, or completed with successful, failed and skipped counts. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const credentialType = credentialTypeOf(this);
	return await requestPerItem(
		this,
		items,
		(itemIndex) => {
			const uploadId = trimmed(this.getNodeParameter('uploadId', itemIndex, ''));
			const settings = waitSettingsOf(this.getNodeParameter('options', itemIndex, {}) as IDataObject);
			return fieldsError(this.getNode(), itemIndex, [[uploadId, { label: 'Upload ID', required: true }]]) ?? { itemIndex, uploadId, settings };
		},
		async ({ itemIndex, uploadId, settings }) =>
			settings.wait
				? await waitForUpload(this, run, uploadId, itemIndex, credentialType, settings, 0)
				: await uploadStatus(this, run, uploadId, itemIndex, credentialType),
	);
}
