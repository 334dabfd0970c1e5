/**
 * Rate-limit bench: N personalised SMS (default 20,000) in ONE execution of a real n8n 2.8.4
 * (`n8n start`, SQLite, regular mode, the packed package installed as users install community
 * nodes; test/harness) against the sandbox in a child process in its documented rate-limit mode at
 * the service's REAL one-minute windows (time factor F = 1): Bulk SMS (`Sms/bulksend`) 50 requests a
 * minute per account, counted in fixed windows on the clock's minutes, 429 + Retry-After 30 past it.
 * `--rate-limit-time-factor F` runs this first part at time ×F (windows of 60 / F s, Retry-After
 * ceil(30 / F) s; every window figure in them); the runs without counters then use a second Exotel
 * credential whose Custom Rate Limits say `Bulk SMS=50/<60 / F>s` (nothing else tells the pacer the
 * window), and each run whose requests need more than one window starts early in one (earlyInWindow),
 * so that it waits for the next (at F = 1 the runs start when they come, as always).
 *
 *   Exotel node: Webhook → Generate (Code, N items {phone, name}) → Exotel Messaging SMS → Send
 *     (`to = {{ $json.phone }}`, `body = Hello {{ $json.name }}, your order has shipped`, On Error:
 *     Continue), credential with the documented limits (no Custom Rate Limits). Personalised bodies
 *     go through dynamic bulk, 100 messages a request: N / 100 requests at 50 a window.
 *     1. with counters: every answer carries X-RateLimit-Limit / -Remaining / -Reset;
 *     2. without counters (`{mode: 'documented', headers: false}` through the control API: the
 *        spec promises no headers), so the node paces itself on the clock's minutes;
 *     2b. two executions of N at once without counters: they share the account through its
 *        refusals alone (target ≤ 6 × 429 in all, ≤ 1.25 × the floor of the 2 N / 100 requests).
 *   3. What a user would build instead: Webhook → Generate → Build bulk bodies (Code, one dynamic-bulk
 *      body of 100 messages per output item, as in sms-real-n8n) → HTTP Request (POST Sms/bulksend,
 *      its default settings: no batching, no retry, stop on error), with counters on. A 429'd
 *      request's 100 messages are not sent.
 *
 * Before each run the sandbox's limiter is set again (a new empty window: an account nobody else
 * uses) and its log and messages cleared. Figures come from the sandbox's request log (times,
 * statuses), its messages and the saved execution (`GET /api/v1/executions/<id>?includeData=true`):
 *
 *   - 429s in all, and 429s after the first window (record times against the fixed windows of W =
 *     60000 / F ms, the first being the window of the run's first request);
 *   - first-to-last accepted (wall) against the windows' floor: from the first accepted request to
 *     the start of the window in which the last request can fall,
 *     `floor(first / W) * W + (ceil(R / 50) - 1) * W - first` for R bulk requests
 *     (R = 200: three windows on), and their ratio; the longest pause between two requests (a
 *     paced wait);
 *   - every message sent once: the sandbox's messages are N distinct numbers with their bodies, the
 *     execution's output N items, none with an error.
 *
 * Targets (reported, never failed): with counters 0 × 429 and ≤ 1.05 × the floor; without counters
 * ≤ 1 × 429 after the first window and ≤ 1.10 × the floor. Exit 1 (BenchFailure) only when the Exotel
 * node lost or duplicated a message; the table is printed first.
 *
 * Then the scaled part (rate-limit-scaled.ts; `--skip-scaled` leaves it out, since the system stage
 * runs the same runs as tests, and its queue-mode run with it): the system stage's rate-limit runs at time ×6,
 * measured against the windows' floor, since those tests check only what is exact: on this n8n one
 * execution of N SMS, two at once, a campaign create burst of 100 and Return All over 60 pages, with
 * the counters; one, two and four executions of N SMS without them; then two queue-mode workers of
 * N SMS each, with and without the counters, on a queue-mode n8n of its own (Redis and PostgreSQL
 * from Debian's packages; `--skip-queue-mode` leaves it out). The Exotel credential's Custom Rate
 * Limits say `General GET=90` for the listing run; no SMS run makes a GET.
 */
