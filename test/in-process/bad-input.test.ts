/**
 * Every limit and required field of the two spec documents that the nodes enforce before sending:
 * the run fails with a message naming the field, the item and the limit or rule, and the sandbox
 * records no request (operations that read first, campaign update and actions, send no write).
 * Then, per node family, a bad item next to a good one with "Continue": the bad one comes out
 * marked, the good one is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CSV_FILE_NODE_TYPE, CsvFileNode } from '../helpers/csv-file-node';
import { packageNode, sandboxCredentials, startSandbox } from '../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../helpers/n8n-core-harness';
import { seededCallSid } from '../sandbox/handlers/voice';
import type { ExotelSandbox } from '../sandbox/server';

let sandbox: ExotelSandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timeScale: 0 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => sandbox.reset());

type NodeName = 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';

function run(node: NodeName, parameters: IDataObject, items: IDataObject[] = [{}], options: { onError?: 'continueRegularOutput'; csv?: boolean } = {}) {
	const target = packageNode(node, parameters as INodeParameters, { onError: options.onError });
	if (options.csv) {
		return runWorkflow({
			nodes: [itemsNode('Items', items), { id: 'csv', name: 'CSV File', type: CSV_FILE_NODE_TYPE, typeVersion: 1, position: [100, 0], parameters: {} }, target],
			connections: chain('Items', 'CSV File', 'Exotel'),
			credentials: sandboxCredentials(sandbox),
			nodeTypes: [new CsvFileNode()],
		});
	}
	return runWorkflow({ nodes: [itemsNode('Items', items), target], connections: chain('Items', 'Exotel'), credentials: sandboxCredentials(sandbox) });
}

const x = (n: number) => 'x'.repeat(n);
const list = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(',');
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+9198${String(45000000 + i)}`);

// Base parameters per operation (all valid); each case overrides one thing.
const SMS = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '+919876543210', body: 'Hello' };
const MANY = { resource: 'sms', operation: 'sendToMany', from: 'EXOTEL', recipients: '+919876543210', body: 'Hello' };
const RCS = { resource: 'rcs', operation: 'sendTemplate', botId: 'acme_bot', to: '+919876543210', templateName: 'order_update' };
const FALLBACK = { smsFallback: true, fallbackFrom: 'ACMEIN', fallbackText: 'Your order shipped', fallbackSmsType: 'transactional' };
const CHAT = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '+919876543210', messageType: 'text', text: 'Hi' };
const rows = (count: number, section = '') => Array.from({ length: count }, (_, i) => ({ sectionTitle: section, id: `r${i}`, title: `Row ${i}` }));
const BUTTON = { ...CHAT, messageType: 'button', bodyText: 'Pick', buttons: { button: [{ id: 'a', title: 'A' }] } };
const LIST = { ...CHAT, messageType: 'list', bodyText: 'Pick', listButton: 'Choose', rows: { row: rows(2) } };
const FLOW = 'http://my.exotel.com/exotelsandbox1/exoml/start_voice/926';
const CONNECT = { resource: 'call', operation: 'connect', from: '+919876543210', callerId: '+918047112233', url: FLOW };
const GET_MANY = { resource: 'call', operation: 'getMany' };
const CREATE = { resource: 'campaign', operation: 'create', recipientSource: 'numbers', from: '+919845000001', callerId: '+918047112233' };
const DEVICE = { resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1', operation: 'update' };
const UPLOAD_ITEMS = { resource: 'contact', operation: 'upload', source: 'items' };
const UPLOAD_FILE = { resource: 'contact', operation: 'upload', source: 'binary' };
const ALLOCATE = { resource: 'allocation', operation: 'allocate', connectionId: 'order-1', apartyNumbers: '+919876543210', bpartyNumbers: '+919812345678', usage: 'twoway' };
const CC_CREATE = { resource: 'user', operation: 'create', userId: 'asha.rao', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 };

interface Case {
	name: string;
	node: NodeName;
	parameters: IDataObject;
	items?: IDataObject[];
	csv?: boolean;
	/** Index of the bad item (default 0); null: a setting of the one upload made from all items, which names no item. */
	item?: number | null;
	/** The error message without ` (item N)`: a string is matched exactly. */
	message: string | RegExp;
	/** Reads are allowed first (campaign update and actions GET the campaign): only writes must be absent. */
	readsFirst?: boolean;
}

const C = (name: string, node: NodeName, parameters: IDataObject, message: string | RegExp, extra: Partial<Case> = {}): Case => ({ name, node, parameters, message, ...extra });

