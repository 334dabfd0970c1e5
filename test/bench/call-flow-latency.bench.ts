/* eslint-disable @n8n/community-nodes/no-restricted-imports -- asks a real n8n what a call flow asks (fs, path, http, crypto, perf_hooks); never shipped */
/**
 * Call-flow latency bench (issue 48): while a caller waits, the service asks the applet's URL what
 * the caller gets next and gives it about 5 s (the budget). On ONE real n8n 2.8.4 (`n8n start`, the
 * packed package installed as users install it, SQLite, regular mode; test/harness) two workflows
 * are active side by side, each answering a Connect applet with the same Connect JSON:
 *
 *   trigger: Exotel Call Flow Trigger (applet connect, Answer Within 4 s, fallback numbers set)
 *            → Exotel Voice, Call Flow → Answer (connect, JSON: one number, a caller id)
 *   webhook: n8n's Webhook node (v2.1, GET, Respond: Using 'Respond to Webhook' Node)
 *            → Respond to Webhook (v1.5, Respond With JSON, the same body, content-type application/json):
 *            what a user would build instead
 *
 * Each is asked as the service asks (a GET with the call's query parameters, a CallSid unique per
 * request, the header `Exotel-Version: 1.0`) in two modes:
 *
 *   1 call at a time  --call-flow-calls N requests, the next sent when the previous is answered
 *                     (in ABBA halves: trigger, webhook, webhook, trigger)
 *   calls at once     --call-flow-rounds R rounds of --call-flow-burst B requests sent together
 *                     (which side goes first alternates by round)
 *
 * after a warm-up of WARM_UP_CALLS requests one at a time and one round at once into each (not
 * counted), and with n8n idle (its process under 5 % of a core for two seconds) before each block.
 *
 * Measured per request: the answer latency, request sent → the answer's last byte received (this
 * process, node:http, a keep-alive agent of B sockets per side, 127.0.0.1). Reported per mode and
 * side: p50, p90, p99 and max, the fallback answers, p99 against the 5 s budget; the load average
 * and n8n's CPU (from /proc) while each side was measured.
 *
 * Every answer is checked: exactly status 200, the content type and the body the workflow gives.
 * Both go out through n8n's response-node path, whose express `res.json`/`res.send` adds the charset
 * to the content type the node set: `application/json; charset=utf-8`; the body is the Connect JSON
 * byte for byte; the Answer operation's marking header must not reach the caller. An answer that is
 * the trigger's fallback (its Fallback Numbers; the trigger writes it itself, `application/json`) is
 * counted as such; any other answer is wrong. A fallback or a wrong answer makes the bench broken (exit 1)
 * after the report is printed, with the first answers and n8n's warnings. When the trigger's
 * workflow cannot be imported, published or warmed up , the
 * Webhook node's side is still measured and the bench is broken with what n8n said.
 *
 * The trigger's URL is `/webhook/<webhookId>/connect/<webhookId>/<secret>` (the webhook id again in the path).
 * `npm run bench:small` runs it at --call-flow-calls 30 --call-flow-rounds 1 (about a minute with n8n's start).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { ANSWER_MARK } from '../../nodes/shared/callFlows/answers';
import { makeWorkflow, N8nInstance, packPackage, REPO_ROOT, removeTempDir, type WorkflowNode } from '../harness';
import { int, loadAverage, machine, n, round, table } from './common';
import { countBy, newLogLines, packageSource, percentiles, procSample, waitForIdle, type Percentiles } from './n8n-callbacks';

export const DEFAULT_CALL_FLOW_CALLS = 200;
export const DEFAULT_CALL_FLOW_BURST = 50;
export const DEFAULT_CALL_FLOW_ROUNDS = 5;
/** Requests one at a time into each workflow before anything is measured (and one round at once). */
export const WARM_UP_CALLS = 10;
/** What the service gives the applet's URL (production code's figure; the docs name none). */
export const SERVICE_BUDGET_MS = 5_000;
/** The trigger's Answer Within (its default). */
const ANSWER_WITHIN_S = 4;

