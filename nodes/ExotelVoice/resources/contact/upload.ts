import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { outputOf, prepareItems, type ItemOutcome } from '../../../shared/items/outcomes';
import { parameterReader } from '../../../shared/items/parameters';
import { sendEach } from '../../../shared/items/sending';
import { dataOf } from '../../../shared/output/envelope';
import { LIMITS } from '../../../shared/rules/limits';
import { fieldsError, normalizePhone, problemWith, trimmed } from '../../../shared/rules/validation';
import { encodeMultipart } from '../../../shared/transport/encoding';
import { exotelRequest, type ExotelCredentialType } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CONTACT_UPLOADS } from '../../endpoints';
import { idLocator } from '../../locators';
import { credentialTypeOf, waitForUpload, waitSettingsOf, type WaitSettings } from './api';
import { csvOf, csvShape } from './csv';
import { waitOptions } from './fields';

const U = LIMITS.contactUpload;
const fromItems = { source: ['items'] };
const fromBinary = { source: ['binary'] };

const DUPLICATE_ACTION_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Create New', value: 'create_new', description: 'Add the contact again' },
	{ name: 'Skip', value: 'skip', description: 'Keep the existing contact as it is' },
	{ name: 'Update', value: 'update', description: 'Update the existing contact' },
];

/** The spec's CSV columns, in its order; phone_number is required (E.164). */
export const CSV_COLUMNS = ['phone_number', 'first_name', 'last_name', 'email', 'company', 'tag', 'custom_field_1'] as const;

const OPTIONAL_COLUMNS: Array<{ column: (typeof CSV_COLUMNS)[number]; option: string; label: string }> = [
	{ column: 'first_name', option: 'firstNameField', label: 'First Name Field' },
	{ column: 'last_name', option: 'lastNameField', label: 'Last Name Field' },
	{ column: 'email', option: 'emailField', label: 'Email Field' },
	{ column: 'company', option: 'companyField', label: 'Company Field' },
	{ column: 'tag', option: 'tagField', label: 'Tag Field' },
	{ column: 'custom_field_1', option: 'customField1Field', label: 'Custom Field 1 Field' },
];

export const option: OperationOption = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload contacts',
	description: 'Upload contacts from a CSV file or from input items, optionally into a list',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{ name: 'Build From Input Items', value: 'items', description: 'All input items become one CSV, one row each, uploaded once' },
			{ name: 'CSV File From Input', value: 'binary', description: 'Each input item carries a CSV file in a binary field' },
		],
		default: 'binary',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: `The binary field holding the CSV: a .csv file of at most ${U.maxBytes / 1024 / 1024} MB and ${U.maxRecords.toLocaleString('en-US')} records, with a phone_number column`,
		displayOptions: { show: fromBinary },
	},
	{
		displayName: 'Phone Number Field',
		name: 'phoneNumberField',
		type: 'string',
		required: true,
		default: 'phone_number',
		description: 'Input field holding the number in E.164 form (+919876543210); dots reach nested fields',
		displayOptions: { show: fromItems },
	},
	{
		displayName: 'Column Fields',
		name: 'columnFields',
		type: 'collection',
		placeholder: 'Add Column',
		default: {},
		description: 'Input fields for the other CSV columns; a column not added here is read from the input field of the same name',
		displayOptions: { show: fromItems },
		options: OPTIONAL_COLUMNS.map(({ column, option, label }) => ({
			displayName: label,
			name: option,
			type: 'string' as const,
			default: column,
			description: `Input field for the ${column} column`,
		})),
	},
	idLocator({
		displayName: 'List',
		name: 'listId',
		noun: 'list',
		searchListMethod: 'searchLists',
		placeholder: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
		description: 'List to add the contacts to (optional); picking from the list needs the API Key authentication',
		required: false,
	}),
	{
		displayName: 'Duplicate Action',
		name: 'duplicateAction',
		type: 'options',
		options: DUPLICATE_ACTION_OPTIONS,
		default: 'skip',
		description: 'What to do with a number that is already a contact',
	},
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: 'contacts.csv',
			description: 'Name of the CSV built from input items (must end in .csv)',
			displayOptions: { show: { '/source': ['items'] } },
		},
		...waitOptions,
	]),
];

