/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- posts to n8n, samples its server process and reads git describe (process, timers, fs, http, perf_hooks, child_process getconf and git); never shipped */
/**
 * What the benches that post callbacks into a real n8n share (callback-burst, status-flood): the
 * keep-alive posting pool, /proc sampling of n8n's server process, n8n's executions (public API
 * pages, the internal list's counts and createdAt), the sampler that follows a burst until its
 * executions are saved, and percentiles.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { performance } from 'node:perf_hooks';

import { REPO_ROOT, type N8nInstance, type RunJson } from '../harness';
import { round } from './common';

const REQUEST_TIMEOUT_MS = 60_000;
/** How often the drain sampler asks n8n for its counts (plus the requests' own time). */
export const DRAIN_POLL_MS = 250;
/** The drain wait gives up when the saved count has not moved for this long with nothing running. */
const DRAIN_STALL_MS = 30_000;
const DRAIN_MAX_MS = 600_000;
const PAGE_LIMIT = 250;
/** As much of an answer's body as is kept (to tell what n8n answered). */
const ANSWER_CHARS = 256;

// ---------------------------------------------------------------------------------------------
// Posting
// ---------------------------------------------------------------------------------------------

/** The bytes and headers of one POST (content-length is added). */
export interface Posted {
	body: Buffer;
	headers: http.OutgoingHttpHeaders;
}

export interface Sent<C> {
	callback: C;
	status: number;
	/** socket/timeout error code when there was no HTTP answer */
	error?: string;
	latencyMs: number;
	/** epoch ms of the answer (its last byte), to compare with n8n's execution timestamps */
	answeredAt: number;
	/** the answer's body, at most ANSWER_CHARS characters */
	answer: string;
}

function post<C>(agent: http.Agent, url: URL, callback: C, posted: Posted): Promise<Sent<C>> {
	return new Promise((resolve) => {
		const headers: http.OutgoingHttpHeaders = { ...posted.headers, 'content-length': posted.body.length };
		const t0 = performance.now();
		let settled = false;
		let answer = '';
		const done = (status: number, error?: string) => {
			if (settled) return;
			settled = true;
			resolve({ callback, status, error, latencyMs: performance.now() - t0, answeredAt: Date.now(), answer });
		};
		const req = http.request(
			{ agent, hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, timeout: REQUEST_TIMEOUT_MS },
			(res) => {
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => {
					if (answer.length < ANSWER_CHARS) answer = (answer + chunk).slice(0, ANSWER_CHARS);
				});
				res.on('end', () => done(res.statusCode ?? 0));
				res.on('error', (error: NodeJS.ErrnoException) => done(0, error.code ?? error.message));
			},
		);
		req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
		req.on('error', (error: NodeJS.ErrnoException) => done(0, error.code ?? error.message));
		req.end(posted.body);
	});
}

/** Posts every callback with at most `concurrency` in flight over keep-alive loopback connections. */
export async function sendAll<C>(
	url: string,
	callbacks: C[],
	concurrency: number,
	request: (callback: C) => Posted,
	onAnswer: (sent: Sent<C>) => void = () => {},
) {
	const target = new URL(url);
	if (!['127.0.0.1', 'localhost'].includes(target.hostname)) throw new Error(`Refusing non-loopback URL ${url}`);
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
	const results: Array<Sent<C>> = new Array(callbacks.length);
	let next = 0;
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const startedAt = Date.now();
	const worker = async () => {
		while (next < callbacks.length) {
			const index = next++;
			results[index] = await post(agent, target, callbacks[index], request(callbacks[index]));
			onAnswer(results[index]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, callbacks.length) }, worker));
	const wallMs = performance.now() - t0;
	const cpu = process.cpuUsage(cpu0);
	agent.destroy();
	return { results, wallMs, startedAt, endedAt: Date.now(), clientCpuMs: (cpu.user + cpu.system) / 1000 };
}

export const outcome = (s: { status: number; error?: string }) => (s.status ? String(s.status) : `error ${s.error ?? 'unknown'}`);

// ---------------------------------------------------------------------------------------------
// n8n's server process, from /proc (the harness gives its pid: `serverPid`)
// ---------------------------------------------------------------------------------------------

export interface ProcSample {
	cpuMs: number;
	rssBytes: number;
}

