/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- samples n8n's memory from /proc and waits for saved executions (timers, fs, perf_hooks); never shipped */
/**
 * SMS on a real n8n bench: the same N personalised SMS sent three ways inside ONE real n8n 2.8.4
 * (`n8n start`, SQLite, regular mode, the packed package installed as users install community
 * nodes; test/harness), one after the other, against the sandbox in a child process with a
 * fixed simulated latency:
 *
 *   1. Exotel node: Webhook → Generate (Code, N items {phone, name, orderId}) → Exotel Messaging
 *      SMS → Send (`to = {{ $json.phone }}`, `body = Hi {{ $json.name }}, order {{ $json.orderId }} has shipped`).
 *   2. Hand-built bulk, as an expert would build it: Webhook → Generate → Build bulk bodies (Code,
 *      run once for all items: one urlencoded dynamic-bulk body of up to 100 messages per output
 *      item) → HTTP Request (POST Sms/bulksend, form-urlencoded, Basic auth `httpBasicAuth`).
 *   3. One request per item: Webhook → Generate (min(N, 1000) items) → HTTP Request (POST Sms/send,
 *      form-urlencoded From/To/Body, Basic auth).
 *
 * A reference run puts the Exotel node's two per-item expressions (to, body) in an Edit Fields node
 * over the same N items (it sends nothing): n8n's own expression cost, which the Exotel node pays and
 * the hand-built Code node does not.
 *
 * Each workflow is started by calling its Webhook trigger over loopback (responseMode lastNode, so
 * the call returns when the run is over); the count comes in the query string, so a short warm-up
 * run of each workflow (loading the nodes, credentials and code paths) goes before the measured
 * ones. The finished execution is read through the public API with its data
 * (`GET /api/v1/executions/<id>?includeData=true`) and each node's `executionTime` taken from its
 * runData. Requests and their statuses come from the sandbox's request log; the messages accepted
 * (every To and Body checked) from its messages list.
 *
 * Memory (a separate part): M items through the Exotel node, through the hand-built bulk, and
 * through the generator alone (the baseline: what M items cost n8n without any sending), each on a
 * freshly restarted n8n server process after a small warm-up run. The server process's VmRSS is
 * read from /proc every 200 ms during the run, VmHWM (peak RSS) is reset just before the run
 * (`echo 5 > /proc/<pid>/clear_refs`) and read after it; the task runner child processes (where
 * n8n runs Code nodes) are sampled too and reported apart.
 *
 * Rate limits: this bench compares CPU, not waits. The service counts requests per account and
 * category per minute (Bulk SMS `Sms/bulksend` 50, SMS `Sms/send` 200), and the Exotel node paces
 * itself to those limits from the first request, while the hand-built workflows know no limit: at
 * the documented limits the Exotel run would wait for windows and the comparison would be of
 * waits. So the sandbox child runs the documented mode with its counters ON (`--rate-limit
 * documented`, fixed windows per category, X-RateLimit-* headers on every answer, 429 past them)
 * and the two SMS categories raised far above what the runs need (`--rate-limit-category
 * bulkSms=100000 --rate-limit-category sms=100000`), and the Exotel credential says the same through
 * Custom Rate Limits: an account whose limits are higher. The Exotel node reads the counters on
 * every answer (a real cost, measured) but never waits; the report shows that it did not (no 429 in
 * the sandbox's log, the largest gap between two requests, the run's time against one window). The
 * "rate limit counted" figures are computed from the request counts at the DOCUMENTED limit of the
 * category each run's requests fall in: the Exotel node's and the hand-built bulk's requests go to
 * Sms/bulksend (Bulk SMS, 50 a minute), one request per item to Sms/send (SMS, 200 a minute).
 *
 * Correctness (exit 1 when broken): the sandbox accepted exactly N messages for runs 1 and 2 (and
 * min(N, 1000) for run 3) with the expected numbers and bodies, and the Exotel node output N items
 * (M in the memory run). Figures are reported, never judged.
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';

import type { IRunData } from 'n8n-workflow';

import { setNode, type N8nInstance, type OutputItem, type RunJson } from '../harness';
import { DOCUMENTED_LIMITS, DOCUMENTED_WINDOW_MS, RATE_CATEGORY_NAMES } from '../../sandbox/rate-limit';
import type { RateCategory, RecordedRequest } from '../../sandbox/types';
import { BenchFailure, int, loadAverage, machine, MESSAGES_PER_REQUEST, n, round, table } from './common';
import { SandboxProcess } from './sandbox-process';
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
	httpNode,
	MAX_GENERATED_ITEMS,
	SMS_FROM,
	smsUrl,
	webhookWorkflowMaker,
	withRealN8n,
	type KeyedWorkflow,
} from './sms-workflows';

export const DEFAULT_MEMORY_ITEMS = 100_000;
/** Run 3 (one request per item) sends at most this many items; its figure is per message on that many. */
export const ONE_PER_ITEM_MAX = 1000;
/**
 * Items of the warm-up run of each workflow before the measured runs (capped at N): enough for V8 to
 * optimise n8n's expression code; after 100-item warm-ups, whichever run came first paid for that.
 */
export const REAL_WARM_UP_ITEMS = 1000;
/** Items of the warm-up run before each memory run (loads the code paths; memory is what is measured). */
export const MEMORY_WARM_UP_ITEMS = 100;
/**
 * The account's limits in this bench, requests a minute in the two SMS categories, on the sandbox
 * (`--rate-limit-category`) and in the Exotel credential (Custom Rate Limits; the most it takes):
 * far above the runs' needs, so that the counters are read on every answer but never make a run wait.
 */
export const RAISED_PER_MINUTE = 100_000;
/** The categories raised: every request of this bench falls in one of them. */
export const RAISED_CATEGORIES: readonly RateCategory[] = ['bulkSms', 'sms'];
/** The generator's bound (sms-workflows). */
export const MAX_ITEMS = MAX_GENERATED_ITEMS;