const CASES: Case[] = [
	// ---- SMS: send ----
	C('SMS body of 2001 characters', 'exotelMessaging', { ...SMS, body: x(2001) }, 'Body is 2001 characters; the limit is 2000'),
	C('SMS body too long in item 1 (expression)', 'exotelMessaging', { ...SMS, body: '={{ $json.body }}' }, 'Body is 2001 characters; the limit is 2000', { items: [{ body: 'ok' }, { body: x(2001) }], item: 1 }),
	C('SMS empty To', 'exotelMessaging', { ...SMS, to: '={{ "" }}' }, 'To is required'),
	C('SMS empty From', 'exotelMessaging', { ...SMS, from: '={{ "" }}' }, 'From is required'),
	C('SMS empty Body', 'exotelMessaging', { ...SMS, body: '={{ "" }}' }, 'Body is required'),
	C('SMS non-phone To', 'exotelMessaging', { ...SMS, to: '={{ $json.to }}' }, 'To must be a phone number such as +919876543210 (got "callme")', { items: [{ to: '+919876543210' }, { to: 'call me' }], item: 1 }),
	C('SMS bad Status Callback URL', 'exotelMessaging', { ...SMS, statusCallback: 'n8n/webhook' }, /^Status Callback URL must be an http\(s\) URL \(got "n8n\/webhook"\)$/),
	C('SMS bad Click Tracking Callback URL', 'exotelMessaging', { ...SMS, additionalFields: { shortenUrl: true, shortenUrlTracking: true, clickTrackingCallbackUrl: 'clicks' } }, /^Click Tracking Callback URL must be an http\(s\) URL/),
	C('SMS Track Clicks without Shorten URL', 'exotelMessaging', { ...SMS, additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'),
	// ---- SMS: send to many ----
	C('Send to Many bad recipient', 'exotelMessaging', { ...MANY, recipients: '+919876543210, twelve' }, 'To [1] must be a phone number such as +919876543210 (got "twelve")'),
	C('Send to Many empty To', 'exotelMessaging', { ...MANY, recipients: '={{ "" }}' }, 'To is required'),
	C('Send to Many body of 2001', 'exotelMessaging', { ...MANY, body: x(2001) }, 'Body is 2001 characters; the limit is 2000'),
	C('Send to Many Track Clicks without Shorten URL', 'exotelMessaging', { ...MANY, additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'),
	// ---- RCS ----
	C('RCS non-E.164 To', 'exotelMessaging', { ...RCS, to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'),
	C('RCS missing template name', 'exotelMessaging', { ...RCS, templateName: '={{ "" }}' }, 'Template Name is required'),
	C('RCS missing bot ID', 'exotelMessaging', { ...RCS, botId: '={{ "" }}' }, 'Bot ID is required'),
	C('RCS missing fallback text', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: '={{ "" }}' }, 'Fallback Text is required'),
	C('RCS missing fallback from', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackFrom: '={{ "" }}' }, 'Fallback From is required'),
	C('RCS fallback text of 2001', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: x(2001) }, 'Fallback Text is 2001 characters; the limit is 2000'),
	C('RCS fallback tracking without shorten URL', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { tracking: true } }, 'Fallback Track Clicks needs Shorten URL turned on'),
	C('RCS bad status callback URL', 'exotelMessaging', { ...RCS, statusCallback: 'hook' }, /^Status Callback URL must be an http\(s\) URL/),
	// ---- Chat app ----
	C('chat 4 reply buttons', 'exotelMessaging', { ...BUTTON, buttons: { button: Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, title: `B${i}` })) } }, 'Reply buttons has 4 entries; the limit is 3'),
	C('chat button title of 21', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: x(21) }] } }, 'Button 1 title is 21 characters; the limit is 20'),
	C('chat button id of 257', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: x(257), title: 'A' }] } }, 'Button 1 ID is 257 characters; the limit is 256'),
	C('chat list button label of 21', 'exotelMessaging', { ...LIST, listButton: x(21) }, 'List button label is 21 characters; the limit is 20'),
	C('chat 11 sections', 'exotelMessaging', { ...LIST, rows: { row: Array.from({ length: 11 }, (_, i) => ({ sectionTitle: `S${i}`, id: `r${i}`, title: 'T' })) } }, 'List sections has 11 entries; the limit is 10'),
	C('chat 11 rows', 'exotelMessaging', { ...LIST, rows: { row: rows(11) } }, 'List rows (all sections together) has 11 entries; the limit is 10'),
	C('chat row title of 25', 'exotelMessaging', { ...LIST, rows: { row: [{ id: 'a', title: x(25) }] } }, 'Row title (section 1, row 1) is 25 characters; the limit is 24'),
	C('chat row description of 73', 'exotelMessaging', { ...LIST, rows: { row: [{ id: 'a', title: 'A', description: x(73) }] } }, 'Row description (section 1, row 1) is 73 characters; the limit is 72'),
	C('chat row id of 201', 'exotelMessaging', { ...LIST, rows: { row: [{ id: x(201), title: 'A' }] } }, 'Row ID (section 1, row 1) is 201 characters; the limit is 200'),
	C('chat section title missing with several sections', 'exotelMessaging', { ...LIST, rows: { row: [...rows(1, 'Monday'), { sectionTitle: '', id: 'z', title: 'Z' }] } }, 'Section 2 title is required'),
	C('chat section title of 25', 'exotelMessaging', { ...LIST, rows: { row: rows(1, x(25)) } }, 'Section 1 title is 25 characters; the limit is 24'),
	C('chat header of 61', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: x(61) }, 'Header text is 61 characters; the limit is 60'),
	C('chat body of 1025', 'exotelMessaging', { ...BUTTON, bodyText: x(1025) }, 'Body text is 1025 characters; the limit is 1024'),
	C('chat footer of 61', 'exotelMessaging', { ...BUTTON, footerText: x(61) }, 'Footer text is 61 characters; the limit is 60'),
	C('chat bad media URL', 'exotelMessaging', { ...CHAT, messageType: 'image', mediaUrl: 'not a url' }, /^Media URL must be an http\(s\) URL/),
	C('chat missing media URL', 'exotelMessaging', { ...CHAT, messageType: 'image', mediaUrl: '={{ "" }}' }, 'Media URL is required'),
	C('chat latitude 91', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 91, longitude: 0 }, 'Latitude is 91; the maximum is 90'),
	C('chat non-E.164 To', 'exotelMessaging', { ...CHAT, to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'),
	C('chat JSON content not an object', 'exotelMessaging', { ...CHAT, contentMode: 'json', contentJson: '[1, 2]' }, 'Content (JSON) is not a JSON object'),
	C('chat JSON content with 4 buttons', 'exotelMessaging', { ...CHAT, contentMode: 'json', contentJson: JSON.stringify({ type: 'interactive', interactive: { type: 'button', body: { text: 'P' }, action: { buttons: Array.from({ length: 4 }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: 'B' } })) } } }) }, 'Reply buttons has 4 entries; the limit is 3'),
	C('Set Webhooks missing incoming URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: '={{ "" }}' }, 'Incoming Message URL is required'),
	// ---- Voice: calls ----
	C('Connect Time Limit 14401', 'exotelVoice', { ...CONNECT, additionalFields: { timeLimit: 14401 } }, 'Time Limit is 14401; the maximum is 14400'),
	C('Connect bad From', 'exotelVoice', { ...CONNECT, from: '={{ $json.from }}' }, 'From must be a phone number such as +919876543210 (got "callme")', { items: [{ from: '+919876543210' }, { from: 'call me' }], item: 1 }),
	C('Connect empty Caller ID', 'exotelVoice', { ...CONNECT, callerId: '={{ "" }}' }, 'Caller ID is required'),
	C('Connect bad Flow URL', 'exotelVoice', { ...CONNECT, url: 'my-flow' }, 'Flow URL must be an http(s) URL (got "my-flow")'),
	C('Get Many 101 call SIDs', 'exotelVoice', { ...GET_MANY, filters: { sid: list(101, seededCallSid) } }, 'Call SIDs has 101 entries; the limit is 100'),
	C('Get Many 6 To numbers', 'exotelVoice', { ...GET_MANY, filters: { to: list(6, (i) => `+91998870000${i}`) } }, 'To has 6 entries; the limit is 5'),
	C('Get Many 6 From numbers', 'exotelVoice', { ...GET_MANY, filters: { from: list(6, (i) => `+91998870000${i}`) } }, 'From has 6 entries; the limit is 5'),
	C('Get Many 6 phone numbers', 'exotelVoice', { ...GET_MANY, filters: { phoneNumber: list(6, (i) => `+91804711223${i}`) } }, 'Phone Number has 6 entries; the limit is 5'),
	C('Get Many Page Size 101', 'exotelVoice', { ...GET_MANY, filters: { pageSize: 101 } }, 'Page Size is 101; the maximum is 100'),
	C('Get Many Recording URL Validity 4', 'exotelVoice', { ...GET_MANY, filters: { recordingUrlValidity: 4 } }, 'Recording URL Validity is 4; the minimum is 5'),
	C('Get Many Recording URL Validity 61', 'exotelVoice', { ...GET_MANY, filters: { recordingUrlValidity: 61 } }, 'Recording URL Validity is 61; the maximum is 60'),
	C('Call get empty SID', 'exotelVoice', { resource: 'call', operation: 'get', callSid: '={{ "" }}' }, 'Call SID is required'),
	// ---- Voice: campaigns ----
	C('campaign name under 3', 'exotelVoice', { ...CREATE, additionalFields: { name: 'ab' } }, 'Name is 2 characters; it needs at least 3'),
	C('campaign 5001 numbers', 'exotelVoice', { ...CREATE, from: numbers(5001).join(',') }, 'Numbers has 5001 entries; the limit is 5000'),
	C('campaign 6 static lists', 'exotelVoice', { ...CREATE, recipientSource: 'lists', lists: list(6, (i) => `list-${i}`) }, 'List IDs (static campaign) has 6 entries; the limit is 5'),
	C('campaign 2 dynamic lists', 'exotelVoice', { ...CREATE, recipientSource: 'lists', campaignType: 'dynamic', lists: 'list-1,list-2' }, 'List IDs (dynamic campaign) has 2 entries; the limit is 1'),
	C('campaign 4 retries', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 4 } } } }, 'Number of Retries is 4; the maximum is 3'),
	C('campaign throttle without custom mode', 'exotelVoice', { ...CREATE, additionalFields: { throttle: 5 } }, 'Throttle needs Mode set to Custom'),
	C('campaign no caller ID', 'exotelVoice', { ...CREATE, callerId: '={{ "" }}' }, 'Caller ID is required'),
	C('campaign no numbers', 'exotelVoice', { ...CREATE, from: '={{ "" }}' }, 'Numbers is required'),
	C('campaign update with nothing', 'exotelVoice', { resource: 'campaign', operation: 'update', campaignId: 'cmp-created', updateFields: {} }, 'Add at least one field to update', { readsFirst: true }),
	C('campaign update name under 3', 'exotelVoice', { resource: 'campaign', operation: 'update', campaignId: 'cmp-created', updateFields: { name: 'ab' } }, 'Name is 2 characters; it needs at least 3', { readsFirst: true }),
	C('campaign update 2 dynamic lists', 'exotelVoice', { resource: 'campaign', operation: 'update', campaignId: 'cmp-created', updateFields: { campaignType: 'dynamic', lists: 'list-1, list-2' } }, 'List IDs (dynamic campaign) has 2 entries; the limit is 1', { readsFirst: true }),
	C('campaign pause from Completed', 'exotelVoice', { resource: 'campaign', operation: 'pause', campaignId: 'cmp-completed' }, 'Cannot pause campaign cmp-completed: its status is Completed; pause is allowed only from Created or InProgress', { readsFirst: true }),
	// ---- Voice: users, devices, lists ----
	C('user list limit 0', 'exotelVoice', { resource: 'user', operation: 'getMany', returnAll: false, limit: 0 }, 'Limit is 0; the minimum is 1'),
	C('user device number not E.164', 'exotelVoice', { resource: 'user', operation: 'getMany', filters: { contactUri: '09876500001' } }, 'Device Number must be an E.164 number such as +919876543210 (got "09876500001")'),
	C('user get empty ID', 'exotelVoice', { resource: 'user', operation: 'get', userId: '={{ "" }}' }, 'User ID is required'),
	C('both devices disabled', 'exotelVoice', { ...DEVICE, phone: 'disable', sip: 'disable' }, 'Phone and SIP cannot both be disabled: at least one device stays enabled'),
	C('device update with nothing', 'exotelVoice', { ...DEVICE }, 'Choose a change for Phone or SIP'),
	C('list bulk rename without a name', 'exotelVoice', { resource: 'list', operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, 'New Name is required', { items: [{ sid: 'list-1', name: 'A' }, { sid: 'list-2' }], item: 1 }),
	// ---- Voice: contact upload ----
	C('upload non-.csv file', 'exotelVoice', UPLOAD_FILE, 'The file must be a .csv file (got "contacts.xlsx")', { csv: true, items: [{ csv: 'phone_number\n+919811100001\n', fileName: 'contacts.xlsx' }] }),
	C('upload file over 10 MB', 'exotelVoice', UPLOAD_FILE, /^The file is 10\.0 MB \(\d+ bytes\); the limit is 10\.0 MB \(10485760 bytes\)$/, { csv: true, items: [{ bytes: 10 * 1024 * 1024 + 1 }] }),
	C('upload over 50,000 records', 'exotelVoice', UPLOAD_FILE, 'The CSV has 50001 records; the limit is 50000', { csv: true, items: [{ records: 50_001 }] }),
	C('upload without phone_number column', 'exotelVoice', UPLOAD_FILE, 'The CSV header row has no phone_number column', { csv: true, items: [{ csv: 'phone,name\n+919811100001,A\n' }] }),
	C('upload items non-E.164 phone_number', 'exotelVoice', UPLOAD_ITEMS, 'Phone number (field "phone_number") must be an E.164 number such as +919876543210 (got "09811100001")', { items: [{ phone_number: '+919811100001' }, { phone_number: '09811100001' }], item: 1 }),
	C('upload items without phone_number', 'exotelVoice', UPLOAD_ITEMS, 'Phone number (field "phone_number") is required', { items: [{ phone_number: '+919811100001' }, { first_name: 'Nobody' }], item: 1 }),
	C('upload items file name not .csv', 'exotelVoice', { ...UPLOAD_ITEMS, options: { fileName: 'contacts.txt' } }, 'The file must be a .csv file (got "contacts.txt")', { items: [{ phone_number: '+919811100001' }], item: null }),
	// ---- Number allocation ----
	C('allocation non-E.164 a-party', 'exotelNumberAllocation', { ...ALLOCATE, apartyNumbers: '+919876543210, 9876543211' }, 'A-Party Numbers [1] must be an E.164 number such as +919876543210 (got "9876543211")'),
	C('allocation non-E.164 b-party', 'exotelNumberAllocation', { ...ALLOCATE, bpartyNumbers: '={{ $json.b }}' }, 'B-Party Numbers [0] must be an E.164 number such as +919876543210 (got "919812345678")', { items: [{ b: '+919812345678' }, { b: '919812345678' }], item: 1 }),
	C('allocation missing b-party', 'exotelNumberAllocation', { ...ALLOCATE, bpartyNumbers: '={{ "" }}' }, 'B-Party Numbers is required'),
	C('allocation zero pin', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { apartyPins: '0' } }, 'A-Party PINs [0] is 0; the minimum is 1'),
	C('allocation fractional pin', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { bpartyPins: '12.5' } }, 'B-Party PINs [0] must be a whole number (got 12.5)'),
	C('allocation bad region via expression', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { region: '={{ "XX" }}' } }, 'Preferred Region must be one of AP, DL, GJ, KA, KL, MH, MP, MU, RJ, TN, WB (got "XX")'),
	C('allocation bad duration', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { duration: '2 days' } }, 'Deallocate After must be a number followed by d, m or s, such as 2d or 3600s (got "2 days")'),
	C('allocation preferred number not E.164', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { greenvn: '08047112233' } }, 'Preferred Number must be an E.164 number such as +919876543210 (got "08047112233")'),
	// ---- Contact center ----
	C('contact-center create missing user id', 'exotelContactCenter', { ...CC_CREATE, userId: '={{ "" }}' }, 'User ID is required'),
	C('contact-center create missing user name', 'exotelContactCenter', { ...CC_CREATE, userName: '={{ "" }}' }, 'User Name is required'),
	C('contact-center update with nothing', 'exotelContactCenter', { resource: 'user', operation: 'update', userId: 'asha.rao' }, 'At least one field to update is required'),
];

