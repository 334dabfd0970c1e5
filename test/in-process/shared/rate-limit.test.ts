/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- watches the HTTP client's responses and prints its figures (diagnostics_channel, http, process); never shipped */
/**
 * Every operation that can send many requests, run through n8n-core against the sandbox's account
 * rate limit. Each case checks that the run finishes with:
 *  1. every input item out exactly once (pairedItem), none failed;
 *  2. every logical request accepted exactly once: no accepted record repeats another's key (no
 *     duplicate send), every refused request was later accepted, and the sandbox's stores
 *     (messages, allocations, …) hold each record once.
 *
 * The service's documented model (the main block): the sandbox's documented mode, per-category
 * fixed windows on the clock's minutes with X-RateLimit-Limit/Remaining/Reset on every answer, and
 * the credential's Custom Rate Limits set to the limits the sandbox enforces. There each case also
 * checks that the pacing engaged and cost nothing: the sandbox answered no 429 at all, and the
 * case's category counted more requests than one window allows, accepted across at least two of
 * the sandbox's windows (read from its log). The one exception is a window another client spent
 * just before the run (filled through the sandbox's control API, met by the run's first counted
 * request, so no timing decides it): refusals only in that window, none once the run has been accepted.
 *
 * The unexpected limit (the old path): the sliding window without headers at 80% of the
 * credential's limit, so the run meets 429s it could not foresee, shrinks its allowance and still
 * sends everything once (a few cases; with and without Retry-After: with it, every 429 reaches the
 * node with its Retry-After, and the refused request reaches the sandbox again only once that has
 * passed since the 429, an order of the log's times). Also: the older SMS 503 throttle,
 * Rate Limit → Max Wait against a limit that does not lift, and a credential whose Custom Rate
 * Limit is invalid (nothing sent, the field named).
 *
 * Time is scaled ×60 against the service: the documented minute is a 1,000 ms window
 * (`timeFactor: 60`), and PACING_POLICY's windows, edge margin (not below 20 ms) and pauses are
 * scaled alike. Limits are a few requests per window (12–20) so each case needs two to four
 * windows; the credential's limits are per minute of the service and the pacer scales them by
 * windowMs / 60,000, so the credential says limit × 60 to mean the sandbox's limit per window.
 * Nothing asserts how long anything took: only counts, refusals, windows and the order of times in
 * the sandbox's log.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { PACING_POLICY } from '../../../nodes/shared/transport/pacing';
import { RATE_CATEGORIES } from '../../../nodes/shared/transport/rateLimits';
import { parseMultipart } from '../../../sandbox/http';
import type { ExotelSandbox, RequestFilter } from '../../../sandbox/server';
import type { AnyRateLimitConfig, DocumentedRateLimitConfig, RateCategory, RateLimitConfig, RecordedRequest } from '../../../sandbox/types';
import { CsvFileNode } from '../../helpers/csv-file-node';
import { basicAuthHeader, formFields, packageNode, SANDBOX_ACCOUNT, sandboxCredentials, startSandbox } from '../../helpers/exotel';
import { chain, itemsNode, runWorkflow, type RunResult } from '../../helpers/n8n-core-harness';

const SID = SANDBOX_ACCOUNT.accountSid;

/** The service's minute becomes a second. */
const TIME_FACTOR = 60;
const WINDOW_MS = 60_000 / TIME_FACTOR;

/** Requests per window of each category, in the sandbox and (× TIME_FACTOR per minute) in the credential. */
const LIMITS: Record<RateCategory, number> = { bulkSms: 10, sms: 12, voice: 20, chatApp: 20, exoPhone: 20, campaign: 20, userManagement: 15, generalGet: 20 };

const DOCUMENTED: DocumentedRateLimitConfig = { mode: 'documented', timeFactor: TIME_FACTOR, limits: LIMITS };

/** The unexpected limit: a sliding window of 80% of the credential's limit for the category, no headers. */
const slidingFor = (category: RateCategory): RateLimitConfig => ({ limit: Math.floor(LIMITS[category] * 0.8), windowMs: WINDOW_MS });

const scaled = (ms: number) => Math.round(ms / TIME_FACTOR);
const savedPolicy = { ...PACING_POLICY };
const SCALED_POLICY = {
	windowMs: WINDOW_MS,
	edgeMarginMs: Math.max(20, scaled(PACING_POLICY.edgeMarginMs)),
	maxEdgeMarginMs: Math.max(20, scaled(PACING_POLICY.maxEdgeMarginMs)),
	// A case that stops making progress fails its items within 30 s instead of hanging the file.
	defaultMaxWaitMs: 30_000,
};

/** The categories each credential type's requests fall in (credentials/*: rateLimitCredentialField). */
const CATEGORIES_OF_CREDENTIAL: Record<string, RateCategory[]> = {
	exotelApi: ['bulkSms', 'campaign', 'chatApp', 'generalGet', 'sms', 'voice'],
	exotelBearerTokenApi: ['campaign', 'generalGet', 'userManagement'],
	exotelContactCenterApi: ['generalGet', 'userManagement', 'voice'],
	exotelAllocationApi: ['exoPhone', 'generalGet'],
};

/**
 * Custom Rate Limits on every credential, as a user writes them ("Bulk SMS=600, Campaign=1200"): the
 * sandbox's limits per window, as requests per minute of the service. `extra` is written after them.
 */
function customRateLimits(limits: Record<RateCategory, number>, extra = ''): Record<string, IDataObject> {
	return Object.fromEntries(
		Object.entries(CATEGORIES_OF_CREDENTIAL).map(([type, categories]) => [
			type,
			{ rateLimits: [...categories.map((category) => `${RATE_CATEGORIES[category].displayName}=${limits[category] * TIME_FACTOR}`), extra].filter(Boolean).join(', ') },
		]),
	);
}

