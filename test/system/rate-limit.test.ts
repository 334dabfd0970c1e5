/**
 * Sends of any size at the service's documented limits, on a real n8n with the packed package:
 * the sandbox counts each category in fixed windows and answers with the X-RateLimit counters and
 * `Retry-After: 30` past the limit, time scaled ×6 (windows of 10 s, Retry-After 5 s; the request
 * counts and the limits per window are the service's). Each run starts early in a window.
 * - 20,000 personalised SMS (200 dynamic-bulk requests, Bulk SMS: 50 a window): 0 × 429, first to
 *   last accepted request within 1.05× the windows' floor;
 * - two executions of 20,000 at once on the account: 0 lost, ≤ 2 × 429 in all, within 1.10× the
 *   floor of the combined 400 requests (two queue-mode workers: queue-mode.test.ts);
 * - a campaign create burst of 100 (Campaign: 30 a window) and Return All over many pages
 *   (General GET, the credential's Custom Rate Limits lowering it to 30 a window): the same rules.
 * Every figure comes from the sandbox's own request log; they are printed for the docs. Without the
 * counters the pace assumes one-minute windows, which scaled windows cannot show: that run is
 * `npm run bench -- rate-limit` (test/bench/rate-limit.bench.ts), at the service's own minute.
 */
import path from 'path';

import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, packPackage, removeTempDir, type WorkflowNode } from '../harness';
import { bulkSmsWorkflow, earlyInWindow, expectSharedWindowsUsed, MESSAGES, REQUESTS_PER_RUN, sendOutputOf, windowFigures } from './bulk-sms';

const TIME_FACTOR = 6;
const WINDOW_MS = 60_000 / TIME_FACTOR;
/** General GET lowered for the listing, in the sandbox and in the credential alike (per minute there). */
const GENERAL_GET_PER_WINDOW = 15;
const DOCUMENTED = { mode: 'documented', timeFactor: TIME_FACTOR, limits: { generalGet: GENERAL_GET_PER_WINDOW } } as const;

const CAMPAIGNS = 100;
const LIST_READERS = 20;
/** The sandbox's big list: 1,203 contacts, read in pages of 500. */
const BIG_LIST = { sid: 'list-big', size: 1203, pages: 3 };

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let tarball: string;

const credential = CREDENTIAL_IDS.exotelApi;
const one = bulkSmsWorkflow('rate limit: one run', 'rate-limit-one', 9_100_000_000, credential);
const twoA = bulkSmsWorkflow('rate limit: run A', 'rate-limit-a', 9_200_000_000, credential);
const twoB = bulkSmsWorkflow('rate limit: run B', 'rate-limit-b', 9_300_000_000, credential);