const PACKAGE = 'n8n-nodes-exotel';
const TRIGGER = 'Exotel Call Flow Trigger';
const ANSWER = 'Answer';
const WEBHOOK = 'Webhook';
const RESPOND = 'Respond to Webhook';
const TRIGGER_WEBHOOK_ID = 'c0ffee00-0000-4000-8000-0000000ca11f';
const WEBHOOK_NODE_ID = 'c0ffee00-0000-4000-8000-0000000ca120';
const WEBHOOK_PATH = 'call-flow-latency/connect';
/** The credential's URL Secret, new each run: in the trigger's path, as the flow builder's URL carries it. */
const SECRET = `bench-${randomBytes(12).toString('hex')}`;
const CREDENTIAL = { id: 'cred-callFlow', name: 'Call flow (bench)', type: 'exotelCallFlowApi' };

const NUMBERS = '+919812340001';
const CALLER_ID = '+918041234567';
const FALLBACK_NUMBERS = '+919800000099';
/** The Connect JSON both workflows answer with. */
const CONNECT_BODY = JSON.stringify({ destination: { numbers: [NUMBERS] }, outgoing_phone_number: CALLER_ID });
/** The trigger's fallback, told apart from the workflow's answer by its number. */
const FALLBACK_BODY = JSON.stringify({ destination: { numbers: [FALLBACK_NUMBERS] }, outgoing_phone_number: CALLER_ID });
/** The header the Answer operation marks its answer with; the trigger takes it off (nodes/shared/callFlows/answers.ts). */

const REQUEST_TIMEOUT_MS = 30_000;
/** As much of n8n's output as the harness keeps (256 KiB). */
const LOG_CHARS = 256 * 1024;
const IDLE_MAX_WAIT_MS = 20_000;
/** How many wrong answers the report quotes. */
const SAMPLES = 5;

export type Side = 'trigger' | 'webhook';
const SIDES: Side[] = ['trigger', 'webhook'];
const LABELS: Record<Side, string> = { trigger: 'Exotel Call Flow Trigger → Answer', webhook: "n8n's Webhook → Respond to Webhook" };
type Mode = 'sequential' | 'burst';

/** What each side must answer, exactly. */
const EXPECTED: Record<Side, { status: number; contentType: string; body: string }> = {
	// both answers go out through n8n's response-node path, whose res.json/res.send (express) adds the
	// charset to the content type the Answer operation and the Respond to Webhook node set
	trigger: { status: 200, contentType: 'application/json; charset=utf-8', body: CONNECT_BODY },
	webhook: { status: 200, contentType: 'application/json; charset=utf-8', body: CONNECT_BODY },
};
/** The trigger's fallback, which the trigger writes itself (answering.ts): the content type as built. */
const FALLBACK = { status: 200, contentType: 'application/json', body: FALLBACK_BODY };

export interface CallFlowLatencyOptions {
	calls: number;
	burst: number;
	rounds: number;
	log: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// The requests
// ---------------------------------------------------------------------------------------------

/** `YYYY-MM-DD HH:MM:SS` in India's time, as the service writes CurrentTime. */
const serviceTime = (ms: number) => new Date(ms + 5.5 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/** The query a Connect applet's GET carries (CurrentTime is the request's own). */
function callQuery(callSid: string): string {
	return new URLSearchParams({
		CallSid: callSid,
		CallFrom: '09876543210',
		CallTo: '08041234567',
		Direction: 'incoming',
		From: '09876543210',
		To: '8041234567',
		CurrentTime: serviceTime(Date.now()),
		EndTime: '1970-01-01 05:30:00',
		CallType: 'call-attempt',
	}).toString();
}

type Verdict = 'answer' | 'fallback' | 'wrong';

interface Asked {
	callSid: string;
	status: number;
	error?: string;
	contentType: string;
	body: string;
	/** the Answer operation's marking header reached the caller */
	marked: boolean;
	latencyMs: number;
	verdict: Verdict;
}

/** One GET, timed from the request's first write to the answer's last byte. */
function ask(agent: http.Agent, base: URL, callSid: string): Promise<Omit<Asked, 'verdict'>> {
	return new Promise((resolve) => {
		const t0 = performance.now();
		let settled = false;
		const chunks: Buffer[] = [];
		let head = { status: 0, contentType: '', marked: false };
		const done = (error?: string) => {
			if (settled) return;
			settled = true;
			resolve({ callSid, ...head, error, body: Buffer.concat(chunks).toString('utf8'), latencyMs: performance.now() - t0 });
		};
		const req = http.request(
			{
				agent,
				hostname: base.hostname,
				port: base.port,
				path: `${base.pathname}?${callQuery(callSid)}`,
				method: 'GET',
				headers: { 'Exotel-Version': '1.0', accept: '*/*' },
				timeout: REQUEST_TIMEOUT_MS,
			},
			(res) => {
				head = { status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), marked: res.headers[ANSWER_MARK] !== undefined };
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => done());
				res.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
			},
		);
		req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
		req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
		req.end();
	});
}

