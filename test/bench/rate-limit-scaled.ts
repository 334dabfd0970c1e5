/* eslint-disable @n8n/community-nodes/no-restricted-imports -- removes the packed tarball's folder (path); never shipped */
/**
 * The rate-limit bench's scaled part: the runs of the system stage's rate-limit tests
 * (test/system/rate-limit.test.ts, queue-mode.test.ts), measured. Those tests check what is exact
 * (every message sent once, the 429s, Retry-After honoured); how long the runs take against the
 * windows depends on the machine, so it is measured here and written in docs/rate-limits.md.
 *
 * The sandbox (a child process) at the documented limits, time ×6: windows of 10 s, Retry-After 5 s;
 * the request counts and the limits per window are the service's, General GET lowered to 15 a window
 * (the Exotel credential's Custom Rate Limits say `General GET=90`). Each run gets a new empty window
 * and a clean log, and starts early in a window (earlyInWindow). Runs 1-5 with the counters on; runs
 * 6-9 without them (`headers: false`), with a second Exotel credential whose Custom Rate Limits tell
 * the pacer the scaled window (`Bulk SMS=50/10s`), as the system stage's runs without counters.
 *
 *   On the bench's n8n (n8n start, regular mode, SQLite), the same workflows as the tests':
 *   1. one execution of N personalised SMS (N / 100 dynamic-bulk requests, Bulk SMS 50 a window);
 *   2. two executions of N at once on the account;
 *   3. a campaign create burst of 100 (Campaign 30 a window);
 *   4. Return All over 60 pages (20 items reading a list of 1,203 in pages of 500; General GET).
 *   6-8. without the counters: one execution of N; two at once; four at once.
 *   On a queue-mode n8n of its own (main, two workers of concurrency 1, a webhook processor; Redis
 *   and PostgreSQL from Debian's packages on loopback, test/system/services.ts):
 *   5. two executions of N at once through the webhook processor, one on each worker;
 *   9. the same without the counters.
 *
 * Figures from the sandbox's log (test/system/bulk-sms.ts, windowFigures): requests, 429s, first
 * to last accepted (wall) against the windows' floor (from the first accepted request to the start of
 * the window the last request can fall in) and their ratio, the requests the windows between the
 * first and the last left unused, accepted requests per window and run; and from the sandbox's
 * stores and the saved executions, every message, campaign or page once.
 *
 * Targets (reported, never failed; the bounds the system tests asserted before they moved here):
 * alone 0 × 429 and ≤ 1.05 × the floor; shared ≤ 2 × 429 and ≤ 1.10 × the floor with every window
 * between the first and the last full, or exactly one request left unused (two runs taking turns can
 * leave the window's last one) and within one window of the floor. Without the counters: alone ≤ 1
 * × 429 after the first window and ≤ 1.10 ×; two ≤ 6 × 429 in all and ≤ 1.25 ×; four ≤ 1.40 ×.
 * Broken (exit 1) only when something was lost, sent twice or failed.
 */
import * as path from 'node:path';

import { sandboxCredentialData } from '../../sandbox/fixtures';
import { DOCUMENTED_LIMITS, DOCUMENTED_RETRY_AFTER_SECONDS, DOCUMENTED_WINDOW_MS } from '../../sandbox/rate-limit';
import type { DocumentedRateLimitConfig, RecordedRequest } from '../../sandbox/types';
import { freePort, N8nInstance, packPackage, removeTempDir, type N8nProcess, type OutputItem, type SavedExecution } from '../harness';
import {
	BIG_LIST,
	bulkSmsWorkflow,
	CAMPAIGNS,
	campaignBurstWorkflow,
	earlyInWindow,
	LIST_READERS,
	manyPagesWorkflow,
	retryAfterBroken,
	firstRecipient,
	sendOutputOf,
	windowFigures,
	type WindowFigures,
} from '../system/bulk-sms';
import { queueModeEnv, startPostgres, startRedis, type LoopbackService } from '../system/services';
import { int, MESSAGES_PER_REQUEST, n, table } from './common';
import { SandboxProcess } from './sandbox-process';
import type { KeyedWorkflow, NamedCredential } from './sms-workflows';

