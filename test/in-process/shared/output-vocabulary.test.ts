/* eslint-disable @n8n/community-nodes/no-restricted-imports -- runs a local HTTP server (http, net); never shipped */
/**
 * One output vocabulary across the package (nodes/shared/output/vocabulary.ts, docs/nodes.md "Output:
 * the same keys everywhere"): every send on every channel, and the delivery report that comes back for it
 * through the Messaging Trigger, name a message with the same keys; every call operation and the
 * Voice Trigger name a call with the same keys. Run through n8n-core against the sandbox, with the
 * sandbox's own delivery reports and call callbacks fed to the triggers, so `{{ $json.messageSid }}`
 * after any send is the id its delivery report carries.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ExotelMessagingTrigger } from '../../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { ExotelVoiceTrigger } from '../../../nodes/ExotelVoiceTrigger/ExotelVoiceTrigger.node';
import { SANDBOX_CHATAPP_UNREACHABLE, sandboxCredentialData } from '../../../sandbox/fixtures';
import { MESSAGE_FAILURES } from '../../../sandbox/handlers/messages';
import type { CallbackAttempt, ExotelSandbox } from '../../../sandbox/server';
import { budget } from '../../harness/timeouts';
import { packageNode, SANDBOX_ACCOUNT, sandboxCredentials, startSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';
import { callWebhook } from '../../helpers/webhook-context';

const MESSAGE_KEYS = ['messageSid', 'status', 'channel', 'to', 'from', 'code'];
const CALL_KEYS = ['callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl'];
const SENDER = '+918047112233';
const FLOW = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/flowml/start_voice/926`;

let sandbox: ExotelSandbox;
let receiver: http.Server;
let callbackUrl: string;

beforeAll(async () => {
	sandbox = await startSandbox({ timeScale: 0.001 });
	// Acknowledges every callback, as n8n's webhook does; the bodies are read from the sandbox's log.
	receiver = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => res.end('ok'));
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook/exotel`;
});
afterAll(async () => {
	await sandbox.stop();
	await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(() => sandbox.reset());

async function send(node: string, parameters: Record<string, unknown>, items: IDataObject[]) {
	const result = await runWorkflow({
		nodes: [itemsNode('Items', items), packageNode(node, parameters as INodeParameters, { onError: 'continueRegularOutput' })],
		connections: chain('Items', 'Exotel'),
		credentials: sandboxCredentials(sandbox),
	});
	expect(result.error).toBeUndefined();
	return result.output('Exotel');
}

/** Every delivered callback of a kind, as the trigger of that family turns it into items. */
async function triggerItems(kind: CallbackAttempt['kind'], count: number): Promise<IDataObject[]> {
	const log = await sandbox.waitForCallbacks((l) => l.filter((a) => a.kind === kind && a.outcome === 'delivered').length >= count, budget(30_000));
	const items: IDataObject[] = [];
	for (const attempt of log.filter((a) => a.kind === kind && a.outcome === 'delivered')) {
		const contentType = (attempt.headers['content-type'] ?? 'application/json').split(';')[0].trim();
		const answer = await callWebhook(kind === 'call-status' ? new ExotelVoiceTrigger() : new ExotelMessagingTrigger(), {
			rawBody: attempt.body,
			contentType,
			headers: attempt.headers['x-service-signature'] ? { 'X-Service-Signature': attempt.headers['x-service-signature'] } : {},
			parameters:
				kind === 'call-status'
					? { events: ['callStatus'], statuses: '' }
					: { events: ['chatAppStatus', 'rcsDeliveryReport', 'smsStatus'], statuses: [] },
			credentials: sandboxCredentialData('http://127.0.0.1:1').exotelApi as IDataObject,
		});
		expect(answer.status).toBe(200);
		items.push(...(answer.workflowData ?? []));
	}
	return items;
}

function expectMessageShape(json: IDataObject, channel: string) {
	const keys = Object.keys(json);
	expect(keys.filter((key) => MESSAGE_KEYS.includes(key))).toEqual(MESSAGE_KEYS);
	expect(keys.indexOf('code') - keys.indexOf('messageSid')).toBe(MESSAGE_KEYS.length - 1);
	expect(json.channel).toBe(channel);
	expect(keys[keys.length - 1]).toBe(json.error === undefined ? 'raw' : 'error');
}

function expectCallShape(json: IDataObject) {
	const keys = Object.keys(json);
	expect(keys.filter((key) => CALL_KEYS.includes(key))).toEqual(CALL_KEYS);
	expect(keys[keys.length - 1]).toBe('raw');
}