const RSS_SAMPLE_MS = 200;
/** A measured run's webhook call (the run itself) may take this long. */
const RUN_TIMEOUT_MS = 60 * 60_000;
/** Reading a large execution with its data through the public API. */
const READ_TIMEOUT_MS = 10 * 60_000;
/** After the webhook answered, waiting for the execution to be listed as finished. */
const SAVE_WAIT_MS = 10 * 60_000;

const EXOTEL_CREDENTIAL = { id: 'benchExotelApi', name: 'Exotel Sandbox' };
const BASIC_CREDENTIAL = { id: 'benchHttpBasic', name: 'Exotel Sandbox (HTTP Basic)' };

// Node names, as they appear in runData (the shared ones in sms-workflows).
const HTTP_ONE = 'HTTP Request send';
const SAME_EXPRESSIONS = 'Same expressions (Edit Fields)';

export interface SmsRealN8nOptions {
	items: number;
	memoryItems: number;
	skipMemory: boolean;
	latencyMs: number;
	log: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// The workflows
// ---------------------------------------------------------------------------------------------

const bodyOf = (i: number) => `Hi Customer ${i}, order ORD-${100000 + i} has shipped`;

/** The item generator, with an order id per item. */
const GENERATE_JS = generateJs({ orderId: true });

/** The expert's bulk builder: one urlencoded dynamic-bulk body per 100 items. */
const BUILD_BULK_JS = buildBulkJs('phone, name, orderId', "'Hi ' + name + ', order ' + orderId + ' has shipped'");

type BenchWorkflow = KeyedWorkflow<'exotel' | 'handBuilt' | 'onePerItem' | 'generatorOnly' | 'expressionsOnly'>;

function benchWorkflows(origin: string): BenchWorkflow[] {
	const exotel = exotelSmsNode(EXOTEL_CREDENTIAL, '=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped');
	const bulkHttp = bulkHttpNode(origin, BASIC_CREDENTIAL);
	const oneHttp = httpNode(
		HTTP_ONE,
		smsUrl(origin, 'send'),
		{
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: [
					{ name: 'From', value: SMS_FROM },
					{ name: 'To', value: '={{ $json.phone }}' },
					{ name: 'Body', value: '=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped' },
				],
			},
		},
		BASIC_CREDENTIAL,
	);
	const make = webhookWorkflowMaker<BenchWorkflow['key']>('bench-sms', 'SMS real-n8n bench');
	return [
		make('exotel', 'Exotel node', [codeNode(GENERATE, GENERATE_JS), exotel]),
		make('handBuilt', 'hand-built bulk', [codeNode(GENERATE, GENERATE_JS), codeNode(BUILD_BULK, BUILD_BULK_JS), bulkHttp]),
		make('onePerItem', 'one request per item', [codeNode(GENERATE, GENERATE_JS), oneHttp]),
		make('generatorOnly', 'generator only', [codeNode(GENERATE, GENERATE_JS)]),
		make('expressionsOnly', 'the same two expressions in Edit Fields', [
			codeNode(GENERATE, GENERATE_JS),
			setNode(SAME_EXPRESSIONS, { to: '={{ $json.phone }}', body: '=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped' }),
		]),
	];
}

// ---------------------------------------------------------------------------------------------
// The n8n server process and its children, from /proc
// ---------------------------------------------------------------------------------------------

interface ProcMemory {
	rssBytes: number;
	hwmBytes: number;
}

function procMemory(pid: number): ProcMemory | undefined {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) * 1024;
		return { rssBytes: kb('VmRSS'), hwmBytes: kb('VmHWM') };
	} catch {
		return undefined;
	}
}

/** Resets the peak RSS (VmHWM) of a process to its current RSS (Linux ≥ 4.0); false when not allowed. */
function resetPeakRss(pid: number): boolean {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** Every descendant of `pid` (n8n's task runner and whatever it starts). */
function descendants(pid: number): number[] {
	const parentOf = new Map<number, number>();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			parentOf.set(Number(entry), ppid);
		} catch {
			// gone meanwhile
		}
	}
	const out: number[] = [];
	const wanted = new Set([pid]);
	let grew = true;
	while (grew) {
		grew = false;
		for (const [child, parent] of parentOf) {
			if (wanted.has(parent) && !wanted.has(child)) {
				wanted.add(child);
				out.push(child);
				grew = true;
			}
		}
	}
	return out;
}

const childrenRss = (pids: number[]) => pids.reduce((sum, pid) => sum + (procMemory(pid)?.rssBytes ?? 0), 0);

/** Samples the server's VmRSS (and its children's summed RSS) every RSS_SAMPLE_MS until stopped. */
class RssWatcher {
	peakRssBytes = 0;
	peakChildrenRssBytes = 0;
	samples = 0;
	private timer?: NodeJS.Timeout;
	private children: number[] = [];

	constructor(readonly pid: number) {}

	sample(): ProcMemory | undefined {
		const m = procMemory(this.pid);
		if (m) {
			this.samples++;
			if (m.rssBytes > this.peakRssBytes) this.peakRssBytes = m.rssBytes;
		}
		const kids = childrenRss(this.children);
		if (kids > this.peakChildrenRssBytes) this.peakChildrenRssBytes = kids;
		return m;
	}

	start(): void {
		this.children = descendants(this.pid);
		this.sample();
		this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.sample();
	}

	get childPids(): number[] {
		return this.children;
	}
}

// ---------------------------------------------------------------------------------------------
// One run
// ---------------------------------------------------------------------------------------------

export interface Ctx {
	instance: N8nInstance;
	apiKey: string;
	sandbox: SandboxProcess;
	latencyMs: number;
	log: (line: string) => void;
}

export interface ExecutionRead {
	id: string;
	status: string;
	executionMs: number;
	runData: IRunData;
	/** the run's error (only with allowError) */
	error?: unknown;
}

/** What `execute` needs of a workflow: started by its Webhook at `webhookPath` with `?count=N`. */
export interface WebhookWorkflow {
	id: string;
	webhookPath: string;
	json: { name: string };
}