export const SCALED_TIME_FACTOR = 6;
/** The sandbox's documented mode at time ×`timeFactor`: windows of 60 / timeFactor s, Retry-After ceil(30 / timeFactor) s. */
export const scaledTiming = (timeFactor: number) => ({
	windowMs: DOCUMENTED_WINDOW_MS / timeFactor,
	retryAfterMs: Math.ceil(DOCUMENTED_RETRY_AFTER_SECONDS / timeFactor) * 1000,
});
const { windowMs: WINDOW_MS, retryAfterMs: RETRY_AFTER_MS } = scaledTiming(SCALED_TIME_FACTOR);
/** General GET lowered for the listing, in the sandbox and in the credential alike (per minute there). */
const GENERAL_GET_PER_WINDOW = 15;
export const SCALED_LIMITS: DocumentedRateLimitConfig = { mode: 'documented', timeFactor: SCALED_TIME_FACTOR, limits: { generalGet: GENERAL_GET_PER_WINDOW } };
/** The Exotel credential's fields for the listing run: the account's lower General GET, per minute of the service. */
export const SCALED_CREDENTIAL_DATA = { rateLimits: `General GET=${GENERAL_GET_PER_WINDOW * SCALED_TIME_FACTOR}` };
/** An Exotel credential's fields for runs without counters at time ×`timeFactor`: the scaled window, which nothing else tells the pacer. */
export const quietCredentialData = (timeFactor: number) => ({ rateLimits: `Bulk SMS=${DOCUMENTED_LIMITS.bulkSms}/${scaledTiming(timeFactor).windowMs / 1000}s` });
/** The second Exotel credential, for the runs without counters (`Bulk SMS=50/10s`). */
export const QUIET_CREDENTIAL = { id: 'benchScaledQuietApi', name: 'Exotel Sandbox (documented limits, ×6, no counters)' };
export const QUIET_CREDENTIAL_DATA = quietCredentialData(SCALED_TIME_FACTOR);
/** How long a run may take before the bench gives up on it. */
const RUN_TIMEOUT_MS = 15 * 60_000;

export const SCALED_TARGETS = {
	alone: { max429: 0, maxRatio: 1.05 },
	shared: { max429: 2, maxRatio: 1.1, orUnusedBetween: 1 },
	quietAlone: { max429AfterFirstWindow: 1, maxRatio: 1.1 },
	quietShared: { max429: 6, maxRatio: 1.25 },
	quietFour: { maxRatio: 1.4 },
};

type Kind = keyof typeof SCALED_TARGETS;

type QuietKey = 'quiet1' | 'quiet2' | 'quiet3' | 'quiet4' | 'quiet5' | 'quiet6' | 'quiet7';
type ScaledKey = 'one' | 'twoA' | 'twoB' | 'campaigns' | 'pages' | QuietKey | 'minuteA' | 'minuteB';

/**
 * The runs without counters: a workflow each for one, two and four at once (a workflow's execution is
 * found by the workflow), their first numbers +91 and 96…, 97…, 98…, 99… (a run in the accepted-per-window
 * line each).
 */
const QUIET_RUNS: Array<{ keys: QuietKey[]; first: number[] }> = [
	{ keys: ['quiet1'], first: [9_600_000_000] },
	{ keys: ['quiet2', 'quiet3'], first: [9_600_000_000, 9_700_000_000] },
	{ keys: ['quiet4', 'quiet5', 'quiet6', 'quiet7'], first: [9_600_000_000, 9_700_000_000, 9_800_000_000, 9_900_000_000] },
];

/** The first number of each SMS run's recipients (+91 and ten digits), as in the system tests. */
const FIRST_NUMBER: Record<'one' | 'twoA' | 'twoB' | 'queueA' | 'queueB', number> = {
	one: 9_100_000_000,
	twoA: 9_200_000_000,
	twoB: 9_300_000_000,
	queueA: 9_400_000_000,
	queueB: 9_500_000_000,
};

/** The pair at the bench's own windows (runTwoAtTheMinute): workflows of their own, since a workflow's execution is found by the workflow. */
const MINUTE_FIRST = { minuteA: 9_000_000_000, minuteB: 8_900_000_000 };