let sandbox: ExotelSandbox;
const figures: Array<Record<string, unknown>> = [];
const fileStarted = Date.now();

beforeAll(async () => {
	Object.assign(PACING_POLICY, SCALED_POLICY);
	// Calls and uploads finish at once (simulated ms × 0.001); room for 60 allocations.
	sandbox = await startSandbox({ timeScale: 0.001, rateLimit: DOCUMENTED, greenvnPoolSize: 64 });
});
afterAll(async () => {
	Object.assign(PACING_POLICY, savedPolicy);
	await sandbox.stop();
	// The figures of the report: requests, refusals, windows and items per case.
	const report = [
		`rate-limit cases (documented: ${WINDOW_MS} ms windows, ${JSON.stringify(LIMITS)} a window; file ${Date.now() - fileStarted} ms):`,
		...figures.map((f) => JSON.stringify(f)),
	];
	process.stdout.write(`${report.join('\n')}\n`);
});
beforeEach(() => {
	sandbox.reset();
	sandbox.setRateLimit(DOCUMENTED);
});

type NodeName = 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';
type OnError = 'continueRegularOutput' | 'continueErrorOutput';

async function run(
	node: NodeName,
	parameters: Record<string, unknown>,
	items: IDataObject[],
	options: { onError?: OnError; csv?: boolean; credentials?: Record<string, IDataObject> } = {},
): Promise<RunResult> {
	const exotel = packageNode(node, parameters as INodeParameters, options.onError ? { onError: options.onError } : {});
	const credentials = sandboxCredentials(sandbox, options.credentials ?? customRateLimits(LIMITS));
	if (!options.csv) {
		return await runWorkflow({ nodes: [itemsNode('Items', items), exotel], connections: chain('Items', 'Exotel'), credentials });
	}
	return await runWorkflow({
		nodes: [itemsNode('Items', items), { id: 'csv-file', name: 'CSV File', type: 'test.csvFile', typeVersion: 1, position: [100, 0], parameters: {} }, exotel],
		connections: chain('Items', 'CSV File', 'Exotel'),
		credentials,
		nodeTypes: [new CsvFileNode()],
	});
}

function pairIndexes(items: INodeExecutionData[]): number[] {
	return items.flatMap((item) => {
		const pairs = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
		return pairs.map((p) => (typeof p === 'number' ? p : (p?.item ?? -1)));
	});
}

const sorted = <T extends number | string>(list: T[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const isFailure = (item: INodeExecutionData) => item.json.error !== undefined;
const range = (count: number) => Array.from({ length: count }, (_, i) => i);
/** The sandbox's fixed window a recorded request fell in. */
const windowOf = (r: RecordedRequest) => Math.floor(r.time / WINDOW_MS);

/**
 * Another client has just spent `count` of the account's places (documented mode: in `category`'s
 * window), through the sandbox's control API: the run's first request the limiter counts meets them
 * in its own window, whenever it comes, so no window can turn between the filling and the run.
 */
async function fillWindow(category: RateCategory | undefined, count: number): Promise<void> {
	const res = await fetch(`${sandbox.origin}/__sandbox/rate-limit/fill`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ category, count }),
	});
	expect(res.status).toBe(200);
}

// ---- the cases ---------------------------------------------------------------------------------

interface Case {
	name: string;
	node: NodeName;
	parameters: Record<string, unknown>;
	items: IDataObject[];
	csv?: boolean;
	/** The rate-limit category of the operation's requests. */
	category: RateCategory;
	/** The sandbox limit for this case (default DOCUMENTED). */
	rateLimit?: AnyRateLimitConfig;
	/** The credential's fields for this case (default Custom Rate Limits at LIMITS). */
	credentials?: Record<string, IDataObject>;
	/** Before the run, after the limit is set (e.g. fill the window). */
	before?: () => Promise<void>;
	/** The operation's requests. */
	requests: RequestFilter;
	/** Names the logical request a recorded attempt belongs to (attempts after a 429 share it). */
	key: (request: RecordedRequest) => string;
	/** The logical requests, each accepted exactly once; or only how many when they are not known beforehand. */
	expectedKeys: string[] | { count: number };
	/** The keys name a request of each of several items alike (a page offset): exactly the expected multiset instead. */
	keysRepeat?: true;
	/** Pair indexes of the output (default 0..N-1, once each). */
	pairs?: number[];
	/** The service's stored records: each expected one exactly once. */
	stored?: { read: () => string[]; expected: string[] };
	/** Further checks of the output. */
	check?: (out: INodeExecutionData[]) => void | Promise<void>;
	/** The refusals expected instead of the mode's default (none documented, some sliding). */
	refusals?: (refused: RecordedRequest[], limited: number) => void;
}

const phones = (count: number, offset = 0) => range(count).map((i) => `+9198765${String(10000 + i + offset).padStart(5, '0')}`);
const phoneItems = (count: number) => phones(count).map((phone) => ({ phone }));

const smsSend = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '={{ $json.phone }}', body: 'Hello' };
/** One text for every item: Send posts it to Sms/send, To[] repeated. */
const smsStatic = { method: 'POST', pathIncludes: 'Sms/send' };
const firstTo = (r: RecordedRequest) => formFields(r.form)['Messages[0][To]']?.[0] ?? formFields(r.form)['To[]']?.[0] ?? '?';
const everyHundredth = (list: string[]) => list.filter((_, i) => i % 100 === 0);
const acceptedSms = () => sandbox.messages().map((m) => m.to);
/** Each item is the message the service accepted for its number: its sid, in the message vocabulary. */
const expectAcceptedMessages = (out: INodeExecutionData[], channel: string, from: string, stored: Array<{ to: string; sid: string }>) => {
	const sidOf = new Map(stored.map((m) => [m.to, m.sid]));
	expect(sidOf.size).toBe(out.length);
	const status = channel === 'sms' ? 'queued' : 'accepted';
	const wrong = out.filter((o) => {
		const { messageSid, to } = o.json;
		return !(typeof messageSid === 'string' && messageSid === sidOf.get(String(to)) && o.json.status === status && o.json.channel === channel && o.json.from === from && o.json.raw);
	});
	expect(wrong.slice(0, 3).map((o) => o.json)).toEqual([]);
	expect(new Set(out.map((o) => o.json.messageSid)).size).toBe(out.length);
};

