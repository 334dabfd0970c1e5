import type { IDataObject } from 'n8n-workflow';

import { formFields, runNode, SANDBOX_ACCOUNT, useSandbox } from '../helpers/exotel';
import { SMS_DETAILED_STATUS, SMS_FROM_SUFFIX } from '../sandbox/handlers/sms';

const sandbox = useSandbox();

/** The sid the sandbox gave the accepted message to each number. */
const storedSids = () => new Map(sandbox.messages().map((message) => [message.to, message.sid]));
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
