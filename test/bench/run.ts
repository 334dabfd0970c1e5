/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- re-runs itself with --expose-gc and runs each bench (process, timers, __filename, globalThis, child_process); never shipped */
/**
 * Runs every bench in turn: `npm run bench` (= build, then `ts-node --transpile-only test/bench/run.ts`).
 *
 *   npm run bench -- [--items N] [--latency MS] [--baseline-latency MS] [--rcs-baseline-items N]
 *                    [--skip-baseline] [--skip-breakdown] [--callbacks N] [--concurrency C]
 *                    [--forged F] [--memory-items M] [--skip-memory] [--rate-limit-items N]
 *                    [--rate-limit-time-factor F] [--rate-limit-user-credential] [--skip-hand-built] [--skip-queue-mode] [--skip-scaled]
 *                    [--flood N] [--runs R] [--call-flow-calls N] [--call-flow-burst B] [--call-flow-rounds R]
 *                    [--only NAME]
 *
 *   --items N               items per run (env BENCH_ITEMS, default 10000)
 *   --latency MS            sandbox latency for the package node (env BENCH_LATENCY_MS, default 20)
 *   --baseline-latency MS   sandbox latency for the one-request-per-item baseline
 *                           (env BENCH_BASELINE_LATENCY_MS, default: --latency)
 *   --rcs-baseline-items N  items for the rcs-bulk one-request-per-item baseline, capped at --items
 *                           (env BENCH_RCS_BASELINE_ITEMS, default 2000); its wall time is
 *                           extrapolated to --items and labelled so in the report
 *   --skip-baseline         no baseline run (for profiling the package node)
 *   --skip-breakdown        no latency-0 CPU breakdown runs
 *   --callbacks N           callback-burst: signed chat-app callbacks in the burst
 *                           (env BENCH_CALLBACKS, default 1000)
 *   --concurrency C         callback-burst and status-flood: requests in flight at once (env
 *                           BENCH_CONCURRENCY, default 50)
 *   --forged F              callback-burst: forged (bad signature) callbacks mixed into the burst,
 *                           each must get 401 (env BENCH_FORGED, default 20)
 *   --memory-items M        sms-real-n8n: items of the memory runs (env BENCH_MEMORY_ITEMS,
 *                           default 100000, at most 100000)
 *   --skip-memory           sms-real-n8n: no memory runs
 *   --rate-limit-items N    rate-limit: personalised SMS in each run's one execution (env
 *                           BENCH_RATE_LIMIT_ITEMS, default 20000 = 200 Sms/bulksend requests, four
 *                           one-minute windows at Bulk SMS 50; at most 100000); the sandbox latency is --latency
 *   --rate-limit-time-factor F
 *                           rate-limit: its first part (runs 1, 2, 2b, 3) at time ×F: windows of 60 / F s,
 *                           Retry-After ceil(30 / F) s, the runs without counters on a credential whose
 *                           Custom Rate Limits say Bulk SMS=50/<60 / F>s (env BENCH_RATE_LIMIT_TIME_FACTOR,
 *                           default 1 = the service's minute; a whole number dividing 60)
 *   --rate-limit-user-credential
 *                           rate-limit: at a time factor, the runs without counters on the credential as a
 *                           user has it (no Custom Rate Limits): nothing tells the pacer the scaled window
 *   --skip-hand-built       rate-limit: no hand-built Code + HTTP Request run
 *   --skip-queue-mode       rate-limit: no queue-mode run in its scaled part (it needs the Debian
 *                           packages redis-server and postgresql)
 *   --skip-scaled           rate-limit: no scaled part at all, queue mode included (the system stage
 *                           runs the same runs as tests)
 *   --flood N               status-flood: SMS status callbacks a flood (env BENCH_FLOOD, default 20000)
 *   --runs R                status-flood: floods into each of the two workflows (env BENCH_RUNS, default 3)
 *   --call-flow-calls N     call-flow: requests one at a time into each workflow (env BENCH_CALL_FLOW_CALLS,
 *                           default 200)
 *   --call-flow-burst B     call-flow: requests sent at once in a round (env BENCH_CALL_FLOW_BURST, default 50)
 *   --call-flow-rounds R    call-flow: rounds at once into each workflow (env BENCH_CALL_FLOW_ROUNDS, default 5)
 *   --only NAME             run one bench (names: sms-bulk, rcs-bulk, callback-burst, sms-real-n8n, dlt, rate-limit,
 *                           status-flood, call-flow)
 *
 * sms-real-n8n runs --items SMS through the Exotel node, a hand-built Code + HTTP Request bulk
 * workflow and one HTTP Request per item (on min(--items, 1000)) inside one real n8n 2.8.4, reading
 * each node's executionTime from the saved execution, then the memory runs; it fails (exit 1) when
 * the sandbox did not get exactly the messages sent. The sandbox runs the documented rate limits with
 * its counters on and the SMS categories raised far above the run's needs, and the Exotel credential
 * the same through Custom Rate Limits, so that the Exotel node reads the counters but never waits: a
 * CPU comparison, not one of waits.
 *
 * rate-limit sends --rate-limit-items SMS in one execution of a real n8n 2.8.4 through the Exotel
 * node against the sandbox's documented limits at the service's real one-minute windows (Bulk SMS 50
 * a minute; at time ×F with --rate-limit-time-factor), once with the X-RateLimit-* counters and once
 * without, two executions at once without, then through the hand-built Code + HTTP Request bulk
 * (default settings) with them: 429s, first-to-last accepted against the windows' floor, messages
 * lost. Then its scaled part (not with --skip-scaled), the system stage's rate-limit runs at time ×6
 * measured the same way: one execution, two at once, a campaign burst, Return All over many pages,
 * and two queue-mode workers (Redis, PostgreSQL). About 20 minutes. It fails (exit 1) only when the
 * Exotel node lost, duplicated or failed something (the tables are printed first). `npm run
 * bench:small` sizes it to pace in under two minutes: 6,000 SMS (60 requests) at time ×6, two
 * 10 s windows a run, --skip-scaled.
 *
 * callback-burst starts a real n8n 2.8.4 (test/harness; installed into its cache folder on
 * first use) with the packed package; it fails (exit 1) when a callback is lost or duplicated.
 *
 * status-flood (issue 35) floods one real n8n 2.8.4 with --flood SMS status callbacks at --concurrency
 * connections, --runs times into the Exotel Messaging Trigger and as many into n8n's own Webhook node
 * (both active side by side, alternating), and compares answers, executions (each 2xx'd callback
 * exactly once), executions not started when the last 2xx went out, n8n's RSS peak and throughput.
 * 20,000 × 3 × 2 takes about half an hour on the 2-core machine. It fails (exit 1) only when a
 * callback answered 2xx was lost or duplicated (the table is printed first).
 *
 * call-flow (issue 48) asks one real n8n 2.8.4 what a Connect applet asks while the caller waits (a GET
 * with the call's query) and measures the answer latency (request sent → answer received) of the
 * Exotel Call Flow Trigger → Exotel Voice Call Flow Answer and, side by side, of n8n's Webhook node →
 * Respond to Webhook with the same Connect JSON: --call-flow-calls one at a time, then --call-flow-rounds
 * rounds of --call-flow-burst at once; p50/p90/p99/max, fallbacks, p99 against the service's 5 s. It
 * fails (exit 1) when any answer is not exactly the workflow's (a fallback included; the tables are
 * printed first), or when the trigger's side could not be set up (the Webhook node's is still measured).
 *
 * Re-executes itself with --expose-gc when `global.gc` is missing, so that memory is measured
 * from a collected heap. Prints a table per bench and a `BENCH_JSON {...}` line with every figure.
 * Exit code 0 when the benches ran (a missed target is reported, not failed), 1 on an error or a
 * broken pairing, 2 on bad arguments.
 *
 * Profiling: node --cpu-prof --cpu-prof-dir=/tmp/prof --expose-gc -r ts-node/register/transpile-only \
 *   test/bench/run.ts --skip-baseline
 */