/** Finished executions of a workflow (public API, no data), newest first. */
async function finishedExecutions(ctx: Ctx, workflowId: string): Promise<Array<{ id: string; status?: string; finished?: boolean }>> {
	const q = new URLSearchParams({ workflowId, includeData: 'false', limit: '250' });
	const page = await ctx.instance.publicApi<{ data: Array<{ id: string; status?: string; finished?: boolean }> }>('GET', `/executions?${q.toString()}`);
	return page.data.filter((e) => e.finished === true || (!!e.status && !['new', 'running', 'waiting'].includes(e.status)));
}

/**
 * Calls the workflow's webhook with `count`, waits until the execution is saved, reads it with its
 * data. A failed execution (and the webhook's error answer) throws unless `allowError`.
 */
export async function execute(
	ctx: Ctx,
	wf: WebhookWorkflow,
	count: number,
	onSaved: () => void = () => {},
	{ allowError = false }: { allowError?: boolean } = {},
): Promise<ExecutionRead & { webhookWallMs: number; webhookStatus: number }> {
	const before = (await finishedExecutions(ctx, wf.id)).length;
	const t0 = performance.now();
	const res = await ctx.instance.request('POST', `${ctx.instance.webhookUrl(wf.webhookPath)}?count=${count}`, {
		data: {},
		timeout: RUN_TIMEOUT_MS,
	});
	const webhookWallMs = performance.now() - t0;
	if (res.status !== 200 && !allowError) {
		throw new Error(`${wf.json.name}: webhook answered ${res.status}: ${JSON.stringify(res.data).slice(0, 1000)}\n${ctx.instance.serverLog(4000)}`);
	}
	// Saving the execution may finish after the answer: wait until it is listed as finished.
	const deadline = Date.now() + SAVE_WAIT_MS;
	let listed = await finishedExecutions(ctx, wf.id);
	while (listed.length <= before) {
		if (Date.now() > deadline) throw new Error(`${wf.json.name}: the execution was not saved within ${SAVE_WAIT_MS} ms`);
		await new Promise((resolve) => setTimeout(resolve, 250));
		listed = await finishedExecutions(ctx, wf.id);
	}
	onSaved();
	const id = String(listed.map((e) => Number(e.id)).reduce((a, b) => Math.max(a, b)));
	const read = await ctx.instance.request('GET', `/api/v1/executions/${id}?includeData=true`, {
		headers: { 'X-N8N-API-KEY': ctx.apiKey },
		timeout: READ_TIMEOUT_MS,
		maxContentLength: Infinity,
		maxBodyLength: Infinity,
	});
	if (read.status !== 200) throw new Error(`GET /api/v1/executions/${id} → ${read.status}: ${JSON.stringify(read.data).slice(0, 1000)}`);
	const execution = read.data as { id: string; status: string; startedAt: string; stoppedAt: string; data?: RunJson['data'] };
	const runData = execution.data?.resultData?.runData ?? {};
	const runError = execution.data?.resultData?.error;
	if ((execution.status !== 'success' || runError) && !allowError) {
		throw new Error(
			`${wf.json.name}: execution ${id} ended ${execution.status}: ${JSON.stringify(runError ?? {}).slice(0, 1500)}\n${ctx.instance.serverLog(4000)}`,
		);
	}
	return {
		id,
		status: execution.status,
		executionMs: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
		runData,
		error: runError,
		webhookWallMs,
		webhookStatus: res.status,
	};
}

export const nodeTime = (runData: IRunData, node: string): number => {
	const t = runData[node]?.[0]?.executionTime;
	if (typeof t !== 'number') throw new Error(`node ${node} has no executionTime in runData (nodes: ${Object.keys(runData).join(', ')})`);
	return t;
};
export const nodeItems = (runData: IRunData, node: string): OutputItem[] => runData[node]?.[0]?.data?.main?.[0] ?? [];

export interface RealRunFigures {
	label: string;
	items: number;
	executionId: string;
	webhookWallMs: number;
	/** stoppedAt - startedAt of the execution */
	executionMs: number;
	/** executionTime of every node in runData (ms) */
	nodeMs: Record<string, number>;
	/** output items of every node */
	nodeOutputs: Record<string, number>;
	/** the nodes that send (Exotel; Build bulk + HTTP; HTTP), summed (ms) */
	sendingMs: number;
	sendingPerMessageUs: number;
	requests: number;
	requestPaths: Record<string, number>;
	statuses: Record<string, number>;
	/** requests by the category the sandbox counted them in (documented mode) */
	requestsByCategory: Record<string, number>;
	http429: number;
	/** first to last request (sandbox log times, ms) */
	requestSpanMs: number;
	/** the largest gap between two consecutive requests (ms): a wait for a window would show here */
	largestGapMs: number;
	acceptedMessages: number;
	n8nRss: { pid: number; beforeMiB: number; peakSampledMiB: number; hwmMiB: number; hwmReset: boolean; afterMiB: number; samples: number };
}

const MiB = (bytes: number) => round(bytes / (1024 * 1024), 1);

export function countBy<T>(list: T[], key: (item: T) => string): Record<string, number> {
	const out: Record<string, number> = {};
	for (const item of list) out[key(item)] = (out[key(item)] ?? 0) + 1;
	return out;
}

type SmsEndpoint = 'send' | 'bulksend';

/**
 * The Exotel node's endpoint for item `i` of `count`: personalised bodies go through dynamic bulk,
 * except a message alone in its request (the last, when count % 100 is 1), which is one text.
 */
const exotelEndpoint = (i: number, count: number): SmsEndpoint => (count % MESSAGES_PER_REQUEST === 1 && i === count - 1 ? 'send' : 'bulksend');

