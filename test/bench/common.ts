/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- describes the machine the benches run on (os, process); never shipped */
/**
 * What the bulk benches share: the items, the targets, the workflow shapes, one measured run with
 * its pairing check, and the table formatting. Each bench supplies its nodes and its checks.
 */
import type { INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import * as os from 'node:os';

import { chain, itemsNode, runWorkflow, type HarnessCredential, type RunWorkflowOptions } from '../helpers/n8n-core-harness';
import { measure, mib, type Measurement } from './measure';
import type { SandboxProcess } from './sandbox-process';

export const MESSAGES_PER_REQUEST = 100;

export const TARGETS = {
	/** Package node requests must equal ceil(N / 100). */
	requestsPerMessage: 1 / MESSAGES_PER_REQUEST,
	/** Package node at least this many times faster (wall) than one request per item. */
	minSpeedup: 20,
	/** Package node CPU per message in this process, µs. */
	maxCpuPerMessageUs: 50,
};

export const WARM_UP_ITEMS = 500;
export const BREAKDOWN_REPEATS = 3;

export class BenchFailure extends Error {}

export interface Recipient {
	phone: string;
	name: string;
	orderId: string;
	[key: string]: string;
}

/** Distinct E.164 numbers +9198XXXXXXXX, a name and an order id per item. */
export function recipients(count: number): Recipient[] {
	return Array.from({ length: count }, (_, i) => ({
		phone: `+9198${String(i).padStart(8, '0')}`,
		name: `Customer ${i}`,
		orderId: `ORD-${String(100000 + i)}`,
	}));
}

/** Filled by a bench's parameters-only node: time inside it per parameter read. */
export interface ParameterTimings {
	plainReads: number;
	expressionReads: number;
	plainMs: number;
	expressionMs: number;
}

export type Shape = 'package' | 'baseline' | 'parametersOnly' | 'itemsOnly';

/** The nodes and checks one bench measures. */
export interface BenchSubject {
	packageNode(): INode;
	baselineNode(): INode;
	baselineType(): INodeType;
	parametersOnlyNode(): INode;
	parametersOnlyType(): INodeType;
	parameterTimings: ParameterTimings;
	/** Checks one output against the input item it is paired to (its `to` is checked before); `sends` for runs that send. */
	checkOutput(label: string, position: number, item: INodeExecutionData, input: Recipient, sends: boolean): void;
	/** After a sending run: the messages the sandbox accepted, checked against the items. */
	accepted(label: string, sandbox: SandboxProcess, inputs: Recipient[]): Promise<number>;
}

export interface RunFigures {
	label: string;
	items: number;
	sandboxLatencyMs: number;
	requests: number;
	requestPaths: Record<string, number>;
	/** Messages the sandbox accepted (0 for runs that send nothing). */
	acceptedMessages: number;
	wallMs: number;
	/** n8n's own executionTime of the measured node (ms). */
	nodeExecutionMs?: number;
	cpuTotalMs: number;
	cpuUserMs: number;
	cpuSystemMs: number;
	cpuPerMessageUs: number;
	peakRssMiB: number;
	peakRssDeltaMiB: number;
	peakHeapDeltaMiB: number;
	rssBeforeMiB: number;
	heapBeforeMiB: number;
	/** heapUsed samples (main thread) and rss samples (worker thread) */
	memorySamples: number;
	rssSamples: number;
	outputs: number;
	paired: boolean;
	/** Breakdown runs are repeated and the lowest-CPU run kept: CPU per message of every repeat. */
	cpuPerMessageUsRepeats?: number[];
	/** Parameters-only runs: time inside the node per parameter read (µs). */
	plainParameterReadUs?: number;
	expressionParameterReadUs?: number;
}

export function round(n: number, digits: number): number {
	const f = 10 ** digits;
	return Math.round(n * f) / f;
}

/** os.loadavg(), rounded; taken at a bench's start and end, as other work on the machine skews its figures. */
export const loadAverage = (): number[] => os.loadavg().map((l) => round(l, 2));

/** The Node and CPUs a bench ran on. */
export const machine = () => ({ node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown' });

function workflowOf(subject: BenchSubject, shape: Shape, inputs: Recipient[], credentials: HarnessCredential[]) {
	const items = itemsNode('Items', inputs);
	const nodeTypes: INodeType[] = [];
	let node: INode | undefined;
	if (shape === 'package') node = subject.packageNode();
	if (shape === 'baseline') {
		node = subject.baselineNode();
		nodeTypes.push(subject.baselineType());
	}
	if (shape === 'parametersOnly') {
		node = subject.parametersOnlyNode();
		nodeTypes.push(subject.parametersOnlyType());
	}
	const options: RunWorkflowOptions = {
		nodes: node ? [items, node] : [items],
		connections: node ? chain('Items', node.name) : {},
		credentials,
		nodeTypes,
	};
	return { options, node: node?.name };
}

/** Every output is paired to a distinct input item, carries its number as `to`, and passes the bench's own check. */
function checkPairing(subject: BenchSubject, label: string, out: INodeExecutionData[], inputs: Recipient[], sends: boolean) {
	if (out.length !== inputs.length) {
		throw new BenchFailure(`${label}: ${out.length} outputs for ${inputs.length} inputs`);
	}
	const seen = new Uint8Array(inputs.length);
	out.forEach((item, position) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const index = typeof paired === 'number' ? paired : paired?.item;
		if (typeof index !== 'number' || index < 0 || index >= inputs.length) {
			throw new BenchFailure(`${label}: output ${position} has no usable pairedItem (${JSON.stringify(item.pairedItem)})`);
		}
		if (seen[index]) throw new BenchFailure(`${label}: input item ${index} is paired to two outputs`);
		seen[index] = 1;
		if (item.json.error !== undefined) {
			throw new BenchFailure(`${label}: output ${position} failed: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
		if (item.json.to !== inputs[index].phone) {
			throw new BenchFailure(`${label}: output ${position} has to ${JSON.stringify(item.json.to)}, the item's number is ${inputs[index].phone}`);
		}
		subject.checkOutput(label, position, item, inputs[index], sends);
	});
}

/** One workflow run of a shape, measured in this process, its outputs and the sandbox checked. */
export async function measuredRun(
	subject: BenchSubject,
	label: string,
	shape: Shape,
	inputs: Recipient[],
	sandbox: SandboxProcess,
	credentials: HarnessCredential[],
	latencyMs: number,
): Promise<RunFigures> {
	await sandbox.reset();
	await sandbox.setLatency(latencyMs);
	const { options, node } = workflowOf(subject, shape, inputs, credentials);
	let measurement: Measurement<Awaited<ReturnType<typeof runWorkflow>>> | undefined = await measure(() => runWorkflow(options));
	const result = measurement.value;
	if (result.error) throw new BenchFailure(`${label}: the workflow failed: ${result.error.message} ${result.error.description ?? ''}`);

	const sends = shape === 'package' || shape === 'baseline';
	let outputs = inputs.length;
	let nodeExecutionMs: number | undefined;
	if (node) {
		const out = result.output(node);
		outputs = out.length;
		checkPairing(subject, label, out, inputs, sends);
		nodeExecutionMs = result.runData[node]?.[0]?.executionTime;
	}

	const log = await sandbox.requests();
	const requestPaths: Record<string, number> = {};
	for (const record of log) requestPaths[`${record.method} ${record.path}`] = (requestPaths[`${record.method} ${record.path}`] ?? 0) + 1;

	const m = measurement;
	const figures: RunFigures = {
		label,
		items: inputs.length,
		sandboxLatencyMs: latencyMs,
		requests: log.length,
		requestPaths,
		acceptedMessages: 0,
		wallMs: round(m.wallMs, 1),
		nodeExecutionMs,
		cpuTotalMs: round(m.cpuTotalUs / 1000, 1),
		cpuUserMs: round(m.cpuUserUs / 1000, 1),
		cpuSystemMs: round(m.cpuSystemUs / 1000, 1),
		cpuPerMessageUs: round(m.cpuTotalUs / inputs.length, 2),
		peakRssMiB: round(mib(m.peakRssBytes), 1),
		peakRssDeltaMiB: round(mib(m.peakRssDeltaBytes), 1),
		peakHeapDeltaMiB: round(mib(m.peakHeapDeltaBytes), 1),
		rssBeforeMiB: round(mib(m.rssBeforeBytes), 1),
		heapBeforeMiB: round(mib(m.heapBeforeBytes), 1),
		memorySamples: m.samples,
		rssSamples: m.rssSamples,
		outputs,
		paired: node !== undefined,
	};
	if (shape === 'parametersOnly') {
		const t = subject.parameterTimings;
		figures.plainParameterReadUs = round((t.plainMs * 1000) / t.plainReads, 2);
		figures.expressionParameterReadUs = round((t.expressionMs * 1000) / t.expressionReads, 2);
	}
	measurement = undefined; // the run's data goes before the next GC baseline
	if (sends) figures.acceptedMessages = await subject.accepted(label, sandbox, inputs);
	return figures;
}

/** CPU per message split into the engine, n8n's parameter reading, and the node's own work. */
export interface Breakdown {
	itemsOnly: RunFigures;
	parametersOnly: RunFigures;
	packageLatency0: RunFigures;
	/** µs per message */
	engineAndItemsNodeUs: number;
	parameterReadingUs: number;
	sendOperationAndHttpUs: number;
	/** inside the parameters-only node: one parameter read of a plain value / of an expression */
	plainParameterReadUs: number;
	expressionParameterReadUs: number;
}

interface BenchRun {
	subject: BenchSubject;
	tag: string;
	inputs: Recipient[];
	sandbox: SandboxProcess;
	credentials: HarnessCredential[];
	log: (line: string) => void;
}

/** Loads the package from its sources, n8n-core's lazy modules and the JIT; not measured. */
export async function warmUp(run: BenchRun, skipBaseline: boolean): Promise<void> {
	run.log(`${run.tag}: warm-up (${WARM_UP_ITEMS} items each shape, latency 0)...`);
	const warm = run.inputs.slice(0, Math.min(WARM_UP_ITEMS, run.inputs.length));
	for (const shape of ['itemsOnly', 'parametersOnly', 'package', 'baseline'] as Shape[]) {
		if (shape === 'baseline' && skipBaseline) continue;
		await measuredRun(run.subject, `warm-up ${shape}`, shape, warm, run.sandbox, run.credentials, 0);
	}
}

/** The CPU breakdown at latency 0; each shape repeated and the lowest-CPU run kept (shared machines are noisy). */
export async function cpuBreakdown(run: BenchRun): Promise<Breakdown> {
	run.log(`${run.tag}: CPU breakdown runs at latency 0 (items only, parameters only, package node; ${BREAKDOWN_REPEATS} each)...`);
	const best = async (label: string, shape: Shape) => {
		const runs: RunFigures[] = [];
		for (let i = 0; i < BREAKDOWN_REPEATS; i++) {
			runs.push(await measuredRun(run.subject, label, shape, run.inputs, run.sandbox, run.credentials, 0));
		}
		const kept = runs.reduce((a, b) => (b.cpuPerMessageUs < a.cpuPerMessageUs ? b : a));
		return { ...kept, cpuPerMessageUsRepeats: runs.map((r) => r.cpuPerMessageUs) };
	};
	const itemsOnly = await best('items node only', 'itemsOnly');
	const parametersOnly = await best('parameters only', 'parametersOnly');
	const packageLatency0 = await best('package node, latency 0', 'package');
	return {
		itemsOnly,
		parametersOnly,
		packageLatency0,
		engineAndItemsNodeUs: itemsOnly.cpuPerMessageUs,
		parameterReadingUs: round(parametersOnly.cpuPerMessageUs - itemsOnly.cpuPerMessageUs, 2),
		sendOperationAndHttpUs: round(packageLatency0.cpuPerMessageUs - parametersOnly.cpuPerMessageUs, 2),
		plainParameterReadUs: parametersOnly.plainParameterReadUs ?? NaN,
		expressionParameterReadUs: parametersOnly.expressionParameterReadUs ?? NaN,
	};
}

export function table(rows: string[][]): string {
	const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
	const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
	const rule = widths.map((w) => '-'.repeat(w)).join('  ');
	return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

export const n = (value: number | undefined | null, digits = 1) =>
	value === undefined || value === null ? 'n/a' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const int = (value: number | undefined | null) => (value === undefined || value === null ? 'n/a' : value.toLocaleString('en-US'));
export const verdict = (pass: boolean | null) => (pass === null ? 'SKIPPED' : pass ? 'PASS' : 'FAIL');
