/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- samples this process's CPU and memory (process, timers, worker_threads, perf_hooks, globalThis.gc); never shipped */
/**
 * Measuring one run: wall time, this process's CPU time (`process.cpuUsage()` delta, user +
 * system) and peak memory, from a baseline taken after a full GC when `global.gc` is exposed
 * (run.ts re-executes with --expose-gc).
 *
 * Memory is sampled every 10 ms: rss (process-wide) from a worker thread, so that it is also
 * sampled while the main thread is busy in a long synchronous stretch (n8n-core evaluating the
 * parameters of every item); heapUsed (the main isolate's) from a timer on the main thread, which
 * fires between event-loop turns only, plus once at the end of the run.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

export interface Measurement<T> {
	value: T;
	wallMs: number;
	cpuUserUs: number;
	cpuSystemUs: number;
	cpuTotalUs: number;
	rssBeforeBytes: number;
	heapBeforeBytes: number;
	peakRssBytes: number;
	peakHeapBytes: number;
	/** peakHeapBytes - heapBeforeBytes */
	peakHeapDeltaBytes: number;
	/** peakRssBytes - rssBeforeBytes */
	peakRssDeltaBytes: number;
	/** heapUsed samples (main thread) */
	samples: number;
	/** rss samples (worker thread) */
	rssSamples: number;
	gcExposed: boolean;
}

export const SAMPLE_INTERVAL_MS = 10;

export function collectGarbage(): boolean {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (typeof gc !== 'function') return false;
	gc();
	gc();
	return true;
}

/** [peak rss, samples, stop flag] in shared memory, written by the worker. */
const RSS_SAMPLER = `
const { workerData } = require('node:worker_threads');
const cells = new Float64Array(workerData.buffer);
const flags = new Int32Array(workerData.flags);
const sample = () => {
	const rss = process.memoryUsage.rss();
	if (rss > cells[0]) cells[0] = rss;
	cells[1] += 1;
};
sample();
const timer = setInterval(() => {
	if (Atomics.load(flags, 0) === 1) { clearInterval(timer); return; }
	sample();
}, workerData.intervalMs);
`;

async function startRssSampler(): Promise<{ stop(): Promise<{ peak: number; samples: number }> }> {
	const buffer = new SharedArrayBuffer(16);
	const flags = new SharedArrayBuffer(4);
	const cells = new Float64Array(buffer);
	const worker = new Worker(RSS_SAMPLER, { eval: true, workerData: { buffer, flags, intervalMs: SAMPLE_INTERVAL_MS } });
	worker.unref();
	await new Promise<void>((resolve, reject) => {
		worker.once('online', () => resolve());
		worker.once('error', reject);
	});
	return {
		async stop() {
			Atomics.store(new Int32Array(flags), 0, 1);
			const result = { peak: cells[0], samples: cells[1] };
			await worker.terminate();
			return result;
		},
	};
}

export async function measure<T>(fn: () => Promise<T>): Promise<Measurement<T>> {
	const rssSampler = await startRssSampler();
	const gcExposed = collectGarbage();
	const before = process.memoryUsage();
	let peakRss = before.rss;
	let peakHeap = before.heapUsed;
	let samples = 0;
	const sample = () => {
		const now = process.memoryUsage();
		samples++;
		if (now.rss > peakRss) peakRss = now.rss;
		if (now.heapUsed > peakHeap) peakHeap = now.heapUsed;
	};
	const sampler = setInterval(sample, SAMPLE_INTERVAL_MS);
	const cpuStart = process.cpuUsage();
	const wallStart = performance.now();
	let value: T;
	let finished = false;
	try {
		value = await fn();
		finished = true;
	} finally {
		clearInterval(sampler);
		// a failed run leaves here with its error: the sampler's worker goes first
		if (!finished) await rssSampler.stop();
	}
	const wallMs = performance.now() - wallStart;
	const cpu = process.cpuUsage(cpuStart);
	sample();
	const rss = await rssSampler.stop();
	if (rss.peak > peakRss) peakRss = rss.peak;
	return {
		value,
		wallMs,
		cpuUserUs: cpu.user,
		cpuSystemUs: cpu.system,
		cpuTotalUs: cpu.user + cpu.system,
		rssBeforeBytes: before.rss,
		heapBeforeBytes: before.heapUsed,
		peakRssBytes: peakRss,
		peakHeapBytes: peakHeap,
		peakHeapDeltaBytes: peakHeap - before.heapUsed,
		peakRssDeltaBytes: peakRss - before.rss,
		samples,
		rssSamples: rss.samples,
		gcExposed,
	};
}

export const mib = (bytes: number) => bytes / (1024 * 1024);