describe('one vocabulary for messages: every send and its delivery report', () => {
	const phones = ['+919812340001', '+919812340002'];

	it('SMS Send: messageSid, status, channel, to, from, code; the SMSMessage under raw; the report carries the same messageSid', async () => {
		const out = await send(
			'exotelMessaging',
			{ resource: 'sms', operation: 'send', from: SENDER, to: '={{ $json.phone }}', body: 'Your order shipped', statusCallback: callbackUrl },
			[{ phone: phones[0] }, { phone: '0123456' }, { phone: phones[1] }],
		);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const item of out) expectMessageShape(item.json, 'sms');
		const stored = sandbox.messages();
		expect(out.map((item) => [item.json.messageSid, item.json.status, item.json.to, item.json.from])).toEqual([
			[stored[0].sid, 'queued', phones[0], SENDER],
			[null, 'failed', '0123456', SENDER],
			[stored[1].sid, 'queued', phones[1], SENDER],
		]);
		expect(out[1].json).toMatchObject({ code: 23010, error: 'Message not accepted: FAILED_INVALID_DESTINATION_NUMBER (23010)' });
		expect((out[0].json.raw as IDataObject).Sid).toBe(stored[0].sid);

		const reports = await triggerItems('sms-status', 2);
		for (const report of reports) expectMessageShape(report, 'sms');
		expect(reports.map((report) => report.messageSid).sort()).toEqual([out[0].json.messageSid, out[2].json.messageSid].sort());
	});

	it('SMS Send to Many (static and dynamic bulk): one item per recipient in the same keys', async () => {
		for (const additionalFields of [{}, { smsType: 'transactional' }]) {
			sandbox.reset();
			const out = await send(
				'exotelMessaging',
				{ resource: 'sms', operation: 'sendToMany', from: SENDER, recipients: phones.join(','), body: 'Store closes at 6', additionalFields },
				[{}],
			);
			const stored = sandbox.messages();
			expect(stored.map((message) => message.endpoint)).toEqual(Object.keys(additionalFields).length ? ['bulksend', 'bulksend'] : ['send', 'send']);
			for (const item of out) expectMessageShape(item.json, 'sms');
			expect(out.map((item) => [item.json.messageSid, item.json.status, item.json.to, item.pairedItem])).toEqual([
				[stored[0].sid, 'queued', phones[0], { item: 0 }],
				[stored[1].sid, 'queued', phones[1], { item: 0 }],
			]);
		}
	});

	it('RCS Send Template: the same keys (status accepted / failed), the envelope entry under raw; the report carries the same messageSid', async () => {
		const out = await send(
			'exotelMessaging',
			{
				resource: 'rcs',
				operation: 'sendTemplate',
				botId: 'acme_orders_bot',
				to: '={{ $json.phone }}',
				templateName: '={{ $json.template }}',
				options: { requestStatusCallback: callbackUrl },
			},
			[{ phone: phones[0], template: 'order_update' }, { phone: phones[1], template: 'not_a_template' }],
		);
		for (const item of out) expectMessageShape(item.json, 'rcs');
		const stored = sandbox.rcsMessages();
		expect(stored).toHaveLength(1);
		expect(out.map((item) => [item.json.messageSid, item.json.status, item.json.to, item.json.from])).toEqual([
			[stored[0].sid, 'accepted', phones[0], 'acme_orders_bot'],
			[null, 'failed', phones[1], 'acme_orders_bot'],
		]);
		expect(out[0].json.raw).toMatchObject({ status: 'success', data: { sid: stored[0].sid } });
		expect(out[1].json.error).toMatch(/^Message not accepted/);
		// `code` of a refused message is the service's refusal code (error_data.code), as an SMS's is its
		// DetailedStatusCode; the entry's own code stays under raw.
		const refusal = MESSAGE_FAILURES.rcsTemplateNotApproved;
		expect([out[1].json.code, (out[1].json.raw as IDataObject).code]).toEqual([refusal.code, refusal.httpCode]);

		const reports = await triggerItems('rcs-dlr', 1);
		expect(reports.length).toBeGreaterThan(0);
		for (const report of reports) expectMessageShape(report, String(report.channel));
		expect(new Set(reports.map((report) => report.messageSid))).toEqual(new Set([out[0].json.messageSid]));
	});

	it('RCS with an SMS fallback: the fallback entries of the report say their status in the same words, by the SMS codes', async () => {
		const delivered = '+919812340077'; // not RCS capable: the fallback SMS is delivered (20005)
		const notTriggered = '+919812340076'; // not RCS capable, and the fallback could not be triggered (24010)
		const out = await send(
			'exotelMessaging',
			{
				resource: 'rcs',
				operation: 'sendTemplate',
				botId: 'acme_orders_bot',
				to: '={{ $json.phone }}',
				templateName: 'order_update',
				smsFallback: true,
				fallbackFrom: 'ACMEIN',
				fallbackText: 'Your order shipped',
				fallbackSmsType: 'transactional',
				options: { requestStatusCallback: callbackUrl },
			},
			[{ phone: delivered }, { phone: notTriggered }],
		);
		expect(out.map((item) => item.json.status)).toEqual(['accepted', 'accepted']);

		const reports = await triggerItems('rcs-dlr', 2);
		for (const report of reports) expectMessageShape(report, String(report.channel));
		const byChannel = (channel: string) =>
			reports
				.filter((report) => report.channel === channel)
				.map((report) => [report.to, report.status, report.code, (report.raw as IDataObject).exo_detailed_status, report.fallback ?? false])
				.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
		expect(byChannel('rcs')).toEqual([
			[notTriggered, 'failed', 40004, 'EX_SYSTEM_ERROR', false],
			[delivered, 'failed', 40004, 'EX_SYSTEM_ERROR', false],
		]);
		// The service's words (DELIVERED_TO_HANDSET) stay under raw; `status` is the vocabulary's.
		expect(byChannel('sms')).toEqual([
			[notTriggered, 'failed', 24010, 'FAILED_SYSTEM_ERROR', true],
			[delivered, 'delivered', 20005, 'DELIVERED_TO_HANDSET', true],
		]);
		expect(reports.every((report) => ['sent', 'delivered', 'seen', 'failed'].includes(String(report.status)))).toBe(true);
	});

	it('Chat App Send: the same keys; the report carries the same messageSid', async () => {
		const business = '+919876500000';
		const out = await send(
			'exotelMessaging',
			{ resource: 'chatApp', operation: 'send', from: business, to: '={{ $json.phone }}', messageType: 'text', text: 'Hello', statusCallback: callbackUrl },
			[{ phone: phones[0] }, { phone: SANDBOX_CHATAPP_UNREACHABLE[0] }],
		);
		for (const item of out) expectMessageShape(item.json, 'chatapp');
		const stored = sandbox.chatAppMessages();
		expect(out.map((item) => [item.json.messageSid, item.json.status, item.json.to, item.json.from])).toEqual([
			[stored[0].sid, 'accepted', phones[0], business],
			[null, 'failed', SANDBOX_CHATAPP_UNREACHABLE[0], business],
		]);
		// the refusal's own code (30012 INVALID_RECIPIENT), not the entry's HTTP-like 400 (kept under raw)
		const refusal = MESSAGE_FAILURES.chatAppInvalidRecipient;
		expect([out[1].json.code, (out[1].json.raw as IDataObject).code]).toEqual([refusal.code, refusal.httpCode]);

		const reports = await triggerItems('chatapp-status', 1);
		for (const report of reports) expectMessageShape(report, 'chatapp');
		expect(new Set(reports.map((report) => report.messageSid))).toEqual(new Set([out[0].json.messageSid]));
	});
});

