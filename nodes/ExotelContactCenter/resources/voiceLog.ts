import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach, SESSION_REQUESTS, type ExotelOperation } from '../../shared/operation';
import { exotelRequest } from '../../shared/transport';
import { fieldsError } from '../../shared/validation';

const show = { show: { resource: ['voiceLog'], operation: ['download'] } };

const EXTENSIONS: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg' };

function fileNameOf(disposition: unknown): string | undefined {
	const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(String(disposition ?? ''));
	return match ? decodeURIComponent(match[1]) : undefined;
}

const download: ExotelOperation = {
	description: [
		{ displayName: 'Campaign ID', name: 'campaignId', type: 'number', required: true, default: 0, displayOptions: show },
		{
			displayName: 'CRT Object ID',
			name: 'crtObjectId',
			type: 'string',
			required: true,
			default: '',
			description: 'Call run-time object ID that locates the recording',
			displayOptions: show,
		},
		{ displayName: 'Call ID', name: 'callId', type: 'string', required: true, default: '', description: 'Sent inside the filters parameter', displayOptions: show },
		{ displayName: 'Target Format', name: 'targetFormat', type: 'string', default: 'mp3', placeholder: 'mp3', displayOptions: show },
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put the recording in',
			displayOptions: show,
		},
	],
	async execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
			const param = (name: string, fallback: unknown = '') => this.getNodeParameter(name, itemIndex, fallback);
			const query = {
				campaignId: Number(param('campaignId', 0)),
				crtObjectId: String(param('crtObjectId')).trim(),
				targetFormat: String(param('targetFormat', 'mp3')).trim() || 'mp3',
				// filters is a JSON object carrying the callId; the query string encoding URL-encodes it.
				filters: JSON.stringify({ callId: String(param('callId')).trim() }),
			};
			const invalid = fieldsError(this.getNode(), itemIndex, [
				[query.campaignId, { label: 'Campaign ID', required: true, integer: true, min: 1 }],
				[query.crtObjectId, { label: 'CRT Object ID', required: true }],
				[String(param('callId')).trim(), { label: 'Call ID', required: true }],
			]);
			return invalid ?? { itemIndex, query, binaryPropertyName: String(param('binaryPropertyName', 'data')) };
		});
		const binaries = new Map<number, INodeExecutionData['binary']>();
		const outcomes = await sendEach(prepared, async ({ itemIndex, query, binaryPropertyName }) => {
			const response = await exotelRequest.call(this, {
				base: 'cc',
				method: 'GET',
				path: '/servicerestapi/cc/downloadVoiceLog',
				qs: query,
				binary: true,
				itemIndex,
			});
			// The body is audio bytes; the Content-Type header says which kind.
			const mimeType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim();
			const callId = (JSON.parse(query.filters) as { callId: string }).callId;
			const fileName = fileNameOf(response.headers['content-disposition']) ?? `${callId}.${EXTENSIONS[mimeType] ?? query.targetFormat}`;
			const data = response.body as Buffer;
			binaries.set(itemIndex, { [binaryPropertyName]: await this.helpers.prepareBinaryData(data, fileName, mimeType) });
			return { campaignId: query.campaignId, crtObjectId: query.crtObjectId, callId, fileName, mimeType, bytes: data.length } as IDataObject;
		}, SESSION_REQUESTS);
		return outputOf(this, [...failures, ...outcomes]).map((item) => {
			const binary = binaries.get((item.pairedItem as { item: number }).item);
			return binary && !item.json.error ? { ...item, binary } : item;
		});
	},
};

export const operations: Record<string, ExotelOperation> = { download };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['voiceLog'] } },
		options: [{ name: 'Download', value: 'download', action: 'Download a voice log', description: 'Download a call recording into a binary field' }],
		default: 'download',
	},
	...download.description,
];