import { spawn } from 'node:child_process';

import { DEFAULT_CALLBACKS, DEFAULT_CONCURRENCY, DEFAULT_FORGED, formatCallbackBurstReport, runCallbackBurstBench } from './callback-burst.bench';
import {
	DEFAULT_CALL_FLOW_BURST,
	DEFAULT_CALL_FLOW_CALLS,
	DEFAULT_CALL_FLOW_ROUNDS,
	formatCallFlowLatencyReport,
	runCallFlowLatencyBench,
} from './call-flow-latency.bench';
import { BenchFailure } from './common';
import { formatDltReport, runDltBench } from './dlt.bench';
import {
	badTimeFactor,
	DEFAULT_RATE_LIMIT_ITEMS,
	DEFAULT_RATE_LIMIT_TIME_FACTOR,
	formatRateLimitReport,
	MAX_RATE_LIMIT_ITEMS,
	runRateLimitBench,
} from './rate-limit.bench';
import { DEFAULT_RCS_BASELINE_ITEMS, formatRcsBulkReport, runRcsBulkBench } from './rcs-bulk.bench';
import { formatSmsBulkReport, runSmsBulkBench } from './sms-bulk.bench';
import { DEFAULT_FLOOD, DEFAULT_RUNS, formatStatusFloodReport, runStatusFloodBench } from './status-flood.bench';
import { DEFAULT_MEMORY_ITEMS, formatSmsRealN8nReport, MAX_ITEMS, runSmsRealN8nBench } from './sms-real-n8n.bench';