const TO_MANY_ITEMS = 5;
const TO_MANY_EACH = 800;
const toManyRecipients = (item: number) => phones(TO_MANY_EACH, item * TO_MANY_EACH);

const rcs = { resource: 'rcs', operation: 'sendTemplate', botId: 'acme_orders_bot', to: '={{ $json.phone }}', templateName: 'order_update' };
const v2Messages = { method: 'POST', pathIncludes: '/messages' };
const rcsKey = (r: RecordedRequest) => String(((r.json as IDataObject)?.rcs as { messages?: IDataObject[] })?.messages?.[0]?.to ?? '?');

const chat = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '={{ $json.phone }}', messageType: 'text', text: 'Hi' };
const chatKey = (r: RecordedRequest) => String((r.json as IDataObject)?.to ?? '?');

const CALLER = '+918047112233';
const CAMPAIGNS = 60;
const campaignCreate = { resource: 'campaign', operation: 'create', recipientSource: 'numbers', from: '={{ $json.phone }}', callerId: CALLER, additionalFields: { name: '={{ $json.name }}' } };
const campaignItems = phones(CAMPAIGNS).map((phone, i) => ({ phone, name: `Rate limited campaign ${i}` }));

const RENAMES = 12_000;
const renameItems = range(RENAMES).map((i) => ({ sid: `list-${(i % 3) + 1}`, name: `Renamed ${i}` }));
const firstRenamed = (r: RecordedRequest) => String((r.json as { lists?: IDataObject[] })?.lists?.[0]?.name ?? '?');

const CALLS_PAGE = 5;

/** The sandbox's big list: 1,203 contacts, 3 pages of 500 (the offset/limit paging of every v2 listing). */
const BIG_LIST = { sid: 'list-big', size: 1203, pages: [0, 500, 1000] };
const LIST_READERS = 15;

const UPLOADS = 40;
const uploadPhone = (i: number) => `+9198111${String(i).padStart(5, '0')}`;
const uploadItems = range(UPLOADS).map((i) => ({ csv: `phone_number,first_name\n${uploadPhone(i)},Caller ${i}\n` }));
const uploadedCsv = (r: RecordedRequest) => {
	const parts = parseMultipart(Buffer.from(r.rawBody, 'utf8'), r.headers['content-type']);
	return parts.find((part) => part.name === 'file')?.data.toString('utf8') ?? '?';
};

const ccCreate = { resource: 'user', operation: 'create', userId: '={{ $json.id }}', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 };
const ccItems = (count: number) => range(count).map((i) => ({ id: `paced.user${i}` }));
const ccKey = (r: RecordedRequest) => String((r.json as IDataObject)?.userId ?? '?');

const allocate = { resource: 'allocation', operation: 'allocate', connectionId: '={{ $json.id }}', apartyNumbers: '+919876543210', bpartyNumbers: '+919812345678', usage: 'twoway' };
const allocItems = (count: number) => range(count).map((i) => ({ id: `paced-order-${i}` }));
const allocKey = (r: RecordedRequest) => String((r.json as IDataObject)?.connection_id ?? '?');

