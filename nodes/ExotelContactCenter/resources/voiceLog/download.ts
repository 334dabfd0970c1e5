import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { outputFileField, requestPerItemWithFile } from '../../../shared/items/binaryOutput';
import { withItemParameters } from '../../../shared/items/parameters';
import { SESSION_REQUESTS } from '../../../shared/items/sending';
import { fieldsError, trimmed } from '../../../shared/rules/validation';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { VOICE_LOGS } from '../../endpoints';

export const option: OperationOption = {
	name: 'Download',
	value: 'download',
	action: 'Download a voice log',
	description: 'Download a call recording into a binary field',
};

export const description: INodeProperties[] = [
	{ displayName: 'Campaign ID', name: 'campaignId', type: 'number', required: true, default: 0 },
	{
		displayName: 'CRT Object ID',
		name: 'crtObjectId',
		type: 'string',
		required: true,
		default: '',
		description: 'Call run-time object ID that locates the recording',
	},
	{ displayName: 'Call ID', name: 'callId', type: 'string', required: true, default: '', description: 'Sent inside the filters parameter' },
	{ displayName: 'Target Format', name: 'targetFormat', type: 'string', default: 'mp3', placeholder: 'mp3' },
	outputFileField('recording'),
];

const EXTENSIONS: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg' };

function fileNameOf(disposition: unknown): string | undefined {
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(String(disposition ?? ''));
	return match ? decodeURIComponent(match[1]) : undefined;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItemWithFile(
		this,
		items,
		withItemParameters(this, (param, itemIndex) => {
			const callId = trimmed(param('callId'));
			const query = {
				campaignId: Number(param('campaignId', 0)),
				crtObjectId: trimmed(param('crtObjectId')),
				targetFormat: trimmed(param('targetFormat', 'mp3')) || 'mp3',
				// filters is a JSON object carrying the callId; the query string encoding URL-encodes it.
				filters: JSON.stringify({ callId }),
			};
			const invalid = fieldsError(this.getNode(), itemIndex, [
				[query.campaignId, { label: 'Campaign ID', required: true, integer: true, min: 1 }],
				[query.crtObjectId, { label: 'CRT Object ID', required: true }],
				[callId, { label: 'Call ID', required: true }],
			]);
			return invalid ?? { itemIndex, query, callId, binaryPropertyName: String(param('binaryPropertyName', 'data')) };
		}),
		async ({ itemIndex, query, callId }) => {
			const response = await exotelRequest(this, run, {
				endpoint: VOICE_LOGS.download,
				qs: query,
				binary: true,
				itemIndex,
			});
			// The body is audio bytes; the Content-Type header says which kind.
			const mimeType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim();
			const fileName = fileNameOf(response.headers['content-disposition']) ?? `${callId}.${EXTENSIONS[mimeType] ?? query.targetFormat}`;
			const data = response.body as Buffer;
			return {
				json: { campaignId: query.campaignId, crtObjectId: query.crtObjectId, callId, fileName, mimeType, bytes: data.length },
				file: { data, fileName, mimeType },
			};
		},
		SESSION_REQUESTS,
	);
}