interface Upload {
	/** Items the upload stands for (one binary item, or every item built into the CSV). */
	itemIndexes: number[];
	file: Buffer;
	fileName: string;
	listId: string;
	duplicateAction: string;
	settings: WaitSettings;
}

// ---------------------------------------------------------------- checks

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** duplicate_action is one of the spec's three values; an expression can give anything. */
const duplicateActionProblem = (value: string) => problemWith(value, { label: 'Duplicate Action', choices: DUPLICATE_ACTION_OPTIONS });

function fileProblem(file: Buffer, fileName: string): string | undefined {
	if (!fileName.toLowerCase().endsWith(U.extension)) return `The file must be a ${U.extension} file (got "${fileName}")`;
	if (file.length > U.maxBytes) {
		return `The file is ${megabytes(file.length)} (${file.length} bytes); the limit is ${megabytes(U.maxBytes)} (${U.maxBytes} bytes)`;
	}
	const { header, records } = csvShape(file.toString('utf8').replace(/^\uFEFF/, ''));
	if (!header.includes('phone_number')) return 'The CSV header row has no phone_number column';
	if (records > U.maxRecords) return `The CSV has ${records} records; the limit is ${U.maxRecords}`;
	return undefined;
}

// ---------------------------------------------------------------- preparing

function valueAt(json: IDataObject, field: string): unknown {
	if (field in json) return json[field];
	return field.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), json);
}

function cellText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value).trim();
}