/** Every message the sandbox accepted is one of the items, each item exactly once, with its body, through its endpoint. */
async function checkMessages(label: string, sandbox: SandboxProcess, count: number, endpointOf: (i: number, count: number) => SmsEndpoint): Promise<number> {
	const messages = await sandbox.smsMessages();
	if (messages.length !== count) throw new BenchFailure(`${label}: the sandbox accepted ${messages.length} messages for ${count} items`);
	const seen = new Uint8Array(count);
	for (const m of messages) {
		const match = /^\+9198765(\d{5})$/.exec(m.to);
		const i = match ? Number(match[1]) : -1;
		if (i < 0 || i >= count) throw new BenchFailure(`${label}: the sandbox accepted a message to ${m.to}, not one of the ${count} items`);
		if (seen[i]) throw new BenchFailure(`${label}: ${m.to} received two messages`);
		seen[i] = 1;
		if (m.body !== bodyOf(i)) throw new BenchFailure(`${label}: ${m.to} got ${JSON.stringify(m.body)}, expected ${JSON.stringify(bodyOf(i))}`);
		const endpoint = endpointOf(i, count);
		if (m.from !== SMS_FROM || m.endpoint !== endpoint) {
			throw new BenchFailure(`${label}: ${m.to} was sent from ${m.from} via ${m.endpoint}, expected ${SMS_FROM} via ${endpoint}`);
		}
	}
	return messages.length;
}

async function measuredRun(
	ctx: Ctx,
	wf: BenchWorkflow,
	label: string,
	count: number,
	sendingNodes: string[],
	endpointOf: (i: number, count: number) => SmsEndpoint,
): Promise<RealRunFigures> {
	await ctx.sandbox.reset();
	await ctx.sandbox.setLatency(ctx.latencyMs);
	const pid = ctx.instance.serverPid;
	if (pid === undefined) throw new Error('the n8n server process is not running');
	const watcher = new RssWatcher(pid);
	const before = procMemory(pid);
	const hwmReset = resetPeakRss(pid);
	watcher.start();
	let after: ProcMemory | undefined;
	const run = await execute(ctx, wf, count, () => {
		watcher.stop();
		after = procMemory(pid);
	});
	const requests: RecordedRequest[] = (await ctx.sandbox.requests()).filter((r) => r.path.includes('/Sms/'));
	const times = requests.map((r) => r.time).sort((a, b) => a - b);
	let largestGapMs = 0;
	for (let i = 1; i < times.length; i++) largestGapMs = Math.max(largestGapMs, times[i] - times[i - 1]);
	const accepted = await checkMessages(label, ctx.sandbox, count, endpointOf);
	const nodeMs: Record<string, number> = {};
	const nodeOutputs: Record<string, number> = {};
	for (const node of Object.keys(run.runData)) {
		nodeMs[node] = nodeTime(run.runData, node);
		nodeOutputs[node] = nodeItems(run.runData, node).length;
	}
	const sendingMs = sendingNodes.reduce((sum, node) => sum + nodeTime(run.runData, node), 0);
	return {
		label,
		items: count,
		executionId: run.id,
		webhookWallMs: round(run.webhookWallMs, 1),
		executionMs: run.executionMs,
		nodeMs,
		nodeOutputs,
		sendingMs,
		sendingPerMessageUs: round((sendingMs * 1000) / count, 1),
		requests: requests.length,
		requestPaths: countBy(requests, (r) => `${r.method} ${r.path}`),
		statuses: countBy(requests, (r) => String(r.status)),
		requestsByCategory: countBy(requests, (r) => r.category ?? 'none'),
		http429: requests.filter((r) => r.status === 429).length,
		requestSpanMs: times.length ? times[times.length - 1] - times[0] : 0,
		largestGapMs,
		acceptedMessages: accepted,
		n8nRss: {
			pid,
			beforeMiB: MiB(before?.rssBytes ?? NaN),
			peakSampledMiB: MiB(watcher.peakRssBytes),
			hwmMiB: MiB(after?.hwmBytes ?? NaN),
			hwmReset,
			afterMiB: MiB(after?.rssBytes ?? NaN),
			samples: watcher.samples,
		},
	};
}

// ---------------------------------------------------------------------------------------------
// Memory runs
// ---------------------------------------------------------------------------------------------

export interface MemoryRunFigures {
	label: string;
	items: number;
	pid: number;
	warmUpItems: number;
	rssBeforeMiB: number;
	/** highest VmRSS sampled every RSS_SAMPLE_MS during the run */
	peakSampledMiB: number;
	/** VmHWM after the run (reset just before it when hwmReset) */
	hwmMiB: number;
	hwmReset: boolean;
	/** max(sampled, VmHWM) */
	peakMiB: number;
	rssAfterMiB: number;
	/** (peak - before) / items */
	growthPerMessageBytes: number;
	samples: number;
	/** the task runner child processes (Code nodes run there), summed RSS */
	childPids: number[];
	childrenRssBeforeMiB: number;
	childrenPeakSampledMiB: number;
	webhookWallMs: number;
	executionMs: number;
	nodeMs: Record<string, number>;
	/** output items of the last node */
	outputItems: number;
	acceptedMessages: number;
	requests: number;
}