interface BenchOptions {
	items: number;
	latencyMs: number;
	baselineLatencyMs: number;
	rcsBaselineItems: number;
	skipBaseline: boolean;
	skipBreakdown: boolean;
	callbacks: number;
	concurrency: number;
	forged: number;
	memoryItems: number;
	skipMemory: boolean;
	rateLimitItems: number;
	rateLimitTimeFactor: number;
	rateLimitUserCredential: boolean;
	skipHandBuilt: boolean;
	skipQueueMode: boolean;
	skipScaled: boolean;
	flood: number;
	runs: number;
	callFlowCalls: number;
	callFlowBurst: number;
	callFlowRounds: number;
	only?: string;
}

interface Bench {
	name: string;
	/** `broken`: the report is printed, then the bench counts as broken (exit 1) */
	run(options: BenchOptions, log: (line: string) => void): Promise<{ text: string; json: unknown; broken?: string }>;
}

const BENCHES: Bench[] = [
	{
		name: 'sms-bulk',
		async run(options, log) {
			const report = await runSmsBulkBench({ ...options, log });
			return { text: formatSmsBulkReport(report), json: report };
		},
	},
	{
		name: 'rcs-bulk',
		async run(options, log) {
			const report = await runRcsBulkBench({ ...options, baselineItems: options.rcsBaselineItems, log });
			return { text: formatRcsBulkReport(report), json: report };
		},
	},
	{
		name: 'callback-burst',
		async run(options, log) {
			const report = await runCallbackBurstBench({ callbacks: options.callbacks, concurrency: options.concurrency, forged: options.forged, log });
			return { text: formatCallbackBurstReport(report), json: report };
		},
	},
	{
		name: 'sms-real-n8n',
		async run(options, log) {
			const report = await runSmsRealN8nBench({
				items: options.items,
				memoryItems: options.memoryItems,
				skipMemory: options.skipMemory,
				latencyMs: options.latencyMs,
				log,
			});
			return { text: formatSmsRealN8nReport(report), json: report };
		},
	},
	{
		name: 'dlt',
		async run(options, log) {
			const report = await runDltBench({ items: options.items, latencyMs: options.latencyMs, log });
			return { text: formatDltReport(report), json: report };
		},
	},
	{
		name: 'rate-limit',
		async run(options, log) {
			const report = await runRateLimitBench({
				items: options.rateLimitItems,
				latencyMs: options.latencyMs,
				timeFactor: options.rateLimitTimeFactor,
				userCredential: options.rateLimitUserCredential,
				skipHandBuilt: options.skipHandBuilt,
				skipQueueMode: options.skipQueueMode,
				skipScaled: options.skipScaled,
				log,
			});
			return { text: formatRateLimitReport(report), json: report, broken: report.broken.length ? report.broken.join(' | ') : undefined };
		},
	},
	{
		name: 'status-flood',
		async run(options, log) {
			const report = await runStatusFloodBench({ flood: options.flood, runs: options.runs, concurrency: options.concurrency, log });
			return { text: formatStatusFloodReport(report), json: report, broken: report.broken.length ? report.broken.join(' | ') : undefined };
		},
	},
	{
		name: 'call-flow',
		async run(options, log) {
			const report = await runCallFlowLatencyBench({ calls: options.callFlowCalls, burst: options.callFlowBurst, rounds: options.callFlowRounds, log });
			return { text: formatCallFlowLatencyReport(report), json: report, broken: report.broken.length ? report.broken.join(' | ') : undefined };
		},
	},
];

function argValue(args: string[], name: string): string | undefined {
	const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i < 0) return undefined;
	const arg = args[i];
	return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
}

