import type { INodeParameters } from 'n8n-workflow';

import { formFields, packageNode, SANDBOX_ACCOUNT, sandboxCredentials, startSandbox } from '../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../helpers/n8n-core-harness';
import type { ExotelSandbox } from '../sandbox/server';

let sandbox: ExotelSandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
beforeEach(() => sandbox.reset());

const numbers = (count: number, offset = 0) =>
	Array.from({ length: count }, (_, i) => `+9198${String(10000000 + i + offset).padStart(8, '0')}`);

function run(items: Array<Record<string, unknown>>, parameters: Record<string, unknown>, onError?: 'continueErrorOutput') {
	return runWorkflow({
		nodes: [
			itemsNode('Items', items),
			packageNode(
				'exotelMessaging',
				{ resource: 'sms', operation: 'sendToMany', from: 'ACMEIN', body: 'Sale ends tonight', ...parameters } as INodeParameters,
				{ onError },
			),
		],
		connections: chain('Items', 'Exotel'),
		credentials: sandboxCredentials(sandbox),
	});
}

describe('Exotel Messaging → SMS → Send to Many (static bulk)', () => {
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
		expect(out.map((item) => item.json.To)).toEqual(list);
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
		expect(result.output('Exotel').map((item) => [item.pairedItem, item.json.To])).toEqual([
			[{ item: 0 }, '+919876543210'],
			[{ item: 0 }, '+919876543211'],
			[{ item: 1 }, '+919876543212'],
			[{ item: 1 }, '+919876543213'],
		]);
	});

	it('sends the optional fields with the names the spec gives them', async () => {
		await run([{}], {
			recipients: '+919876543210',
			statusCallback: 'https://example.com/webhook/exotel-messaging',
			additionalFields: {
				dltEntityId: '1101456789012345678',
				dltTemplateId: '1107161234567890123',
				smsType: 'promotional',
				shortenUrl: true,
				shortenUrlHeader: 'ACMEIN',
				shortenUrlTracking: true,
				clickTrackingCallbackUrl: 'https://example.com/webhook/clicks',
				customField: 'campaign-9',
			},
		});
		expect(sandbox.requests()[0].form).toEqual([
			['From', 'ACMEIN'],
			['To[]', '+919876543210'],
			['Body', 'Sale ends tonight'],
			['CustomField', 'campaign-9'],
			['DltEntityId', '1101456789012345678'],
			['StatusCallback', 'https://example.com/webhook/exotel-messaging'],
			['ShortenUrl', 'true'],
			['ShortenUrlParams[Header]', 'ACMEIN'],
			['ShortenUrlParams[Tracking]', 'true'],
			['ShortenUrlParams[ClickTrackingCallbackUrl]', 'https://example.com/webhook/clicks'],
			['SmsType', 'promotional'],
			['DltTemplateId', '1107161234567890123'],
		]);
	});

	it('refuses a bad recipient before sending, naming its position', async () => {
		const result = await run([{}], { recipients: '+919876543210, twelve' });
		expect(result.error?.message).toBe('To [1] must be a phone number such as +919876543210 (got "twelve") (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('routes recipients the service refused (207) to the error output, the rest to success', async () => {
		const result = await run([{ customer: 'A' }], { recipients: '+919876543210, 0123456, +919876543211' }, 'continueErrorOutput');
		expect(sandbox.requests()[0].status).toBe(207);
		expect(result.output('Exotel', 0).map((item) => item.json.To)).toEqual(['+919876543210', '+919876543211']);
		const failed = result.output('Exotel', 1);
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({
			customer: 'A',
			error: { DetailedStatusCode: 23010, Status: 'failed', message: 'Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)' },
		});
	});
});
