import type { RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { contactCenterRunner, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, loggedIn, resetBefore, storm } from '../../helpers/secrets';

const sandbox = useSandbox();
const run = contactCenterRunner(sandbox);

describe('Exotel Contact Center → Voice Log → Download', () => {
	const download = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' };

	it('downloads bytes into a binary field with the MIME type of Content-Type and a file name, filters URL-encoded', async () => {
		const result = await run(download);
		expect(result.error).toBeUndefined();
		const get = sandbox.requests({ pathIncludes: 'downloadVoiceLog' })[0];
		expect(get.method).toBe('GET');
		expect(get.query).toEqual({ campaignId: '12', crtObjectId: 'crt-9f2', targetFormat: 'mp3', filters: '{"callId":"call-4471"}' });
		expect(get.rawBody).toBe('');
		const [item] = result.output('Exotel');
		expect(item.binary?.data).toMatchObject({ mimeType: 'audio/mpeg', fileName: 'call-4471.mp3' });
		const bytes = await result.binaryBuffer(item, 'data');
		expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
		expect(bytes.length).toBe(item.json.bytes);
	});

	it('after the session expires, logs in again once and the download succeeds', async () => {
		const first = await run(download);
		sandbox.expireSessions();
		sandbox.clearRequests();
		const before = sandbox.loginCount;
		const result = await run(download, [{}], first.credentialStore);
		expect(result.error).toBeUndefined();
		expect(sandbox.loginCount).toBe(before + 1);
		// the 401 once more, thrown, for n8n to log in again; then the login and the download
		expect(sandbox.requests().map((r) => r.status)).toEqual([401, 401, 200, 200]);
		expect((await result.binaryBuffer(result.output('Exotel')[0], 'data')).length).toBeGreaterThan(1000);
	});

	it('a recording that does not exist is a clear 404', async () => {
		const result = await run({ ...download, crtObjectId: 'missing-1' });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/No voice log for crtObjectId missing-1/);
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const CC_DOWNLOAD = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-1', callId: 'call-1' };

const REFUSED: RefusedCase[] = [
	refused('voice-log download fractional campaign ID', 'exotelContactCenter', { ...CC_DOWNLOAD, campaignId: 1.5 }, 'Campaign ID must be a whole number (got 1.5)'),
	refused('voice-log download missing CRT object ID', 'exotelContactCenter', { ...CC_DOWNLOAD, crtObjectId: '={{ "" }}' }, 'CRT Object ID is required'),
	refused('voice-log download missing call ID', 'exotelContactCenter', { ...CC_DOWNLOAD, callId: '={{ "" }}' }, 'Call ID is required'),
];

describeBadInput(REFUSED);

// ---- No secret in output, errors or logs ----

const voiceLogDownload = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' };

const SECRET_CASES: SecretCase[] = [
	{ name: 'CC voice log download: success', node: 'exotelContactCenter', parameters: voiceLogDownload, before: loggedIn, outcome: 'ok' },
	{
		name: 'CC voice log download: expired session, re-login works',
		node: 'exotelContactCenter',
		parameters: voiceLogDownload,
		before: loggedIn,
		tamper: (_store, sandbox) => sandbox.expireSessions(),
		outcome: 'ok',
	},
	{ name: 'CC voice log download: 500 past the retry limit', node: 'exotelContactCenter', parameters: voiceLogDownload, before: loggedIn, faults: [storm(500, { base: 'cc', pathIncludes: 'downloadVoiceLog' })], outcome: 'error' },
	{ name: 'CC voice log download: reset before', node: 'exotelContactCenter', parameters: voiceLogDownload, before: loggedIn, faults: [[resetBefore, 6, { base: 'cc', pathIncludes: 'downloadVoiceLog' }]], outcome: 'error' },
];

describeNoSecrets(SECRET_CASES);