const CASES: Case[] = [
	{
		name: 'SMS Send: 3,000 items, one text, in static bulks of 100 (30 requests)',
		node: 'exotelMessaging',
		parameters: smsSend,
		items: phoneItems(3000),
		category: 'sms',
		requests: smsStatic,
		key: firstTo,
		expectedKeys: everyHundredth(phones(3000)),
		stored: { read: acceptedSms, expected: phones(3000) },
		check: (out) => {
			expect(new Set(out.map((o) => o.json.messageSid)).size).toBe(3000);
			expect(out.map((o) => o.json.to)).toEqual(phones(3000));
			expectAcceptedMessages(out, 'sms', 'EXOTEL', sandbox.messages());
		},
	},
	{
		name: `SMS Send to Many: ${TO_MANY_ITEMS} items × ${TO_MANY_EACH} recipients in static bulks of 100 (40 requests)`,
		node: 'exotelMessaging',
		parameters: { resource: 'sms', operation: 'sendToMany', from: 'ACMEIN', body: 'Sale', recipients: '={{ $json.list }}' },
		items: range(TO_MANY_ITEMS).map((item) => ({ list: toManyRecipients(item).join(', ') })),
		category: 'sms',
		requests: { method: 'POST', pathIncludes: 'Sms/send' },
		key: firstTo,
		expectedKeys: range(TO_MANY_ITEMS).flatMap((item) => everyHundredth(toManyRecipients(item))),
		pairs: range(TO_MANY_ITEMS).flatMap((item) => Array<number>(TO_MANY_EACH).fill(item)),
		stored: { read: acceptedSms, expected: phones(TO_MANY_ITEMS * TO_MANY_EACH) },
		check: (out) => {
			expect(out.map((o) => o.json.to)).toEqual(phones(TO_MANY_ITEMS * TO_MANY_EACH));
			expectAcceptedMessages(out, 'sms', 'ACMEIN', sandbox.messages());
		},
	},
	{
		name: 'RCS Send Template: 3,000 items in requests of 100 (30 requests)',
		node: 'exotelMessaging',
		parameters: rcs,
		items: phoneItems(3000),
		category: 'chatApp',
		requests: v2Messages,
		key: rcsKey,
		expectedKeys: everyHundredth(phones(3000)),
		stored: { read: () => sandbox.rcsMessages().map((m) => String((m as unknown as IDataObject).to)), expected: phones(3000) },
		check: (out) => {
			expect(out.map((o) => o.json.to)).toEqual(phones(3000));
			expectAcceptedMessages(out, 'rcs', 'acme_orders_bot', sandbox.rcsMessages());
		},
	},
	{
		name: 'Chat App Send: 60 items, one request each',
		node: 'exotelMessaging',
		parameters: chat,
		items: phoneItems(60),
		category: 'chatApp',
		requests: v2Messages,
		key: chatKey,
		expectedKeys: phones(60),
		stored: { read: () => sandbox.chatAppMessages().map((m) => String((m as unknown as IDataObject).to)), expected: phones(60) },
		check: (out) => {
			expect(out.map((o) => o.json.to)).toEqual(phones(60));
			expectAcceptedMessages(out, 'chatapp', '+918047112233', sandbox.chatAppMessages());
		},
	},
	{
		name: `Voice Campaign Create: ${CAMPAIGNS} items, one campaign each (the issue's 500, scaled down)`,
		node: 'exotelVoice',
		parameters: campaignCreate,
		items: campaignItems,
		category: 'campaign',
		requests: { method: 'POST', pathIncludes: '/campaigns' },
		key: (r) => String((r.json as IDataObject)?.name ?? '?'),
		expectedKeys: campaignItems.map((i) => i.name),
		check: (out) => {
			expect(out.map((o) => o.json.name)).toEqual(campaignItems.map((i) => i.name));
			expect(new Set(out.map((o) => o.json.id)).size).toBe(CAMPAIGNS);
		},
	},
	{
		// Bulk rename takes 5,000 lists a request, sent one after the other: 12,000 items are 3
		// requests, so the Campaign limit is narrowed to 1 a window to make them meet it.
		name: `Voice List Bulk Rename: ${RENAMES} items in requests of 5,000 (3 requests, Campaign limit 1 a window)`,
		node: 'exotelVoice',
		parameters: { resource: 'list', operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' },
		items: renameItems,
		category: 'campaign',
		rateLimit: { ...DOCUMENTED, limits: { ...LIMITS, campaign: 1 } },
		credentials: customRateLimits({ ...LIMITS, campaign: 1 }),
		requests: { method: 'PUT', pathIncludes: '/lists' },
		key: firstRenamed,
		expectedKeys: ['Renamed 0', 'Renamed 5000', 'Renamed 10000'],
		check: (out) => expect(out.map((o) => [o.json.sid, o.json.name])).toEqual(renameItems.map((i) => [i.sid, i.name])),
	},
	{
		name: `Voice Contact Upload: ${UPLOADS} CSV files, one upload each, waiting for completion (uploads and status polls paced)`,
		node: 'exotelVoice',
		csv: true,
		parameters: { resource: 'contact', operation: 'upload', source: 'binary', listId: 'list-3', options: { waitForCompletion: true, pollInterval: 0.1, waitTimeout: 30 } },
		items: uploadItems,
		category: 'campaign',
		requests: { method: 'POST', pathIncludes: '/contacts/upload' },
		key: uploadedCsv,
		expectedKeys: uploadItems.map((i) => i.csv),
		check: async (out) => {
			expect(out.every((o) => o.json.status === 'completed' && o.json.successful === 1)).toBe(true);
			expect(new Set(out.map((o) => o.json.upload_id)).size).toBe(UPLOADS);
			sandbox.setRateLimit(null);
			const res = await fetch(`${sandbox.origin}/v2/accounts/${SID}/lists/list-3/contacts?limit=100`, {
				headers: { authorization: basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken) },
			});
			const contacts = ((await res.json()) as { response: Array<{ phone_number: string }> }).response.map((c) => c.phone_number);
			// every uploaded number once in the list (no upload processed twice)
			expect(contacts.filter((p) => p.startsWith('+9198111'))).toHaveLength(UPLOADS);
			expect(sorted(contacts.filter((p) => p.startsWith('+9198111')))).toEqual(range(UPLOADS).map(uploadPhone));
		},
	},
	{
		name: `Voice List Get Contacts: Return All for ${LIST_READERS} items, ${BIG_LIST.size} contacts each in pages of 500 (${LIST_READERS * BIG_LIST.pages.length} requests)`,
		node: 'exotelVoice',
		parameters: { resource: 'list', operation: 'getContacts', listSid: BIG_LIST.sid, returnAll: true },
		items: range(LIST_READERS).map(() => ({})),
		category: 'generalGet',
		requests: { method: 'GET', pathIncludes: `/lists/${BIG_LIST.sid}/contacts` },
		key: (r) => `offset ${String(r.query.offset)}`,
		keysRepeat: true,
		expectedKeys: range(LIST_READERS).flatMap(() => BIG_LIST.pages.map((offset) => `offset ${offset}`)),
		pairs: range(LIST_READERS).flatMap((item) => Array<number>(BIG_LIST.size).fill(item)),
		check: (out) => {
			// each item got the whole list once, in order: no page lost, repeated or restarted
			const first = out.filter((o) => (o.pairedItem as { item: number }).item === 0).map((o) => String(o.json.sid));
			expect(new Set(first).size).toBe(BIG_LIST.size);
			for (const item of range(LIST_READERS)) {
				expect(out.filter((o) => (o.pairedItem as { item: number }).item === item).map((o) => String(o.json.sid))).toEqual(first);
			}
		},
	},
	{
		name: 'Contact Center User Create: 40 items (the session login first, then the creates)',
		node: 'exotelContactCenter',
		parameters: ccCreate,
		items: ccItems(40),
		category: 'userManagement',
		requests: { method: 'POST', pathIncludes: 'contactCenterUsers' },
		key: ccKey,
		expectedKeys: ccItems(40).map((i) => i.id),
		check: () => expect(sandbox.loginCount).toBe(1),
	},
	{
		// The login is in no documented category (the sandbox does not count it); the creates are
		// User Management, and another client has just spent that window.
		name: 'Contact Center User Create: 30 items, the User Management window already spent by another client',
		node: 'exotelContactCenter',
		parameters: ccCreate,
		items: ccItems(30),
		category: 'userManagement',
		before: async () => await fillWindow('userManagement', LIMITS.userManagement),
		requests: { pathIncludes: '/servicerestapi/' },
		key: (r) => (r.path.endsWith('userLogin') ? 'login' : ccKey(r)),
		expectedKeys: ['login', ...ccItems(30).map((i) => i.id)],
		check: () => expect(sandbox.loginCount).toBe(1),
		// Only requests sent in the window the other client spent meet it, each before the run's
		// first acceptance; none after the counters of a new window were read. (On this session
		// credential a 429 reaches the pacer without its headers, Retry-After and counters alike, so
		// the run probes the spent window with short pauses rather than waiting for its reset.)
		refusals: (refused, limited) => {
			expect(limited).toBeGreaterThan(0);
			expect(refused.length).toBe(limited);
			expect(new Set(refused.map(windowOf)).size).toBe(1);
			const firstAccepted = Math.min(...sandbox.requests({ pathIncludes: 'contactCenterUsers' }).filter((r) => !r.rateLimited).map((r) => r.id));
			expect(refused.filter((r) => r.id > firstAccepted)).toEqual([]);
		},
	},
	{
		name: 'Number Allocation Allocate: 60 items, one request each',
		node: 'exotelNumberAllocation',
		parameters: allocate,
		items: allocItems(60),
		category: 'exoPhone',
		requests: { method: 'POST', pathIncludes: 'greenvn' },
		key: allocKey,
		expectedKeys: allocItems(60).map((i) => i.id),
		stored: { read: () => sandbox.allocations().map((a) => a.connection_id), expected: allocItems(60).map((i) => i.id) },
		check: (out) => expect(new Set(out.map((o) => o.json.greenvn)).size).toBe(60),
	},
];

