/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- prints its figures and removes the packed tarball's folder (process, path); never shipped */
/**
 * Sends of any size at the service's documented limits, on a real n8n with the packed package:
 * the sandbox counts each category in fixed windows and answers with the X-RateLimit counters and
 * `Retry-After: 30` past the limit, time scaled ×6 (windows of 10 s, Retry-After 5 s; the request
 * counts and the limits per window are the service's). Each run starts early in a window.
 * - 20,000 personalised SMS (200 dynamic-bulk requests, Bulk SMS: 50 a window): every message sent
 *   once, none failed, 0 × 429;
 * - two executions of 20,000 at once on the account: 40,000 sent once, none failed, ≤ 2 × 429 in
 *   all, and a refused request sent again only once its Retry-After has passed (two queue-mode
 *   workers: queue-mode.test.ts);
 * - a campaign create burst of 100 (Campaign: 30 a window) and Return All over many pages
 *   (General GET, the credential's Custom Rate Limits lowering it to 15 a window): each created or
 *   read once, 0 × 429.
 * Without the counters (the sandbox answers none; the credential's Custom Rate Limits tell the
 * pacer the scaled window, `Bulk SMS=50/10s`), the runs on the account share it through its refusals
 * alone:
 * - two executions of 20,000 at once: 40,000 sent once, none failed, ≤ 6 × 429 in all, a refused
 *   request sent again only once its Retry-After has passed (two queue-mode workers: queue-mode.test.ts);
 * - four at once: 80,000 sent once, none failed, Retry-After honoured.
 * Every check is a count or an order from the sandbox's own request log and stores: none depends on
 * how fast the machine is. How long the runs take against the windows' floor is measured by the
 * rate-limit bench's scaled part, the same runs (`npm run bench -- --only rate-limit`,
 * test/bench/rate-limit.bench.ts; docs/rate-limits.md, Measured); the tests print the same figures
 * beside their checks.
 */
import path from 'path';

import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../../sandbox/fixtures';
import { DOCUMENTED_RETRY_AFTER_SECONDS } from '../../sandbox/rate-limit';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, N8nInstance, type OutputItem, packPackage, removeTempDir, type SavedExecution } from '../harness';
import {
	BIG_LIST,
	bulkSmsWorkflow,
	CAMPAIGNS,
	campaignBurstWorkflow,
	earlyInWindow,
	firstRecipient,
	LIST_READERS,
	manyPagesWorkflow,
	MESSAGES,
	REQUESTS_PER_RUN,
	retryAfterBroken,
	sendOutputOf,
	windowFigures,
} from './bulk-sms';

const TIME_FACTOR = 6;
const WINDOW_MS = 60_000 / TIME_FACTOR;
/** General GET lowered for the listing, in the sandbox and in the credential alike (per minute there). */
const GENERAL_GET_PER_WINDOW = 15;
const DOCUMENTED = { mode: 'documented', timeFactor: TIME_FACTOR, limits: { generalGet: GENERAL_GET_PER_WINDOW } } as const;
/** The same limits with no X-RateLimit-* on any answer (the spec promises none). */
const NO_COUNTERS = { ...DOCUMENTED, headers: false } as const;

/** The Retry-After of the sandbox's 429s at this time factor, in ms (the page's 30 s, scaled). */
const RETRY_AFTER_MS = Math.ceil(DOCUMENTED_RETRY_AFTER_SECONDS / TIME_FACTOR) * 1000;

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let tarball: string;

const credential = CREDENTIAL_IDS.exotelApi;
/** An Exotel API credential for the runs without counters: its Custom Rate Limits give the scaled window. */
const quietCredential = { id: 'exotelQuietApi', name: 'Exotel Sandbox (no counters)' };
const one = bulkSmsWorkflow('rate limit: one run', 'rate-limit-one', 9_100_000_000, credential);
const twoA = bulkSmsWorkflow('rate limit: run A', 'rate-limit-a', 9_200_000_000, credential);
const twoB = bulkSmsWorkflow('rate limit: run B', 'rate-limit-b', 9_300_000_000, credential);
const campaigns = campaignBurstWorkflow('rate limit: campaign burst', 'rate-limit-campaigns', credential);
const listing = manyPagesWorkflow('rate limit: many pages', 'rate-limit-pages', credential);
/** Six workflows: two for the pair, four for the four (a workflow's execution is found by the workflow). */
const QUIET_PATHS = [1, 2, 3, 4, 5, 6].map((run) => `rate-limit-quiet-${run}`);
const quiet = QUIET_PATHS.map((webhookPath, i) => bulkSmsWorkflow(`rate limit, no counters: run ${i + 1}`, webhookPath, [96, 97, 96, 97, 98, 99][i] * 100_000_000, quietCredential));

