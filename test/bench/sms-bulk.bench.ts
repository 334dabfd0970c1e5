/**
 * SMS bulk bench: Exotel Messaging → SMS → Send over N personalised items (dynamic bulk, 100
 * messages a request, 6 requests in flight) against a one-request-per-item baseline written the
 * way the SMS nodes that ship with n8n are (Twilio / Vonage: a loop over the items, one awaited
 * HTTP request each), both through n8n-core's real WorkflowExecute and the package's shared
 * transport `exotelRequest`, against the Exotel sandbox running in a child process with a fixed
 * simulated latency.
 *
 * Measured per run in this process: requests made (the sandbox's request log, control API), wall
 * time, CPU time per message (`process.cpuUsage()` around `runWorkflow`, divided by N; this
 * includes n8n-core's engine, parameter and expression work and the HTTP client, not the
 * sandbox), peak rss and peak heapUsed over the pre-run (post-GC) figure, output count and
 * pairing (every output's `to` is the number of the input item it is paired to).
 *
 * A CPU breakdown runs the same workflows with the sandbox at 0 ms latency: the items node
 * alone, a node with the package node's description that only reads the parameters the SMS send
 * operation reads (n8n-core's parameter and expression cost), and the package node itself.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';

import { parameterReader } from '../../nodes/shared/operation';
import { exotelRequest } from '../../nodes/shared/transport';
import { packageNodeType, packageNodeTypes } from '../helpers/n8n-core-harness';
import {
	BenchFailure,
	BREAKDOWN_REPEATS,
	cpuBreakdown,
	int,
	measuredRun,
	MESSAGES_PER_REQUEST,
	n,
	recipients,
	round,
	table,
	TARGETS,
	verdict,
	warmUp,
	WARM_UP_ITEMS,
	type Breakdown,
	type BenchSubject,
	type ParameterTimings,
	type Recipient,
	type RunFigures,
} from './common';
import { SandboxProcess } from './sandbox-process';

export interface SmsBulkOptions {
	items: number;
	/** Sandbox latency for the package node run. */
	latencyMs: number;
	/** Sandbox latency for the baseline run (defaults to latencyMs). */
	baselineLatencyMs: number;
	skipBaseline: boolean;
	skipBreakdown: boolean;
	log: (line: string) => void;
}

const SEND_PARAMETERS = {
	from: 'EXOTEL',
	to: '={{ $json.phone }}',
	body: '=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped',
};

const expectedBody = (r: Recipient) => `Hi ${r.name}, order ${r.orderId} has shipped`;

function packageSmsNode(): INode {
	return {
		id: 'bench-exotel',
		name: 'Exotel',
		type: packageNodeType('exotelMessaging'),
		typeVersion: 1,
		position: [200, 0],
		parameters: { resource: 'sms', operation: 'send', ...SEND_PARAMETERS } as INodeParameters,
	};
}

/**
 * The baseline: one request per item, awaited in turn, as n8n's Twilio and Vonage nodes do; same
 * parameters read with getNodeParameter, same shared transport, the single-message endpoint.
 */
