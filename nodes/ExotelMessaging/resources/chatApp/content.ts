import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../../shared/rules/limits';
import { firstProblem, type FieldCheck } from '../../../shared/rules/validation';
import { objectOf } from '../../../shared/rules/values';

export const CHAT_APP_TYPES = [
	'audio',
	'contacts',
	'document',
	'image',
	'interactive',
	'location',
	'sticker',
	'text',
	'video',
] as const;

/** Content types that are a file at a link. */
export const MEDIA_TYPES: readonly string[] = ['audio', 'document', 'image', 'sticker', 'video'];
/** Media that may carry a caption, and the media an interactive message's header may be. */
export const CAPTIONED_MEDIA_TYPES: readonly string[] = ['document', 'image', 'video'];
const HEADER_TYPES = [...CAPTIONED_MEDIA_TYPES, 'text'].sort();
const L = LIMITS.chatApp;

function asArray(value: unknown): IDataObject[] {
	return Array.isArray(value) ? (value as IDataObject[]) : [];
}

/**
 * The first problem of a chat-app `content` object against the spec's content table and limits
 * table (3 buttons, title 20 / id 256, list button 20, 10 sections, 10 rows, row 24 / 72 / 200,
 * section titles, header 60, body 1024, footer 60), whether the node built it or the user did.
 */
export function chatAppContentProblem(content: IDataObject): string | undefined {
	const checks: FieldCheck[] = [];
	const type = content.type as string;
	checks.push([type, { label: 'Content type', required: true, oneOf: CHAT_APP_TYPES }]);
	if (content.recipient_type !== undefined) {
		checks.push([content.recipient_type, { label: 'Recipient type', oneOf: ['individual'] }]);
	}
	const body = objectOf(content[type]) ?? {};
	if (type === 'text') {
		checks.push([body.body, { label: 'Text', required: true }]);
	} else if (MEDIA_TYPES.includes(type)) {
		checks.push([body.link, { label: 'Media URL', required: true, format: 'url' }]);
	} else if (type === 'location') {
		checks.push(
			[body.latitude, { label: 'Latitude', required: true, min: -90, max: 90 }],
			[body.longitude, { label: 'Longitude', required: true, min: -180, max: 180 }],
		);
	} else if (type === 'contacts') {
		const contacts = asArray(content.contacts);
		checks.push([contacts, { label: 'Contacts', required: true }]);
		contacts.forEach((contact, index) => {
			const name = objectOf(contact.name);
			checks.push([name?.formatted_name ?? name?.first_name, { label: `Contact ${index + 1} name`, required: true }]);
		});
	} else if (type === 'interactive') {
		return firstProblem(checks) ?? interactiveProblem(objectOf(content.interactive) ?? {});
	}
	return firstProblem(checks);
}

function interactiveProblem(interactive: IDataObject): string | undefined {
	const header = objectOf(interactive.header) ?? {};
	const action = objectOf(interactive.action) ?? {};
	const checks: FieldCheck[] = [
		[interactive.type, { label: 'Interactive type', required: true, oneOf: ['button', 'list'] }],
		[objectOf(interactive.body)?.text, { label: 'Body text', required: true, maxLength: L.body }],
		[objectOf(interactive.footer)?.text, { label: 'Footer text', maxLength: L.footer }],
	];
	if (interactive.header !== undefined) {
		checks.push([header.type, { label: 'Header type', required: true, oneOf: HEADER_TYPES }]);
		if (header.type === 'text') checks.push([header.text, { label: 'Header text', required: true, maxLength: L.headerText }]);
		else if (HEADER_TYPES.includes(String(header.type))) {
			checks.push([objectOf(header[String(header.type)])?.link, { label: 'Header media URL', required: true, format: 'url' }]);
		}
	}
	if (interactive.type === 'button') {
		const buttons = asArray(action.buttons);
		checks.push([buttons, { label: 'Reply buttons', required: true, maxItems: L.replyButtons }]);
		buttons.forEach((button, index) => {
			const reply = objectOf(button.reply) ?? {};
			checks.push(
				[button.type ?? 'reply', { label: `Button ${index + 1} type`, oneOf: ['reply'] }],
				[reply.id, { label: `Button ${index + 1} ID`, required: true, maxLength: L.replyButtonId }],
				[reply.title, { label: `Button ${index + 1} title`, required: true, maxLength: L.replyButtonTitle }],
			);
		});
	} else if (interactive.type === 'list') {
		const sections = asArray(action.sections);
		const rows = sections.flatMap((section) => asArray(section.rows));
		checks.push(
			[action.button, { label: 'List button label', required: true, maxLength: L.listButtonLabel }],
			[sections, { label: 'List sections', required: true, maxItems: L.listSections }],
			[rows, { label: 'List rows (all sections together)', required: true, maxItems: L.listRowsTotal }],
		);
		sections.forEach((section, sectionIndex) => {
			checks.push([
				section.title,
				{ label: `Section ${sectionIndex + 1} title`, required: sections.length > 1, maxLength: L.listSectionTitle },
			]);
			asArray(section.rows).forEach((row, rowIndex) => {
				const where = `section ${sectionIndex + 1}, row ${rowIndex + 1}`;
				checks.push(
					[row.id, { label: `Row ID (${where})`, required: true, maxLength: L.listRowId }],
					[row.title, { label: `Row title (${where})`, required: true, maxLength: L.listRowTitle }],
					[row.description, { label: `Row description (${where})`, maxLength: L.listRowDescription }],
				);
			});
		});
	}
	return firstProblem(checks);
}