let clockTicks: number | undefined;
function ticksPerSecond(): number {
	if (clockTicks === undefined) {
		try {
			clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
		} catch {
			clockTicks = 100;
		}
	}
	return clockTicks;
}

export function procSample(pid: number): ProcSample | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after "(comm)": state is field 3, utime 14, stime 15.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const ticks = Number(fields[11]) + Number(fields[12]);
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
		return { cpuMs: (ticks * 1000) / ticksPerSecond(), rssBytes: rssKb * 1024 };
	} catch {
		return undefined;
	}
}

/** Samples the process every 100 ms until stopped: peak RSS, and CPU between marks. */
export class ProcWatcher {
	peakRssBytes = 0;
	samples = 0;
	/** with `keepSeries`: every sample's time (epoch ms) and RSS */
	readonly series: Array<{ at: number; rssBytes: number }> = [];
	private timer?: NodeJS.Timeout;

	constructor(
		readonly pid: number,
		private readonly keepSeries = false,
	) {}

	sample(): ProcSample | undefined {
		const s = procSample(this.pid);
		if (s) {
			this.samples++;
			if (s.rssBytes > this.peakRssBytes) this.peakRssBytes = s.rssBytes;
			if (this.keepSeries) this.series.push({ at: Date.now(), rssBytes: s.rssBytes });
		}
		return s;
	}

	/** The series cut into `buckets` equal spans from `from`: each span's end (ms from `from`) and its highest RSS (MiB). */
	peaks(from: number, buckets: number): Array<{ atMs: number; peakMiB: number }> {
		if (this.series.length === 0) return [];
		const span = Math.max(1, (this.series[this.series.length - 1].at - from) / buckets);
		const out: Array<{ atMs: number; peakMiB: number }> = [];
		for (const { at, rssBytes } of this.series) {
			const i = Math.min(buckets - 1, Math.max(0, Math.floor((at - from) / span)));
			out[i] = { atMs: Math.round((i + 1) * span), peakMiB: Math.max(out[i]?.peakMiB ?? 0, mibOf(rssBytes)) };
		}
		return out.filter(Boolean);
	}

	start(): void {
		this.timer = setInterval(() => this.sample(), 100);
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
	}
}

// ---------------------------------------------------------------------------------------------
// Executions through the public API
// ---------------------------------------------------------------------------------------------

export interface ExecutionSummary {
	id: string;
	status?: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
	createdAt?: string;
	data?: RunJson['data'];
}

const isDone = (e: ExecutionSummary) => e.finished === true || (!!e.status && !['new', 'running', 'waiting'].includes(e.status));

/**
 * Every saved execution of the workflow: pages of 250 following `nextCursor`, each page handed to
 * `onPage` (so that a bench need not hold every execution's data at once). Running ones are not
 * listed by n8n.
 */
export async function forEachExecutionPage(
	instance: N8nInstance,
	workflowId: string,
	includeData: boolean,
	onPage: (page: ExecutionSummary[]) => void,
): Promise<{ executions: number; pages: number }> {
	let cursor: string | null | undefined;
	let pages = 0;
	let executions = 0;
	do {
		const q = new URLSearchParams({ workflowId, includeData: String(includeData), limit: String(PAGE_LIMIT) });
		if (cursor) q.set('cursor', cursor);
		const page = await instance.publicApi<{ data: ExecutionSummary[]; nextCursor?: string | null }>('GET', `/executions?${q.toString()}`);
		executions += page.data.length;
		onPage(page.data);
		cursor = page.nextCursor;
		if (++pages > 10_000) throw new Error('executions paging does not end');
	} while (cursor);
	return { executions, pages };
}

/** Every saved execution of the workflow, in one list. */
export async function allExecutions(instance: N8nInstance, workflowId: string, includeData: boolean): Promise<{ executions: ExecutionSummary[]; pages: number }> {
	const executions: ExecutionSummary[] = [];
	const { pages } = await forEachExecutionPage(instance, workflowId, includeData, (page) => executions.push(...page));
	return { executions, pages };
}

async function runningCount(instance: N8nInstance, workflowId: string): Promise<number> {
	const q = new URLSearchParams({ workflowId, status: 'running', limit: String(PAGE_LIMIT) });
	const page = await instance.publicApi<{ data: ExecutionSummary[] }>('GET', `/executions?${q.toString()}`);
	return page.data.length;
}

