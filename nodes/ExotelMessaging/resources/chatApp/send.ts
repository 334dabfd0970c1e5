import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { optionsCollection, statusCallbackField } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { itemParameters, type GivenParameters, type ItemParameters } from '../../../shared/items/parameters';
import { sendInBatches } from '../../../shared/items/sendInBatches';
import { envelopeOutcomes } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, normalizePhone, trimmed } from '../../../shared/rules/validation';
import { exotelCredentials } from '../../../shared/transport/address';
import { chatAppEnvelopeOf, chatAppSendBody } from '../../../shared/transport/live';
import type { NodeRun } from '../../../shared/transport/run';
import { MESSAGES } from '../../endpoints';
import { messageSending, recipientField, senderField } from '../../messages';
import { CAPTIONED_MEDIA_TYPES, chatAppContentProblem, MEDIA_TYPES } from './content';

const fields = { contentMode: ['fields'] };
const ofType = (...messageType: string[]) => ({ show: { ...fields, messageType } });
const L = LIMITS.chatApp;

/** Dropdown entries named after their values (`image` is Image), with the described ones, in alphabetical order. */
function typeOptions(types: readonly string[], described: INodePropertyOptions[] = []): INodePropertyOptions[] {
	const named = types.map((value) => ({ name: value[0].toUpperCase() + value.slice(1), value }));
	return [...named, ...described].sort((a, b) => a.name.localeCompare(b.name));
}

export const option: OperationOption = {
	name: 'Send',
	value: 'send',
	action: 'Send a chat app message',
	description: 'Send a text, media, location, contacts or interactive message per input item',
};

