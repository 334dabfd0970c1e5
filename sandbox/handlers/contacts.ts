/**
 * Contact upload on the contact-center management API (ccm base): multipart CSV in, a job that is
 * `processing` until its estimated time has passed (scaled by timeScale), then `completed`.
 * Accepts basic credentials or the bearer token.
 *
 * A job keeps its records; when it completes they become contacts (and members of `list_id`), with
 * `duplicate_action` deciding what a phone number already present does (see `settleContactUploads`,
 * listStore.ts).
 */
import { fail, json, parseMultipart, randomHex, type MultipartPart } from '../http';
import { CONTACT_COLUMNS, type ContactColumn, type ContactUpload } from '../stored';
import type { Reply, RequestContext, RouteDefinition } from '../types';
import { ensureListsSeeded, settleContactUploads } from './listStore';

export const CONTACT_UPLOAD_LIMITS = { bytes: 10 * 1024 * 1024, records: 50_000, concurrent: 5 } as const;

const DUPLICATE_ACTIONS = ['skip', 'update', 'create_new'] as const;

/** RFC 4180-ish: quoted fields, doubled quotes, CRLF or LF line ends. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') {
				quoted = false;
			} else {
				field += c;
			}
		} else if (c === '"' && field === '') {
			quoted = true;
		} else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else {
			field += c;
		}
	}
	if (quoted) throw new Error('unterminated quoted field');
	if (field !== '' || row.length) {
		row.push(field);
		rows.push(row);
	}
	return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

function v2Ok(ctx: RequestContext, status: number, response: Record<string, unknown>) {
	return json(status, { request_id: randomHex(32), method: ctx.request.method, http_code: status, response });
}

function statusView(job: ContactUpload) {
	const done = job.settled === true;
	return {
		upload_id: job.uploadId,
		status: done ? 'completed' : 'processing',
		total_records: job.totalRecords,
		successful: done ? job.successful : 0,
		failed: done ? job.failed : 0,
		duplicates_skipped: done ? job.duplicatesSkipped : 0,
		error_file_id: done && job.failed > 0 ? `err_${job.uploadId}` : null,
	};
}

/** A request refused with this answer (nothing is stored). */
type Refused = { refused: Reply };

/** The form of an upload: the CSV file, what to do with duplicates, the list to add to. */
function uploadForm(ctx: RequestContext): { file: MultipartPart; duplicateAction: ContactUpload['duplicateAction']; listId?: string } | Refused {
	if (ctx.request.contentType !== 'multipart/form-data') {
		return { refused: fail(ctx, 400, `Content-Type must be multipart/form-data (got ${ctx.request.contentType ?? 'none'})`) };
	}
	let parts: MultipartPart[];
	try {
		parts = parseMultipart(ctx.rawBody, ctx.request.headers['content-type']);
	} catch (error) {
		return { refused: fail(ctx, 400, `Malformed multipart body: ${(error as Error).message}`) };
	}
	const field = (name: string) => parts.find((p) => p.name === name);
	const file = field('file');
	if (!file) return { refused: fail(ctx, 400, 'The form field file (a CSV file) is required') };
	if (file.data.length > CONTACT_UPLOAD_LIMITS.bytes) return { refused: fail(ctx, 413, `The file is larger than ${CONTACT_UPLOAD_LIMITS.bytes} bytes`) };
	if (file.filename !== undefined && !/\.csv$/i.test(file.filename)) {
		return { refused: fail(ctx, 400, `Invalid CSV format: the file must be a .csv file (got '${file.filename}')`) };
	}
	const duplicateAction = (field('duplicate_action')?.data.toString('utf8') ?? 'skip') as ContactUpload['duplicateAction'];
	if (!DUPLICATE_ACTIONS.includes(duplicateAction)) return { refused: fail(ctx, 400, `duplicate_action must be one of ${DUPLICATE_ACTIONS.join(', ')}`) };
	const listId = field('list_id')?.data.toString('utf8').trim() || undefined;
	ensureListsSeeded(ctx.state);
	if (listId && !ctx.state.lists.has(listId)) return { refused: fail(ctx, 400, `list_id '${listId}' does not exist`) };
	return { file, duplicateAction, listId };
}