function numberOption(text: string | undefined, what: string, fallback: number, { integer = false, min = 0 } = {}): number {
	if (text === undefined || text === '') return fallback;
	const value = Number(text);
	if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
		throw new Error(`${what} must be ${integer ? 'an integer' : 'a number'} >= ${min} (got '${text}')`);
	}
	return value;
}

export function parseOptions(args: string[], env: NodeJS.ProcessEnv): BenchOptions {
	const known = [
		'--items',
		'--latency',
		'--baseline-latency',
		'--rcs-baseline-items',
		'--skip-baseline',
		'--skip-breakdown',
		'--callbacks',
		'--concurrency',
		'--forged',
		'--memory-items',
		'--skip-memory',
		'--rate-limit-items',
		'--rate-limit-time-factor',
		'--rate-limit-user-credential',
		'--skip-hand-built',
		'--skip-queue-mode',
		'--skip-scaled',
		'--flood',
		'--runs',
		'--call-flow-calls',
		'--call-flow-burst',
		'--call-flow-rounds',
		'--only',
	];
	for (let i = 0; i < args.length; i++) {
		const name = args[i].split('=')[0];
		if (!known.includes(name)) throw new Error(`Unknown argument '${args[i]}' (known: ${known.join(', ')})`);
		if (!args[i].includes('=') && !name.startsWith('--skip-') && name !== '--rate-limit-user-credential') i++;
	}
	const latencyMs = numberOption(argValue(args, '--latency') ?? env.BENCH_LATENCY_MS, 'latency', 20);
	const only = argValue(args, '--only');
	if (only !== undefined && !BENCHES.some((b) => b.name === only)) {
		throw new Error(`Unknown bench '${only}' (known: ${BENCHES.map((b) => b.name).join(', ')})`);
	}
	const memoryItems = numberOption(argValue(args, '--memory-items') ?? env.BENCH_MEMORY_ITEMS, 'memory items', DEFAULT_MEMORY_ITEMS, {
		integer: true,
		min: 1,
	});
	if (memoryItems > MAX_ITEMS) throw new Error(`memory items must be at most ${MAX_ITEMS} (got ${memoryItems})`);
	const rateLimitItems = numberOption(argValue(args, '--rate-limit-items') ?? env.BENCH_RATE_LIMIT_ITEMS, 'rate-limit items', DEFAULT_RATE_LIMIT_ITEMS, {
		integer: true,
		min: 1,
	});
	if (rateLimitItems > MAX_RATE_LIMIT_ITEMS) throw new Error(`rate-limit items must be at most ${MAX_RATE_LIMIT_ITEMS} (got ${rateLimitItems})`);
	const rateLimitTimeFactor = numberOption(
		argValue(args, '--rate-limit-time-factor') ?? env.BENCH_RATE_LIMIT_TIME_FACTOR,
		'rate-limit time factor',
		DEFAULT_RATE_LIMIT_TIME_FACTOR,
		{ integer: true, min: 1 },
	);
	const badFactor = badTimeFactor(rateLimitTimeFactor);
	if (badFactor) throw new Error(badFactor);
	return {
		items: numberOption(argValue(args, '--items') ?? env.BENCH_ITEMS, 'items', 10_000, { integer: true, min: 1 }),
		latencyMs,
		baselineLatencyMs: numberOption(argValue(args, '--baseline-latency') ?? env.BENCH_BASELINE_LATENCY_MS, 'baseline latency', latencyMs),
		rcsBaselineItems: numberOption(
			argValue(args, '--rcs-baseline-items') ?? env.BENCH_RCS_BASELINE_ITEMS,
			'rcs baseline items',
			DEFAULT_RCS_BASELINE_ITEMS,
			{ integer: true, min: 1 },
		),
		skipBaseline: args.includes('--skip-baseline'),
		skipBreakdown: args.includes('--skip-breakdown'),
		callbacks: numberOption(argValue(args, '--callbacks') ?? env.BENCH_CALLBACKS, 'callbacks', DEFAULT_CALLBACKS, { integer: true, min: 1 }),
		concurrency: numberOption(argValue(args, '--concurrency') ?? env.BENCH_CONCURRENCY, 'concurrency', DEFAULT_CONCURRENCY, { integer: true, min: 1 }),
		forged: numberOption(argValue(args, '--forged') ?? env.BENCH_FORGED, 'forged', DEFAULT_FORGED, { integer: true, min: 0 }),
		memoryItems,
		skipMemory: args.includes('--skip-memory'),
		rateLimitItems,
		rateLimitTimeFactor,
		rateLimitUserCredential: args.includes('--rate-limit-user-credential'),
		skipHandBuilt: args.includes('--skip-hand-built'),
		skipQueueMode: args.includes('--skip-queue-mode'),
		skipScaled: args.includes('--skip-scaled'),
		flood: numberOption(argValue(args, '--flood') ?? env.BENCH_FLOOD, 'flood', DEFAULT_FLOOD, { integer: true, min: 1 }),
		runs: numberOption(argValue(args, '--runs') ?? env.BENCH_RUNS, 'runs', DEFAULT_RUNS, { integer: true, min: 1 }),
		callFlowCalls: numberOption(argValue(args, '--call-flow-calls') ?? env.BENCH_CALL_FLOW_CALLS, 'call-flow calls', DEFAULT_CALL_FLOW_CALLS, {
			integer: true,
			min: 1,
		}),
		callFlowBurst: numberOption(argValue(args, '--call-flow-burst') ?? env.BENCH_CALL_FLOW_BURST, 'call-flow burst', DEFAULT_CALL_FLOW_BURST, {
			integer: true,
			min: 1,
		}),
		callFlowRounds: numberOption(argValue(args, '--call-flow-rounds') ?? env.BENCH_CALL_FLOW_ROUNDS, 'call-flow rounds', DEFAULT_CALL_FLOW_ROUNDS, {
			integer: true,
			min: 1,
		}),
		only,
	};
}