const COMPLETED = ['success', 'error', 'crashed', 'canceled'];
export const ALL_STATUSES = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];

interface RestPage {
	data?: { count?: number; estimated?: boolean; results?: Array<{ id: string; createdAt?: string; startedAt?: string; stoppedAt?: string }> };
}

/** n8n's internal executions list (what the editor uses): with a status filter it pages by id (`lastId`, 100 at most) and counts. */
async function restExecutions(instance: N8nInstance, workflowId: string, statuses: string[], limit: number, lastId?: string) {
	const q = new URLSearchParams({ filter: JSON.stringify({ workflowId, status: statuses }), limit: String(limit) });
	if (lastId) q.set('lastId', lastId);
	const res = await instance.rest<RestPage>('GET', `/executions?${q.toString()}`);
	return res.status === 200 ? res.data.data : undefined;
}

/** Exact count from n8n's internal executions list; undefined when it gives none (estimated, or an error). */
export async function restCount(instance: N8nInstance, workflowId: string, statuses: string[]): Promise<number | undefined> {
	const page = await restExecutions(instance, workflowId, statuses, 1).catch(() => undefined);
	return page && typeof page.count === 'number' && page.estimated !== true ? page.count : undefined;
}

export interface ExecutionCounts {
	/** execution rows in the database, any status */
	rows: number;
	/** finished executions */
	finished: number;
	/** rows still `new` (created, not started; NaN unless asked for) */
	notStarted: number;
}

/**
 * Execution rows in the database (any status) and finished executions, and with `countNew` the rows
 * still `new`: a count request each (cheap, they are polled during a burst); without counts, the
 * public API's pages, which do not list running executions (rows then unknown).
 */
export async function executionCounts(instance: N8nInstance, workflowId: string, countNew = false): Promise<ExecutionCounts> {
	const [rows, finished, notStarted] = await Promise.all([
		restCount(instance, workflowId, ALL_STATUSES),
		restCount(instance, workflowId, COMPLETED),
		countNew ? restCount(instance, workflowId, ['new']) : Promise.resolve(NaN),
	]);
	if (rows !== undefined && finished !== undefined) return { rows, finished, notStarted: notStarted ?? NaN };
	const { executions } = await allExecutions(instance, workflowId, false);
	return { rows: NaN, finished: executions.filter(isDone).length, notStarted: NaN };
}

