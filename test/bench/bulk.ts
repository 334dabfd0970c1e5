/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- times the bulk benches and checks for an exposed gc (perf_hooks, globalThis); never shipped */
/**
 * What the bulk benches (sms-bulk.bench.ts, rcs-bulk.bench.ts) share beyond one measured run
 * (common.ts): the whole bench (the sandbox in a child process, the warm-up, the package node run,
 * the CPU breakdown, the one-request-per-item baseline, maybe over fewer items), the ratios and
 * targets of the report, and the parts of the printed report; and the frame of the nodes a bench
 * measures. Each bench states its nodes' parameters and reads, its checks, its report's fields and
 * what its report says of its channel.
 */
import type { IExecuteFunctions, INode, INodeExecutionData, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';

import { parameterReader, type ParameterReader } from '../../nodes/shared/items/parameters';
import { packageNodeType, packageNodeTypes } from '../helpers/n8n-core-harness';
import { BREAKDOWN_REPEATS, cpuBreakdown, int, loadAverage, machine, measuredRun, MESSAGES_PER_REQUEST, n, recipients, round, table, TARGETS, verdict, WARM_UP_ITEMS, warmUp, type BenchSubject, type Breakdown, type ParameterTimings, type RunFigures } from './common';
import { SandboxProcess } from './sandbox-process';

export interface BulkOptions {
	items: number;
	/** Sandbox latency for the package node run. */
	latencyMs: number;
	/** Sandbox latency for the baseline run (defaults to latencyMs). */
	baselineLatencyMs: number;
	skipBaseline: boolean;
	skipBreakdown: boolean;
	log: (line: string) => void;
}

/** Where and how a bulk bench measured: the part of its report's config every bulk bench has. */
export interface BulkSetting {
	node: string;
	cpus: number;
	cpuModel: string;
	/** os.loadavg() at the start and at the end: other work on the machine skews wall and CPU figures */
	loadAverageStart: number[];
	loadAverageEnd: number[];
	gcExposed: boolean;
	sandbox: string;
	warmUpItems: number;
	memorySampleIntervalMs: number;
	memoryNote: string;
	cpuNote: string;
}

export interface BulkConfig extends BulkSetting {
	items: number;
	latencyMs: number;
	baselineLatencyMs: number | null;
}

export interface BulkRatios {
	wallSpeedup: number | null;
	/** baseline wall re-scaled to the package's latency when they differ (baseline + N × Δlatency) */
	wallSpeedupEstimatedAtSameLatency: number | null;
	requestsRatio: number | null;
}

export interface BulkTargets {
	requests: { expected: number; actual: number; pass: boolean };
	/** `extrapolated`: the baseline ran over fewer items and its wall time was scaled to all of them. */
	speedup: { min: number; actual: number | null; likeForLike: boolean; extrapolated?: boolean; pass: boolean | null };
	cpuPerMessage: { maxUs: number; actualUs: number; pass: boolean };
}

/** What every bulk bench's report holds. */
export interface BulkReport {
	config: BulkConfig;
	package: RunFigures;
	baseline: RunFigures | null;
	breakdown: Breakdown | null;
	ratios: BulkRatios;
	targets: BulkTargets;
	totalBenchMs: number;
}

/** What the runs of one bulk bench measured. */
export interface BulkRuns {
	items: number;
	/** The items the baseline ran over (the first ones). */
	baselineItems: number;
	package: RunFigures;
	baseline: RunFigures | null;
	breakdown: Breakdown | null;
	setting: BulkSetting;
	/** From the start until the runs ended (the sandbox not yet stopped). */
	elapsedMs: number;
}

// ---------------------------------------------------------------------------------------------
// The nodes
// ---------------------------------------------------------------------------------------------

/** The package's Exotel Messaging node, after the items node, with the operation's `parameters`. */
export function packageMessagingNode(id: string, parameters: INodeParameters): INode {
	return {
		id,
		name: 'Exotel',
		type: packageNodeType('exotelMessaging'),
		typeVersion: 1,
		position: [200, 0],
		parameters,
	};
}

/** The description of a one-request-per-item baseline: its names and properties are the bench's, the rest alike. */
export function onePerItemDescription(d: Pick<INodeTypeDescription, 'displayName' | 'name' | 'description' | 'properties'>): INodeTypeDescription {
	return {
		displayName: d.displayName,
		name: d.name,
		group: ['output'],
		version: 1,
		description: d.description,
		defaults: { name: 'One per item' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelApi', required: true }],
		properties: d.properties,
	};
}

/** The baseline node (of node type `type`), after the items node. */
export function onePerItemNode(id: string, type: string, parameters: INodeParameters): INode {
	return {
		id,
		name: 'One per item',
		type,
		typeVersion: 1,
		position: [200, 0],
		parameters,
	};
}

/** What a bench's parameters-only node reads per item, through the package's parameterReader. */
export interface ParameterReads {
	/** Node id, node type name and its display name. */
	id: string;
	name: string;
	displayName: string;
	/** Reads of plain values per item, and the loop that reads them over `count` items. */
	plainReads: number;
	readPlain(read: ParameterReader, count: number): void;
	/** Reads of expressions per item, and the loop that reads them, returning each item's `{ to }`. */
	expressionReads: number;
	readExpressions(read: ParameterReader, count: number): INodeExecutionData[];
}

/**
 * For the CPU breakdown: a node with the package node's description (so n8n-core's parameter
 * resolution and schema validation see the same properties) and the package node's parameters,
 * whose execute only reads what the bench's operation reads per item and sends nothing: the plain
 * values first, then the expressions, timed apart (wall time inside the node, a synchronous loop,
 * so close to its CPU time).
 */
export function parametersOnly(
	packageNode: () => INode,
	reads: ParameterReads,
): Pick<BenchSubject, 'parametersOnlyNode' | 'parametersOnlyType' | 'parameterTimings'> {
	const parameterTimings: ParameterTimings = { plainReads: 0, expressionReads: 0, plainMs: 0, expressionMs: 0 };
	return {
		parametersOnlyNode: () => ({ ...packageNode(), id: reads.id, name: 'Parameters only', type: reads.name }),
		parametersOnlyType(): INodeType {
			const packageType = packageNodeTypes().getByNameAndVersion(packageNodeType('exotelMessaging'), 1);
			return {
				description: { ...packageType.description, name: reads.name, displayName: reads.displayName },
				async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
					const items = this.getInputData();
					const read = parameterReader(this);
					const t0 = performance.now();
					reads.readPlain(read, items.length);
					const t1 = performance.now();
					const out = reads.readExpressions(read, items.length);
					const t2 = performance.now();
					Object.assign(parameterTimings, {
						plainReads: reads.plainReads * items.length,
						expressionReads: reads.expressionReads * items.length,
						plainMs: t1 - t0,
						expressionMs: t2 - t1,
					});
					return [out];
				},
			};
		},
		parameterTimings,
	};
}

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

/**
 * Runs one bulk bench on `options.items` items: the sandbox in a child process at the package's
 * latency, the warm-up, the package node, the CPU breakdown (unless skipped), then the baseline
 * (unless skipped) over all items, or over the first `baselineItems` when given.
 */
export async function runBulkBench(tag: string, subject: BenchSubject, options: BulkOptions, baselineItems?: number): Promise<BulkRuns> {
	const started = Date.now();
	const { log } = options;
	const N = options.items;
	const inputs = recipients(N);
	const baselineN = baselineItems === undefined ? N : Math.min(Math.max(1, baselineItems), N);
	const gcExposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
	const loadAverageStart = loadAverage();

	log(`${tag}: starting the sandbox in a child process (latency ${options.latencyMs} ms)...`);
	const sandbox = await SandboxProcess.start({ latencyMs: options.latencyMs });
	try {
		const credentials = sandbox.credentials();

		const run = { subject, tag, inputs, sandbox, credentials, log };
		await warmUp(run, options.skipBaseline);

		log(`${tag}: package node, ${N} items, latency ${options.latencyMs} ms...`);
		const pkg = await measuredRun(subject, 'package node (bulk)', 'package', inputs, sandbox, credentials, options.latencyMs);

		let breakdown: Breakdown | null = null;
		if (!options.skipBreakdown) breakdown = await cpuBreakdown(run);

		let baseline: RunFigures | null = null;
		if (!options.skipBaseline) {
			const estimate = (baselineN * (options.baselineLatencyMs + 1.5)) / 1000;
			const items = baselineItems === undefined ? `${N} items` : `${baselineN} of ${N} items`;
			log(`${tag}: baseline, one request per item, ${items}, latency ${options.baselineLatencyMs} ms (about ${Math.round(estimate)} s)...`);
			baseline = await measuredRun(subject, 'one request per item', 'baseline', inputs.slice(0, baselineN), sandbox, credentials, options.baselineLatencyMs);
		}

		return {
			items: N,
			baselineItems: baselineN,
			package: pkg,
			baseline,
			breakdown,
			setting: {
				...machine(),
				loadAverageStart,
				loadAverageEnd: loadAverage(),
				gcExposed,
				sandbox: `child process pid ${sandbox.pid} at ${sandbox.origin}`,
				warmUpItems: Math.min(WARM_UP_ITEMS, N),
				memorySampleIntervalMs: 10,
				memoryNote:
					'rss sampled from a worker thread (also during synchronous stretches), heapUsed from the main thread between event-loop turns and at the end; deltas from the figures after a full GC before the run',
				cpuNote:
					"CPU is this process's process.cpuUsage() (user+system) around runWorkflow: n8n-core's engine, parameter and expression evaluation, the node, the HTTP client; not the sandbox (child process)",
			},
			elapsedMs: Date.now() - started,
		};
	} finally {
		await sandbox.stop();
	}
}

/**
 * The wall-time speedup against the baseline's wall time at all items (`baselineWallMs`: measured,
 * or extrapolated from fewer items; null without a baseline), also estimated at the same latency.
 */
export function wallSpeedups(runs: BulkRuns, options: BulkOptions, baselineWallMs: number | null) {
	const likeForLike = runs.baseline !== null && options.baselineLatencyMs === options.latencyMs;
	const wallSpeedup = baselineWallMs !== null ? round(baselineWallMs / runs.package.wallMs, 2) : null;
	const estimatedBaselineWall = baselineWallMs !== null ? baselineWallMs + runs.items * (options.latencyMs - options.baselineLatencyMs) : null;
	return {
		likeForLike,
		wallSpeedup,
		wallSpeedupEstimatedAtSameLatency: estimatedBaselineWall !== null && !likeForLike ? round(estimatedBaselineWall / runs.package.wallMs, 2) : wallSpeedup,
	};
}

/** The package node's figures against TARGETS; `extrapolated` is reported when given. */
export function bulkTargets(runs: BulkRuns, wallSpeedup: number | null, likeForLike: boolean, extrapolated?: boolean): BulkTargets {
	const pkg = runs.package;
	const expectedRequests = Math.ceil(runs.items / MESSAGES_PER_REQUEST);
	return {
		requests: { expected: expectedRequests, actual: pkg.requests, pass: pkg.requests === expectedRequests },
		speedup: {
			min: TARGETS.minSpeedup,
			actual: wallSpeedup,
			likeForLike,
			...(extrapolated === undefined ? {} : { extrapolated }),
			pass: wallSpeedup === null ? null : wallSpeedup >= TARGETS.minSpeedup,
		},
		cpuPerMessage: {
			maxUs: TARGETS.maxCpuPerMessageUs,
			actualUs: pkg.cpuPerMessageUs,
			pass: pkg.cpuPerMessageUs < TARGETS.maxCpuPerMessageUs,
		},
	};
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

/** The runs measured: the package node's, and the baseline's when it ran. */
export const runsOf = (r: BulkReport): RunFigures[] => [r.package, ...(r.baseline ? [r.baseline] : [])];

/**
 * The report's opening: its title, the setting line (`itemsText`, latencies, machine), the lines
 * the bench adds about its subject, the load, sandbox, memory and CPU notes, the bench's own notes.
 */
export function settingLines(c: BulkConfig, title: string, itemsText: string, subjectLines: string[] = [], notes: string[] = []): string[] {
	return [
		'',
		title,
		`${itemsText}, sandbox latency ${c.latencyMs} ms (baseline ${c.baselineLatencyMs === null ? 'skipped' : `${c.baselineLatencyMs} ms`}), ` +
			`node ${c.node}, ${c.cpus} CPU (${c.cpuModel}), gc ${c.gcExposed ? 'exposed (GC before each run)' : 'NOT exposed'}`,
		...subjectLines,
		`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end`,
		`sandbox: ${c.sandbox}; warm-up ${c.warmUpItems} items per shape before measuring`,
		`memory: every ${c.memorySampleIntervalMs} ms, ${c.memoryNote}.`,
		`CPU: ${c.cpuNote}.`,
		...notes,
	];
}

/** A row of the runs table: its label, a run's cell, and the cell of the extrapolated column ('-' when not given). */
export type RunRow = [label: string, cell: (f: RunFigures) => string, extrapolated?: string];

/** The rows both benches show alike (the extrapolated cell, where there is one, is the bench's). */
export const RUN_ROWS = {
	items: ['items', (f) => int(f.items)],
	latency: ['sandbox latency (ms)', (f) => int(f.sandboxLatencyMs)],
	requests: ['requests made (sandbox log)', (f) => int(f.requests)],
	wall: ['wall time (ms)', (f) => n(f.wallMs)],
	nodeExecution: ['  node executionTime (n8n, ms)', (f) => int(f.nodeExecutionMs)],
	cpu: ['CPU this process (ms, user+sys)', (f) => `${n(f.cpuTotalMs)} (${n(f.cpuUserMs)}+${n(f.cpuSystemMs)})`],
	cpuPerMessage: ['CPU per message (µs)', (f) => n(f.cpuPerMessageUs, 2)],
	peakRss: ['peak rss (MiB)', (f) => n(f.peakRssMiB)],
	peakRssDelta: ['peak rss delta (MiB)', (f) => n(f.peakRssDeltaMiB)],
	peakHeapDelta: ['peak heapUsed delta (MiB)', (f) => n(f.peakHeapDeltaMiB)],
	outputs: ['outputs', (f) => int(f.outputs)],
} satisfies Record<string, [string, (f: RunFigures) => string]>;

/** Whether a run's outputs were checked against the items they are paired to. */
export const pairedCell = (f: RunFigures) => (f.paired ? 'yes' : 'n/a');

/**
 * The table of the runs (a column each, and one more headed `extrapolatedHeader` when given),
 * then the requests each run made.
 */
export function runsLines(runs: RunFigures[], rows: RunRow[], extrapolatedHeader?: string): string[] {
	const extra = (cell: string) => (extrapolatedHeader === undefined ? [] : [cell]);
	return [
		'',
		table([
			['', ...runs.map((f) => f.label), ...extra(extrapolatedHeader ?? '')],
			...rows.map(([label, cell, extrapolated]) => [label, ...runs.map(cell), ...extra(extrapolated ?? '-')]),
		]),
		...runs.map((f) => `requests of "${f.label}": ${Object.entries(f.requestPaths).map(([p, k]) => `${k} × ${p}`).join(', ')}`),
	];
}

/** How the breakdown names what the bench's node reads and sends. */
export interface BreakdownText {
	/** Which items the breakdown ran over, e.g. `same items`. */
	items: string;
	parametersRun: string;
	packageRun: string;
	/** The sentence on one parameter read, given the µs of an expression read and of a plain one. */
	perRead: (expressionUs: string, plainUs: string) => string;
}

/** The CPU breakdown (nothing when it was skipped). */
export function breakdownLines(b: Breakdown | null, text: BreakdownText): string[] {
	if (!b) return [];
	const repeats = (f: RunFigures) => (f.cpuPerMessageUsRepeats ?? []).map((v) => n(v, 1)).join(' / ');
	return [
		'',
		`CPU per message, breakdown (sandbox latency 0, ${text.items}; each run ${BREAKDOWN_REPEATS}×, lowest CPU kept):`,
		table([
			['run', 'CPU/msg (µs)', 'wall (ms)', 'repeats (µs)'],
			['items node only (engine + test.items)', n(b.itemsOnly.cpuPerMessageUs, 2), n(b.itemsOnly.wallMs), repeats(b.itemsOnly)],
			[text.parametersRun, n(b.parametersOnly.cpuPerMessageUs, 2), n(b.parametersOnly.wallMs), repeats(b.parametersOnly)],
			[text.packageRun, n(b.packageLatency0.cpuPerMessageUs, 2), n(b.packageLatency0.wallMs), repeats(b.packageLatency0)],
		]),
		`  => engine + items node ${n(b.engineAndItemsNodeUs, 2)} µs, parameter reading ${n(b.parameterReadingUs, 2)} µs, ` +
			`send operation + HTTP ${n(b.sendOperationAndHttpUs, 2)} µs per message`,
		`  => ${text.perRead(n(b.expressionParameterReadUs, 2), n(b.plainParameterReadUs, 2))}`,
	];
}

/**
 * The wall-time speedup (`speedupTag` after it, e.g. that it was extrapolated) and the requests
 * ratio (`requestsTag` after it), then the bench's own ratio lines.
 */
export function ratioLines(r: BulkReport, tags: { speedupTag?: string; requestsTag?: string } = {}, more: string[] = []): string[] {
	const c = r.config;
	const sameLatency = r.targets.speedup.likeForLike;
	return [
		'',
		`wall-time speedup: ${r.ratios.wallSpeedup === null ? 'n/a (baseline skipped)' : `${n(r.ratios.wallSpeedup, 2)}×`}${tags.speedupTag ?? ''}` +
			(r.baseline && !sameLatency
				? ` (NOT like for like: baseline at ${c.baselineLatencyMs} ms, package at ${c.latencyMs} ms; estimated at the same latency ${n(r.ratios.wallSpeedupEstimatedAtSameLatency, 2)}×)`
				: ''),
		`requests ratio (baseline / package): ${r.ratios.requestsRatio === null ? 'n/a' : `${n(r.ratios.requestsRatio, 2)}×`}${tags.requestsTag ?? ''}`,
		...more,
	];
}

/** PASS / FAIL / SKIPPED per target, and the bench's duration. */
export function targetLines(r: BulkReport): string[] {
	const t = r.targets;
	const sameLatency = t.speedup.likeForLike;
	return [
		'',
		`${verdict(t.requests.pass)}  requests == ceil(N/100): ${t.requests.actual} made, ${t.requests.expected} expected`,
		`${verdict(t.speedup.pass)}  at least ${t.speedup.min}× faster than one request per item: ${t.speedup.actual === null ? 'baseline skipped' : `${n(t.speedup.actual, 2)}×`}` +
			(t.speedup.extrapolated ? ' (baseline wall extrapolated)' : '') +
			(t.speedup.actual !== null && !sameLatency ? ' (different latencies, see above)' : ''),
		`${verdict(t.cpuPerMessage.pass)}  under ${t.cpuPerMessage.maxUs} µs node CPU per message: ${n(t.cpuPerMessage.actualUs, 2)} µs (includes n8n-core parameter/expression work)`,
		`bench time ${n(r.totalBenchMs / 1000, 1)} s`,
	];
}
