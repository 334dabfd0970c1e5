/* eslint-disable @n8n/community-nodes/no-restricted-globals -- waits for the start of a rate-limit window (timers); never shipped */
/**
 * What the rate-limit runs on a real n8n share, in the system stage (test/system/rate-limit.test.ts,
 * queue-mode.test.ts) and in the rate-limit bench's scaled part (test/bench/rate-limit.bench.ts):
 * the 20,000-SMS workflow (a Code node making the recipients, SMS → Send with a personalised text,
 * so 200 dynamic-bulk requests of 100), the campaign burst and the many-pages workflows, the exact
 * checks the tests make of the sandbox's log, and the figures the bench reads from it against the
 * sandbox's fixed windows.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RecordedRequest } from '../../sandbox/server';
import { makeWorkflow, type RunJson, type WorkflowNode } from '../harness';

export const MESSAGES = 20_000;
export const REQUESTS_PER_RUN = MESSAGES / 100;

/** A Webhook trigger that starts the run on a POST to `webhookPath` and answers at once. */
function startedByPost(webhookPath: string): WorkflowNode {
	return { name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} } };
}

/** `messages` personalised SMS to +91 and `firstNumber`, `firstNumber + 1`, …, started by a POST to `webhookPath`. */
export function bulkSmsWorkflow(name: string, webhookPath: string, firstNumber: number, credential: { id: string; name: string }, messages = MESSAGES) {
	const trigger = startedByPost(webhookPath);
	const recipients: WorkflowNode = {
		name: 'Recipients',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			language: 'javaScript',
			mode: 'runOnceForAllItems',
			jsCode: `return Array.from({ length: ${messages} }, (_, i) => ({ json: { phone: '+91' + String(${firstNumber} + i), name: 'Customer ' + i } }));`,
		},
	};
	const send: WorkflowNode = {
		name: 'Send SMS',
		type: 'n8n-nodes-exotel.exotelMessaging',
		typeVersion: 1,
		onError: 'continueRegularOutput',
		parameters: {
			resource: 'sms',
			operation: 'send',
			from: 'EXOTEL',
			to: '={{ $json.phone }}',
			body: '=Hello {{ $json.name }}, your order has shipped',
		},
		credentials: { exotelApi: credential },
	};
	return makeWorkflow([recipients, send], { name, trigger });
}

export const CAMPAIGNS = 100;
export const LIST_READERS = 20;
/** The sandbox's big list: 1,203 contacts, read in pages of 500. */
export const BIG_LIST = { sid: 'list-big', size: 1203, pages: 3 };

function voiceWorkflow(name: string, webhookPath: string, items: string, voice: Record<string, unknown>, credential: { id: string; name: string }) {
	const trigger = startedByPost(webhookPath);
	const make: WorkflowNode = {
		name: 'Items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { language: 'javaScript', mode: 'runOnceForAllItems', jsCode: items },
	};
	const node: WorkflowNode = {
		name: 'Exotel',
		type: 'n8n-nodes-exotel.exotelVoice',
		typeVersion: 1,
		onError: 'continueRegularOutput',
		parameters: voice,
		credentials: { exotelApi: credential },
	};
	return makeWorkflow([make, node], { name, trigger });
}

/** Voice → Campaign → Create, one campaign for each of CAMPAIGNS items ("Burst campaign <i>"), in the node "Exotel". */
export const campaignBurstWorkflow = (name: string, webhookPath: string, credential: { id: string; name: string }) =>
	voiceWorkflow(
		name,
		webhookPath,
		`return Array.from({ length: ${CAMPAIGNS} }, (_, i) => ({ json: { phone: '+9198765' + String(10000 + i), name: 'Burst campaign ' + i } }));`,
		{ resource: 'campaign', operation: 'create', recipientSource: 'numbers', from: '={{ $json.phone }}', callerId: '+918047112233', additionalFields: { name: '={{ $json.name }}' } },
		credential,
	);