describe('one vocabulary for calls: every call operation and the call callback', () => {
	it('Connect, Get, Get Many and the Voice Trigger name the same call with the same keys', async () => {
		const connected = await send(
			'exotelVoice',
			{ resource: 'call', operation: 'connect', from: '+919876543210', callerId: SENDER, url: FLOW, statusCallback: callbackUrl },
			[{}],
		);
		expectCallShape(connected[0].json);
		const callSid = connected[0].json.callSid as string;
		expect(callSid).toEqual((connected[0].json.raw as IDataObject).Sid);
		expect(connected[0].json.from).toBe('+919876543210');

		const got = await send('exotelVoice', { resource: 'call', operation: 'get', callSid: '={{ $json.callSid }}' }, [{ callSid }]);
		expectCallShape(got[0].json);
		expect(got[0].json.callSid).toBe(callSid);

		const many = await send('exotelVoice', { resource: 'call', operation: 'getMany', limit: 5 }, [{}]);
		expect(many.length).toBeGreaterThan(0);
		for (const item of many) expectCallShape(item.json);
		expect(many.every((item) => typeof item.json.callSid === 'string' && typeof item.json.duration !== 'string')).toBe(true);

		const reports = await triggerItems('call-status', 1);
		for (const report of reports) expectCallShape(report);
		expect(reports.map((report) => report.callSid)).toContain(callSid);
	});

	it('Get Details and Campaign Get Call Details use the same keys', async () => {
		const many = await send('exotelVoice', { resource: 'call', operation: 'getMany', limit: 1 }, [{}]);
		const details = await send('exotelVoice', { resource: 'call', operation: 'getDetails', callSid: '={{ $json.callSid }}' }, [{ callSid: many[0].json.callSid }]);
		expectCallShape(details[0].json);
		expect(details[0].json.callSid).toBe(many[0].json.callSid);

		const records = await send('exotelVoice', { resource: 'campaign', operation: 'getCallDetails', campaignId: 'cmp-inprogress', limit: 3 }, [{}]);
		expect(records).toHaveLength(3);
		for (const record of records) {
			expectCallShape(record.json);
			const raw = record.json.raw as IDataObject;
			expect([record.json.to, record.json.from, record.json.callSid]).toEqual([raw.number, raw.caller_id, raw.call_sid ?? null]);
		}
	});
});
