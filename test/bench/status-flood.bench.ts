/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- floods a real n8n with callbacks (timers, fs, path); never shipped */
/**
 * Status flood bench (issue 35): a bulk send of N SMS is followed by N status callbacks within
 * minutes, each starting an execution. On ONE real n8n 2.8.4 (`n8n start`, the packed package
 * installed as users install it, SQLite, regular mode; test/harness) two workflows are active side
 * by side:
 *
 *   trigger: Exotel Messaging Trigger (events: smsStatus; statuses: all) → NoOp
 *   webhook: n8n's Webhook node (v2.1, POST, Respond: Immediately = responseMode onReceived) → NoOp
 *
 * For each of the two, for R runs, N distinct SMS status callbacks (form-encoded, the spec's SMS
 * StatusCallback fields: SmsSid, To, Status, SmsUnits, DetailedStatus, DetailedStatusCode, DateSent,
 * CustomField) are posted at C connections (keep-alive loopback, a bounded pool of C workers). The
 * targets alternate (run 1: trigger then webhook; run 2: webhook then trigger; ...) so that neither
 * always runs on the warmer or fuller n8n. Before each flood the previous executions are deleted
 * (`POST /rest/executions/delete`, the editor's bulk delete) and n8n is let go idle, so that every
 * flood starts on an empty executions table and a quiet process.
 *
 * Measured per run and target: answers (2xx, others, errors; answer bodies), answer latency; while
 * the flood runs and after it, n8n's internal executions list counts by status (rows, `new`,
 * finished) every 250 ms; once drained, every saved execution read back with its data (public API,
 * paged): the SmsSid each carries (the trigger's `messageSid`, the Webhook node's `body.SmsSid`), so
 * lost (answered 2xx without an execution), duplicated, unknown, and the content checked against
 * what was sent; each execution's createdAt (internal list), startedAt and stoppedAt against the
 * answer times, hence the executions not yet started (or not yet created) at the instant the last
 * 2xx went out; n8n's server process RSS (peak) and CPU from /proc every 100 ms; throughput
 * (executions finished per second from the first request to the last stoppedAt; 2xx per second of
 * the burst); wall time of the burst and of the drain.
 *
 * Targets (reported, not failed): every callback answered 2xx has exactly one execution; executions
 * not started when the last 2xx went out ≤ 1 % of N for the trigger (the issue measured 0 for the
 * Webhook node); n8n's RSS peak ≤ 1.5 GB (10^9 bytes) over the trigger's runs; the trigger's median
 * throughput ≥ the Webhook node's. A lost or duplicated callback (either target) makes the bench
 * broken (exit 1) after the report is printed.
 *
 * n8n runs with its defaults but for EXECUTIONS_DATA_PRUNE_MAX_COUNT=0: by default n8n soft-deletes
 * all but the newest 10,000 executions on an hourly tick, which would hide executions of a 20,000
 * flood from the read-back if the tick fell inside a run (each flood's executions are deleted by the
 * bench after they are checked). Age-based pruning (336 h) stays on.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { makeWorkflow, N8nInstance, type OutputItem, packPackage, REPO_ROOT, removeTempDir, type RunJson, type WorkflowNode } from '../harness';
import { sandboxCredentialData } from '../../sandbox/fixtures';
import { int, loadAverage, machine, n, round, table, verdict } from './common';
import {
	countBy,
	createdTimes,
	executionCounts,
	forEachExecutionPage,
	mibOf,
	newLogLines,
	outcome,
	percentiles,
	packageSource,
	waitForIdle,
	ProcWatcher,
	restCount,
	ALL_STATUSES,
	sampleUntilDrained,
	sendAll,
	type BurstState,
	type Percentiles,
	type Posted,
	type Sample,
	type Sent as SentOf,
} from './n8n-callbacks';

export const DEFAULT_FLOOD = 20_000;
export const DEFAULT_RUNS = 3;
/** Callbacks sent (and drained) to each target before the runs, so lazy loading in n8n is not measured. */
export const WARM_UP_CALLBACKS = 20;

export const FLOOD_TARGETS = {
	/** executions not started when the last 2xx went out, share of N (trigger) */
	maxNotStartedShare: 0.01,
	/** n8n server process RSS peak, bytes (1.5 GB) */
	maxPeakRssBytes: 1.5e9,
};

const PACKAGE = 'n8n-nodes-exotel';
const TRIGGER = 'Exotel Messaging Trigger';
const WEBHOOK = 'Webhook';
const AFTER = 'Received';
const TRIGGER_WEBHOOK_ID = 'c0ffee00-0000-4000-8000-0000005f1000';
const WEBHOOK_NODE_ID = 'c0ffee00-0000-4000-8000-0000005f1001';
const WEBHOOK_PATH = 'status-flood';
/** After the drain, a pause before the read-back, so a late duplicate would be seen. */
const SETTLE_MS = 2_000;
/** As much of n8n's output as the harness keeps (256 KiB). */
const LOG_CHARS = 256 * 1024;
/** Before a flood: how long to wait at most for n8n to be idle (waitForIdle). */
const IDLE_MAX_WAIT_MS = 60_000;
/** The credential is only attached: the trigger registers nothing (registerWebhooks off) and reads nothing for an unsigned SMS callback. */
const UNUSED_ORIGIN = 'http://127.0.0.1:9';

export type FloodTarget = 'trigger' | 'webhook';
const TARGET_NAMES: FloodTarget[] = ['trigger', 'webhook'];
const LABELS: Record<FloodTarget, string> = { trigger: 'Messaging Trigger', webhook: "n8n's Webhook node" };

