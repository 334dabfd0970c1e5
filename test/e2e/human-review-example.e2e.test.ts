/**
 * The example of `npm run dev -- --human-review` (examples/newest-n8n/ai-agent-human-review.json) on the
 * newest n8n, as dev sets it up: the scripted model (scripts/scripted-model.ts) and its credential,
 * the example imported with dev's credential ids and published, then run as the banner says: its curl,
 * then `npm run person`'s request as the manager. Approve: the refund endpoint issues one refund and
 * the agent says so; Decline: none, and the agent says it was declined. 2.8.4 makes no human-review
 * tools: skipped there.
 */
import axios from 'axios';

import { SANDBOX_CREDENTIAL_IDS, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { exampleWebhooks, HUMAN_REVIEW_EXAMPLE_ID, NEWEST_SAMPLE_BODIES } from '../../scripts/dev-examples';
import { humanReviewExamples, scriptedModelCredential } from '../../scripts/dev-human-review';
import { parsePersonArgs } from '../../scripts/person';
import { ScriptedModel } from '../../scripts/scripted-model';
import { JEST_TIMEOUTS, N8N_TARGET, N8nInstance, pollFor, sharedN8n, type ListedExecution, type SavedExecution } from '../harness';

const MANAGER = '+919812340001';

const describeOnNewest = N8N_TARGET === 'newest' ? describe : describe.skip;

describeOnNewest('the human-review example of npm run dev (newest n8n)', () => {
	let sandbox: ExotelSandbox;
	let instance: N8nInstance;
	const model = new ScriptedModel();
	let webhookPath: string;

	beforeAll(async () => {
		await model.start();
		sandbox = new ExotelSandbox({ timeScale: 0.01 });
		await sandbox.start();
		instance = await sharedN8n();
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		await instance.importCredentials([{ ...SANDBOX_CREDENTIAL_IDS.exotelApi, type: 'exotelApi', data: data.exotelApi }, scriptedModelCredential(model.origin)]);
		const examples = humanReviewExamples(model.origin);
		await instance.importWorkflows(examples);
		await instance.publish(HUMAN_REVIEW_EXAMPLE_ID);
		[{ path: webhookPath }] = exampleWebhooks(examples, { n8n: instance.baseUrl, sandbox: sandbox.origin });
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

	afterAll(async () => {
		await instance?.dispose();
		await sandbox?.stop();
		await model.stop();
	}, JEST_TIMEOUTS.dispose);

	/** The banner's curl: the sample body to the production URL; the new execution's id once it waits for the manager. */
	async function run(): Promise<string> {
		const known = new Set(await instance.executionIds(HUMAN_REVIEW_EXAMPLE_ID));
		const res = await instance.request('POST', instance.webhookUrl(webhookPath), { data: NEWEST_SAMPLE_BODIES[HUMAN_REVIEW_EXAMPLE_ID] });
		expect(res.status).toBe(200);
		const id = await pollFor('the agent execution', 60_000, async () => (await instance.executionIds(HUMAN_REVIEW_EXAMPLE_ID)).find((candidate) => !known.has(candidate)));
		// a reply before n8n saved the execution as waiting finds none (409)
		await pollFor(`execution ${id} to wait for the manager`, 90_000, async () => {
			const execution = await instance.publicApi<ListedExecution>('GET', `/executions/${id}`);
			if (execution.status === 'error' || execution.status === 'crashed') throw new Error(`execution ${id} is ${execution.status}`);
			return execution.status === 'waiting' ? true : undefined;
		});
		return id;
	}

	/** `npm run person -- reply --to <manager> --button <button>`: the request it sends. */
	async function answer(button: 'approve' | 'decline'): Promise<void> {
		const request = parsePersonArgs(['reply', '--to', MANAGER, '--button', button, '--sandbox', sandbox.origin]);
		const res = await axios.post(request.url, request.body, { proxy: false, validateStatus: () => true });
		expect([res.status, res.data?.error]).toEqual([200, undefined]);
	}

	async function agentAnswer(id: string): Promise<string> {
		const execution = await pollFor(`execution ${id} to finish`, 90_000, async () => {
			const found = await instance.publicApi<SavedExecution>('GET', `/executions/${id}?includeData=true`);
			if (found.status === 'error' || found.status === 'crashed') throw new Error(`execution ${id}: ${JSON.stringify(found.data?.resultData?.error ?? found.status).slice(0, 1500)}`);
			return found.status === 'success' ? found : undefined;
		});
		return String(execution.data.resultData.runData['Refund Agent'].at(-1)?.data?.main[0]?.[0].json.output);
	}

	test(
		'the manager gets the tool input on WhatsApp; Approve issues the refund once and the agent says so',
		async () => {
			const id = await run();
			// the approval of this execution: its status callback is the execution's resume URL
			const approval = await pollFor('the approval on WhatsApp', 60_000, async () =>
				sandbox.chatAppMessages().find((m) => m.to === MANAGER && String(m.statusCallback).includes(`/webhook-waiting/${id}/`)),
			);
			expect(approval.from).toBe('+918047090000');
			const content = approval.content as { interactive?: { body?: { text?: string }; action?: { buttons?: Array<{ reply: { title: string } }> } } };
			expect(content.interactive?.body?.text).toBe('The refund agent wants to run Issue_Refund:\norderId: ORD-1001\namount: 499\nApprove?');
			expect(content.interactive?.action?.buttons?.map((b) => b.reply.title)).toEqual(['Approve refund', 'Decline']);
			expect(model.refunds).toEqual([]);
			await answer('approve');
			expect(await agentAnswer(id)).toBe('The manager approved the refund and it was issued: 499 INR on order ORD-1001.');
			expect(model.refunds).toEqual([{ order: 'ORD-1001', amount: 499, at: expect.any(String) }]);
		},
		240_000,
	);

	test(
		'Decline issues nothing; the agent says it was declined',
		async () => {
			const id = await run();
			await answer('decline');
			expect(await agentAnswer(id)).toBe('The manager declined the refund of 499 INR on order ORD-1001: nothing was refunded.');
			expect(model.refunds).toHaveLength(1);
		},
		240_000,
	);
});