interface Outcome {
	result: RunResult;
	limited: number;
	requests: number;
	/** The operation's requests refused for the limit. */
	refused: RecordedRequest[];
}

async function checkCase(c: Case): Promise<Outcome> {
	const config = c.rateLimit ?? DOCUMENTED;
	sandbox.setRateLimit(config);
	await c.before?.();
	const started = Date.now();
	const result = await run(c.node, c.parameters, c.items, { csv: c.csv, credentials: c.credentials });
	const ms = Date.now() - started;
	const stats = sandbox.rateLimitStats();
	const { limited } = stats;
	expect(result.error).toBeUndefined();

	// (1) every item out exactly once, none failed
	const out = result.output('Exotel');
	expect(out.filter(isFailure).map((o) => o.json.error).slice(0, 3)).toEqual([]);
	expect(sorted(pairIndexes(out))).toEqual(sorted(c.pairs ?? c.items.map((_, i) => i)));

	// (2) each logical request accepted exactly once, every refused one later accepted
	const records = sandbox.requests(c.requests);
	const refused = records.filter((r) => r.rateLimited);
	const accepted = records.filter((r) => !r.rateLimited);
	const documented = config.mode === 'documented' ? (config as DocumentedRateLimitConfig) : undefined;
	const refusalStatus = documented?.smsStatus === 503 && (c.category === 'sms' || c.category === 'bulkSms') ? 503 : 429;
	expect(refused.every((r) => r.status === refusalStatus)).toBe(true);
	expect(accepted.filter((r) => r.status < 200 || r.status >= 300).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([]);
	const acceptedKeys = accepted.map(c.key);
	if (!c.keysRepeat) expect(acceptedKeys.length - new Set(acceptedKeys).size).toBe(0);
	if (Array.isArray(c.expectedKeys)) expect(sorted(acceptedKeys)).toEqual(sorted(c.expectedKeys));
	else expect(acceptedKeys).toHaveLength(c.expectedKeys.count);
	const acceptedSet = new Set(acceptedKeys);
	expect(refused.map(c.key).filter((key) => !acceptedSet.has(key))).toEqual([]);
	if (c.stored) {
		const stored = c.stored.read();
		expect(stored.length - new Set(stored).size).toBe(0);
		expect(sorted(stored)).toEqual(sorted(c.stored.expected));
	}

	// (3) the pacing engaged: the category's requests needed more than one of the sandbox's windows,
	// and, told the counters, the run met no refusal; without them it met (and survived) some
	const inCategory = accepted.filter((r) => !documented || r.category === c.category);
	const windows = new Set(inCategory.map(windowOf)).size;
	let limit: number | undefined;
	if (documented) {
		limit = { ...LIMITS, ...documented.limits }[c.category];
		expect(sorted([...new Set(records.map((r) => r.category ?? 'none'))]).filter((category) => category !== c.category && category !== 'none')).toEqual([]);
		expect(stats.byCategory![c.category].counted).toBeGreaterThan(limit);
		expect(windows).toBeGreaterThanOrEqual(2);
	}
	if (c.refusals) c.refusals(refused, limited);
	else if (documented && documented.headers !== false) expect(limited).toBe(0);
	else expect(limited).toBeGreaterThan(0);
	await c.check?.(out);

	figures.push({
		case: c.name,
		mode: documented ? `documented${documented.headers === false ? ', no headers' : ''}${refusalStatus === 503 ? ', SMS 503' : ''}` : `sliding ${(config as RateLimitConfig).limit}/${(config as RateLimitConfig).windowMs} ms${(config as RateLimitConfig).retryAfter ? ', Retry-After' : ''}`,
		category: c.category,
		limit,
		items: c.items.length,
		out: out.length,
		requests: accepted.length,
		refused: refused.length,
		limitedAll: limited,
		counted: documented ? stats.byCategory![c.category].counted : stats.counted,
		windows,
		ms,
	});
	return { result, limited, requests: accepted.length, refused };
}

/** Voice Call Get Many, Return All: the oracle read with the limit off (it does not count), then the case. */
async function callsCase(rateLimit: AnyRateLimitConfig): Promise<Case> {
	sandbox.setRateLimit(null);
	const oracle: string[] = [];
	let next: string | null = `/v1/Accounts/${SID}/Calls.json?PageSize=100`;
	while (next) {
		const res = await fetch(sandbox.origin + next, { headers: { authorization: basicAuthHeader(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken) } });
		const body = (await res.json()) as { Calls: Array<{ Sid: string }>; Metadata: { NextPageUri: string | null } };
		oracle.push(...body.Calls.map((call) => call.Sid));
		next = body.Metadata.NextPageUri;
	}
	sandbox.clearRequests();
	const pages = Math.ceil(oracle.length / CALLS_PAGE);
	return {
		name: `Voice Call Get Many: Return All, ${oracle.length} calls in pages of ${CALLS_PAGE}`,
		node: 'exotelVoice',
		parameters: { resource: 'call', operation: 'getMany', returnAll: true, filters: { pageSize: CALLS_PAGE } },
		items: [{}],
		category: 'voice',
		rateLimit,
		requests: { method: 'GET', pathIncludes: 'Calls.json' },
		key: (r) => String(r.query.After ?? '(first page)'),
		expectedKeys: { count: pages },
		pairs: Array<number>(oracle.length).fill(0),
		check: (out) => {
			expect(out.map((o) => o.json.callSid)).toEqual(oracle);
			expect(out.map((o) => (o.json.raw as IDataObject).Sid)).toEqual(oracle);
		},
	};
}

describe('every bulk operation under the documented limits, the counters on (no 429 at all)', () => {
	it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		await checkCase(c);
	});

	it(`Voice Call Get Many: Return All through ${Math.ceil(230 / CALLS_PAGE)} pages of ${CALLS_PAGE}, paged across the Voice windows`, async () => {
		await checkCase(await callsCase(DOCUMENTED));
	});
});

