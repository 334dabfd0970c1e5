import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { outputFileField, requestPerItemWithFile } from '../../../shared/items/binaryOutput';
import { prepareNamed } from '../../../shared/items/byId';
import { fieldsError } from '../../../shared/rules/validation';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CALLS } from '../../endpoints';
import { CALL_SID, callSidField } from '../../fields';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get a voice log',
	description: 'Get the recording of a call, optionally downloaded',
};

export const description: INodeProperties[] = [
	callSidField,
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		options: [
			{ name: 'MP3', value: 'mp3' },
			{ name: 'WAV', value: 'wav' },
		],
		default: 'mp3',
	},
	{
		displayName: 'Channel',
		name: 'channel',
		type: 'options',
		options: [
			{ name: 'Dual', value: 'dual', description: 'Agent and customer on separate tracks' },
			{ name: 'Single', value: 'single', description: 'Both parties mixed in one track' },
		],
		default: 'single',
	},
	{
		displayName: 'Download Recording',
		name: 'download',
		type: 'boolean',
		default: false,
		description: 'Whether to download the recording into a binary property (the URL expires at expires_at)',
	},
	outputFileField('recording', { displayOptions: { show: { download: [true] } } }),
];

const MIME: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' };

/**
 * The recording URL is pre-signed and time-limited: it carries its own authorisation, so it is
 * fetched without the credential. Failures become a NodeApiError (a raw HTTP client error would
 * not serialise in n8n's output).
 */
async function downloadRecording(context: IExecuteFunctions, url: string, itemIndex: number): Promise<Buffer> {
	const failure = (reason: string, details: JsonObject, httpCode?: number) =>
		new NodeApiError(context.getNode(), details, {
			message: `The recording could not be downloaded: ${reason}`,
			description: 'The voice log was read; only the download of its recording failed.',
			httpCode: httpCode === undefined ? undefined : String(httpCode),
			itemIndex,
		});
	let response: { statusCode: number; body: unknown };
	try {
		response = (await context.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as { statusCode: number; body: unknown };
	} catch (error) {
		const code = String((error as { code?: unknown }).code ?? 'UNKNOWN');
		throw failure(code, { code });
	}
	const status = response.statusCode;
	if (status >= 400) {
		const expired = status === 403 ? ' (the signed URL may have expired; get the voice log again for a fresh URL)' : '';
		throw failure(`HTTP ${status}${expired}`, { httpCode: status }, status);
	}
	return Buffer.from(response.body as ArrayBuffer);
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await requestPerItemWithFile(
		this,
		items,
		prepareNamed(this, [CALL_SID], ([callSid], itemIndex) => {
			const format = String(this.getNodeParameter('format', itemIndex, 'mp3'));
			const channel = String(this.getNodeParameter('channel', itemIndex, 'single'));
			const download = this.getNodeParameter('download', itemIndex, false) === true;
			const binaryPropertyName = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
			return (
				fieldsError(this.getNode(), itemIndex, [
					[format, { label: 'Format', oneOf: ['mp3', 'wav'] }],
					[channel, { label: 'Channel', oneOf: ['single', 'dual'] }],
				]) ?? { callSid, format, channel, download, binaryPropertyName }
			);
		}),
		async ({ itemIndex, callSid, format, channel, download }) => {
			const response = await exotelRequest(this, run, {
				endpoint: CALLS.voiceLogs,
				params: { callSid },
				qs: { format, channel },
				itemIndex,
			});
			const body = (response.body ?? {}) as IDataObject;
			const voiceLog = ((body.response as IDataObject | undefined)?.voice_log ?? {}) as IDataObject;
			if (!download || !voiceLog.recording_url) return { json: voiceLog };
			const data = await downloadRecording(this, String(voiceLog.recording_url), itemIndex);
			const fileFormat = String(voiceLog.format ?? format);
			return { json: voiceLog, file: { data, fileName: `${callSid}.${fileFormat}`, mimeType: MIME[fileFormat] ?? 'application/octet-stream' } };
		},
	);
}