const keyed = (key: ScaledKey, webhookPath: string, json: KeyedWorkflow<ScaledKey>['json']) => ({ key, id: json.id, webhookPath, json });

/**
 * The workflows of runTwoAtTheMinute, with `credential`: at the service's minute the credential as a
 * user has it; at a time factor, one whose Custom Rate Limits say the window (quietCredentialData).
 */
export const minuteWorkflows = (credential: NamedCredential, items: number): Array<KeyedWorkflow<ScaledKey>> =>
	(['minuteA', 'minuteB'] as const).map((key) =>
		keyed(key, `bench-minute-${key}`, bulkSmsWorkflow(`Rate-limit bench at the minute: ${key}`, `bench-minute-${key}`, MINUTE_FIRST[key], credential, items)),
	);

/** The regular-mode runs' workflows (runScaledRegular), for the bench's n8n to import beside its own. */
export function scaledWorkflows(credential: NamedCredential, items: number): Array<KeyedWorkflow<ScaledKey>> {
	const quiet = QUIET_RUNS.flatMap(({ keys, first }) =>
		keys.map((key, i) => keyed(key, `bench-scaled-${key}`, bulkSmsWorkflow(`Rate-limit bench ×6, no counters: ${key}`, `bench-scaled-${key}`, first[i], QUIET_CREDENTIAL, items))),
	);
	return [
		...quiet,
		keyed('one', 'bench-scaled-one', bulkSmsWorkflow('Rate-limit bench ×6: one run', 'bench-scaled-one', FIRST_NUMBER.one, credential, items)),
		keyed('twoA', 'bench-scaled-a', bulkSmsWorkflow('Rate-limit bench ×6: run A', 'bench-scaled-a', FIRST_NUMBER.twoA, credential, items)),
		keyed('twoB', 'bench-scaled-b', bulkSmsWorkflow('Rate-limit bench ×6: run B', 'bench-scaled-b', FIRST_NUMBER.twoB, credential, items)),
		keyed('campaigns', 'bench-scaled-campaigns', campaignBurstWorkflow('Rate-limit bench ×6: campaign burst', 'bench-scaled-campaigns', credential)),
		keyed('pages', 'bench-scaled-pages', manyPagesWorkflow('Rate-limit bench ×6: many pages', 'bench-scaled-pages', credential)),
	];
}

export interface ScaledRunFigures extends WindowFigures {
	label: string;
	/** which targets apply */
	kind: Kind;
	/** requests the run needs, and the category's limit a window */
	expected: number;
	perWindow: number;
	/** the executions' statuses, and where queue mode ran them */
	executions: string;
	/** messages, campaigns or pages: how many there should be, got, lost, twice, and output items with an error */
	units: string;
	wanted: number;
	got: number;
	lost: number;
	twice: number;
	failedItems: number;
	/** refused requests sent again before their Retry-After ended, or never (test/system/bulk-sms.ts) */
	retryAfterBroken: number;
	met: boolean;
}

export interface ScaledReport {
	/** why the scaled part did not run, when it did not (--skip-scaled) */
	skipped?: string;
	timeFactor: number;
	windowMs: number;
	retryAfterMs: number;
	items: number;
	runs: ScaledRunFigures[];
	/** why the queue-mode run did not run, when it did not */
	queueModeSkipped?: string;
	broken: string[];
}

/** Where an execution started: the bench reads it from the instance's saved execution. */
interface Started {
	workflowId: string;
	webhookUrl: string;
}

interface RunContext {
	instance: N8nInstance;
	sandbox: SandboxProcess;
	log: (line: string) => void;
}

