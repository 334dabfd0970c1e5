/**
 * RCS bulk bench: Exotel Messaging → RCS → Send Template over N personalised items (up to 100
 * messages a request, 6 requests in flight) against a bench-only baseline that sends one RCS
 * message per request (a loop over the items, one awaited HTTP request each, as n8n's Twilio /
 * Vonage nodes do for SMS), both through n8n-core's real WorkflowExecute and the package's shared
 * transport `exotelRequest` (POST /v2/accounts/{accountSid}/messages), against the Exotel sandbox
 * running in a child process with a fixed simulated latency.
 *
 * Measured as in sms-bulk.bench.ts: requests made (sandbox request log), wall time, CPU time per
 * message in this process, peak rss / heapUsed over the post-GC figure, output count and pairing
 * (every output's `to` is the number of the input item it is paired to). The sandbox's accepted
 * RCS messages are checked too: one per item, with that item's name and order id as the template
 * variables.
 *
 * The baseline costs about N × (latency + ~1.5 ms) of wall time, so it runs over the first
 * `baselineItems` items only (default 2000) and its wall time is extrapolated linearly to N
 * (wall / baselineItems × N); the report labels every extrapolated figure as such.
 *
 * A CPU breakdown runs the same workflows with the sandbox at 0 ms latency: the items node alone,
 * a node with the package node's description that only reads the parameters the RCS send
 * template operation reads (through the same parameterReader), and the package node itself.
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
import { SandboxProcess } from './sandbox-process';
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

export const DEFAULT_RCS_BASELINE_ITEMS = 2000;

export interface RcsBulkOptions {
	items: number;
	/** Items for the one-request-per-item baseline (capped at items); its wall time is extrapolated to items. */
	baselineItems: number;
	/** Sandbox latency for the package node run. */
	latencyMs: number;
	/** Sandbox latency for the baseline run (defaults to latencyMs). */
	baselineLatencyMs: number;
	skipBaseline: boolean;
	skipBreakdown: boolean;
	log: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// Workflows
// ---------------------------------------------------------------------------------------------

const BOT_ID = 'acme_orders_bot';
const TEMPLATE_NAME = 'order_update';

const SEND_PARAMETERS = {
	botId: BOT_ID,
	to: '={{ $json.phone }}',
	templateName: TEMPLATE_NAME,
	templateVariables: { TemplateParam1: '={{ $json.name }}', TemplateParam2: '={{ $json.orderId }}' },
};

const expectedVariables = (r: Recipient) => ({ TemplateParam1: r.name, TemplateParam2: r.orderId });

function packageRcsNode(): INode {
	return {
		id: 'bench-exotel-rcs',
		name: 'Exotel',
		type: packageNodeType('exotelMessaging'),
		typeVersion: 1,
		position: [200, 0],
		parameters: { resource: 'rcs', operation: 'sendTemplate', ...SEND_PARAMETERS } as INodeParameters,
	};
}

/**
 * The baseline: one RCS message per request, awaited in turn; same parameters read with
 * getNodeParameter, same shared transport and endpoint, `{ rcs: { messages: [one message] } }`.
 */
