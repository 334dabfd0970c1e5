/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- waits between phases and removes the packed tarball's folder (timers, path); never shipped */
/**
 * Callback burst bench: N signed chat-app incoming-message callbacks (spec: "Chat-app incoming
 * message webhook", signed with X-Service-Signature) posted as fast as a bounded pool of
 * keep-alive connections allows into an ACTIVE Exotel Messaging Trigger on a real n8n 2.8.4
 * (`n8n start`, the packed package installed as users get it, SQLite, regular execution mode),
 * with F forged callbacks (bad, missing or tampered signatures) mixed in.
 *
 * Measured: wall time of the burst (first request sent to last response), accepted/s (HTTP 200
 * to signed callbacks / wall seconds), latency percentiles, non-200 answers; while the burst runs
 * and after it, n8n's count of execution rows and of finished executions (internal executions
 * list), hence the drain (last 200 → every execution finished and saved) and how many callbacks
 * had been answered 200 without an execution row yet; per message, its 200 → its execution's
 * createdAt, startedAt and stoppedAt; n8n's server process CPU and RSS from /proc. Delivery is
 * then proven from the saved executions (public API, paged, with data): the message ids the
 * trigger emitted equal the ids sent, each exactly once, every execution succeeded, item contents
 * match, and no forged callback started anything.
 *
 * The trigger answers 200 itself (`responseMode: onReceived`, `noWebhookResponse`) before n8n has
 * stored the execution, so accepted/s measures how fast n8n admits callbacks, and the drain how
 * long it takes to store and run them.
 */
import * as path from 'node:path';

import { makeWorkflow, N8nInstance, type OutputItem, packPackage, removeTempDir, type WorkflowNode } from '../harness';
import { signPayload } from '../../sandbox/callbacks';
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { BenchFailure, int, loadAverage, machine, n, round, table, verdict } from './common';
import {
	allExecutions,
	countBy,
	createdTimes,
	DRAIN_POLL_MS,
	executionCounts,
	mibOf,
	newLogLines,
	outcome,
	percentiles,
	ProcWatcher,
	sampleUntilDrained,
	sendAll,
	type BurstState,
	type Percentiles,
	type Posted,
	type Sample,
	type Sent as SentOf,
} from './n8n-callbacks';

export type { Percentiles } from './n8n-callbacks';

export const DEFAULT_CALLBACKS = 1000;
export const DEFAULT_CONCURRENCY = 50;
export const DEFAULT_FORGED = 20;
/** Signed callbacks sent (and drained) before the burst, so lazy loading in n8n is not measured; they are checked too. */
export const WARM_UP_CALLBACKS = 20;

const PACKAGE = 'n8n-nodes-exotel';
const TRIGGER = 'Exotel Messaging Trigger';
const AFTER = 'Received';
const WEBHOOK_ID = 'c0ffee00-0000-4000-8000-0000000b3e57';
const BUSINESS_NUMBER = '+918047112233';
const SIGNATURE_HEADER = 'x-service-signature';
/** After the drain, a pause before the final count, so a late duplicate would be seen. */
const SETTLE_MS = 2_000;
/** As much of n8n's output as the harness keeps (256 KiB). */
const LOG_CHARS = 256 * 1024;

