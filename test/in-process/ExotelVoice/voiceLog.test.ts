/**
 * Exotel Voice → Voice Log → Get through n8n-core against the sandbox: the v3 query, the output,
 * the recording downloaded from its signed URL into a binary property, and the error paths.
 */
import type { RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, startSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { seededCallSid } from '../../../sandbox/handlers/calls';
import { recordingBytes } from '../../../sandbox/handlers/voiceLogs';
import type { ExotelSandbox } from '../../../sandbox/server';

const SID = SANDBOX_ACCOUNT.accountSid;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let sandbox: ExotelSandbox;
/** Completed calls with a recording, and one completed without (from the seeded calls). */
let recorded: string[];
let unrecorded: string;

beforeAll(async () => {
	sandbox = await startSandbox();
	const res = await fetch(`${sandbox.origin}/v1/Accounts/${SID}/Calls.json?Status=completed&PageSize=100`, {
		headers: { authorization: basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken) },
	});
	const calls = ((await res.json()) as { Calls: Array<{ Sid: string; RecordingUrl: string | null }> }).Calls;
	recorded = calls.filter((c) => c.RecordingUrl).map((c) => c.Sid);
	unrecorded = calls.find((c) => !c.RecordingUrl)!.Sid;
});
afterAll(async () => await sandbox.stop());
// The seeded calls keep their sids across resets; only their dates move with the reset time.
beforeEach(() => sandbox.reset());

async function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], settings: Parameters<typeof packageNode>[2] = {}, credentialOverrides: Parameters<typeof sandboxCredentials>[1] = {}) {
	return await runNode(sandbox, 'exotelVoice', { resource: 'voiceLog', operation: 'get', ...parameters }, items, { settings, credentialOverrides });
}