/** A new empty window and a clean log, then the runs' webhooks at once, early in a window; resolves with their saved executions. */
async function startTogether(ctx: RunContext, runs: Started[], counters = true, limits = SCALED_LIMITS, early = true): Promise<SavedExecution[]> {
	await ctx.sandbox.setRateLimit({ ...limits, headers: counters });
	await ctx.sandbox.reset();
	if (early) await earlyInWindow(scaledTiming(limits.timeFactor ?? 1).windowMs);
	const answers = await Promise.all(runs.map(async (run) => await ctx.instance.request('POST', run.webhookUrl, { data: {} })));
	const refused = answers.filter((answer) => answer.status !== 200);
	if (refused.length) throw new Error(`a webhook answered ${refused.map((a) => `${a.status} ${JSON.stringify(a.data).slice(0, 300)}`).join('; ')}`);
	return await Promise.all(runs.map(async (run) => (await ctx.instance.waitForExecutions(run.workflowId, 1, RUN_TIMEOUT_MS))[0]));
}

/** Whether the requests need more than one window: with fewer (a small run) there is no floor to compare with. */
const spansWindows = (f: WindowFigures) => f.floorMs > 0;

function metFor(kind: Kind, f: WindowFigures, expected: number, windowMs = WINDOW_MS): boolean {
	if (f.accepted < expected) return false;
	const within = (maxRatio: number) => !spansWindows(f) || f.ratio <= maxRatio;
	if (kind === 'quietAlone') return f.limitedAfterFirstWindow <= SCALED_TARGETS.quietAlone.max429AfterFirstWindow && within(SCALED_TARGETS.quietAlone.maxRatio);
	if (kind === 'quietShared') return f.limited <= SCALED_TARGETS.quietShared.max429 && within(SCALED_TARGETS.quietShared.maxRatio);
	if (kind === 'quietFour') return within(SCALED_TARGETS.quietFour.maxRatio);
	if (kind === 'alone') return f.limited <= SCALED_TARGETS.alone.max429 && (!spansWindows(f) || f.ratio <= SCALED_TARGETS.alone.maxRatio);
	const t = SCALED_TARGETS.shared;
	if (f.limited > t.max429) return false;
	if (!spansWindows(f)) return true;
	if (f.unusedBetween === 0) return f.ratio <= t.maxRatio;
	return f.unusedBetween <= t.orUnusedBetween && f.wallMs <= f.floorMs + windowMs + 1_000;
}

/** Numbers +91 and `first`, `first + 1`, … for `count` messages. */
const numbersOf = (first: number, count: number) => Array.from({ length: count }, (_, i) => `+91${first + i}`);

/** What the stores show of SMS runs: each number of `wanted` got one message, nothing else came. */
async function smsOnce(sandbox: SandboxProcess, wanted: string[]): Promise<{ got: number; lost: number; twice: number }> {
	const messages = await sandbox.smsMessages();
	const counts = new Map<string, number>();
	for (const m of messages) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
	const wantedSet = new Set(wanted);
	const lost = wanted.filter((to) => !counts.has(to)).length;
	// beyond the first to a number, and any to a number no item had
	const twice = [...counts.values()].reduce((sum, k) => sum + k - 1, 0) + [...counts.keys()].filter((to) => !wantedSet.has(to)).length;
	return { got: messages.length, lost, twice };
}

function smsRun(
	label: string,
	kind: Kind,
	log: RecordedRequest[],
	executions: SavedExecution[],
	once: { got: number; lost: number; twice: number },
	wanted: number,
	where = '',
	timeFactor = SCALED_TIME_FACTOR,
): ScaledRunFigures {
	const { windowMs, retryAfterMs } = scaledTiming(timeFactor);
	const bulk = log.filter((r) => r.path.includes('/Sms/bulksend'));
	// each execution's personalised messages, 100 a dynamic-bulk request (a last one alone goes to Sms/send)
	const perRun = wanted / executions.length;
	const expected = executions.length * (Math.floor(perRun / MESSAGES_PER_REQUEST) + (perRun % MESSAGES_PER_REQUEST > 1 ? 1 : 0));
	const figures = windowFigures(bulk, expected, DOCUMENTED_LIMITS.bulkSms, windowMs);
	const outputs = executions.flatMap((e) => sendOutputOf(e));
	const failedItems = outputs.filter((json) => json.error !== undefined || json.status === 'failed').length + Math.max(0, wanted - outputs.length);
	return {
		label,
		kind,
		expected,
		perWindow: DOCUMENTED_LIMITS.bulkSms,
		...figures,
		executions: executions.map((e) => e.status).join(', ') + where,
		units: 'messages',
		wanted,
		...once,
		failedItems,
		retryAfterBroken: retryAfterBroken(bulk, firstRecipient, retryAfterMs).length,
		met: metFor(kind, figures, expected, windowMs),
	};
}

