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
	};
}

/** The Send SMS node's output items of a saved execution. */
export function sendOutputOf(execution: any): Array<Record<string, any>> {
	return (execution.data?.resultData?.runData?.['Send SMS']?.[0]?.data?.main?.[0] ?? []).map((item: { json: Record<string, any> }) => item.json);
}