function voiceWorkflow(name: string, webhookPath: string, items: string, voice: Record<string, unknown>) {
	const trigger: WorkflowNode = {
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
	const make: WorkflowNode = {
		name: 'Items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { language: 'javaScript', mode: 'runOnceForAllItems', jsCode: items },
	};
	const node: WorkflowNode = {
		name: 'Exotel',
		type: 'n8n-nodes-exotel.exotelVoice',
		typeVersion: 1,
		onError: 'continueRegularOutput',
		parameters: voice,
		credentials: { exotelApi: credential },
	};
	return makeWorkflow([make, node], { name, trigger });
}

const campaigns = voiceWorkflow(
	'rate limit: campaign burst',
	'rate-limit-campaigns',
	`return Array.from({ length: ${CAMPAIGNS} }, (_, i) => ({ json: { phone: '+9198765' + String(10000 + i), name: 'Burst campaign ' + i } }));`,
	{ resource: 'campaign', operation: 'create', recipientSource: 'numbers', from: '={{ $json.phone }}', callerId: '+918047112233', additionalFields: { name: '={{ $json.name }}' } },
);
const listing = voiceWorkflow(
	'rate limit: many pages',
	'rate-limit-pages',
	`return Array.from({ length: ${LIST_READERS} }, () => ({ json: {} }));`,
	{ resource: 'list', operation: 'getContacts', listSid: BIG_LIST.sid, returnAll: true },
);

async function runToTheEnd(workflows: Array<{ id: string; path: string }>): Promise<any[]> {
	await earlyInWindow(WINDOW_MS);
	await Promise.all(workflows.map(async (w) => await instance.request('POST', instance.webhookUrl(w.path), { data: {} })));
	return await Promise.all(workflows.map(async (w) => (await instance.waitForExecutions(w.id, 1, 10 * 60_000))[0]));
}

function nodeOutput(execution: any, node: string): Array<{ json: Record<string, any>; pairedItem?: { item: number } }> {
	return execution.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? [];
}

beforeAll(async () => {
	sandbox = new ExotelSandbox({ latencyMs: 20, rateLimit: DOCUMENTED });
	await sandbox.start();
	tarball = await packPackage();
	instance = await N8nInstance.create({ tarball });
	// started first, so the credentials and workflows go in through its API, not a CLI process each
	await instance.start();
	await instance.setupOwnerAndApiKey();
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	// the account's General GET limit is lower than the documented one: the credential says so
	data.exotelApi = { ...data.exotelApi, rateLimits: `General GET=${GENERAL_GET_PER_WINDOW * TIME_FACTOR}` };
	await instance.importCredentials(Object.entries(CREDENTIAL_IDS).map(([type, ref]) => ({ ...ref, type, data: data[type] })));
	await instance.importWorkflows([one, twoA, twoB, campaigns, listing]);
	for (const workflow of [one, twoA, twoB, campaigns, listing]) await instance.publish(workflow.id);
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 120_000);

afterAll(async () => {
	await instance?.dispose();
	if (tarball) await removeTempDir(path.dirname(tarball));
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

beforeEach(() => {
	sandbox.reset();
	sandbox.setRateLimit(DOCUMENTED);
});

describe('20,000 SMS at the documented limits (Bulk SMS 50 a window, counters on) on a real n8n', () => {
	test('one execution: all sent once, none failed, 0 × 429, within 1.05x the windows’ floor', async () => {
		const [execution] = await runToTheEnd([{ id: one.id, path: 'rate-limit-one' }]);
		expect(execution.status).toBe('success');
		const output = sendOutputOf(execution);
		expect(output).toHaveLength(MESSAGES);
		expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
		const messages = sandbox.messages();
		expect(messages).toHaveLength(MESSAGES);
		expect(new Set(messages.map((m) => m.to)).size).toBe(MESSAGES);
		expect(new Set(messages.map((m) => m.sid))).toEqual(new Set(output.map((json) => json.messageSid)));

		const figures = windowFigures(sandbox.requests({ pathIncludes: 'Sms/bulksend' }), REQUESTS_PER_RUN, 50, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT one execution: ${JSON.stringify(figures)}\n`);
		expect(figures).toMatchObject({ accepted: REQUESTS_PER_RUN, limited: 0 });
		expect(figures.ratio).toBeLessThanOrEqual(1.05);
	}, 10 * 60_000);

	test('two executions at once on the account: 40,000 sent once, none failed, ≤ 2 × 429, every window used, within 1.10x the floor of 400', async () => {
		const executions = await runToTheEnd([
			{ id: twoA.id, path: 'rate-limit-a' },
			{ id: twoB.id, path: 'rate-limit-b' },
		]);
		for (const execution of executions) {
			expect(execution.status).toBe('success');
			const output = sendOutputOf(execution);
			expect(output).toHaveLength(MESSAGES);
			expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
		}
		const messages = sandbox.messages();
		expect(messages).toHaveLength(2 * MESSAGES);
		expect(new Set(messages.map((m) => m.to)).size).toBe(2 * MESSAGES);

		const figures = windowFigures(sandbox.requests({ pathIncludes: 'Sms/bulksend' }), 2 * REQUESTS_PER_RUN, 50, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT two executions: ${JSON.stringify(figures)}\n`);
		expect(figures.accepted).toBe(2 * REQUESTS_PER_RUN);
		expect(figures.limited).toBeLessThanOrEqual(2);
		expectSharedWindowsUsed(figures, WINDOW_MS, expect);
	}, 12 * 60_000);
});

describe('other categories at their limits on a real n8n', () => {
	test(`a campaign create burst of ${CAMPAIGNS} (Campaign 30 a window): each created once, 0 × 429, within 1.05x the floor`, async () => {
		const [execution] = await runToTheEnd([{ id: campaigns.id, path: 'rate-limit-campaigns' }]);
		expect(execution.status).toBe('success');
		const output = nodeOutput(execution, 'Exotel');
		expect(output.map((item) => item.json.name)).toEqual(Array.from({ length: CAMPAIGNS }, (_, i) => `Burst campaign ${i}`));
		expect(output.map((item) => item.pairedItem?.item)).toEqual(Array.from({ length: CAMPAIGNS }, (_, i) => i));
		expect(new Set(output.map((item) => item.json.id)).size).toBe(CAMPAIGNS);
		const log = sandbox.requests({ method: 'POST', pathIncludes: '/campaigns' });
		expect(new Set(log.filter((r) => !r.rateLimited).map((r) => (r.json as { name?: string })?.name)).size).toBe(CAMPAIGNS);

		const figures = windowFigures(log, CAMPAIGNS, 30, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT campaign burst: ${JSON.stringify(figures)}\n`);
		expect(figures).toMatchObject({ accepted: CAMPAIGNS, limited: 0 });
		expect(figures.ratio).toBeLessThanOrEqual(1.05);
	}, 5 * 60_000);

	test(`Return All over ${LIST_READERS * BIG_LIST.pages} pages (General GET, lowered by the credential to ${GENERAL_GET_PER_WINDOW} a window): every page read once, 0 × 429, within 1.05x the floor`, async () => {
		const [execution] = await runToTheEnd([{ id: listing.id, path: 'rate-limit-pages' }]);
		expect(execution.status).toBe('success');
		const output = nodeOutput(execution, 'Exotel');
		expect(output).toHaveLength(LIST_READERS * BIG_LIST.size);
		for (let item = 0; item < LIST_READERS; item++) {
			expect(new Set(output.filter((o) => o.pairedItem?.item === item).map((o) => o.json.sid)).size).toBe(BIG_LIST.size);
		}
		const log = sandbox.requests({ method: 'GET', pathIncludes: `/lists/${BIG_LIST.sid}/contacts` });
		const figures = windowFigures(log, LIST_READERS * BIG_LIST.pages, GENERAL_GET_PER_WINDOW, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT many pages: ${JSON.stringify(figures)}\n`);
		expect(figures).toMatchObject({ accepted: LIST_READERS * BIG_LIST.pages, limited: 0 });
		expect(figures.ratio).toBeLessThanOrEqual(1.05);
	}, 5 * 60_000);
});