export class OnePerItemSms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bench: SMS One Request per Item',
		name: 'benchOnePerItemSms',
		group: ['output'],
		version: 1,
		description: 'Sends each item as its own request (bench baseline)',
		defaults: { name: 'One per item' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelApi', required: true }],
		properties: [
			{ displayName: 'From', name: 'from', type: 'string', default: '' },
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const from = this.getNodeParameter('from', i) as string;
			const to = this.getNodeParameter('to', i) as string;
			const body = this.getNodeParameter('body', i) as string;
			const response = await exotelRequest.call(this, {
				base: 'base',
				method: 'POST',
				path: '/v1/Accounts/{accountSid}/Sms/send',
				form: { From: from, To: to, Body: body },
				itemIndex: i,
			});
			// The service answers one SMSMessage (the sandbox: a list of one, as for static bulk).
			const answer = Array.isArray(response.body) ? (response.body[0] as IDataObject) : (response.body as IDataObject);
			const message = (answer?.SMSMessage ?? answer) as IDataObject;
			// The same item the package node gives (its message keys, the SMSMessage under raw), so the
			// two outputs are alike.
			const status = String(message?.Status ?? '').toLowerCase();
			out.push({
				json: {
					messageSid: (message?.Sid as string) ?? null,
					status: status.startsWith('fail') ? 'failed' : status || null,
					channel: 'sms',
					to: (message?.To as string) ?? null,
					from,
					code: (message?.DetailedStatusCode as number) ?? null,
					raw: message,
				},
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

function onePerItemNode(): INode {
	return {
		id: 'bench-one-per-item',
		name: 'One per item',
		type: 'benchOnePerItemSms',
		typeVersion: 1,
		position: [200, 0],
		parameters: { ...SEND_PARAMETERS },
	};
}

/**
 * For the CPU breakdown: the package node's description (so n8n-core's parameter resolution and
 * schema validation see the same properties), an execute that only reads what the SMS send
 * operation reads per item (from, to, body, additionalFields twice, statusCallback), through the
 * package's parameterReader, and sends nothing.
 */
/** Wall time inside the parameters-only node (a synchronous loop, so close to its CPU time). */
const parameterTimings: ParameterTimings = { plainReads: 0, expressionReads: 0, plainMs: 0, expressionMs: 0 };

function parametersOnlyNodeType(): INodeType {
	const packageType = packageNodeTypes().getByNameAndVersion(packageNodeType('exotelMessaging'), 1);
	return {
		description: { ...packageType.description, name: 'benchParametersOnly', displayName: 'Bench: Parameters Only' },
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			const out: INodeExecutionData[] = [];
			// The plain values first (from, additionalFields twice, statusCallback), then the two
			// expressions (to, body), timed apart.
			// Through the package's own reader: plain values once, simple $json templates from the item.
			const read = parameterReader(this);
			const t0 = performance.now();
			for (let i = 0; i < items.length; i++) {
				String(read('from', i, ''));
				read('additionalFields', i, {});
				read('additionalFields', i, {});
				read('statusCallback', i, '');
			}
			const t1 = performance.now();
			for (let i = 0; i < items.length; i++) {
				const to = String(read('to', i, ''));
				String(read('body', i, ''));
				out.push({ json: { to }, pairedItem: { item: i } });
			}
			const t2 = performance.now();
			Object.assign(parameterTimings, {
				plainReads: 4 * items.length,
				expressionReads: 2 * items.length,
				plainMs: t1 - t0,
				expressionMs: t2 - t1,
			});
			return [out];
		},
	};
}

function parametersOnlyNode(): INode {
	return { ...packageSmsNode(), id: 'bench-parameters-only', name: 'Parameters only', type: 'benchParametersOnly' };
}

/** What the shared measured run needs to know of the SMS bench. */
const SMS: BenchSubject = {
	packageNode: packageSmsNode,
	baselineNode: onePerItemNode,
	baselineType: () => new OnePerItemSms(),
	parametersOnlyNode,
	parametersOnlyType: parametersOnlyNodeType,
	parameterTimings,
	checkOutput(label, position, item, input, sends) {
		if (item.json.to !== input.phone) {
			throw new BenchFailure(`${label}: output ${position} has to ${JSON.stringify(item.json.to)}, the item's number is ${input.phone}`);
		}
		if (item.json.status === 'failed') {
			throw new BenchFailure(`${label}: output ${position} failed: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
		if (sends) {
			const raw = (item.json.raw ?? {}) as IDataObject;
			if (item.json.channel !== 'sms' || typeof item.json.messageSid !== 'string' || item.json.messageSid !== raw.Sid) {
				throw new BenchFailure(`${label}: output ${position} is not a sent SMS in the message keys: ${JSON.stringify(item.json).slice(0, 300)}`);
			}
			if (raw.Body !== expectedBody(input)) {
				throw new BenchFailure(`${label}: output ${position} has raw.Body ${JSON.stringify(raw.Body)}, expected ${JSON.stringify(expectedBody(input))}`);
			}
		}
	},
	async accepted(label, sandbox, inputs) {
		const { messages } = await sandbox.health();
		if (messages !== inputs.length) throw new BenchFailure(`${label}: the sandbox accepted ${messages} messages for ${inputs.length} items`);
		return messages;
	},
};

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

export interface SmsBulkReport {
	bench: 'sms-bulk';
	config: {
		items: number;
		latencyMs: number;
		baselineLatencyMs: number | null;
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
	};
	package: RunFigures;
	baseline: RunFigures | null;
	breakdown: Breakdown | null;
	ratios: {
		wallSpeedup: number | null;
		/** baseline wall re-scaled to the package's latency when they differ (baseline + N × Δlatency) */
		wallSpeedupEstimatedAtSameLatency: number | null;
		requestsRatio: number | null;
	};
	targets: {
		requests: { expected: number; actual: number; pass: boolean };
		speedup: { min: number; actual: number | null; likeForLike: boolean; pass: boolean | null };
		cpuPerMessage: { maxUs: number; actualUs: number; pass: boolean };
	};
	totalBenchMs: number;
}


export async function runSmsBulkBench(options: SmsBulkOptions): Promise<SmsBulkReport> {
	const started = Date.now();
	const { log } = options;
	const N = options.items;
	const inputs = recipients(N);
	const gcExposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
	const loadAverageStart = os.loadavg().map((l) => round(l, 2));

	log(`sms-bulk: starting the sandbox in a child process (latency ${options.latencyMs} ms)...`);
	const sandbox = await SandboxProcess.start({ latencyMs: options.latencyMs });
	try {
		const credentials = sandbox.credentials();

		const run = { subject: SMS, tag: 'sms-bulk', inputs, sandbox, credentials, log };
		await warmUp(run, options.skipBaseline);

		log(`sms-bulk: package node, ${N} items, latency ${options.latencyMs} ms...`);
		const pkg = await measuredRun(SMS, 'package node (bulk)', 'package', inputs, sandbox, credentials, options.latencyMs);

		let breakdown: SmsBulkReport['breakdown'] = null;
		if (!options.skipBreakdown) breakdown = await cpuBreakdown(run);

		let baseline: RunFigures | null = null;
		if (!options.skipBaseline) {
			const estimate = (N * (options.baselineLatencyMs + 1.5)) / 1000;
			log(`sms-bulk: baseline, one request per item, ${N} items, latency ${options.baselineLatencyMs} ms (about ${Math.round(estimate)} s)...`);
			baseline = await measuredRun(SMS, 'one request per item', 'baseline', inputs, sandbox, credentials, options.baselineLatencyMs);
		}

		const likeForLike = baseline !== null && options.baselineLatencyMs === options.latencyMs;
		const wallSpeedup = baseline ? round(baseline.wallMs / pkg.wallMs, 2) : null;
		const estimatedBaselineWall = baseline ? baseline.wallMs + N * (options.latencyMs - options.baselineLatencyMs) : null;
		const expectedRequests = Math.ceil(N / MESSAGES_PER_REQUEST);
		const report: SmsBulkReport = {
			bench: 'sms-bulk',
			config: {
				items: N,
				latencyMs: options.latencyMs,
				baselineLatencyMs: options.skipBaseline ? null : options.baselineLatencyMs,
				node: process.version,
				cpus: os.cpus().length,
				cpuModel: os.cpus()[0]?.model ?? 'unknown',
				loadAverageStart,
				loadAverageEnd: os.loadavg().map((l) => round(l, 2)),
				gcExposed,
				sandbox: `child process pid ${sandbox.pid} at ${sandbox.origin}`,
				warmUpItems: Math.min(WARM_UP_ITEMS, N),
				memorySampleIntervalMs: 10,
				memoryNote:
					'rss sampled from a worker thread (also during synchronous stretches), heapUsed from the main thread between event-loop turns and at the end; deltas from the figures after a full GC before the run',
				cpuNote:
					"CPU is this process's process.cpuUsage() (user+system) around runWorkflow: n8n-core's engine, parameter and expression evaluation, the node, the HTTP client; not the sandbox (child process)",
			},
			package: pkg,
			baseline,
			breakdown,
			ratios: {
				wallSpeedup,
				wallSpeedupEstimatedAtSameLatency:
					estimatedBaselineWall !== null && !likeForLike ? round(estimatedBaselineWall / pkg.wallMs, 2) : wallSpeedup,
				requestsRatio: baseline ? round(baseline.requests / pkg.requests, 2) : null,
			},
			targets: {
				requests: { expected: expectedRequests, actual: pkg.requests, pass: pkg.requests === expectedRequests },
				speedup: {
					min: TARGETS.minSpeedup,
					actual: wallSpeedup,
					likeForLike,
					pass: wallSpeedup === null ? null : wallSpeedup >= TARGETS.minSpeedup,
				},
				cpuPerMessage: {
					maxUs: TARGETS.maxCpuPerMessageUs,
					actualUs: pkg.cpuPerMessageUs,
					pass: pkg.cpuPerMessageUs < TARGETS.maxCpuPerMessageUs,
				},
			},
			totalBenchMs: 0,
		};
		report.totalBenchMs = Date.now() - started;
		return report;
	} finally {
		await sandbox.stop();
	}
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

export function formatSmsBulkReport(r: SmsBulkReport): string {
	const runs = [r.package, ...(r.baseline ? [r.baseline] : [])];
	const rowsOf = (list: RunFigures[]) => [
		['', ...list.map((f) => f.label)],
		['items', ...list.map((f) => int(f.items))],
		['sandbox latency (ms)', ...list.map((f) => int(f.sandboxLatencyMs))],
		['requests made (sandbox log)', ...list.map((f) => int(f.requests))],
		['messages accepted (sandbox)', ...list.map((f) => int(f.acceptedMessages))],
		['wall time (ms)', ...list.map((f) => n(f.wallMs))],
		['  node executionTime (n8n, ms)', ...list.map((f) => int(f.nodeExecutionMs))],
		['CPU this process (ms, user+sys)', ...list.map((f) => `${n(f.cpuTotalMs)} (${n(f.cpuUserMs)}+${n(f.cpuSystemMs)})`)],
		['CPU per message (µs)', ...list.map((f) => n(f.cpuPerMessageUs, 2))],
		['peak rss (MiB)', ...list.map((f) => n(f.peakRssMiB))],
		['peak rss delta (MiB)', ...list.map((f) => n(f.peakRssDeltaMiB))],
		['peak heapUsed delta (MiB)', ...list.map((f) => n(f.peakHeapDeltaMiB))],
		['outputs', ...list.map((f) => int(f.outputs))],
		['every output To = its input number', ...list.map((f) => (f.paired ? 'yes' : 'n/a'))],
	];
	const out: string[] = [];
	const c = r.config;
	out.push('');
	out.push(`=== SMS bulk bench: Exotel Messaging → SMS → Send vs one request per item ===`);
	out.push(
		`items ${int(c.items)}, sandbox latency ${c.latencyMs} ms (baseline ${c.baselineLatencyMs === null ? "skipped" : `${c.baselineLatencyMs} ms`}), ` +
			`node ${c.node}, ${c.cpus} CPU (${c.cpuModel}), gc ${c.gcExposed ? 'exposed (GC before each run)' : 'NOT exposed'}`,
	);
	out.push(`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end`);
	out.push(`sandbox: ${c.sandbox}; warm-up ${c.warmUpItems} items per shape before measuring`);
	out.push(`memory: every ${c.memorySampleIntervalMs} ms, ${c.memoryNote}.`);
	out.push(`CPU: ${c.cpuNote}.`);
	out.push('');
	out.push(table(rowsOf(runs)));
	for (const f of runs) out.push(`requests of "${f.label}": ${Object.entries(f.requestPaths).map(([p, k]) => `${k} × ${p}`).join(', ')}`);

	if (r.breakdown) {
		const b = r.breakdown;
		out.push('');
		const repeats = (f: RunFigures) => (f.cpuPerMessageUsRepeats ?? []).map((v) => n(v, 1)).join(' / ');
		out.push(`CPU per message, breakdown (sandbox latency 0, same items; each run ${BREAKDOWN_REPEATS}×, lowest CPU kept):`);
		out.push(
			table([
				['run', 'CPU/msg (µs)', 'wall (ms)', 'repeats (µs)'],
				['items node only (engine + test.items)', n(b.itemsOnly.cpuPerMessageUs, 2), n(b.itemsOnly.wallMs), repeats(b.itemsOnly)],
				['+ reading the send parameters (parameterReader: $json templates from the item)', n(b.parametersOnly.cpuPerMessageUs, 2), n(b.parametersOnly.wallMs), repeats(b.parametersOnly)],
				['+ the package node itself (send operation + HTTP)', n(b.packageLatency0.cpuPerMessageUs, 2), n(b.packageLatency0.wallMs), repeats(b.packageLatency0)],
			]),
		);
		out.push(
			`  => engine + items node ${n(b.engineAndItemsNodeUs, 2)} µs, parameter reading ${n(b.parameterReadingUs, 2)} µs, ` +
				`send operation + HTTP ${n(b.sendOperationAndHttpUs, 2)} µs per message`,
		);
		out.push(
			`  => one parameter read: ${n(b.expressionParameterReadUs, 2)} µs for an expression (to, body), ` +
				`${n(b.plainParameterReadUs, 2)} µs for a plain value (from, additionalFields, statusCallback)`,
		);
	}

	out.push('');
	const sameLatency = r.targets.speedup.likeForLike;
	out.push(
		`wall-time speedup: ${r.ratios.wallSpeedup === null ? 'n/a (baseline skipped)' : `${n(r.ratios.wallSpeedup, 2)}×`}` +
			(r.baseline && !sameLatency
				? ` (NOT like for like: baseline at ${c.baselineLatencyMs} ms, package at ${c.latencyMs} ms; estimated at the same latency ${n(r.ratios.wallSpeedupEstimatedAtSameLatency, 2)}×)`
				: ''),
	);
	out.push(`requests ratio (baseline / package): ${r.ratios.requestsRatio === null ? 'n/a' : `${n(r.ratios.requestsRatio, 2)}×`}`);
	out.push('');
	const t = r.targets;
	out.push(`${verdict(t.requests.pass)}  requests == ceil(N/100): ${t.requests.actual} made, ${t.requests.expected} expected`);
	out.push(
		`${verdict(t.speedup.pass)}  at least ${t.speedup.min}× faster than one request per item: ${t.speedup.actual === null ? 'baseline skipped' : `${n(t.speedup.actual, 2)}×`}` +
			(t.speedup.actual !== null && !sameLatency ? ' (different latencies, see above)' : ''),
	);
	out.push(`${verdict(t.cpuPerMessage.pass)}  under ${t.cpuPerMessage.maxUs} µs node CPU per message: ${n(t.cpuPerMessage.actualUs, 2)} µs (includes n8n-core parameter/expression work)`);
	out.push(`bench time ${n(r.totalBenchMs / 1000, 1)} s`);
	return out.join('\n');
}
