import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { fieldsError } from '../../../shared/validation';
import { credentialTypeOf, uploadStatus, waitForUpload, waitOptions, waitSettingsOf } from './shared';
import { text } from '../campaign/shared';

const show = { resource: ['contact'], operation: ['getUploadStatus'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Upload ID',
		name: 'uploadId',
		type: 'string',
		required: true,
		default: '',
		description: 'The upload_id the upload answered with',
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: waitOptions,
	},
];

/** The upload's status: processing, or completed with successful, failed and skipped counts. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const credentialType = credentialTypeOf(this);
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const uploadId = text(this.getNodeParameter('uploadId', itemIndex, ''));
		const settings = waitSettingsOf(this.getNodeParameter('options', itemIndex, {}) as IDataObject);
		return fieldsError(this.getNode(), itemIndex, [[uploadId, { label: 'Upload ID', required: true }]]) ?? { itemIndex, uploadId, settings };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, uploadId, settings }) =>
		settings.wait
			? await waitForUpload(this, uploadId, itemIndex, credentialType, settings, 0)
			: await uploadStatus(this, uploadId, itemIndex, credentialType),
	);
	return outputOf(this, [...failures, ...outcomes]);
}