function verdictOf(side: Side, a: Omit<Asked, 'verdict'>): Verdict {
	const is = (want: { status: number; contentType: string; body: string }) =>
		!a.error && !a.marked && a.status === want.status && a.contentType === want.contentType && a.body === want.body;
	if (is(EXPECTED[side])) return 'answer';
	return side === 'trigger' && is(FALLBACK) ? 'fallback' : 'wrong';
}

const describeAnswer = (a: Asked) =>
	a.error
		? `${a.callSid}: no answer (${a.error}) after ${int(Math.round(a.latencyMs))} ms`
		: `${a.callSid}: ${a.status} ${JSON.stringify(a.contentType)}${a.marked ? ` with ${ANSWER_MARK}` : ''} ${JSON.stringify(a.body.slice(0, 200))} after ${int(Math.round(a.latencyMs))} ms`;

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

export interface SideFigures {
	requests: number;
	latencyMs: Percentiles;
	answers: number;
	fallbacks: number;
	wrong: number;
	/** the first wrong or fallback answers */
	sample: string[];
	/** p99 / the service's budget, % */
	p99OfBudgetPercent: number;
	/** n8n's server process over this side's blocks: CPU / wall, 100 % = one core */
	n8nCpuPercent: number | null;
	/** n8n's server process CPU over this side's blocks / requests (ms): what one answer cost n8n */
	n8nCpuPerRequestMs: number | null;
	/** wall time of this side's blocks */
	wallMs: number;
	/** os.loadavg() at the start and the end of this side's blocks (1 minute) */
	loadAverage1m: { start: number; end: number };
}

export interface ModeFigures {
	mode: Mode;
	description: string;
	sides: Partial<Record<Side, SideFigures>>;
}

export interface CallFlowLatencyReport {
	bench: 'call-flow';
	config: {
		calls: number;
		burst: number;
		rounds: number;
		warmUpCalls: number;
		budgetMs: number;
		answerWithinS: number;
		n8nVersion: string;
		packageVersion: string;
		packageSource: string;
		workflows: Record<Side, string>;
		/** the production URLs' paths asked (the trigger's secret shown as <secret>; null when the trigger's was not found) */
		urls: Record<Side, string | null>;
		request: string;
		client: string;
		node: string;
		cpus: number;
		cpuModel: string;
		loadAverageStart: number[];
		loadAverageEnd: number[];
	};
	modes: ModeFigures[];
	/** why the trigger's side was not measured (its set-up failed), with n8n's log lines */
	triggerUnavailable?: string;
	n8nWarnings: string[];
	broken: string[];
	setupMs: number;
	totalBenchMs: number;
}

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

interface Target {
	url: URL;
	agent: http.Agent;
}

/** What one side collected in one mode, over its blocks. */
interface Collected {
	asked: Asked[];
	wallMs: number;
	cpuMs: number;
	cpuKnown: boolean;
	loadStart?: number;
	loadEnd?: number;
}

interface Ctx {
	instance: N8nInstance;
	targets: Partial<Record<Side, Target>>;
	pid: number | undefined;
	runTag: string;
	options: CallFlowLatencyOptions;
}

let sequence = 0;
/** A CallSid unique to the bench run, the side and the request (the trigger takes a repeated one for a repeat). */
const callSid = (ctx: Ctx, side: Side) => `${ctx.runTag}${side === 'trigger' ? 't' : 'w'}${String(++sequence).padStart(7, '0')}`;

/**
 * One block of requests into one side: `count` one at a time, or `count` at once; measured with n8n's CPU
 * around it, after waiting for n8n to be idle (not in the warm-up).
 */