export const description: INodeProperties[] = [
	senderField('Business number with the chat app enabled, in E.164 format'),
	recipientField('Recipient in E.164 format; each input item is one message'),
	{
		displayName: 'Content Mode',
		name: 'contentMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json', description: 'Give the whole content object yourself' },
		],
		default: 'fields',
	},
	{
		displayName: 'Content (JSON)',
		name: 'contentJson',
		type: 'json',
		required: true,
		default: '{\n  "type": "text",\n  "text": { "body": "Hello from n8n" }\n}',
		description: 'The content object of the spec: type plus the object named after it. It is checked against the same limits before sending.',
		displayOptions: { show: { contentMode: ['json'] } },
	},
	{
		displayName: 'Message Type',
		name: 'messageType',
		type: 'options',
		options: typeOptions(
			['audio', 'contacts', ...CAPTIONED_MEDIA_TYPES, 'location', 'text'],
			[
				{ name: 'Interactive List', value: 'list', description: 'A button that opens a list of choices' },
				{ name: 'Interactive Reply Buttons', value: 'button', description: `Up to ${L.replyButtons} quick-reply buttons` },
				{ name: 'Sticker', value: 'sticker', description: 'A 512x512 px WebP image: up to 100 KB static, 500 KB animated' },
			],
		),
		default: 'text',
		displayOptions: { show: fields },
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		displayOptions: ofType('text'),
	},
	{
		displayName: 'Preview URL',
		name: 'previewUrl',
		type: 'boolean',
		default: false,
		description: 'Whether to show a preview of the first http:// or https:// link in the text',
		displayOptions: ofType('text'),
	},
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/files/invoice-1042.pdf',
		description: 'Public URL of the file',
		displayOptions: ofType(...MEDIA_TYPES),
	},
	{
		displayName: 'Caption',
		name: 'caption',
		type: 'string',
		default: '',
		displayOptions: ofType(...CAPTIONED_MEDIA_TYPES),
	},
	{
		displayName: 'File Name',
		name: 'filename',
		type: 'string',
		default: '',
		placeholder: 'invoice-1042.pdf',
		description: 'Name and format shown in the app',
		displayOptions: ofType('document'),
	},
	{
		displayName: 'Latitude',
		name: 'latitude',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { numberPrecision: 6 },
		displayOptions: ofType('location'),
	},
	{
		displayName: 'Longitude',
		name: 'longitude',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { numberPrecision: 6 },
		displayOptions: ofType('location'),
	},
	{
		displayName: 'Location Name',
		name: 'locationName',
		type: 'string',
		default: '',
		displayOptions: ofType('location'),
	},
	{
		displayName: 'Location Address',
		name: 'locationAddress',
		type: 'string',
		default: '',
		hint: 'The address is shown only when a name is given',
		displayOptions: ofType('location'),
	},
	{
		displayName: 'Contacts',
		name: 'contacts',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Contact',
		default: {},
		displayOptions: ofType('contacts'),
		options: [
			{
				displayName: 'Contact',
				name: 'contact',
				values: [
					{ displayName: 'Company', name: 'company', type: 'string', default: '' },
					{ displayName: 'Email', name: 'email', type: 'string', default: '', placeholder: 'name@email.com' },
					{ displayName: 'Email Type', name: 'emailType', type: 'string', default: 'WORK', placeholder: 'WORK' },
					{ displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
					{ displayName: 'Formatted Name', name: 'formattedName', type: 'string', default: '', description: 'Full name as shown' },
					{ displayName: 'Job Title', name: 'title', type: 'string', default: '' },
					{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
					{ displayName: 'Phone', name: 'phone', type: 'string', default: '', placeholder: '+919876543210' },
					{ displayName: 'Phone Type', name: 'phoneType', type: 'string', default: 'CELL', placeholder: 'CELL' },
				],
			},
		],
	},
	{
		displayName: 'Header Type',
		name: 'headerType',
		type: 'options',
		options: typeOptions([...CAPTIONED_MEDIA_TYPES, 'none', 'text']),
		default: 'none',
		displayOptions: ofType('button', 'list'),
	},
	{
		displayName: 'Header Text',
		name: 'headerText',
		type: 'string',
		default: '',
		description: `At most ${L.headerText} characters`,
		displayOptions: { show: { ...fields, messageType: ['button', 'list'], headerType: ['text'] } },
	},
	{
		displayName: 'Header Media URL',
		name: 'headerMediaUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/images/offer.jpg',
		displayOptions: { show: { ...fields, messageType: ['button', 'list'], headerType: [...CAPTIONED_MEDIA_TYPES] } },
	},
	{
		displayName: 'Body Text',
		name: 'bodyText',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		description: `At most ${L.body} characters`,
		displayOptions: ofType('button', 'list'),
	},
	{
		displayName: 'Footer Text',
		name: 'footerText',
		type: 'string',
		default: '',
		description: `At most ${L.footer} characters`,
		displayOptions: ofType('button', 'list'),
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Button',
		default: {},
		description: `Up to ${L.replyButtons} reply buttons`,
		displayOptions: ofType('button'),
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{ displayName: 'ID', name: 'id', type: 'string', default: '', description: `Returned when tapped; at most ${L.replyButtonId} characters` },
					{ displayName: 'Title', name: 'title', type: 'string', default: '', description: `At most ${L.replyButtonTitle} characters` },
				],
			},
		],
	},
	{
		displayName: 'List Button Label',
		name: 'listButton',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Choose a slot',
		description: `Label of the button that opens the list; at most ${L.listButtonLabel} characters`,
		displayOptions: ofType('list'),
	},
	{
		displayName: 'Rows',
		name: 'rows',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Row',
		default: {},
		description: `Up to ${L.listRowsTotal} rows in up to ${L.listSections} sections; rows with the same section title form one section`,
		displayOptions: ofType('list'),
		options: [
			{
				displayName: 'Row',
				name: 'row',
				values: [
					{ displayName: 'Description', name: 'description', type: 'string', default: '', description: `At most ${L.listRowDescription} characters` },
					{ displayName: 'ID', name: 'id', type: 'string', default: '', description: `At most ${L.listRowId} characters` },
					{
						displayName: 'Section Title',
						name: 'sectionTitle',
						type: 'string',
						default: '',
						description: `Required when there are several sections; at most ${L.listSectionTitle} characters`,
					},
					{ displayName: 'Title', name: 'title', type: 'string', default: '', description: `At most ${L.listRowTitle} characters` },
				],
			},
		],
	},
	statusCallbackField('Messaging', 'delivery and read receipts'),
	optionsCollection([
		{
			displayName: 'Custom Data',
			name: 'customData',
			type: 'string',
			default: '',
			description: 'Your own metadata, echoed in the callbacks',
		},
	]),
];

