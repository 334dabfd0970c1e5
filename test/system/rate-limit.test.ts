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
 * - two executions of 20,000 at once, and four: every message sent once, none failed, each refused
 *   request sent again only once its Retry-After has passed and in a later window than the one that
 *   refused it (two queue-mode workers: queue-mode.test.ts). How many 429s they meet is printed, not
 *   bounded: see sharedRun.
 * Every check is a count or an order from the sandbox's own request log and stores: none depends on
 * how fast the machine is. How long the runs take against the windows' floor is measured by the
 * rate-limit bench's scaled part, the same runs (`npm run bench -- --only rate-limit`,
 * test/bench/rate-limit.bench.ts; docs/rate-limits.md, Measured); the tests print the same figures
 * beside their checks.
 *
 * The six runs are independent, so they overlap: each has an account of its own, that is its own
 * sandbox (own port, windows, stores and log) and an Exotel API credential pointing at it, and its
 * own workflows, all on the file's one n8n. beforeAll starts them together early in one window, and
 * each test waits for its run's executions and checks them against its own sandbox alone. The file
 * takes about as long as its longest run (four executions without the counters) instead of the sum
 * of the six.
 */
import path from 'path';

import { sandboxCredentialData } from '../../sandbox/fixtures';
import { DOCUMENTED_RETRY_AFTER_SECONDS } from '../../sandbox/rate-limit';
import { type DocumentedRateLimitConfig, ExotelSandbox } from '../../sandbox/server';
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
	refusedByWindow,
	REQUESTS_PER_RUN,
	retryAfterBroken,
	sendOutputOf,
	windowFigures,
} from './bulk-sms';

const TIME_FACTOR = 6;
const WINDOW_MS = 60_000 / TIME_FACTOR;
/** General GET lowered for the listing, in the sandbox and in the credential alike (per minute there). */
const GENERAL_GET_PER_WINDOW = 15;
const DOCUMENTED: DocumentedRateLimitConfig = { mode: 'documented', timeFactor: TIME_FACTOR, limits: { generalGet: GENERAL_GET_PER_WINDOW } };
/** The same limits with no X-RateLimit-* on any answer (the spec promises none). */
const NO_COUNTERS: DocumentedRateLimitConfig = { ...DOCUMENTED, headers: false };
/** The credential's Custom Rate Limits: with the counters, the account's General GET; without, the scaled window. */
const COUNTED_LIMITS = `General GET=${GENERAL_GET_PER_WINDOW * TIME_FACTOR}`;
const QUIET_LIMITS = `Bulk SMS=50/${WINDOW_MS / 1000}s`;

/** The Retry-After of the sandbox's 429s at this time factor, in ms (the page's 30 s, scaled). */
const RETRY_AFTER_MS = Math.ceil(DOCUMENTED_RETRY_AFTER_SECONDS / TIME_FACTOR) * 1000;

type Credential = { id: string; name: string };
type Settled<T> = { value: T } | { error: unknown };

/**
 * One run on an account of its own: its sandbox (own port, windows, stores and log), an Exotel API
 * credential pointing at it with the run's Custom Rate Limits, and its workflows (a workflow's
 * execution is found by the workflow), each started by a POST to its path. `ended` holds its
 * executions once all have ended: started in beforeAll beside the other runs.
 */
interface Run {
	sandbox: ExotelSandbox;
	credential: Credential;
	rateLimits: string;
	flows: Array<{ id: string; path: string; json: object }>;
	ended?: Promise<Settled<SavedExecution[]>>;
}

function run(key: string, label: string, rateLimit: DocumentedRateLimitConfig, rateLimits: string, workflows: Array<[string, (credential: Credential) => { id: string }]>): Run {
	const credential = { id: `exotelRate${key}`, name: `Exotel Sandbox (${label})` };
	return {
		sandbox: new ExotelSandbox({ latencyMs: 20, rateLimit }),
		credential,
		rateLimits,
		flows: workflows.map(([webhookPath, make]) => {
			const json = make(credential);
			return { id: json.id, path: webhookPath, json };
		}),
	};
}