export interface CallbackBurstOptions {
	callbacks: number;
	concurrency: number;
	forged: number;
	/** Extra environment for n8n (e.g. N8N_CONCURRENCY_PRODUCTION_LIMIT), for investigating; reported in the config. */
	n8nEnv?: Record<string, string>;
	log: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// The callbacks
// ---------------------------------------------------------------------------------------------

type ForgeryKind = 'zero signature' | 'wrong secret' | 'tampered body' | 'no signature';
const FORGERIES: ForgeryKind[] = ['zero signature', 'wrong secret', 'tampered body', 'no signature'];

interface Callback {
	id: string;
	/** null for a signed callback */
	forgery: ForgeryKind | null;
	body: Buffer;
	signature: string | undefined;
	expected: { from: string; name: string; type: string; text: string };
}

type Sent = SentOf<Callback>;

/** A callback as posted: JSON, with its X-Service-Signature when it has one. */
function requestOf(callback: Callback): Posted {
	const headers: Posted['headers'] = { 'content-type': 'application/json' };
	if (callback.signature !== undefined) headers[SIGNATURE_HEADER] = callback.signature;
	return { body: callback.body, headers };
}

const pad = (i: number, width: number) => String(i).padStart(width, '0');

/** One incoming chat-app message in the spec's shape; text, image (caption) and button (with context) in turn. */
function incomingBody(id: string, i: number, runTag: string) {
	const from = `+9199${pad(i % 100_000_000, 8)}`;
	const name = `Customer ${i}`;
	const timestamp = new Date(Date.UTC(2026, 0, 31, 10, 0, 0) + i * 1000).toISOString().replace('Z', '+00:00');
	const kind = i % 10 < 7 ? 'text' : i % 10 < 9 ? 'image' : 'button';
	const message: Record<string, unknown> = { id, from, to: BUSINESS_NUMBER, timestamp, type: kind };
	let text: string;
	if (kind === 'text') {
		text = `Order ${runTag}-${i}: where is it?`;
		message.text = { body: text };
	} else if (kind === 'image') {
		text = `Photo ${runTag}-${i}`;
		message.image = { id: `media-${runTag}-${i}`, mime_type: 'image/jpeg', sha256: 'ab'.repeat(32), caption: text };
	} else {
		text = 'Yes';
		message.button = { text, payload: `CONFIRM_${i}` };
		message.context = { from: BUSINESS_NUMBER, id: `wamid.original-${runTag}-${i}` };
	}
	const body = {
		event: 'incoming_message',
		timestamp,
		account_sid: SANDBOX_ACCOUNT.accountSid,
		message,
		contact: { wa_id: from.replace(/^\+/, ''), profile: { name } },
	};
	return { body, expected: { from, name, type: kind, text } };
}

function signedCallback(id: string, i: number, runTag: string): Callback {
	const { body, expected } = incomingBody(id, i, runTag);
	const raw = Buffer.from(JSON.stringify(body));
	return { id, forgery: null, body: raw, signature: signPayload(raw, SANDBOX_ACCOUNT.webhookSigningSecret), expected };
}

function forgedCallback(id: string, i: number, runTag: string, forgery: ForgeryKind): Callback {
	const { body, expected } = incomingBody(id, i, runTag);
	const raw = Buffer.from(JSON.stringify(body));
	let sent = raw;
	let signature: string | undefined;
	if (forgery === 'zero signature') signature = `sha256=${'0'.repeat(64)}`;
	if (forgery === 'wrong secret') signature = signPayload(raw, 'not-the-signing-secret');
	if (forgery === 'tampered body') {
		// A genuine signature of the original, with the text changed afterwards.
		signature = signPayload(raw, SANDBOX_ACCOUNT.webhookSigningSecret);
		sent = Buffer.from(raw.toString('utf8').replace(expected.text, `${expected.text} (tampered)`));
	}
	return { id, forgery, body: sent, signature, expected };
}

/** The burst: N signed callbacks with F forged ones spread evenly among them. */
function burstCallbacks(count: number, forged: number, runTag: string): Callback[] {
	const signed = Array.from({ length: count }, (_, i) => signedCallback(`wamid.${runTag}.${pad(i, 6)}`, i, runTag));
	const out = [...signed];
	for (let k = forged - 1; k >= 0; k--) {
		const at = Math.min(out.length, Math.round(((k + 0.5) * count) / forged));
		out.splice(at, 0, forgedCallback(`wamid.${runTag}.forged-${pad(k, 4)}`, count + k, runTag, FORGERIES[k % FORGERIES.length]));
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------------

export interface CallbackBurstReport {
	bench: 'callback-burst';
	config: {
		callbacks: number;
		forged: number;
		warmUpCallbacks: number;
		concurrency: number;
		n8nVersion: string;
		n8nSettings: string;
		node: string;
		cpus: number;
		cpuModel: string;
		/** os.loadavg() at the start and at the end: other work on the machine (another n8n, tsc, jest) skews every figure */
		loadAverageStart: number[];
		loadAverageEnd: number[];
		payloadBytes: { min: number; mean: number; max: number };
		client: string;
	};
	burst: {
		requests: number;
		wallMs: number;
		/** HTTP 200 answers to signed callbacks / wall seconds */
		acceptedPerSecond: number;
		/** every answer (200 and 401) / wall seconds */
		answeredPerSecond: number;
		accepted: number;
		/** answers to signed callbacks that were not 200 (status or error code → count) */
		signedNot200: Record<string, number>;
		forged401: number;
		forgedNot401: Record<string, number>;
		latencySignedMs: Percentiles;
		latencyForgedMs: Percentiles;
		clientCpuMs: number;
	};
	drain: {
		reached: boolean;
		/** last 200 of the burst → every execution finished and saved (resolution DRAIN_POLL_MS + two count requests) */
		afterBurstMs: number;
		/** first request of the burst → every execution finished and saved */
		fromBurstStartMs: number;
		/** burst executions / fromBurstStartMs */
		executionsPerSecond: number;
		polls: number;
		/** a dozen of the samples taken from the start of the burst */
		curve: Sample[];
		/** per message: its 200 → n8n asks to insert its execution row (createdAt, from the internal executions list) */
		answerToCreatedMs: Percentiles;
		/** most callbacks answered 200 without an execution row in the database, over the samples (null without counts) */
		peakAcceptedNotInDb: number | null;
		/** the same at the first sample after the last 200 of the burst */
		acceptedNotInDbAtBurstEnd: number | null;
		/** per message: its 200 → its execution's startedAt / stoppedAt; execution stoppedAt - startedAt */
		answerToStartMs: Percentiles;
		answerToStopMs: Percentiles;
		executionDurationMs: Percentiles;
	};
	/** what n8n printed (log level info) from just before the burst to the end of the drain */
	n8nLog: { lines: number; warnings: number; warningSample: string[] };
	delivery: {
		expectedIds: number;
		executions: number;
		pages: number;
		executionStatuses: Record<string, number>;
		missing: number;
		missingSample: string[];
		duplicated: number;
		duplicatedSample: string[];
		unexpected: number;
		forgedExecuted: number;
		executionsNotSuccessful: number;
		contentMismatches: number;
		mismatchSample: string[];
	};
	n8nProcess: null | {
		pid: number;
		rssBeforeMiB: number;
		peakRssMiB: number;
		rssAfterMiB: number;
		cpuBurstMs: number;
		/** CPU / wall of the burst: 100 % = one full core */
		cpuBurstPercent: number;
		cpuDrainMs: number;
		cpuDrainPercent: number;
		cpuPerCallbackMs: number;
		samples: number;
	};
	checks: {
		allSignedAccepted: boolean;
		forgedRejected: boolean;
		noneLost: boolean;
		noneDuplicated: boolean;
		allSucceeded: boolean;
		contentIntact: boolean;
	};
	setupMs: number;
	totalBenchMs: number;
}

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

export async function runCallbackBurstBench(options: CallbackBurstOptions): Promise<CallbackBurstReport> {
	const started = Date.now();
	const { log } = options;
	const loadAverageStart = loadAverage();
	const runTag = Date.now().toString(36);

	log('callback-burst: starting the sandbox (in process; only the credential points at it)...');
	const sandbox = new ExotelSandbox({});
	await sandbox.start();
	let instance: N8nInstance | undefined;
	let tarball: string | undefined;
	let watcher: ProcWatcher | undefined;
	try {
		log('callback-burst: npm pack, and a fresh n8n user folder with the tarball installed...');
		tarball = await packPackage();
		instance = await N8nInstance.create({ tarball, env: options.n8nEnv });
		// started first, so the credential and workflow go in through its API, not an n8n CLI boot each
		log('callback-burst: n8n start...');
		await instance.start();
		await instance.setupOwnerAndApiKey();
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		if (!data.exotelApi.webhookSigningSecret) throw new Error('sandboxCredentialData has no webhookSigningSecret: signatures would not be checked');
		await instance.importCredentials([{ id: 'cred-exotelApi', name: 'Sandbox exotelApi', type: 'exotelApi', data: data.exotelApi }]);
		const trigger: WorkflowNode = {
			name: TRIGGER,
			type: `${PACKAGE}.exotelMessagingTrigger`,
			typeVersion: 1,
			webhookId: WEBHOOK_ID,
			parameters: { events: ['chatAppIncoming'], registerWebhooks: false },
			credentials: { exotelApi: { id: 'cred-exotelApi', name: 'Sandbox exotelApi' } },
		};
		const noOp: WorkflowNode = { name: AFTER, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
		const [workflowId] = await instance.importWorkflows([makeWorkflow([noOp], { name: 'Callback burst bench', trigger })]);
		await instance.publish(workflowId);
		const url = instance.webhookUrl(`${WEBHOOK_ID}/webhook`);
		const pid = instance.serverPid;
		if (pid === undefined) log('callback-burst: the n8n server process was not found in /proc; CPU and RSS are not reported');
		watcher = pid === undefined ? undefined : new ProcWatcher(pid);

		// Warm-up: the first webhook call loads the node, the credential and the execution path.
		log(`callback-burst: warm-up, ${WARM_UP_CALLBACKS} signed callbacks...`);
		const warm = Array.from({ length: WARM_UP_CALLBACKS }, (_, i) => signedCallback(`wamid.${runTag}.warm-${pad(i, 3)}`, 900_000 + i, runTag));
		const warmSent = await sendAll(url, warm, Math.min(options.concurrency, 5), requestOf);
		const warmBad = warmSent.results.filter((s) => s.status !== 200);
		if (warmBad.length) throw new Error(`warm-up callbacks not accepted: ${JSON.stringify(countBy(warmBad, outcome))}\n${instance.serverLog(4000)}`);
		const warmState: BurstState = { accepted: WARM_UP_CALLBACKS, endedAt: Date.now(), target: WARM_UP_CALLBACKS };
		const warmDrain = await sampleUntilDrained(instance, workflowId, warmState, Date.now(), { rows: 0, finished: 0 });
		if (!warmDrain.reached) throw new Error(`warm-up: only ${warmDrain.finished} of ${WARM_UP_CALLBACKS} executions finished\n${instance.serverLog(4000)}`);
		const setupMs = Date.now() - started;

		const callbacks = burstCallbacks(options.callbacks, options.forged, runTag);
		const sizes = callbacks.map((c) => c.body.length);
		log(`callback-burst: burst of ${options.callbacks} signed + ${options.forged} forged callbacks, concurrency ${options.concurrency}...`);
		const logBefore = instance.serverLog(LOG_CHARS);
		const baseline = await executionCounts(instance, workflowId);
		const state: BurstState = { accepted: 0 };
		const before = watcher?.sample();
		watcher?.start();
		const burstStartedAt = Date.now();
		const sampling = sampleUntilDrained(instance, workflowId, state, burstStartedAt, baseline);
		sampling.catch(() => undefined); // awaited below; a rejection must not go unhandled meanwhile
		const burst = await sendAll(url, callbacks, options.concurrency, requestOf, (sent) => {
			if (sent.callback.forgery === null && sent.status === 200) state.accepted++;
		});
		const atBurstEnd = watcher?.sample();
		const signed = burst.results.filter((s) => s.callback.forgery === null);
		const forged = burst.results.filter((s) => s.callback.forgery !== null);
		const accepted = signed.filter((s) => s.status === 200);
		log(`callback-burst: ${accepted.length}/${signed.length} accepted in ${n(burst.wallMs)} ms; waiting for the executions...`);

		// Only signed callbacks that got a 200 should run.
		state.target = accepted.length;
		state.endedAt = burst.endedAt;
		const drain = await sampling;
		const atDrainEnd = watcher?.sample();
		watcher?.stop();
		const logLines = newLogLines(logBefore, instance.serverLog(LOG_CHARS));
		const warnings = logLines.filter((line) => /\b(warn|warning|error|fail(ed)?)\b/i.test(line));
		await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

		log('callback-burst: reading every saved execution with its data...');
		const { executions, pages } = await allExecutions(instance, workflowId, true);

		// What each execution's trigger emitted, against what was sent.
		const sentById = new Map<string, Sent>();
		for (const s of [...warmSent.results, ...burst.results]) sentById.set(s.callback.id, s);
		const seen = new Map<string, number>();
		const mismatches: string[] = [];
		/** accepted burst callbacks and the execution that ran each */
		const executionOf: Array<{ sent: Sent; executionId: string }> = [];
		const answerToStart: number[] = [];
		const answerToStop: number[] = [];
		const durations: number[] = [];
		let unexpected = 0;
		let forgedExecuted = 0;
		let notSuccessful = 0;
		for (const execution of executions) {
			if (execution.status !== 'success' || execution.finished !== true) notSuccessful++;
			const runData = execution.data?.resultData?.runData ?? {};
			const items: OutputItem[] = runData[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
			const passed: unknown[] = runData[AFTER]?.[0]?.data?.main?.[0] ?? [];
			if (items.length !== 1 || passed.length !== 1) {
				mismatches.push(`execution ${execution.id}: trigger emitted ${items.length} item(s), ${AFTER} passed ${passed.length}`);
			}
			for (const { json } of items) {
				const id = String(json.messageSid);
				seen.set(id, (seen.get(id) ?? 0) + 1);
				const sent = sentById.get(id);
				if (!sent) {
					unexpected++;
					continue;
				}
				if (sent.callback.forgery !== null) forgedExecuted++;
				const e = sent.callback.expected;
				const got = { event: json.event, status: json.status, channel: json.channel, from: json.from, to: json.to, name: json.contactName, type: json.messageType, text: json.text };
				const want = { event: 'chatAppIncoming', status: 'received', channel: 'chatapp', from: e.from, to: BUSINESS_NUMBER, name: e.name, type: e.type, text: e.text };
				if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${id}: got ${JSON.stringify(got)}, sent ${JSON.stringify(want)}`);
				if (sent.callback.forgery === null && !id.includes('.warm-')) {
					executionOf.push({ sent, executionId: String(execution.id) });
					const startedAt = Date.parse(execution.startedAt ?? '');
					const stoppedAt = Date.parse(execution.stoppedAt ?? '');
					if (Number.isFinite(startedAt)) answerToStart.push(startedAt - sent.answeredAt);
					if (Number.isFinite(stoppedAt)) answerToStop.push(stoppedAt - sent.answeredAt);
					if (Number.isFinite(startedAt) && Number.isFinite(stoppedAt)) durations.push(stoppedAt - startedAt);
				}
			}
		}
		// createdAt is set when n8n asks to insert the row; startedAt right after the insert and a
		// second write. Between the 200 and the committed insert, an acknowledged callback exists only
		// in n8n's memory: lost if n8n stops then, and the service does not retry a 200.
		const created = await createdTimes(instance, workflowId);
		const answerToCreated: number[] = [];
		for (const { sent, executionId } of executionOf) {
			const at = created.get(executionId);
			if (at !== undefined) answerToCreated.push(at - sent.answeredAt);
		}
		// From the counts sampled during the burst: accepted then minus rows committed then (a lower bound, see Sample).
		const rowsKnown = drain.samples.every((x) => Number.isFinite(x.rows));
		const backlog = drain.samples.map((x) => x.accepted - x.rows);
		const atEnd = drain.samples.find((x) => burstStartedAt + x.atMs >= burst.endedAt);

		const expectedIds = [...warm, ...callbacks].filter((c) => c.forgery === null).map((c) => c.id);
		const missing = expectedIds.filter((id) => !seen.has(id));
		const duplicated = [...seen.entries()].filter(([, k]) => k > 1).map(([id]) => id);
		const forgedNot401 = forged.filter((s) => s.status !== 401);

		const wallS = burst.wallMs / 1000;
		const fromBurstStartMs = burst.endedAt - burst.startedAt + drain.afterBurstMs;
		const cpuBurst = before && atBurstEnd ? atBurstEnd.cpuMs - before.cpuMs : NaN;
		const cpuDrain = atBurstEnd && atDrainEnd ? atDrainEnd.cpuMs - atBurstEnd.cpuMs : NaN;
		const curvePoints = drain.samples.filter((_, i, all) => i === all.length - 1 || i % Math.max(1, Math.ceil(all.length / 12)) === 0);
		const report: CallbackBurstReport = {
			bench: 'callback-burst',
			config: {
				callbacks: options.callbacks,
				forged: options.forged,
				warmUpCallbacks: WARM_UP_CALLBACKS,
				concurrency: options.concurrency,
				n8nVersion: instance.n8n.version,
				n8nSettings:
					'n8n start, regular execution mode, SQLite (pool 3), N8N_CONCURRENCY_PRODUCTION_LIMIT unset (-1: no limit), ' +
					'EXECUTIONS_DATA_SAVE_ON_SUCCESS=all, workflow: Exotel Messaging Trigger (chatAppIncoming, credential with a signing secret) → NoOp' +
					(options.n8nEnv && Object.keys(options.n8nEnv).length ? `; extra env ${JSON.stringify(options.n8nEnv)}` : ''),
				...machine(),
				loadAverageStart,
				loadAverageEnd: loadAverage(),
				payloadBytes: {
					min: Math.min(...sizes),
					mean: round(sizes.reduce((a, b) => a + b, 0) / sizes.length, 0),
					max: Math.max(...sizes),
				},
				client:
					`this process, node:http with a keep-alive agent (maxSockets ${options.concurrency}), 127.0.0.1, no proxy; ` +
					`${options.concurrency} workers each posting its next callback when its previous one is answered`,
			},
			burst: {
				requests: burst.results.length,
				wallMs: round(burst.wallMs, 1),
				acceptedPerSecond: round(accepted.length / wallS, 1),
				answeredPerSecond: round(burst.results.filter((s) => s.status !== 0).length / wallS, 1),
				accepted: accepted.length,
				signedNot200: countBy(signed.filter((s) => s.status !== 200), outcome),
				forged401: forged.length - forgedNot401.length,
				forgedNot401: countBy(forgedNot401, (s) => `${s.callback.forgery}: ${outcome(s)}`),
				latencySignedMs: percentiles(signed.map((s) => s.latencyMs)),
				latencyForgedMs: percentiles(forged.map((s) => s.latencyMs)),
				clientCpuMs: round(burst.clientCpuMs, 1),
			},
			drain: {
				reached: drain.reached,
				afterBurstMs: drain.afterBurstMs,
				fromBurstStartMs,
				executionsPerSecond: round(accepted.length / (fromBurstStartMs / 1000), 1),
				polls: drain.samples.length,
				curve: curvePoints,
				answerToCreatedMs: percentiles(answerToCreated),
				peakAcceptedNotInDb: rowsKnown ? Math.max(0, ...backlog) : null,
				acceptedNotInDbAtBurstEnd: rowsKnown && atEnd ? atEnd.accepted - atEnd.rows : null,
				answerToStartMs: percentiles(answerToStart),
				answerToStopMs: percentiles(answerToStop),
				executionDurationMs: percentiles(durations),
			},
			n8nLog: {
				lines: logLines.length,
				warnings: warnings.length,
				warningSample: [...new Set(warnings)].slice(0, 5).map((line) => line.slice(0, 300)),
			},
			delivery: {
				expectedIds: expectedIds.length,
				executions: executions.length,
				pages,
				executionStatuses: countBy(executions, (e) => String(e.status)),
				missing: missing.length,
				missingSample: missing.slice(0, 10),
				duplicated: duplicated.length,
				duplicatedSample: duplicated.slice(0, 10),
				unexpected,
				forgedExecuted,
				executionsNotSuccessful: notSuccessful,
				contentMismatches: mismatches.length,
				mismatchSample: mismatches.slice(0, 5),
			},
			n8nProcess:
				watcher && before && atBurstEnd && atDrainEnd
					? {
							pid: watcher.pid,
							rssBeforeMiB: mibOf(before.rssBytes),
							peakRssMiB: mibOf(watcher.peakRssBytes),
							rssAfterMiB: mibOf(atDrainEnd.rssBytes),
							cpuBurstMs: round(cpuBurst, 0),
							cpuBurstPercent: round((cpuBurst / burst.wallMs) * 100, 0),
							cpuDrainMs: round(cpuDrain, 0),
							cpuDrainPercent: drain.afterBurstMs > 0 ? round((cpuDrain / drain.afterBurstMs) * 100, 0) : NaN,
							cpuPerCallbackMs: round((cpuBurst + cpuDrain) / Math.max(1, accepted.length), 2),
							samples: watcher.samples,
						}
					: null,
			checks: {
				allSignedAccepted: accepted.length === signed.length,
				forgedRejected: forgedNot401.length === 0,
				noneLost: missing.length === 0,
				noneDuplicated: duplicated.length === 0 && unexpected === 0 && forgedExecuted === 0,
				allSucceeded: notSuccessful === 0,
				contentIntact: mismatches.length === 0,
			},
			setupMs,
			totalBenchMs: Date.now() - started,
		};

		const failed = Object.entries(report.checks).filter(([, pass]) => !pass).map(([name]) => name);
		if (failed.length) {
			throw new BenchFailure(
				`callback-burst: ${failed.join(', ')} failed\n${formatCallbackBurstReport(report)}\n--- n8n log (tail) ---\n${instance.serverLog(6000)}`,
			);
		}
		return report;
	} finally {
		watcher?.stop();
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
		await sandbox.stop();
	}
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

const ms = (p: Percentiles) => [n(p.p50), n(p.p95), n(p.p99), n(p.max), n(p.mean)];
const counts = (record: Record<string, number>) =>
	Object.keys(record).length === 0 ? 'none' : Object.entries(record).map(([k, v]) => `${v} × ${k}`).join(', ');

export function formatCallbackBurstReport(r: CallbackBurstReport): string {
	const c = r.config;
	const b = r.burst;
	const d = r.drain;
	const v = r.delivery;
	const out: string[] = [];
	out.push('');
	out.push('=== Callback burst bench: signed chat-app callbacks into an active Exotel Messaging Trigger on n8n ===');
	out.push(
		`${int(c.callbacks)} signed + ${int(c.forged)} forged callbacks (after ${c.warmUpCallbacks} warm-up), concurrency ${c.concurrency}, ` +
			`payload ${c.payloadBytes.min}-${c.payloadBytes.max} bytes; n8n ${c.n8nVersion}, node ${c.node}, ${c.cpus} CPU (${c.cpuModel})`,
	);
	out.push(`n8n: ${c.n8nSettings}`);
	out.push(`client: ${c.client}`);
	out.push(
		`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end ` +
			'(client, n8n and anything else on the machine share these CPUs)',
	);
	out.push('');
	out.push(
		table([
			['burst', ''],
			['requests (signed + forged)', int(b.requests)],
			['wall time, first sent → last answered (ms)', n(b.wallMs)],
			['signed callbacks answered 200', `${int(b.accepted)} / ${int(c.callbacks)}`],
			['accepted per second (200s / wall s)', n(b.acceptedPerSecond)],
			['answered per second (all answers)', n(b.answeredPerSecond)],
			['signed answered other than 200', counts(b.signedNot200)],
			['forged answered 401', `${int(b.forged401)} / ${int(c.forged)}`],
			['forged answered other than 401', counts(b.forgedNot401)],
			['client CPU, this process (ms)', n(b.clientCpuMs)],
		]),
	);
	out.push('');
	out.push(
		table([
			['latency (ms)', 'p50', 'p95', 'p99', 'max', 'mean'],
			[`signed callback → answer (${b.latencySignedMs.count})`, ...ms(b.latencySignedMs)],
			[`forged callback → 401 (${b.latencyForgedMs.count})`, ...ms(b.latencyForgedMs)],
			[`200 → n8n asks to insert its row (createdAt) (${d.answerToCreatedMs.count})`, ...ms(d.answerToCreatedMs)],
			[`200 → its execution started (${d.answerToStartMs.count})`, ...ms(d.answerToStartMs)],
			[`200 → its execution stopped (${d.answerToStopMs.count})`, ...ms(d.answerToStopMs)],
			[`execution duration, stoppedAt - startedAt`, ...ms(d.executionDurationMs)],
		]),
	);
	out.push('');
	out.push(
		table([
			['drain', ''],
			['every execution finished and saved', d.reached ? 'yes' : 'NO (gave up)'],
			['after the last 200 (ms)', int(d.afterBurstMs)],
			['from the first request of the burst (ms)', int(d.fromBurstStartMs)],
			['executions finished per second, end to end', n(d.executionsPerSecond)],
			['answered 200 but no execution row in the DB yet, most at once', int(d.peakAcceptedNotInDb)],
			['the same, just after the last 200', int(d.acceptedNotInDbAtBurstEnd)],
		]),
	);
	out.push('');
	out.push(
		table([
			['ms from the burst start', ...d.curve.map((x) => int(x.atMs))],
			['answered 200', ...d.curve.map((x) => int(x.accepted))],
			['execution rows in the DB', ...d.curve.map((x) => int(x.rows))],
			['executions finished', ...d.curve.map((x) => int(x.finished))],
		]),
	);
	out.push(
		`(counts of n8n's execution rows sampled from the burst start every ${DRAIN_POLL_MS} ms plus the request's time, ${d.polls} samples; ` +
			'a callback answered 200 without a row exists only in n8n\'s memory: lost if n8n stops, and a 200 is never retried)',
	);
	out.push(
		`n8n's output during the burst and drain: ${int(r.n8nLog.lines)} lines, ${int(r.n8nLog.warnings)} mentioning warn/error/fail` +
			(r.n8nLog.warningSample.length ? `:\n${r.n8nLog.warningSample.map((line) => `  ${line}`).join('\n')}` : ''),
	);
	if (r.n8nProcess) {
		const p = r.n8nProcess;
		out.push('');
		out.push(
			table([
				[`n8n server process (pid ${p.pid}, /proc, ${p.samples} samples)`, ''],
				['RSS before the burst / peak / after the drain (MiB)', `${n(p.rssBeforeMiB)} / ${n(p.peakRssMiB)} / ${n(p.rssAfterMiB)}`],
				['CPU during the burst (ms, % of one core)', `${int(p.cpuBurstMs)} (${int(p.cpuBurstPercent)} %)`],
				['CPU during the drain (ms, % of one core)', `${int(p.cpuDrainMs)} (${int(p.cpuDrainPercent)} %)`],
				['CPU per accepted callback, burst + drain (ms)', n(p.cpuPerCallbackMs, 2)],
			]),
		);
	} else {
		out.push('n8n server process: not found in /proc, CPU and RSS not reported');
	}
	out.push('');
	out.push(
		`delivery, from ${int(v.executions)} saved executions (${v.pages} pages of the public API, with data): ` +
			`statuses ${counts(v.executionStatuses)}; ${int(v.expectedIds)} ids expected (warm-up + signed)`,
	);
	const k = r.checks;
	out.push(`${verdict(k.allSignedAccepted)}  every signed callback answered 200: ${int(b.accepted)} of ${int(c.callbacks)}`);
	out.push(`${verdict(k.forgedRejected)}  every forged callback answered 401: ${int(b.forged401)} of ${int(c.forged)}`);
	out.push(`${verdict(k.noneLost)}  no message lost: ${int(v.missing)} missing${v.missing ? ` (${v.missingSample.join(', ')}…)` : ''}`);
	out.push(
		`${verdict(k.noneDuplicated)}  each message exactly once: ${int(v.duplicated)} duplicated, ${int(v.unexpected)} unknown ids, ` +
			`${int(v.forgedExecuted)} forged executed${v.duplicated ? ` (${v.duplicatedSample.join(', ')}…)` : ''}`,
	);
	out.push(`${verdict(k.allSucceeded)}  every execution succeeded: ${int(v.executionsNotSuccessful)} did not`);
	out.push(`${verdict(k.contentIntact)}  every item carries what was sent (event, from, to, name, type, text): ${int(v.contentMismatches)} mismatches`);
	for (const line of v.mismatchSample) out.push(`  ${line}`);
	out.push(`set-up (pack, install, import, start, warm-up) ${n(r.setupMs / 1000, 1)} s; bench time ${n(r.totalBenchMs / 1000, 1)} s`);
	return out.join('\n');
}