function entries(value: unknown, key: string): IDataObject[] {
	const collection = (value ?? {}) as IDataObject;
	return Array.isArray(collection[key]) ? (collection[key] as IDataObject[]) : [];
}

/** Builds the `content` object from the node's fields, leaving empty optional fields out. */
function contentFromFields(param: ItemParameters): IDataObject {
	const type = String(param('messageType', 'text'));
	if (type === 'text') {
		const text: IDataObject = { body: String(param('text', '')) };
		if (param('previewUrl', false) === true) text.preview_url = true;
		return { type, text };
	}
	if (MEDIA_TYPES.includes(type)) return { type, [type]: mediaOf(param, type) };
	if (type === 'location') return { type, location: locationOf(param) };
	if (type === 'contacts') return { type, contacts: entries(param('contacts', {}), 'contact').map(contactOf) };
	return { type: 'interactive', interactive: interactiveOf(param, type) };
}

/** A file at a link, with its caption (document, image, video) and a document's file name. */
function mediaOf(param: ItemParameters, type: string): IDataObject {
	const media: IDataObject = { link: trimmed(param('mediaUrl')) };
	if (CAPTIONED_MEDIA_TYPES.includes(type) && trimmed(param('caption'))) media.caption = trimmed(param('caption'));
	if (type === 'document' && trimmed(param('filename'))) media.filename = trimmed(param('filename'));
	return media;
}

/** A point on the map, with its name and address when they are given. */
function locationOf(param: ItemParameters): IDataObject {
	const location: IDataObject = { latitude: Number(param('latitude')), longitude: Number(param('longitude')) };
	if (trimmed(param('locationName'))) location.name = trimmed(param('locationName'));
	if (trimmed(param('locationAddress'))) location.address = trimmed(param('locationAddress'));
	return location;
}

/** One contact card: its name (formatted from first and last when not given), phone, email and organisation. */
function contactOf(contact: IDataObject): IDataObject {
	const entry: IDataObject = {
		name: Object.fromEntries(
			[
				['formatted_name', trimmed(contact.formattedName) || `${trimmed(contact.firstName)} ${trimmed(contact.lastName)}`.trim()],
				['first_name', trimmed(contact.firstName)],
				['last_name', trimmed(contact.lastName)],
			].filter(([, value]) => value),
		),
	};
	if (trimmed(contact.phone)) entry.phones = [{ phone: trimmed(contact.phone), type: trimmed(contact.phoneType) || 'CELL' }];
	if (trimmed(contact.email)) entry.emails = [{ email: trimmed(contact.email), type: trimmed(contact.emailType) || 'WORK' }];
	if (trimmed(contact.company) || trimmed(contact.title)) {
		entry.org = Object.fromEntries([['company', trimmed(contact.company)], ['title', trimmed(contact.title)]].filter(([, v]) => v));
	}
	return entry;
}

/** An interactive message: its body, header and footer, and reply buttons (`button`) or a list (`list`). */
function interactiveOf(param: ItemParameters, type: string): IDataObject {
	const interactive: IDataObject = { type, body: { text: String(param('bodyText', '')) } };
	const headerType = String(param('headerType', 'none'));
	if (headerType === 'text') interactive.header = { type: 'text', text: String(param('headerText', '')) };
	else if (headerType !== 'none') interactive.header = { type: headerType, [headerType]: { link: trimmed(param('headerMediaUrl')) } };
	if (trimmed(param('footerText'))) interactive.footer = { text: String(param('footerText', '')) };
	if (type === 'button') {
		interactive.action = {
			buttons: entries(param('buttons', {}), 'button').map((button) => ({
				type: 'reply',
				reply: { id: trimmed(button.id), title: trimmed(button.title) },
			})),
		};
	} else {
		const sections = listSections(entries(param('rows', {}), 'row'));
		interactive.action = { button: trimmed(param('listButton')), sections };
	}
	return interactive;
}