/**
 * Two executions at once without the counters at the rate-limit bench's windows: the service's own
 * minute (time factor 1, the credential as a user has it) or time ×`timeFactor` (a credential that
 * says the window); workflows of their own (minuteWorkflows).
 */
export async function runTwoAtTheMinute(ctx: RunContext, workflows: Array<KeyedWorkflow<ScaledKey>>, items: number, timeFactor = 1): Promise<ScaledRunFigures> {
	const wf = Object.fromEntries(workflows.map((w) => [w.key, { workflowId: w.id, webhookUrl: ctx.instance.webhookUrl(w.webhookPath) }])) as Record<ScaledKey, Started>;
	const label = `${int(items)} SMS each, two executions at once, no counters, ${timeFactor === 1 ? "at the service's minute" : `at time ×${timeFactor}`}`;
	ctx.log(`rate-limit: ${label}...`);
	// early in a window only when the requests need more than one (a small run would wait up to 42 s at the minute for nothing)
	const early = 2 * Math.ceil(items / MESSAGES_PER_REQUEST) > DOCUMENTED_LIMITS.bulkSms;
	const executions = await startTogether(ctx, [wf.minuteA, wf.minuteB], false, { mode: 'documented', timeFactor }, early);
	const both = [...numbersOf(MINUTE_FIRST.minuteA, items), ...numbersOf(MINUTE_FIRST.minuteB, items)];
	return smsRun(label, 'quietShared', await ctx.sandbox.requests(), executions, await smsOnce(ctx.sandbox, both), 2 * items, '', timeFactor);
}

const nodeOutput = (execution: SavedExecution | undefined, node: string): Array<OutputItem & { pairedItem?: { item: number } }> =>
	(execution?.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []) as Array<OutputItem & { pairedItem?: { item: number } }>;