async function block(ctx: Ctx, side: Side, mode: Mode, count: number, into: Collected, idleFirst = true): Promise<Asked[]> {
	const target = ctx.targets[side];
	if (!target) return [];
	if (idleFirst) await waitForIdle(ctx.pid, IDLE_MAX_WAIT_MS);
	into.loadStart ??= loadAverage()[0];
	const before = ctx.pid === undefined ? undefined : procSample(ctx.pid);
	const t0 = performance.now();
	const asked: Asked[] = [];
	const one = async () => {
		const a = await ask(target.agent, target.url, callSid(ctx, side));
		return { ...a, verdict: verdictOf(side, a) };
	};
	if (mode === 'sequential') {
		for (let i = 0; i < count; i++) asked.push(await one());
	} else {
		asked.push(...(await Promise.all(Array.from({ length: count }, one))));
	}
	into.wallMs += performance.now() - t0;
	const after = ctx.pid === undefined ? undefined : procSample(ctx.pid);
	if (before && after) into.cpuMs += after.cpuMs - before.cpuMs;
	else into.cpuKnown = false;
	into.loadEnd = loadAverage()[0];
	into.asked.push(...asked);
	return asked;
}

function figuresOf(c: Collected): SideFigures {
	const latencyMs = percentiles(c.asked.map((a) => a.latencyMs));
	const bad = c.asked.filter((a) => a.verdict !== 'answer');
	return {
		requests: c.asked.length,
		latencyMs,
		answers: c.asked.filter((a) => a.verdict === 'answer').length,
		fallbacks: c.asked.filter((a) => a.verdict === 'fallback').length,
		wrong: c.asked.filter((a) => a.verdict === 'wrong').length,
		sample: bad.slice(0, SAMPLES).map(describeAnswer),
		p99OfBudgetPercent: round((latencyMs.p99 / SERVICE_BUDGET_MS) * 100, 1),
		n8nCpuPercent: c.cpuKnown && c.wallMs > 0 ? round((c.cpuMs / c.wallMs) * 100, 0) : null,
		n8nCpuPerRequestMs: c.cpuKnown && c.asked.length > 0 ? round(c.cpuMs / c.asked.length, 1) : null,
		wallMs: round(c.wallMs, 0),
		loadAverage1m: { start: c.loadStart ?? NaN, end: c.loadEnd ?? NaN },
	};
}

const empty = (): Collected => ({ asked: [], wallMs: 0, cpuMs: 0, cpuKnown: true });

/**
 * Warm-up: one request, then WARM_UP_CALLS - 1 one at a time, then one round at once; every answer must be
 * the workflow's (a wrong first answer ends the warm-up at once).
 */
async function warmUp(ctx: Ctx, side: Side): Promise<void> {
	const scratch = empty();
	const check = (asked: Asked[]) => {
		const bad = asked.filter((a) => a.verdict !== 'answer');
		if (bad.length === 0) return;
		throw new Error(
			`warm-up of ${LABELS[side]}: ${bad.length} of ${asked.length} answer(s) not the workflow's (${JSON.stringify(countBy(bad, (a) => a.verdict))}); first: ${bad
				.slice(0, 3)
				.map(describeAnswer)
				.join(' | ')}`,
		);
	};
	check(await block(ctx, side, 'sequential', 1, scratch, false));
	check(await block(ctx, side, 'sequential', WARM_UP_CALLS - 1, scratch, false));
	check(await block(ctx, side, 'burst', ctx.options.burst, scratch, false));
}

/** n8n's lines, repeats folded into one with their count. */
function folded(lines: string[]): string[] {
	const out: Array<{ line: string; times: number }> = [];
	for (const line of lines) {
		const last = out[out.length - 1];
		if (last && last.line === line) last.times++;
		else out.push({ line, times: 1 });
	}
	return out.map(({ line, times }) => (times > 1 ? `${line} (× ${times})` : line));
}