import { DOCUMENTED_LIMITS, DOCUMENTED_WINDOW_MS } from '../../sandbox/rate-limit';
import type { DocumentedRateLimitConfig, RecordedRequest } from '../../sandbox/types';
import { earlyInWindow } from '../system/bulk-sms';
import { int, loadAverage, machine, MESSAGES_PER_REQUEST, n, round, table } from './common';
import { SandboxProcess } from './sandbox-process';
import {
	brokenScaledRun,
	formatScaledReport,
	minuteWorkflows,
	QUIET_CREDENTIAL,
	QUIET_CREDENTIAL_DATA,
	quietCredentialData,
	runScaledQueueMode,
	runScaledRegular,
	runTwoAtTheMinute,
	type ScaledRunFigures,
	SCALED_CREDENTIAL_DATA,
	SCALED_TIME_FACTOR,
	scaledTiming,
	scaledWorkflows,
	type ScaledReport,
} from './rate-limit-scaled';
import { countBy, execute, nodeItems, type Ctx } from './sms-real-n8n.bench';
import {
	BUILD_BULK,
	buildBulkJs,
	bulkHttpNode,
	codeNode,
	EXOTEL,
	exotelSmsNode,
	GENERATE,
	generateJs,
	HTTP_BULK,
	MAX_GENERATED_ITEMS,
	webhookWorkflowMaker,
	withRealN8n,
	type KeyedWorkflow,
	type NamedCredential,
} from './sms-workflows';

export const DEFAULT_RATE_LIMIT_ITEMS = 20_000;
/** The generator's bound (sms-workflows). */
export const MAX_RATE_LIMIT_ITEMS = MAX_GENERATED_ITEMS;
/** The service's own minute. */
export const DEFAULT_RATE_LIMIT_TIME_FACTOR = 1;

/** Why `timeFactor` cannot be the sandbox's (a whole number ≥ 1 that makes the minute whole seconds), or undefined. */
export function badTimeFactor(timeFactor: number): string | undefined {
	return Number.isInteger(timeFactor) && timeFactor >= 1 && Number.isInteger(DOCUMENTED_WINDOW_MS / 1000 / timeFactor)
		? undefined
		: `the rate-limit time factor must be a whole number >= 1 that divides 60 (windows of whole seconds: 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60; got ${timeFactor})`;
}

export const RATE_LIMIT_TARGETS = {
	/** with counters: no 429 at all, and first-to-last accepted at most this × the windows' floor */
	withCounters: { max429: 0, maxRatio: 1.05 },
	/** without counters: at most this many 429s after the first window, and this × the floor */
	withoutCounters: { max429AfterFirstWindow: 1, maxRatio: 1.1 },
};

const EXOTEL_CREDENTIAL = { id: 'benchRateExotelApi', name: 'Exotel Sandbox (documented limits)' };
/** At a time factor, the runs without counters' credential: its Custom Rate Limits say the scaled window. */
const quietCredential = (timeFactor: number) => ({ id: 'benchRateQuietApi', name: `Exotel Sandbox (documented limits, ×${timeFactor}, no counters)` });
const BASIC_CREDENTIAL = { id: 'benchRateHttpBasic', name: 'Exotel Sandbox (HTTP Basic)' };

