/* eslint-disable @n8n/community-nodes/no-restricted-imports -- compares saved items (util); never shipped */
/**
 * What n8n does with the item a waiting node saves as its own input (nodes/shared/sendAndWait/savedState.ts),
 * on the release N8N_E2E_TARGET picks: n8n saves the waiting execution with it as the node's input,
 * outputs it when Limit Wait Time ends the wait, and gives it to the resume webhook as `$json`. A
 * failure names which of these a release stopped doing.
 *
 * One workflow, a chat-app approval whose Limit Wait Time comes from the webhook's body, run twice: one
 * run left to time out (15 s), one answered (its limit an hour). The timed-out run ends at the next tick
 * of n8n's wait tracker (once a minute), so the file takes about a minute.
 */
import type { IExecuteData } from 'n8n-workflow';
import { isDeepStrictEqual } from 'util';

import { sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, nodeJson, sharedN8n } from '../harness';

const CREDENTIAL = { id: 'cred-saved-state', name: 'Sandbox (saved state)' };
const PATH = 'saved-state';
const TIMES_OUT = '+919876503301';
const ANSWERS = '+919876503302';

let sandbox: ExotelSandbox;
let instance: N8nInstance;
let flow: { id: string; path: string };

beforeAll(async () => {
	sandbox = new ExotelSandbox({ timeScale: 2 });
	await sandbox.start();
	instance = await sharedN8n();
	await instance.importCredentials([{ ...CREDENTIAL, type: 'exotelApi', data: sandboxCredentialData(sandbox.origin).exotelApi }]);
	const workflow = makeWorkflow(
		[
			{
				name: 'Exotel',
				type: 'n8n-nodes-exotel.exotelMessaging',
				typeVersion: 1,
				parameters: {
					resource: 'chatApp',
					operation: 'sendAndWait',
					from: '+918047112233',
					to: '={{ $json.body.to }}',
					message: 'Approve the refund?',
					responseType: 'approval',
					options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: '={{ $json.body.seconds }}', resumeUnit: 'seconds' } } },
				},
				credentials: { exotelApi: CREDENTIAL },
			},
		],
		{
			name: 'Saved state',
			trigger: { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path: PATH, responseMode: 'onReceived', options: {} } },
		},
	);
	flow = { id: workflow.id, path: PATH };
	await instance.importWorkflows([workflow]);
	await instance.publish(flow.id);
	await instance.setupOwnerAndApiKey();
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + JEST_TIMEOUTS.execute);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
}, JEST_TIMEOUTS.dispose);

/** Fails naming what n8n stopped doing, then what was seen. */
function expectN8n(ok: boolean, change: string, seen: unknown): asserts ok {
	if (!ok) throw new Error(`n8n ${change}\nseen: ${JSON.stringify(seen, null, 1).slice(0, 2000)}`);
}

/** The item the waiting execution was saved with as the Exotel node's input. */
function savedItem(run: { data?: { executionData?: { nodeExecutionStack?: IExecuteData[] } } } | undefined): Record<string, unknown> {
	const entry = run?.data?.executionData?.nodeExecutionStack?.[0];
	const json = entry?.node?.name === 'Exotel' ? entry?.data?.main?.[0]?.[0]?.json : undefined;
	expectN8n(json?.timedOut === true, 'no longer saves a waiting execution with the item the node put in getExecuteData() as its input', entry ?? run?.data);
	return json;
}

test(
	'the saved item is the node’s output when Limit Wait Time ends the wait, and the resume webhook’s $json',
	async () => {
		// one at a time: startExecution tells its run by the execution that is new
		const timesOut = await instance.startWaitingExecution(flow, { to: TIMES_OUT, seconds: 15 });
		const savedTimesOut = savedItem(await instance.execution(timesOut));
		const answered = await instance.startWaitingExecution(flow, { to: ANSWERS, seconds: 3600 });
		const savedAnswered = savedItem(await instance.execution(answered));

		// (b) the webhook reads what was sent from $json: without it, it answers 409 "Nothing is waiting at this URL"
		const GIVES_JSON = 'no longer gives the resume webhook the saved item as $json';
		const reply = await sandbox.reply({ to: ANSWERS, button: 'approve', name: 'Asha Rao' });
		expectN8n(reply.status === 200, `${GIVES_JSON} (the reply was not taken)`, reply);
		const resumed = await instance.waitForExecutionStatus(answered, 'success').catch((error: Error) => {
			throw new Error(`n8n ${GIVES_JSON} (the reply resumed nothing): ${error.message}`);
		});
		const [item] = nodeJson(resumed, 'Exotel');
		// expected from the sandbox (the message it accepted, the buttons it was sent) and the answer it gave, not from n8n's saved item
		const sent = sandbox.chatAppMessages().filter((message) => message.to === ANSWERS);
		expect(sent).toHaveLength(1);
		const buttons = (sent[0].content.interactive as { action: { buttons: Array<{ reply: { id: string; title: string } }> } }).action.buttons;
		const fromState = { messageSid: item?.messageSid, to: item?.to, question: item?.question, resumedBy: item?.resumedBy, approved: item?.approved, answer: item?.answer, answeredBy: item?.answeredBy };
		const expected = {
			messageSid: sent[0].sid,
			to: ANSWERS,
			question: { responseType: 'approval', text: 'Approve the refund?', choices: buttons.map(({ reply }) => reply), approvers: [] },
			resumedBy: 'callback',
			approved: true,
			answer: 'approve',
			answeredBy: { number: ANSWERS, name: 'Asha Rao' },
		};
		// as plain JSON: n8n's items and the sandbox's clones come from other realms than these literals (isDeepStrictEqual compares prototypes)
		const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
		expectN8n(isDeepStrictEqual(plain(fromState), plain(expected)), `${GIVES_JSON} (the answer is not about the message saved)`, { item, expected });
		// and each run saved the message the sandbox accepted for it
		const sidTo = (to: string) => sandbox.chatAppMessages().find((message) => message.to === to)?.sid;
		expect([savedAnswered.messageSid, savedTimesOut.messageSid]).toEqual([sidTo(ANSWERS), sidTo(TIMES_OUT)]);
		expect(sidTo(TIMES_OUT)).toEqual(expect.any(String));

		// (a) Limit Wait Time: n8n resumes the node disabled, which outputs its input, the saved item
		const PASSES = 'no longer passes the saved item through as the node’s output when Limit Wait Time ends the wait';
		const ended = await instance.waitForExecutionStatus(timesOut, 'success', 150_000).catch((error: Error) => {
			throw new Error(`n8n ${PASSES} (the wait did not end): ${error.message}`);
		});
		const output = nodeJson(ended, 'Exotel');
		expectN8n(isDeepStrictEqual(output, [savedTimesOut]), PASSES, { output, saved: savedTimesOut });
	},
	240_000,
);
