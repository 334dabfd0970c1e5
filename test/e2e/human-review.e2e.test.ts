/**
 * Exotel Messaging as an AI agent's human-review tool, on the newest n8n (2.8.4 makes no human-review
 * tools): an AI Agent whose model is the scripted OpenAI-compatible server of `npm run dev -- --human-review`
 * (scripts/scripted-model.ts, loopback only) calls an HTTP Request tool gated by the package's human-review tool. The approval the manager gets on the
 * chat app shows the tool's input line by line; Approve runs the gated tool once and the agent goes
 * on with its result; Decline never runs it.
 */
import { sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { ScriptedModel } from '../../scripts/scripted-model';
import { JEST_TIMEOUTS, N8N_TARGET, N8nInstance, pollFor, sharedN8n, type ListedExecution, type SavedExecution } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const BUSINESS = '+918047112233';
const MANAGER = '+919812340001';
const WEBHOOK_PATH = 'refund-agent-e2e';
const CREDENTIALS = {
	exotelApi: { id: 'cred-exotelApi', name: 'Sandbox exotelApi' },
	openAiApi: { id: 'cred-scripted-model', name: 'Scripted model (loopback)' },
};

const describeOnNewest = N8N_TARGET === 'newest' ? describe : describe.skip;

describeOnNewest('human review by an AI agent (newest n8n)', () => {
	let sandbox: ExotelSandbox;
	let instance: N8nInstance;
	const scripted = new ScriptedModel();
	let workflowId: string;

	beforeAll(async () => {
		await scripted.start();
		sandbox = new ExotelSandbox({ timeScale: 0.01 });
		await sandbox.start();
		instance = await sharedN8n();
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		await instance.importCredentials([
			{ ...CREDENTIALS.exotelApi, type: 'exotelApi', data: data.exotelApi },
			{ ...CREDENTIALS.openAiApi, type: 'openAiApi', data: { apiKey: 'sk-dummy-scripted-0000', url: `${scripted.origin}/v1` } },
		]);
		const node = (name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, position: [number, number], more = {}) => ({
			id: `hr-${name.toLowerCase().replace(/\W+/g, '-')}`,
			name,
			type,
			typeVersion,
			parameters,
			position,
			...more,
		});
		const workflow = {
			id: 'humanReviewE2e1',
			name: 'Refund agent with human review (e2e)',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: [
				node('Webhook', 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} }, [0, 0], {
					webhookId: '5f1e2d3c-4b5a-4968-8776-a1b2c3d4e5f6',
				}),
				node('Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, { promptType: 'define', text: '={{ $json.body.request }}', options: {} }, [240, 0]),
				node(
					'Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenAi',
					1.2,
					{ model: { __rl: true, value: 'gpt-4o-mini', mode: 'list', cachedResultName: 'gpt-4o-mini' }, options: {} },
					[120, 200],
					{ credentials: { openAiApi: CREDENTIALS.openAiApi } },
				),
				node(
					'Issue_Refund',
					'n8n-nodes-base.httpRequestTool',
					4.2,
					{
						toolDescription: 'Issues a refund for an order',
						method: 'POST',
						url: `=${scripted.origin}/refund?order={{ $fromAI('orderId', 'the order id', 'string') }}&amount={{ $fromAI('amount', 'the amount in INR', 'number') }}`,
						options: {},
					},
					[360, 400],
				),
				node(
					'Human Review',
					`${PACKAGE}.exotelMessagingHitlTool`,
					2,
					{ from: BUSINESS, to: MANAGER, approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve', disapproveLabel: 'Decline' } }, options: {} },
					[360, 200],
					{ credentials: { exotelApi: CREDENTIALS.exotelApi }, webhookId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' },
				),
			],
			connections: {
				Webhook: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				Model: { ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] },
				Issue_Refund: { ai_tool: [[{ node: 'Human Review', type: 'ai_tool', index: 0 }]] },
				'Human Review': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
		};
		[workflowId] = await instance.importWorkflows([workflow]);
		await instance.publish(workflowId);
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

	afterAll(async () => {
		await instance?.dispose();
		await sandbox?.stop();
		await scripted.stop();
	}, JEST_TIMEOUTS.dispose);

	async function run(): Promise<string> {
		const known = new Set(await instance.executionIds(workflowId));
		const res = await instance.request('POST', instance.webhookUrl(WEBHOOK_PATH), { data: { request: 'Refund order ORD-1001 of Rs 499 to the customer' } });
		expect(res.status).toBe(200);
		return await pollFor('the agent execution', 60_000, async () => (await instance.executionIds(workflowId)).find((id) => !known.has(id)));
	}

	async function finished(id: string): Promise<SavedExecution> {
		return await pollFor(`execution ${id} to finish`, 90_000, async () => {
			const execution = await instance.publicApi<SavedExecution>('GET', `/executions/${id}?includeData=true`);
			if (execution.status === 'error' || execution.status === 'crashed') throw new Error(`execution ${id}: ${JSON.stringify(execution.data?.resultData?.error ?? execution.status).slice(0, 1500)}`);
			return execution.status === 'success' ? execution : undefined;
		});
	}

	/**
	 * Waits until n8n has saved execution `id` as waiting: a reply before that finds no waiting
	 * execution and n8n answers it 409 (the chat app's message can be there first).
	 */
	async function waiting(id: string): Promise<void> {
		await pollFor(`execution ${id} to wait for the approval`, 90_000, async () => {
			const execution = await instance.publicApi<ListedExecution>('GET', `/executions/${id}`);
			if (execution.status === 'error' || execution.status === 'crashed') throw new Error(`execution ${id} is ${execution.status}`);
			return execution.status === 'waiting' ? true : undefined;
		});
	}

	/** The approval the manager got, once it is there. */
	async function approval(before: number): Promise<{ sid: string; text: string }> {
		const message = await pollFor('the approval on the chat app', 60_000, async () => sandbox.chatAppMessages().filter((m) => m.to === MANAGER)[before]);
		const content = message.content as { interactive?: { body?: { text?: string } } };
		return { sid: message.sid, text: String(content.interactive?.body?.text) };
	}

	const agentOutput = (execution: SavedExecution) => String(execution.data.resultData.runData.Agent.at(-1)?.data?.main[0]?.[0].json.output);

	test(
		'the approval shows the tool input line by line; Approve runs the gated tool once and the agent goes on with its answer',
		async () => {
			const id = await run();
			await waiting(id);
			const { sid, text } = await approval(0);
			expect(text).toBe('The agent wants to run this tool: Issue_Refund\n\nInput:\norderId: ORD-1001\namount: 499');
			expect(scripted.refunds).toEqual([]);
			expect((await sandbox.reply({ sid, button: 'approve' })).status).toBe(200);
			const execution = await finished(id);
			expect(scripted.refunds).toEqual([{ order: 'ORD-1001', amount: 499, at: expect.any(String) }]);
			expect(agentOutput(execution)).toBe('The manager approved the refund and it was issued: 499 INR on order ORD-1001.');
		},
		240_000,
	);

	test(
		'Decline never runs the gated tool; the agent is told',
		async () => {
			const refunds = scripted.refunds.length;
			const id = await run();
			await waiting(id);
			const { sid } = await approval(1);
			expect((await sandbox.reply({ sid, button: 'decline' })).status).toBe(200);
			const execution = await finished(id);
			expect(scripted.refunds).toHaveLength(refunds);
			expect(agentOutput(execution)).toBe('The manager declined the refund of 499 INR on order ORD-1001: nothing was refunded.');
		},
		240_000,
	);
});