const sms = (name: string, webhookPath: string, firstNumber: number): [string, (credential: Credential) => { id: string }] => [
	webhookPath,
	(credential) => bulkSmsWorkflow(name, webhookPath, firstNumber, credential),
];

const ONE = run('One', 'one run', DOCUMENTED, COUNTED_LIMITS, [sms('rate limit: one run', 'rate-limit-one', 9_100_000_000)]);
const TWO = run('Two', 'two runs', DOCUMENTED, COUNTED_LIMITS, [
	sms('rate limit: run A', 'rate-limit-a', 9_200_000_000),
	sms('rate limit: run B', 'rate-limit-b', 9_300_000_000),
]);
const CAMPAIGN_BURST = run('Campaigns', 'campaign burst', DOCUMENTED, COUNTED_LIMITS, [
	['rate-limit-campaigns', (credential) => campaignBurstWorkflow('rate limit: campaign burst', 'rate-limit-campaigns', credential)],
]);
const MANY_PAGES = run('Pages', 'many pages', DOCUMENTED, COUNTED_LIMITS, [['rate-limit-pages', (credential) => manyPagesWorkflow('rate limit: many pages', 'rate-limit-pages', credential)]]);
const QUIET_TWO = run('QuietTwo', 'two runs, no counters', NO_COUNTERS, QUIET_LIMITS, [
	sms('rate limit, no counters: run 1', 'rate-limit-quiet-1', 9_600_000_000),
	sms('rate limit, no counters: run 2', 'rate-limit-quiet-2', 9_700_000_000),
]);
const QUIET_FOUR = run('QuietFour', 'four runs, no counters', NO_COUNTERS, QUIET_LIMITS, [
	sms('rate limit, no counters: run 3', 'rate-limit-quiet-3', 9_600_000_000),
	sms('rate limit, no counters: run 4', 'rate-limit-quiet-4', 9_700_000_000),
	sms('rate limit, no counters: run 5', 'rate-limit-quiet-5', 9_800_000_000),
	sms('rate limit, no counters: run 6', 'rate-limit-quiet-6', 9_900_000_000),
]);
const RUNS = [ONE, TWO, CAMPAIGN_BURST, MANY_PAGES, QUIET_TWO, QUIET_FOUR];

let instance: N8nInstance;
let tarball: string;

/** Starts each of the run's workflows at once; its saved executions, in the order of its flows, once all have ended. */
async function runToTheEnd(r: Run): Promise<SavedExecution[]> {
	await Promise.all(r.flows.map(async (flow) => await instance.request('POST', instance.webhookUrl(flow.path), { data: {} })));
	return await Promise.all(r.flows.map(async (flow) => (await instance.waitForExecutions(flow.id, 1, 10 * 60_000))[0]));
}

/** The run's executions, waited for; its failure, if it failed. */
async function executionsOf(r: Run): Promise<SavedExecution[]> {
	if (!r.ended) throw new Error('The run was not started: beforeAll failed');
	const outcome = await r.ended;
	if ('error' in outcome) throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
	return outcome.value;
}

function nodeOutput(execution: SavedExecution, node: string): Array<OutputItem & { pairedItem?: { item: number } }> {
	return (execution.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []) as Array<OutputItem & { pairedItem?: { item: number } }>;
}