async function runToTheEnd(workflows: Array<{ id: string; path: string }>): Promise<SavedExecution[]> {
	await earlyInWindow(WINDOW_MS);
	await Promise.all(workflows.map(async (w) => await instance.request('POST', instance.webhookUrl(w.path), { data: {} })));
	return await Promise.all(workflows.map(async (w) => (await instance.waitForExecutions(w.id, 1, 10 * 60_000))[0]));
}

function nodeOutput(execution: SavedExecution, node: string): Array<OutputItem & { pairedItem?: { item: number } }> {
	return (execution.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []) as Array<OutputItem & { pairedItem?: { item: number } }>;
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
	await instance.importCredentials([
		...Object.entries(CREDENTIAL_IDS).map(([type, ref]) => ({ ...ref, type, data: data[type] })),
		{ ...quietCredential, type: 'exotelApi', data: { ...data.exotelApi, rateLimits: `Bulk SMS=50/${WINDOW_MS / 1000}s` } },
	]);
	const workflows = [one, twoA, twoB, campaigns, listing, ...quiet];
	await instance.importWorkflows(workflows);
	for (const workflow of workflows) await instance.publish(workflow.id);
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
	test('one execution: all sent once, none failed, 0 × 429', async () => {
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
	}, 10 * 60_000);

	test('two executions at once on the account: 40,000 sent once, none failed, ≤ 2 × 429, each refused request sent again after its Retry-After', async () => {
		const figures = await sharedRun(
			[
				{ id: twoA.id, path: 'rate-limit-a' },
				{ id: twoB.id, path: 'rate-limit-b' },
			],
			'two executions',
		);
		expect(figures.limited).toBeLessThanOrEqual(2);
	}, 12 * 60_000);
});

/**
 * Executions at once on the account, each of MESSAGES: each sent once and paired, none failed, every
 * bulk request accepted once and a refused one sent again only after its Retry-After. The figures.
 */
async function sharedRun(workflows: Array<{ id: string; path: string }>, label: string) {
	const executions = await runToTheEnd(workflows);
	for (const execution of executions) {
		expect(execution.status).toBe('success');
		const output = sendOutputOf(execution);
		expect(output).toHaveLength(MESSAGES);
		expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
	}
	const runs = workflows.length;
	const messages = sandbox.messages();
	expect(messages).toHaveLength(runs * MESSAGES);
	expect(new Set(messages.map((m) => m.to)).size).toBe(runs * MESSAGES);
	expect(new Set(messages.map((m) => m.sid))).toEqual(new Set(executions.flatMap((execution) => sendOutputOf(execution).map((json) => json.messageSid))));

	const log = sandbox.requests({ pathIncludes: 'Sms/bulksend' });
	const figures = windowFigures(log, runs * REQUESTS_PER_RUN, 50, WINDOW_MS);
	process.stdout.write(`RATE_LIMIT ${label}: ${JSON.stringify(figures)}\n`);
	expect(figures.accepted).toBe(runs * REQUESTS_PER_RUN);
	// every request accepted once (its recipients are its key), a refused one only after its Retry-After
	const accepted = log.filter((r) => !r.rateLimited).map(firstRecipient);
	expect(new Set(accepted).size).toBe(runs * REQUESTS_PER_RUN);
	expect(retryAfterBroken(log, firstRecipient, RETRY_AFTER_MS)).toEqual([]);
	return figures;
}

const quietRuns = (from: number, count: number) => quiet.slice(from, from + count).map((workflow, i) => ({ id: workflow.id, path: QUIET_PATHS[from + i] }));

describe('20,000 SMS each without the counters (headers off; Custom Rate Limits: Bulk SMS=50/10s) on a real n8n: the runs share the account through its refusals', () => {
	beforeEach(() => sandbox.setRateLimit(NO_COUNTERS));

	test('two executions at once: 40,000 sent once, none failed, ≤ 6 × 429, each refused request sent again after its Retry-After', async () => {
		const figures = await sharedRun(quietRuns(0, 2), 'two executions, no counters');
		expect(figures.limited).toBeLessThanOrEqual(6);
	}, 12 * 60_000);

	test('four executions at once: 80,000 sent once, none failed, each refused request sent again after its Retry-After', async () => {
		await sharedRun(quietRuns(2, 4), 'four executions, no counters');
	}, 15 * 60_000);
});

describe('other categories at their limits on a real n8n', () => {
	test(`a campaign create burst of ${CAMPAIGNS} (Campaign 30 a window): each created once, 0 × 429`, async () => {
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
	}, 5 * 60_000);

	test(`Return All over ${LIST_READERS * BIG_LIST.pages} pages (General GET, lowered by the credential to ${GENERAL_GET_PER_WINDOW} a window): every page read once, 0 × 429`, async () => {
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
	}, 5 * 60_000);
});