/** Runs 1-4 and 6-8 on the bench's n8n (regular mode), with `workflows` from scaledWorkflows imported and published. */
export async function runScaledRegular(
	ctx: RunContext,
	workflows: Array<KeyedWorkflow<ScaledKey>>,
	items: number,
): Promise<ScaledRunFigures[]> {
	const wf = Object.fromEntries(workflows.map((w) => [w.key, { workflowId: w.id, webhookUrl: ctx.instance.webhookUrl(w.webhookPath) }])) as Record<ScaledKey, Started>;
	const runs: ScaledRunFigures[] = [];

	ctx.log(`rate-limit ×${SCALED_TIME_FACTOR}: 1. one execution, ${int(items)} SMS...`);
	let executions = await startTogether(ctx, [wf.one]);
	runs.push(smsRun(`${int(items)} SMS, one execution`, 'alone', await ctx.sandbox.requests(), executions, await smsOnce(ctx.sandbox, numbersOf(FIRST_NUMBER.one, items)), items));

	ctx.log(`rate-limit ×${SCALED_TIME_FACTOR}: 2. two executions of ${int(items)} SMS at once...`);
	executions = await startTogether(ctx, [wf.twoA, wf.twoB]);
	const both = [...numbersOf(FIRST_NUMBER.twoA, items), ...numbersOf(FIRST_NUMBER.twoB, items)];
	runs.push(smsRun(`${int(items)} SMS each, two executions at once`, 'shared', await ctx.sandbox.requests(), executions, await smsOnce(ctx.sandbox, both), 2 * items));

	ctx.log(`rate-limit ×${SCALED_TIME_FACTOR}: 3. a campaign create burst of ${CAMPAIGNS}...`);
	executions = await startTogether(ctx, [wf.campaigns]);
	{
		const log = await ctx.sandbox.requests({ method: 'POST', pathIncludes: '/campaigns' });
		const figures = windowFigures(log, CAMPAIGNS, DOCUMENTED_LIMITS.campaign, WINDOW_MS);
		const names = log.filter((r) => !r.rateLimited).map((r) => String((r.json as { name?: string })?.name));
		const distinct = new Set(names).size;
		const output = nodeOutput(executions[0], 'Exotel');
		runs.push({
			label: `campaign create burst of ${CAMPAIGNS}`,
			kind: 'alone',
			expected: CAMPAIGNS,
			perWindow: DOCUMENTED_LIMITS.campaign,
			...figures,
			executions: executions.map((e) => e.status).join(', '),
			units: 'campaigns',
			wanted: CAMPAIGNS,
			got: names.length,
			lost: CAMPAIGNS - distinct,
			twice: names.length - distinct,
			failedItems: output.filter((o) => o.json.error !== undefined).length + (CAMPAIGNS - output.length),
			retryAfterBroken: retryAfterBroken(log, (r) => String((r.json as { name?: string })?.name), RETRY_AFTER_MS).length,
			met: metFor('alone', figures, CAMPAIGNS),
		});
	}

	const pages = LIST_READERS * BIG_LIST.pages;
	ctx.log(`rate-limit ×${SCALED_TIME_FACTOR}: 4. Return All over ${pages} pages...`);
	executions = await startTogether(ctx, [wf.pages]);
	{
		const log = await ctx.sandbox.requests({ method: 'GET', pathIncludes: `/lists/${BIG_LIST.sid}/contacts` });
		const figures = windowFigures(log, pages, GENERAL_GET_PER_WINDOW, WINDOW_MS);
		const output = nodeOutput(executions[0], 'Exotel');
		let distinct = 0;
		for (let item = 0; item < LIST_READERS; item++) distinct += new Set(output.filter((o) => o.pairedItem?.item === item).map((o) => o.json.sid)).size;
		runs.push({
			label: `Return All over ${pages} pages (General GET ${GENERAL_GET_PER_WINDOW} a window)`,
			kind: 'alone',
			expected: pages,
			perWindow: GENERAL_GET_PER_WINDOW,
			...figures,
			executions: executions.map((e) => e.status).join(', '),
			units: 'contacts read',
			wanted: LIST_READERS * BIG_LIST.size,
			got: output.length,
			lost: LIST_READERS * BIG_LIST.size - distinct,
			twice: output.length - distinct,
			failedItems: output.filter((o) => o.json.error !== undefined).length,
			// the pages of all readers share their offsets: no key names one reader's page
			retryAfterBroken: 0,
			met: metFor('alone', figures, pages),
		});
	}
	runs.push(...(await runQuiet(ctx, wf, items)));
	return runs;
}

/** Runs 6-8: one, two and four executions at once without the counters. */
async function runQuiet(ctx: RunContext, wf: Record<ScaledKey, Started>, items: number): Promise<ScaledRunFigures[]> {
	const cases: Array<[string, Kind, string]> = [
		['6', 'quietAlone', `${int(items)} SMS, one execution, no counters`],
		['7', 'quietShared', `${int(items)} SMS each, two executions at once, no counters`],
		['8', 'quietFour', `${int(items)} SMS each, four executions at once, no counters`],
	];
	const runs: ScaledRunFigures[] = [];
	for (const [i, [run, kind, label]] of cases.entries()) {
		const { keys, first } = QUIET_RUNS[i];
		ctx.log(`rate-limit ×${SCALED_TIME_FACTOR}: ${run}. ${label}...`);
		const executions = await startTogether(ctx, keys.map((key) => wf[key]), false);
		const wanted = first.flatMap((number) => numbersOf(number, items));
		runs.push(smsRun(label, kind, await ctx.sandbox.requests(), executions, await smsOnce(ctx.sandbox, wanted), keys.length * items));
	}
	return runs;
}

/** Execution ids a worker's log says it started ("Worker started execution 12 (job 3)"). */
const startedBy = (worker: N8nProcess) => [...worker.log(1_000_000).matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);