function triggerWorkflow(): ReturnType<typeof makeWorkflow> {
	const trigger: WorkflowNode = {
		name: TRIGGER,
		type: `${PACKAGE}.exotelCallFlowTrigger`,
		typeVersion: 1,
		webhookId: TRIGGER_WEBHOOK_ID,
		parameters: { applet: 'connect', answerWithin: ANSWER_WITHIN_S, fallbackNumbers: FALLBACK_NUMBERS, fallbackCallerId: CALLER_ID, options: {} },
		credentials: { [CREDENTIAL.type]: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
	};
	const answer: WorkflowNode = {
		name: ANSWER,
		type: `${PACKAGE}.exotelVoice`,
		typeVersion: 2,
		parameters: { resource: 'callFlow', operation: 'answer', applet: 'connect', connectAs: 'json', numbers: NUMBERS, callerId: CALLER_ID },
	};
	return makeWorkflow([answer], { name: 'Call flow latency: Exotel Call Flow Trigger', trigger });
}

function webhookWorkflow(): ReturnType<typeof makeWorkflow> {
	const webhook: WorkflowNode = {
		name: WEBHOOK,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: WEBHOOK_NODE_ID,
		parameters: { httpMethod: 'GET', path: WEBHOOK_PATH, responseMode: 'responseNode', options: {} },
	};
	const respond: WorkflowNode = {
		name: RESPOND,
		type: 'n8n-nodes-base.respondToWebhook',
		typeVersion: 1.5,
		parameters: {
			respondWith: 'json',
			responseBody: CONNECT_BODY,
			options: { responseHeaders: { entries: [{ name: 'content-type', value: 'application/json' }] } },
		},
	};
	return makeWorkflow([respond], { name: "Call flow latency: n8n's Webhook node", trigger: webhook });
}

export async function runCallFlowLatencyBench(options: CallFlowLatencyOptions): Promise<CallFlowLatencyReport> {
	const started = Date.now();
	const { log } = options;
	const loadAverageStart = loadAverage();
	const runTag = `CA${Date.now().toString(36)}`;
	let instance: N8nInstance | undefined;
	let tarball: string | undefined;
	const agents: http.Agent[] = [];
	try {
		log('call-flow: npm pack (or the run\'s shared tarball), and a fresh n8n user folder with it installed...');
		const source = packageSource();
		tarball = await packPackage();
		instance = await N8nInstance.create({ tarball });
		log('call-flow: n8n start...');
		await instance.start();
		await instance.setupOwnerAndApiKey();
		const logAtStart = instance.serverLog(LOG_CHARS);
		const ctx: Ctx = { instance, targets: {}, pid: instance.serverPid, runTag, options };
		if (ctx.pid === undefined) log('call-flow: the n8n server process was not found in /proc; n8n CPU is not reported and nothing waits for it to be idle');
		const agentFor = () => {
			const agent = new http.Agent({ keepAlive: true, maxSockets: options.burst, maxFreeSockets: options.burst });
			agents.push(agent);
			return agent;
		};

		// n8n's own nodes first: their side is measured even when the trigger's cannot be
		const [webhookId] = await instance.importWorkflows([webhookWorkflow()]);
		await instance.publish(webhookId);
		ctx.targets.webhook = { url: new URL(instance.webhookUrl(WEBHOOK_PATH)), agent: agentFor() };

		let triggerUnavailable: string | undefined;
		let triggerPath: string | undefined;
		const triggerLogBefore = instance.serverLog(LOG_CHARS);
		try {
			await instance.importCredentials([{ ...CREDENTIAL, data: { secret: SECRET, allowedAddresses: '' } }]);
			const [triggerId] = await instance.importWorkflows([triggerWorkflow()]);
			await instance.publish(triggerId);
			triggerPath = `${TRIGGER_WEBHOOK_ID}/connect/${TRIGGER_WEBHOOK_ID}/${SECRET}`;
			ctx.targets.trigger = { url: new URL(instance.webhookUrl(triggerPath)), agent: agentFor() };
			log(`call-flow: warm-up, ${WARM_UP_CALLS} requests one at a time and ${options.burst} at once into the trigger's workflow...`);
			await warmUp(ctx, 'trigger');
		} catch (error) {
			const lines = folded(newLogLines(triggerLogBefore, instance.serverLog(LOG_CHARS))).slice(-20);
			triggerUnavailable = `${(error as Error)?.message ?? String(error)}${lines.length ? `\n--- n8n log since the trigger's set-up began ---\n${lines.join('\n')}` : ''}`;
			log(`call-flow: the trigger's side cannot be measured (see the report), going on with n8n's Webhook node only`);
			delete ctx.targets.trigger;
		}
		log(`call-flow: warm-up, ${WARM_UP_CALLS} requests one at a time and ${options.burst} at once into the Webhook node's workflow...`);
		await warmUp(ctx, 'webhook');
		const setupMs = Date.now() - started;
		const sides = SIDES.filter((side) => ctx.targets[side]);

		// 1 call at a time, in ABBA halves so that neither side always runs on the warmer or fuller n8n
		log(`call-flow: ${int(options.calls)} requests one at a time into each workflow...`);
		const sequential: Partial<Record<Side, Collected>> = Object.fromEntries(sides.map((side) => [side, empty()]));
		const firstHalf = Math.ceil(options.calls / 2);
		for (const [side, count] of [
			['trigger', firstHalf],
			['webhook', firstHalf],
			['webhook', options.calls - firstHalf],
			['trigger', options.calls - firstHalf],
		] as Array<[Side, number]>) {
			if (sequential[side] && count > 0) await block(ctx, side, 'sequential', count, sequential[side]);
		}

		log(`call-flow: ${options.rounds} round(s) of ${options.burst} requests at once into each workflow...`);
		const bursts: Partial<Record<Side, Collected>> = Object.fromEntries(sides.map((side) => [side, empty()]));
		for (let round = 1; round <= options.rounds; round++) {
			const order: Side[] = round % 2 === 1 ? ['trigger', 'webhook'] : ['webhook', 'trigger'];
			for (const side of order) if (bursts[side]) await block(ctx, side, 'burst', options.burst, bursts[side]);
		}

		const modeOf = (mode: Mode, description: string, collected: Partial<Record<Side, Collected>>): ModeFigures => ({
			mode,
			description,
			sides: Object.fromEntries(sides.map((side) => [side, figuresOf(collected[side] as Collected)])),
		});
		const modes = [
			modeOf('sequential', `1 call at a time: ${int(options.calls)} requests into each workflow, each sent when the previous one was answered`, sequential),
			modeOf('burst', `${options.burst} calls at once: ${options.rounds} round(s) of ${options.burst} requests sent together into each workflow`, bursts),
		];

		const warnings = newLogLines(logAtStart, instance.serverLog(LOG_CHARS)).filter((line) => /\b(warn|warning|error|fail(ed)?)\b/i.test(line));
		const broken: string[] = [];
		if (triggerUnavailable) broken.push(`the Exotel Call Flow Trigger's side was not measured: ${triggerUnavailable.split('\n')[0]}`);
		for (const m of modes) {
			for (const side of sides) {
				const f = m.sides[side] as SideFigures;
				if (f.fallbacks || f.wrong) {
					broken.push(`${m.mode}, ${LABELS[side]}: ${f.fallbacks} fallback and ${f.wrong} wrong answers of ${f.requests}; first: ${f.sample.join(' | ')}`);
				}
			}
		}
		if (broken.length && warnings.length) broken.push(`n8n log: ${[...new Set(warnings)].slice(-SAMPLES).join(' | ')}`);

		return {
			bench: 'call-flow',
			config: {
				calls: options.calls,
				burst: options.burst,
				rounds: options.rounds,
				warmUpCalls: WARM_UP_CALLS,
				budgetMs: SERVICE_BUDGET_MS,
				answerWithinS: ANSWER_WITHIN_S,
				n8nVersion: instance.n8n.version,
				packageVersion: String((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version),
				packageSource: source,
				workflows: {
					trigger: `Exotel Call Flow Trigger (applet connect, Answer Within ${ANSWER_WITHIN_S} s, Fallback Numbers ${FALLBACK_NUMBERS}) → Exotel Voice Call Flow Answer (connect, JSON, ${NUMBERS}, caller id ${CALLER_ID})`,
					webhook: `n8n's Webhook node v2.1 (GET, Respond: Using 'Respond to Webhook' Node) → Respond to Webhook v1.5 (JSON, the same body, content-type application/json)`,
				},
				urls: {
					trigger: triggerPath ? `/webhook/${triggerPath.replace(SECRET, '<secret>')}` : null,
					webhook: `/webhook/${WEBHOOK_PATH}`,
				},
				request: 'GET with the Connect applet\'s query (CallSid unique per request, CallFrom, CallTo, Direction, From, To, CurrentTime, EndTime, CallType) and Exotel-Version: 1.0',
				client: `this process, node:http, a keep-alive agent of ${options.burst} sockets per workflow, 127.0.0.1; latency = request sent → the answer's last byte`,
				...machine(),
				loadAverageStart,
				loadAverageEnd: loadAverage(),
			},
			modes,
			...(triggerUnavailable ? { triggerUnavailable } : {}),
			n8nWarnings: [...new Set(warnings)].slice(0, 10).map((line) => line.slice(0, 300)),
			broken,
			setupMs,
			totalBenchMs: Date.now() - started,
		};
	} finally {
		for (const agent of agents) agent.destroy();
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
	}
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

const ms = (v: number) => (Number.isFinite(v) ? n(v, 1) : 'n/a');

export function formatCallFlowLatencyReport(r: CallFlowLatencyReport): string {
	const c = r.config;
	const out: string[] = [];
	out.push('');
	out.push(`=== Call-flow latency bench: a Connect applet's request answered by the Exotel Call Flow Trigger and by n8n's Webhook node, side by side on one n8n ===`);
	out.push(
		`n8n ${c.n8nVersion}, node ${c.node}, ${c.cpus} CPU (${c.cpuModel}); package ${c.packageVersion} from ${c.packageSource}; ` +
			`load average ${c.loadAverageStart.join(' ')} at the start, ${c.loadAverageEnd.join(' ')} at the end (client and n8n share these CPUs)`,
	);
	out.push(`trigger: ${c.workflows.trigger}`);
	out.push(`webhook: ${c.workflows.webhook}`);
	out.push(`URLs: trigger ${c.urls.trigger ?? 'not found'}, webhook ${c.urls.webhook}`);
	out.push(`request: ${c.request}`);
	out.push(`client: ${c.client}; warm-up ${c.warmUpCalls} one at a time and ${c.burst} at once into each, not counted; n8n idle before each block`);
	if (r.triggerUnavailable) out.push(`\nTHE TRIGGER'S SIDE WAS NOT MEASURED:\n${r.triggerUnavailable}`);
	const sides = SIDES.filter((side) => r.modes[0]?.sides[side]);
	for (const m of r.modes) {
		out.push('');
		out.push(`--- ${m.description} ---`);
		const f = (side: Side) => m.sides[side] as SideFigures;
		const row = (label: string, value: (x: SideFigures, side: Side) => string) => [label, ...sides.map((side) => value(f(side), side))];
		out.push(
			table([
				['', ...sides.map((side) => LABELS[side])],
				row('requests', (x) => int(x.requests)),
				row('p50 (ms)', (x) => ms(x.latencyMs.p50)),
				row('p90 (ms)', (x) => ms(x.latencyMs.p90)),
				row('p99 (ms)', (x) => ms(x.latencyMs.p99)),
				row('max (ms)', (x) => ms(x.latencyMs.max)),
				row('mean (ms)', (x) => ms(x.latencyMs.mean)),
				row('fallback answers', (x, side) => (side === 'trigger' ? int(x.fallbacks) : 'n/a (has none)')),
				row('wrong answers', (x) => int(x.wrong)),
				row('n8n CPU while measured (% of a core)', (x) => (x.n8nCpuPercent === null ? 'n/a' : int(x.n8nCpuPercent))),
				row('n8n CPU per request (ms)', (x) => (x.n8nCpuPerRequestMs === null ? 'n/a' : n(x.n8nCpuPerRequestMs, 1))),
				row('load average (1 min) at start / end', (x) => `${n(x.loadAverage1m.start, 2)} / ${n(x.loadAverage1m.end, 2)}`),
			]),
		);
		for (const side of sides) {
			const x = f(side);
			out.push(`${LABELS[side]}: p99 against the ${n(c.budgetMs / 1000, 0)} s budget: ${ms(x.latencyMs.p99)} ms = ${n(x.p99OfBudgetPercent, 1)}% of the budget`);
		}
	}
	out.push('');
	if (r.n8nWarnings.length) out.push(`n8n log lines with warn/error: ${r.n8nWarnings.join(' | ')}`);
	out.push(
		r.broken.length
			? `FAIL  ${r.broken.length} problem(s): ${r.broken.join('\n      ')}`
			: 'PASS  every answer was exactly the workflow\'s (status 200, content type, body); no fallback',
	);
	out.push(`set-up (pack, install, start, import, warm-up) ${n(r.setupMs / 1000, 1)} s; bench time ${n(r.totalBenchMs / 1000, 1)} s`);
	return out.join('\n');
}