/** A list's sections: consecutive rows with the same section title form one section; an untitled one has no `title`. */
function listSections(rows: IDataObject[]): IDataObject[] {
	const sections: IDataObject[] = [];
	for (const row of rows) {
		const title = trimmed(row.sectionTitle);
		let section = sections[sections.length - 1];
		if (!section || section.title !== title) {
			section = { title, rows: [] };
			sections.push(section);
		}
		const entry: IDataObject = { id: trimmed(row.id), title: trimmed(row.title) };
		if (trimmed(row.description)) entry.description = trimmed(row.description);
		(section.rows as IDataObject[]).push(entry);
	}
	for (const section of sections) if (!section.title) delete section.title;
	return sections;
}

interface PreparedChatApp {
	itemIndex: number;
	message: { from: string; to: string; content: IDataObject };
	request: { status_callback?: string; custom_data?: string };
}

function prepare(context: IExecuteFunctions, itemIndex: number, given: GivenParameters): PreparedChatApp | NodeOperationError {
	const node = context.getNode();
	const param = itemParameters(context, itemIndex, given);
	const typed = { from: trimmed(param('from')), to: trimmed(param('to')) };
	const from = normalizePhone(typed.from);
	const to = normalizePhone(typed.to);
	const statusCallback = trimmed(param('statusCallback'));
	const options = param('options', {}) as IDataObject;
	let content: IDataObject;
	if (param('contentMode', 'fields') === 'json') {
		const raw = param('contentJson', '{}');
		content = (typeof raw === 'string' ? jsonParse<IDataObject>(raw, { fallbackValue: undefined as unknown as IDataObject }) : raw) as IDataObject;
		if (!content || typeof content !== 'object' || Array.isArray(content)) {
			return new NodeOperationError(node, `Content (JSON) is not a JSON object (item ${itemIndex})`, { itemIndex });
		}
	} else {
		content = contentFromFields(param);
	}
	content = { recipient_type: 'individual', ...content };
	const invalid = fieldsError(node, itemIndex, [
		[typed.from, { label: 'From', required: true, format: 'e164' }],
		[typed.to, { label: 'To', required: true, format: 'e164' }],
		[statusCallback, { label: 'Status Callback URL', format: 'url' }],
	]);
	if (invalid) return invalid;
	const problem = chatAppContentProblem(content);
	if (problem) {
		return new NodeOperationError(node, `${problem} (item ${itemIndex})`, {
			itemIndex,
			description: 'Nothing was sent for this item. The limits are those of the chat app; fix the content or set the node to continue on error.',
		});
	}
	return { itemIndex, message: { from, to, content }, request: { status_callback: statusCallback, custom_data: trimmed(options.customData) } };
}

/** One message per item (the chat-app request carries a single message), a few requests at a time. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await send(this, run, items);
}

/** The send, with `given` parameters instead of the node's (the waiting operations' resume URL and message). */
export async function send(context: IExecuteFunctions, run: NodeRun, items: INodeExecutionData[], given: GivenParameters = {}): Promise<INodeExecutionData[]> {
	const node = context.getNode();
	const envelope = chatAppEnvelopeOf(await exotelCredentials(context, run, 'exotelApi'));
	return await sendInBatches(
		context,
		items,
		(itemIndex) => prepare(context, itemIndex, given),
		(prepared) =>
			prepared.map(({ itemIndex, message, request }) => ({
				endpoint: MESSAGES.send,
				body: chatAppSendBody(envelope, message, request),
				sent: [{ itemIndex, to: message.to, from: message.from }],
				outcomesOf: (answer: unknown) => envelopeOutcomes(node, 'chatapp', answer, [itemIndex], [message]),
			})),
		messageSending(context, run, 'chatapp'),
	);
}