/** Runs 5 and 9: a queue-mode n8n of its own, with a sandbox child of its own; everything stopped after it. */
export async function runScaledQueueMode(options: { items: number; latencyMs: number; log: (line: string) => void }): Promise<ScaledRunFigures[]> {
	const { items, log } = options;
	const credential = { id: 'benchScaledExotelApi', name: 'Exotel Sandbox (documented limits, ×6)' };
	const workerA = bulkSmsWorkflow('Rate-limit bench ×6: queue worker A', 'bench-scaled-queue-a', FIRST_NUMBER.queueA, credential, items);
	const workerB = bulkSmsWorkflow('Rate-limit bench ×6: queue worker B', 'bench-scaled-queue-b', FIRST_NUMBER.queueB, credential, items);
	const quietA = bulkSmsWorkflow('Rate-limit bench ×6: queue worker A, no counters', 'bench-scaled-queue-quiet-a', FIRST_NUMBER.queueA, QUIET_CREDENTIAL, items);
	const quietB = bulkSmsWorkflow('Rate-limit bench ×6: queue worker B, no counters', 'bench-scaled-queue-quiet-b', FIRST_NUMBER.queueB, QUIET_CREDENTIAL, items);
	let redis: LoopbackService | undefined;
	let postgres: (LoopbackService & { user: string; database: string }) | undefined;
	let sandbox: SandboxProcess | undefined;
	let instance: N8nInstance | undefined;
	let tarball: string | undefined;
	try {
		log(`rate-limit ×${SCALED_TIME_FACTOR}: 5 and 9. queue mode: Redis, PostgreSQL, the sandbox, npm pack and a fresh n8n...`);
		[redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
		sandbox = await SandboxProcess.start({ latencyMs: options.latencyMs, documentedLimits: { timeFactor: SCALED_TIME_FACTOR, limits: { generalGet: GENERAL_GET_PER_WINDOW } } });
		tarball = await packPackage();
		const processorPort = await freePort();
		instance = await N8nInstance.create({
			tarball,
			env: queueModeEnv(redis, postgres),
			webhookUrl: `http://127.0.0.1:${processorPort}/`,
		});
		// main first: it runs the database migrations; the credential and workflows then go in through its API
		await instance.start();
		const data = sandboxCredentialData(sandbox.origin).exotelApi;
		await instance.importCredentials([
			{ ...credential, type: 'exotelApi', data: { ...data } },
			{ ...QUIET_CREDENTIAL, type: 'exotelApi', data: { ...data, ...QUIET_CREDENTIAL_DATA } },
		]);
		await instance.importWorkflows([workerA, workerB, quietA, quietB]);
		for (const w of [workerA, workerB, quietA, quietB]) await instance.publish(w.id);
		const workers = [await instance.startWorker({ concurrency: 1 }), await instance.startWorker({ concurrency: 1 })];
		const processor = await instance.startWebhookProcessor({ port: processorPort });
		await instance.setupOwnerAndApiKey();

		const both = [...numbersOf(FIRST_NUMBER.queueA, items), ...numbersOf(FIRST_NUMBER.queueB, items)];
		const runs: ScaledRunFigures[] = [];
		for (const [run, workflows, paths, counters, label] of [
			['5', [workerA, workerB], ['bench-scaled-queue-a', 'bench-scaled-queue-b'], true, `${int(items)} SMS each, two queue-mode workers at once`],
			['9', [quietA, quietB], ['bench-scaled-queue-quiet-a', 'bench-scaled-queue-quiet-b'], false, `${int(items)} SMS each, two queue-mode workers at once, no counters`],
		] as const) {
			log(`rate-limit ×${SCALED_TIME_FACTOR}: ${run}. ${label}...`);
			const started = workflows.map((w, i) => ({ workflowId: w.id, webhookUrl: `${processor.baseUrl}/webhook/${paths[i]}` }));
			const executions = await startTogether({ instance, sandbox, log }, started, counters);
			const ids = executions.map((e) => String(e.id));
			const perWorker = workers.map((worker) => startedBy(worker).filter((id) => ids.includes(id)).length);
			runs.push(
				smsRun(label, counters ? 'shared' : 'quietShared', await sandbox.requests(), executions, await smsOnce(sandbox, both), 2 * items, ` (executions per worker: ${perWorker.join(' / ')})`),
			);
		}
		return runs;
	} finally {
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
		await sandbox?.stop();
		await Promise.all([redis?.stop(), postgres?.stop()]);
	}
}

/** Why a scaled run (at time ×`timeFactor`) is broken (something lost, sent twice or failed), or undefined. */
export function brokenScaledRun(f: ScaledRunFigures, timeFactor = SCALED_TIME_FACTOR): string | undefined {
	const problems: string[] = [];
	if (f.lost) problems.push(`${int(f.lost)} ${f.units} lost`);
	if (f.twice) problems.push(`${int(f.twice)} ${f.units} twice`);
	if (f.failedItems) problems.push(`${int(f.failedItems)} output items failed or missing`);
	if (f.retryAfterBroken) problems.push(`${f.retryAfterBroken} refused requests sent again before their Retry-After`);
	if (f.executions.split(' (')[0].split(', ').some((status) => status !== 'success')) problems.push(`executions ${f.executions}`);
	return problems.length ? `${f.label} (×${timeFactor}): ${problems.join('; ')}` : undefined;
}

export function formatScaledReport(r: ScaledReport): string {
	const t = SCALED_TARGETS;
	const s = (ms: number) => n(ms / 1000, 1);
	const out: string[] = [];
	out.push('');
	if (r.skipped) {
		out.push(`=== The system stage's rate-limit runs, measured: not run (${r.skipped}) ===`);
		return out.join('\n');
	}
	out.push(
		`=== The system stage's rate-limit runs, measured: the documented limits, with the counters and without, time ×${r.timeFactor} ` +
			`(windows of ${r.windowMs / 1000} s, Retry-After ${r.retryAfterMs / 1000} s), ${int(r.items)} SMS a run ===`,
	);
	const row = (label: string, cell: (f: ScaledRunFigures) => string) => [label, ...r.runs.map(cell)];
	out.push(
		table([
			['', ...r.runs.map((_, i) => `run ${i + 1}`)],
			row('requests accepted / needed', (f) => `${int(f.accepted)} / ${int(f.expected)}`),
			row('limit a window', (f) => int(f.perWindow)),
			row('429s', (f) => int(f.limited)),
			row('first → last accepted (s, wall)', (f) => s(f.wallMs)),
			row("the windows' floor (s)", (f) => (spansWindows(f) ? s(f.floorMs) : 'n/a (one window)')),
			row('ratio (first → last ÷ floor)', (f) => (spansWindows(f) ? `${n(f.ratio, 3)}×` : 'n/a')),
			row('requests left unused between', (f) => int(f.unusedBetween)),
			row('got / lost / twice', (f) => `${int(f.got)} / ${int(f.lost)} / ${int(f.twice)}`),
			row('output items failed or missing', (f) => int(f.failedItems)),
			row('refused, sent again too soon', (f) => int(f.retryAfterBroken)),
			row('target', (f) => (f.met ? 'met' : 'MISSED')),
		]),
	);
	r.runs.forEach((f, i) =>
		out.push(`run ${i + 1}: ${f.label} (${f.units}); executions ${f.executions}; accepted per window by run: ${f.windows}`),
	);
	if (r.queueModeSkipped) out.push(`queue mode not run: ${r.queueModeSkipped}`);
	out.push(
		`targets: alone ${t.alone.max429} × 429 and ≤ ${t.alone.maxRatio}× the floor; shared (two runs) ≤ ${t.shared.max429} × 429 and ≤ ${t.shared.maxRatio}× ` +
			`with no request left unused between the first window and the last, or ${t.shared.orUnusedBetween} left unused and within one window of the floor; ` +
			`without counters: alone ≤ ${t.quietAlone.max429AfterFirstWindow} × 429 after the first window and ≤ ${t.quietAlone.maxRatio}×, ` +
			`two ≤ ${t.quietShared.max429} × 429 and ≤ ${t.quietShared.maxRatio}×, four ≤ ${t.quietFour.maxRatio}×; ` +
			'reported, not failed. Wall time runs from the first accepted request to the last; the floor from the first accepted request to the start ' +
			'of the window the last request can fall in',
	);
	return out.join('\n');
}