beforeAll(async () => {
	await Promise.all(RUNS.map(async (r) => await r.sandbox.start()));
	tarball = await packPackage();
	instance = await N8nInstance.create({ tarball });
	// started first, so the credentials and workflows go in through its API, not a CLI process each
	await instance.start();
	await instance.setupOwnerAndApiKey();
	await instance.importCredentials(
		RUNS.map((r) => {
			const data = sandboxCredentialData(r.sandbox.origin) as Record<string, Record<string, unknown>>;
			return { ...r.credential, type: 'exotelApi', data: { ...data.exotelApi, rateLimits: r.rateLimits } };
		}),
	);
	const workflows = RUNS.flatMap((r) => r.flows);
	await instance.importWorkflows(workflows.map((flow) => flow.json));
	for (const flow of workflows) await instance.publish(flow.id);
	// all together, early in one window: each run's outcome is kept for its test (settled, so that a
	// run failing before its test waits for it is no unhandled rejection)
	await earlyInWindow(WINDOW_MS);
	for (const r of RUNS) {
		r.ended = runToTheEnd(r).then(
			(value) => ({ value }),
			(error: unknown) => ({ error }),
		);
	}
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 120_000);

afterAll(async () => {
	await instance?.dispose();
	if (tarball) await removeTempDir(path.dirname(tarball));
	await Promise.all(RUNS.map(async (r) => await r.sandbox.stop()));
}, JEST_TIMEOUTS.dispose);

describe('20,000 SMS at the documented limits (Bulk SMS 50 a window, counters on) on a real n8n', () => {
	test('one execution: all sent once, none failed, 0 × 429', async () => {
		const [execution] = await executionsOf(ONE);
		expect(execution.status).toBe('success');
		const output = sendOutputOf(execution);
		expect(output).toHaveLength(MESSAGES);
		expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
		const messages = ONE.sandbox.messages();
		expect(messages).toHaveLength(MESSAGES);
		expect(new Set(messages.map((m) => m.to)).size).toBe(MESSAGES);
		expect(new Set(messages.map((m) => m.sid))).toEqual(new Set(output.map((json) => json.messageSid)));

		const figures = windowFigures(ONE.sandbox.requests({ pathIncludes: 'Sms/bulksend' }), REQUESTS_PER_RUN, 50, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT one execution: ${JSON.stringify(figures)}\n`);
		expect(figures).toMatchObject({ accepted: REQUESTS_PER_RUN, limited: 0 });
	}, 12 * 60_000);

	test('two executions at once on the account: 40,000 sent once, none failed, ≤ 2 × 429, each refused request sent again after its Retry-After', async () => {
		const figures = await sharedRun(TWO, 'two executions');
		expect(figures.limited).toBeLessThanOrEqual(2);
	}, 12 * 60_000);
});

/**
 * Executions at once on the run's account, each of MESSAGES: each sent once and paired, none failed,
 * every bulk request accepted once and a refused one sent again only after its Retry-After (and,
 * with `windowMs`, without the counters, in a later window). The figures.
 */
async function sharedRun(r: Run, label: string, windowMs?: number) {
	const executions = await executionsOf(r);
	for (const execution of executions) {
		expect(execution.status).toBe('success');
		const output = sendOutputOf(execution);
		expect(output).toHaveLength(MESSAGES);
		expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
	}
	const runs = r.flows.length;
	const messages = r.sandbox.messages();
	expect(messages).toHaveLength(runs * MESSAGES);
	expect(new Set(messages.map((m) => m.to)).size).toBe(runs * MESSAGES);
	expect(new Set(messages.map((m) => m.sid))).toEqual(new Set(executions.flatMap((execution) => sendOutputOf(execution).map((json) => json.messageSid))));

	const log = r.sandbox.requests({ pathIncludes: 'Sms/bulksend' });
	const figures = windowFigures(log, runs * REQUESTS_PER_RUN, 50, WINDOW_MS);
	process.stdout.write(`RATE_LIMIT ${label}: ${JSON.stringify({ ...figures, refused: refusedByWindow(log, WINDOW_MS) })}\n`);
	expect(figures.accepted).toBe(runs * REQUESTS_PER_RUN);
	// every request accepted once (its recipients are its key), a refused one only after its Retry-After
	const accepted = log.filter((req) => !req.rateLimited).map(firstRecipient);
	expect(new Set(accepted).size).toBe(runs * REQUESTS_PER_RUN);
	expect(retryAfterBroken(log, firstRecipient, RETRY_AFTER_MS, windowMs)).toEqual([]);
	return figures;
}

/**
 * Without the counters the 429s are counted and printed, not bounded: no bound on them holds
 * whatever the machine's speed. A run meets the window filling once (its 429 pauses the whole run
 * until the next window), but it meets it with every request it had in flight then, and without
 * counters it keeps one more in flight for each contest turn (40 % of the window ÷ the limit: 80 ms
 * here) its round trip through n8n lasts, so a collision costs each run its round trip ÷ 80 ms in
 * 429s. That round trip is n8n's, and the CPU sets it; the sandbox's log shows when requests
 * arrived, not when the pacer let them go or read their answers, so no count from the log bounds
 * it. How many windows collide depends on timing too: a contest counts only if the run sent from
 * the window's opening (its first 5 %), a probe for more meets a 429 or not as the others' share is
 * done or not by the window's middle, and a request let go in a window's last 100 ms lands in the
 * next one when n8n is slow. Measured: 6 for two, 16 and 17 for four, and 54 on a slow pass
 * (docs/rate-limits.md). What is exact stays checked: nothing lost, nothing sent twice, and each
 * refused request sent again no sooner than its Retry-After and in a later window (retryAfterBroken).
 * The virtual clock bounds the counts, where the round trip is given (test/unit/pacing.test.ts).
 */
describe('20,000 SMS each without the counters (headers off; Custom Rate Limits: Bulk SMS=50/10s) on a real n8n: the runs share the account through its refusals', () => {
	test('two executions at once: 40,000 sent once, none failed, each refused request sent again after its Retry-After, in a later window', async () => {
		await sharedRun(QUIET_TWO, 'two executions, no counters', WINDOW_MS);
	}, 12 * 60_000);

	test('four executions at once: 80,000 sent once, none failed, each refused request sent again after its Retry-After, in a later window', async () => {
		await sharedRun(QUIET_FOUR, 'four executions, no counters', WINDOW_MS);
	}, 15 * 60_000);
});

describe('other categories at their limits on a real n8n', () => {
	test(`a campaign create burst of ${CAMPAIGNS} (Campaign 30 a window): each created once, 0 × 429`, async () => {
		const [execution] = await executionsOf(CAMPAIGN_BURST);
		expect(execution.status).toBe('success');
		const output = nodeOutput(execution, 'Exotel');
		expect(output.map((item) => item.json.name)).toEqual(Array.from({ length: CAMPAIGNS }, (_, i) => `Burst campaign ${i}`));
		expect(output.map((item) => item.pairedItem?.item)).toEqual(Array.from({ length: CAMPAIGNS }, (_, i) => i));
		expect(new Set(output.map((item) => item.json.id)).size).toBe(CAMPAIGNS);
		const log = CAMPAIGN_BURST.sandbox.requests({ method: 'POST', pathIncludes: '/campaigns' });
		expect(new Set(log.filter((req) => !req.rateLimited).map((req) => (req.json as { name?: string })?.name)).size).toBe(CAMPAIGNS);

		const figures = windowFigures(log, CAMPAIGNS, 30, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT campaign burst: ${JSON.stringify(figures)}\n`);
		expect(figures).toMatchObject({ accepted: CAMPAIGNS, limited: 0 });
	}, 12 * 60_000);

	test(`Return All over ${LIST_READERS * BIG_LIST.pages} pages (General GET, lowered by the credential to ${GENERAL_GET_PER_WINDOW} a window): every page read once, 0 × 429`, async () => {
		const [execution] = await executionsOf(MANY_PAGES);
		expect(execution.status).toBe('success');
		const output = nodeOutput(execution, 'Exotel');
		expect(output).toHaveLength(LIST_READERS * BIG_LIST.size);
		for (let item = 0; item < LIST_READERS; item++) {
			expect(new Set(output.filter((o) => o.pairedItem?.item === item).map((o) => o.json.sid)).size).toBe(BIG_LIST.size);
		}
		const log = MANY_PAGES.sandbox.requests({ method: 'GET', pathIncludes: `/lists/${BIG_LIST.sid}/contacts` });
		const figures = windowFigures(log, LIST_READERS * BIG_LIST.pages, GENERAL_GET_PER_WINDOW, WINDOW_MS);
		process.stdout.write(`RATE_LIMIT many pages: ${JSON.stringify(figures)}\n`);
		expect(figures).toMatchObject({ accepted: LIST_READERS * BIG_LIST.pages, limited: 0 });
	}, 12 * 60_000);
});
