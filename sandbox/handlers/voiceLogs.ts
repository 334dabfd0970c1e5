/**
 * Voice logs (v3): `GET /v3/accounts/<sid>/calls/<call_sid>/voice-logs` hands out the signed URL of
 * a call's recording, and `GET /__recordings/<sid>.<format>` serves it (no auth; S3-like errors).
 */
import { createHash } from 'crypto';

import { fail, firstQueryValue, isoTimestamp } from '../http';
import type { Reply, RouteDefinition } from '../types';
import {
	callsOf,
	conversationOf,
	ended,
	RECORDING_URL_VALIDITY,
	recordingSignature,
	recordingUrl,
	simulated,
	v2Envelope,
	type RecordingChannel,
	type RecordingFormat,
} from './calls';

/**
 * The bytes served for a recording: deterministic, a placeholder of one second rather than the
 * whole call. wav: a valid RIFF header (8 kHz, 8-bit PCM, 1 or 2 channels) and 8000 bytes per
 * channel; mp3: an empty ID3v2.4 tag and 4000 bytes per channel.
 */
export function recordingBytes(sid: string, format: RecordingFormat, channel: RecordingChannel): Buffer {
	const channels = channel === 'dual' ? 2 : 1;
	const size = (format === 'wav' ? 8000 : 4000) * channels;
	const chunks: Buffer[] = [];
	let block = createHash('sha256').update(`${sid}|${format}|${channel}`).digest();
	for (let total = 0; total < size; total += block.length) {
		chunks.push(block);
		block = createHash('sha256').update(block).digest();
	}
	const data = Buffer.concat(chunks).subarray(0, size);
	if (format === 'mp3') return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), data]);
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + size, 4);
	header.write('WAVE', 8, 'ascii');
	header.write('fmt ', 12, 'ascii');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20);
	header.writeUInt16LE(channels, 22);
	header.writeUInt32LE(8000, 24);
	header.writeUInt32LE(8000 * channels, 28);
	header.writeUInt16LE(channels, 32);
	header.writeUInt16LE(8, 34);
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(size, 40);
	return Buffer.concat([header, data]);
}

export const RECORDING_CONTENT_TYPE: Record<RecordingFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' };

function s3Error(status: number, code: string, message: string): Reply {
	return {
		status,
		body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
		contentType: 'application/xml',
	};
}

export const voiceLogRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'GET',
		path: '/v3/accounts/:sid/calls/:callSid/voice-logs',
		auth: 'basic',
		handler: (ctx) => {
			const format = firstQueryValue(ctx.request.query.format) ?? 'mp3';
			const channel = firstQueryValue(ctx.request.query.channel) ?? 'single';
			if (Array.isArray(ctx.request.query.format) || (format !== 'mp3' && format !== 'wav')) {
				return fail(ctx, 400, `format must be mp3 or wav (got '${String(ctx.request.query.format)}')`);
			}
			if (Array.isArray(ctx.request.query.channel) || (channel !== 'single' && channel !== 'dual')) {
				return fail(ctx, 400, `channel must be single or dual (got '${String(ctx.request.query.channel)}')`);
			}
			const call = callsOf(ctx.state).get(ctx.params.callSid);
			if (!call) return fail(ctx, 404, `Call ${ctx.params.callSid} does not exist for this account`);
			const now = Date.now();
			if (!ended(call, now)) return fail(ctx, 404, `Call ${call.sid} is still in progress: its recording is not available yet (processing)`);
			if (!call.recording) return fail(ctx, 404, `Call ${call.sid} has no recording (not_available)`);
			const expires = Math.floor(now / 1000) + RECORDING_URL_VALIDITY.default * 60;
			return v2Envelope(ctx, {
				voice_log: {
					call_sid: call.sid,
					recording_url: recordingUrl(ctx.origin, call.sid, format, channel, expires),
					recording_duration: conversationOf(call),
					recording_size_bytes: recordingBytes(call.sid, format, channel).length,
					format,
					channel,
					created_at: isoTimestamp(simulated(call, call.endedAfter)),
					expires_at: isoTimestamp(new Date(expires * 1000)),
				},
			});
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: '/__recordings/:callSid.:format',
		auth: 'none',
		handler: (ctx) => {
			const { callSid, format } = ctx.params;
			const query = ctx.request.query;
			const channel = firstQueryValue(query.channel) ?? 'single';
			const expires = firstQueryValue(query.expires) ?? '';
			const sig = firstQueryValue(query.sig) ?? '';
			const call = callsOf(ctx.state).get(callSid);
			if (!call || !call.recording || !ended(call, Date.now()) || (format !== 'mp3' && format !== 'wav') || (channel !== 'single' && channel !== 'dual')) {
				return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
			}
			if (!/^\d+$/.test(expires) || sig !== recordingSignature(callSid, format, channel, expires)) {
				return s3Error(403, 'SignatureDoesNotMatch', 'The request signature does not match.');
			}
			if (Number(expires) * 1000 < Date.now()) return s3Error(403, 'AccessDenied', 'Request has expired');
			return { status: 200, body: recordingBytes(callSid, format, channel), contentType: RECORDING_CONTENT_TYPE[format] };
		},
	},
];