export interface StatusFloodOptions {
	flood: number;
	runs: number;
	concurrency: number;
	/** Extra environment for n8n, for investigating; reported in the config. */
	n8nEnv?: Record<string, string>;
	log: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// The callbacks
// ---------------------------------------------------------------------------------------------

interface StatusCallback {
	sid: string;
	fields: Record<string, string>;
	body: Buffer;
}

type Sent = SentOf<StatusCallback>;

const pad = (i: number, width: number) => String(i).padStart(width, '0');

/** `YYYY-MM-DD HH:MM:SS`, as the service writes DateSent. */
const serviceTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** One SMS StatusCallback (form-encoded, the spec's fields): the SMS was delivered to the handset. */
function statusCallback(sid: string, i: number): StatusCallback {
	const fields = {
		SmsSid: sid,
		To: `+9198${pad(i % 100_000_000, 8)}`,
		Status: 'sent',
		SmsUnits: '1',
		DetailedStatus: 'DELIVERED_TO_HANDSET',
		DetailedStatusCode: '20005',
		DateSent: serviceTime(Date.UTC(2026, 0, 31, 10, 0, 0) + i * 50),
		CustomField: `ORD-${100000 + i}`,
	};
	return { sid, fields, body: Buffer.from(new URLSearchParams(fields).toString()) };
}

/** N callbacks with SmsSids unique to the bench run, the run and the target. */
function floodCallbacks(count: number, runTag: string, run: number | 'warm', target: FloodTarget): StatusCallback[] {
	const prefix = `${runTag}${target === 'trigger' ? 't' : 'w'}${run}`;
	return Array.from({ length: count }, (_, i) => statusCallback(`${prefix}-${pad(i, 6)}`, i));
}

const requestOf = (callback: StatusCallback): Posted => ({ body: callback.body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

const is2xx = (s: Sent) => s.status >= 200 && s.status < 300;

// ---------------------------------------------------------------------------------------------
// Reading an execution back
// ---------------------------------------------------------------------------------------------

/** The start node's items of a saved execution, and how many the NoOp after it passed. */
function itemsOf(execution: { data?: RunJson['data'] }, startNode: string): { items: IDataObject[]; passed: number } {
	const runData = execution.data?.resultData?.runData ?? {};
	const items: OutputItem[] = runData[startNode]?.[0]?.data?.main?.[0] ?? [];
	const passed: unknown[] = runData[AFTER]?.[0]?.data?.main?.[0] ?? [];
	return { items: items.map((item) => item.json), passed: passed.length };
}

/** The SmsSid an item carries, and what differs from the callback sent (empty when all matches). */
const READERS: Record<FloodTarget, { startNode: string; sid(json: IDataObject): string; differences(json: IDataObject, sent: StatusCallback): string[] }> = {
	trigger: {
		startNode: TRIGGER,
		sid: (json) => String(json.messageSid),
		differences(json, sent) {
			const f = sent.fields;
			const want: Record<string, unknown> = {
				event: 'smsStatus',
				channel: 'sms',
				messageSid: f.SmsSid,
				to: f.To,
				status: 'delivered',
				code: 20005,
				timestamp: f.DateSent,
				customData: f.CustomField,
			};
			return Object.keys(want).filter((key) => json[key] !== want[key]).map((key) => `${key} ${JSON.stringify(json[key])} ≠ ${JSON.stringify(want[key])}`);
		},
	},
	webhook: {
		startNode: WEBHOOK,
		sid: (json) => String((json.body as IDataObject | undefined)?.SmsSid),
		differences(json, sent) {
			const body = (json.body ?? {}) as Record<string, unknown>;
			return Object.entries(sent.fields).filter(([key, value]) => body[key] !== value).map(([key, value]) => `body.${key} ${JSON.stringify(body[key])} ≠ ${JSON.stringify(value)}`);
		},
	},
};

// ---------------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------------

export interface FloodRun {
	target: FloodTarget;
	run: number;
	/** place in the bench's sequence of floods (1 = first) */
	position: number;
	requests: number;
	answered2xx: number;
	/** answers other than 2xx, and errors (status or error code → count) */
	not2xx: Record<string, number>;
	/** what n8n answered (status and body → count), the five most frequent */
	answers: Record<string, number>;
	latencyMs: Percentiles;
	/** first request sent → last answer (ms) */
	burstWallMs: number;
	/** 2xx answers / burst seconds */
	acceptedPerSecond: number;
	clientCpuMs: number;
	delivery: {
		/** executions of the workflow read back after the drain (public API, with data) */
		executions: number;
		pages: number;
		statuses: Record<string, number>;
		/** answered 2xx, no execution carries its SmsSid */
		lost: number;
		lostSample: string[];
		/** SmsSids carried by more than one execution */
		duplicated: number;
		duplicatedSample: string[];
		/** executions whose SmsSid was not sent in this flood (or that carry no single item) */
		unexpected: number;
		/** executions of callbacks that were not answered 2xx */
		ranWithoutA2xx: number;
		notSuccessful: number;
		contentMismatches: number;
		mismatchSample: string[];
	};
	/** the instant of the last 2xx */
	atLast2xx: {
		/** callbacks answered 2xx whose execution had not started then (startedAt later, or none) */
		notStarted: number;
		/** ... whose execution row n8n had not asked to insert then (createdAt later, or none) */
		notCreated: number;
		/** from n8n's counts at the first sample after it: 2xx so far − (rows − rows still `new`); null without counts */
		notStartedSampled: number | null;
		/** the most answered 2xx but not started at once over the samples (counts) */
		mostNotStartedSampled: number | null;
	};
	/** callbacks whose execution started after their own 2xx */
	startedAfterOwnAnswer: number;
	/** per callback: its 2xx → its execution's createdAt / startedAt / stoppedAt (negative: before the answer) */
	answerToCreatedMs: Percentiles;
	answerToStartMs: Percentiles;
	answerToStopMs: Percentiles;
	drain: {
		/** a count showed every 2xx'd callback's execution finished */
		reached: boolean;
		/** last 2xx → the last execution's stoppedAt */
		lastAnswerToLastStoppedMs: number;
		/** last 2xx → a count showed them all finished and saved (resolution ~250 ms) */
		lastAnswerToAllSavedMs: number;
	};
	/** first request → the last execution's stoppedAt */
	firstRequestToLastStoppedMs: number;
	/** executions finished / (first request → last stoppedAt) seconds */
	executionsPerSecond: number;
	n8nProcess: null | {
		rssBeforeMiB: number;
		peakRssMiB: number;
		/** 10^9 bytes */
		peakRssGB: number;
		rssAfterMiB: number;
		/** burst + drain */
		cpuMs: number;
		/** CPU / (first request → drain seen), 100 % = one core */
		cpuPercent: number;
		/** CPU / executions recorded: what one callback costs n8n, whatever share of the CPUs it got */
		cpuPerExecutionMs: number;
		samples: number;
		/** the highest RSS in each twelfth of first request → drain seen (ms from the first request, MiB) */
		rssCurve: Array<{ atMs: number; peakMiB: number }>;
	};
	n8nLog: { lines: number; warnings: number; warningSample: string[] };
	/** a dozen samples of n8n's counts from the first request */
	curve: Sample[];
	/** os.loadavg() when the flood started and when its drain was seen (other work on the machine skews every figure) */
	loadAverageStart: number[];
	loadAverageEnd: number[];
	idleWaitMs: number;
	readBackMs: number;
	deleteMs: number;
}

interface Spread {
	min: number;
	median: number;
	max: number;
}

export interface StatusFloodReport {
	bench: 'status-flood';
	config: {
		flood: number;
		runs: number;
		concurrency: number;
		warmUpCallbacks: number;
		n8nVersion: string;
		n8nSettings: string;
		packageVersion: string;
		/** the checkout the package was packed from (`git describe`; "+ changes" when nodes/ or credentials/ differ from it) */
		packageSource: string;
		workflows: Record<FloodTarget, string>;
		order: string;
		node: string;
		cpus: number;
		cpuModel: string;
		loadAverageStart: number[];
		loadAverageEnd: number[];
		payloadBytes: { min: number; max: number };
		client: string;
	};
	runs: FloodRun[];
	summary: Record<
		FloodTarget,
		{
			answered2xx: Spread;
			executions: Spread;
			lost: number;
			duplicated: number;
			notStartedAtLast2xx: Spread;
			peakRssGB: Spread;
			executionsPerSecond: Spread;
			cpuPerExecutionMs: Spread;
			acceptedPerSecond: Spread;
			burstWallMs: Spread;
			drainMs: Spread;
		}
	>;
	checks: {
		/** every callback answered 2xx has exactly one execution (both targets, every run) */
		exactlyOnce: boolean;
		/** trigger: executions not started when the last 2xx went out ≤ 1 % of N in every run */
		notStartedWithinTarget: boolean;
		/** trigger: n8n RSS peak ≤ 1.5 GB in every run */
		memoryWithinTarget: boolean | null;
		/** trigger median executions/s ≥ Webhook node median */
		throughputAtLeastWebhook: boolean;
		/** every callback of every flood answered 2xx (both targets) */
		allAnswered2xx: boolean;
	};
	broken: string[];
	setupMs: number;
	totalBenchMs: number;
}

function spread(values: number[]): Spread {
	const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (finite.length === 0) return { min: NaN, median: NaN, max: NaN };
	const mid = finite.length >> 1;
	const median = finite.length % 2 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
	return { min: finite[0], median: round(median, 3), max: finite[finite.length - 1] };
}

function top(record: Record<string, number>, k: number): Record<string, number> {
	return Object.fromEntries(Object.entries(record).sort((a, b) => b[1] - a[1]).slice(0, k));
}

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

interface Ctx {
	instance: N8nInstance;
	workflows: Record<FloodTarget, { id: string; url: string }>;
	pid: number | undefined;
	options: StatusFloodOptions;
	runTag: string;
}

/** Deletes every execution (the editor's bulk delete) and checks none is left of either workflow. */
async function deleteExecutions(ctx: Ctx): Promise<number> {
	const t0 = Date.now();
	// startedAt ≤ a minute from now: every execution there is (all are finished by now)
	const res = await ctx.instance.rest('POST', '/executions/delete', { deleteBefore: new Date(Date.now() + 60_000).toISOString() });
	if (res.status !== 200) throw new Error(`POST /rest/executions/delete → ${res.status}: ${JSON.stringify(res.data).slice(0, 500)}`);
	for (const name of TARGET_NAMES) {
		const left = await restCount(ctx.instance, ctx.workflows[name].id, ALL_STATUSES);
		if (left !== 0) throw new Error(`${left} executions of the ${LABELS[name]} workflow left after the bulk delete`);
	}
	return Date.now() - t0;
}

/** A few callbacks into each target, drained: n8n loads the nodes, the workflow and the execution path. */
async function warmUp(ctx: Ctx): Promise<void> {
	const { instance, options } = ctx;
	for (const name of TARGET_NAMES) {
		const { id, url } = ctx.workflows[name];
		const callbacks = floodCallbacks(WARM_UP_CALLBACKS, ctx.runTag, 'warm', name);
		const sent = await sendAll(url, callbacks, Math.min(options.concurrency, 5), requestOf);
		const bad = sent.results.filter((s) => !is2xx(s));
		if (bad.length) throw new Error(`warm-up of the ${LABELS[name]}: ${JSON.stringify(countBy(bad, outcome))} ${bad[0].answer}\n${instance.serverLog(4000)}`);
		const state: BurstState = { accepted: WARM_UP_CALLBACKS, endedAt: Date.now(), target: WARM_UP_CALLBACKS };
		const drain = await sampleUntilDrained(instance, id, state, Date.now(), { rows: 0, finished: 0 });
		if (!drain.reached) throw new Error(`warm-up of the ${LABELS[name]}: only ${drain.finished} of ${WARM_UP_CALLBACKS} executions finished\n${instance.serverLog(4000)}`);
	}
}

interface ReadBack {
	executionId: string;
	sid: string;
	status: string;
	startedAt: number;
	stoppedAt: number;
}

/** One flood into one target, drained, read back, checked; its executions deleted afterwards. */
async function floodOnce(ctx: Ctx, target: FloodTarget, run: number, position: number): Promise<FloodRun> {
	const { instance, options } = ctx;
	const { log } = options;
	const { id: workflowId, url } = ctx.workflows[target];
	const reader = READERS[target];
	const tag = `status-flood: run ${run}, ${LABELS[target]}`;

	const idleWaitMs = await waitForIdle(ctx.pid, IDLE_MAX_WAIT_MS);
	const callbacks = floodCallbacks(options.flood, ctx.runTag, run, target);
	log(`${tag}: ${int(options.flood)} callbacks at ${options.concurrency} connections (n8n idle after ${n(idleWaitMs / 1000)} s)...`);
	const logBefore = instance.serverLog(LOG_CHARS);
	const loadAverageStart = loadAverage();
	const baseline = await executionCounts(instance, workflowId, true);
	const watcher = ctx.pid === undefined ? undefined : new ProcWatcher(ctx.pid, true);
	const before = watcher?.sample();
	watcher?.start();
	const state: BurstState = { accepted: 0 };
	const burstStartedAt = Date.now();
	const sampling = sampleUntilDrained(instance, workflowId, state, burstStartedAt, baseline, true);
	sampling.catch(() => undefined); // awaited below; a rejection must not go unhandled meanwhile
	let lastOkAt = 0;
	const burst = await sendAll(url, callbacks, options.concurrency, requestOf, (sent) => {
		if (!is2xx(sent)) return;
		state.accepted++;
		if (sent.answeredAt > lastOkAt) lastOkAt = sent.answeredAt;
	});
	const ok = burst.results.filter(is2xx);
	log(`${tag}: ${int(ok.length)}/${int(callbacks.length)} answered 2xx in ${n(burst.wallMs / 1000)} s; waiting for the executions...`);
	state.target = ok.length;
	state.endedAt = lastOkAt || burst.endedAt;
	const drain = await sampling;
	const atDrainEnd = watcher?.sample();
	watcher?.stop();
	const drainSeenAt = Date.now();
	const loadAverageEnd = loadAverage();
	const logLines = newLogLines(logBefore, instance.serverLog(LOG_CHARS));
	const warnings = logLines.filter((line) => /\b(warn|warning|error|fail(ed)?)\b/i.test(line));
	await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

	log(`${tag}: reading the executions back...`);
	const readStarted = Date.now();
	const sentBySid = new Map<string, Sent>();
	for (const s of burst.results) sentBySid.set(s.callback.sid, s);
	const read: ReadBack[] = [];
	const statuses: Record<string, number> = {};
	const mismatches: string[] = [];
	let unexpected = 0;
	let notSuccessful = 0;
	const { executions, pages } = await forEachExecutionPage(instance, workflowId, true, (page) => {
		for (const execution of page) {
			const status = String(execution.status);
			statuses[status] = (statuses[status] ?? 0) + 1;
			if (execution.status !== 'success' || execution.finished !== true) notSuccessful++;
			const { items, passed } = itemsOf(execution, reader.startNode);
			if (items.length !== 1 || passed !== 1) {
				unexpected++;
				mismatches.push(`execution ${execution.id}: ${reader.startNode} emitted ${items.length} item(s), ${AFTER} passed ${passed}`);
				if (items.length !== 1) continue;
			}
			const sid = reader.sid(items[0]);
			const sent = sentBySid.get(sid);
			if (!sent) {
				unexpected++;
				continue;
			}
			const differences = reader.differences(items[0], sent.callback);
			if (differences.length) mismatches.push(`${sid}: ${differences.join(', ')}`);
			read.push({
				executionId: String(execution.id),
				sid,
				status,
				startedAt: Date.parse(execution.startedAt ?? ''),
				stoppedAt: Date.parse(execution.stoppedAt ?? ''),
			});
		}
	});
	const created = await createdTimes(instance, workflowId);
	const readBackMs = Date.now() - readStarted;

	const bySid = new Map<string, ReadBack[]>();
	for (const r of read) bySid.set(r.sid, [...(bySid.get(r.sid) ?? []), r]);
	const lost = ok.filter((s) => !bySid.has(s.callback.sid)).map((s) => s.callback.sid);
	const duplicated = [...bySid.entries()].filter(([, list]) => list.length > 1).map(([sid]) => sid);
	const ranWithoutA2xx = burst.results.filter((s) => !is2xx(s) && bySid.has(s.callback.sid)).length;

	// The instant of the last 2xx: which executions of 2xx'd callbacks had not started (or not been created) by then.
	let notStarted = 0;
	let notCreated = 0;
	let startedAfterOwnAnswer = 0;
	const answerToCreated: number[] = [];
	const answerToStart: number[] = [];
	const answerToStop: number[] = [];
	for (const s of ok) {
		const r = bySid.get(s.callback.sid)?.[0];
		const createdAt = r ? created.get(r.executionId) : undefined;
		if (!r || !(r.startedAt <= lastOkAt)) notStarted++;
		if (createdAt === undefined || !(createdAt <= lastOkAt)) notCreated++;
		if (!r) continue;
		if (createdAt !== undefined) answerToCreated.push(createdAt - s.answeredAt);
		if (Number.isFinite(r.startedAt)) {
			answerToStart.push(r.startedAt - s.answeredAt);
			if (r.startedAt > s.answeredAt) startedAfterOwnAnswer++;
		}
		if (Number.isFinite(r.stoppedAt)) answerToStop.push(r.stoppedAt - s.answeredAt);
	}
	const countsKnown = drain.samples.every((x) => Number.isFinite(x.rows) && Number.isFinite(x.notStarted ?? NaN));
	const notStartedIn = (x: Sample) => Math.max(0, x.accepted - (x.rows - (x.notStarted ?? 0)));
	const afterLast = drain.samples.find((x) => burstStartedAt + x.atMs >= lastOkAt);
	const lastStopped = read.reduce((m, r) => (Number.isFinite(r.stoppedAt) && r.stoppedAt > m ? r.stoppedAt : m), 0);
	const finished = read.filter((r) => Number.isFinite(r.stoppedAt)).length;
	const firstRequestToLastStoppedMs = lastStopped ? lastStopped - burst.startedAt : NaN;

	log(`${tag}: ${int(executions)} executions, ${lost.length} lost, ${duplicated.length} duplicated; deleting them...`);
	const deleteMs = await deleteExecutions(ctx);

	const curve = drain.samples.filter((_, i, all) => i === all.length - 1 || i % Math.max(1, Math.ceil(all.length / 12)) === 0);
	const cpuMs = before && atDrainEnd ? atDrainEnd.cpuMs - before.cpuMs : NaN;
	const figures: FloodRun = {
		target,
		run,
		position,
		requests: burst.results.length,
		answered2xx: ok.length,
		not2xx: countBy(burst.results.filter((s) => !is2xx(s)), outcome),
		answers: top(countBy(burst.results, (s) => `${outcome(s)} ${s.answer}`), 5),
		latencyMs: percentiles(burst.results.map((s) => s.latencyMs)),
		burstWallMs: round(burst.wallMs, 1),
		acceptedPerSecond: round(ok.length / (burst.wallMs / 1000), 1),
		clientCpuMs: round(burst.clientCpuMs, 0),
		delivery: {
			executions,
			pages,
			statuses,
			lost: lost.length,
			lostSample: lost.slice(0, 10),
			duplicated: duplicated.length,
			duplicatedSample: duplicated.slice(0, 10),
			unexpected,
			ranWithoutA2xx,
			notSuccessful,
			contentMismatches: mismatches.length,
			mismatchSample: mismatches.slice(0, 5),
		},
		atLast2xx: {
			notStarted,
			notCreated,
			notStartedSampled: countsKnown && afterLast ? notStartedIn(afterLast) : null,
			mostNotStartedSampled: countsKnown ? Math.max(0, ...drain.samples.map(notStartedIn)) : null,
		},
		startedAfterOwnAnswer,
		answerToCreatedMs: percentiles(answerToCreated),
		answerToStartMs: percentiles(answerToStart),
		answerToStopMs: percentiles(answerToStop),
		drain: {
			reached: drain.reached,
			lastAnswerToLastStoppedMs: lastStopped && lastOkAt ? lastStopped - lastOkAt : NaN,
			lastAnswerToAllSavedMs: drain.afterBurstMs,
		},
		firstRequestToLastStoppedMs,
		executionsPerSecond: round(finished / (firstRequestToLastStoppedMs / 1000), 1),
		n8nProcess:
			watcher && before && atDrainEnd
				? {
						rssBeforeMiB: mibOf(before.rssBytes),
						peakRssMiB: mibOf(watcher.peakRssBytes),
						peakRssGB: round(watcher.peakRssBytes / 1e9, 3),
						rssAfterMiB: mibOf(atDrainEnd.rssBytes),
						cpuMs: round(cpuMs, 0),
						cpuPercent: round((cpuMs / (drainSeenAt - burstStartedAt)) * 100, 0),
						cpuPerExecutionMs: round(cpuMs / Math.max(1, executions), 2),
						samples: watcher.samples,
						rssCurve: watcher.peaks(burstStartedAt, 12),
					}
				: null,
		n8nLog: { lines: logLines.length, warnings: warnings.length, warningSample: [...new Set(warnings)].slice(0, 5).map((line) => line.slice(0, 300)) },
		curve,
		loadAverageStart,
		loadAverageEnd,
		idleWaitMs,
		readBackMs,
		deleteMs,
	};
	// the whole run's figures, so that a long bench that breaks later still leaves them in the log
	log(`${tag}: FLOOD_JSON ${JSON.stringify({ ...figures, curve: undefined })}`);
	return figures;
}

export async function runStatusFloodBench(options: StatusFloodOptions): Promise<StatusFloodReport> {
	const started = Date.now();
	const { log } = options;
	const loadAverageStart = loadAverage();
	const runTag = Date.now().toString(36);
	let instance: N8nInstance | undefined;
	let tarball: string | undefined;
	try {
		log('status-flood: npm pack, and a fresh n8n user folder with the tarball installed...');
		const source = packageSource();
		tarball = await packPackage();
		const n8nEnv = { EXECUTIONS_DATA_PRUNE_MAX_COUNT: '0', ...options.n8nEnv };
		instance = await N8nInstance.create({ tarball, env: n8nEnv });
		// started first, so the credential and workflows go in through its API, not an n8n CLI boot each
		log('status-flood: n8n start...');
		await instance.start();
		await instance.setupOwnerAndApiKey();
		const data = sandboxCredentialData(UNUSED_ORIGIN) as Record<string, Record<string, unknown>>;
		await instance.importCredentials([{ id: 'cred-exotelApi', name: 'Exotel (not contacted)', type: 'exotelApi', data: data.exotelApi }]);
		const trigger: WorkflowNode = {
			name: TRIGGER,
			type: `${PACKAGE}.exotelMessagingTrigger`,
			typeVersion: 1,
			webhookId: TRIGGER_WEBHOOK_ID,
			parameters: { events: ['smsStatus'], statuses: [], registerWebhooks: false },
			credentials: { exotelApi: { id: 'cred-exotelApi', name: 'Exotel (not contacted)' } },
		};
		const webhook: WorkflowNode = {
			name: WEBHOOK,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			webhookId: WEBHOOK_NODE_ID,
			parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
		};
		const noOp: WorkflowNode = { name: AFTER, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
		const [triggerId, webhookId] = await instance.importWorkflows([
			makeWorkflow([noOp], { name: 'Status flood: Exotel Messaging Trigger', trigger }),
			makeWorkflow([noOp], { name: "Status flood: n8n's Webhook node", trigger: webhook }),
		]);
		await instance.publish(triggerId);
		await instance.publish(webhookId);
		const pid = instance.serverPid;
		if (pid === undefined) log('status-flood: the n8n server process was not found in /proc; CPU and RSS are not reported');
		const ctx: Ctx = {
			instance,
			workflows: {
				trigger: { id: triggerId, url: instance.webhookUrl(`${TRIGGER_WEBHOOK_ID}/webhook`) },
				webhook: { id: webhookId, url: instance.webhookUrl(WEBHOOK_PATH) },
			},
			pid,
			options,
			runTag,
		};

		log(`status-flood: warm-up, ${WARM_UP_CALLBACKS} callbacks into each workflow...`);
		await warmUp(ctx);
		await deleteExecutions(ctx);
		const setupMs = Date.now() - started;

		const runs: FloodRun[] = [];
		let position = 0;
		for (let run = 1; run <= options.runs; run++) {
			const order: FloodTarget[] = run % 2 === 1 ? ['trigger', 'webhook'] : ['webhook', 'trigger'];
			for (const target of order) runs.push(await floodOnce(ctx, target, run, ++position));
		}

		const of = (target: FloodTarget) => runs.filter((r) => r.target === target);
		const summary = Object.fromEntries(
			TARGET_NAMES.map((target) => {
				const list = of(target);
				return [
					target,
					{
						answered2xx: spread(list.map((r) => r.answered2xx)),
						executions: spread(list.map((r) => r.delivery.executions)),
						lost: list.reduce((a, r) => a + r.delivery.lost, 0),
						duplicated: list.reduce((a, r) => a + r.delivery.duplicated, 0),
						notStartedAtLast2xx: spread(list.map((r) => r.atLast2xx.notStarted)),
						peakRssGB: spread(list.map((r) => r.n8nProcess?.peakRssGB ?? NaN)),
						executionsPerSecond: spread(list.map((r) => r.executionsPerSecond)),
						cpuPerExecutionMs: spread(list.map((r) => r.n8nProcess?.cpuPerExecutionMs ?? NaN)),
						acceptedPerSecond: spread(list.map((r) => r.acceptedPerSecond)),
						burstWallMs: spread(list.map((r) => r.burstWallMs)),
						drainMs: spread(list.map((r) => r.drain.lastAnswerToLastStoppedMs)),
					},
				];
			}),
		) as StatusFloodReport['summary'];

		const broken: string[] = [];
		for (const r of runs) {
			const d = r.delivery;
			if (d.lost || d.duplicated || d.unexpected) {
				broken.push(`run ${r.run}, ${LABELS[r.target]}: ${d.lost} lost, ${d.duplicated} duplicated, ${d.unexpected} unexpected executions`);
			}
		}
		const triggerRuns = of('trigger');
		const rssKnown = triggerRuns.every((r) => r.n8nProcess);
		const report: StatusFloodReport = {
			bench: 'status-flood',
			config: {
				flood: options.flood,
				runs: options.runs,
				concurrency: options.concurrency,
				warmUpCallbacks: WARM_UP_CALLBACKS,
				n8nVersion: instance.n8n.version,
				n8nSettings:
					'n8n start, regular execution mode, SQLite, N8N_CONCURRENCY_PRODUCTION_LIMIT unset (-1: no limit), ' +
					'EXECUTIONS_DATA_SAVE_ON_SUCCESS=all (the default), EXECUTIONS_DATA_PRUNE_MAX_COUNT=0 (see the bench)' +
					(options.n8nEnv && Object.keys(options.n8nEnv).length ? `; extra env ${JSON.stringify(options.n8nEnv)}` : ''),
				packageVersion: String((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version),
				packageSource: source,
				workflows: {
					trigger: 'Exotel Messaging Trigger (events smsStatus, statuses all; credential attached, with a signing secret, never contacted) → NoOp',
					webhook: "n8n's Webhook node v2.1 (POST, Respond: Immediately) → NoOp",
				},
				order: 'odd runs: trigger then webhook; even runs: webhook then trigger; executions deleted and n8n idle before each flood',
				...machine(),
				loadAverageStart,
				loadAverageEnd: loadAverage(),
				payloadBytes: {
					min: floodCallbacks(1, runTag, 1, 'trigger')[0].body.length,
					max: statusCallback(`${runTag}w${options.runs}-${pad(options.flood - 1, 6)}`, options.flood - 1).body.length,
				},
				client:
					`this process, node:http with a keep-alive agent (maxSockets ${options.concurrency}), 127.0.0.1, no proxy; ` +
					`${options.concurrency} workers each posting its next callback when its previous one is answered`,
			},
			runs,
			summary,
			checks: {
				exactlyOnce: broken.length === 0,
				notStartedWithinTarget: triggerRuns.every((r) => r.atLast2xx.notStarted <= FLOOD_TARGETS.maxNotStartedShare * options.flood),
				memoryWithinTarget: rssKnown ? triggerRuns.every((r) => (r.n8nProcess?.peakRssGB ?? Infinity) * 1e9 <= FLOOD_TARGETS.maxPeakRssBytes) : null,
				throughputAtLeastWebhook: summary.trigger.executionsPerSecond.median >= summary.webhook.executionsPerSecond.median,
				allAnswered2xx: runs.every((r) => r.answered2xx === r.requests),
			},
			broken,
			setupMs,
			totalBenchMs: Date.now() - started,
		};
		return report;
	} finally {
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
	}
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

const s1 = (ms: number) => n(ms / 1000, 1);
const msInt = (ms: number) => (Number.isFinite(ms) ? int(Math.round(ms)) : 'n/a');
const records = (record: Record<string, number>) =>
	Object.keys(record).length === 0 ? 'none' : Object.entries(record).map(([k, v]) => `${int(v)} × ${k}`).join(', ');

export function formatStatusFloodReport(r: StatusFloodReport): string {
	const c = r.config;
	const out: string[] = [];
	const ordered = [...TARGET_NAMES.flatMap((t) => r.runs.filter((x) => x.target === t).sort((a, b) => a.run - b.run))];
	const head = ['', ...ordered.map((x) => `${x.target === 'trigger' ? 'Trigger' : 'Webhook'} #${x.run}`)];
	const row = (label: string, value: (x: FloodRun) => string) => [label, ...ordered.map(value)];
	out.push('');
	out.push(`=== Status flood bench: SMS status callbacks into the Exotel Messaging Trigger and n8n's Webhook node, side by side on one n8n ===`);
	out.push(
		`${int(c.flood)} callbacks a flood, ${c.runs} run(s) × 2 workflows, ${c.concurrency} connections, payload ${c.payloadBytes.min}-${c.payloadBytes.max} bytes; ` +
			`n8n ${c.n8nVersion}, node ${c.node}, ${c.cpus} CPU (${c.cpuModel}); package ${c.packageVersion} from ${c.packageSource}`,
	);
	out.push(`n8n: ${c.n8nSettings}`);
	out.push(`trigger: ${c.workflows.trigger}`);
	out.push(`webhook: ${c.workflows.webhook}`);
	out.push(`order: ${c.order}`);
	out.push(`client: ${c.client}`);
	out.push(`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end (client and n8n share these CPUs)`);
	out.push('');
	out.push(
		table([
			head,
			row('place in the sequence of floods', (x) => String(x.position)),
			row('answered 2xx', (x) => int(x.answered2xx)),
			row('answered otherwise / errors', (x) => int(x.requests - x.answered2xx)),
			row('executions recorded', (x) => int(x.delivery.executions)),
			row('lost (2xx, no execution)', (x) => int(x.delivery.lost)),
			row('duplicated / unexpected', (x) => `${int(x.delivery.duplicated)} / ${int(x.delivery.unexpected)}`),
			row('not started at the last 2xx (timestamps)', (x) => int(x.atLast2xx.notStarted)),
			row('  not even created then (createdAt)', (x) => int(x.atLast2xx.notCreated)),
			row('  from n8n\'s counts just after', (x) => int(x.atLast2xx.notStartedSampled)),
			row('2xx but not started, most at once (counts)', (x) => int(x.atLast2xx.mostNotStartedSampled)),
			row('started after its own 2xx', (x) => int(x.startedAfterOwnAnswer)),
			row('n8n RSS peak (GB)', (x) => (x.n8nProcess ? n(x.n8nProcess.peakRssGB, 2) : 'n/a')),
			row('n8n RSS before / after (MiB)', (x) => (x.n8nProcess ? `${int(Math.round(x.n8nProcess.rssBeforeMiB))} / ${int(Math.round(x.n8nProcess.rssAfterMiB))}` : 'n/a')),
			row('n8n CPU, burst + drain (% of a core)', (x) => (x.n8nProcess ? int(x.n8nProcess.cpuPercent) : 'n/a')),
			row('n8n CPU per execution (ms)', (x) => (x.n8nProcess ? n(x.n8nProcess.cpuPerExecutionMs, 1) : 'n/a')),
			row('executions finished / s (1st request → last stop)', (x) => n(x.executionsPerSecond)),
			row('2xx / s during the burst', (x) => n(x.acceptedPerSecond)),
			row('burst: 1st request → last answer (s)', (x) => s1(x.burstWallMs)),
			row('drain: last 2xx → last execution stopped (ms)', (x) => msInt(x.drain.lastAnswerToLastStoppedMs)),
			row('  → all seen saved by the counts (ms)', (x) => msInt(x.drain.lastAnswerToAllSavedMs)),
			row('answer latency p50 / p99 (ms)', (x) => `${int(Math.round(x.latencyMs.p50))} / ${int(Math.round(x.latencyMs.p99))}`),
			row('2xx → its execution started, p50 / max (ms)', (x) => `${int(Math.round(x.answerToStartMs.p50))} / ${int(Math.round(x.answerToStartMs.max))}`),
			row('2xx → its execution stopped, p50 / max (ms)', (x) => `${int(Math.round(x.answerToStopMs.p50))} / ${int(Math.round(x.answerToStopMs.max))}`),
			row('n8n log lines with warn/error', (x) => int(x.n8nLog.warnings)),
			row('load average (1 min) at start / end', (x) => `${n(x.loadAverageStart[0], 2)} / ${n(x.loadAverageEnd[0], 2)}`),
		]),
	);
	out.push('(2xx → started/stopped: negative means before the answer; timestamps are n8n\'s startedAt/stoppedAt/createdAt against the client\'s answer times, same clock)');
	out.push('');
	const sp = (s: { min: number; median: number; max: number }, f: (v: number) => string) => [f(s.min), f(s.median), f(s.max)];
	const T = r.summary.trigger;
	const W = r.summary.webhook;
	out.push(
		table([
			['over the runs', 'Trigger min', 'median', 'max', 'Webhook min', 'median', 'max'],
			['answered 2xx', ...sp(T.answered2xx, int), ...sp(W.answered2xx, int)],
			['executions recorded', ...sp(T.executions, int), ...sp(W.executions, int)],
			['not started at the last 2xx', ...sp(T.notStartedAtLast2xx, int), ...sp(W.notStartedAtLast2xx, int)],
			['n8n RSS peak (GB)', ...sp(T.peakRssGB, (v) => n(v, 2)), ...sp(W.peakRssGB, (v) => n(v, 2))],
			['executions finished / s', ...sp(T.executionsPerSecond, (v) => n(v)), ...sp(W.executionsPerSecond, (v) => n(v))],
			['n8n CPU per execution (ms)', ...sp(T.cpuPerExecutionMs, (v) => n(v)), ...sp(W.cpuPerExecutionMs, (v) => n(v))],
			['2xx / s during the burst', ...sp(T.acceptedPerSecond, (v) => n(v)), ...sp(W.acceptedPerSecond, (v) => n(v))],
			['burst (s)', ...sp(T.burstWallMs, s1), ...sp(W.burstWallMs, s1)],
			['drain, last 2xx → last stopped (ms)', ...sp(T.drainMs, msInt), ...sp(W.drainMs, msInt)],
		]),
	);
	out.push('');
	for (const x of r.runs) {
		const notes: string[] = [];
		if (Object.keys(x.not2xx).length) notes.push(`not 2xx: ${records(x.not2xx)}`);
		if (x.delivery.lost) notes.push(`lost: ${x.delivery.lostSample.join(', ')}…`);
		if (x.delivery.duplicated) notes.push(`duplicated: ${x.delivery.duplicatedSample.join(', ')}…`);
		if (x.delivery.ranWithoutA2xx) notes.push(`${int(x.delivery.ranWithoutA2xx)} executions of callbacks not answered 2xx`);
		if (x.delivery.notSuccessful) notes.push(`statuses ${records(x.delivery.statuses)}`);
		if (x.delivery.contentMismatches) notes.push(`${int(x.delivery.contentMismatches)} content mismatches: ${x.delivery.mismatchSample.join(' | ')}`);
		if (x.n8nLog.warningSample.length) notes.push(`n8n log: ${x.n8nLog.warningSample.join(' | ')}`);
		if (!x.drain.reached) notes.push('the drain wait gave up');
		if (x.n8nProcess?.rssCurve?.length) notes.push(`n8n RSS, highest in each twelfth of the run (MiB): ${x.n8nProcess.rssCurve.map((p) => int(Math.round(p.peakMiB))).join(' ')}`);
		out.push(
			`run ${x.run}, ${LABELS[x.target]}: answers ${records(x.answers)}; read back in ${s1(x.readBackMs)} s (${x.delivery.pages} pages), deleted in ${s1(x.deleteMs)} s` +
				(notes.length ? `\n  ${notes.join('\n  ')}` : ''),
		);
	}
	out.push('');
	const k = r.checks;
	const maxNotStarted = Math.max(...r.runs.filter((x) => x.target === 'trigger').map((x) => x.atLast2xx.notStarted));
	out.push(
		`${verdict(k.exactlyOnce)}  every callback answered 2xx has exactly one execution: lost ${int(T.lost)} (trigger) / ${int(W.lost)} (webhook), ` +
			`duplicated ${int(T.duplicated)} / ${int(W.duplicated)}`,
	);
	out.push(
		`${verdict(k.notStartedWithinTarget)}  trigger: executions not started when the last 2xx went out ≤ 1 % (${int(FLOOD_TARGETS.maxNotStartedShare * c.flood)}): ` +
			`at most ${int(maxNotStarted)}; the Webhook node: at most ${int(W.notStartedAtLast2xx.max)} (0.5.0: about 18,350 of 20,000; the Webhook node 0)`,
	);
	out.push(
		`${verdict(k.memoryWithinTarget)}  trigger: n8n memory peak ≤ 1.5 GB: at most ${n(T.peakRssGB.max, 2)} GB; the Webhook node at most ${n(W.peakRssGB.max, 2)} GB (0.5.0: 2.3-2.5 GB; the Webhook node 0.85 GB)`,
	);
	out.push(
		`${verdict(k.throughputAtLeastWebhook)}  trigger throughput ≥ the Webhook node's: median ${n(T.executionsPerSecond.median)} against ${n(W.executionsPerSecond.median)} executions finished per second ` +
			`(ratio ${n(T.executionsPerSecond.median / W.executionsPerSecond.median, 2)}); n8n CPU per execution, median ${n(T.cpuPerExecutionMs.median)} against ${n(W.cpuPerExecutionMs.median)} ms ` +
			'(executions/s follows the share of the CPUs n8n got: see the load averages)',
	);
	out.push(`${verdict(k.allAnswered2xx)}  every callback of every flood answered 2xx (reported, not a target)`);
	out.push(`set-up (pack, install, import, start, warm-up) ${s1(r.setupMs)} s; bench time ${s1(r.totalBenchMs)} s`);
	return out.join('\n');
}
