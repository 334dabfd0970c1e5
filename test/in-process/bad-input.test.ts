/**
 * Every limit and required field of the two spec documents that the nodes enforce before sending:
 * the run fails with a message naming the field, the item and the limit or rule, and the sandbox
 * records no request (operations that read first, campaign update and actions, send no write).
 * Then, per node family, a bad item next to a good one with "Continue": the bad one comes out
 * marked, the good one is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CSV_FILE_NODE_TYPE, CsvFileNode } from '../helpers/csv-file-node';
import { packageNode, sandboxCredentials, useSandbox } from '../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../helpers/n8n-core-harness';
import { seededCallSid } from '../sandbox/handlers/voice';

const sandbox = useSandbox({ timeScale: 0 });

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
// n characters (code points) of which the last is an emoji: n + 1 UTF-16 units.
const emoji = (n: number) => `${'x'.repeat(n - 1)}😀`;
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
const CC_UPDATE = { resource: 'user', operation: 'update', userId: 'asha.rao' };
const CC_DOWNLOAD = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-1', callId: 'call-1' };
const VOICE_LOG = { resource: 'voiceLog', operation: 'get', callSid: 'c9f3a1d2e4b5a6c7d8e9f0a1b2c3d4e5' };
const UPDATE = { resource: 'campaign', operation: 'update', campaignId: 'cmp-created' };
const CALL_DETAILS = { resource: 'campaign', operation: 'getCallDetails', campaignId: 'cmp-inprogress' };
const jsonContent = (content: IDataObject) => ({ ...CHAT, contentMode: 'json', contentJson: JSON.stringify(content) });
const interactive = (body: IDataObject) => jsonContent({ type: 'interactive', interactive: { type: 'button', body: { text: 'P' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] }, ...body } });

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
	C('SMS body of 2001 characters ending in emoji', 'exotelMessaging', { ...SMS, body: emoji(2001) }, 'Body is 2001 characters; the limit is 2000'),
	C('SMS empty To', 'exotelMessaging', { ...SMS, to: '={{ "" }}' }, 'To is required'),
	C('SMS empty From', 'exotelMessaging', { ...SMS, from: '={{ "" }}' }, 'From is required'),
	C('SMS empty Body', 'exotelMessaging', { ...SMS, body: '={{ "" }}' }, 'Body is required'),
	C('SMS non-phone To', 'exotelMessaging', { ...SMS, to: '={{ $json.to }}' }, 'To must be a phone number such as +919876543210 (got "callme")', { items: [{ to: '+919876543210' }, { to: 'call me' }], item: 1 }),
	C('SMS bad Status Callback URL', 'exotelMessaging', { ...SMS, statusCallback: 'n8n/webhook' }, /^Status Callback URL must be an http\(s\) URL \(got "n8n\/webhook"\)$/),
	C('SMS bad Click Tracking Callback URL', 'exotelMessaging', { ...SMS, additionalFields: { shortenUrl: true, shortenUrlTracking: true, clickTrackingCallbackUrl: 'clicks' } }, /^Click Tracking Callback URL must be an http\(s\) URL/),
	C('SMS Track Clicks without Shorten URL', 'exotelMessaging', { ...SMS, additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'),
	C('SMS bad SMS Type (expression)', 'exotelMessaging', { ...SMS, additionalFields: { smsType: '={{ "otp" }}' } }, 'SMS Type must be one of promotional, transactional, transactional_opt_in (got "otp")'),
	C('SMS bad Encoding Type (expression)', 'exotelMessaging', { ...SMS, additionalFields: { encodingType: '={{ "utf8" }}' } }, 'Encoding Type must be one of plain, unicode (got "utf8")'),
	C('SMS bad Priority (expression)', 'exotelMessaging', { ...SMS, additionalFields: { priority: '={{ "urgent" }}' } }, 'Priority must be one of high, normal (got "urgent")'),
	// ---- SMS: send to many ----
	C('Send to Many bad recipient', 'exotelMessaging', { ...MANY, recipients: '+919876543210, twelve' }, 'To [1] must be a phone number such as +919876543210 (got "twelve")'),
	C('Send to Many empty To', 'exotelMessaging', { ...MANY, recipients: '={{ "" }}' }, 'To is required'),
	C('Send to Many body of 2001', 'exotelMessaging', { ...MANY, body: x(2001) }, 'Body is 2001 characters; the limit is 2000'),
	C('Send to Many body of 2001 characters ending in emoji', 'exotelMessaging', { ...MANY, body: emoji(2001) }, 'Body is 2001 characters; the limit is 2000'),
	C('Send to Many Track Clicks without Shorten URL', 'exotelMessaging', { ...MANY, additionalFields: { shortenUrlTracking: true } }, 'Track Clicks needs Shorten URL turned on'),
	C('Send to Many empty From', 'exotelMessaging', { ...MANY, from: '={{ "" }}' }, 'From is required'),
	C('Send to Many empty Body', 'exotelMessaging', { ...MANY, body: '={{ "" }}' }, 'Body is required'),
	C('Send to Many bad Status Callback URL', 'exotelMessaging', { ...MANY, statusCallback: 'dlr' }, 'Status Callback URL must be an http(s) URL (got "dlr")'),
	C('Send to Many bad Click Tracking Callback URL', 'exotelMessaging', { ...MANY, additionalFields: { shortenUrl: true, shortenUrlTracking: true, clickTrackingCallbackUrl: 'clicks' } }, 'Click Tracking Callback URL must be an http(s) URL (got "clicks")'),
	C('Send to Many bad SMS Type (expression)', 'exotelMessaging', { ...MANY, additionalFields: { smsType: '={{ "otp" }}' } }, 'SMS Type must be one of promotional, transactional, transactional_opt_in (got "otp")'),
	C('Send to Many bad Encoding Type (expression)', 'exotelMessaging', { ...MANY, additionalFields: { encodingType: '={{ "utf8" }}' } }, 'Encoding Type must be one of plain, unicode (got "utf8")'),
	C('Send to Many bad Priority (expression)', 'exotelMessaging', { ...MANY, additionalFields: { priority: '={{ "urgent" }}' } }, 'Priority must be one of high, normal (got "urgent")'),
	// ---- RCS ----
	C('RCS non-E.164 To', 'exotelMessaging', { ...RCS, to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'),
	C('RCS missing template name', 'exotelMessaging', { ...RCS, templateName: '={{ "" }}' }, 'Template Name is required'),
	C('RCS missing bot ID', 'exotelMessaging', { ...RCS, botId: '={{ "" }}' }, 'Bot ID is required'),
	C('RCS missing fallback text', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: '={{ "" }}' }, 'Fallback Text is required'),
	C('RCS missing fallback from', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackFrom: '={{ "" }}' }, 'Fallback From is required'),
	C('RCS fallback text of 2001', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: x(2001) }, 'Fallback Text is 2001 characters; the limit is 2000'),
	C('RCS fallback text of 2001 characters ending in emoji', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackText: emoji(2001) }, 'Fallback Text is 2001 characters; the limit is 2000'),
	C('RCS fallback tracking without shorten URL', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { tracking: true } }, 'Fallback Track Clicks needs Shorten URL turned on'),
	C('RCS bad status callback URL', 'exotelMessaging', { ...RCS, statusCallback: 'hook' }, /^Status Callback URL must be an http\(s\) URL/),
	C('RCS empty To', 'exotelMessaging', { ...RCS, to: '={{ "" }}' }, 'To is required'),
	C('RCS bad request status callback URL', 'exotelMessaging', { ...RCS, options: { requestStatusCallback: 'hook' } }, 'Request Status Callback URL must be an http(s) URL (got "hook")'),
	C('RCS bad channel status callback URL', 'exotelMessaging', { ...RCS, options: { channelStatusCallback: 'hook' } }, 'Channel Status Callback URL must be an http(s) URL (got "hook")'),
	C('RCS bad fallback SMS type (expression)', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackSmsType: '={{ "otp" }}' }, 'Fallback SMS Type must be one of promotional, transactional, transactional_opt_in (got "otp")'),
	C('RCS bad fallback encoding type (expression)', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { encodingType: '={{ "utf8" }}' } }, 'Fallback Encoding Type must be one of plain, unicode (got "utf8")'),
	C('RCS bad fallback priority (expression)', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { priority: '={{ "urgent" }}' } }, 'Fallback Priority must be one of high, normal (got "urgent")'),
	C('RCS bad fallback click tracking URL', 'exotelMessaging', { ...RCS, ...FALLBACK, fallbackOptions: { shortenUrl: true, tracking: true, clickTrackingCallbackUrl: 'clicks' } }, 'Click Tracking Callback URL must be an http(s) URL (got "clicks")'),
	// ---- Chat app ----
	C('chat 4 reply buttons', 'exotelMessaging', { ...BUTTON, buttons: { button: Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, title: `B${i}` })) } }, 'Reply buttons has 4 entries; the limit is 3'),
	C('chat button title of 21', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: x(21) }] } }, 'Button 1 title is 21 characters; the limit is 20'),
	C('chat button id of 257', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: x(257), title: 'A' }] } }, 'Button 1 ID is 257 characters; the limit is 256'),
	C('chat button title of 21 ending in emoji', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: emoji(21) }] } }, 'Button 1 title is 21 characters; the limit is 20'),
	C('chat list button label of 21', 'exotelMessaging', { ...LIST, listButton: x(21) }, 'List button label is 21 characters; the limit is 20'),
	C('chat 11 sections', 'exotelMessaging', { ...LIST, rows: { row: Array.from({ length: 11 }, (_, i) => ({ sectionTitle: `S${i}`, id: `r${i}`, title: 'T' })) } }, 'List sections has 11 entries; the limit is 10'),
	C('chat 11 rows', 'exotelMessaging', { ...LIST, rows: { row: rows(11) } }, 'List rows (all sections together) has 11 entries; the limit is 10'),
	C('chat row title of 25', 'exotelMessaging', { ...LIST, rows: { row: [{ id: 'a', title: x(25) }] } }, 'Row title (section 1, row 1) is 25 characters; the limit is 24'),
	C('chat row description of 73', 'exotelMessaging', { ...LIST, rows: { row: [{ id: 'a', title: 'A', description: x(73) }] } }, 'Row description (section 1, row 1) is 73 characters; the limit is 72'),
	C('chat row title of 25 ending in emoji', 'exotelMessaging', { ...LIST, rows: { row: [{ id: 'a', title: emoji(25) }] } }, 'Row title (section 1, row 1) is 25 characters; the limit is 24'),
	C('chat row id of 201', 'exotelMessaging', { ...LIST, rows: { row: [{ id: x(201), title: 'A' }] } }, 'Row ID (section 1, row 1) is 201 characters; the limit is 200'),
	C('chat section title missing with several sections', 'exotelMessaging', { ...LIST, rows: { row: [...rows(1, 'Monday'), { sectionTitle: '', id: 'z', title: 'Z' }] } }, 'Section 2 title is required'),
	C('chat section title of 25', 'exotelMessaging', { ...LIST, rows: { row: rows(1, x(25)) } }, 'Section 1 title is 25 characters; the limit is 24'),
	C('chat header of 61', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: x(61) }, 'Header text is 61 characters; the limit is 60'),
	C('chat body of 1025', 'exotelMessaging', { ...BUTTON, bodyText: x(1025) }, 'Body text is 1025 characters; the limit is 1024'),
	C('chat footer of 61', 'exotelMessaging', { ...BUTTON, footerText: x(61) }, 'Footer text is 61 characters; the limit is 60'),
	C('chat header of 61 ending in emoji', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: emoji(61) }, 'Header text is 61 characters; the limit is 60'),
	C('chat body of 1025 ending in emoji', 'exotelMessaging', { ...BUTTON, bodyText: emoji(1025) }, 'Body text is 1025 characters; the limit is 1024'),
	C('chat footer of 61 ending in emoji', 'exotelMessaging', { ...BUTTON, footerText: emoji(61) }, 'Footer text is 61 characters; the limit is 60'),
	C('chat JSON row id of 201 ending in emoji', 'exotelMessaging', jsonContent({ type: 'interactive', interactive: { type: 'list', body: { text: 'P' }, action: { button: 'Choose', sections: [{ rows: [{ id: emoji(201), title: 'A' }] }] } } }), 'Row ID (section 1, row 1) is 201 characters; the limit is 200'),
	C('chat bad media URL', 'exotelMessaging', { ...CHAT, messageType: 'image', mediaUrl: 'not a url' }, /^Media URL must be an http\(s\) URL/),
	C('chat missing media URL', 'exotelMessaging', { ...CHAT, messageType: 'image', mediaUrl: '={{ "" }}' }, 'Media URL is required'),
	C('chat latitude 91', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 91, longitude: 0 }, 'Latitude is 91; the maximum is 90'),
	C('chat non-E.164 To', 'exotelMessaging', { ...CHAT, to: '09876543210' }, 'To must be an E.164 number such as +919876543210 (got "09876543210")'),
	C('chat JSON content not an object', 'exotelMessaging', { ...CHAT, contentMode: 'json', contentJson: '[1, 2]' }, 'Content (JSON) is not a JSON object'),
	C('chat JSON content with 4 buttons', 'exotelMessaging', { ...CHAT, contentMode: 'json', contentJson: JSON.stringify({ type: 'interactive', interactive: { type: 'button', body: { text: 'P' }, action: { buttons: Array.from({ length: 4 }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: 'B' } })) } } }) }, 'Reply buttons has 4 entries; the limit is 3'),
	C('Set Webhooks missing incoming URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: '={{ "" }}' }, 'Incoming Message URL is required'),
	C('chat empty From', 'exotelMessaging', { ...CHAT, from: '={{ "" }}' }, 'From is required'),
	C('chat non-E.164 From', 'exotelMessaging', { ...CHAT, from: '08047112233' }, 'From must be an E.164 number such as +919876543210 (got "08047112233")'),
	C('chat empty To', 'exotelMessaging', { ...CHAT, to: '={{ "" }}' }, 'To is required'),
	C('chat bad Status Callback URL', 'exotelMessaging', { ...CHAT, statusCallback: 'receipts' }, 'Status Callback URL must be an http(s) URL (got "receipts")'),
	C('chat empty text', 'exotelMessaging', { ...CHAT, text: '={{ "" }}' }, 'Text is required'),
	C('chat latitude -91', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: -91, longitude: 0 }, 'Latitude is -91; the minimum is -90'),
	C('chat longitude 181', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 0, longitude: 181 }, 'Longitude is 181; the maximum is 180'),
	C('chat longitude -181', 'exotelMessaging', { ...CHAT, messageType: 'location', latitude: 0, longitude: -181 }, 'Longitude is -181; the minimum is -180'),
	C('chat no contacts', 'exotelMessaging', { ...CHAT, messageType: 'contacts', contacts: {} }, 'Contacts is required'),
	C('chat contact without a name', 'exotelMessaging', { ...CHAT, messageType: 'contacts', contacts: { contact: [{ phone: '+919876543210' }] } }, 'Contact 1 name is required'),
	C('chat JSON unknown content type', 'exotelMessaging', jsonContent({ type: 'poll', poll: {} }), 'Content type must be one of audio, contacts, document, image, interactive, location, sticker, text, video (got "poll")'),
	C('chat JSON recipient type not individual', 'exotelMessaging', jsonContent({ recipient_type: 'group', type: 'text', text: { body: 'Hi' } }), 'Recipient type must be one of individual (got "group")'),
	C('chat JSON interactive type not button or list', 'exotelMessaging', interactive({ type: 'carousel' }), 'Interactive type must be one of button, list (got "carousel")'),
	C('chat JSON header type audio', 'exotelMessaging', interactive({ header: { type: 'audio' } }), 'Header type must be one of document, image, text, video (got "audio")'),
	C('chat JSON button type not reply', 'exotelMessaging', interactive({ action: { buttons: [{ type: 'url', reply: { id: 'a', title: 'A' } }] } }), 'Button 1 type must be one of reply (got "url")'),
	C('chat empty header text', 'exotelMessaging', { ...BUTTON, headerType: 'text', headerText: '={{ "" }}' }, 'Header text is required'),
	C('chat bad header media URL', 'exotelMessaging', { ...BUTTON, headerType: 'image', headerMediaUrl: 'offer.jpg' }, 'Header media URL must be an http(s) URL (got "offer.jpg")'),
	C('chat empty body text', 'exotelMessaging', { ...BUTTON, bodyText: '={{ "" }}' }, 'Body text is required'),
	C('chat no reply buttons', 'exotelMessaging', { ...BUTTON, buttons: {} }, 'Reply buttons is required'),
	C('chat button without ID', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: '', title: 'A' }] } }, 'Button 1 ID is required'),
	C('chat button without title', 'exotelMessaging', { ...BUTTON, buttons: { button: [{ id: 'a', title: '' }] } }, 'Button 1 title is required'),
	C('chat list without button label', 'exotelMessaging', { ...LIST, listButton: '={{ "" }}' }, 'List button label is required'),
	C('chat list without rows', 'exotelMessaging', { ...LIST, rows: {} }, 'List sections is required'),
	C('chat row without ID', 'exotelMessaging', { ...LIST, rows: { row: [{ id: '', title: 'A' }] } }, 'Row ID (section 1, row 1) is required'),
	C('chat row without title', 'exotelMessaging', { ...LIST, rows: { row: [{ id: 'a', title: '' }] } }, 'Row title (section 1, row 1) is required'),
	C('Set Webhooks bad incoming URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: 'hooks' }, 'Incoming Message URL must be an http(s) URL (got "hooks")'),
	C('Set Webhooks bad status callback URL', 'exotelMessaging', { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: FLOW, statusCallbackUrl: 'receipts' }, 'Status Callback URL must be an http(s) URL (got "receipts")'),
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
	C('Connect empty From', 'exotelVoice', { ...CONNECT, from: '={{ "" }}' }, 'From is required'),
	C('Connect empty Flow URL', 'exotelVoice', { ...CONNECT, url: '={{ "" }}' }, 'Flow URL is required'),
	C('Connect bad Status Callback URL', 'exotelVoice', { ...CONNECT, statusCallback: 'status' }, 'Status Callback URL must be an http(s) URL (got "status")'),
	C('Connect fractional Time Limit', 'exotelVoice', { ...CONNECT, additionalFields: { timeLimit: 90.5 } }, 'Time Limit must be a whole number (got 90.5)'),
	C('Connect fractional Time Out', 'exotelVoice', { ...CONNECT, additionalFields: { timeOut: 20.5 } }, 'Time Out must be a whole number (got 20.5)'),
	C('Connect bad Status Callback Events (expression)', 'exotelVoice', { ...CONNECT, additionalFields: { statusCallbackEvents: '={{ ["ringing"] }}' } }, 'Status Callback Events [0] must be one of answered, terminal (got "ringing")'),
	C('Get Many non-E.164 To', 'exotelVoice', { ...GET_MANY, filters: { to: '+919988700001, 09988700002' } }, 'To [1] must be an E.164 number such as +919876543210 (got "09988700002")'),
	C('Get Many non-E.164 From', 'exotelVoice', { ...GET_MANY, filters: { from: '9988700001' } }, 'From [0] must be an E.164 number such as +919876543210 (got "9988700001")'),
	C('Get Many bad Status (expression)', 'exotelVoice', { ...GET_MANY, filters: { status: '={{ "ringing" }}' } }, 'Status must be one of busy, completed, failed, no-answer (got "ringing")'),
	C('Get Many bad Direction (expression)', 'exotelVoice', { ...GET_MANY, filters: { direction: '={{ "outbound" }}' } }, 'Direction must be one of inbound, outbound-api, outbound-dial (got "outbound")'),
	C('Call get details empty SID', 'exotelVoice', { resource: 'call', operation: 'getDetails', callSid: '={{ "" }}' }, 'Call SID is required'),
	C('voice log empty SID', 'exotelVoice', { ...VOICE_LOG, callSid: '={{ "" }}' }, 'Call SID is required'),
	C('voice log bad format (expression)', 'exotelVoice', { ...VOICE_LOG, format: '={{ "ogg" }}' }, 'Format must be one of mp3, wav (got "ogg")'),
	C('voice log bad channel (expression)', 'exotelVoice', { ...VOICE_LOG, channel: '={{ "stereo" }}' }, 'Channel must be one of single, dual (got "stereo")'),
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
	C('campaign non-phone number', 'exotelVoice', { ...CREATE, from: '+919845000001, call me' }, 'Numbers [1] must be a phone number such as +919876543210 (got "callme")'),
	C('campaign no lists', 'exotelVoice', { ...CREATE, recipientSource: 'lists', lists: '={{ "" }}' }, 'List IDs (static campaign) is required'),
	C('campaign bad Campaign Type (expression)', 'exotelVoice', { ...CREATE, campaignType: '={{ "weekly" }}' }, 'Campaign Type must be one of dynamic, static (got "weekly")'),
	C('campaign bad Flow Type (expression)', 'exotelVoice', { ...CREATE, additionalFields: { flowType: '={{ "sms" }}' } }, 'Flow Type must be one of greeting, ivr (got "sms")'),
	C('campaign bad Flow URL', 'exotelVoice', { ...CREATE, additionalFields: { url: 'start_voice/926' } }, 'Flow URL must be an http(s) URL (got "start_voice/926")'),
	C('campaign bad Mode (expression)', 'exotelVoice', { ...CREATE, additionalFields: { mode: '={{ "fast" }}' } }, 'Mode must be one of auto, custom (got "fast")'),
	C('campaign throttle 0', 'exotelVoice', { ...CREATE, additionalFields: { mode: 'custom', throttle: 0 } }, 'Throttle is 0; the minimum is 1'),
	C('campaign custom mode without throttle', 'exotelVoice', { ...CREATE, additionalFields: { mode: 'custom' } }, 'Mode Custom needs Throttle (calls per minute)'),
	C('campaign -1 retries', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: -1 } } } }, 'Number of Retries is -1; the minimum is 0'),
	C('campaign fractional retry interval', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 1, intervalMins: 2.5 } } } }, 'Retry Interval (Minutes) must be a whole number (got 2.5)'),
	C('campaign bad retry mechanism (expression)', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 1, mechanism: '={{ "Random" }}' } } } }, 'Retry Mechanism must be one of Linear, Exponential (got "Random")'),
	C('campaign bad retry status (expression)', 'exotelVoice', { ...CREATE, additionalFields: { retries: { settings: { numberOfRetries: 1, onStatus: '={{ ["answered"] }}' } } } }, 'Retry On [0] must be one of busy, no-answer, failed (got "answered")'),
	C('campaign Send At not a date (expression)', 'exotelVoice', { ...CREATE, additionalFields: { sendAt: '={{ "next monday" }}' } }, 'Send At must be a date and time such as 2026-03-01T10:00:00+05:30 (got "next monday")'),
	C('campaign End At not a date (expression)', 'exotelVoice', { ...CREATE, additionalFields: { endAt: '={{ "soon" }}' } }, 'End At must be a date and time such as 2026-03-01T10:00:00+05:30 (got "soon")'),
	C('campaign bad Status Callback URL', 'exotelVoice', { ...CREATE, additionalFields: { statusCallback: 'done' } }, 'Status Callback URL must be an http(s) URL (got "done")'),
	C('campaign bad Call Status Callback URL', 'exotelVoice', { ...CREATE, additionalFields: { callStatusCallback: 'each' } }, 'Call Status Callback URL must be an http(s) URL (got "each")'),
	C('campaign bad Call Schedule Callback URL', 'exotelVoice', { ...CREATE, additionalFields: { callScheduleCallback: 'after' } }, 'Call Schedule Callback URL must be an http(s) URL (got "after")'),
	C('campaign fractional Repeat Menu Attempts', 'exotelVoice', { ...CREATE, additionalFields: { repeatMenuAttempts: 1.5 } }, 'Repeat Menu Attempts must be a whole number (got 1.5)'),
	C('campaign update numbers and lists together', 'exotelVoice', { ...UPDATE, updateFields: { from: '+919845000001', lists: 'list-1' } }, 'Give Numbers or List IDs, not both', { readsFirst: true }),
	C('campaign update 6 static lists', 'exotelVoice', { ...UPDATE, updateFields: { lists: list(6, (i) => `list-${i}`) } }, 'List IDs (static campaign) has 6 entries; the limit is 5', { readsFirst: true }),
	C('campaign update 5001 numbers', 'exotelVoice', { ...UPDATE, updateFields: { from: numbers(5001).join(',') } }, 'Numbers has 5001 entries; the limit is 5000', { readsFirst: true }),
	C('campaign update 4 retries', 'exotelVoice', { ...UPDATE, updateFields: { retries: { settings: { numberOfRetries: 4 } } } }, 'Number of Retries is 4; the maximum is 3', { readsFirst: true }),
	C('campaign update throttle without custom mode', 'exotelVoice', { ...UPDATE, updateFields: { throttle: 5 } }, 'Throttle needs Mode set to Custom', { readsFirst: true }),
	C('campaign update name past send time', 'exotelVoice', { ...UPDATE, campaignId: 'cmp-inprogress', updateFields: { name: 'Renamed' } }, 'Campaign cmp-inprogress is past its send time, so only the callback URLs can change; not updatable now: Name', { readsFirst: true }),
	C('campaign resume from Created', 'exotelVoice', { resource: 'campaign', operation: 'resume', campaignId: 'cmp-created' }, 'Cannot resume campaign cmp-created: its status is Created; resume is allowed only from Paused', { readsFirst: true }),
	C('campaign complete from Created', 'exotelVoice', { resource: 'campaign', operation: 'complete', campaignId: 'cmp-created' }, 'Cannot complete campaign cmp-created: its status is Created; complete is allowed only from Paused', { readsFirst: true }),
	C('campaign archive from Paused', 'exotelVoice', { resource: 'campaign', operation: 'archive', campaignId: 'cmp-paused' }, 'Cannot archive campaign cmp-paused: its status is Paused; archive is allowed only from Completed', { readsFirst: true }),
	C('campaign get empty ID', 'exotelVoice', { resource: 'campaign', operation: 'get', campaignId: '={{ "" }}' }, 'Campaign ID is required'),
	C('campaign list bad Sort By (expression)', 'exotelVoice', { resource: 'campaign', operation: 'getMany', filters: { sortBy: '={{ "status:asc" }}' } }, 'Sort By must be one of date_created:desc, date_created:asc, name:asc, name:desc (got "status:asc")'),
	C('campaign call details bad Status (expression)', 'exotelVoice', { ...CALL_DETAILS, filters: { status: '={{ "answered" }}' } }, 'Status must be one of busy, completed, failed, no-answer (got "answered")'),
	C('campaign call details bad Sort By (expression)', 'exotelVoice', { ...CALL_DETAILS, filters: { sortBy: '={{ "name:asc" }}' } }, 'Sort By must be one of date_created:desc, date_created:asc (got "name:asc")'),
	// ---- Voice: users, devices, lists ----
	C('user list limit 0', 'exotelVoice', { resource: 'user', operation: 'getMany', returnAll: false, limit: 0 }, 'Limit is 0; the minimum is 1'),
	C('user device number not E.164', 'exotelVoice', { resource: 'user', operation: 'getMany', filters: { contactUri: '09876500001' } }, 'Device Number must be an E.164 number such as +919876543210 (got "09876500001")'),
	C('user get empty ID', 'exotelVoice', { resource: 'user', operation: 'get', userId: '={{ "" }}' }, 'User ID is required'),
	C('both devices disabled', 'exotelVoice', { ...DEVICE, phone: 'disable', sip: 'disable' }, 'Phone and SIP cannot both be disabled: at least one device stays enabled'),
	C('device update with nothing', 'exotelVoice', { ...DEVICE }, 'Choose a change for Phone or SIP'),
	C('device Phone not a choice (boolean from an expression)', 'exotelVoice', { ...DEVICE, phone: '={{ true }}' }, 'Phone (PSTN) must be one of disable, enable, unchanged (got "true")'),
	C('device SIP not a choice', 'exotelVoice', { ...DEVICE, phone: 'enable', sip: '={{ "off" }}' }, 'SIP (WebRTC) must be one of disable, enable, unchanged (got "off")'),
	C('list bulk rename without a name', 'exotelVoice', { resource: 'list', operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, 'New Name is required', { items: [{ sid: 'list-1', name: 'A' }, { sid: 'list-2' }], item: 1 }),
	C('user list bad Extra Fields (expression)', 'exotelVoice', { resource: 'user', operation: 'getMany', filters: { fields: '={{ ["email"] }}' } }, 'Extra Fields [0] must be one of active_call, devices, last_login (got "email")'),
	C('device update empty Customer ID', 'exotelVoice', { ...DEVICE, customerId: '={{ "" }}', phone: 'enable' }, 'Customer ID is required'),
	C('device update empty App ID', 'exotelVoice', { ...DEVICE, appId: '={{ "" }}', phone: 'enable' }, 'App ID is required'),
	C('device update empty User ID', 'exotelVoice', { ...DEVICE, userId: '={{ "" }}', phone: 'enable' }, 'User ID is required'),
	C('list rename without a name', 'exotelVoice', { resource: 'list', operation: 'rename', listSid: 'list-1', name: '={{ "" }}' }, 'New Name is required'),
	C('list rename empty List ID', 'exotelVoice', { resource: 'list', operation: 'rename', listSid: '={{ "" }}', name: 'Renamed' }, 'List ID is required'),
	C('list remove contact without contact ID', 'exotelVoice', { resource: 'list', operation: 'removeContact', listSid: 'list-1', contactSid: '={{ "" }}' }, 'Contact ID is required'),
	// ---- Voice: contact upload ----
	C('upload non-.csv file', 'exotelVoice', UPLOAD_FILE, 'The file must be a .csv file (got "contacts.xlsx")', { csv: true, items: [{ csv: 'phone_number\n+919811100001\n', fileName: 'contacts.xlsx' }] }),
	C('upload file over 10 MB', 'exotelVoice', UPLOAD_FILE, /^The file is 10\.0 MB \(\d+ bytes\); the limit is 10\.0 MB \(10485760 bytes\)$/, { csv: true, items: [{ bytes: 10 * 1024 * 1024 + 1 }] }),
	C('upload over 50,000 records', 'exotelVoice', UPLOAD_FILE, 'The CSV has 50001 records; the limit is 50000', { csv: true, items: [{ records: 50_001 }] }),
	C('upload without phone_number column', 'exotelVoice', UPLOAD_FILE, 'The CSV header row has no phone_number column', { csv: true, items: [{ csv: 'phone,name\n+919811100001,A\n' }] }),
	C('upload items non-E.164 phone_number', 'exotelVoice', UPLOAD_ITEMS, 'Phone number (field "phone_number") must be an E.164 number such as +919876543210 (got "09811100001")', { items: [{ phone_number: '+919811100001' }, { phone_number: '09811100001' }], item: 1 }),
	C('upload items without phone_number', 'exotelVoice', UPLOAD_ITEMS, 'Phone number (field "phone_number") is required', { items: [{ phone_number: '+919811100001' }, { first_name: 'Nobody' }], item: 1 }),
	C('upload items file name not .csv', 'exotelVoice', { ...UPLOAD_ITEMS, options: { fileName: 'contacts.txt' } }, 'The file must be a .csv file (got "contacts.txt")', { items: [{ phone_number: '+919811100001' }], item: null }),
	C('upload without a file', 'exotelVoice', UPLOAD_FILE, 'The input item has no binary field "data"', { items: [{ phone_number: '+919811100001' }] }),
	C('upload file bad Duplicate Action (expression)', 'exotelVoice', { ...UPLOAD_FILE, duplicateAction: '={{ "merge" }}' }, 'Duplicate Action must be one of create_new, skip, update (got "merge")', { csv: true, items: [{ csv: 'phone_number\n+919811100001\n' }] }),
	C('upload items bad Duplicate Action (expression)', 'exotelVoice', { ...UPLOAD_ITEMS, duplicateAction: '={{ "merge" }}' }, 'Duplicate Action must be one of create_new, skip, update (got "merge")', { items: [{ phone_number: '+919811100001' }], item: null }),
	C('upload items over 50,000 records', 'exotelVoice', UPLOAD_ITEMS, '50001 input items make 50001 CSV records; the limit is 50000', { items: Array.from({ length: 50_001 }, (_, i) => ({ phone_number: `+9198${String(11000000 + i)}` })), item: null }),
	C('upload status empty ID', 'exotelVoice', { resource: 'contact', operation: 'getUploadStatus', uploadId: '={{ "" }}' }, 'Upload ID is required'),
	// ---- Number allocation ----
	C('allocation non-E.164 a-party', 'exotelNumberAllocation', { ...ALLOCATE, apartyNumbers: '+919876543210, 9876543211' }, 'A-Party Numbers [1] must be an E.164 number such as +919876543210 (got "9876543211")'),
	C('allocation non-E.164 b-party', 'exotelNumberAllocation', { ...ALLOCATE, bpartyNumbers: '={{ $json.b }}' }, 'B-Party Numbers [0] must be an E.164 number such as +919876543210 (got "919812345678")', { items: [{ b: '+919812345678' }, { b: '919812345678' }], item: 1 }),
	C('allocation missing b-party', 'exotelNumberAllocation', { ...ALLOCATE, bpartyNumbers: '={{ "" }}' }, 'B-Party Numbers is required'),
	C('allocation zero pin', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { apartyPins: '0' } }, 'A-Party PINs [0] is 0; the minimum is 1'),
	C('allocation fractional pin', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { bpartyPins: '12.5' } }, 'B-Party PINs [0] must be a whole number (got 12.5)'),
	C('allocation bad region via expression', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { region: '={{ "XX" }}' } }, 'Preferred Region must be one of AP, DL, GJ, KA, KL, MH, MP, MU, RJ, TN, WB (got "XX")'),
	C('allocation bad duration', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { duration: '2 days' } }, 'Deallocate After must be a number followed by d, m or s, such as 2d or 3600s (got "2 days")'),
	C('allocation preferred number not E.164', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { greenvn: '08047112233' } }, 'Preferred Number must be an E.164 number such as +919876543210 (got "08047112233")'),
	C('allocation missing connection ID', 'exotelNumberAllocation', { ...ALLOCATE, connectionId: '={{ "" }}' }, 'Connection ID is required'),
	C('allocation missing a-party', 'exotelNumberAllocation', { ...ALLOCATE, apartyNumbers: '={{ "" }}' }, 'A-Party Numbers is required'),
	C('allocation bad usage (expression)', 'exotelNumberAllocation', { ...ALLOCATE, usage: '={{ "threeway" }}' }, 'Usage must be one of oneway, twoway (got "threeway")'),
	C('allocation bad number type (expression)', 'exotelNumberAllocation', { ...ALLOCATE, additionalFields: { type: '={{ "tollfree" }}' } }, 'Preferred Number Type must be one of landline, mobile (got "tollfree")'),
	C('deallocate empty GreenVN ID', 'exotelNumberAllocation', { resource: 'allocation', operation: 'deallocate', greenvnId: '={{ "" }}' }, 'GreenVN ID is required'),
	C('allocation get empty GreenVN ID', 'exotelNumberAllocation', { resource: 'allocation', operation: 'get', greenvnId: '={{ "" }}' }, 'GreenVN ID is required'),
	// ---- Contact center ----
	C('contact-center create missing user id', 'exotelContactCenter', { ...CC_CREATE, userId: '={{ "" }}' }, 'User ID is required'),
	C('contact-center create missing user name', 'exotelContactCenter', { ...CC_CREATE, userName: '={{ "" }}' }, 'User Name is required'),
	C('contact-center update with nothing', 'exotelContactCenter', { resource: 'user', operation: 'update', userId: 'asha.rao' }, 'At least one field to update is required'),
	C('contact-center create missing user type', 'exotelContactCenter', { ...CC_CREATE, userType: '={{ "" }}' }, 'User Type is required'),
	C('contact-center create fractional contact center ID', 'exotelContactCenter', { ...CC_CREATE, contactCenterId: 1.5 }, 'Contact Center ID must be a whole number (got 1.5)'),
	C('contact-center update missing user id', 'exotelContactCenter', { ...CC_UPDATE, userId: '={{ "" }}', additionalFields: { userName: 'Asha R' } }, 'User ID is required'),
	C('contact-center update fractional contact center ID', 'exotelContactCenter', { ...CC_UPDATE, additionalFields: { contactCenterId: 2.5 } }, 'Contact Center ID must be a whole number (got 2.5)'),
	C('contact-center update fractional max logins', 'exotelContactCenter', { ...CC_UPDATE, additionalFields: { maxAllowedLogins: 2.5 } }, 'Max Allowed Logins must be a whole number (got 2.5)'),
	C('contact-center delete missing user id', 'exotelContactCenter', { resource: 'user', operation: 'delete', userId: '={{ "" }}' }, 'User ID is required'),
	C('contact-center campaigns fractional contact center ID', 'exotelContactCenter', { resource: 'campaign', operation: 'getMany', contactCenterId: 1.5 }, 'Contact Center ID must be a whole number (got 1.5)'),
	C('voice-log download fractional campaign ID', 'exotelContactCenter', { ...CC_DOWNLOAD, campaignId: 1.5 }, 'Campaign ID must be a whole number (got 1.5)'),
	C('voice-log download missing CRT object ID', 'exotelContactCenter', { ...CC_DOWNLOAD, crtObjectId: '={{ "" }}' }, 'CRT Object ID is required'),
	C('voice-log download missing call ID', 'exotelContactCenter', { ...CC_DOWNLOAD, callId: '={{ "" }}' }, 'Call ID is required'),
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
