/* eslint-disable @n8n/community-nodes/no-restricted-globals -- polls with setTimeout; never shipped */
/**
 * DLT scrubbing in the sandbox (dlt.ts): given templates (`--dlt-template ID=TEXT`), an SMS sent with
 * one of their DltTemplateIds is accepted, then fails its delivery report with 23185
 * DLT_TEMPLATE_DOES_NOT_MATCH when its text differs, as the operators fail it after it was paid for.
 */
import { parseCliOptions } from './cli';
import { SANDBOX_ACCOUNT } from './fixtures';
import { Receiver, sandboxCall } from './receiver';
import { ExotelSandbox } from './server';
import { budget } from './timing';

const BULK = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`;
const TEMPLATE_ID = '1107161234567890123';
const TEMPLATE = 'Dear {#var#}, your order {#var#} has shipped. - Acme';

const rx = new Receiver();
let sandbox: ExotelSandbox;
let origin: string;

beforeAll(async () => {
	await rx.start();
	sandbox = new ExotelSandbox({ timeScale: 0.001, dltTemplates: { [TEMPLATE_ID]: TEMPLATE } });
	origin = await sandbox.start();
});

afterAll(async () => {
	await sandbox.stop();
	await rx.stop();
});

async function reports(path: string, n: number): Promise<Array<Record<string, string>>> {
	const deadline = Date.now() + budget(3000);
	while (rx.at(path).length < n) {
		if (Date.now() > deadline) throw new Error(`expected ${n} reports, got ${rx.at(path).length}`);
		await new Promise((r) => setTimeout(r, 5));
	}
	return rx.at(path).map((r) => Object.fromEntries(new URLSearchParams(r.text)));
}

it('accepts every message, then fails the one that differs from its template with 23185 and delivers the others', async () => {
	const path = '/dlt/1';
	const res = await sandboxCall<Array<{ SMSMessage: { Status: string } }>>(origin, 'POST', BULK, undefined, [
		['From', 'EXOTEL'],
		['Messages[0][To]', '+919812340001'],
		['Messages[0][Body]', 'Dear Asha, your order ORD-4721 has shipped. - Acme'],
		['Messages[0][DltTemplateId]', TEMPLATE_ID],
		['Messages[1][To]', '+919812340002'],
		['Messages[1][Body]', 'Dear Ravi, your order ORD-4722 has shipped.'],
		['Messages[1][DltTemplateId]', TEMPLATE_ID],
		['Messages[2][To]', '+919812340003'],
		['Messages[2][Body]', 'Anything at all'],
		['Messages[2][DltTemplateId]', '1107169999999999999'],
		['StatusCallback', rx.url(path)],
	]);
	// the service takes them all: scrubbing happens at the operator, after the send
	expect(res.status).toBe(200);
	expect(res.body.map((entry) => entry.SMSMessage.Status)).toEqual(['queued', 'queued', 'queued']);
	const byTo = Object.fromEntries((await reports(path, 3)).map((form) => [form.To, form]));
	expect(byTo['+919812340001']).toMatchObject({ Status: 'sent', DetailedStatusCode: '20005' });
	expect(byTo['+919812340002']).toMatchObject({ Status: 'failed', DetailedStatus: 'DLT_TEMPLATE_DOES_NOT_MATCH', DetailedStatusCode: '23185' });
	// a template id the sandbox was not given is not checked
	expect(byTo['+919812340003']).toMatchObject({ Status: 'sent', DetailedStatusCode: '20005' });
});

it('fails a variable over 30 characters the same way', async () => {
	const path = '/dlt/2';
	await sandboxCall(origin, 'POST', BULK, undefined, [
		['From', 'EXOTEL'],
		['Messages[0][To]', '+919812340004'],
		['Messages[0][Body]', `Dear ${'A'.repeat(31)}, your order ORD-4721 has shipped. - Acme`],
		['Messages[0][DltTemplateId]', TEMPLATE_ID],
		['StatusCallback', rx.url(path)],
	]);
	const [report] = await reports(path, 1);
	expect(report).toMatchObject({ Status: 'failed', DetailedStatusCode: '23185' });
});

it('takes its templates from --dlt-template ID=TEXT, repeatable', () => {
	const options = parseCliOptions(['--dlt-template', `${TEMPLATE_ID}=${TEMPLATE}`, '--dlt-template=42=Your OTP is {#var#}.\\nTeam Acme']);
	expect(options.dltTemplates).toEqual({ [TEMPLATE_ID]: TEMPLATE, 42: 'Your OTP is {#var#}.\nTeam Acme' });
	expect(() => parseCliOptions(['--dlt-template', 'nothing'])).toThrow('ID=TEXT');
});
