import type { IDataObject } from 'n8n-workflow';

import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, emoji, refused, x } from '../../helpers/bad-input';
import { basicAuthHeader, runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, storm, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { MESSAGE_FAILURES } from '../../../sandbox/handlers/messages';

const sandbox = useSandbox();

const MESSAGES_PATH = `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/messages`;
/** The envelope's request_id: 32 hex digits in the sandbox's answers. */
const REQUEST_ID = /^[0-9a-f]{32}$/;

/** The sid the sandbox gave the accepted message to each number. */
const storedSids = () => new Map(sandbox.rcsMessages().map((message) => [message.to, message.sid]));

const customers = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ phone: `+9198${String(20000000 + i)}`, name: `Customer ${i}`, order: `A-${1000 + i}` }));

const base = {
	resource: 'rcs',
	operation: 'sendTemplate',
	botId: 'acme_orders_bot',
	to: '={{ $json.phone }}',
	templateName: 'order_update',
	templateVariables: { TemplateParam1: '={{ $json.name }}', TemplateParam2: '={{ $json.order }}' },
};

function run(items: Array<Record<string, unknown>>, parameters: Record<string, unknown> = {}, onError?: 'continueErrorOutput') {
	return runNode(sandbox, 'exotelMessaging', { ...base, ...parameters }, items, { settings: { onError } });
}