/** createdAt of every execution, by execution id: when n8n asked to insert its row (set in JS before the insert is queued). */
export async function createdTimes(instance: N8nInstance, workflowId: string): Promise<Map<string, number>> {
	const out = new Map<string, number>();
	let lastId: string | undefined;
	for (let pages = 0; pages < 10_000; pages++) {
		const page = await restExecutions(instance, workflowId, ALL_STATUSES, 100, lastId).catch(() => undefined);
		const results = page?.results ?? [];
		if (results.length === 0) break;
		for (const e of results) {
			const t = Date.parse(e.createdAt ?? '');
			if (Number.isFinite(t)) out.set(String(e.id), t);
		}
		lastId = String(results[results.length - 1].id);
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// Following a burst until its executions are saved
// ---------------------------------------------------------------------------------------------

/** Shared with the sampler while the burst runs. */
export interface BurstState {
	/** callbacks answered 200 (2xx) so far */
	accepted: number;
	/** set when the burst is over */
	endedAt?: number;
	/** finished executions to wait for (set with endedAt) */
	target?: number;
}

export interface Sample {
	/** ms from the start of the burst to when the counts were asked for */
	atMs: number;
	/** callbacks answered 200 (2xx) when the counts were asked for */
	accepted: number;
	/** execution rows in the database (any status) */
	rows: number;
	/** finished executions */
	finished: number;
	/** rows still `new` (only when the sampler counts them) */
	notStarted?: number;
}

export interface DrainResult {
	reached: boolean;
	/** ms from the last answer of the burst until a count showed every execution finished */
	afterBurstMs: number;
	finished: number;
	samples: Sample[];
}

/**
 * From the start of the burst, counts n8n's execution rows and finished executions (and with
 * `countNew` the rows still `new`) every DRAIN_POLL_MS (plus the requests' own time) until, once
 * the burst is over, `target` have finished, nothing has moved for DRAIN_STALL_MS, or DRAIN_MAX_MS
 * has passed. Counts are relative to `baseline` (executions before the burst).
 */
export async function sampleUntilDrained(
	instance: N8nInstance,
	workflowId: string,
	state: BurstState,
	startedAt: number,
	baseline: { rows: number; finished: number; notStarted?: number },
	countNew = false,
): Promise<DrainResult> {
	const samples: Sample[] = [];
	let last = -1;
	let lastMoved = Date.now();
	for (;;) {
		const askedAt = Date.now();
		const accepted = state.accepted;
		const counts = await executionCounts(instance, workflowId, countNew);
		const finished = counts.finished - baseline.finished;
		const sample: Sample = { atMs: askedAt - startedAt, accepted, rows: counts.rows - baseline.rows, finished };
		if (countNew) sample.notStarted = counts.notStarted - (baseline.notStarted ?? 0);
		samples.push(sample);
		const now = Date.now();
		if (state.endedAt !== undefined && state.target !== undefined) {
			const result = { afterBurstMs: now - state.endedAt, finished, samples };
			if (finished >= state.target) return { reached: true, ...result };
			if (finished !== last) {
				last = finished;
				lastMoved = now;
			} else if (now - lastMoved > DRAIN_STALL_MS && (await runningCount(instance, workflowId)) === 0) {
				return { reached: false, ...result };
			}
			if (now - state.endedAt > DRAIN_MAX_MS) return { reached: false, ...result };
		}
		await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
	}
}

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

export interface Percentiles {
	count: number;
	mean: number;
	p50: number;
	p90: number;
	p95: number;
	p99: number;
	max: number;
}

export function percentiles(values: number[]): Percentiles {
	if (values.length === 0) return { count: 0, mean: NaN, p50: NaN, p90: NaN, p95: NaN, p99: NaN, max: NaN };
	const sorted = [...values].sort((a, b) => a - b);
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
	const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
	return { count: sorted.length, mean: round(mean, 1), p50: round(at(50), 1), p90: round(at(90), 1), p95: round(at(95), 1), p99: round(at(99), 1), max: round(sorted[sorted.length - 1], 1) };
}

/** n8n counts as idle when its server used less than this share of a core over a second, twice in a row. */
const IDLE_CPU_SHARE = 0.05;

/** Waits until n8n's server process is idle (IDLE_CPU_SHARE), at most `maxWaitMs`; the time it waited. */
export async function waitForIdle(pid: number | undefined, maxWaitMs: number): Promise<number> {
	if (pid === undefined) return 0;
	const t0 = Date.now();
	let quiet = 0;
	let last = procSample(pid);
	while (Date.now() - t0 < maxWaitMs && quiet < 2) {
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const now = procSample(pid);
		if (!now || !last) return Date.now() - t0;
		quiet = now.cpuMs - last.cpuMs < IDLE_CPU_SHARE * 1000 ? quiet + 1 : 0;
		last = now;
	}
	return Date.now() - t0;
}

/** `git describe` of the checkout, "+ changes" when the product code differs from it (read-only git). */
export function packageSource(): string {
	try {
		const head = execFileSync('git', ['describe', '--always', '--dirty=', '--abbrev=7'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
		const changed = execFileSync('git', ['status', '--porcelain', '--', 'nodes', 'credentials', 'package.json'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
		return changed ? `${head} + changes (${changed.split('\n').length} files in nodes/, credentials/, package.json)` : head;
	} catch {
		return 'unknown';
	}
}

export const mibOf = (bytes: number) => round(bytes / (1024 * 1024), 1);

export function countBy<T>(list: T[], key: (item: T) => string): Record<string, number> {
	const out: Record<string, number> = {};
	for (const item of list) out[key(item)] = (out[key(item)] ?? 0) + 1;
	return out;
}

/** Lines n8n printed after `before` (the harness keeps a tail; anchored on the end of `before`). */
export function newLogLines(before: string, after: string): string[] {
	const anchor = before.slice(-200);
	const at = anchor ? after.lastIndexOf(anchor) : -1;
	const fresh = at >= 0 ? after.slice(at + anchor.length) : after;
	return fresh.split('\n').map((line) => line.trim()).filter(Boolean);
}
