import type { IDataObject } from 'n8n-workflow';

import { runNode, SANDBOX_ACCOUNT, useSandbox } from '../helpers/exotel';
import { SANDBOX_CHATAPP_UNREACHABLE } from '../sandbox/fixtures';
import { MESSAGE_FAILURES } from '../sandbox/handlers/messages';

const sandbox = useSandbox();

const FROM = '+918047112233';
const TO = '+919876543210';
/** The envelope's request_id: 32 hex digits in the sandbox's answers. */
const REQUEST_ID = /^[0-9a-f]{32}$/;

function run(parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], onError?: 'continueErrorOutput') {
	return runNode(sandbox, 'exotelMessaging', { resource: 'chatApp', operation: 'send', from: FROM, to: TO, ...parameters }, items, { settings: { onError } });
}

const rows = (count: number, section = '', offset = 0) =>
	Array.from({ length: count }, (_, i) => ({ sectionTitle: section, id: `slot-${i + offset}`, title: `Slot ${i + offset}`, description: 'Morning' }));

describe('Exotel Messaging → Chat App → Send', () => {
	it.each([
		['text', { messageType: 'text', text: 'Your order shipped: https://acme.example/t/1', previewUrl: true }, { type: 'text', text: { body: 'Your order shipped: https://acme.example/t/1', preview_url: true } }],
		['image', { messageType: 'image', mediaUrl: 'https://acme.example/a.jpg', caption: 'Your parcel' }, { type: 'image', image: { link: 'https://acme.example/a.jpg', caption: 'Your parcel' } }],
		['audio', { messageType: 'audio', mediaUrl: 'https://acme.example/a.mp3' }, { type: 'audio', audio: { link: 'https://acme.example/a.mp3' } }],
		['video', { messageType: 'video', mediaUrl: 'https://acme.example/a.mp4', caption: 'How to' }, { type: 'video', video: { link: 'https://acme.example/a.mp4', caption: 'How to' } }],
		['document', { messageType: 'document', mediaUrl: 'https://acme.example/i.pdf', caption: 'Invoice', filename: 'invoice-1042.pdf' }, { type: 'document', document: { link: 'https://acme.example/i.pdf', caption: 'Invoice', filename: 'invoice-1042.pdf' } }],
		['sticker', { messageType: 'sticker', mediaUrl: 'https://acme.example/s.webp' }, { type: 'sticker', sticker: { link: 'https://acme.example/s.webp' } }],
		['location', { messageType: 'location', latitude: 12.9716, longitude: 77.5946, locationName: 'Acme Store', locationAddress: 'MG Road, Bengaluru' }, { type: 'location', location: { latitude: 12.9716, longitude: 77.5946, name: 'Acme Store', address: 'MG Road, Bengaluru' } }],
		[
			'contacts',
			{ messageType: 'contacts', contacts: { contact: [{ firstName: 'Asha', lastName: 'Rao', phone: '+919876543211', phoneType: 'CELL', email: 'asha@acme.example', emailType: 'WORK', company: 'Acme', title: 'Support' }] } },
			{ type: 'contacts', contacts: [{ name: { formatted_name: 'Asha Rao', first_name: 'Asha', last_name: 'Rao' }, phones: [{ phone: '+919876543211', type: 'CELL' }], emails: [{ email: 'asha@acme.example', type: 'WORK' }], org: { company: 'Acme', title: 'Support' } }] },
		],
		[
			'reply buttons',
			{ messageType: 'button', headerType: 'text', headerText: 'Delivery', bodyText: 'Is now a good time?', footerText: 'Acme', buttons: { button: [{ id: 'yes', title: 'Yes' }, { id: 'later', title: 'Later' }] } },
			{ type: 'interactive', interactive: { type: 'button', header: { type: 'text', text: 'Delivery' }, body: { text: 'Is now a good time?' }, footer: { text: 'Acme' }, action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }, { type: 'reply', reply: { id: 'later', title: 'Later' } }] } } },
		],
		[
			'list',
			{ messageType: 'list', headerType: 'image', headerMediaUrl: 'https://acme.example/h.jpg', bodyText: 'Pick a slot', listButton: 'Choose', rows: { row: [...rows(2, 'Monday'), ...rows(1, 'Tuesday', 2)] } },
			{ type: 'interactive', interactive: { type: 'list', header: { type: 'image', image: { link: 'https://acme.example/h.jpg' } }, body: { text: 'Pick a slot' }, action: { button: 'Choose', sections: [{ title: 'Monday', rows: rows(2).map(({ sectionTitle: _, ...row }) => row) }, { title: 'Tuesday', rows: rows(1, '', 2).map(({ sectionTitle: _, ...row }) => row) }] } } },
		],
	])('%s: builds the spec’s content object and sends it as JSON', async (_name, parameters, content) => {
		const result = await run({ ...parameters, statusCallback: 'https://example.com/webhook/exotel', options: { customData: 'ticket-7' } });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/messages`,
			contentType: 'application/json',
			status: 202,
		});
		expect(request.json).toEqual({
			from: FROM,
			to: TO,
			content: { recipient_type: 'individual', ...content },
			status_callback: 'https://example.com/webhook/exotel',
			custom_data: 'ticket-7',
		});
		const [stored] = sandbox.chatAppMessages();
		expect(stored).toMatchObject({ from: FROM, to: TO, sid: expect.any(String) });
		// The vocabulary, the envelope's request id, then the service's entry untouched under raw.
		const out = result.output('Exotel');
		expect(out.map((item) => [item.pairedItem, item.json])).toEqual([
			[
				{ item: 0 },
				{
					messageSid: stored.sid,
					status: 'accepted',
					channel: 'chatapp',
					to: TO,
					from: FROM,
					code: 200,
					requestId: expect.stringMatching(REQUEST_ID),
					raw: { code: 200, error_data: null, status: 'success', data: { sid: stored.sid } },
				},
			],
		]);
	});

	it('JSON content mode sends the user’s object, checked against the same limits', async () => {
		const content = { type: 'text', text: { body: 'Built by hand' } };
		const result = await run({ contentMode: 'json', contentJson: JSON.stringify(content) });
		expect(result.error).toBeUndefined();
		expect((sandbox.requests()[0].json as { content: unknown }).content).toEqual({ recipient_type: 'individual', ...content });

		sandbox.reset();
		const tooMany = { type: 'interactive', interactive: { type: 'button', body: { text: 'Pick' }, action: { buttons: Array.from({ length: 4 }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: `B${i}` } })) } } };
		const refused = await run({ contentMode: 'json', contentJson: JSON.stringify(tooMany) });
		expect(refused.error?.message).toBe('Reply buttons has 4 entries; the limit is 3 (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	const x = (n: number) => 'x'.repeat(n);
	const button = (overrides: Record<string, unknown>) => ({ messageType: 'button', bodyText: 'Pick', ...overrides });
	const list = (overrides: Record<string, unknown>) => ({ messageType: 'list', bodyText: 'Pick', listButton: 'Choose', rows: { row: rows(2) }, ...overrides });

	describe.each([
		['4 reply buttons', button({ buttons: { button: Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, title: `B${i}` })) } }), 'Reply buttons has 4 entries; the limit is 3'],
		['button title of 21', button({ buttons: { button: [{ id: 'a', title: x(21) }] } }), 'Button 1 title is 21 characters; the limit is 20'],
		['button id of 257', button({ buttons: { button: [{ id: x(257), title: 'A' }] } }), 'Button 1 ID is 257 characters; the limit is 256'],
		['list button label of 21', list({ listButton: x(21) }), 'List button label is 21 characters; the limit is 20'],
		['11 sections', list({ rows: { row: Array.from({ length: 11 }, (_, i) => ({ sectionTitle: `S${i}`, id: `r${i}`, title: 'T' })) } }), 'List sections has 11 entries; the limit is 10'],
		['11 rows', list({ rows: { row: rows(11) } }), 'List rows (all sections together) has 11 entries; the limit is 10'],
		['row title of 25', list({ rows: { row: [{ id: 'a', title: x(25) }] } }), 'Row title (section 1, row 1) is 25 characters; the limit is 24'],
		['row description of 73', list({ rows: { row: [{ id: 'a', title: 'A', description: x(73) }] } }), 'Row description (section 1, row 1) is 73 characters; the limit is 72'],
		['row id of 201', list({ rows: { row: [{ id: x(201), title: 'A' }] } }), 'Row ID (section 1, row 1) is 201 characters; the limit is 200'],
		['untitled section among several', list({ rows: { row: [...rows(1, 'Monday'), ...rows(1, '', 1)] } }), 'Section 2 title is required'],
		['section title of 25', list({ rows: { row: rows(1, x(25)) } }), 'Section 1 title is 25 characters; the limit is 24'],
		['header of 61', button({ headerType: 'text', headerText: x(61), buttons: { button: [{ id: 'a', title: 'A' }] } }), 'Header text is 61 characters; the limit is 60'],
		['body of 1025', button({ bodyText: x(1025), buttons: { button: [{ id: 'a', title: 'A' }] } }), 'Body text is 1025 characters; the limit is 1024'],
		['footer of 61', button({ footerText: x(61), buttons: { button: [{ id: 'a', title: 'A' }] } }), 'Footer text is 61 characters; the limit is 60'],
		['media without URL', { messageType: 'image', mediaUrl: '={{ "" }}' }, 'Media URL is required'],
		['latitude out of range', { messageType: 'location', latitude: 91, longitude: 0 }, 'Latitude is 91; the maximum is 90'],
		['non-E.164 recipient', { messageType: 'text', text: 'Hi', to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'],
	])('limit: %s', (_name, parameters, message) => {
		it('is refused before sending, naming the field, the item and the limit', async () => {
			const result = await run(parameters);
			expect(result.error?.message).toBe(`${message} (item 0)`);
			expect(sandbox.requests()).toHaveLength(0);
		});
	});

	it('accepts every limit exactly at its boundary', async () => {
		const result = await run(
			list({
				headerType: 'text',
				headerText: x(60),
				bodyText: x(1024),
				footerText: x(60),
				listButton: x(20),
				rows: { row: Array.from({ length: 10 }, (_, i) => ({ sectionTitle: `${x(22)}${String(i).padStart(2, '0')}`, id: `${x(198)}${String(i).padStart(2, '0')}`, title: x(24), description: x(72) })) },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()[0].status).toBe(202);
	});

	it('counts limits in characters (code points): emoji at the boundary are sent intact', async () => {
		// Each emoji is one character but two UTF-16 units; every field is exactly at its limit.
		const e = (n: number) => '😀'.repeat(n);
		const parameters = list({
			headerType: 'text',
			headerText: e(60),
			bodyText: e(1024),
			footerText: e(60),
			listButton: e(20),
			rows: { row: [{ sectionTitle: e(24), id: e(200), title: e(24), description: e(72) }] },
		});
		const result = await run(parameters);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request.status).toBe(202);
		expect((request.json as { content: unknown }).content).toEqual({
			recipient_type: 'individual',
			type: 'interactive',
			interactive: {
				type: 'list',
				header: { type: 'text', text: e(60) },
				body: { text: e(1024) },
				footer: { text: e(60) },
				action: { button: e(20), sections: [{ title: e(24), rows: [{ id: e(200), title: e(24), description: e(72) }] }] },
			},
		});
	});

	it.each([
		['row title', list({ rows: { row: [{ id: 'a', title: `${x(23)}😀😀` }] } }), 'Row title (section 1, row 1) is 25 characters; the limit is 24'],
		['footer', button({ footerText: '😀'.repeat(61), buttons: { button: [{ id: 'a', title: 'A' }] } }), 'Footer text is 61 characters; the limit is 60'],
		['button title', button({ buttons: { button: [{ id: 'a', title: '😀'.repeat(21) }] } }), 'Button 1 title is 21 characters; the limit is 20'],
	])('one emoji over the %s limit is refused with the true count', async (_name, parameters, message) => {
		const result = await run(parameters);
		expect(result.error?.message).toBe(`${message} (item 0)`);
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('a recipient not on the chat app comes back failed inside the 202 and goes to the error output', async () => {
		const unreachable = SANDBOX_CHATAPP_UNREACHABLE[0];
		const items = [{ to: TO }, { to: unreachable }];
		const result = await run({ messageType: 'text', text: 'Hi', to: '={{ $json.to }}' }, items, 'continueErrorOutput');
		expect(sandbox.requests()).toHaveLength(2);
		const success = result.output('Exotel', 0);
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		const [stored] = sandbox.chatAppMessages();
		expect(sandbox.chatAppMessages()).toHaveLength(1);
		expect(success[0].json).toMatchObject({ messageSid: stored.sid, status: 'accepted', channel: 'chatapp', to: TO, from: FROM });
		const [failed] = result.output('Exotel', 1);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect(failed.json.to).toBe(unreachable);
		// The service's `failed` entry, error_data and all, is under raw.
		const refusal = MESSAGE_FAILURES.chatAppInvalidRecipient;
		const error = failed.json.error as IDataObject;
		expect(error).toEqual({
			message: `Message not accepted: ${refusal.message} (code ${refusal.code})`,
			description: expect.stringContaining(unreachable),
			messageSid: null,
			status: 'failed',
			channel: 'chatapp',
			to: unreachable,
			from: FROM,
			code: refusal.httpCode,
			requestId: expect.stringMatching(REQUEST_ID),
			raw: {
				code: refusal.httpCode,
				status: 'failed',
				data: null,
				error_data: { code: 30012, message: refusal.message, description: expect.stringContaining(unreachable) },
			},
		});
		expect(error.description).toBe(((error.raw as IDataObject).error_data as IDataObject).description);
		// One request per message, so one request_id each.
		expect(error.requestId).not.toBe(success[0].json.requestId);
	});
});

describe('Exotel Messaging → Chat App → Set Webhooks', () => {
	it('PUTs the webhook configuration and keeps the verify token out of the output', async () => {
		const result = await run({
			operation: 'setWebhooks',
			incomingMessageUrl: 'https://n8n.example.com/webhook/exotel-incoming',
			statusCallbackUrl: 'https://n8n.example.com/webhook/exotel-status',
			verifyToken: 'verify-SECRET-123',
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'PUT', path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/chatapp/webhook`, contentType: 'application/json' });
		expect(request.json).toEqual({
			chatapp: {
				webhook: {
					incoming_message_url: 'https://n8n.example.com/webhook/exotel-incoming',
					status_callback_url: 'https://n8n.example.com/webhook/exotel-status',
					verify_token: 'verify-SECRET-123',
				},
			},
		});
		const [out] = result.output('Exotel');
		expect(out.json).toEqual({
			incoming_message_url: 'https://n8n.example.com/webhook/exotel-incoming',
			status_callback_url: 'https://n8n.example.com/webhook/exotel-status',
			verifyTokenSet: true,
			raw: expect.any(Object),
		});
		// The service's answer is kept under raw (formerly `response`), its copy of the token masked.
		expect(sandbox.chatAppWebhook()).toEqual({
			incoming_message_url: 'https://n8n.example.com/webhook/exotel-incoming',
			status_callback_url: 'https://n8n.example.com/webhook/exotel-status',
			verify_token: 'verify-SECRET-123',
		});
		expect(out.json.raw).toEqual({
			request_id: expect.stringMatching(REQUEST_ID),
			method: 'PUT',
			http_code: 200,
			response: {
				code: 200,
				status: 'success',
				data: {
					chatapp: {
						webhook: {
							incoming_message_url: 'https://n8n.example.com/webhook/exotel-incoming',
							status_callback_url: 'https://n8n.example.com/webhook/exotel-status',
							verify_token: expect.any(String),
						},
					},
				},
			},
		});
		expect(out.json.response).toBeUndefined();
		expect(JSON.stringify(out.json)).not.toContain('verify-SECRET-123');
	});

	it('requires the incoming message URL', async () => {
		const result = await run({ operation: 'setWebhooks', incomingMessageUrl: '={{ "" }}' });
		expect(result.error?.message).toBe('Incoming Message URL is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});