// ---- the unexpected limit: no counters, a limit below the credential's -------------------------

const caseOf = (prefix: string) => CASES.find((c) => c.name.startsWith(prefix))!;

describe(`an unexpected limit: a sliding window of 80% of the credential's limit per ${WINDOW_MS} ms, no headers`, () => {
	const SLIDING_CASES: Case[] = [
		caseOf('SMS Send: 3,000 items'),
		caseOf('Voice Campaign Create'),
		caseOf('Chat App Send'),
		caseOf('Number Allocation Allocate'),
		{
			...caseOf('Contact Center User Create: 30 items'),
			name: 'Contact Center User Create: 30 items, the window already full, so the login itself meets the 429s',
			// The sliding window counts every request, the login's too: another client fills it.
			before: async () => await fillWindow(undefined, slidingFor('userManagement').limit),
			refusals: undefined,
			check: () => {
				expect(sandbox.loginCount).toBe(1);
				expect(sandbox.requests({ pathIncludes: 'userLogin' }).some((r) => r.rateLimited)).toBe(true);
			},
		},
	].map((c) => ({ ...c, name: `${c.name} (sliding)`, rateLimit: slidingFor(c.category), credentials: undefined }));

	it.each(SLIDING_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		await checkCase(c);
	});
});

// ---- Retry-After --------------------------------------------------------------------------------

/**
 * The 429s n8n-core's HTTP client received from the sandbox, by the sandbox's request id
 * (`X-Sandbox-Request-Id`): each with its `Retry-After` header, or undefined when it had none.
 * Read from Node's `http.client.response.finish` channel, so it is what reached the node, not what
 * the sandbox meant to send.
 */
function watchRefusals(): { retryAfter: Map<number, string | undefined>; stop: () => void } {
	const retryAfter = new Map<number, string | undefined>();
	const onResponse = (message: unknown) => {
		const { response } = message as { response: IncomingMessage };
		const id = Number(response.headers['x-sandbox-request-id']);
		if (response.statusCode === 429 && Number.isInteger(id)) retryAfter.set(id, response.headers['retry-after'] as string | undefined);
	};
	diagnosticsChannel.subscribe(CLIENT_RESPONSE, onResponse);
	return { retryAfter, stop: () => diagnosticsChannel.unsubscribe(CLIENT_RESPONSE, onResponse) };
}
const CLIENT_RESPONSE = 'http.client.response.finish';
/** Date.now()'s granularity: the sandbox and the pacer read the same clock, in whole milliseconds. */
const CLOCK_MS = 1;