/** Every input item carrying a CSV in a binary field is one upload, checked before anything is sent. */
async function binaryUploads(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	common: (itemIndex: number) => Omit<Upload, 'itemIndexes' | 'file' | 'fileName'>,
): Promise<{ prepared: Upload[]; failures: ItemOutcome[] }> {
	const node = context.getNode();
	const prepared: Upload[] = [];
	const failures: ItemOutcome[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const property = trimmed(context.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
		let problem: string | undefined;
		let upload: Upload | undefined;
		const binary = items[itemIndex].binary?.[property];
		if (!binary) {
			problem = `The input item has no binary field "${property}"`;
		} else {
			const fileName = binary.fileName || (binary.mimeType === 'text/csv' ? 'contacts.csv' : '');
			const file = await context.helpers.getBinaryDataBuffer(itemIndex, property);
			upload = { itemIndexes: [itemIndex], file, fileName, ...common(itemIndex) };
			problem = fileProblem(file, fileName || '(no name)') ?? duplicateActionProblem(upload.duplicateAction);
		}
		if (problem) {
			const error = new NodeOperationError(node, `${problem} (item ${itemIndex})`, {
				itemIndex,
				description: `Nothing was uploaded for this item. The service takes ${U.extension} files of at most ${U.maxBytes} bytes and ${U.maxRecords} records, with a phone_number column.`,
			});
			if (!context.continueOnFail()) throw error;
			failures.push({ itemIndex, json: {}, error });
		} else if (upload) {
			prepared.push(upload);
		}
	}
	return { prepared, failures };
}

/** All input items become the rows of one CSV (spec columns; optional ones only when some item has them). */
function itemsUpload(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	common: (itemIndex: number) => Omit<Upload, 'itemIndexes' | 'file' | 'fileName'>,
): { upload?: Upload; failures: ItemOutcome[] } {
	const node = context.getNode();
	const param = parameterReader(context);
	const { prepared: rows, failures } = prepareItems(context, items.length, (itemIndex) => {
		const phoneField = trimmed(param('phoneNumberField', itemIndex, 'phone_number'));
		const fields = param('columnFields', itemIndex, {}) as IDataObject;
		const json = items[itemIndex].json;
		const typed = cellText(valueAt(json, phoneField));
		const phone = normalizePhone(typed);
		const invalid = fieldsError(node, itemIndex, [
			[phoneField, { label: 'Phone Number Field', required: true }],
			[typed, { label: `Phone number (field "${phoneField}")`, required: true, format: 'e164' }],
		]);
		if (invalid) return invalid;
		const cells: Record<string, string> = { phone_number: phone };
		for (const { column, option } of OPTIONAL_COLUMNS) {
			const field = String(fields[option] ?? column).trim() || column;
			cells[column] = cellText(valueAt(json, field));
		}
		return { itemIndex, cells };
	});
	if (rows.length === 0) return { failures };
	const refuse = (problem: string) =>
		new NodeOperationError(node, problem, {
			description: 'Nothing was uploaded. Split the items into several uploads (for example with Loop Over Items).',
		});
	if (rows.length > U.maxRecords) throw refuse(`${rows.length} input items make ${rows.length} CSV records; the limit is ${U.maxRecords}`);
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const fileName = String(options.fileName ?? 'contacts.csv').trim() || 'contacts.csv';
	const header = CSV_COLUMNS.filter((column) => column === 'phone_number' || rows.some((row) => row.cells[column] !== ''));
	const file = csvOf(header, rows.map((row) => header.map((column) => row.cells[column])));
	const settings = common(0);
	const problem = fileProblem(file, fileName) ?? duplicateActionProblem(settings.duplicateAction);
	if (problem) throw refuse(problem);
	return { upload: { itemIndexes: rows.map((row) => row.itemIndex), file, fileName, ...settings }, failures };
}

// ---------------------------------------------------------------- sending

async function send(context: IExecuteFunctions, run: NodeRun, upload: Upload, credentialType: ExotelCredentialType): Promise<IDataObject> {
	const itemIndex = upload.itemIndexes[0];
	const multipart = encodeMultipart(
		{ list_id: upload.listId || undefined, duplicate_action: upload.duplicateAction },
		[{ name: 'file', filename: upload.fileName, contentType: 'text/csv', data: upload.file }],
	);
	const response = await exotelRequest(context, run, {
		endpoint: CONTACT_UPLOADS.upload,
		rawBody: { data: multipart.body, contentType: multipart.contentType },
		credentialType,
		itemIndex,
	});
	const accepted = dataOf(response.body);
	if (!upload.settings.wait || accepted.upload_id === undefined) return accepted;
	const estimate = Number(accepted.estimated_time_seconds);
	const firstDelay = Number.isFinite(estimate) && estimate > 0 ? Math.min(estimate * 1000, upload.settings.intervalMs) : upload.settings.intervalMs;
	return await waitForUpload(context, run, String(accepted.upload_id), itemIndex, credentialType, upload.settings, firstDelay);
}

/**
 * Uploads contacts as a CSV (multipart `file`, `list_id`, `duplicate_action`), from a binary field
 * of each item or built from all input items at once; optionally waits for the job to finish.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	const credentialType = credentialTypeOf(this);
	const source = this.getNodeParameter('source', 0, 'binary') as string;
	const common = (itemIndex: number) => ({
		listId: trimmed(this.getNodeParameter('listId', itemIndex, '', { extractValue: true })),
		duplicateAction: trimmed(this.getNodeParameter('duplicateAction', itemIndex, 'skip')),
		settings: waitSettingsOf(this.getNodeParameter('options', itemIndex, {}) as IDataObject),
	});

	if (source === 'binary') {
		const { prepared, failures } = await binaryUploads(this, items, common);
		const outcomes = await sendEach(
			prepared.map((upload) => ({ ...upload, itemIndex: upload.itemIndexes[0] })),
			async (upload) => await send(this, run, upload, credentialType),
		);
		return outputOf(this, [...failures, ...outcomes]);
	}

	const { upload, failures } = itemsUpload(this, items, common);
	if (!upload) return outputOf(this, failures);
	// One upload for all the items: its outcome is paired to every one of them.
	const first = upload.itemIndexes[0];
	const outcomes = await sendEach([{ ...upload, itemIndex: first }], async (entry) => await send(this, run, entry, credentialType));
	const pairedItem = upload.itemIndexes.map((item) => ({ item }));
	return outputOf(this, [...failures, ...outcomes]).map((item) =>
		(item.pairedItem as { item: number }).item === first ? { ...item, pairedItem } : item,
	);
}