async function memoryRun(ctx: Ctx, wf: BenchWorkflow, label: string, count: number, lastNode: string): Promise<MemoryRunFigures> {
	ctx.log(`sms-real-n8n: memory, ${label}: restarting n8n for a fresh server process...`);
	await ctx.instance.stop();
	await ctx.instance.start();
	const pid = ctx.instance.serverPid;
	if (pid === undefined) throw new Error('the n8n server process is not running');
	await ctx.sandbox.setLatency(ctx.latencyMs);
	await execute(ctx, wf, MEMORY_WARM_UP_ITEMS);
	await ctx.sandbox.reset();
	await ctx.sandbox.setLatency(ctx.latencyMs);
	await new Promise((resolve) => setTimeout(resolve, 1000));
	ctx.log(`sms-real-n8n: memory, ${label}: ${int(count)} items...`);
	const watcher = new RssWatcher(pid);
	const before = procMemory(pid);
	const hwmReset = resetPeakRss(pid);
	watcher.start();
	const childrenBefore = childrenRss(watcher.childPids);
	let after: ProcMemory | undefined;
	const run = await execute(ctx, wf, count, () => {
		watcher.stop();
		after = procMemory(pid);
	});
	const health = await ctx.sandbox.health();
	const outputItems = nodeItems(run.runData, lastNode).length;
	const nodeMs: Record<string, number> = {};
	for (const node of Object.keys(run.runData)) nodeMs[node] = nodeTime(run.runData, node);
	const rssBefore = before?.rssBytes ?? NaN;
	const peak = Math.max(watcher.peakRssBytes, after?.hwmBytes ?? 0);
	return {
		label,
		items: count,
		pid,
		warmUpItems: MEMORY_WARM_UP_ITEMS,
		rssBeforeMiB: MiB(rssBefore),
		peakSampledMiB: MiB(watcher.peakRssBytes),
		hwmMiB: MiB(after?.hwmBytes ?? NaN),
		hwmReset,
		peakMiB: MiB(peak),
		rssAfterMiB: MiB(after?.rssBytes ?? NaN),
		growthPerMessageBytes: round((peak - rssBefore) / count, 0),
		samples: watcher.samples,
		childPids: watcher.childPids,
		childrenRssBeforeMiB: MiB(childrenBefore),
		childrenPeakSampledMiB: MiB(watcher.peakChildrenRssBytes),
		webhookWallMs: round(run.webhookWallMs, 1),
		executionMs: run.executionMs,
		nodeMs,
		outputItems,
		acceptedMessages: health.messages,
		requests: health.requests,
	};
}

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

/** One run's time when the documented limits are counted: its requests by category, each at its category's limit. */
export interface CountedRun {
	requestsByCategory: Record<string, number>;
	/** max over its categories of requests ÷ (limit a minute), in ms */
	limitMs: number;
	/** max(sending nodes' time, limitMs) / N */
	msPerMessage: number;
}

export interface RateLimitedFigures {
	/** the documented limits the figures count (requests a minute): Bulk SMS for Sms/bulksend, SMS for Sms/send */
	limits: Record<'bulkSms' | 'sms', number>;
	exotel: CountedRun;
	handBuilt: CountedRun;
	/** N requests to Sms/send; its per-message time measured on onePerItem.items */
	onePerItem: CountedRun;
	/** one per item ÷ Exotel */
	ratio: number;
}

/** Whether the Exotel run paid only for reading the counters: no 429, no gap a window's wait would leave. */
export interface ExotelWaits {
	http429: number;
	largestGapMs: number;
	requestSpanMs: number;
	/** a gap this long would be a wait (the node waits for a window's reset, at most a minute) */
	gapThresholdMs: number;
	/** no 429 and no gap above the threshold */
	none: boolean;
}

/** Time per message when each category's requests go at most `limit` a minute (computed, not measured). */
function counted(sendingMs: number, requestsByCategory: Record<string, number>, items: number): CountedRun {
	let limitMs = 0;
	for (const [category, requests] of Object.entries(requestsByCategory)) {
		const perMinute = DOCUMENTED_LIMITS[category as RateCategory];
		if (perMinute === undefined) throw new Error(`requests in no documented category (${category}): the sandbox did not count them`);
		limitMs = Math.max(limitMs, (requests * DOCUMENTED_WINDOW_MS) / perMinute);
	}
	return { requestsByCategory, limitMs: round(limitMs, 0), msPerMessage: round(Math.max(sendingMs, limitMs) / items, 3) };
}

/** A gap between two requests of the Exotel run this long would be a wait for a window. */
const WAIT_GAP_MS = 1_000;

/** n8n's own per-item expression cost, for reading the Exotel node's time: sends nothing. */
export interface ExpressionsReference {
	items: number;
	executionId: string;
	/** executionTime of the Edit Fields node evaluating the Exotel node's two per-item expressions (to, body) */
	nodeMs: number;
	perMessageUs: number;
	/** Exotel node per message minus this */
	exotelRestPerMessageUs: number;
}

export interface SmsRealN8nReport {
	bench: 'sms-real-n8n';
	config: {
		items: number;
		onePerItemItems: number;
		memoryItems: number | null;
		latencyMs: number;
		warmUpItems: number;
		n8nVersion: string;
		n8nSettings: string;
		node: string;
		cpus: number;
		cpuModel: string;
		loadAverageStart: number[];
		loadAverageEnd: number[];
		sandbox: string;
	};
	exotel: RealRunFigures;
	handBuilt: RealRunFigures;
	onePerItem: RealRunFigures;
	expressionsReference: ExpressionsReference;
	ratios: {
		/** (Build bulk + HTTP Request) ÷ Exotel node executionTime */
		handBuiltOverExotel: number;
		/** one-per-item HTTP Request time per message ÷ Exotel node time per message */
		onePerItemOverExotel: number;
	};
	rateLimited: RateLimitedFigures;
	exotelWaits: ExotelWaits;
	memory: null | { exotel: MemoryRunFigures; handBuilt: MemoryRunFigures; generatorOnly: MemoryRunFigures };
	setupMs: number;
	totalBenchMs: number;
}