describe('an unexpected limit with Retry-After', () => {
	it('SMS Send: all sent once, with Retry-After as without', async () => {
		const smsCase = CASES[0];
		const numbers = phones(3000);
		const runs: Array<{ label: string; rateLimit: RateLimitConfig }> = [
			{ label: 'no Retry-After (to compare)', rateLimit: slidingFor('sms') },
			{ label: 'Retry-After on', rateLimit: { ...slidingFor('sms'), retryAfter: true } },
		];
		for (const { label, rateLimit } of runs) {
			sandbox.reset();
			const answers = watchRefusals();
			let outcome: Outcome;
			try {
				outcome = await checkCase({ ...smsCase, name: `${smsCase.name}, sliding, ${label}`, rateLimit });
			} finally {
				answers.stop();
			}
			const records = sandbox.requests(smsStatic);
			const accepted = records.filter((r) => !r.rateLimited);
			const { refused } = outcome;
			const toOf = (r: RecordedRequest) => formFields(r.form)['To[]'] ?? [];

			// every number in exactly one accepted request, stored once, each item out with its stored id
			expect(sorted(accepted.flatMap(toOf))).toEqual(sorted(numbers));
			const stored = sandbox.messages();
			expect(sorted(stored.map((m) => m.to))).toEqual(sorted(numbers));
			expect(new Set(stored.map((m) => m.sid)).size).toBe(numbers.length);
			const sidOf = new Map(stored.map((m) => [m.to, m.sid]));
			expect(outcome.result.output('Exotel').map((o) => [o.json.to, o.json.messageSid])).toEqual(numbers.map((to) => [to, sidOf.get(to)]));
			// a refused request went again whole: the same numbers, accepted once
			const acceptedByKey = new Map(accepted.map((r) => [smsCase.key(r), toOf(r)]));
			expect(refused.filter((r) => JSON.stringify(acceptedByKey.get(smsCase.key(r))) !== JSON.stringify(toOf(r))).map(smsCase.key)).toEqual([]);

			// the node met 429s, and each reached it with a Retry-After of whole seconds, or with none
			expect(refused.length).toBeGreaterThan(0);
			expect(sorted([...answers.retryAfter.keys()])).toEqual(sorted(refused.map((r) => r.id)));
			const retryAfterMs = (r: RecordedRequest) => Number(answers.retryAfter.get(r.id)) * 1000;
			if (rateLimit.retryAfter) {
				expect(refused.map((r) => answers.retryAfter.get(r.id)).filter((value) => !/^[1-9]\d*$/.test(value ?? ''))).toEqual([]);
			} else {
				expect(refused.map((r) => answers.retryAfter.get(r.id)).filter((value) => value !== undefined)).toEqual([]);
			}

			// A refused request goes again only once its Retry-After has passed: its next attempt
			// reached the sandbox no earlier than the 429's time plus Retry-After. (Requests already
			// in flight when the 429 was answered may arrive within it: up to six go at once.)
			const nextAttempt = (r: RecordedRequest) => records.find((later) => later.id > r.id && smsCase.key(later) === smsCase.key(r))!;
			const gaps = refused.map((r) => ({ id: r.id, time: r.time, gapMs: nextAttempt(r).time - r.time, retryAfterMs: retryAfterMs(r) }));
			if (rateLimit.retryAfter) expect(gaps.filter((g) => g.gapMs < g.retryAfterMs - CLOCK_MS)).toEqual([]);
			// How many 429s each run meets depends on where the machine's load puts the requests in the
			// window, so they are printed, not compared.
			figures.push({
				case: `Retry-After comparison: ${label}`,
				refused: refused.length,
				retryAfter: [...new Set(answers.retryAfter.values())].join(', ') || 'none',
				shortestRetryGapMs: Math.min(...gaps.map((g) => g.gapMs)),
				arrivedWithinRetryAfter: rateLimit.retryAfter ? refused.map((r) => records.filter((x) => x.time > r.time && x.time < r.time + retryAfterMs(r)).length).join(' ') : undefined,
			});
		}
	});

	it('Number Allocation Allocate: 60 items with Retry-After on, all allocated once', async () => {
		const allocCase = caseOf('Number Allocation Allocate');
		await checkCase({ ...allocCase, name: `${allocCase.name}, sliding, Retry-After on`, rateLimit: { ...slidingFor('exoPhone'), retryAfter: true } });
	});
});

// ---- the older SMS throttle, and an invalid Custom Rate Limit ------------------------------------

describe('SMS throttled with 503, and the credential’s Custom Rate Limits', () => {
	it('SMS Send: 3,000 items, the SMS limit (8 a window, the credential says 12) answered with 503 and no headers: all sent once, none failed', async () => {
		await checkCase({
			...CASES[0],
			name: 'SMS Send: 3,000 items, documented mode without headers, SMS refused with 503',
			rateLimit: { ...DOCUMENTED, headers: false, smsStatus: 503, limits: { ...LIMITS, sms: 8 } },
		});
	});

	it('an invalid Custom Rate Limit (Bulk SMS=0): the node fails before sending anything, naming the field and the entry', async () => {
		const items = phones(5).map((phone, i) => ({ phone, text: `Hello ${i}` }));
		const result = await run('exotelMessaging', { ...smsSend, body: '={{ $json.text }}' }, items, {
			credentials: customRateLimits(LIMITS, 'Bulk SMS=0'),
		});
		expect(result.error?.message).toContain('Custom Rate Limits in the credential: Bulk SMS must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "0")');
		expect(sandbox.requests({})).toEqual([]);
		expect(sandbox.messages()).toEqual([]);
		figures.push({ case: 'invalid Custom Rate Limit', error: result.error?.message, requests: sandbox.requests({}).length });
	});
});

// ---- Max Wait -----------------------------------------------------------------------------------

/** 0.01 min = 0.6 s: the limit below holds for a minute, so the run gives up after 0.6 s of 429s (pauses of 17–83 ms, scaled). */
const MAX_WAIT = { rateLimit: { maxWaitMinutes: 0.01 } };
/** One request accepted, then nothing for a minute. */
const STUCK: RateLimitConfig = { limit: 1, windowMs: 60_000 };
const NOT_SENT = "Not sent: the account's rate limit did not lift in time";
/** The 429 that ended the wait: the service's own words after this. */
const GAVE_UP = "The account's rate limit did not lift in time: ";