describe('Exotel Voice → Voice Log → Get', () => {
	it('asks for format and channel (defaults mp3, single) and outputs the voice log without binary', async () => {
		const sid = recorded[0];
		const result = await run({ callSid: sid });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			base: 'base',
			method: 'GET',
			path: `/v3/accounts/${SID}/calls/${sid}/voice-logs`,
			query: { format: 'mp3', channel: 'single' },
			status: 200,
		});
		expect(requests[0].headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		const [out] = result.output('Exotel');
		expect(out.json).toEqual({
			call_sid: sid,
			recording_url: expect.stringMatching(new RegExp(`^${sandbox.origin}/__recordings/${sid}\\.mp3\\?`)),
			recording_duration: expect.any(Number),
			recording_size_bytes: recordingBytes(sid, 'mp3', 'single').length,
			format: 'mp3',
			channel: 'single',
			created_at: expect.stringMatching(ISO_UTC),
			expires_at: expect.stringMatching(ISO_UTC),
		});
		expect(out.binary).toBeUndefined();
	});

	it('downloads an mp3 into "data": audio/mpeg, <sid>.mp3, the exact bytes, without sending credentials', async () => {
		const sid = recorded[1];
		const result = await run({ callSid: sid, download: true });
		expect(result.error).toBeUndefined();
		const [logRequest, download] = sandbox.requests();
		expect(logRequest.query).toEqual({ format: 'mp3', channel: 'single' });
		expect(download).toMatchObject({ method: 'GET', path: `/__recordings/${sid}.mp3`, status: 200 });
		expect(download.headers.authorization).toBeUndefined();
		const [out] = result.output('Exotel');
		expect(out.json.call_sid).toBe(sid);
		expect(out.binary?.data).toMatchObject({ mimeType: 'audio/mpeg', fileName: `${sid}.mp3`, fileExtension: 'mp3' });
		const bytes = await result.binaryBuffer(out, 'data');
		expect(bytes.equals(recordingBytes(sid, 'mp3', 'single'))).toBe(true);
		expect(bytes.length).toBe(out.json.recording_size_bytes);
	});

	it('downloads a dual-channel wav into a named property: audio/wav, <sid>.wav', async () => {
		const sid = recorded[2];
		const result = await run({ callSid: sid, format: 'wav', channel: 'dual', download: true, binaryPropertyName: 'recording' });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].query).toEqual({ format: 'wav', channel: 'dual' });
		const [out] = result.output('Exotel');
		expect(out.json).toMatchObject({ format: 'wav', channel: 'dual' });
		expect(Object.keys(out.binary ?? {})).toEqual(['recording']);
		expect(out.binary?.recording).toMatchObject({ mimeType: 'audio/wav', fileName: `${sid}.wav` });
		const bytes = await result.binaryBuffer(out, 'recording');
		expect(bytes.equals(recordingBytes(sid, 'wav', 'dual'))).toBe(true);
		expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
		expect(bytes.readUInt16LE(22)).toBe(2);
	});

	it('several items: each keeps its own recording, paired', async () => {
		const sids = recorded.slice(3, 6);
		const result = await run({ callSid: '={{ $json.sid }}', download: true }, sids.map((sid) => ({ sid })));
		expect(result.error).toBeUndefined();
		const out = result.output('Exotel');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const [i, item] of out.entries()) {
			expect(item.binary?.data.fileName).toBe(`${sids[i]}.mp3`);
			expect((await result.binaryBuffer(item)).equals(recordingBytes(sids[i], 'mp3', 'single'))).toBe(true);
		}
	});

	it('404 for a call without a recording, in the service’s words', async () => {
		const result = await run({ callSid: unrecorded, download: true });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toBe('Not found (code 1004)');
		expect(result.error?.description).toContain(`Call ${unrecorded} has no recording`);
		expect(sandbox.requests()).toHaveLength(1);
	});

	it('an expired recording URL (403) fails the item with a clear NodeApiError, and continue keeps the others', async () => {
		sandbox.injectFaults({ kind: 'status', status: 403, body: '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>' }, 1, { pathIncludes: '/__recordings/' });
		const result = await run({ callSid: recorded[0], download: true });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.message).toBe('The recording could not be downloaded: HTTP 403 (the signed URL may have expired; get the voice log again for a fresh URL)');

		sandbox.reset();
		sandbox.injectFaults({ kind: 'status', status: 403 }, 1, { pathIncludes: `/__recordings/${recorded[0]}` });
		const continued = await run({ callSid: '={{ $json.sid }}', download: true }, [{ sid: recorded[0] }, { sid: recorded[1] }], { onError: 'continueRegularOutput' });
		const [failed, ok] = continued.output('Exotel');
		expect(failed.json.error).toMatch(/^The recording could not be downloaded: HTTP 403/);
		expect(failed.binary).toBeUndefined();
		expect(ok.binary?.data.fileName).toBe(`${recorded[1]}.mp3`);
	});

	it('refuses an empty Call SID before sending; 401 with a wrong token', async () => {
		const empty = await run({ callSid: '={{ "" }}' });
		expect(empty.error?.message).toBe('Call SID is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
		const denied = await run({ callSid: recorded[0] }, [{}], {}, { exotelApi: { apiToken: 'bad-SECRET' } });
		expect(denied.error?.httpCode).toBe('401');
		expect(denied.error?.message).toBe("Authentication failed: check the credential's API key and token (code 1010)");
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const VOICE_LOG = { resource: 'voiceLog', operation: 'get', callSid: 'c9f3a1d2e4b5a6c7d8e9f0a1b2c3d4e5' };

const REFUSED: RefusedCase[] = [
	refused('voice log empty SID', 'exotelVoice', { ...VOICE_LOG, callSid: '={{ "" }}' }, 'Call SID is required'),
	refused('voice log bad format (expression)', 'exotelVoice', { ...VOICE_LOG, format: '={{ "ogg" }}' }, 'Format must be one of mp3, wav (got "ogg")'),
	refused('voice log bad channel (expression)', 'exotelVoice', { ...VOICE_LOG, channel: '={{ "stereo" }}' }, 'Channel must be one of single, dual (got "stereo")'),
];

describeBadInput(REFUSED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'Voice log get: download success', node: 'exotelVoice', parameters: { resource: 'voiceLog', operation: 'get', callSid: seededCallSid(0), download: true }, outcome: 'any' },
	{ name: 'Voice log get: wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'voiceLog', operation: 'get', callSid: seededCallSid(0) }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
];

describeNoSecrets(SECRET_CASES);
