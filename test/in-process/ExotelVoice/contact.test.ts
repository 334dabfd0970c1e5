/**
 * Exotel Voice → Contact through n8n-core against the sandbox's contact upload (ccm base): the
 * multipart parts and the exact CSV bytes received, from a binary field or built from all input
 * items (one upload paired to every item), API key or bearer token, waiting for the job to finish,
 * and the spec's file limits refused before anything is sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { ContinueCase, RefusedCase } from '../../helpers/bad-input';
import { describeBadInput, refused } from '../../helpers/bad-input';
import { CsvFileNode } from '../../helpers/csv-file-node';
import { basicAuthHeader, packageNode, runNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow } from '../../helpers/n8n-core-harness';
import type { SecretCase } from '../../helpers/secrets';
import { describeNoSecrets, WRONG_CREDENTIALS } from '../../helpers/secrets';
import { parseMultipart } from '../../../sandbox/http';
import type { RecordedRequest } from '../../../sandbox/server';

const SID = SANDBOX_ACCOUNT.accountSid;
const UPLOAD = `/v2/accounts/${SID}/contacts/upload`;
const LISTS = `/v2/accounts/${SID}/lists`;
const MB = 1024 * 1024;

// Half speed: a job of up to 1,000 records is processing for 500 ms.
const sandbox = useSandbox({ timeScale: 0.5 });

const contactParameters = (parameters: Record<string, unknown>) => ({ resource: 'contact', ...parameters }) as INodeParameters;

async function runItems(parameters: Record<string, unknown>, items: Array<Record<string, unknown>>, settings: Parameters<typeof packageNode>[2] = {}) {
	return await runNode(sandbox, 'exotelVoice', contactParameters(parameters), items, { settings });
}

async function runFiles(parameters: Record<string, unknown>, files: Array<Record<string, unknown>>, settings: Parameters<typeof packageNode>[2] = {}) {
	return await runWorkflow({
		nodes: [
			itemsNode('Items', files),
			{ id: 'csv-file', name: 'CSV File', type: 'test.csvFile', typeVersion: 1, position: [100, 0], parameters: {} },
			packageNode('exotelVoice', contactParameters(parameters), settings),
		],
		connections: chain('Items', 'CSV File', 'Exotel'),
		credentials: sandboxCredentials(sandbox),
		nodeTypes: [new CsvFileNode()],
	});
}

/** The multipart parts of a recorded upload, by name. */
function partsOf(request: RecordedRequest) {
	const parts = parseMultipart(Buffer.from(request.rawBody, 'utf8'), request.headers['content-type']);
	return Object.fromEntries(parts.map((part) => [part.name, { filename: part.filename, contentType: part.contentType, text: part.data.toString('utf8') }]));
}

async function listContacts(listSid: string) {
	const res = await fetch(`${sandbox.origin}${LISTS}/${listSid}/contacts?limit=100`, {
		headers: { authorization: basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken) },
	});
	return ((await res.json()) as { response: Array<Record<string, unknown>> }).response;
}

const CSV = 'phone_number,first_name,last_name\n+919811100001,Asha,Rao\n+919811100002,"Ravi, Jr.",Kumar\n';