/** Voice → List → Get Contacts, Return All of the big list, for each of LIST_READERS items, in the node "Exotel". */
export const manyPagesWorkflow = (name: string, webhookPath: string, credential: { id: string; name: string }) =>
	voiceWorkflow(
		name,
		webhookPath,
		`return Array.from({ length: ${LIST_READERS} }, () => ({ json: {} }));`,
		{ resource: 'list', operation: 'getContacts', listSid: BIG_LIST.sid, returnAll: true },
		credential,
	);

/** The first recipient of an SMS request (its key: a refused request goes again with the same recipients). */
export const firstRecipient = (request: RecordedRequest) => request.form?.find(([key]) => key === 'Messages[0][To]' || key === 'To[]')?.[1] ?? '';

/**
 * The refusals in a category's log that break the service's Retry-After: each refused request
 * (a 429; its logical request named by `keyOf`) must reach the service again, and no sooner than
 * `retryAfterMs` after the 429, less Date.now()'s granularity (the sandbox and n8n read the same
 * clock, and n8n reads the 429 after the sandbox recorded it). Requests already in flight when the
 * 429 was answered may arrive within it, so only the refused request's own next attempt is
 * compared. Empty when none does.
 *
 * With `windowMs` (runs without the counters, the pacer told the sandbox's windows by the
 * credential's Custom Rate Limits), the refused request must also come back in a later window than
 * the one that refused it: without counters a refusal waits for the next window's opening even when
 * its Retry-After ends sooner (docs/rate-limits.md; CategoryPacer.limited). That holds on any
 * machine: the pacer sets the pause when it reads the 429, after the sandbox recorded it, so in the
 * refusing window or a later one, and the pause runs to the opening of the window after the one it
 * was read in (cut short only by Max Wait, 15 minutes with nothing accepted); the next attempt goes
 * out after the pause and reaches the sandbox later still. Both clocks are the machine's, and the
 * windows start on its multiples of `windowMs` for both.
 */
export function retryAfterBroken(log: RecordedRequest[], keyOf: (request: RecordedRequest) => string, retryAfterMs: number, windowMs?: number): string[] {
	const broken: string[] = [];
	const windowOf = (request: RecordedRequest) => Math.floor(request.time / (windowMs ?? 1));
	for (const refused of log.filter((r) => r.rateLimited)) {
		const next = log.find((r) => r.id > refused.id && keyOf(r) === keyOf(refused));
		if (!next) broken.push(`request ${refused.id} (${keyOf(refused)}), refused at ${refused.time}, never sent again`);
		else if (next.time - refused.time < retryAfterMs - 1) broken.push(`request ${refused.id} (${keyOf(refused)}) sent again ${next.time - refused.time} ms after its 429 (Retry-After ${retryAfterMs} ms)`);
		else if (windowMs !== undefined && windowOf(next) === windowOf(refused)) {
			broken.push(`request ${refused.id} (${keyOf(refused)}), refused ${refused.time % windowMs} ms into its window, sent again ${next.time - refused.time} ms later in the same window (windows of ${windowMs} ms)`);
		}
	}
	return broken;
}

/**
 * The refused requests of a category's log by window and run, as acceptedByWindow below
 * ("w0 +9196:1 +9197:1 | w1 ..."): each run's refusals in a window are the one collision it met
 * there, one request for each it had in flight when it read the 429 (docs/rate-limits.md).
 */
export function refusedByWindow(log: RecordedRequest[], windowMs: number): string {
	const first = log.length > 0 ? Math.floor(log[0].time / windowMs) : 0;
	return countsByWindow(log.filter((r) => r.rateLimited), windowMs, first);
}