export interface RateLimitBenchOptions {
	items: number;
	latencyMs: number;
	/** runs 1, 2, 2b and 3 at time ×timeFactor (1: the service's minute) */
	timeFactor: number;
	/** at a time factor, the runs without counters keep the credential as a user has it (no Custom Rate Limits) */
	userCredential?: boolean;
	skipHandBuilt: boolean;
	/** the scaled part without its queue-mode run (which needs redis-server and postgresql) */
	skipQueueMode: boolean;
	/** no scaled part at all (the system stage runs the same runs as tests) */
	skipScaled: boolean;
	log: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// The workflows
// ---------------------------------------------------------------------------------------------

const phoneOf = (i: number) => `+9198765${String(i).padStart(5, '0')}`;
const bodyOf = (i: number) => `Hello Customer ${i}, your order has shipped`;

/** The item generator: {phone, name} per item. */
const GENERATE_JS = generateJs({ orderId: false });

/** As an expert builds it (sms-real-n8n): one urlencoded dynamic-bulk body per 100 items. */
const BUILD_BULK_JS = buildBulkJs('phone, name', "'Hello ' + name + ', your order has shipped'");

type RateWorkflow = KeyedWorkflow<'exotel' | 'exotelQuiet' | 'handBuilt'>;

/** The runs' workflows; `exotelQuiet` (the runs without counters) is `exotel` unless a credential of its own is given. */
function rateWorkflows(origin: string, quiet?: NamedCredential): Record<RateWorkflow['key'], RateWorkflow> {
	const exotelNode = (credential: NamedCredential) =>
		exotelSmsNode(credential, '=Hello {{ $json.name }}, your order has shipped', { onError: 'continueRegularOutput' });
	const make = webhookWorkflowMaker<RateWorkflow['key']>('bench-rate-limit', 'Rate-limit bench');
	const exotel = make('exotel', 'Exotel node', [codeNode(GENERATE, GENERATE_JS), exotelNode(EXOTEL_CREDENTIAL)]);
	return {
		exotel,
		exotelQuiet: quiet ? make('exotelQuiet', 'Exotel node, no counters', [codeNode(GENERATE, GENERATE_JS), exotelNode(quiet)]) : exotel,
		handBuilt: make('handBuilt', 'hand-built bulk', [codeNode(GENERATE, GENERATE_JS), codeNode(BUILD_BULK, BUILD_BULK_JS), bulkHttpNode(origin, BASIC_CREDENTIAL)]),
	};
}

// ---------------------------------------------------------------------------------------------
// One run
// ---------------------------------------------------------------------------------------------

/** Bulk requests the Exotel node makes for N personalised messages (a message alone in its request goes to Sms/send). */
export const bulkRequestsFor = (items: number) => Math.floor(items / MESSAGES_PER_REQUEST) + (items % MESSAGES_PER_REQUEST > 1 ? 1 : 0);

/** "2 windows of 10 s": the windows `requests` need at `perWindow` a window. */
function windowsOf(requests: number, perWindow: number, windowMs: number): string {
	const k = Math.ceil(requests / perWindow);
	return `${k} window${k === 1 ? '' : 's'} of ${windowMs / 1000} s`;
}

/** From the first accepted request to the start of the window in which the last of `requests` can fall, at `perWindow` a window of `windowMs`. */
export function windowsFloorMs(firstAccepted: number, requests: number, perWindow: number, windowMs = DOCUMENTED_WINDOW_MS): number {
	const windows = Math.ceil(requests / perWindow);
	return Math.floor(firstAccepted / windowMs) * windowMs + (windows - 1) * windowMs - firstAccepted;
}

export interface RateRunFigures {
	label: string;
	/** X-RateLimit-* headers on the sandbox's answers */
	counters: boolean;
	items: number;
	executionId: string;
	executionStatus: string;
	/** the run's error message, when the execution failed */
	executionError?: string;
	webhookStatus: number;
	webhookWallMs: number;
	/** stoppedAt - startedAt of the execution */
	executionMs: number;
	requests: number;
	requestPaths: Record<string, number>;
	statuses: Record<string, number>;
	accepted: number;
	http429: number;
	/** 429s in a later window than the run's first request's */
	http429AfterFirstWindow: number;
	/** accepted requests in each window the run touched, the first window first */
	acceptedPerWindow: number[];
	/** the longest time between two of the run's requests (sandbox log times): a paced wait for a window shows here */
	longestPauseMs: number | null;
	firstAcceptedAt: number | null;
	/** first to last accepted request (sandbox log times) */
	firstToLastAcceptedMs: number | null;
	/** windowsFloorMs for the requests the messages need at the Bulk SMS limit; null when they fit one window */
	floorMs: number | null;
	/** firstToLastAcceptedMs ÷ floorMs; null unless every request the messages need was accepted */
	ratio: number | null;
	/** the sandbox's messages */
	messages: number;
	distinctNumbers: number;
	/** messages whose number or body is not one of the items' */
	wrongMessages: number;
	/** items whose number got no message */
	lost: number;
	/** messages beyond the first to a number */
	duplicated: number;
	/** output items of the sending node, and how many carry an error */
	outputItems: number;
	outputErrors: number;
	/** the first output error, for the report */
	firstOutputError?: string;
}

interface RateCtx extends Ctx {
	bulkLimit: number;
	/** the sandbox's time factor, and its window */
	timeFactor: number;
	windowMs: number;
}

async function rateRun(ctx: RateCtx, wf: RateWorkflow, label: string, count: number, counters: boolean, sendingNode: string): Promise<RateRunFigures> {
	const bulkRequests = bulkRequestsFor(count);
	// A new empty window and a clean log: the account as nobody has used it this window.
	const limiter: DocumentedRateLimitConfig = { mode: 'documented', timeFactor: ctx.timeFactor, ...(counters ? {} : { headers: false }) };
	await ctx.sandbox.setRateLimit(limiter);
	await ctx.sandbox.reset();
	await ctx.sandbox.setLatency(ctx.latencyMs);
	// at a time factor a run of few windows starts early in one, so that it fills it and waits for the next
	if (ctx.timeFactor > 1 && bulkRequests > ctx.bulkLimit) await earlyInWindow(ctx.windowMs);
	const run = await execute(ctx, wf, count, () => {}, { allowError: true });
	const log: RecordedRequest[] = (await ctx.sandbox.requests()).filter((r) => r.path.includes('/Sms/')).sort((a, b) => a.time - b.time || a.id - b.id);
	const acceptedLog = log.filter((r) => r.status === 200);
	const refused = log.filter((r) => r.status === 429 || r.rateLimited);
	const windowOf = (time: number) => Math.floor(time / ctx.windowMs);
	const firstWindow = log.length ? windowOf(log[0].time) : 0;
	const lastWindow = log.length ? windowOf(log[log.length - 1].time) : -1;
	const acceptedPerWindow = Array.from({ length: lastWindow - firstWindow + 1 }, (_, k) => acceptedLog.filter((r) => windowOf(r.time) === firstWindow + k).length);
	const firstAcceptedAt = acceptedLog.length ? acceptedLog[0].time : null;
	const firstToLast = firstAcceptedAt === null ? null : acceptedLog[acceptedLog.length - 1].time - firstAcceptedAt;
	const floorMs = firstAcceptedAt === null || bulkRequests <= ctx.bulkLimit ? null : windowsFloorMs(firstAcceptedAt, bulkRequests, ctx.bulkLimit, ctx.windowMs);

	const messages = await ctx.sandbox.smsMessages();
	const got = new Uint32Array(count);
	let wrongMessages = 0;
	for (const m of messages) {
		const match = /^\+9198765(\d{5})$/.exec(m.to);
		const i = match ? Number(match[1]) : -1;
		if (i < 0 || i >= count || m.to !== phoneOf(i) || m.body !== bodyOf(i)) {
			wrongMessages++;
			continue;
		}
		got[i]++;
	}
	let lost = 0;
	let duplicated = 0;
	for (const k of got) {
		if (k === 0) lost++;
		else duplicated += k - 1;
	}

	const out = nodeItems(run.runData, sendingNode);
	const errors = out.filter((item) => item?.json?.error !== undefined);
	const runError = run.error as { message?: string; description?: string } | undefined;
	return {
		label,
		counters,
		items: count,
		executionId: run.id,
		executionStatus: run.status,
		executionError: runError ? `${runError.message ?? ''} ${runError.description ?? ''}`.trim().slice(0, 300) : undefined,
		webhookStatus: run.webhookStatus,
		webhookWallMs: round(run.webhookWallMs, 1),
		executionMs: run.executionMs,
		requests: log.length,
		requestPaths: countBy(log, (r) => `${r.method} ${r.path}`),
		statuses: countBy(log, (r) => String(r.status)),
		accepted: acceptedLog.length,
		http429: refused.length,
		http429AfterFirstWindow: refused.filter((r) => windowOf(r.time) > firstWindow).length,
		acceptedPerWindow,
		longestPauseMs: log.length > 1 ? Math.max(...log.slice(1).map((r, i) => r.time - log[i].time)) : null,
		firstAcceptedAt,
		firstToLastAcceptedMs: firstToLast,
		floorMs,
		ratio: firstToLast === null || floorMs === null || floorMs <= 0 || acceptedLog.length < bulkRequests ? null : round(firstToLast / floorMs, 3),
		messages: messages.length,
		distinctNumbers: got.reduce((sum, k) => sum + (k > 0 ? 1 : 0), 0),
		wrongMessages,
		lost,
		duplicated,
		outputItems: out.length,
		outputErrors: errors.length,
		firstOutputError: errors.length ? JSON.stringify(errors[0].json.error).slice(0, 300) : undefined,
	};
}

/** Why an Exotel run is broken (a message lost, duplicated or wrong; an output missing or failed), or undefined. */
export function brokenExotelRun(f: RateRunFigures): string | undefined {
	const problems: string[] = [];
	if (f.lost) problems.push(`${int(f.lost)} items got no message`);
	if (f.duplicated) problems.push(`${int(f.duplicated)} messages sent twice`);
	if (f.wrongMessages) problems.push(`${int(f.wrongMessages)} messages not one of the items'`);
	if (f.outputItems !== f.items) problems.push(`${int(f.outputItems)} output items for ${int(f.items)}`);
	if (f.outputErrors) problems.push(`${int(f.outputErrors)} output items with an error (first: ${f.firstOutputError})`);
	if (f.executionStatus !== 'success') problems.push(`the execution ended ${f.executionStatus}: ${f.executionError ?? ''}`);
	return problems.length ? `${f.label}: ${problems.join('; ')}` : undefined;
}

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

export interface RateLimitReport {
	bench: 'rate-limit';
	config: {
		items: number;
		bulkRequests: number;
		/** Bulk SMS requests a window */
		bulkSmsPerWindow: number;
		/** the first part's time factor, window and Retry-After */
		timeFactor: number;
		windowMs: number;
		retryAfterMs: number;
		latencyMs: number;
		n8nVersion: string;
		n8nSettings: string;
		node: string;
		cpus: number;
		cpuModel: string;
		loadAverageStart: number[];
		loadAverageEnd: number[];
		sandbox: string;
	};
	targets: typeof RATE_LIMIT_TARGETS;
	withCounters: RateRunFigures;
	withoutCounters: RateRunFigures;
	handBuilt: RateRunFigures | null;
	/** two executions at once without the counters, at the first part's windows */
	twoWithoutCounters: ScaledRunFigures;
	/** the system stage's runs at time ×6, measured (none, with `skipped`, under --skip-scaled) */
	scaled: ScaledReport;
	met: { withCounters: boolean; withoutCounters: boolean };
	/** why the bench is broken (an Exotel run lost or duplicated a message); empty when not */
	broken: string[];
	setupMs: number;
	totalBenchMs: number;
}

export async function runRateLimitBench(options: RateLimitBenchOptions): Promise<RateLimitReport> {
	const started = Date.now();
	const { log } = options;
	const N = options.items;
	const F = options.timeFactor;
	if (N > MAX_RATE_LIMIT_ITEMS) throw new Error(`rate-limit: at most ${MAX_RATE_LIMIT_ITEMS} items (the generated numbers are +9198765 and 5 digits)`);
	const badFactor = badTimeFactor(F);
	if (badFactor) throw new Error(`rate-limit: ${badFactor}`);
	const bulkLimit = DOCUMENTED_LIMITS.bulkSms;
	const { windowMs, retryAfterMs } = scaledTiming(F);
	const loadAverageStart = loadAverage();

	log(`rate-limit: starting the sandbox in a child process (latency ${options.latencyMs} ms, the documented limits at time ×${F}: windows of ${windowMs / 1000} s)...`);
	const sandbox = await SandboxProcess.start({ latencyMs: options.latencyMs, documentedLimits: { timeFactor: F } });
	// at the service's minute the runs without counters keep the credential as a user has it; at a time factor one that says the window, unless asked not to
	const quiet = F === 1 || options.userCredential ? undefined : { credential: quietCredential(F), data: quietCredentialData(F) };
	const wf = rateWorkflows(sandbox.origin, quiet?.credential);
	const minuteWf = minuteWorkflows(quiet?.credential ?? EXOTEL_CREDENTIAL, N);
	const scaledWf = options.skipScaled ? [] : scaledWorkflows(EXOTEL_CREDENTIAL, N);
	const setup = {
		bench: 'rate-limit',
		sandbox,
		log,
		exotelCredential: EXOTEL_CREDENTIAL,
		exotelData: SCALED_CREDENTIAL_DATA,
		moreExotelCredentials: [...(quiet ? [quiet] : []), ...(options.skipScaled ? [] : [{ credential: QUIET_CREDENTIAL, data: QUIET_CREDENTIAL_DATA }])],
		basicCredential: BASIC_CREDENTIAL,
		workflows: [...new Set([wf.exotel, wf.exotelQuiet, wf.handBuilt]), ...minuteWf, ...scaledWf],
	};
	const report = await withRealN8n<RateLimitReport>(setup, async (instance, apiKey) => {
		const ctx: RateCtx = { instance, apiKey, sandbox, latencyMs: options.latencyMs, log, bulkLimit, timeFactor: F, windowMs };
		const setupMs = Date.now() - started;

		log(`rate-limit: 1. Exotel node, ${int(N)} items, with counters (about ${windowsOf(bulkRequestsFor(N), bulkLimit, windowMs)})...`);
		const withCounters = await rateRun(ctx, wf.exotel, 'Exotel node, with counters', N, true, EXOTEL);
		log(`rate-limit: 2. Exotel node, ${int(N)} items, without counters (no X-RateLimit-* headers)...`);
		const withoutCounters = await rateRun(ctx, wf.exotelQuiet, 'Exotel node, without counters', N, false, EXOTEL);
		log(`rate-limit: 2b. two executions of ${int(N)} items at once, without counters...`);
		const twoWithoutCounters = await runTwoAtTheMinute({ instance, sandbox, log }, minuteWf, N, F);
		let handBuilt: RateRunFigures | null = null;
		if (!options.skipHandBuilt) {
			log(`rate-limit: 3. hand-built bulk (Code + HTTP Request, default settings), ${int(N)} items, with counters...`);
			handBuilt = await rateRun(ctx, wf.handBuilt, 'hand-built bulk (Code + HTTP Request)', N, true, HTTP_BULK);
		}
		const scaledRuns = options.skipScaled ? [] : await runScaledRegular({ instance, sandbox, log }, scaledWf, N);

		const t = RATE_LIMIT_TARGETS;
		const broken = [withCounters, withoutCounters].map(brokenExotelRun).filter((b): b is string => b !== undefined);
		return {
			bench: 'rate-limit',
			config: {
				items: N,
				bulkRequests: bulkRequestsFor(N),
				bulkSmsPerWindow: bulkLimit,
				timeFactor: F,
				windowMs,
				retryAfterMs,
				latencyMs: options.latencyMs,
				n8nVersion: instance.n8n.version,
				n8nSettings:
					'n8n start, regular execution mode, SQLite, Code nodes in the default (internal) task runner; ' +
					'workflows started by their Webhook trigger over loopback (responseMode lastNode), one after the other',
				...machine(),
				loadAverageStart,
				loadAverageEnd: loadAverage(),
				sandbox:
					`child process pid ${sandbox.pid} at ${sandbox.origin}, latency ${options.latencyMs} ms; the documented limits at time ×${F} ` +
					`(Bulk SMS ${bulkLimit} a window, fixed windows of ${windowMs / 1000} s on the clock, 429 + Retry-After ${retryAfterMs / 1000} s past them), set again before each run` +
					(quiet ? `; the runs without counters' credential says ${quiet.data.rateLimits} (Custom Rate Limits)` : ''),
			},
			targets: t,
			withCounters,
			withoutCounters,
			handBuilt,
			twoWithoutCounters,
			scaled: {
				...(options.skipScaled ? { skipped: '--skip-scaled: the system stage runs the same runs as tests' } : {}),
				timeFactor: SCALED_TIME_FACTOR,
				...scaledTiming(SCALED_TIME_FACTOR),
				items: N,
				runs: scaledRuns,
				broken: [],
			},
			met: {
				withCounters: withCounters.http429 <= t.withCounters.max429 && withCounters.ratio !== null && withCounters.ratio <= t.withCounters.maxRatio,
				withoutCounters:
					withoutCounters.http429AfterFirstWindow <= t.withoutCounters.max429AfterFirstWindow &&
					withoutCounters.ratio !== null &&
					withoutCounters.ratio <= t.withoutCounters.maxRatio,
			},
			broken,
			setupMs,
			totalBenchMs: Date.now() - started,
		};
	});
	const { scaled } = report;
	if (options.skipScaled) {
		scaled.queueModeSkipped = '--skip-scaled';
	} else if (options.skipQueueMode) {
		scaled.queueModeSkipped = '--skip-queue-mode';
	} else {
		try {
			scaled.runs.push(...(await runScaledQueueMode({ items: N, latencyMs: options.latencyMs, log })));
		} catch (error) {
			scaled.queueModeSkipped = `it failed: ${(error as Error)?.message ?? String(error)}`.slice(0, 2000);
			scaled.broken.push(`queue mode: ${scaled.queueModeSkipped}`);
		}
	}
	scaled.broken.push(...scaled.runs.map((f) => brokenScaledRun(f)).filter((b): b is string => b !== undefined));
	report.broken.push(...[brokenScaledRun(report.twoWithoutCounters, F), ...scaled.broken].filter((b): b is string => b !== undefined));
	report.totalBenchMs = Date.now() - started;
	return report;
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

export function formatRateLimitReport(r: RateLimitReport): string {
	const c = r.config;
	const t = r.targets;
	const runs = [r.withCounters, r.withoutCounters, ...(r.handBuilt ? [r.handBuilt] : [])];
	const s = (ms: number | null) => (ms === null ? 'n/a' : n(ms / 1000, 1));
	const mark = (pass: boolean) => (pass ? 'met' : 'MISSED');
	const out: string[] = [];
	out.push('');
	const w = c.windowMs / 1000;
	out.push(
		`=== Rate limits on a real n8n: ${int(c.items)} personalised SMS in one execution, Bulk SMS ${c.bulkSmsPerWindow} a window of ${w} s ` +
			`(time ×${c.timeFactor}${c.timeFactor === 1 ? ": the service's minute" : ''}) ===`,
	);
	out.push(
		`${int(c.items)} items → ${int(c.bulkRequests)} dynamic-bulk requests to Sms/bulksend at ${c.bulkSmsPerWindow} a window ` +
			`(${windowsOf(c.bulkRequests, c.bulkSmsPerWindow, c.windowMs)} at the least, Retry-After ${c.retryAfterMs / 1000} s); sandbox latency ${c.latencyMs} ms; ` +
			`n8n ${c.n8nVersion}, node ${c.node}, ${c.cpus} CPU (${c.cpuModel})`,
	);
	out.push(`n8n: ${c.n8nSettings}`);
	out.push(`sandbox: ${c.sandbox}`);
	out.push(`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end`);
	out.push('');
	const row = (label: string, cell: (f: RateRunFigures) => string) => [label, ...runs.map(cell)];
	out.push(
		table([
			['', ...runs.map((f) => f.label)],
			row('requests (sandbox log)', (f) => int(f.requests)),
			row('accepted', (f) => int(f.accepted)),
			row('429s in all', (f) => int(f.http429)),
			row('429s after the first window', (f) => int(f.http429AfterFirstWindow)),
			row(`accepted per window of ${w} s`, (f) => f.acceptedPerWindow.join(' / ') || 'none'),
			row('longest pause between requests (s)', (f) => s(f.longestPauseMs)),
			row('first → last accepted (s, wall)', (f) => s(f.firstToLastAcceptedMs)),
			row("the windows' floor (s)", (f) => s(f.floorMs)),
			row('ratio (first → last ÷ floor)', (f) => (f.ratio !== null ? `${n(f.ratio, 3)}×` : f.accepted < c.bulkRequests ? 'n/a (not all accepted)' : 'n/a')),
			row('messages sent (sandbox) / distinct numbers', (f) => `${int(f.messages)} / ${int(f.distinctNumbers)}`),
			row('messages lost / sent twice', (f) => `${int(f.lost)} / ${int(f.duplicated)}`),
			row('output items / with an error', (f) => `${int(f.outputItems)} / ${int(f.outputErrors)}`),
			row('every message sent once', (f) => (f.lost === 0 && f.duplicated === 0 && f.wrongMessages === 0 && f.outputItems === f.items && f.outputErrors === 0 ? 'yes' : 'NO')),
			row('execution status', (f) => f.executionStatus),
			row('execution, startedAt → stoppedAt (s)', (f) => s(f.executionMs)),
			row('webhook call → answer (s) [status]', (f) => `${s(f.webhookWallMs)} [${f.webhookStatus}]`),
			row('target', (f) =>
				f === r.withCounters
					? `${t.withCounters.max429} × 429, ≤ ${t.withCounters.maxRatio}×: ${mark(r.met.withCounters)}`
					: f === r.withoutCounters
						? `≤ ${t.withoutCounters.max429AfterFirstWindow} × 429 after window 1, ≤ ${t.withoutCounters.maxRatio}×: ${mark(r.met.withoutCounters)}`
						: '(none: what a user would build)',
			),
		]),
	);
	for (const f of runs) {
		out.push(
			`"${f.label}": execution ${f.executionId}; requests ${Object.entries(f.requestPaths).map(([p, k]) => `${k} × ${p}`).join(', ') || 'none'}; ` +
				`statuses ${Object.entries(f.statuses).map(([st, k]) => `${k} × ${st}`).join(', ') || 'none'}` +
				(f.executionError ? `; the execution's error: ${f.executionError}` : ''),
		);
	}
	out.push(
		`the windows' floor: from the first accepted request to the start of the window in which the ${int(c.bulkRequests)}th request can fall ` +
			`(floor(first / ${c.windowMs}) × ${c.windowMs} + ${Math.ceil(c.bulkRequests / c.bulkSmsPerWindow) - 1} × ${c.windowMs} − first); targets are reported, not failed`,
	);
	if (r.handBuilt) {
		const h = r.handBuilt;
		out.push(
			`what a user would build instead (Code + HTTP Request, default settings, counters on): ${int(h.http429)} × 429 of ${int(h.requests)} requests, ` +
				`${int(h.lost)} of ${int(h.items)} messages lost (a 429'd request's ${MESSAGES_PER_REQUEST} messages are not sent), ` +
				`execution ${h.executionStatus} after ${s(h.executionMs)} s`,
		);
	}
	const two = r.twoWithoutCounters;
	out.push(
		`two executions at once without counters, ${c.timeFactor === 1 ? "at the service's minute" : `at time ×${c.timeFactor} (windows of ${w} s)`}: ${int(two.accepted)} / ${int(two.expected)} requests accepted, ${int(two.limited)} × 429, ` +
			`first → last accepted ${s(two.wallMs)} s ${two.floorMs > 0 ? `against a floor of ${s(two.floorMs)} s (${n(two.ratio, 3)}×` : '(one window, no floor'}; target ≤ 6 × 429, ≤ 1.25×: ${mark(two.met)}); ` +
			`messages got / lost / twice ${int(two.got)} / ${int(two.lost)} / ${int(two.twice)}; accepted per window by run: ${two.windows}`,
	);
	out.push(formatScaledReport(r.scaled));
	if (r.broken.length) out.push(`BROKEN: ${r.broken.join(' | ')}`);
	out.push(`set-up (pack, install, import, start) ${n(r.setupMs / 1000, 1)} s; bench time ${n(r.totalBenchMs / 1000, 1)} s`);
	return out.join('\n');
}