/** The CSV's header (lower-cased) and rows: a phone_number column, no column twice, not too many rows. */
function csvOf(ctx: RequestContext, file: MultipartPart): { header: string[]; rows: string[][] } | Refused {
	let rows: string[][];
	try {
		rows = parseCsv(file.data.toString('utf8').replace(/^\uFEFF/, ''));
	} catch (error) {
		return { refused: fail(ctx, 400, `Invalid CSV format: ${(error as Error).message}`) };
	}
	const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
	if (header.indexOf('phone_number') < 0) return { refused: fail(ctx, 400, 'Invalid CSV format: the header row must have a phone_number column') };
	const repeated = header.find((column, index) => column && header.indexOf(column) !== index);
	if (repeated) return { refused: fail(ctx, 400, `Invalid CSV format: the column ${repeated} appears twice in the header row`) };
	if (rows.length > CONTACT_UPLOAD_LIMITS.records) {
		return { refused: fail(ctx, 400, `Invalid CSV format: ${rows.length} records, at most ${CONTACT_UPLOAD_LIMITS.records}`) };
	}
	return { header, rows };
}

/** Known columns are kept (others are ignored); a row with more cells than the header is malformed. */
function recordsOf(header: string[], rows: string[][]): ContactUpload['records'] {
	return rows.map((row) => {
		const record: Partial<Record<ContactColumn | 'malformed', string>> = {};
		header.forEach((column, index) => {
			if ((CONTACT_COLUMNS as readonly string[]).includes(column)) record[column as ContactColumn] = row[index] ?? '';
		});
		if (row.length > header.length) record.malformed = 'true';
		return record;
	});
}

/** POST contacts/upload: the CSV is accepted at once and processed over time (settleContactUploads). */
function uploadContacts(ctx: RequestContext): Reply {
	const form = uploadForm(ctx);
	if ('refused' in form) return form.refused;
	const csv = csvOf(ctx, form.file);
	if ('refused' in csv) return csv.refused;
	const now = Date.now();
	const running = [...ctx.state.contactUploads.values()].filter((job) => job.completesAt > now).length;
	if (running >= CONTACT_UPLOAD_LIMITS.concurrent) {
		return fail(ctx, 429, `At most ${CONTACT_UPLOAD_LIMITS.concurrent} contact uploads may be processing at once`);
	}
	const { rows } = csv;
	const estimatedTimeSeconds = Math.max(1, Math.ceil(rows.length / 1000));
	const job: ContactUpload = {
		uploadId: `upl_${randomHex(20)}`,
		listId: form.listId,
		duplicateAction: form.duplicateAction,
		totalRecords: rows.length,
		successful: 0,
		failed: 0,
		duplicatesSkipped: 0,
		estimatedTimeSeconds,
		fileName: form.file.filename,
		records: recordsOf(csv.header, rows),
		acceptedAt: now,
		completesAt: now + estimatedTimeSeconds * 1000 * ctx.timeScale,
	};
	ctx.state.contactUploads.set(job.uploadId, job);
	const data = { upload_id: job.uploadId, total_records: job.totalRecords, status: 'processing', estimated_time_seconds: estimatedTimeSeconds };
	return v2Ok(ctx, 202, { code: 202, status: 'accepted', data });
}

export const contactRoutes: RouteDefinition[] = [
	{
		base: 'ccm',
		method: 'POST',
		path: '/v2/accounts/:sid/contacts/upload',
		auth: 'basicOrBearer',
		handler: uploadContacts,
	},
	{
		base: 'ccm',
		method: 'GET',
		path: '/v2/accounts/:sid/contacts/upload/:uploadId',
		auth: 'basicOrBearer',
		handler: (ctx) => {
			settleContactUploads(ctx.state);
			const job = ctx.state.contactUploads.get(ctx.params.uploadId);
			if (!job) return fail(ctx, 404, `No contact upload with id '${ctx.params.uploadId}'`);
			return v2Ok(ctx, 200, { code: 200, status: 'success', data: statusView(job) });
		},
	},
];
