import type { IDataObject } from 'n8n-workflow';

import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, emoji, refused, x } from '../../helpers/bad-input';
import { basicAuthHeader, formFields, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { b64, describeNoSecrets, echo, giveUpSoon, limitStorm, resetAfter, resetBefore, status, storm, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { SMS_DETAILED_STATUS, SMS_FROM_SUFFIX } from '../../../sandbox/handlers/sms';

const BULK_PATH = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`;
const SEND_PATH = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/send`;
const QUEUED = SMS_DETAILED_STATUS.queued;
const INVALID = SMS_DETAILED_STATUS.invalidDestination;

/** The sid the sandbox gave the accepted message to each number. */
const storedSids = () => new Map(sandbox.messages().map((message) => [message.to, message.sid]));

const sandbox = useSandbox();

function recipients(count: number, offset = 0) {
	return Array.from({ length: count }, (_, i) => ({
		phone: `+9198765${String(43210 + i + offset).padStart(5, '0')}`,
		name: `Customer ${i + offset}`,
	}));
}

const smsParameters = (extra: Record<string, unknown> = {}) => ({
	resource: 'sms',
	operation: 'send',
	from: 'EXOTEL',
	to: '={{ $json.phone }}',
	body: '=Hello {{ $json.name }}, your order has shipped.',
	...extra,
});

async function sendSms(
	items: Array<Record<string, unknown>>,
	parameters: Record<string, unknown> = smsParameters(),
	settings: Parameters<typeof packageNode>[2] = {},
	credentialOverrides: Parameters<typeof sandboxCredentials>[1] = {},
) {
	return await runNode(sandbox, 'exotelMessaging', parameters, items, { settings, credentialOverrides });
}

describe('Exotel Messaging → SMS → Send (in n8n-core)', () => {
	it('sends items with different texts as the messages of one dynamic bulk request, form-encoded, with basic auth', async () => {
		const result = await sendSms(recipients(3));
		expect(result.error).toBeUndefined();

		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		const [request] = requests;
		expect(request.method).toBe('POST');
		expect(request.path).toBe(BULK_PATH);
		expect(request.contentType).toBe('application/x-www-form-urlencoded');
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(request.form).toEqual([
			['From', 'EXOTEL'],
			['Messages[0][To]', '+919876543210'],
			['Messages[0][Body]', 'Hello Customer 0, your order has shipped.'],
			['Messages[1][To]', '+919876543211'],
			['Messages[1][Body]', 'Hello Customer 1, your order has shipped.'],
			['Messages[2][To]', '+919876543212'],
			['Messages[2][Body]', 'Hello Customer 2, your order has shipped.'],
		]);

		const out = result.output('Exotel');
		expect(out).toHaveLength(3);
		const stored = sandbox.messages();
		expect(stored.map((message) => message.to)).toEqual(['+919876543210', '+919876543211', '+919876543212']);
		out.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(stored[i].sid).toMatch(/^[0-9a-f]{32}$/);
			// The vocabulary, then the service's SMSMessage untouched under raw.
			expect(item.json).toEqual({
				messageSid: stored[i].sid,
				status: 'queued',
				channel: 'sms',
				to: `+91987654321${i}`,
				from: 'EXOTEL',
				code: QUEUED.code,
				raw: {
					Sid: stored[i].sid,
					AccountSid: SANDBOX_ACCOUNT.accountSid,
					From: `EXOTEL/${SMS_FROM_SUFFIX}`,
					To: `+91987654321${i}`,
					DateCreated: stored[i].dateCreated,
					DateUpdated: stored[i].dateUpdated,
					DateSent: null,
					Body: `Hello Customer ${i}, your order has shipped.`,
					Direction: 'outbound-api',
					Uri: `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/SMS/Messages/${stored[i].sid}.json`,
					ApiVersion: null,
					Price: null,
					Status: 'queued',
					DetailedStatusCode: 21010,
					DetailedStatus: QUEUED.name,
					SmsUnits: null,
				},
			});
			expect(Object.keys(item.json)).toEqual(['messageSid', 'status', 'channel', 'to', 'from', 'code', 'raw']);
		});
	});

	it('sends 250 items as ceil(250/100) = 3 requests and pairs every answer to its item', async () => {
		const items = recipients(250);
		const result = await sendSms(items);
		expect(result.error).toBeUndefined();

		const requests = sandbox.requests({ pathIncludes: '/Sms/bulksend' });
		const sizes = requests.map((r) => Object.keys(formFields(r.form)).filter((k) => k.endsWith('[To]')).length).sort();
		expect(sizes).toEqual([100, 100, 50]);

		const out = result.output('Exotel');
		expect(out).toHaveLength(250);
		const sids = new Set<string>();
		const stored = storedSids();
		expect(stored.size).toBe(250);
		out.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json).toMatchObject({ status: 'queued', channel: 'sms', to: items[i].phone, from: 'EXOTEL', code: QUEUED.code });
			expect(item.json.messageSid).toBe(stored.get(items[i].phone));
			expect(item.json.raw).toMatchObject({ Sid: item.json.messageSid, To: items[i].phone, Body: `Hello ${items[i].name}, your order has shipped.` });
			sids.add(String(item.json.messageSid));
		});
		expect(sids.size).toBe(250);
	});

	it('puts every optional field where the spec places it, and per-message From only where it differs', async () => {
		const items = [
			{ phone: '+919876543210', sender: 'EXOTEL' },
			{ phone: '+919876543211', sender: 'ACMEIN' },
		];
		const result = await sendSms(items, {
			...smsParameters(),
			from: '={{ $json.sender }}',
			body: 'Your OTP is 4821',
			statusCallback: 'https://example.com/webhook/exotel-messaging',
			additionalFields: {
				customField: 'order-77',
				dltEntityId: '1101456789012345678',
				dltTemplateId: '1107161234567890123',
				encodingType: 'unicode',
				priority: 'high',
				shortenUrl: true,
				shortenUrlHeader: 'ACMEIN',
				shortenUrlTracking: true,
				clickTrackingCallbackUrl: 'https://example.com/webhook/clicks',
				smsType: 'transactional',
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request.form).toEqual([
			['From', 'EXOTEL'],
			['Messages[0][To]', '+919876543210'],
			['Messages[0][Body]', 'Your OTP is 4821'],
			['Messages[0][SmsType]', 'transactional'],
			['Messages[0][DltTemplateId]', '1107161234567890123'],
			['Messages[1][To]', '+919876543211'],
			['Messages[1][Body]', 'Your OTP is 4821'],
			['Messages[1][From]', 'ACMEIN'],
			['Messages[1][SmsType]', 'transactional'],
			['Messages[1][DltTemplateId]', '1107161234567890123'],
			['CustomField', 'order-77'],
			['DltEntityId', '1101456789012345678'],
			['EncodingType', 'unicode'],
			['Priority', 'high'],
			['StatusCallback', 'https://example.com/webhook/exotel-messaging'],
			['ShortenUrl', 'true'],
			['ShortenUrlParams[Header]', 'ACMEIN'],
			['ShortenUrlParams[Tracking]', 'true'],
			['ShortenUrlParams[ClickTrackingCallbackUrl]', 'https://example.com/webhook/clicks'],
		]);
		// `from` is the sender as sent; the service's own From (with its suffix) stays under raw.
		expect(result.output('Exotel').map((i) => [i.json.from, (i.json.raw as IDataObject).From])).toEqual([
			['EXOTEL', expect.stringMatching(/^EXOTEL\//)],
			['ACMEIN', expect.stringMatching(/^ACMEIN\//)],
		]);
	});

	it('splits items whose request-level options differ into separate requests, outputs still paired', async () => {
		const items = recipients(4).map((r, i) => ({ ...r, entity: i % 2 === 0 ? 'E-even' : 'E-odd' }));
		const result = await sendSms(items, {
			...smsParameters(),
			additionalFields: { dltEntityId: '={{ $json.entity }}' },
		});
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests).toHaveLength(2);
		const byEntity = Object.fromEntries(
			requests.map((r) => [formFields(r.form).DltEntityId[0], formFields(r.form)['Messages[1][To]'][0]]),
		);
		expect(byEntity).toEqual({ 'E-even': items[2].phone, 'E-odd': items[3].phone });
		const stored = storedSids();
		expect(result.output('Exotel').map((i) => [i.pairedItem, i.json.to, i.json.messageSid, (i.json.raw as IDataObject).To])).toEqual(
			items.map((item, i) => [{ item: i }, item.phone, stored.get(item.phone), item.phone]),
		);
	});

	describe('bad input is refused before anything is sent', () => {
		it('names the field, the item and the limit', async () => {
			const items = recipients(3);
			const result = await sendSms(items, { ...smsParameters(), body: `={{ $itemIndex === 1 ? 'x'.repeat(2001) : 'ok' }}` });
			expect(result.error?.message).toBe('Body is 2001 characters; the limit is 2000 (item 1)');
			expect(sandbox.requests()).toHaveLength(0);
		});

		it('counts the body in characters (code points): 2000 with an emoji is sent intact, 2001 refused as 2001', async () => {
			// 1,999 letters and one emoji: 2000 characters but 2001 UTF-16 units.
			const body = `${'x'.repeat(1999)}😀`;
			const accepted = await sendSms(recipients(1), { ...smsParameters(), body });
			expect(accepted.error).toBeUndefined();
			expect(sandbox.requests()[0].path).toBe(SEND_PATH);
			expect(formFields(sandbox.requests()[0].form).Body).toEqual([body]);
			expect(sandbox.requests()[0].status).toBe(200);

			sandbox.reset();
			const refused = await sendSms(recipients(1), { ...smsParameters(), body: `${body}😀` });
			expect(refused.error?.message).toBe('Body is 2001 characters; the limit is 2000 (item 0)');
			expect(sandbox.requests()).toHaveLength(0);
		});

		it.each([
			['To', { to: 'call me' }, 'To must be a phone number such as +919876543210 (got "call me")'],
			['To', { to: '={{ "" }}' }, 'To is required'],
			['From', { from: '={{ "" }}' }, 'From is required'],
			['Status Callback URL', { statusCallback: 'not-a-url' }, 'Status Callback URL must be an http(s) URL (got "not-a-url")'],
			['Track Clicks', { additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'],
		])('%s', async (_field, override, message) => {
			const result = await sendSms(recipients(1), { ...smsParameters(), ...override });
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(sandbox.requests()).toHaveLength(0);
		});

		it('with Continue On Fail, marks the bad item and sends the others', async () => {
			const items = [...recipients(2), { phone: 'nope', name: 'Bad' }];
			const result = await sendSms(items, smsParameters(), { onError: 'continueRegularOutput' });
			expect(result.error).toBeUndefined();
			const out = result.output('Exotel');
			expect(out).toHaveLength(3);
			expect(out[2].pairedItem).toEqual({ item: 2 });
			expect(out[2].json.error).toMatch(/To must be a phone number/);
			const stored = storedSids();
			expect(out.slice(0, 2).map((item) => [item.pairedItem, item.json.messageSid, item.json.status, item.json.to])).toEqual([
				[{ item: 0 }, stored.get(items[0].phone), 'queued', items[0].phone],
				[{ item: 1 }, stored.get(items[1].phone), 'queued', items[1].phone],
			]);
			expect(sandbox.requests()).toHaveLength(1);
			expect(Object.keys(formFields(sandbox.requests()[0].form)).filter((k) => k.endsWith('[To]'))).toHaveLength(2);
		});
	});

	describe('HTTP 207 partial failure loses nothing', () => {
		// Accepted by the node's lenient number check, refused by the service as an invalid destination.
		const items = [recipients(1)[0], { phone: '0123456', name: 'Invalid' }, recipients(1, 2)[0]];
		// The refused message in the package's keys, the service's SMSMessage under raw (both On Error modes).
		const refused = {
			messageSid: null,
			status: 'failed',
			channel: 'sms',
			to: '0123456',
			from: 'EXOTEL',
			code: 23010,
			raw: expect.objectContaining({
				Sid: null,
				To: '0123456',
				Status: 'failed',
				DetailedStatusCode: INVALID.code,
				DetailedStatus: INVALID.name,
			}),
		};

		it('stops the workflow by default, naming the failed item and counting the accepted ones', async () => {
			const result = await sendSms(items);
			expect(result.error?.message).toBe('Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)');
			expect(result.error?.description).toContain('1 of 3 items failed (item 1:');
			expect(result.error?.description).toContain('The other 2 succeeded');
			expect(sandbox.requests()[0].status).toBe(207);
		});

		it('with continueRegularOutput, every item comes out and the failed one is marked', async () => {
			const result = await sendSms(items, smsParameters(), { onError: 'continueRegularOutput' });
			const out = result.output('Exotel');
			expect(out.map((i) => [i.pairedItem, i.json.status, (i.json.raw as IDataObject).Status])).toEqual([
				[{ item: 0 }, 'queued', 'queued'],
				[{ item: 1 }, 'failed', 'failed'],
				[{ item: 2 }, 'queued', 'queued'],
			]);
			const stored = storedSids();
			expect(out.map((i) => i.json.messageSid)).toEqual([stored.get(items[0].phone), null, stored.get(items[2].phone)]);
			expect(out[1].json).toEqual({ ...refused, error: 'Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)' });
		});

		it('with continueErrorOutput, failures leave on the error output, still paired', async () => {
			const result = await sendSms(items, smsParameters(), { onError: 'continueErrorOutput' });
			const success = result.output('Exotel', 0);
			const failure = result.output('Exotel', 1);
			expect(success.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
			expect(failure).toHaveLength(1);
			expect(failure[0].pairedItem).toEqual({ item: 1 });
			// n8n merges the input item into error-output items: the user keeps their data and the cause.
			expect(failure[0].json).toEqual({
				phone: '0123456',
				name: 'Invalid',
				error: {
					message: 'Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)',
					description: expect.stringContaining('To 0123456'),
					...refused,
				},
			});
			const stored = storedSids();
			expect(success.map((i) => [i.json.messageSid, i.json.status, i.json.to])).toEqual([
				[stored.get(items[0].phone), 'queued', items[0].phone],
				[stored.get(items[2].phone), 'queued', items[2].phone],
			]);
		});
	});

	describe('whole-request failures', () => {
		it('wrong API token: a clear 401 error without the secret', async () => {
			const result = await sendSms(recipients(1), smsParameters(), {}, { exotelApi: { apiToken: 'wrong-SECRET-token-xyz' } });
			expect(result.error?.httpCode).toBe('401');
			// the headline says what to check; the service's page text follows it
			expect(result.error?.message).toBe("Authentication failed: check the credential's API key and token");
			expect(result.error?.description).toMatch(/^The service said: "Authentication is required to view this page\."/);
			expect(JSON.stringify(result.error)).not.toContain('wrong-SECRET-token-xyz');
			expect(sandbox.requests()[0].auth.ok).toBe(false);
		});

		it('retries 429 honouring Retry-After, then succeeds', async () => {
			sandbox.injectFaults({ kind: 'status', status: 429, retryAfterSeconds: 0 }, 2);
			const result = await sendSms(recipients(2));
			expect(result.error).toBeUndefined();
			expect(sandbox.requests().map((r) => r.status)).toEqual([429, 429, 200]);
			expect(result.output('Exotel')).toHaveLength(2);
			const stored = storedSids();
			expect(stored.size).toBe(2);
			expect(result.output('Exotel').map((i) => [i.json.messageSid, i.json.status])).toEqual(
				recipients(2).map((r) => [stored.get(r.phone), 'queued']),
			);
		});

		it('gives up on 5xx after 4 attempts with the cause named', async () => {
			sandbox.injectFaults({ kind: 'status', status: 502, retryAfterSeconds: 0 }, 10);
			const result = await sendSms(recipients(1));
			expect(sandbox.requests()).toHaveLength(4);
			expect(result.error?.httpCode).toBe('502');
			expect(result.error?.description).toContain('Gave up after 4 attempts');
		});

		it('a 503 from an SMS endpoint is the rate limit refusing (as older material says): sent again until accepted, once', async () => {
			sandbox.injectFaults({ kind: 'status', status: 503, retryAfterSeconds: 0 }, 6);
			const result = await sendSms(recipients(1));
			expect(result.error).toBeUndefined();
			// six refusals are more than the four attempts a server error gets: they count as none
			expect(sandbox.requests().map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503, 200]);
			expect(sandbox.messages()).toHaveLength(1);
			expect(result.output('Exotel').map((i) => i.json.status)).toEqual(['queued']);
		});

		it('does not resend a bulk request whose answer was lost, and marks its items', async () => {
			sandbox.injectFaults({ kind: 'reset', when: 'after' }, 1);
			const result = await sendSms(recipients(2), smsParameters(), { onError: 'continueRegularOutput' });
			expect(sandbox.requests()).toHaveLength(1);
			const out = result.output('Exotel');
			expect(out.map((i) => [i.pairedItem, i.json.deliveryUnknown])).toEqual([
				[{ item: 0 }, true],
				[{ item: 1 }, true],
			]);
			expect(String(out[0].json.error)).toMatch(/Could not reach the service/);
			// The service may have acted on them: no id, status unknown, nothing of the service's to keep.
			out.forEach((item, i) => {
				expect(item.json).toEqual({
					messageSid: null,
					status: 'unknown',
					channel: 'sms',
					to: recipients(2)[i].phone,
					from: 'EXOTEL',
					code: null,
					raw: null,
					deliveryUnknown: true,
					error: expect.stringMatching(/Could not reach the service/),
				});
			});
		});

		it('an answer without an entry for a message marks that message unknown, not failed', async () => {
			sandbox.injectFaults({ kind: 'status', status: 200, body: [] }, 1);
			const result = await sendSms(recipients(2), smsParameters(), { onError: 'continueRegularOutput' });
			expect(sandbox.requests().map((r) => r.status)).toEqual([200]);
			expect(result.output('Exotel').map((item) => [item.pairedItem, item.json])).toEqual(
				recipients(2).map((r, i) => [
					{ item: i },
					{
						messageSid: null,
						status: 'unknown',
						channel: 'sms',
						to: r.phone,
						from: 'EXOTEL',
						code: null,
						raw: null,
						deliveryUnknown: true,
						error: 'The service answered without an entry for this message',
					},
				]),
			);
		});

		it('answers 40400 above 100 messages (proving the node never sends that many)', async () => {
			await sendSms(recipients(101));
			expect(sandbox.requests().every((r) => r.status === 200)).toBe(true);
			// 100 different texts, then a batch of one: a single message goes through Sms/send.
			expect(sandbox.requests().map((r) => r.path).sort()).toEqual([BULK_PATH, SEND_PATH].sort());
		});
	});

	// The service allows Sms/bulksend 50 requests a minute and Sms/send 200: one text goes through Sms/send.
	describe('the endpoint: one text through Sms/send, different texts through Sms/bulksend', () => {
		const sameText = (extra: Record<string, unknown> = {}) => smsParameters({ body: 'Your order has shipped', ...extra });

		it('one item: one POST to Sms/send with exactly From, To[] and Body', async () => {
			const result = await sendSms(recipients(1), sameText());
			expect(result.error).toBeUndefined();
			const requests = sandbox.requests();
			expect(requests.map((r) => [r.method, r.path, r.contentType, r.status])).toEqual([['POST', SEND_PATH, 'application/x-www-form-urlencoded', 200]]);
			expect(requests[0].form).toEqual([
				['From', 'EXOTEL'],
				['To[]', '+919876543210'],
				['Body', 'Your order has shipped'],
			]);
			const [message] = sandbox.messages();
			expect(message.endpoint).toBe('send');
			const out = result.output('Exotel');
			expect(out.map((item) => [item.pairedItem, item.json.messageSid, item.json.status, item.json.to, item.json.from, rawOf(item.json).Sid])).toEqual([
				[{ item: 0 }, message.sid, 'queued', '+919876543210', 'EXOTEL', message.sid],
			]);
		});

		it('one item with DLT Entity ID and the short-URL fields: Sms/send carries them, nothing else', async () => {
			const result = await sendSms(
				recipients(1),
				sameText({ additionalFields: { dltEntityId: '1101456789012345678', shortenUrl: true, shortenUrlHeader: 'ACMEIN' } }),
			);
			expect(result.error).toBeUndefined();
			const [request] = sandbox.requests();
			expect(request.path).toBe(SEND_PATH);
			expect(request.form).toEqual([
				['From', 'EXOTEL'],
				['To[]', '+919876543210'],
				['Body', 'Your order has shipped'],
				['DltEntityId', '1101456789012345678'],
				['ShortenUrl', 'true'],
				['ShortenUrlParams[Header]', 'ACMEIN'],
			]);
		});

		it('3 items with the same text: one Sms/send with three To[] in item order, each output paired to its item', async () => {
			const items = recipients(3);
			const result = await sendSms(items, sameText());
			expect(result.error).toBeUndefined();
			const requests = sandbox.requests();
			expect(requests.map((r) => r.path)).toEqual([SEND_PATH]);
			expect(requests[0].form).toEqual([
				['From', 'EXOTEL'],
				...items.map((item) => ['To[]', item.phone]),
				['Body', 'Your order has shipped'],
			]);
			const stored = storedSids();
			expect(result.output('Exotel').map((item) => [item.pairedItem, item.json.to, item.json.messageSid, rawOf(item.json).To])).toEqual(
				items.map((item, i) => [{ item: i }, item.phone, stored.get(item.phone), item.phone]),
			);
		});

		it('3 items with different texts: one Sms/bulksend', async () => {
			const result = await sendSms(recipients(3));
			expect(result.error).toBeUndefined();
			expect(sandbox.requests().map((r) => r.path)).toEqual([BULK_PATH]);
			expect(sandbox.messages().map((message) => message.endpoint)).toEqual(['bulksend', 'bulksend', 'bulksend']);
		});

		it('the same text from different senders: one Sms/bulksend (static bulk has one From)', async () => {
			const items = recipients(2).map((r, i) => ({ ...r, sender: i === 0 ? 'EXOTEL' : 'ACMEIN' }));
			const result = await sendSms(items, sameText({ from: '={{ $json.sender }}' }));
			expect(result.error).toBeUndefined();
			expect(sandbox.requests().map((r) => r.path)).toEqual([BULK_PATH]);
			expect(result.output('Exotel').map((item) => [item.pairedItem, item.json.from])).toEqual([
				[{ item: 0 }, 'EXOTEL'],
				[{ item: 1 }, 'ACMEIN'],
			]);
		});

		// Fields static bulk has none for: one item with any of them goes through dynamic bulk, the field sent.
		it.each([
			['DLT Template ID', { additionalFields: { dltTemplateId: '1107161234567890123' } }, ['Messages[0][DltTemplateId]', '1107161234567890123']],
			['SMS Type', { additionalFields: { smsType: 'transactional' } }, ['Messages[0][SmsType]', 'transactional']],
			['Status Callback URL', { statusCallback: 'https://example.com/webhook/exotel-messaging' }, ['StatusCallback', 'https://example.com/webhook/exotel-messaging']],
			['Custom Field', { additionalFields: { customField: 'order-77' } }, ['CustomField', 'order-77']],
			['Encoding Type', { additionalFields: { encodingType: 'unicode' } }, ['EncodingType', 'unicode']],
			['Priority', { additionalFields: { priority: 'high' } }, ['Priority', 'high']],
		] as const)('one item with %s: Sms/bulksend', async (_name, parameters, field) => {
			const result = await sendSms(recipients(1), sameText(parameters));
			expect(result.error).toBeUndefined();
			const requests = sandbox.requests();
			expect(requests.map((r) => [r.path, r.status])).toEqual([[BULK_PATH, 200]]);
			expect(requests[0].form).toEqual([
				['From', 'EXOTEL'],
				['Messages[0][To]', '+919876543210'],
				['Messages[0][Body]', 'Your order has shipped'],
				field,
			]);
			expect(result.output('Exotel').map((item) => [item.pairedItem, item.json.status])).toEqual([[{ item: 0 }, 'queued']]);
		});

		describe('a 207 answer on Sms/send pairs the failed entry to its item', () => {
			const items = [recipients(1)[0], { phone: '0123456', name: 'Invalid' }, recipients(1, 2)[0]];

			it('continueRegularOutput: every item out, the refused one marked', async () => {
				const result = await sendSms(items, sameText(), { onError: 'continueRegularOutput' });
				const [request] = sandbox.requests();
				expect([request.path, request.status]).toEqual([SEND_PATH, 207]);
				expect(formFields(request.form)['To[]']).toEqual(items.map((item) => item.phone));
				const stored = storedSids();
				expect(result.output('Exotel').map((item) => [item.pairedItem, item.json.to, item.json.status, item.json.messageSid, item.json.code])).toEqual([
					[{ item: 0 }, items[0].phone, 'queued', stored.get(items[0].phone), QUEUED.code],
					[{ item: 1 }, '0123456', 'failed', null, INVALID.code],
					[{ item: 2 }, items[2].phone, 'queued', stored.get(items[2].phone), QUEUED.code],
				]);
				expect(result.output('Exotel')[1].json.error).toBe('Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)');
			});

			it('continueErrorOutput: the refused item leaves on the error output with its input', async () => {
				const result = await sendSms(items, sameText(), { onError: 'continueErrorOutput' });
				expect(sandbox.requests().map((r) => [r.path, r.status])).toEqual([[SEND_PATH, 207]]);
				expect(result.output('Exotel', 0).map((item) => [item.pairedItem, item.json.to])).toEqual([
					[{ item: 0 }, items[0].phone],
					[{ item: 2 }, items[2].phone],
				]);
				const failed = result.output('Exotel', 1);
				expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
				expect(failed[0].json).toMatchObject({ phone: '0123456', name: 'Invalid', error: { to: '0123456', status: 'failed', messageSid: null, code: INVALID.code } });
			});
		});
	});
});

const rawOf = (json: IDataObject) => json.raw as IDataObject;

const numbers = (count: number, offset = 0) =>
	Array.from({ length: count }, (_, i) => `+9198${String(10000000 + i + offset).padStart(8, '0')}`);

function run(items: Array<Record<string, unknown>>, parameters: Record<string, unknown>, onError?: 'continueErrorOutput') {
	const sms = { resource: 'sms', operation: 'sendToMany', from: 'ACMEIN', body: 'Sale ends tonight' };
	return runNode(sandbox, 'exotelMessaging', { ...sms, ...parameters }, items, { settings: { onError } });
}

describe('Exotel Messaging → SMS → Send to Many (static bulk, dynamic when an option needs it)', () => {
	it('splits 250 recipients into requests of 100, 100 and 50 with To[] repeated, never a 40406', async () => {
		const list = numbers(250);
		const result = await run([{ list }], { recipients: '={{ $json.list }}' });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => [r.method, r.path, r.contentType, r.status])).toEqual(
			Array(3).fill(['POST', `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/send`, 'application/x-www-form-urlencoded', 200]),
		);
		const sent = requests.map((r) => formFields(r.form));
		expect(sent.map((f) => f['To[]'].length).sort()).toEqual([100, 100, 50]);
		expect(sent.flatMap((f) => f['To[]']).sort()).toEqual([...list].sort());
		for (const fields of sent) {
			expect(fields.From).toEqual(['ACMEIN']);
			expect(fields.Body).toEqual(['Sale ends tonight']);
		}
		const out = result.output('Exotel');
		expect(out).toHaveLength(250);
		expect(out.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(out.map((item) => item.json.to)).toEqual(list);
		// One item per recipient in the vocabulary, the service's SMSMessage under raw.
		const stored = storedSids();
		expect(stored.size).toBe(250);
		expect(new Set(out.map((item) => item.json.messageSid)).size).toBe(250);
		out.forEach((item, i) => {
			expect(item.json).toEqual({
				messageSid: stored.get(list[i]),
				status: 'queued',
				channel: 'sms',
				to: list[i],
				from: 'ACMEIN',
				code: SMS_DETAILED_STATUS.queued.code,
				raw: expect.objectContaining({
					Sid: stored.get(list[i]),
					From: `ACMEIN/${SMS_FROM_SUFFIX}`,
					To: list[i],
					Body: 'Sale ends tonight',
					Status: 'queued',
					DetailedStatusCode: SMS_DETAILED_STATUS.queued.code,
					DetailedStatus: SMS_DETAILED_STATUS.queued.name,
				}),
			});
		});
	});

	it('takes a comma or newline separated list and pairs each recipient with its own input item', async () => {
		const result = await run(
			[{ list: '+919876543210, +919876543211' }, { list: '+919876543212\n+91 98765 43213' }],
			{ recipients: '={{ $json.list }}' },
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => formFields(r.form)['To[]'])).toEqual([
			['+919876543210', '+919876543211'],
			['+919876543212', '+919876543213'],
		]);
		const stored = storedSids();
		expect(result.output('Exotel').map((item) => [item.pairedItem, item.json.to, rawOf(item.json).To, item.json.messageSid])).toEqual([
			[{ item: 0 }, '+919876543210', '+919876543210', stored.get('+919876543210')],
			[{ item: 0 }, '+919876543211', '+919876543211', stored.get('+919876543211')],
			[{ item: 1 }, '+919876543212', '+919876543212', stored.get('+919876543212')],
			[{ item: 1 }, '+919876543213', '+919876543213', stored.get('+919876543213')],
		]);
	});

	// messaging.md § Static bulk SMS: all the parameters Sms/send with To[] has.
	const STATIC_BULK_KEYS = [
		'From',
		'To[]',
		'Body',
		'DltEntityId',
		'ShortenUrl',
		'ShortenUrlParams[Header]',
		'ShortenUrlParams[Tracking]',
		'ShortenUrlParams[ClickTrackingCallbackUrl]',
	];
	const STATIC_PATH = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/send`;
	const DYNAMIC_PATH = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`;

	it('sends the static bulk options with the names the spec gives them, and nothing else', async () => {
		const result = await run([{}], {
			recipients: '+919876543210, +919876543211',
			additionalFields: {
				dltEntityId: '1101456789012345678',
				shortenUrl: true,
				shortenUrlHeader: 'ACMEIN',
				shortenUrlTracking: true,
				clickTrackingCallbackUrl: 'https://example.com/webhook/clicks',
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request.path).toBe(STATIC_PATH);
		expect(request.form).toEqual([
			['From', 'ACMEIN'],
			['To[]', '+919876543210'],
			['To[]', '+919876543211'],
			['Body', 'Sale ends tonight'],
			['DltEntityId', '1101456789012345678'],
			['ShortenUrl', 'true'],
			['ShortenUrlParams[Header]', 'ACMEIN'],
			['ShortenUrlParams[Tracking]', 'true'],
			['ShortenUrlParams[ClickTrackingCallbackUrl]', 'https://example.com/webhook/clicks'],
		]);
		expect(request.form?.every(([key]) => STATIC_BULK_KEYS.includes(key))).toBe(true);
	});

	// Options static bulk has no field for: each sends the list through dynamic bulk, where it has one.
	it.each([
		['Status Callback URL', { statusCallback: 'https://example.com/webhook/exotel-messaging' }, ['StatusCallback', 'https://example.com/webhook/exotel-messaging']],
		['Custom Field', { additionalFields: { customField: 'campaign-9' } }, ['CustomField', 'campaign-9']],
		['Encoding Type', { additionalFields: { encodingType: 'unicode' } }, ['EncodingType', 'unicode']],
		['Priority', { additionalFields: { priority: 'high' } }, ['Priority', 'high']],
		['SMS Type', { additionalFields: { smsType: 'promotional' } }, ['Messages[i][SmsType]', 'promotional']],
		['DLT Template ID', { additionalFields: { dltTemplateId: '1107161234567890123' } }, ['Messages[i][DltTemplateId]', '1107161234567890123']],
	] as const)('%s: sent through dynamic bulk, one message per recipient with the same body', async (_name, parameters, [key, value]) => {
		const result = await run([{ customer: 'A' }], { recipients: '+919876543210, +919876543211', ...parameters });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => [r.path, r.status])).toEqual([[DYNAMIC_PATH, 200]]);
		const perMessage = key.startsWith('Messages[i]');
		const field = (i: number) => key.replace('[i]', `[${i}]`);
		expect(requests[0].form).toEqual([
			['From', 'ACMEIN'],
			['Messages[0][To]', '+919876543210'],
			['Messages[0][Body]', 'Sale ends tonight'],
			...(perMessage ? [[field(0), value]] : []),
			['Messages[1][To]', '+919876543211'],
			['Messages[1][Body]', 'Sale ends tonight'],
			...(perMessage ? [[field(1), value]] : []),
			...(perMessage ? [] : [[key, value]]),
		]);
		const stored = storedSids();
		expect(
			result.output('Exotel').map((item) => [item.pairedItem, item.json.to, item.json.status, rawOf(item.json).Status, item.json.messageSid, item.json.channel, item.json.from]),
		).toEqual([
			[{ item: 0 }, '+919876543210', 'queued', 'queued', stored.get('+919876543210'), 'sms', 'ACMEIN'],
			[{ item: 0 }, '+919876543211', 'queued', 'queued', stored.get('+919876543211'), 'sms', 'ACMEIN'],
		]);
	});

	it('with every option set, splits 150 recipients into dynamic bulk requests of 100 and 50 carrying them all', async () => {
		const list = numbers(150);
		const result = await run([{ list }], {
			recipients: '={{ $json.list }}',
			statusCallback: 'https://example.com/webhook/exotel-messaging',
			additionalFields: {
				customField: 'campaign-9',
				dltEntityId: '1101456789012345678',
				dltTemplateId: '1107161234567890123',
				encodingType: 'unicode',
				priority: 'normal',
				smsType: 'transactional',
				shortenUrl: true,
				shortenUrlHeader: 'ACMEIN',
			},
		});
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => r.path)).toEqual([DYNAMIC_PATH, DYNAMIC_PATH]);
		const sent = requests.map((r) => formFields(r.form));
		expect(sent.map((f) => Object.keys(f).filter((k) => k.endsWith('[To]')).length).sort()).toEqual([100, 50]);
		for (const fields of sent) {
			expect(fields).toMatchObject({
				From: ['ACMEIN'],
				StatusCallback: ['https://example.com/webhook/exotel-messaging'],
				CustomField: ['campaign-9'],
				DltEntityId: ['1101456789012345678'],
				EncodingType: ['unicode'],
				Priority: ['normal'],
				ShortenUrl: ['true'],
				'ShortenUrlParams[Header]': ['ACMEIN'],
				'Messages[0][SmsType]': ['transactional'],
				'Messages[0][DltTemplateId]': ['1107161234567890123'],
			});
			// Per-message From only where it differs from the default: never, here.
			expect(Object.keys(fields).filter((k) => k.endsWith('[From]'))).toEqual([]);
		}
		expect(result.output('Exotel').map((item) => item.json.to)).toEqual(list);
		const stored = storedSids();
		expect(stored.size).toBe(150);
		expect(result.output('Exotel').map((item) => [item.json.messageSid, item.json.status, rawOf(item.json).To])).toEqual(
			list.map((to) => [stored.get(to), 'queued', to]),
		);
	});

	it('decides per item: an item with only static bulk options goes static, one with more goes dynamic', async () => {
		const result = await run([{ dlr: '' }, { dlr: 'https://example.com/webhook/exotel-messaging' }], {
			recipients: '+919876543210',
			statusCallback: '={{ $json.dlr }}',
		});
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => r.path).sort()).toEqual([DYNAMIC_PATH, STATIC_PATH].sort());
		const staticRequest = requests.find((r) => r.path === STATIC_PATH);
		expect(staticRequest?.form).toEqual([
			['From', 'ACMEIN'],
			['To[]', '+919876543210'],
			['Body', 'Sale ends tonight'],
		]);
		expect(result.output('Exotel').map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// Either way the same item: one SMSMessage, the same keys.
		expect(sandbox.messages().map((message) => message.endpoint).sort()).toEqual(['bulksend', 'send']);
		expect(result.output('Exotel').map((item) => [item.json.messageSid, item.json.status, item.json.channel, item.json.to, item.json.from])).toEqual(
			['send', 'bulksend'].map((endpoint) => [sandbox.messages().find((m) => m.endpoint === endpoint)?.sid, 'queued', 'sms', '+919876543210', 'ACMEIN']),
		);
	});

	it('counts the body in characters: 2000 with an emoji is sent intact, 2001 refused as 2001', async () => {
		const body = `${'x'.repeat(1999)}😀`;
		const accepted = await run([{}], { recipients: '+919876543210', body });
		expect(accepted.error).toBeUndefined();
		expect(formFields(sandbox.requests()[0].form).Body).toEqual([body]);
		expect(sandbox.requests()[0].status).toBe(200);

		sandbox.reset();
		const refused = await run([{}], { recipients: '+919876543210', body: `${body}😀` });
		expect(refused.error?.message).toBe('Body is 2001 characters; the limit is 2000 (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('refuses a bad recipient before sending, naming its position', async () => {
		const result = await run([{}], { recipients: '+919876543210, twelve' });
		expect(result.error?.message).toBe('To [1] must be a phone number such as +919876543210 (got "twelve") (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('routes recipients the service refused (207) to the error output, the rest to success', async () => {
		const result = await run([{ customer: 'A' }], { recipients: '+919876543210, 0123456, +919876543211' }, 'continueErrorOutput');
		expect(sandbox.requests()[0].status).toBe(207);
		const stored = storedSids();
		expect(result.output('Exotel', 0).map((item) => [item.json.to, item.json.messageSid, item.json.status])).toEqual([
			['+919876543210', stored.get('+919876543210'), 'queued'],
			['+919876543211', stored.get('+919876543211'), 'queued'],
		]);
		const failed = result.output('Exotel', 1);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 0 });
		expect(failed[0].json).toEqual({
			customer: 'A',
			error: {
				message: 'Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)',
				description: expect.stringContaining('To 0123456'),
				messageSid: null,
				status: 'failed',
				channel: 'sms',
				to: '0123456',
				from: 'ACMEIN',
				code: 23010,
				raw: expect.objectContaining({
					Sid: null,
					To: '0123456',
					Status: 'failed',
					DetailedStatusCode: SMS_DETAILED_STATUS.invalidDestination.code,
					DetailedStatus: SMS_DETAILED_STATUS.invalidDestination.name,
				}),
			},
		});
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const SMS = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '+919876543210', body: 'Hello' };
const MANY = { resource: 'sms', operation: 'sendToMany', from: 'EXOTEL', recipients: '+919876543210', body: 'Hello' };

const REFUSED: RefusedCase[] = [
	refused('SMS body of 2001 characters', 'exotelMessaging', { ...SMS, body: x(2001) }, 'Body is 2001 characters; the limit is 2000'),
	refused('SMS body too long in item 1 (expression)', 'exotelMessaging', { ...SMS, body: '={{ $json.body }}' }, 'Body is 2001 characters; the limit is 2000', { items: [{ body: 'ok' }, { body: x(2001) }], item: 1 }),
	refused('SMS body of 2001 characters ending in emoji', 'exotelMessaging', { ...SMS, body: emoji(2001) }, 'Body is 2001 characters; the limit is 2000'),
	refused('SMS empty To', 'exotelMessaging', { ...SMS, to: '={{ "" }}' }, 'To is required'),
	refused('SMS empty From', 'exotelMessaging', { ...SMS, from: '={{ "" }}' }, 'From is required'),
	refused('SMS empty Body', 'exotelMessaging', { ...SMS, body: '={{ "" }}' }, 'Body is required'),
	refused('SMS non-phone To', 'exotelMessaging', { ...SMS, to: '={{ $json.to }}' }, 'To must be a phone number such as +919876543210 (got "call me")', { items: [{ to: '+919876543210' }, { to: 'call me' }], item: 1 }),
	refused('SMS bad Status Callback URL', 'exotelMessaging', { ...SMS, statusCallback: 'n8n/webhook' }, /^Status Callback URL must be an http\(s\) URL \(got "n8n\/webhook"\)$/),
	refused('SMS bad Click Tracking Callback URL', 'exotelMessaging', { ...SMS, additionalFields: { shortenUrl: true, shortenUrlTracking: true, clickTrackingCallbackUrl: 'clicks' } }, /^Click Tracking Callback URL must be an http\(s\) URL/),
	refused('SMS Track Clicks without Shorten URL', 'exotelMessaging', { ...SMS, additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'),
	refused('SMS bad SMS Type (expression)', 'exotelMessaging', { ...SMS, additionalFields: { smsType: '={{ "otp" }}' } }, 'SMS Type must be one of promotional, transactional, transactional_opt_in (got "otp")'),
	refused('SMS bad Encoding Type (expression)', 'exotelMessaging', { ...SMS, additionalFields: { encodingType: '={{ "utf8" }}' } }, 'Encoding Type must be one of plain, unicode (got "utf8")'),
	refused('SMS bad Priority (expression)', 'exotelMessaging', { ...SMS, additionalFields: { priority: '={{ "urgent" }}' } }, 'Priority must be one of high, normal (got "urgent")'),
	refused('Send to Many bad recipient', 'exotelMessaging', { ...MANY, recipients: '+919876543210, twelve' }, 'To [1] must be a phone number such as +919876543210 (got "twelve")'),
	refused('Send to Many empty To', 'exotelMessaging', { ...MANY, recipients: '={{ "" }}' }, 'To is required'),
	refused('Send to Many body of 2001', 'exotelMessaging', { ...MANY, body: x(2001) }, 'Body is 2001 characters; the limit is 2000'),
	refused('Send to Many body of 2001 characters ending in emoji', 'exotelMessaging', { ...MANY, body: emoji(2001) }, 'Body is 2001 characters; the limit is 2000'),
	refused('Send to Many Track Clicks without Shorten URL', 'exotelMessaging', { ...MANY, additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'),
	refused('Send to Many empty From', 'exotelMessaging', { ...MANY, from: '={{ "" }}' }, 'From is required'),
	refused('Send to Many empty Body', 'exotelMessaging', { ...MANY, body: '={{ "" }}' }, 'Body is required'),
	refused('Send to Many bad Status Callback URL', 'exotelMessaging', { ...MANY, statusCallback: 'dlr' }, 'Status Callback URL must be an http(s) URL (got "dlr")'),
	refused('Send to Many bad Click Tracking Callback URL', 'exotelMessaging', { ...MANY, additionalFields: { shortenUrl: true, shortenUrlTracking: true, clickTrackingCallbackUrl: 'clicks' } }, 'Click Tracking Callback URL must be an http(s) URL (got "clicks")'),
	refused('Send to Many bad SMS Type (expression)', 'exotelMessaging', { ...MANY, additionalFields: { smsType: '={{ "otp" }}' } }, 'SMS Type must be one of promotional, transactional, transactional_opt_in (got "otp")'),
	refused('Send to Many bad Encoding Type (expression)', 'exotelMessaging', { ...MANY, additionalFields: { encodingType: '={{ "utf8" }}' } }, 'Encoding Type must be one of plain, unicode (got "utf8")'),
	refused('Send to Many bad Priority (expression)', 'exotelMessaging', { ...MANY, additionalFields: { priority: '={{ "urgent" }}' } }, 'Priority must be one of high, normal (got "urgent")'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'SMS', node: 'exotelMessaging', parameters: { ...SMS, body: '={{ $json.body }}' }, items: [{ body: 'ok' }, { body: x(2001) }], bad: 1, message: 'Body is 2001 characters; the limit is 2000 (item 1)' },
	{ family: 'SMS send to many', node: 'exotelMessaging', parameters: { ...MANY, recipients: '={{ $json.to }}' }, items: [{ to: 'twelve' }, { to: '+919876543210' }], bad: 0, message: 'To [0] must be a phone number such as +919876543210 (got "twelve") (item 0)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const sms = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '={{ $json.phone }}', body: 'Hello' };
const smsItems = [{ phone: '+919876543210' }, { phone: '0123456' }, { phone: '+919876543212' }];
const sendToMany = { resource: 'sms', operation: 'sendToMany', from: 'ACMEIN', body: 'Sale', recipients: '+919876543210, 0123456' };

const SECRET_CASES: SecretCase[] = [
	{ name: 'SMS send: success', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], outcome: 'ok' },
	{ name: 'SMS send: wrong API token (401)', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'SMS send: 207 partial failure, stop', node: 'exotelMessaging', parameters: sms, items: smsItems, outcome: 'error' },
	{ name: 'SMS send: 207 partial failure, continue', node: 'exotelMessaging', parameters: sms, items: smsItems, onError: 'continueRegularOutput', outcome: 'ok' },
	{ name: 'SMS send: 207 partial failure, error output', node: 'exotelMessaging', parameters: sms, items: smsItems, onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'SMS send: 429s past Rate Limit → Max Wait', node: 'exotelMessaging', parameters: { ...sms, ...giveUpSoon }, items: [{ phone: '+919876543210' }], faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'SMS send: 502 past the retry limit', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], faults: [storm(502)], outcome: 'error', httpCode: '502' },
	{ name: 'SMS send: connection reset before', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], faults: [[resetBefore, 6]], outcome: 'error' },
	{ name: 'SMS send: connection reset after (delivery unknown), continue', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], faults: [[resetAfter, 1]], onError: 'continueRegularOutput', outcome: 'any' },
	{ name: 'SMS send to many: success', node: 'exotelMessaging', parameters: { ...sendToMany, recipients: '+919876543210' }, outcome: 'ok' },
	{ name: 'SMS send to many: 207, error output', node: 'exotelMessaging', parameters: sendToMany, onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'SMS send to many: wrong API token (401)', node: 'exotelMessaging', parameters: sendToMany, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
];

const ECHO_CASES: SecretCase[] = [
	{
		name: 'API token and basic header echoed in a 400 (SMS)',
		node: 'exotelMessaging',
		parameters: sms,
		items: [{ phone: '+919876543210' }],
		faults: [[status(400, echo(SANDBOX_ACCOUNT.apiToken, `Basic ${b64(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken)}`)), 1]],
		outcome: 'error',
		httpCode: '400',
	},
];

describeNoSecrets(SECRET_CASES, ECHO_CASES);