interface MaxWaitCase {
	name: string;
	parameters: Record<string, unknown>;
	items: IDataObject[];
	requests: RequestFilter;
	/** The item's channel and sender in the message vocabulary. */
	channel: string;
	from: string;
	/** The sid the service gave each accepted number. */
	storedSids: () => Map<string, string>;
	/** The items the service accepted, by the accepted request(s). */
	acceptedItems: (accepted: RecordedRequest[]) => number[];
	stored: () => string[];
	phoneOf: (itemIndex: number) => string;
}

const MAX_WAIT_CASES: MaxWaitCase[] = [
	{
		name: 'SMS Send, 250 items in 3 requests',
		parameters: { ...smsSend, ...MAX_WAIT },
		items: phoneItems(250),
		requests: smsStatic,
		channel: 'sms',
		from: 'EXOTEL',
		storedSids: () => new Map(sandbox.messages().map((m) => [m.to, m.sid])),
		acceptedItems: (accepted) => accepted.flatMap((r) => formFields(r.form)['To[]'].map((to) => phones(250).indexOf(to))),
		stored: acceptedSms,
		phoneOf: (i) => phones(250)[i],
	},
	{
		name: 'Chat App Send, 6 items',
		parameters: { ...chat, ...MAX_WAIT },
		items: phoneItems(6),
		requests: v2Messages,
		channel: 'chatapp',
		from: '+918047112233',
		storedSids: () => new Map(sandbox.chatAppMessages().map((m) => [m.to, m.sid])),
		acceptedItems: (accepted) => accepted.map((r) => phones(6).indexOf(chatKey(r))),
		stored: () => sandbox.chatAppMessages().map((m) => String((m as unknown as IDataObject).to)),
		phoneOf: (i) => phones(6)[i],
	},
];

describe.each(MAX_WAIT_CASES.map((c) => [c.name, c] as const))('Rate Limit → Max Wait: %s, a limit that does not lift', (_name, c) => {
	it.each<OnError>(['continueRegularOutput', 'continueErrorOutput'])('onError %s: the accepted keep their ids, the rest fail naming the limit, nothing sent twice', async (onError) => {
		sandbox.setRateLimit(STUCK);
		const started = Date.now();
		const result = await run('exotelMessaging', c.parameters, c.items, { onError });
		expect(result.error).toBeUndefined();
		const main = result.output('Exotel', 0);
		const errorOut = onError === 'continueErrorOutput' ? result.output('Exotel', 1) : [];
		const everything = [...main, ...errorOut];
		expect(sorted(pairIndexes(everything))).toEqual(range(c.items.length));

		const records = sandbox.requests(c.requests);
		const accepted = records.filter((r) => !r.rateLimited);
		expect(accepted).toHaveLength(1);
		expect(sandbox.rateLimitStats().limited).toBeGreaterThan(0);
		const acceptedItems = sorted(c.acceptedItems(accepted));
		const succeeded = everything.filter((o) => !isFailure(o));
		const failed = everything.filter(isFailure);
		expect(sorted(pairIndexes(succeeded))).toEqual(acceptedItems);
		expect(failed).toHaveLength(c.items.length - acceptedItems.length);
		// the accepted keep the service's ids; the store holds them once and nothing else
		const sids = c.storedSids();
		for (const item of succeeded) {
			const phone = c.phoneOf(pairIndexes([item])[0]);
			expect(item.json.messageSid).toEqual(expect.any(String));
			expect(item.json).toMatchObject({ messageSid: sids.get(phone), channel: c.channel, to: phone, from: c.from, raw: expect.any(Object) });
		}
		expect(sorted(c.stored())).toEqual(sorted(acceptedItems.map(c.phoneOf)));
		// the rest were refused or never sent: no id, failed, nothing of the service's to keep
		for (const item of failed) {
			const json = onError === 'continueErrorOutput' ? (item.json.error as IDataObject) : item.json;
			expect(json).toMatchObject({ messageSid: null, status: 'failed', channel: c.channel, to: c.phoneOf(pairIndexes([item])[0]), from: c.from, code: null, raw: null });
			expect(json.deliveryUnknown).toBeUndefined();
		}
		if (onError === 'continueErrorOutput') {
			expect(main.every((o) => !isFailure(o))).toBe(true);
			expect(errorOut).toHaveLength(failed.length);
			for (const item of errorOut) {
				const error = item.json.error as IDataObject;
				// never sent at all, or the 429 that ended the wait: either way the Max Wait is named
				const message = String(error.message);
				expect(message === NOT_SENT || message.startsWith(GAVE_UP)).toBe(true);
				expect(String(error.description)).toContain('Rate Limit → Max Wait');
			}
		} else {
			for (const item of failed) expect(String(item.json.error)).toMatch(/rate limit did not lift in time/);
		}
		figures.push({ case: `Max Wait: ${c.name}, ${onError}`, items: c.items.length, accepted: acceptedItems.length, failed: failed.length, refused429: records.length - accepted.length, notSent: failed.filter((o) => JSON.stringify(o.json.error).includes(NOT_SENT)).length, ms: Date.now() - started });
	});

	it('onError stop: the node fails with an error naming the rate limit and Max Wait', async () => {
		sandbox.setRateLimit(STUCK);
		const result = await run('exotelMessaging', c.parameters, c.items);
		expect(result.error?.message).toMatch(/account's rate limit did not lift in time/);
		expect(result.error?.description).toContain('Rate Limit → Max Wait');
		expect(sandbox.requests(c.requests).filter((r) => !r.rateLimited)).toHaveLength(1);
	});
});