export interface WindowFigures {
	requests: number;
	accepted: number;
	limited: number;
	/** Refusals after the window of the first request. */
	limitedAfterFirstWindow: number;
	/** First to last accepted request. */
	wallMs: number;
	/** From the first accepted request to the start of the window the last of `expected` can fall in. */
	floorMs: number;
	ratio: number;
	/** Requests the windows between the first and the last left unused. */
	unusedBetween: number;
	/** Accepted requests in each window, by run (the first digits of the first recipient). */
	windows: string;
}

/**
 * The figures of one category's requests in the sandbox's log, against fixed windows of `windowMs`
 * on the clock (the sandbox's documented mode) and `perWindow` accepted requests in each. Times and
 * their ratio are measurements (the rate-limit bench prints them); the tests print them beside their
 * exact checks, to see a run's windows when one fails.
 */
export function windowFigures(log: RecordedRequest[], expected: number, perWindow: number, windowMs: number): WindowFigures {
	const accepted = log.filter((r) => !r.rateLimited && r.status !== 429 && r.status !== 503);
	const first = accepted[0].time;
	const firstWindow = Math.floor(first / windowMs) * windowMs;
	const floorMs = firstWindow + (Math.ceil(expected / perWindow) - 1) * windowMs - first;
	const wallMs = accepted[accepted.length - 1].time - first;
	const firstWindowEnds = (Math.floor(log[0].time / windowMs) + 1) * windowMs;
	return {
		requests: log.length,
		accepted: accepted.length,
		limited: log.length - accepted.length,
		limitedAfterFirstWindow: log.filter((r) => r.time >= firstWindowEnds && !accepted.includes(r)).length,
		wallMs,
		floorMs,
		ratio: Math.round((wallMs / floorMs) * 1000) / 1000,
		unusedBetween: unusedBetween(accepted, perWindow, windowMs),
		windows: acceptedByWindow(accepted, windowMs),
	};
}

/** The Send SMS node's output items of a saved execution. */
export function sendOutputOf(execution: RunJson): IDataObject[] {
	return (execution.data?.resultData?.runData?.['Send SMS']?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

/** "w0 +9191:50 | w1 ..." : accepted requests per window and run, to see where a window went unused. */
function acceptedByWindow(accepted: RecordedRequest[], windowMs: number): string {
	return countsByWindow(accepted, windowMs);
}

/** Requests per window and run (the first digits of the first recipient), windows counted from `first` (else the first request's). */
function countsByWindow(requests: RecordedRequest[], windowMs: number, first?: number): string {
	const counts = new Map<number, Map<string, number>>();
	for (const request of requests) {
		const window = Math.floor(request.time / windowMs);
		const to = firstRecipient(request);
		const run = to.slice(0, 5) || request.method;
		const byRun = counts.get(window) ?? new Map<string, number>();
		byRun.set(run, (byRun.get(run) ?? 0) + 1);
		counts.set(window, byRun);
	}
	const from = first ?? Math.min(...counts.keys());
	return [...counts.entries()].map(([window, byRun]) => `w${window - from} ${[...byRun].map(([run, n]) => `${run}:${n}`).join(' ')}`).join(' | ');
}

function unusedBetween(accepted: RecordedRequest[], perWindow: number, windowMs: number): number {
	const windows = accepted.map((request) => Math.floor(request.time / windowMs));
	const [first, last] = [Math.min(...windows), Math.max(...windows)];
	let unused = 0;
	for (let window = first + 1; window < last; window++) unused += perWindow - windows.filter((w) => w === window).length;
	return unused;
}

/**
 * Resolves early in one of the sandbox's windows (waiting for the next when the current one is past
 * its first 30 %). The bench's floor counts the run's first window whole, and a run that starts in a
 * window's last moments cannot fill it (no run could): the unit tests cover every start on a virtual
 * clock. The tests start their runs alike, so that they run what the bench measures.
 */
export async function earlyInWindow(windowMs: number): Promise<void> {
	const into = Date.now() % windowMs;
	if (into > 0.3 * windowMs) await new Promise((resolve) => setTimeout(resolve, windowMs - into + 200));
}
