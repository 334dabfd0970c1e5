/**
 * What the rate-limit runs of the system stage share: the 20,000-SMS workflow (a Code node making
 * the recipients, SMS → Send with a personalised text, so 200 dynamic-bulk requests of 100), and
 * the figures read from the sandbox's own request log against its fixed windows.
 */
import type { RecordedRequest } from '../../sandbox/server';
import { makeWorkflow, type WorkflowNode } from '../harness';

export const MESSAGES = 20_000;
export const REQUESTS_PER_RUN = MESSAGES / 100;

export function bulkSmsWorkflow(name: string, webhookPath: string, firstNumber: number, credential: { id: string; name: string }) {
	const trigger: WorkflowNode = {
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
	const recipients: WorkflowNode = {
		name: 'Recipients',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			language: 'javaScript',
			mode: 'runOnceForAllItems',
			jsCode: `return Array.from({ length: ${MESSAGES} }, (_, i) => ({ json: { phone: '+91' + String(${firstNumber} + i), name: 'Customer ' + i } }));`,
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

export interface WindowFigures {
	requests: number;
	accepted: number;
	limited: number;
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
 * on the clock (the sandbox's documented mode) and `perWindow` accepted requests in each.
 */
export function windowFigures(log: RecordedRequest[], expected: number, perWindow: number, windowMs: number): WindowFigures {
	const accepted = log.filter((r) => !r.rateLimited && r.status !== 429 && r.status !== 503);
	const first = accepted[0].time;
	const firstWindow = Math.floor(first / windowMs) * windowMs;
	const floorMs = firstWindow + (Math.ceil(expected / perWindow) - 1) * windowMs - first;
	const wallMs = accepted[accepted.length - 1].time - first;
	return {
		requests: log.length,
		accepted: accepted.length,
		limited: log.length - accepted.length,
		wallMs,
		floorMs,
		ratio: Math.round((wallMs / floorMs) * 1000) / 1000,
		unusedBetween: unusedBetween(accepted, perWindow, windowMs),
		windows: acceptedByWindow(accepted, windowMs),
	};
}

/** The Send SMS node's output items of a saved execution. */
export function sendOutputOf(execution: any): Array<Record<string, any>> {
	return (execution.data?.resultData?.runData?.['Send SMS']?.[0]?.data?.main?.[0] ?? []).map((item: { json: Record<string, any> }) => item.json);
}

/** "w0 +9191:50 | w1 ..." : accepted requests per window and run, to see where a window went unused. */
function acceptedByWindow(accepted: RecordedRequest[], windowMs: number): string {
	const counts = new Map<number, Map<string, number>>();
	for (const request of accepted) {
		const window = Math.floor(request.time / windowMs);
		const to = request.form?.find(([key]) => key === 'Messages[0][To]' || key === 'To[]')?.[1] ?? '';
		const run = to.slice(0, 5) || request.method;
		const byRun = counts.get(window) ?? new Map<string, number>();
		byRun.set(run, (byRun.get(run) ?? 0) + 1);
		counts.set(window, byRun);
	}
	const first = Math.min(...counts.keys());
	return [...counts.entries()].map(([window, byRun]) => `w${window - first} ${[...byRun].map(([run, n]) => `${run}:${n}`).join(' ')}`).join(' | ');
}

function unusedBetween(accepted: RecordedRequest[], perWindow: number, windowMs: number): number {
	const windows = accepted.map((request) => Math.floor(request.time / windowMs));
	const [first, last] = [Math.min(...windows), Math.max(...windows)];
	let unused = 0;
	for (let window = first + 1; window < last; window++) unused += perWindow - windows.filter((w) => w === window).length;
	return unused;
}

/**
 * Two runs on one account take turns, so the first window's lead stays to the end: when the first
 * run ends among the last requests of a window, the other still holds one back for it, unused
 * (test/unit/pacing.test.ts); when the requests fill the windows exactly, that one costs a window.
 * So: within 1.10x the floor, or exactly that one request unused and within one window of it.
 */
export function expectSharedWindowsUsed(figures: WindowFigures, windowMs: number, expect: jest.Expect): void {
	expect(figures.unusedBetween).toBeLessThanOrEqual(1);
	if (figures.unusedBetween === 0) expect(figures.ratio).toBeLessThanOrEqual(1.1);
	else expect(figures.wallMs).toBeLessThanOrEqual(figures.floorMs + windowMs + 1_000);
}

/**
 * Resolves early in one of the sandbox's windows (waiting for the next when the current one is past
 * its first 30 %). The floor counts the run's first window whole, and a run that starts in a window's
 * last moments cannot fill it (no run could): the unit tests cover every start on a virtual clock.
 */
export async function earlyInWindow(windowMs: number): Promise<void> {
	const into = Date.now() % windowMs;
	if (into > 0.3 * windowMs) await new Promise((resolve) => setTimeout(resolve, windowMs - into + 200));
}
