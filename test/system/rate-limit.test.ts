/**
 * Sends of any size finish under the account's rate limit, on a real n8n 2.8.4 with the packed
 * package: 20,000 personalised SMS through SMS → Send (200 dynamic-bulk requests) against the
 * sandbox's account limit of 50 requests per 15 s (200 a minute, the service's published rate,
 * scaled) with no Retry-After; then two executions of 20,000 each started together on the same
 * account. Every message is sent exactly once and none fails; the pace settles with at most a
 * few 429s, and the wall time stays within 1.25× of the floor (requests ÷ allowed rate), read
 * from the sandbox's own request log. The figures are printed for the README.
 */
import path from 'path';

import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../../sandbox/fixtures';
import type { RecordedRequest } from '../../sandbox/server';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, packPackage, removeTempDir, type WorkflowNode } from '../harness';

const MESSAGES = 20_000;
const LIMIT = { limit: 50, windowMs: 15_000, retryAfter: false };
const REQUESTS_PER_RUN = MESSAGES / 100;
/** Requests ÷ allowed rate. */
const floorMs = (requests: number) => (requests / LIMIT.limit) * LIMIT.windowMs;

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let tarball: string;

function sendWorkflow(name: string, webhookPath: string, firstNumber: number) {
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
		credentials: { exotelApi: CREDENTIAL_IDS.exotelApi },
	};
	return makeWorkflow([recipients, send], { name, trigger });
}

interface Figures {
	requests: number;
	accepted: number;
	limited: number;
	limitedAfterSettling: number;
	wallMs: number;
	floorMs: number;
}

/** Reads the sandbox's log of bulk requests: wall time from the first request to the last accepted one. */
function figuresOf(log: RecordedRequest[], requests: number): Figures {
	const accepted = log.filter((r) => r.status !== 429);
	const firstLimited = log.findIndex((r) => r.status === 429);
	const settledAt = firstLimited < 0 ? log.length : log.findIndex((r, i) => i > firstLimited && r.status !== 429);
	return {
		requests: log.length,
		accepted: accepted.length,
		limited: log.length - accepted.length,
		limitedAfterSettling: settledAt < 0 ? 0 : log.slice(settledAt).filter((r) => r.status === 429).length,
		wallMs: accepted[accepted.length - 1].time - log[0].time,
		floorMs: floorMs(requests),
	};
}

async function runToTheEnd(workflows: Array<{ id: string; path: string }>): Promise<any[]> {
	await Promise.all(workflows.map(async (w) => await instance.request('POST', instance.webhookUrl(w.path), { data: {} })));
	const executions = await Promise.all(workflows.map(async (w) => (await instance.waitForExecutions(w.id, 1, 10 * 60_000))[0]));
	return executions;
}

function sendOutputOf(execution: any): Array<Record<string, any>> {
	return (execution.data?.resultData?.runData?.['Send SMS']?.[0]?.data?.main?.[0] ?? []).map((item: { json: Record<string, any> }) => item.json);
}

describe('20,000 SMS against the account rate limit (50 per 15 s, no Retry-After) on a real n8n', () => {
	const one = sendWorkflow('rate limit: one run', 'rate-limit-one', 9_100_000_000);
	const twoA = sendWorkflow('rate limit: run A', 'rate-limit-a', 9_200_000_000);
	const twoB = sendWorkflow('rate limit: run B', 'rate-limit-b', 9_300_000_000);

	beforeAll(async () => {
		sandbox = new ExotelSandbox({ latencyMs: 20, rateLimit: LIMIT });
		await sandbox.start();
		tarball = await packPackage();
		instance = await N8nInstance.create({ tarball });
		// started first, so the credentials and workflows go in through its API, not a CLI process each
		await instance.start();
		await instance.setupOwnerAndApiKey();
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		await instance.importCredentials(Object.entries(CREDENTIAL_IDS).map(([type, ref]) => ({ ...ref, type, data: data[type] })));
		await instance.importWorkflows([one, twoA, twoB]);
		for (const workflow of [one, twoA, twoB]) await instance.publish(workflow.id);
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 120_000);

	afterAll(async () => {
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
		await sandbox?.stop();
	}, JEST_TIMEOUTS.dispose);

	beforeEach(() => sandbox.reset());

	test('one execution: all 20,000 sent once, none failed, paced within 1.25x the floor', async () => {
		const [execution] = await runToTheEnd([{ id: one.id, path: 'rate-limit-one' }]);
		expect(execution.status).toBe('success');
		const output = sendOutputOf(execution);
		expect(output).toHaveLength(MESSAGES);
		expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
		const messages = sandbox.messages();
		expect(messages).toHaveLength(MESSAGES);
		expect(new Set(messages.map((m) => m.to)).size).toBe(MESSAGES);
		expect(new Set(output.map((json) => json.messageSid)).size).toBe(MESSAGES);
		expect(new Set(messages.map((m) => m.sid))).toEqual(new Set(output.map((json) => json.messageSid)));

		const figures = figuresOf(sandbox.requests({ pathIncludes: 'Sms/bulksend' }), REQUESTS_PER_RUN);
		process.stdout.write(`RATE_LIMIT one execution: ${JSON.stringify(figures)}\n`);
		expect(figures.accepted).toBe(REQUESTS_PER_RUN);
		expect(figures.limited).toBeGreaterThan(0);
		expect(figures.limitedAfterSettling).toBeLessThanOrEqual(3);
		expect(figures.wallMs).toBeLessThanOrEqual(1.25 * figures.floorMs);
	}, 10 * 60_000);

	test('two executions started together on one account: both finish, 40,000 sent once, none failed', async () => {
		const executions = await runToTheEnd([
			{ id: twoA.id, path: 'rate-limit-a' },
			{ id: twoB.id, path: 'rate-limit-b' },
		]);
		for (const execution of executions) {
			expect(execution.status).toBe('success');
			const output = sendOutputOf(execution);
			expect(output).toHaveLength(MESSAGES);
			expect(output.filter((json) => json.error !== undefined || json.status === 'failed')).toEqual([]);
		}
		const messages = sandbox.messages();
		expect(messages).toHaveLength(2 * MESSAGES);
		expect(new Set(messages.map((m) => m.to)).size).toBe(2 * MESSAGES);

		const figures = figuresOf(sandbox.requests({ pathIncludes: 'Sms/bulksend' }), 2 * REQUESTS_PER_RUN);
		process.stdout.write(`RATE_LIMIT two executions: ${JSON.stringify(figures)}\n`);
		expect(figures.accepted).toBe(2 * REQUESTS_PER_RUN);
		expect(figures.wallMs).toBeLessThanOrEqual(1.25 * figures.floorMs);
	}, 12 * 60_000);
});