describe('Exotel Voice → Contact → Upload from a binary field', () => {
	it('POSTs multipart (file, list_id, duplicate_action) to the ccm base with the API key, and outputs the accepted job', async () => {
		const result = await runFiles({ operation: 'upload', source: 'binary', listId: 'list-3', duplicateAction: 'update' }, [{ csv: CSV }]);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'ccm', method: 'POST', path: UPLOAD, contentType: 'multipart/form-data', status: 202 });
		expect(request.headers.authorization).toBe(basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken));
		expect(partsOf(request)).toEqual({
			list_id: { filename: undefined, contentType: undefined, text: 'list-3' },
			duplicate_action: { filename: undefined, contentType: undefined, text: 'update' },
			file: { filename: 'contacts.csv', contentType: 'text/csv', text: CSV },
		});
		expect(result.output('Exotel')).toEqual([
			{
				json: { upload_id: expect.stringMatching(/^upl_/), total_records: 2, status: 'processing', estimated_time_seconds: 1 },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('with Bearer Token authentication the bearer credential (its contact upload base) is used', async () => {
		const result = await runFiles({ operation: 'upload', source: 'binary', authentication: 'bearerToken' }, [{ csv: CSV }]);
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'ccm', path: UPLOAD, status: 202 });
		expect(request.headers.authorization).toBe(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`);
		expect(partsOf(request)).toEqual({
			duplicate_action: expect.objectContaining({ text: 'skip' }),
			file: expect.objectContaining({ filename: 'contacts.csv', text: CSV }),
		});
	});

	it('one upload per item carrying a file, each paired to its item', async () => {
		const result = await runFiles({ operation: 'upload', source: 'binary' }, [{ csv: CSV }, { csv: 'phone_number\n+919811100009\n', fileName: 'more.CSV' }]);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests.map((r) => partsOf(r).file.filename).sort()).toEqual(['contacts.csv', 'more.CSV']);
		expect(result.output('Exotel').map((o) => [o.pairedItem, o.json.total_records])).toEqual([
			[{ item: 0 }, 2],
			[{ item: 1 }, 1],
		]);
	});

	it('waits for completion, polling the status until it is no longer processing, and outputs the final counts', async () => {
		const csv = 'phone_number,first_name\n+919811100001,Asha\n+919811100001,Asha again\n0981110000,Bad\n';
		const result = await runFiles(
			{ operation: 'upload', source: 'binary', listId: 'list-3', options: { waitForCompletion: true, pollInterval: 0.2, waitTimeout: 10 } },
			[{ csv }],
		);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests[0].method).toBe('POST');
		const polls = requests.slice(1);
		expect(polls.length).toBeGreaterThanOrEqual(2);
		const uploadId = result.output('Exotel')[0].json.upload_id;
		expect(polls.every((r) => r.method === 'GET' && r.path === `${UPLOAD}/${uploadId}` && r.base === 'ccm')).toBe(true);
		expect(result.output('Exotel')).toEqual([
			{
				json: { upload_id: uploadId, status: 'completed', total_records: 3, successful: 1, failed: 1, duplicates_skipped: 1, error_file_id: `err_${uploadId}` },
				pairedItem: { item: 0 },
			},
		]);
		expect((await listContacts('list-3')).map((c) => c.phone_number)).toEqual(['+919811100001']);
	});

	it('gives up waiting after the timeout: the item fails, the upload goes on', async () => {
		const result = await runFiles(
			{ operation: 'upload', source: 'binary', options: { waitForCompletion: true, pollInterval: 0.2, waitTimeout: 1 } },
			[{ records: 3500 }],
		);
		expect(result.error?.message).toMatch(/^Upload upl_\w+ is still processing after 1 s \(item 0\)$/);
		expect(sandbox.requests()[0].status).toBe(202);
	});

	describe.each([
		['a file that is not .csv', { csv: CSV, fileName: 'contacts.xlsx', mimeType: 'application/vnd.ms-excel' }, 'The file must be a .csv file (got "contacts.xlsx")'],
		['a file over 10 MB', { bytes: 10 * MB + 1 }, /^The file is 10\.0 MB \(\d+ bytes\); the limit is 10\.0 MB \(10485760 bytes\)$/],
		['more than 50,000 records', { records: 50_001 }, 'The CSV has 50001 records; the limit is 50000'],
		['no phone_number column', { csv: 'phone,name\n+919811100001,Asha\n' }, 'The CSV header row has no phone_number column'],
		['no binary field of that name', { csv: CSV, property: 'attachment' }, 'The input item has no binary field "data"'],
	])('%s', (_name, file, message) => {
		it('is refused before anything is sent', async () => {
			const result = await runFiles({ operation: 'upload', source: 'binary' }, [file]);
			if (typeof message === 'string') expect(result.error?.message).toBe(`${message} (item 0)`);
			else expect(result.error?.message?.replace(/ \(item 0\)$/, '')).toMatch(message);
			expect(sandbox.requests()).toHaveLength(0);
		});
	});

	it('accepts exactly 50,000 records', async () => {
		const result = await runFiles({ operation: 'upload', source: 'binary' }, [{ records: 50_000 }]);
		expect(result.error).toBeUndefined();
		expect(result.output('Exotel')[0].json.total_records).toBe(50_000);
	});

	it('with continue, a bad file is its item’s error and the other files are uploaded', async () => {
		const result = await runFiles({ operation: 'upload', source: 'binary' }, [{ csv: CSV }, { csv: CSV, fileName: 'notes.txt' }], { onError: 'continueErrorOutput' });
		expect(sandbox.requests()).toHaveLength(1);
		expect(result.output('Exotel', 0).map((o) => o.pairedItem)).toEqual([{ item: 0 }]);
		const [failed] = result.output('Exotel', 1);
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect((failed.json.error as { message: string }).message).toBe('The file must be a .csv file (got "notes.txt") (item 1)');
	});

	it('a service refusal (unknown list) carries the service’s words', async () => {
		const result = await runFiles({ operation: 'upload', source: 'binary', listId: 'list-404' }, [{ csv: CSV }]);
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.description).toMatch(/list_id 'list-404' does not exist/);
	});
});

describe('Exotel Voice → Contact → Upload built from input items', () => {
	it('builds ONE CSV of all items (spec columns, properly escaped) and pairs the one output to every item', async () => {
		const items = [
			{ phone_number: '+91 98111 00001', first_name: 'Asha', last_name: 'Rao', email: 'asha@acme.example', tag: 'gold' },
			{ phone_number: '+919811100002', first_name: 'Ravi, Jr.', last_name: 'Kumar', company: 'The "Best" Co' },
			{ phone_number: '+919811100003', first_name: 'Meera', custom_field_1: 'line one\nline two', extra: 'ignored' },
		];
		const result = await runItems({ operation: 'upload', source: 'items', listId: 'list-3' }, items);
		expect(result.error).toBeUndefined();
		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		const parts = partsOf(requests[0]);
		expect(parts.file).toEqual({
			filename: 'contacts.csv',
			contentType: 'text/csv',
			text:
				'phone_number,first_name,last_name,email,company,tag,custom_field_1\r\n' +
				'+919811100001,Asha,Rao,asha@acme.example,,gold,\r\n' +
				'+919811100002,"Ravi, Jr.",Kumar,,"The ""Best"" Co",,\r\n' +
				'+919811100003,Meera,,,,,"line one\nline two"\r\n',
		});
		expect(parts.list_id.text).toBe('list-3');
		expect(parts.duplicate_action.text).toBe('skip');
		const out = result.output('Exotel');
		expect(out).toEqual([
			{
				json: { upload_id: expect.any(String), total_records: 3, status: 'processing', estimated_time_seconds: 1 },
				pairedItem: [{ item: 0 }, { item: 1 }, { item: 2 }],
			},
		]);
	});

	it('maps columns from the fields the user picks (dot paths reach nested fields); columns without data are left out', async () => {
		const items = [
			{ phone: '+919811100011', person: { first: 'Kiran' }, labels: 'vip' },
			{ phone: '+919811100012', person: { first: 'Sameer' } },
		];
		const result = await runItems(
			{ operation: 'upload', source: 'items', phoneNumberField: 'phone', columnFields: { firstNameField: 'person.first', tagField: 'labels' }, options: { fileName: 'crm-export.csv' } },
			items,
		);
		expect(result.error).toBeUndefined();
		const { file } = partsOf(sandbox.requests()[0]);
		expect(file.filename).toBe('crm-export.csv');
		expect(file.text).toBe('phone_number,first_name,tag\r\n+919811100011,Kiran,vip\r\n+919811100012,Sameer,\r\n');
	});

	it('waits for completion and the contacts land in the list', async () => {
		const items = [{ phone_number: '+919811100021', first_name: 'Una' }, { phone_number: '+919811100022', first_name: 'Dos' }];
		const result = await runItems({ operation: 'upload', source: 'items', listId: 'list-3', options: { waitForCompletion: true, pollInterval: 0.2 } }, items);
		expect(result.error).toBeUndefined();
		expect(result.output('Exotel')).toEqual([
			{
				json: expect.objectContaining({ status: 'completed', total_records: 2, successful: 2, failed: 0, duplicates_skipped: 0 }),
				pairedItem: [{ item: 0 }, { item: 1 }],
			},
		]);
		expect((await listContacts('list-3')).map((c) => [c.phone_number, c.first_name])).toEqual([
			['+919811100021', 'Una'],
			['+919811100022', 'Dos'],
		]);
	});

	it.each([
		['a national number', { phone_number: '09811100001' }, 'Phone number (field "phone_number") must be an E.164 number such as +919876543210 (got "09811100001") (item 1)'],
		['no number', { first_name: 'Nobody' }, 'Phone number (field "phone_number") is required (item 1)'],
	])('%s in one item is refused before anything is sent', async (_name, bad, message) => {
		const result = await runItems({ operation: 'upload', source: 'items' }, [{ phone_number: '+919811100001' }, bad]);
		expect(result.error?.message).toBe(message);
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('more than 50,000 items is refused before anything is sent', async () => {
		const items = Array.from({ length: 50_001 }, (_, i) => ({ phone_number: `+91984${String(i).padStart(7, '0')}` }));
		const result = await runItems({ operation: 'upload', source: 'items' }, items);
		expect(result.error?.message).toBe('50001 input items make 50001 CSV records; the limit is 50000');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('a file name that is not .csv is refused', async () => {
		const result = await runItems({ operation: 'upload', source: 'items', options: { fileName: 'contacts.txt' } }, [{ phone_number: '+919811100001' }]);
		expect(result.error?.message).toBe('The file must be a .csv file (got "contacts.txt")');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('with continue, bad items are their own errors and the rest are uploaded, paired to the upload', async () => {
		const items = [{ phone_number: '+919811100001' }, { phone_number: 'n/a' }, { phone_number: '+919811100003' }];
		const result = await runItems({ operation: 'upload', source: 'items' }, items, { onError: 'continueErrorOutput' });
		const requests = sandbox.requests();
		expect(requests).toHaveLength(1);
		expect(partsOf(requests[0]).file.text).toBe('phone_number\r\n+919811100001\r\n+919811100003\r\n');
		expect(result.output('Exotel', 0)).toEqual([{ json: expect.objectContaining({ total_records: 2 }), pairedItem: [{ item: 0 }, { item: 2 }] }]);
		expect(result.output('Exotel', 1).map((o) => o.pairedItem)).toEqual([{ item: 1 }]);
	});

	it('a failed upload is one error paired to every item', async () => {
		sandbox.injectFaults({ kind: 'status', status: 413 }, 1, { method: 'POST' });
		const result = await runItems({ operation: 'upload', source: 'items' }, [{ phone_number: '+919811100001' }, { phone_number: '+919811100002' }], { onError: 'continueErrorOutput' });
		expect(result.output('Exotel', 0)).toEqual([]);
		const errors = result.output('Exotel', 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect((errors[0].json.error as { message: string }).message).toBe('Payload too large (code 1013)');
	});
});

describe('Exotel Voice → Contact → Get Upload Status', () => {
	async function accept(csv = CSV) {
		const data = new FormData();
		data.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
		const res = await fetch(`${sandbox.origin}/ccm${UPLOAD}`, { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_ACCOUNT.bearerToken}` }, body: data });
		const uploadId = ((await res.json()) as { response: { data: { upload_id: string } } }).response.data.upload_id;
		sandbox.clearRequests();
		return uploadId;
	}

	it('GETs contacts/upload/<id> on the ccm base and outputs the status as it is', async () => {
		const uploadId = await accept();
		const result = await runItems({ operation: 'getUploadStatus', uploadId }, [{}]);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([expect.objectContaining({ base: 'ccm', method: 'GET', path: `${UPLOAD}/${uploadId}`, status: 200 })]);
		expect(result.output('Exotel')[0].json).toEqual({
			upload_id: uploadId,
			status: 'processing',
			total_records: 2,
			successful: 0,
			failed: 0,
			duplicates_skipped: 0,
			error_file_id: null,
		});
	});

	it('with Wait for Completion polls until completed (bearer token)', async () => {
		const uploadId = await accept();
		const result = await runItems({ operation: 'getUploadStatus', uploadId, authentication: 'bearerToken', options: { waitForCompletion: true, pollInterval: 0.2 } }, [{}]);
		expect(result.error).toBeUndefined();
		expect(sandbox.requests().length).toBeGreaterThanOrEqual(2);
		expect(sandbox.requests().every((r) => r.headers.authorization === `Bearer ${SANDBOX_ACCOUNT.bearerToken}`)).toBe(true);
		expect(result.output('Exotel')[0].json).toMatchObject({ upload_id: uploadId, status: 'completed', successful: 2 });
	});

	it('an unknown upload is a 404', async () => {
		const result = await runItems({ operation: 'getUploadStatus', uploadId: 'upl_nope' }, [{}]);
		expect(result.error?.httpCode).toBe('404');
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const UPLOAD_ITEMS = { resource: 'contact', operation: 'upload', source: 'items' };
const UPLOAD_FILE = { resource: 'contact', operation: 'upload', source: 'binary' };

const REFUSED: RefusedCase[] = [
	refused('upload non-.csv file', 'exotelVoice', UPLOAD_FILE, 'The file must be a .csv file (got "contacts.xlsx")', { csv: true, items: [{ csv: 'phone_number\n+919811100001\n', fileName: 'contacts.xlsx' }] }),
	refused('upload file over 10 MB', 'exotelVoice', UPLOAD_FILE, /^The file is 10\.0 MB \(\d+ bytes\); the limit is 10\.0 MB \(10485760 bytes\)$/, { csv: true, items: [{ bytes: 10 * 1024 * 1024 + 1 }] }),
	refused('upload over 50,000 records', 'exotelVoice', UPLOAD_FILE, 'The CSV has 50001 records; the limit is 50000', { csv: true, items: [{ records: 50_001 }] }),
	refused('upload without phone_number column', 'exotelVoice', UPLOAD_FILE, 'The CSV header row has no phone_number column', { csv: true, items: [{ csv: 'phone,name\n+919811100001,A\n' }] }),
	refused('upload items non-E.164 phone_number', 'exotelVoice', UPLOAD_ITEMS, 'Phone number (field "phone_number") must be an E.164 number such as +919876543210 (got "09811100001")', { items: [{ phone_number: '+919811100001' }, { phone_number: '09811100001' }], item: 1 }),
	refused('upload items without phone_number', 'exotelVoice', UPLOAD_ITEMS, 'Phone number (field "phone_number") is required', { items: [{ phone_number: '+919811100001' }, { first_name: 'Nobody' }], item: 1 }),
	refused('upload items file name not .csv', 'exotelVoice', { ...UPLOAD_ITEMS, options: { fileName: 'contacts.txt' } }, 'The file must be a .csv file (got "contacts.txt")', { items: [{ phone_number: '+919811100001' }], item: null }),
	refused('upload without a file', 'exotelVoice', UPLOAD_FILE, 'The input item has no binary field "data"', { items: [{ phone_number: '+919811100001' }] }),
	refused('upload file bad Duplicate Action (expression)', 'exotelVoice', { ...UPLOAD_FILE, duplicateAction: '={{ "merge" }}' }, 'Duplicate Action must be one of create_new, skip, update (got "merge")', { csv: true, items: [{ csv: 'phone_number\n+919811100001\n' }] }),
	refused('upload items bad Duplicate Action (expression)', 'exotelVoice', { ...UPLOAD_ITEMS, duplicateAction: '={{ "merge" }}' }, 'Duplicate Action must be one of create_new, skip, update (got "merge")', { items: [{ phone_number: '+919811100001' }], item: null }),
	refused('upload items over 50,000 records', 'exotelVoice', UPLOAD_ITEMS, '50001 input items make 50001 CSV records; the limit is 50000', { items: Array.from({ length: 50_001 }, (_, i) => ({ phone_number: `+9198${String(11000000 + i)}` })), item: null }),
	refused('upload status empty ID', 'exotelVoice', { resource: 'contact', operation: 'getUploadStatus', uploadId: '={{ "" }}' }, 'Upload ID is required'),
];

const CONTINUED: ContinueCase[] = [
	{ family: 'contact upload', node: 'exotelVoice', parameters: UPLOAD_FILE, items: [{ csv: 'phone_number\n+919811100001\n' }, { csv: 'x', fileName: 'notes.txt' }], bad: 1, message: 'The file must be a .csv file (got "notes.txt") (item 1)', csv: true },
];

describeBadInput(REFUSED, CONTINUED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'Contact upload (items): success', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items' }, items: [{ phone_number: '+919811100001' }], outcome: 'ok' },
	{ name: 'Contact upload (items): wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items' }, items: [{ phone_number: '+919811100001' }], credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Contact upload (bearer): wrong bearer token (401)', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items', authentication: 'bearerToken' }, items: [{ phone_number: '+919811100001' }], credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Contact upload (bearer): unknown list (400)', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items', authentication: 'bearerToken', listId: 'list-404' }, items: [{ phone_number: '+919811100001' }], outcome: 'error', httpCode: '400' },
	{ name: 'Contact upload status: 404', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'getUploadStatus', uploadId: 'upl_missing' }, outcome: 'error' },
];

describeNoSecrets(SECRET_CASES);