describe('Exotel Messaging → RCS → Send Template', () => {
	it('sends the items as one JSON request with the spec’s message shape and pairs each entry', async () => {
		const items = customers(3);
		const result = await run(items);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'POST', path: MESSAGES_PATH, contentType: 'application/json', status: 202 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(request.json).toEqual({
			rcs: {
				messages: items.map((item) => ({
					from: 'acme_orders_bot',
					to: item.phone,
					content: { type: 'template', template: { name: 'order_update', variables: { TemplateParam1: item.name, TemplateParam2: item.order } } },
				})),
			},
		});
		const out = result.output('Exotel');
		const raw = (json: IDataObject) => json.raw as IDataObject;
		expect(out.map((item) => [item.pairedItem, item.json.to, item.json.status, item.json.code, raw(item.json).status, raw(item.json).code, raw(item.json).error_data])).toEqual(
			items.map((item, i) => [{ item: i }, item.phone, 'accepted', 200, 'success', 200, null]),
		);
		const stored = storedSids();
		expect(stored.size).toBe(3);
		// The vocabulary, the envelope's request id, then the service's entry untouched under raw.
		out.forEach((item, i) => {
			const sid = stored.get(items[i].phone);
			expect(sid).toEqual(expect.any(String));
			expect(item.json).toEqual({
				messageSid: sid,
				status: 'accepted',
				channel: 'rcs',
				to: items[i].phone,
				from: 'acme_orders_bot',
				code: 200,
				requestId: expect.stringMatching(REQUEST_ID),
				raw: { code: 200, error_data: null, status: 'success', data: { sid } },
			});
		});
		// One request, one envelope: every item carries its request_id.
		expect(new Set(out.map((item) => item.json.requestId)).size).toBe(1);
	});

	it('batches 150 items as 100 + 50, so the service’s 400 above 100 is never reached', async () => {
		const result = await run(customers(150));
		expect(result.error).toBeUndefined();
		const sizes = sandbox.requests().map((r) => (r.json as { rcs: { messages: unknown[] } }).rcs.messages.length);
		expect(sizes.sort((a, b) => b - a)).toEqual([100, 50]);
		const out = result.output('Exotel');
		expect(out.map((item) => item.json.to)).toEqual(customers(150).map((c) => c.phone));
		const stored = storedSids();
		expect(out.map((item) => [item.json.messageSid, item.json.status, item.json.channel])).toEqual(
			customers(150).map((c) => [stored.get(c.phone), 'accepted', 'rcs']),
		);
		// Two envelopes: the first 100 items share one request_id, the last 50 the other.
		const requestIds = out.map((item) => item.json.requestId);
		expect(new Set(requestIds.slice(0, 100)).size).toBe(1);
		expect(new Set(requestIds.slice(100)).size).toBe(1);
		expect(requestIds[0]).not.toBe(requestIds[100]);
		expect(requestIds.every((id) => REQUEST_ID.test(String(id)))).toBe(true);
	});

	it('adds the SMS fallback with every field of the fallback table', async () => {
		await run(customers(1), {
			smsFallback: true,
			fallbackFrom: 'ACMEIN',
			fallbackText: '=Hi {{ $json.name }}, order {{ $json.order }} shipped: https://acme.example/t/1',
			fallbackSmsType: 'transactional',
			fallbackOptions: {
				dltEntityId: '1101456789012345678',
				dltTemplateId: '1107161234567890123',
				encodingType: 'unicode',
				priority: 'normal',
				shortenUrl: true,
				customDomain: 'go.acme.example',
				tracking: true,
				clickTrackingCallbackUrl: 'https://example.com/webhook/clicks',
			},
		});
		expect(sandbox.requests()).toHaveLength(1);
		const message = (sandbox.requests()[0].json as { rcs: { messages: Array<Record<string, unknown>> } }).rcs.messages[0];
		expect(message.fallback).toEqual({
			from: 'ACMEIN',
			content: {
				text: 'Hi Customer 0, order A-1000 shipped: https://acme.example/t/1',
				sms_type: 'transactional',
				dlt_entity_id: '1101456789012345678',
				dlt_template_id: '1107161234567890123',
				encoding_type: 'unicode',
				priority: 'normal',
				shorten_url: true,
				shorten_url_params: {
					custom_domain: 'go.acme.example',
					tracking: true,
					click_tracking_callback_url: 'https://example.com/webhook/clicks',
				},
			},
		});
	});

	it('puts custom_data and status_callback at request, channel and message level', async () => {
		await run(customers(1), {
			statusCallback: 'https://example.com/hook/message',
			options: {
				customData: 'message-data',
				channelCustomData: 'channel-data',
				channelStatusCallback: 'https://example.com/hook/channel',
				requestCustomData: 'request-data',
				requestStatusCallback: 'https://example.com/hook/request',
			},
		});
		const body = sandbox.requests()[0].json as { custom_data: string; status_callback: string; rcs: { custom_data: string; status_callback: string; messages: unknown[] } };
		expect(body.custom_data).toBe('request-data');
		expect(body.status_callback).toBe('https://example.com/hook/request');
		expect(body.rcs.custom_data).toBe('channel-data');
		expect(body.rcs.status_callback).toBe('https://example.com/hook/channel');
		expect(body.rcs.messages[0]).toMatchObject({ custom_data: 'message-data', status_callback: 'https://example.com/hook/message' });
	});

	it('sends items whose request-level options differ in separate requests', async () => {
		const items = customers(4).map((c, i) => ({ ...c, campaign: i < 2 ? 'spring' : 'summer' }));
		const result = await run(items, { options: { requestCustomData: '={{ $json.campaign }}' } });
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().map((r) => (r.json as { custom_data: string }).custom_data).sort()).toEqual(['spring', 'summer']);
		const out = result.output('Exotel');
		expect(out.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		const requestIds = out.map((item) => item.json.requestId);
		expect(requestIds[0]).toBe(requestIds[1]);
		expect(requestIds[2]).toBe(requestIds[3]);
		expect(requestIds[0]).not.toBe(requestIds[2]);
		const stored = storedSids();
		expect(out.map((item) => [item.json.to, item.json.messageSid, item.json.status])).toEqual(items.map((c) => [c.phone, stored.get(c.phone), 'accepted']));
	});

	it('refuses a number that is not E.164 before anything is sent', async () => {
		const result = await run([...customers(2), { phone: '09876543210', name: 'X', order: 'B' }]);
		expect(result.error?.message).toBe('To must be an E.164 number such as +919876543210 (got "09876543210") (item 2)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('refuses a fallback without its mandatory text', async () => {
		const result = await run(customers(1), { smsFallback: true, fallbackFrom: 'ACMEIN', fallbackText: '={{ "" }}' });
		expect(result.error?.message).toBe('Fallback Text is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('a message the service refuses inside a 202 goes to the error output with its error_data', async () => {
		const items = customers(3);
		const result = await run(items, { templateName: `={{ $itemIndex === 1 ? 'not_a_template' : 'order_update' }}` }, 'continueErrorOutput');
		expect(sandbox.requests()).toHaveLength(1);
		const success = result.output('Exotel', 0);
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		const stored = storedSids();
		expect(stored.size).toBe(2);
		expect(success.map((item) => [item.json.to, item.json.messageSid, item.json.status])).toEqual([
			[items[0].phone, stored.get(items[0].phone), 'accepted'],
			[items[2].phone, stored.get(items[2].phone), 'accepted'],
		]);
		const [failed] = result.output('Exotel', 1);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect(failed.json.phone).toBe(items[1].phone);
		// The service's `failure` is `failed` in the vocabulary; its entry, error_data and all, is under raw.
		const refusal = MESSAGE_FAILURES.rcsTemplateNotApproved;
		const error = failed.json.error as IDataObject;
		expect(error).toEqual({
			message: `Message not accepted: ${refusal.message} (code ${refusal.code})`,
			description: expect.stringContaining('not_a_template'),
			messageSid: null,
			status: 'failed',
			channel: 'rcs',
			to: items[1].phone,
			from: 'acme_orders_bot',
			// the service's refusal code, as an SMS's is its DetailedStatusCode; the entry's own code is under raw
			code: refusal.code,
			requestId: success[0].json.requestId,
			raw: {
				code: refusal.httpCode,
				status: 'failure',
				data: null,
				error_data: { code: refusal.code, message: refusal.message, description: expect.stringContaining('not_a_template') },
			},
		});
		expect(error.description).toBe(((error.raw as IDataObject).error_data as IDataObject).description);
	});

	it('an envelope without an entry for a message marks that message unknown, not failed', async () => {
		const requestId = 'f'.repeat(32);
		sandbox.injectFaults({ kind: 'status', status: 202, body: { request_id: requestId, http_code: 202, response: { rcs: { messages: [] } } } }, 1);
		const items = customers(2);
		const result = await run(items, {}, 'continueErrorOutput');
		expect(sandbox.requests().map((r) => r.status)).toEqual([202]);
		expect(result.output('Exotel', 0)).toEqual([]);
		expect(result.output('Exotel', 1).map((item) => [item.pairedItem, item.json.error])).toEqual(
			items.map((item, i) => [
				{ item: i },
				{
					message: 'The service answered without an entry for this message',
					description: expect.any(String),
					messageSid: null,
					status: 'unknown',
					channel: 'rcs',
					to: item.phone,
					from: 'acme_orders_bot',
					code: null,
					raw: null,
					deliveryUnknown: true,
					requestId,
				},
			]),
		);
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const RCS = { resource: 'rcs', operation: 'sendTemplate', botId: 'acme_bot', to: '+919876543210', templateName: 'order_update' };
const FALLBACK = { smsFallback: true, fallbackFrom: 'ACMEIN', fallbackText: 'Your order shipped', fallbackSmsType: 'transactional' };

const REFUSED: RefusedCase[] = [
	refused('RCS non-E.164 To', 'exotelMessaging', { ...RCS, to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'),
	refused('RCS missing template name', 'exotelMessaging', { ...RCS, templateName: '={{ "" }}' }, 'Template Name is required'),
	refused('RCS missing bot ID', 'exotelMessaging', { ...RCS, botId: '={{ "" }}' }, 'Bot ID is required'),
	refused('RCS missing fallback text', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: '={{ "" }}' }, 'Fallback Text is required'),
	refused('RCS missing fallback from', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackFrom: '={{ "" }}' }, 'Fallback From is required'),
	refused('RCS fallback text of 2001', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: x(2001) }, 'Fallback Text is 2001 characters; the limit is 2000'),
	refused('RCS fallback text of 2001 characters ending in emoji', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: emoji(2001) }, 'Fallback Text is 2001 characters; the limit is 2000'),
	refused('RCS fallback tracking without shorten URL', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { tracking: true } }, 'Fallback Track Clicks needs Shorten URL turned on'),
	refused('RCS bad status callback URL', 'exotelMessaging', { ...RCS, statusCallback: 'hook' }, /^Status Callback URL must be an http\(s\) URL/),
	refused('RCS empty To', 'exotelMessaging', { ...RCS, to: '={{ "" }}' }, 'To is required'),
	refused('RCS bad request status callback URL', 'exotelMessaging', { ...RCS, options: { requestStatusCallback: 'hook' } }, 'Request Status Callback URL must be an http(s) URL (got "hook")'),
	refused('RCS bad channel status callback URL', 'exotelMessaging', { ...RCS, options: { channelStatusCallback: 'hook' } }, 'Channel Status Callback URL must be an http(s) URL (got "hook")'),
	refused('RCS bad fallback SMS type (expression)', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackSmsType: '={{ "otp" }}' }, 'Fallback SMS Type must be one of promotional, transactional, transactional_opt_in (got "otp")'),
	refused('RCS bad fallback encoding type (expression)', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { encodingType: '={{ "utf8" }}' } }, 'Fallback Encoding Type must be one of plain, unicode (got "utf8")'),
	refused('RCS bad fallback priority (expression)', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { priority: '={{ "urgent" }}' } }, 'Fallback Priority must be one of high, normal (got "urgent")'),
	refused('RCS bad fallback click tracking URL', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { shortenUrl: true, tracking: true, clickTrackingCallbackUrl: 'clicks' } }, 'Click Tracking Callback URL must be an http(s) URL (got "clicks")'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'RCS', node: 'exotelMessaging', parameters: { ...RCS, to: '={{ $json.to }}' }, items: [{ to: '+919876543210' }, { to: '09876543210' }], bad: 1, message: 'To must be an E.164 number such as +919876543210 (got "09876543210") (item 1)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'RCS: success', node: 'exotelMessaging', parameters: RCS, outcome: 'ok' },
	{ name: 'RCS: 202 with a failed entry (template not approved)', node: 'exotelMessaging', parameters: { ...RCS, templateName: 'not_approved' }, outcome: 'error' },
	{ name: 'RCS: 202 with a failed entry, error output', node: 'exotelMessaging', parameters: { ...RCS, templateName: 'not_approved' }, onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'RCS: wrong API token (401)', node: 'exotelMessaging', parameters: RCS, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'RCS: 500 past the retry limit', node: 'exotelMessaging', parameters: RCS, faults: [storm(500)], outcome: 'error', httpCode: '500' },
];

describeNoSecrets(SECRET_CASES);
