import type { IDataObject } from 'n8n-workflow';

import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, emoji, refused, x } from '../../helpers/bad-input';
import { runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, echo, giveUpSoon, limitStorm, resetAfter, resetBefore, status, storm, VERIFY_TOKEN, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { SANDBOX_CHATAPP_UNREACHABLE } from '../../../sandbox/fixtures';
import { MESSAGE_FAILURES } from '../../../sandbox/handlers/messages';

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
			{ type: 'interactive', interactive: { type: 'list', header: { type: 'image', image: { link: 'https://acme.example/h.jpg' } }, body: { text: 'Pick a slot' }, action: { button: 'Choose', sections: [{ title: 'Monday', rows: rows(2).map(({ id, title, description }) => ({ id, title, description })) }, { title: 'Tuesday', rows: rows(1, '', 2).map(({ id, title, description }) => ({ id, title, description })) }] } } },
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
			// the service's refusal code, as an SMS's is its DetailedStatusCode; the entry's own code is under raw
			code: refusal.code,
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
			verifyToken: 'verify-dummy-SECRET-123',
		});
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ method: 'PUT', path: `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/chatapp/webhook`, contentType: 'application/json' });
		expect(request.json).toEqual({
			chatapp: {
				webhook: {
					incoming_message_url: 'https://n8n.example.com/webhook/exotel-incoming',
					status_callback_url: 'https://n8n.example.com/webhook/exotel-status',
					verify_token: 'verify-dummy-SECRET-123',
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
			verify_token: 'verify-dummy-SECRET-123',
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
		expect(JSON.stringify(out.json)).not.toContain('verify-dummy-SECRET-123');
	});

	it('requires the incoming message URL', async () => {
		const result = await run({ operation: 'setWebhooks', incomingMessageUrl: '={{ "" }}' });
		expect(result.error?.message).toBe('Incoming Message URL is required (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const CHAT = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '+919876543210', messageType: 'text', text: 'Hi' };
const listRows = (count: number, section = '') => Array.from({ length: count }, (_, i) => ({ sectionTitle: section, id: `r${i}`, title: `Row ${i}` }));
const BUTTON = { ...CHAT, messageType: 'button', bodyText: 'Pick', buttons: { button: [{ id: 'a', title: 'A' }] } };
const LIST_MESSAGE = { ...CHAT, messageType: 'list', bodyText: 'Pick', listButton: 'Choose', rows: { row: listRows(2) } };
const WEBHOOK_FLOW = 'http://my.exotel.com/exotelsandbox1/exoml/start_voice/926';
const jsonContent = (content: IDataObject) => ({ ...CHAT, contentMode: 'json', contentJson: JSON.stringify(content) });
const interactive = (body: IDataObject) => jsonContent({ type: 'interactive', interactive: { type: 'button', body: { text: 'P' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] }, ...body } });

const REFUSED: RefusedCase[] = [
	refused('chat 4 reply buttons', 'exotelMessaging', { ...BUTTON, buttons: { button: Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, title: `B${i}` })) } }, 'Reply buttons has 4 entries; the limit is 3'),
	refused('chat button title of 21', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: x(21) }] } }, 'Button 1 title is 21 characters; the limit is 20'),
	refused('chat button id of 257', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: x(257), title: 'A' }] } }, 'Button 1 ID is 257 characters; the limit is 256'),
	refused('chat button title of 21 ending in emoji', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: emoji(21) }] } }, 'Button 1 title is 21 characters; the limit is 20'),
	refused('chat list button label of 21', 'exotelMessaging', { ...LIST_MESSAGE, listButton: x(21) }, 'List button label is 21 characters; the limit is 20'),
	refused('chat 11 sections', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: Array.from({ length: 11 }, (_, i) => ({ sectionTitle: `S${i}`, id: `r${i}`, title: 'T' })) } }, 'List sections has 11 entries; the limit is 10'),
	refused('chat 11 rows', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: listRows(11) } }, 'List rows (all sections together) has 11 entries; the limit is 10'),
	refused('chat row title of 25', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [{ id: 'a', title: x(25) }] } }, 'Row title (section 1, row 1) is 25 characters; the limit is 24'),
	refused('chat row description of 73', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [{ id: 'a', title: 'A', description: x(73) }] } }, 'Row description (section 1, row 1) is 73 characters; the limit is 72'),
	refused('chat row title of 25 ending in emoji', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [{ id: 'a', title: emoji(25) }] } }, 'Row title (section 1, row 1) is 25 characters; the limit is 24'),
	refused('chat row id of 201', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [{ id: x(201), title: 'A' }] } }, 'Row ID (section 1, row 1) is 201 characters; the limit is 200'),
	refused('chat section title missing with several sections', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [...listRows(1, 'Monday'), { sectionTitle: '', id: 'z', title: 'Z' }] } }, 'Section 2 title is required'),
	refused('chat section title of 25', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: listRows(1, x(25)) } }, 'Section 1 title is 25 characters; the limit is 24'),
	refused('chat header of 61', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: x(61) }, 'Header text is 61 characters; the limit is 60'),
	refused('chat body of 1025', 'exotelMessaging', { ...BUTTON, bodyText: x(1025) }, 'Body text is 1025 characters; the limit is 1024'),
	refused('chat footer of 61', 'exotelMessaging', { ...BUTTON, footerText: x(61) }, 'Footer text is 61 characters; the limit is 60'),
	refused('chat header of 61 ending in emoji', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: emoji(61) }, 'Header text is 61 characters; the limit is 60'),
	refused('chat body of 1025 ending in emoji', 'exotelMessaging', { ...BUTTON, bodyText: emoji(1025) }, 'Body text is 1025 characters; the limit is 1024'),
	refused('chat footer of 61 ending in emoji', 'exotelMessaging', { ...BUTTON, footerText: emoji(61) }, 'Footer text is 61 characters; the limit is 60'),
	refused('chat JSON row id of 201 ending in emoji', 'exotelMessaging', jsonContent({ type: 'interactive', interactive: { type: 'list', body: { text: 'P' }, action: { button: 'Choose', sections: [{ rows: [{ id: emoji(201), title: 'A' }] }] } } }), 'Row ID (section 1, row 1) is 201 characters; the limit is 200'),
	refused('chat bad media URL', 'exotelMessaging', { ...CHAT, messageType: 'image', mediaUrl: 'not a url' }, /^Media URL must be an http\(s\) URL/),
	refused('chat missing media URL', 'exotelMessaging', { ...CHAT, messageType: 'image', mediaUrl: '={{ "" }}' }, 'Media URL is required'),
	refused('chat latitude 91', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 91, longitude: 0 }, 'Latitude is 91; the maximum is 90'),
	refused('chat non-E.164 To', 'exotelMessaging', { ...CHAT, to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'),
	refused('chat JSON content not an object', 'exotelMessaging', { ...CHAT, contentMode: 'json', contentJson: '[1, 2]' }, 'Content (JSON) is not a JSON object'),
	refused('chat JSON content with 4 buttons', 'exotelMessaging', { ...CHAT, contentMode: 'json', contentJson: JSON.stringify({ type: 'interactive', interactive: { type: 'button', body: { text: 'P' }, action: { buttons: Array.from({ length: 4 }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: 'B' } })) } } }) }, 'Reply buttons has 4 entries; the limit is 3'),
	refused('Set Webhooks missing incoming URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: '={{ "" }}' }, 'Incoming Message URL is required'),
	refused('chat empty From', 'exotelMessaging', { ...CHAT, from: '={{ "" }}' }, 'From is required'),
	refused('chat non-E.164 From', 'exotelMessaging', { ...CHAT, from: '08047112233' }, 'From must be an E.164 number such as +919876543210 (got "08047112233")'),
	refused('chat empty To', 'exotelMessaging', { ...CHAT, to: '={{ "" }}' }, 'To is required'),
	refused('chat bad Status Callback URL', 'exotelMessaging', { ...CHAT, statusCallback: 'receipts' }, 'Status Callback URL must be an http(s) URL (got "receipts")'),
	refused('chat empty text', 'exotelMessaging', { ...CHAT, text: '={{ "" }}' }, 'Text is required'),
	refused('chat latitude -91', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: -91, longitude: 0 }, 'Latitude is -91; the minimum is -90'),
	refused('chat longitude 181', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 0, longitude: 181 }, 'Longitude is 181; the maximum is 180'),
	refused('chat longitude -181', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 0, longitude: -181 }, 'Longitude is -181; the minimum is -180'),
	refused('chat no contacts', 'exotelMessaging', { ...CHAT, messageType: 'contacts', contacts: {} }, 'Contacts is required'),
	refused('chat contact without a name', 'exotelMessaging', { ...CHAT, messageType: 'contacts', contacts: { contact: [{ phone: '+919876543210' }] } }, 'Contact 1 name is required'),
	refused('chat JSON unknown content type', 'exotelMessaging', jsonContent({ type: 'poll', poll: {} }), 'Content type must be one of audio, contacts, document, image, interactive, location, sticker, text, video (got "poll")'),
	refused('chat JSON recipient type not individual', 'exotelMessaging', jsonContent({ recipient_type: 'group', type: 'text', text: { body: 'Hi' } }), 'Recipient type must be one of individual (got "group")'),
	refused('chat JSON interactive type not button or list', 'exotelMessaging', interactive({ type: 'carousel' }), 'Interactive type must be one of button, list (got "carousel")'),
	refused('chat JSON header type audio', 'exotelMessaging', interactive({ header: { type: 'audio' } }), 'Header type must be one of document, image, text, video (got "audio")'),
	refused('chat JSON button type not reply', 'exotelMessaging', interactive({ action: { buttons: [{ type: 'url', reply: { id: 'a', title: 'A' } }] } }), 'Button 1 type must be one of reply (got "url")'),
	refused('chat empty header text', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: '={{ "" }}' }, 'Header text is required'),
	refused('chat bad header media URL', 'exotelMessaging', { ...BUTTON, headerType: 'image', headerMediaUrl: 'offer.jpg' }, 'Header media URL must be an http(s) URL (got "offer.jpg")'),
	refused('chat empty body text', 'exotelMessaging', { ...BUTTON, bodyText: '={{ "" }}' }, 'Body text is required'),
	refused('chat no reply buttons', 'exotelMessaging', { ...BUTTON, buttons: {} }, 'Reply buttons is required'),
	refused('chat button without ID', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: '', title: 'A' }] } }, 'Button 1 ID is required'),
	refused('chat button without title', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: '' }] } }, 'Button 1 title is required'),
	refused('chat list without button label', 'exotelMessaging', { ...LIST_MESSAGE, listButton: '={{ "" }}' }, 'List button label is required'),
	refused('chat list without rows', 'exotelMessaging', { ...LIST_MESSAGE, rows: {} }, 'List sections is required'),
	refused('chat row without ID', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [{ id: '', title: 'A' }] } }, 'Row ID (section 1, row 1) is required'),
	refused('chat row without title', 'exotelMessaging', { ...LIST_MESSAGE, rows: { row: [{ id: 'a', title: '' }] } }, 'Row title (section 1, row 1) is required'),
	refused('Set Webhooks bad incoming URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: 'hooks' }, 'Incoming Message URL must be an http(s) URL (got "hooks")'),
	refused('Set Webhooks bad status callback URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: WEBHOOK_FLOW, statusCallbackUrl: 'receipts' }, 'Status Callback URL must be an http(s) URL (got "receipts")'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'chat app', node: 'exotelMessaging', parameters: { ...BUTTON, bodyText: '={{ $json.body }}' }, items: [{ body: x(1025) }, { body: 'Pick' }], bad: 0, message: 'Body text is 1025 characters; the limit is 1024 (item 0)' },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const setWebhooks = {
	resource: 'chatApp',
	operation: 'setWebhooks',
	incomingMessageUrl: 'https://n8n.example.com/webhook/in',
	statusCallbackUrl: 'https://n8n.example.com/webhook/status',
	verifyToken: VERIFY_TOKEN,
};

const SECRET_CASES: SecretCase[] = [
	{ name: 'Chat app: success', node: 'exotelMessaging', parameters: CHAT, outcome: 'ok' },
	{ name: 'Chat app: 202 failed entry (not on the chat app)', node: 'exotelMessaging', parameters: { ...CHAT, to: '+919800000000' }, outcome: 'error' },
	{ name: 'Chat app: wrong API token (401)', node: 'exotelMessaging', parameters: CHAT, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Chat app: 429s past Rate Limit → Max Wait', node: 'exotelMessaging', parameters: { ...CHAT, ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'Chat app: reset after, continue', node: 'exotelMessaging', parameters: CHAT, faults: [[resetAfter, 1]], onError: 'continueRegularOutput', outcome: 'any' },
	{ name: 'Set Webhooks with a verify token: success', node: 'exotelMessaging', parameters: setWebhooks, outcome: 'ok' },
	{ name: 'Set Webhooks: wrong API token (401)', node: 'exotelMessaging', parameters: setWebhooks, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Set Webhooks: 503 past the retry limit', node: 'exotelMessaging', parameters: setWebhooks, faults: [storm(503)], outcome: 'error' },
	{ name: 'Set Webhooks: reset before, continue', node: 'exotelMessaging', parameters: setWebhooks, faults: [[resetBefore, 6]], onError: 'continueRegularOutput', outcome: 'any' },
];

const ECHO_CASES: SecretCase[] = [
	{
		name: 'verify token echoed in a 400 (Set Webhooks)',
		node: 'exotelMessaging',
		parameters: setWebhooks,
		faults: [[status(400, echo(`verify_token=${VERIFY_TOKEN}`)), 1]],
		outcome: 'error',
		httpCode: '400',
	},
];

describeNoSecrets(SECRET_CASES, ECHO_CASES);