export async function runSmsRealN8nBench(options: SmsRealN8nOptions): Promise<SmsRealN8nReport> {
	const started = Date.now();
	const { log } = options;
	const N = options.items;
	const M = options.memoryItems;
	if (N > MAX_ITEMS || (!options.skipMemory && M > MAX_ITEMS)) {
		throw new Error(`sms-real-n8n: at most ${MAX_ITEMS} items (the generated numbers are +9198765 and 5 digits)`);
	}
	const onePerItemItems = Math.min(N, ONE_PER_ITEM_MAX);
	const loadAverageStart = loadAverage();

	const raised = Object.fromEntries(RAISED_CATEGORIES.map((c) => [c, RAISED_PER_MINUTE])) as Partial<Record<RateCategory, number>>;
	log(
		`sms-real-n8n: starting the sandbox in a child process (latency ${options.latencyMs} ms; documented rate limits, counters on, ` +
			`${RAISED_CATEGORIES.join(' and ')} raised to ${int(RAISED_PER_MINUTE)} a minute)...`,
	);
	const sandbox = await SandboxProcess.start({ latencyMs: options.latencyMs, documentedLimits: { limits: raised } });
	const workflows = benchWorkflows(sandbox.origin);
	// An account whose limits are higher: the credential says the same as the sandbox.
	const exotelData = { rateLimits: `Bulk SMS=${RAISED_PER_MINUTE}, SMS=${RAISED_PER_MINUTE}` };
	const setup = { bench: 'sms-real-n8n', sandbox, log, exotelCredential: EXOTEL_CREDENTIAL, exotelData, basicCredential: BASIC_CREDENTIAL, workflows };
	return withRealN8n(setup, async (instance, apiKey) => {
		const ctx: Ctx = { instance, apiKey, sandbox, latencyMs: options.latencyMs, log };
		const wf = Object.fromEntries(workflows.map((w) => [w.key, w])) as Record<BenchWorkflow['key'], BenchWorkflow>;

		const warmUpItems = Math.min(N, REAL_WARM_UP_ITEMS);
		log(`sms-real-n8n: warm-up, ${int(warmUpItems)} items through each workflow...`);
		for (const w of workflows) await execute(ctx, w, warmUpItems);
		const setupMs = Date.now() - started;

		log(`sms-real-n8n: 1. Exotel node, ${int(N)} items...`);
		const exotel = await measuredRun(ctx, wf.exotel, 'Exotel node', N, [EXOTEL], exotelEndpoint);
		if (exotel.nodeOutputs[EXOTEL] !== N) throw new BenchFailure(`Exotel node: ${exotel.nodeOutputs[EXOTEL]} output items for ${N} items`);
		log(`sms-real-n8n: 2. hand-built bulk (Code + HTTP Request), ${int(N)} items...`);
		const handBuilt = await measuredRun(ctx, wf.handBuilt, 'hand-built bulk (Code + HTTP Request)', N, [BUILD_BULK, HTTP_BULK], () => 'bulksend');
		log(`sms-real-n8n: 3. one request per item (HTTP Request), ${int(onePerItemItems)} items...`);
		const onePerItem = await measuredRun(ctx, wf.onePerItem, 'one request per item (HTTP Request)', onePerItemItems, [HTTP_ONE], () => 'send');

		log(`sms-real-n8n: reference, the same two expressions in an Edit Fields node (sends nothing), ${int(N)} items...`);
		const reference = await execute(ctx, wf.expressionsOnly, N);
		const referenceOut = nodeItems(reference.runData, SAME_EXPRESSIONS);
		if (referenceOut.length !== N || referenceOut[N - 1]?.json?.body !== bodyOf(N - 1)) {
			throw new Error(`Edit Fields reference: ${referenceOut.length} items, last body ${JSON.stringify(referenceOut[N - 1]?.json?.body)}`);
		}
		const referenceMs = nodeTime(reference.runData, SAME_EXPRESSIONS);

		const exotelPerMsgMs = exotel.sendingMs / N;
		const onePerItemPerMsgMs = onePerItem.sendingMs / onePerItemItems;
		const exotelCounted = counted(exotel.sendingMs, exotel.requestsByCategory, N);
		const oneCounted = counted(onePerItemPerMsgMs * N, { sms: N }, N);

		let memory: SmsRealN8nReport['memory'] = null;
		if (!options.skipMemory) {
			const generatorOnly = await memoryRun(ctx, wf.generatorOnly, 'generator only (Code node, no sending)', M, GENERATE);
			const exotelMem = await memoryRun(ctx, wf.exotel, 'Exotel node', M, EXOTEL);
			if (exotelMem.outputItems !== M) throw new BenchFailure(`memory run, Exotel node: ${exotelMem.outputItems} output items for ${M} items`);
			if (exotelMem.acceptedMessages !== M) throw new BenchFailure(`memory run, Exotel node: the sandbox accepted ${exotelMem.acceptedMessages} messages for ${M} items`);
			const handBuiltMem = await memoryRun(ctx, wf.handBuilt, 'hand-built bulk (Code + HTTP Request)', M, HTTP_BULK);
			if (handBuiltMem.acceptedMessages !== M) {
				throw new BenchFailure(`memory run, hand-built bulk: the sandbox accepted ${handBuiltMem.acceptedMessages} messages for ${M} items`);
			}
			memory = { exotel: exotelMem, handBuilt: handBuiltMem, generatorOnly };
		}

		return {
			bench: 'sms-real-n8n',
			config: {
				items: N,
				onePerItemItems,
				memoryItems: options.skipMemory ? null : M,
				latencyMs: options.latencyMs,
				warmUpItems: Math.min(N, REAL_WARM_UP_ITEMS),
				n8nVersion: instance.n8n.version,
				n8nSettings:
					'n8n start, regular execution mode, SQLite, EXECUTIONS_DATA_SAVE_ON_SUCCESS=all, Code nodes in the default (internal) task runner; ' +
					'workflows started by their Webhook trigger over loopback (responseMode lastNode), one after the other',
				...machine(),
				loadAverageStart,
				loadAverageEnd: loadAverage(),
				sandbox:
					`child process pid ${sandbox.pid} at ${sandbox.origin}, latency ${options.latencyMs} ms; documented rate limits with counters ` +
					`(X-RateLimit-* on every answer, fixed one-minute windows, 429 past them), ${RAISED_CATEGORIES.map((c) => RATE_CATEGORY_NAMES[c]).join(' and ')} ` +
					`raised to ${int(RAISED_PER_MINUTE)} a minute, and the Exotel credential's Custom Rate Limits the same (an account whose limits are higher)`,
			},
			exotel,
			handBuilt,
			onePerItem,
			expressionsReference: {
				items: N,
				executionId: reference.id,
				nodeMs: referenceMs,
				perMessageUs: round((referenceMs * 1000) / N, 1),
				exotelRestPerMessageUs: round(((exotel.sendingMs - referenceMs) * 1000) / N, 1),
			},
			ratios: {
				handBuiltOverExotel: round(handBuilt.sendingMs / exotel.sendingMs, 2),
				onePerItemOverExotel: round(onePerItemPerMsgMs / exotelPerMsgMs, 1),
			},
			rateLimited: {
				limits: { bulkSms: DOCUMENTED_LIMITS.bulkSms, sms: DOCUMENTED_LIMITS.sms },
				exotel: exotelCounted,
				handBuilt: counted(handBuilt.sendingMs, handBuilt.requestsByCategory, N),
				onePerItem: oneCounted,
				ratio: round(oneCounted.msPerMessage / exotelCounted.msPerMessage, 1),
			},
			exotelWaits: {
				http429: exotel.http429,
				largestGapMs: exotel.largestGapMs,
				requestSpanMs: exotel.requestSpanMs,
				gapThresholdMs: WAIT_GAP_MS,
				none: exotel.http429 === 0 && exotel.largestGapMs < WAIT_GAP_MS,
			},
			memory,
			setupMs,
			totalBenchMs: Date.now() - started,
		};
	});
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

export function formatSmsRealN8nReport(r: SmsRealN8nReport): string {
	const c = r.config;
	const runs = [r.exotel, r.handBuilt, r.onePerItem];
	const ms = (v: number | undefined) => (v === undefined ? 'n/a' : int(v));
	const perMsgUs = (v: number | undefined, items: number) => (v === undefined ? 'n/a' : n((v * 1000) / items, 1));
	const categories = (by: Record<string, number>) =>
		Object.entries(by)
			.map(([c, k]) => `${int(k)} ${RATE_CATEGORY_NAMES[c as RateCategory] ?? c}`)
			.join(', ') || 'none';
	const out: string[] = [];
	out.push('');
	out.push('=== SMS on a real n8n: Exotel Messaging SMS → Send vs hand-built HTTP Request workflows ===');
	out.push(
		`items ${int(c.items)} (one request per item: ${int(c.onePerItemItems)}), sandbox latency ${c.latencyMs} ms; ` +
			`n8n ${c.n8nVersion}, node ${c.node}, ${c.cpus} CPU (${c.cpuModel})`,
	);
	out.push(`n8n: ${c.n8nSettings}; each workflow warmed up with ${c.warmUpItems} items first`);
	out.push(`sandbox: ${c.sandbox}`);
	out.push(
		'a CPU comparison, not one of waits: at the documented limits (Bulk SMS 50 a minute) the Exotel node would wait for windows while the ' +
			'hand-built workflows, which know no limit, would not; here it reads the counters on every answer (measured) and never waits',
	);
	out.push(`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end (n8n, the sandbox and anything else share these CPUs)`);
	out.push('');
	out.push(
		table([
			['', r.exotel.label, r.handBuilt.label, r.onePerItem.label],
			['items', ...runs.map((f) => int(f.items))],
			['requests (sandbox log)', ...runs.map((f) => int(f.requests))],
			['requests by category (sandbox)', ...runs.map((f) => categories(f.requestsByCategory))],
			['HTTP 429 answers', ...runs.map((f) => int(f.http429))],
			['first → last request / largest gap between two (ms)', ...runs.map((f) => `${int(f.requestSpanMs)} / ${int(f.largestGapMs)}`)],
			['messages accepted (sandbox, To and Body checked)', ...runs.map((f) => int(f.acceptedMessages))],
			['Generate items, Code node executionTime (ms)', ...runs.map((f) => ms(f.nodeMs[GENERATE]))],
			['Exotel node executionTime (ms)', ms(r.exotel.nodeMs[EXOTEL]), '', ''],
			['Build bulk bodies, Code node executionTime (ms)', '', ms(r.handBuilt.nodeMs[BUILD_BULK]), ''],
			['HTTP Request node executionTime (ms)', '', ms(r.handBuilt.nodeMs[HTTP_BULK]), ms(r.onePerItem.nodeMs[HTTP_ONE])],
			['sending nodes, total (ms)', ...runs.map((f) => int(f.sendingMs))],
			['sending nodes, per message (µs)', ...runs.map((f) => n(f.sendingPerMessageUs, 1))],
			['  of which the Code node building the bodies (µs/msg)', '', perMsgUs(r.handBuilt.nodeMs[BUILD_BULK], r.handBuilt.items), ''],
			['output items of the sending node', int(r.exotel.nodeOutputs[EXOTEL]), int(r.handBuilt.nodeOutputs[HTTP_BULK]), int(r.onePerItem.nodeOutputs[HTTP_ONE])],
			['execution, startedAt → stoppedAt (ms)', ...runs.map((f) => int(f.executionMs))],
			['webhook call → answer (ms)', ...runs.map((f) => int(f.webhookWallMs))],
			['n8n RSS before / after the run (MiB)', ...runs.map((f) => `${n(f.n8nRss.beforeMiB)} / ${n(f.n8nRss.afterMiB)}`)],
			['n8n peak RSS during the run, sampled / VmHWM (MiB)', ...runs.map((f) => `${n(f.n8nRss.peakSampledMiB)} / ${n(f.n8nRss.hwmMiB)}`)],
		]),
	);
	for (const f of runs) {
		out.push(
			`"${f.label}": execution ${f.executionId}; requests ${Object.entries(f.requestPaths).map(([p, k]) => `${k} × ${p}`).join(', ') || 'none'}; ` +
				`statuses ${Object.entries(f.statuses).map(([s, k]) => `${k} × ${s}`).join(', ') || 'none'}`,
		);
	}
	out.push(
		`n8n server process pid ${r.exotel.n8nRss.pid}: /proc/<pid>/status VmRSS sampled every ${RSS_SAMPLE_MS} ms; VmHWM ` +
			(r.exotel.n8nRss.hwmReset ? 'reset just before each run (clear_refs 5)' : 'NOT resettable here: peak since the process started'),
	);
	out.push('');
	out.push(
		`hand-built ÷ Exotel (sending nodes' executionTime): ${n(r.ratios.handBuiltOverExotel, 2)}× ` +
			`(goal ≥ 1.0: the Exotel node no more expensive than the expert's Code + HTTP Request)`,
	);
	out.push(
		`one request per item ÷ Exotel, per message: ${n(r.ratios.onePerItemOverExotel, 1)}× ` +
			`(one request per item measured on ${int(c.onePerItemItems)} items; n8n's HTTP Request sends every item's request at once)`,
	);
	const w = r.exotelWaits;
	out.push(
		`Exotel node waits: ${int(w.http429)} × 429 in the sandbox's log, largest gap between two requests ${int(w.largestGapMs)} ms ` +
			`(a wait for a window would leave up to a minute; counted as one from ${int(w.gapThresholdMs)} ms), requests over ${int(w.requestSpanMs)} ms: ` +
			(w.none ? 'none, the time above is CPU and the service\'s latency, not windows' : 'SOME: the Exotel time above includes waits, not a CPU comparison'),
	);
	const x = r.expressionsReference;
	out.push(
		`reference, same n8n (sends nothing): an Edit Fields node evaluating the Exotel node's two per-item expressions (to, body) over ` +
			`${int(x.items)} items took ${int(x.nodeMs)} ms = ${n(x.perMessageUs, 1)} µs per message (n8n's expression evaluation plus the node's item copying); ` +
			`the Exotel node's time less that: ${n(x.exotelRestPerMessageUs, 1)} µs per message`,
	);
	const l = r.rateLimited;
	out.push('');
	out.push(
		`When the account's documented limits are counted (computed from the request counts, not measured): Sms/bulksend is Bulk SMS, ` +
			`${l.limits.bulkSms} requests a minute; Sms/send is SMS, ${l.limits.sms} a minute; time per message = max(sending nodes' time, ` +
			`each category's requests ÷ its limit) / N, for N = ${int(c.items)}:`,
	);
	out.push(
		table([
			['', 'requests for N, by category', 'at the limit (min)', 'ms per message'],
			['Exotel node (bulk)', categories(l.exotel.requestsByCategory), n(l.exotel.limitMs / 60_000, 1), n(l.exotel.msPerMessage, 3)],
			['hand-built bulk', categories(l.handBuilt.requestsByCategory), n(l.handBuilt.limitMs / 60_000, 1), n(l.handBuilt.msPerMessage, 3)],
			[
				`one request per item (time extrapolated from ${int(c.onePerItemItems)} items)`,
				categories(l.onePerItem.requestsByCategory),
				n(l.onePerItem.limitMs / 60_000, 1),
				n(l.onePerItem.msPerMessage, 3),
			],
		]),
	);
	out.push(
		`one request per item ÷ Exotel, limits counted: ${n(l.ratio, 1)}× (when both are window-bound: 100 messages a request × ` +
			`${l.limits.bulkSms} ÷ ${l.limits.sms} requests a minute = ${n((MESSAGES_PER_REQUEST * l.limits.bulkSms) / l.limits.sms, 0)}×)`,
	);

	if (r.memory) {
		const m = r.memory;
		const list = [m.exotel, m.handBuilt, m.generatorOnly];
		out.push('');
		out.push(
			`Memory: ${int(c.memoryItems)} items per run, each on a freshly restarted n8n server process after a ${m.exotel.warmUpItems}-item warm-up run; ` +
				`RSS of the n8n server process (/proc VmRSS every ${RSS_SAMPLE_MS} ms, and VmHWM${m.exotel.hwmReset ? ' reset just before the run' : ''}):`,
		);
		out.push(
			table([
				['', ...list.map((f) => f.label)],
				['items', ...list.map((f) => int(f.items))],
				['n8n pid', ...list.map((f) => String(f.pid))],
				['RSS before (MiB)', ...list.map((f) => n(f.rssBeforeMiB))],
				['peak RSS, sampled / VmHWM (MiB)', ...list.map((f) => `${n(f.peakSampledMiB)} / ${n(f.hwmMiB)}`)],
				['RSS after, execution saved (MiB)', ...list.map((f) => n(f.rssAfterMiB))],
				['RSS growth per message, (peak - before) / M (bytes)', ...list.map((f) => int(f.growthPerMessageBytes))],
				['  minus the generator-only run (bytes/msg)', ...list.map((f) => (f === m.generatorOnly ? '' : int(f.growthPerMessageBytes - m.generatorOnly.growthPerMessageBytes)))],
				['task runner children RSS, before / peak sampled (MiB)', ...list.map((f) => `${n(f.childrenRssBeforeMiB)} / ${n(f.childrenPeakSampledMiB)}`)],
				['output items of the last node', ...list.map((f) => int(f.outputItems))],
				['messages accepted (sandbox)', ...list.map((f) => int(f.acceptedMessages))],
				['requests (sandbox)', ...list.map((f) => int(f.requests))],
				['execution, startedAt → stoppedAt (ms)', ...list.map((f) => int(f.executionMs))],
				['Exotel / Build bulk + HTTP executionTime (ms)', int(m.exotel.nodeMs[EXOTEL]), int((m.handBuilt.nodeMs[BUILD_BULK] ?? NaN) + (m.handBuilt.nodeMs[HTTP_BULK] ?? NaN)), ''],
			]),
		);
		out.push(
			'(the whole n8n process: the webhook, the generator Code node\'s items coming back from the task runner, the sending node, ' +
				'and the execution data n8n keeps and saves to SQLite; the generator-only run shows what the items cost without sending)',
		);
	} else {
		out.push('');
		out.push('Memory runs skipped (--skip-memory).');
	}
	out.push(`set-up (pack, install, import, start, warm-up) ${n(r.setupMs / 1000, 1)} s; bench time ${n(r.totalBenchMs / 1000, 1)} s`);
	return out.join('\n');
}