async function main(): Promise<number> {
	let options: BenchOptions;
	try {
		options = parseOptions(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		return 2;
	}
	const log = (line: string) => process.stderr.write(`${line}\n`);
	let failed = false;
	for (const bench of BENCHES) {
		if (options.only && bench.name !== options.only) continue;
		try {
			const { text, json, broken } = await bench.run(options, log);
			process.stdout.write(`${text}\n`);
			process.stdout.write(`BENCH_JSON ${JSON.stringify(json)}\n`);
			if (broken) {
				failed = true;
				process.stderr.write(`BROKEN in bench ${bench.name}: ${broken}\n`);
			}
		} catch (error) {
			failed = true;
			const kind = error instanceof BenchFailure ? 'BROKEN' : 'ERROR';
			process.stderr.write(`${kind} in bench ${bench.name}: ${(error as Error)?.stack ?? String(error)}\n`);
		}
	}
	return failed ? 1 : 0;
}

/** Runs this file again in a child node with --expose-gc (and ts-node), passing arguments and exit code through. */
function reexecWithGc(): void {
	const args = [
		'--expose-gc',
		...process.execArgv,
		'-r',
		require.resolve('ts-node/register/transpile-only'),
		__filename,
		...process.argv.slice(2),
	];
	const child = spawn(process.execPath, args, {
		stdio: 'inherit',
		env: { ...process.env, BENCH_REEXECUTED: '1', TS_NODE_TRANSPILE_ONLY: 'true' },
	});
	const forward = (signal: NodeJS.Signals) => () => {
		if (child.exitCode === null) child.kill(signal);
	};
	process.on('SIGINT', forward('SIGINT'));
	process.on('SIGTERM', forward('SIGTERM'));
	child.on('error', (error) => {
		process.stderr.write(`Could not re-execute with --expose-gc: ${error.message}\n`);
		process.exit(1);
	});
	child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (require.main === module) {
	if (typeof (globalThis as { gc?: unknown }).gc !== 'function' && process.env.BENCH_REEXECUTED !== '1') {
		reexecWithGc();
	} else {
		main().then(
			(code) => {
				process.exitCode = code;
				// The sandbox child is stopped by now and nothing else should hold the process open;
				// should n8n-core or the HTTP client leave something (keep-alive socket, timer), list
				// it and exit anyway rather than hang.
				setTimeout(() => {
					const left = process.getActiveResourcesInfo().filter((r) => !['TTYWrap', 'PipeWrap', 'Timeout'].includes(r));
					process.stderr.write(`Still open 2 s after the benches ended (forcing exit): ${left.join(', ') || 'unknown'}\n`);
					process.exit(code);
				}, 2000).unref();
			},
			(error: unknown) => {
				process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
				process.exit(1);
			},
		);
	}
}
