/**
 * DLT pre-flight at the wire (in n8n-core, against the sandbox): with DLT Template Text set, by
 * expression per item, a message that differs from its template fails its item before any request,
 * nothing is sent for it, and the others go out and come back paired; the option itself never goes
 * on the wire. SMS → Check Against DLT Template sends nothing and tells, per item, what matched.
 */
import type { IDataObject } from 'n8n-workflow';

import { formFields, runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';

const sandbox = useSandbox();

const BULK_PATH = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`;
const SEND_PATH = `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/send`;
const TEMPLATE = 'Dear {#var#}, your order {#var#} of Rs. {#var#} has shipped. - Acme';

/** Four customers; the second's text writes "Rs" without its full stop, the fourth's name is 32 characters. */
const ITEMS = [
	{ phone: '+919876543210', name: 'Asha', order: 'ORD-4721', amount: '499', rs: 'Rs.' },
	{ phone: '+919876543211', name: 'Ravi', order: 'ORD-4722', amount: '1,299', rs: 'Rs' },
	{ phone: '+919876543212', name: 'Meera', order: 'ORD-4723', amount: '89', rs: 'Rs.' },
	{ phone: '+919876543213', name: 'Venkatanarasimharajuvaripeta Rao', order: 'ORD-4724', amount: '150', rs: 'Rs.' },
];

const sms = (extra: IDataObject = {}) => ({
	resource: 'sms',
	operation: 'send',
	from: 'ACMEIN',
	to: '={{ $json.phone }}',
	body: '=Dear {{ $json.name }}, your order {{ $json.order }} of {{ $json.rs }} {{ $json.amount }} has shipped. - Acme',
	additionalFields: { dltTemplateId: '1107161234567890123', dltTemplateText: '={{ $json.template }}' },
	...extra,
});

const withTemplate = (items: IDataObject[]) => items.map((item) => ({ ...item, template: TEMPLATE }));

describe('Exotel Messaging → SMS → Send with DLT Template Text', () => {
	it('stops before any request when an item differs, naming where', async () => {
		const result = await runNode(sandbox, 'exotelMessaging', sms(), withTemplate(ITEMS));
		expect(result.error?.message).toBe('Body differs from the DLT template at character 37: the template has "Rs." and the body "Rs " (item 1)');
		expect(result.error?.description).toContain('Nothing was sent for this item');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('with Continue On Fail, sends the matching items in one request and marks the others, each paired to its item', async () => {
		const result = await runNode(sandbox, 'exotelMessaging', sms(), withTemplate(ITEMS), { settings: { onError: 'continueRegularOutput' } });
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].path).toBe(BULK_PATH);
		expect(requests[0].form).toEqual([
			['From', 'ACMEIN'],
			['Messages[0][To]', '+919876543210'],
			['Messages[0][Body]', 'Dear Asha, your order ORD-4721 of Rs. 499 has shipped. - Acme'],
			['Messages[0][DltTemplateId]', '1107161234567890123'],
			['Messages[1][To]', '+919876543212'],
			['Messages[1][Body]', 'Dear Meera, your order ORD-4723 of Rs. 89 has shipped. - Acme'],
			['Messages[1][DltTemplateId]', '1107161234567890123'],
		]);
		// the template text is the node's own check: not a field of the service's request
		expect(JSON.stringify(requests[0].form)).not.toContain('{#var#}');
		const out = result.output('Exotel');
		expect(out.map((item) => [item.pairedItem, item.json.status ?? null, item.json.error ?? null])).toEqual([
			[{ item: 0 }, 'queued', null],
			[{ item: 1 }, null, 'Body differs from the DLT template at character 37: the template has "Rs." and the body "Rs " (item 1)'],
			[{ item: 2 }, 'queued', null],
			[{ item: 3 }, null, 'Variable 1 is 32 characters; DLT allows 30 (item 3)'],
		]);
		expect(sandbox.messages().map((message) => message.to)).toEqual(['+919876543210', '+919876543212']);
	});

	it('checks only the items that carry a template (the expression empty: no check)', async () => {
		const items = ITEMS.slice(0, 2).map((item, i) => ({ ...item, template: i === 0 ? TEMPLATE : '' }));
		const result = await runNode(sandbox, 'exotelMessaging', sms(), items);
		expect(result.error).toBeUndefined();
		expect(formFields(sandbox.requests()[0].form)['Messages[1][Body]']).toEqual(['Dear Ravi, your order ORD-4722 of Rs 1,299 has shipped. - Acme']);
	});

	it('Send to Many checks the one body once for all its recipients', async () => {
		const parameters = {
			resource: 'sms',
			operation: 'sendToMany',
			from: 'ACMEIN',
			recipients: '+919876543210, +919876543211',
			body: 'Your OTP is 482913. Do not share it.',
			additionalFields: { dltTemplateText: 'Your OTP is {#var#}. Do not share it. - Acme' },
		};
		const result = await runNode(sandbox, 'exotelMessaging', parameters, [{}]);
		expect(result.error?.message).toBe(
			'Body differs from the DLT template at character 37: the template goes on with " - Acme" and the body ends (item 0)',
		);
		expect(sandbox.requests()).toHaveLength(0);
		const fixed = await runNode(sandbox, 'exotelMessaging', { ...parameters, body: 'Your OTP is 482913. Do not share it. - Acme' }, [{}]);
		expect(fixed.error).toBeUndefined();
		expect(sandbox.requests().map((request) => request.path)).toEqual([SEND_PATH]);
	});
});

describe('Exotel Messaging → RCS → Send Template: the SMS fallback\'s DLT Template Text', () => {
	const rcs = {
		resource: 'rcs',
		operation: 'sendTemplate',
		botId: 'acme_orders_bot',
		to: '={{ $json.phone }}',
		templateName: 'order_update',
		templateVariables: { TemplateParam1: '={{ $json.name }}' },
		smsFallback: true,
		fallbackFrom: 'ACMEIN',
		fallbackText: '=Hi {{ $json.name }}, your order has shipped',
		fallbackSmsType: 'transactional',
		fallbackOptions: { dltTemplateId: '1107161234567890124', dltTemplateText: 'Hi {#var#}, your order has shipped. - Acme' },
	};

	it('fails the item whose fallback text differs, before anything is sent', async () => {
		const result = await runNode(sandbox, 'exotelMessaging', rcs, [{ phone: '+919820000000', name: 'Asha' }]);
		expect(result.error?.message).toBe(
			'Fallback Text differs from the DLT template at character 32: the template goes on with ". - Acme" and the fallback text ends (item 0)',
		);
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('sends a matching fallback as given, without the template text', async () => {
		const result = await runNode(sandbox, 'exotelMessaging', { ...rcs, fallbackText: '=Hi {{ $json.name }}, your order has shipped. - Acme' }, [
			{ phone: '+919820000000', name: 'Asha' },
		]);
		expect(result.error).toBeUndefined();
		const message = (sandbox.requests()[0].json as { rcs: { messages: IDataObject[] } }).rcs.messages[0];
		expect(message.fallback).toEqual({
			from: 'ACMEIN',
			content: { text: 'Hi Asha, your order has shipped. - Acme', sms_type: 'transactional', dlt_template_id: '1107161234567890124' },
		});
	});
});

describe('Exotel Messaging → SMS → Check Against DLT Template', () => {
	it('sends nothing and gives, per item, whether it matches, its variables and the first difference', async () => {
		const parameters = {
			resource: 'sms',
			operation: 'checkDltTemplate',
			body: '=Dear {{ $json.name }}, your order {{ $json.order }} of {{ $json.rs }} {{ $json.amount }} has shipped. - Acme',
			dltTemplateText: TEMPLATE,
		};
		const result = await runNode(sandbox, 'exotelMessaging', parameters, ITEMS);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toHaveLength(0);
		expect(result.output('Exotel').map((item) => [item.pairedItem, item.json])).toEqual([
			[{ item: 0 }, { matches: true, variables: ['Asha', 'ORD-4721', '499'], difference: null }],
			[
				{ item: 1 },
				{
					matches: false,
					variables: ['Ravi'],
					difference: {
						message: 'Body differs from the DLT template at character 37: the template has "Rs." and the body "Rs "',
						character: 37,
						variable: null,
						length: null,
					},
				},
			],
			[{ item: 2 }, { matches: true, variables: ['Meera', 'ORD-4723', '89'], difference: null }],
			[
				{ item: 3 },
				{
					matches: false,
					variables: ['Venkatanarasimharajuvaripeta Rao', 'ORD-4724', '150'],
					difference: { message: 'Variable 1 is 32 characters; DLT allows 30', character: null, variable: 1, length: 32 },
				},
			],
		]);
	});

	it('refuses an empty template text, naming the item', async () => {
		const result = await runNode(sandbox, 'exotelMessaging', { resource: 'sms', operation: 'checkDltTemplate', body: 'Hello', dltTemplateText: '={{ "" }}' }, [{}]);
		expect(result.error?.message).toBe('DLT Template Text is required (item 0)');
	});
});