describe('refused before sending: names the field, the item and the limit', () => {
	it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const result = await run(c.node, c.parameters, c.items, { csv: c.csv });
		const message = result.error?.message ?? '';
		const suffix = c.item === null ? '' : ` (item ${c.item ?? 0})`;
		expect(message.endsWith(suffix)).toBe(true);
		const bare = message.slice(0, message.length - suffix.length);
		if (typeof c.message === 'string') expect(bare).toBe(c.message);
		else expect(bare).toMatch(c.message);
		const sent = sandbox.requests();
		if (c.readsFirst) expect(sent.filter((r) => r.method !== 'GET')).toEqual([]);
		else expect(sent).toEqual([]);
	});
});

interface ContinueCase {
	family: string;
	node: NodeName;
	parameters: IDataObject;
	items: IDataObject[];
	/** The bad item's index; the other is good. */
	bad: number;
	message: string | RegExp;
	csv?: boolean;
	/** Requests the good item makes (default 1). */
	requests?: number;
}

const CONTINUE_CASES: ContinueCase[] = [
	{ family: 'SMS', node: 'exotelMessaging', parameters: { ...SMS, body: '={{ $json.body }}' }, items: [{ body: 'ok' }, { body: x(2001) }], bad: 1, message: 'Body is 2001 characters; the limit is 2000 (item 1)' },
	{ family: 'SMS send to many', node: 'exotelMessaging', parameters: { ...MANY, recipients: '={{ $json.to }}' }, items: [{ to: 'twelve' }, { to: '+919876543210' }], bad: 0, message: 'To [0] must be a phone number such as +919876543210 (got "twelve") (item 0)' },
	{ family: 'RCS', node: 'exotelMessaging', parameters: { ...RCS, to: '={{ $json.to }}' }, items: [{ to: '+919876543210' }, { to: '09876543210' }], bad: 1, message: 'To must be an E.164 number such as +919876543210 (got "09876543210") (item 1)' },
	{ family: 'chat app', node: 'exotelMessaging', parameters: { ...BUTTON, bodyText: '={{ $json.body }}' }, items: [{ body: x(1025) }, { body: 'Pick' }], bad: 0, message: 'Body text is 1025 characters; the limit is 1024 (item 0)' },
	{ family: 'voice call', node: 'exotelVoice', parameters: { ...CONNECT, additionalFields: { timeLimit: '={{ $json.limit }}' } }, items: [{ limit: 600 }, { limit: 14401 }], bad: 1, message: 'Time Limit is 14401; the maximum is 14400 (item 1)' },
	{ family: 'campaign', node: 'exotelVoice', parameters: { ...CREATE, additionalFields: { name: '={{ $json.name }}' } }, items: [{ name: 'ab' }, { name: 'Spring sale' }], bad: 0, message: 'Name is 2 characters; it needs at least 3 (item 0)' },
	{ family: 'user device', node: 'exotelVoice', parameters: { ...DEVICE, phone: '={{ $json.phone }}', sip: 'disable' }, items: [{ phone: 'enable' }, { phone: 'disable' }], bad: 1, message: 'Phone and SIP cannot both be disabled: at least one device stays enabled (item 1)' },
	{ family: 'contact upload', node: 'exotelVoice', parameters: UPLOAD_FILE, items: [{ csv: 'phone_number\n+919811100001\n' }, { csv: 'x', fileName: 'notes.txt' }], bad: 1, message: 'The file must be a .csv file (got "notes.txt") (item 1)', csv: true },
	{ family: 'allocation', node: 'exotelNumberAllocation', parameters: { ...ALLOCATE, connectionId: '={{ $json.id }}', additionalFields: { apartyPins: '={{ $json.pin }}' } }, items: [{ id: 'c-0', pin: '0' }, { id: 'c-1', pin: '4821' }], bad: 0, message: 'A-Party PINs [0] is 0; the minimum is 1 (item 0)' },
	{ family: 'contact center', node: 'exotelContactCenter', parameters: { ...CC_CREATE, userId: '={{ $json.id }}' }, items: [{ id: 'asha.rao' }, { id: '' }], bad: 1, message: 'User ID is required (item 1)', requests: 2 },
];

describe('with On Error: Continue, the bad item comes out marked and the good one is sent', () => {
	it.each(CONTINUE_CASES.map((c) => [c.family, c] as const))('%s', async (_family, c) => {
		const result = await run(c.node, c.parameters, c.items, { onError: 'continueRegularOutput', csv: c.csv });
		expect(result.error).toBeUndefined();
		const out = result.output('Exotel');
		const marked = out.filter((item) => item.json.error !== undefined);
		expect(marked).toHaveLength(1);
		expect(marked[0].pairedItem).toEqual({ item: c.bad });
		const text = typeof marked[0].json.error === 'string' ? marked[0].json.error : String((marked[0].json.error as IDataObject).message);
		if (typeof c.message === 'string') expect(text).toBe(c.message);
		else expect(text).toMatch(c.message);
		const good = 1 - c.bad;
		expect(out.some((item) => item.json.error === undefined && JSON.stringify(item.pairedItem).includes(`"item":${good}`))).toBe(true);
		// The good item was sent (the contact center also logs in first); writes only for it.
		const writes = sandbox.requests().filter((r) => r.method !== 'GET');
		expect(writes).toHaveLength(c.requests ?? 1);
	});
});