export class OnePerItemRcs implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bench: RCS One Request per Item',
		name: 'benchOnePerItemRcs',
		group: ['output'],
		version: 1,
		description: 'Sends each item as its own RCS request (bench baseline)',
		defaults: { name: 'One per item' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelApi', required: true }],
		properties: [
			{ displayName: 'Bot ID', name: 'botId', type: 'string', default: '' },
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Template Name', name: 'templateName', type: 'string', default: '' },
			{
				displayName: 'Template Variables',
				name: 'templateVariables',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Template Param 1', name: 'TemplateParam1', type: 'string', default: '' },
					{ displayName: 'Template Param 2', name: 'TemplateParam2', type: 'string', default: '' },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const botId = this.getNodeParameter('botId', i) as string;
			const to = this.getNodeParameter('to', i) as string;
			const templateName = this.getNodeParameter('templateName', i) as string;
			const variables = this.getNodeParameter('templateVariables', i, {}) as IDataObject;
			const message: IDataObject = {
				from: botId,
				to,
				content: { type: 'template', template: { name: templateName, variables } },
			};
			const response = await exotelRequest.call(this, {
				base: 'base',
				method: 'POST',
				path: '/v2/accounts/{accountSid}/messages',
				body: { rcs: { messages: [message] } },
				itemIndex: i,
			});
			const envelope = (response.body ?? {}) as IDataObject;
			const entry = ((((envelope.response as IDataObject | undefined)?.rcs as IDataObject | undefined)?.messages ?? []) as IDataObject[])[0] ?? {};
			const data = (entry.data ?? {}) as IDataObject;
			// The same item the package node gives (its message keys, the service's success as
			// accepted, the envelope entry under raw), so the two outputs are alike.
			const status = entry.status === 'success' ? 'accepted' : entry.status === 'failure' ? 'failed' : ((entry.status as string) ?? null);
			out.push({
				json: {
					messageSid: (data.sid as string) ?? null,
					status,
					channel: 'rcs',
					to,
					from: botId,
					code: (entry.code as number) ?? null,
					requestId: (envelope.request_id as string) ?? null,
					raw: entry,
				},
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

function onePerItemNode(): INode {
	return {
		id: 'bench-one-per-item-rcs',
		name: 'One per item',
		type: 'benchOnePerItemRcs',
		typeVersion: 1,
		position: [200, 0],
		parameters: { ...SEND_PARAMETERS } as INodeParameters,
	};
}

/** Wall time inside the parameters-only node (a synchronous loop, so close to its CPU time). */
const parameterTimings: ParameterTimings = { plainReads: 0, expressionReads: 0, plainMs: 0, expressionMs: 0 };

/**
 * For the CPU breakdown: the package node's description, an execute that reads per item what the
 * RCS send template operation reads, through the package's parameterReader (plain values read
 * once then cached, expressions per item), and sends nothing.
 */
function parametersOnlyNodeType(): INodeType {
	const packageType = packageNodeTypes().getByNameAndVersion(packageNodeType('exotelMessaging'), 1);
	return {
		description: { ...packageType.description, name: 'benchRcsParametersOnly', displayName: 'Bench: RCS Parameters Only' },
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			const read = parameterReader(this);
			const out: INodeExecutionData[] = [];
			const t0 = performance.now();
			for (let i = 0; i < items.length; i++) {
				String(read('botId', i, ''));
				String(read('templateName', i, ''));
				read('statusCallback', i, '');
				read('options', i, {});
				read('smsFallback', i, false);
			}
			const t1 = performance.now();
			for (let i = 0; i < items.length; i++) {
				const to = String(read('to', i, ''));
				read('templateVariables', i, {});
				out.push({ json: { to }, pairedItem: { item: i } });
			}
			const t2 = performance.now();
			Object.assign(parameterTimings, {
				plainReads: 5 * items.length,
				expressionReads: 2 * items.length,
				plainMs: t1 - t0,
				expressionMs: t2 - t1,
			});
			return [out];
		},
	};
}

function parametersOnlyNode(): INode {
	return { ...packageRcsNode(), id: 'bench-rcs-parameters-only', name: 'Parameters only', type: 'benchRcsParametersOnly' };
}

/** The sandbox accepted exactly one message per item, from the bot, with the item's name and order id. */
async function checkAccepted(label: string, sandbox: SandboxProcess, inputs: Recipient[]): Promise<number> {
	const accepted = await sandbox.rcsMessages();
	if (accepted.length !== inputs.length) {
		throw new BenchFailure(`${label}: the sandbox accepted ${accepted.length} RCS messages for ${inputs.length} items`);
	}
	const byPhone = new Map(inputs.map((r) => [r.phone, r]));
	const seen = new Set<string>();
	for (const message of accepted) {
		const input = byPhone.get(message.to);
		if (!input || seen.has(message.to)) throw new BenchFailure(`${label}: unexpected or duplicate accepted recipient ${message.to}`);
		seen.add(message.to);
		const want = expectedVariables(input);
		const got = message.template.variables;
		if (message.from !== BOT_ID || message.template.name !== TEMPLATE_NAME || got.TemplateParam1 !== want.TemplateParam1 || got.TemplateParam2 !== want.TemplateParam2) {
			throw new BenchFailure(`${label}: accepted message for ${message.to} is ${JSON.stringify(message).slice(0, 300)}, expected variables ${JSON.stringify(want)}`);
		}
	}
	return accepted.length;
}

/** What the shared measured run needs to know of the RCS bench. */
const RCS: BenchSubject = {
	packageNode: packageRcsNode,
	baselineNode: onePerItemNode,
	baselineType: () => new OnePerItemRcs(),
	parametersOnlyNode,
	parametersOnlyType: parametersOnlyNodeType,
	parameterTimings,
	checkOutput(label, position, item, input, sends) {
		if (item.json.to !== input.phone) {
			throw new BenchFailure(`${label}: output ${position} has to ${JSON.stringify(item.json.to)}, the item's number is ${input.phone}`);
		}
		if (sends && item.json.status !== 'accepted') {
			throw new BenchFailure(`${label}: output ${position} failed: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
		if (sends && (item.json.channel !== 'rcs' || typeof item.json.messageSid !== 'string' || (item.json.raw as IDataObject | undefined)?.status !== 'success')) {
			throw new BenchFailure(`${label}: output ${position} is not an accepted RCS message in the message keys: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
	},
	accepted: checkAccepted,
};

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

export interface RcsBulkReport {
	bench: 'rcs-bulk';
	config: {
		items: number;
		baselineItems: number | null;
		latencyMs: number;
		baselineLatencyMs: number | null;
		botId: string;
		templateName: string;
		node: string;
		cpus: number;
		cpuModel: string;
		loadAverageStart: number[];
		loadAverageEnd: number[];
		gcExposed: boolean;
		sandbox: string;
		warmUpItems: number;
		memorySampleIntervalMs: number;
		memoryNote: string;
		cpuNote: string;
		extrapolationNote: string;
	};
	package: RunFigures;
	/** measured over config.baselineItems items */
	baseline: RunFigures | null;
	/** the baseline scaled linearly to config.items (wall × items / baselineItems); equal to the measured figures when baselineItems == items */
	baselineExtrapolated: {
		items: number;
		extrapolated: boolean;
		requests: number;
		wallMs: number;
		wallMsPerItem: number;
		cpuTotalMs: number;
		cpuPerMessageUs: number;
	} | null;
	breakdown: Breakdown | null;
	ratios: {
		/** extrapolated baseline wall (at N items) / package wall */
		wallSpeedup: number | null;
		wallSpeedupExtrapolated: boolean;
		wallSpeedupEstimatedAtSameLatency: number | null;
		/** baseline requests (extrapolated to N) / package requests */
		requestsRatio: number | null;
		cpuPerMessageRatio: number | null;
	};
	targets: {
		requests: { expected: number; actual: number; pass: boolean };
		speedup: { min: number; actual: number | null; likeForLike: boolean; extrapolated: boolean; pass: boolean | null };
		cpuPerMessage: { maxUs: number; actualUs: number; pass: boolean };
	};
	totalBenchMs: number;
}


export async function runRcsBulkBench(options: RcsBulkOptions): Promise<RcsBulkReport> {
	const started = Date.now();
	const { log } = options;
	const N = options.items;
	const inputs = recipients(N);
	const baselineN = Math.min(Math.max(1, options.baselineItems), N);
	const gcExposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
	const loadAverageStart = os.loadavg().map((l) => round(l, 2));

	log(`rcs-bulk: starting the sandbox in a child process (latency ${options.latencyMs} ms)...`);
	const sandbox = await SandboxProcess.start({ latencyMs: options.latencyMs });
	try {
		const credentials = sandbox.credentials();

		const run = { subject: RCS, tag: 'rcs-bulk', inputs, sandbox, credentials, log };
		await warmUp(run, options.skipBaseline);

		log(`rcs-bulk: package node, ${N} items, latency ${options.latencyMs} ms...`);
		const pkg = await measuredRun(RCS, 'package node (bulk)', 'package', inputs, sandbox, credentials, options.latencyMs);

		let breakdown: RcsBulkReport['breakdown'] = null;
		if (!options.skipBreakdown) breakdown = await cpuBreakdown(run);

		let baseline: RunFigures | null = null;
		let baselineExtrapolated: RcsBulkReport['baselineExtrapolated'] = null;
		if (!options.skipBaseline) {
			const estimate = (baselineN * (options.baselineLatencyMs + 1.5)) / 1000;
			log(
				`rcs-bulk: baseline, one request per item, ${baselineN} of ${N} items, latency ${options.baselineLatencyMs} ms (about ${Math.round(estimate)} s)...`,
			);
			baseline = await measuredRun(RCS, 'one request per item', 'baseline', inputs.slice(0, baselineN), sandbox, credentials, options.baselineLatencyMs);
			const scale = N / baselineN;
			baselineExtrapolated = {
				items: N,
				extrapolated: baselineN !== N,
				requests: Math.round(baseline.requests * scale),
				wallMs: round(baseline.wallMs * scale, 1),
				wallMsPerItem: round(baseline.wallMs / baselineN, 3),
				cpuTotalMs: round(baseline.cpuTotalMs * scale, 1),
				cpuPerMessageUs: baseline.cpuPerMessageUs,
			};
		}

		const extrapolated = baselineExtrapolated?.extrapolated ?? false;
		const likeForLike = baseline !== null && options.baselineLatencyMs === options.latencyMs;
		const wallSpeedup = baselineExtrapolated ? round(baselineExtrapolated.wallMs / pkg.wallMs, 2) : null;
		const estimatedBaselineWall = baselineExtrapolated ? baselineExtrapolated.wallMs + N * (options.latencyMs - options.baselineLatencyMs) : null;
		const expectedRequests = Math.ceil(N / MESSAGES_PER_REQUEST);
		const report: RcsBulkReport = {
			bench: 'rcs-bulk',
			config: {
				items: N,
				baselineItems: options.skipBaseline ? null : baselineN,
				latencyMs: options.latencyMs,
				baselineLatencyMs: options.skipBaseline ? null : options.baselineLatencyMs,
				botId: BOT_ID,
				templateName: TEMPLATE_NAME,
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
				extrapolationNote:
					baselineN === N
						? 'the baseline ran over every item; nothing extrapolated'
						: `the baseline ran over the first ${baselineN} of ${N} items; its wall time, requests and CPU total at ${N} items are extrapolated linearly (× ${round(N / baselineN, 3)}); its CPU per message is measured`,
			},
			package: pkg,
			baseline,
			baselineExtrapolated,
			breakdown,
			ratios: {
				wallSpeedup,
				wallSpeedupExtrapolated: extrapolated,
				wallSpeedupEstimatedAtSameLatency:
					estimatedBaselineWall !== null && !likeForLike ? round(estimatedBaselineWall / pkg.wallMs, 2) : wallSpeedup,
				requestsRatio: baselineExtrapolated ? round(baselineExtrapolated.requests / pkg.requests, 2) : null,
				cpuPerMessageRatio: baseline ? round(baseline.cpuPerMessageUs / pkg.cpuPerMessageUs, 2) : null,
			},
			targets: {
				requests: { expected: expectedRequests, actual: pkg.requests, pass: pkg.requests === expectedRequests },
				speedup: {
					min: TARGETS.minSpeedup,
					actual: wallSpeedup,
					likeForLike,
					extrapolated,
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

export function formatRcsBulkReport(r: RcsBulkReport): string {
	const runs = [r.package, ...(r.baseline ? [r.baseline] : [])];
	const x = r.baselineExtrapolated;
	const extrapolatedColumn = x && x.extrapolated;
	const col = (perRun: (f: RunFigures) => string, extra: string) => [...runs.map(perRun), ...(extrapolatedColumn ? [extra] : [])];
	const rows = [
		['', ...runs.map((f) => f.label), ...(extrapolatedColumn ? [`one request per item, EXTRAPOLATED to ${int(x.items)}`] : [])],
		['items', ...col((f) => int(f.items), `${int(x?.items)} (est.)`)],
		['sandbox latency (ms)', ...col((f) => int(f.sandboxLatencyMs), int(r.baseline?.sandboxLatencyMs))],
		['requests made (sandbox log)', ...col((f) => int(f.requests), `${int(x?.requests)} (est.)`)],
		['RCS messages accepted (sandbox)', ...col((f) => int(f.acceptedMessages), '-')],
		['wall time (ms)', ...col((f) => n(f.wallMs), `${n(x?.wallMs)} (est.)`)],
		['  wall time per item (ms)', ...col((f) => n(f.wallMs / f.items, 3), `${n(x?.wallMsPerItem, 3)} (measured)`)],
		['  node executionTime (n8n, ms)', ...col((f) => int(f.nodeExecutionMs), '-')],
		['CPU this process (ms, user+sys)', ...col((f) => `${n(f.cpuTotalMs)} (${n(f.cpuUserMs)}+${n(f.cpuSystemMs)})`, `${n(x?.cpuTotalMs)} (est.)`)],
		['CPU per message (µs)', ...col((f) => n(f.cpuPerMessageUs, 2), `${n(x?.cpuPerMessageUs, 2)} (measured)`)],
		['peak rss (MiB)', ...col((f) => n(f.peakRssMiB), '-')],
		['peak rss delta (MiB)', ...col((f) => n(f.peakRssDeltaMiB), '-')],
		['peak heapUsed delta (MiB)', ...col((f) => n(f.peakHeapDeltaMiB), '-')],
		['outputs', ...col((f) => int(f.outputs), '-')],
		['every output to = its input number', ...col((f) => (f.paired ? 'yes' : 'n/a'), '-')],
		['accepted variables = item name, order id', ...col((f) => (f.acceptedMessages === f.items ? 'yes' : 'n/a'), '-')],
	];
	const out: string[] = [];
	const c = r.config;
	out.push('');
	out.push(`=== RCS bulk bench: Exotel Messaging → RCS → Send Template vs one request per item ===`);
	out.push(
		`items ${int(c.items)} (baseline ${c.baselineItems === null ? 'skipped' : `${int(c.baselineItems)} items`}), ` +
			`sandbox latency ${c.latencyMs} ms (baseline ${c.baselineLatencyMs === null ? 'skipped' : `${c.baselineLatencyMs} ms`}), ` +
			`node ${c.node}, ${c.cpus} CPU (${c.cpuModel}), gc ${c.gcExposed ? 'exposed (GC before each run)' : 'NOT exposed'}`,
	);
	out.push(`bot ${c.botId}, template ${c.templateName}, variables TemplateParam1 = name, TemplateParam2 = order id`);
	out.push(`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end`);
	out.push(`sandbox: ${c.sandbox}; warm-up ${c.warmUpItems} items per shape before measuring`);
	out.push(`memory: every ${c.memorySampleIntervalMs} ms, ${c.memoryNote}.`);
	out.push(`CPU: ${c.cpuNote}.`);
	if (r.baseline) out.push(`baseline: ${c.extrapolationNote}.`);
	out.push('');
	out.push(table(rows));
	for (const f of runs) out.push(`requests of "${f.label}": ${Object.entries(f.requestPaths).map(([p, k]) => `${k} × ${p}`).join(', ')}`);

	if (r.breakdown) {
		const b = r.breakdown;
		out.push('');
		const repeats = (f: RunFigures) => (f.cpuPerMessageUsRepeats ?? []).map((v) => n(v, 1)).join(' / ');
		out.push(`CPU per message, breakdown (sandbox latency 0, same ${int(c.items)} items; each run ${BREAKDOWN_REPEATS}×, lowest CPU kept):`);
		out.push(
			table([
				['run', 'CPU/msg (µs)', 'wall (ms)', 'repeats (µs)'],
				['items node only (engine + test.items)', n(b.itemsOnly.cpuPerMessageUs, 2), n(b.itemsOnly.wallMs), repeats(b.itemsOnly)],
				['+ reading the send template parameters (parameterReader → getNodeParameter)', n(b.parametersOnly.cpuPerMessageUs, 2), n(b.parametersOnly.wallMs), repeats(b.parametersOnly)],
				['+ the package node itself (send template operation + HTTP)', n(b.packageLatency0.cpuPerMessageUs, 2), n(b.packageLatency0.wallMs), repeats(b.packageLatency0)],
			]),
		);
		out.push(
			`  => engine + items node ${n(b.engineAndItemsNodeUs, 2)} µs, parameter reading ${n(b.parameterReadingUs, 2)} µs, ` +
				`send operation + HTTP ${n(b.sendOperationAndHttpUs, 2)} µs per message`,
		);
		out.push(
			`  => per read: ${n(b.expressionParameterReadUs, 2)} µs for an expression parameter (to, templateVariables), ` +
				`${n(b.plainParameterReadUs, 2)} µs for a plain one (botId, templateName, statusCallback, options, smsFallback; read once, then cached by parameterReader)`,
		);
	}

	out.push('');
	const sameLatency = r.targets.speedup.likeForLike;
	const extrapolatedTag = r.ratios.wallSpeedupExtrapolated ? ` (EXTRAPOLATED: baseline measured over ${int(c.baselineItems)} items, scaled to ${int(c.items)})` : '';
	out.push(
		`wall-time speedup: ${r.ratios.wallSpeedup === null ? 'n/a (baseline skipped)' : `${n(r.ratios.wallSpeedup, 2)}×`}${extrapolatedTag}` +
			(r.baseline && !sameLatency
				? ` (NOT like for like: baseline at ${c.baselineLatencyMs} ms, package at ${c.latencyMs} ms; estimated at the same latency ${n(r.ratios.wallSpeedupEstimatedAtSameLatency, 2)}×)`
				: ''),
	);
	out.push(
		`requests ratio (baseline / package): ${r.ratios.requestsRatio === null ? 'n/a' : `${n(r.ratios.requestsRatio, 2)}×`}${r.ratios.wallSpeedupExtrapolated ? ' (baseline requests extrapolated)' : ''}`,
	);
	out.push(`CPU per message ratio (baseline / package): ${r.ratios.cpuPerMessageRatio === null ? 'n/a' : `${n(r.ratios.cpuPerMessageRatio, 2)}×`} (both measured)`);
	out.push('');
	const t = r.targets;
	out.push(`${verdict(t.requests.pass)}  requests == ceil(N/100): ${t.requests.actual} made, ${t.requests.expected} expected`);
	out.push(
		`${verdict(t.speedup.pass)}  at least ${t.speedup.min}× faster than one request per item: ${t.speedup.actual === null ? 'baseline skipped' : `${n(t.speedup.actual, 2)}×`}` +
			(t.speedup.extrapolated ? ' (baseline wall extrapolated)' : '') +
			(t.speedup.actual !== null && !sameLatency ? ' (different latencies, see above)' : ''),
	);
	out.push(`${verdict(t.cpuPerMessage.pass)}  under ${t.cpuPerMessage.maxUs} µs node CPU per message: ${n(t.cpuPerMessage.actualUs, 2)} µs (includes n8n-core parameter/expression work)`);
	out.push(`bench time ${n(r.totalBenchMs / 1000, 1)} s`);
	return out.join('\n');
}
