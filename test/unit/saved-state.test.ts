// savedState.ts: the item a waiting node keeps as its own input, and the webhook reading it back as
// `$json` through n8n's expression engine, given that input as n8n's WebhookContext gives it. What
// real n8n does with that input (timeout, webhook) is test/e2e/saved-state.e2e.test.ts.
import type { IExecuteData, IExecuteFunctions, INode, INodeTypes, IRunExecutionData, IWebhookFunctions } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { saveWaitingState, waitingState } from '../../nodes/shared/sendAndWait/savedState';

const NODE: INode = { id: 'node-7', name: 'Exotel', type: 'n8n-nodes-exotel.exotelMessaging', typeVersion: 1, position: [0, 0], parameters: {} };
const SAVED = {
	messageSid: 'sm-1',
	to: '+919876543210',
	timedOut: true,
	waitingFor: 'reply',
	question: { responseType: 'approval', text: 'Refund 1,200 INR?', choices: [{ id: 'approve', title: 'Approve' }], approvers: [] },
	answer: null,
};

/** The stack entry n8n runs the node with: the webhook trigger's item as its input. */
function stackEntry(): IExecuteData {
	return { node: NODE, data: { main: [[{ json: { body: { to: '+919876543210' } }, pairedItem: { item: 0 } }]] }, source: null };
}

/** A webhook context that evaluates as n8n's WebhookContext does: the stack entry's first input as its items. */
function webhookContext(entry: IExecuteData): IWebhookFunctions {
	const type = new ExotelMessaging();
	const nodeTypes: INodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
	const workflow = new Workflow({ nodes: [NODE], connections: {}, active: false, nodeTypes });
	const runExecutionData = { resultData: { runData: {} }, executionData: { nodeExecutionStack: [entry] } } as unknown as IRunExecutionData;
	return {
		evaluateExpression: (expression: string, itemIndex = 0) =>
			workflow.expression.resolveSimpleParameterValue(`=${expression}`, {}, runExecutionData, 0, itemIndex, NODE.name, entry.data.main[0] ?? [], 'webhook', {}, entry),
	} as unknown as IWebhookFunctions;
}

describe('savedState: the item a waiting node keeps as its own input', () => {
	it('replaces the node’s input with the one item, paired to item 0', () => {
		const entry = stackEntry();
		saveWaitingState({ getExecuteData: () => entry } as unknown as IExecuteFunctions, SAVED);
		expect(entry.data).toEqual({ main: [[{ json: SAVED, pairedItem: { item: 0 } }]] });
	});

	it('the webhook reads it back whole as `$json`, through n8n’s expression engine', () => {
		const entry = stackEntry();
		saveWaitingState({ getExecuteData: () => entry } as unknown as IExecuteFunctions, SAVED);
		expect(waitingState(webhookContext(entry))).toEqual(SAVED);
	});

	it('nothing saved: the input the node ran with, never an error', () => {
		expect(waitingState(webhookContext(stackEntry()))).toEqual({ body: { to: '+919876543210' } });
		expect(waitingState(webhookContext({ ...stackEntry(), data: { main: [[]] } }))).toBeUndefined();
	});

	it('an expression that fails or gives no object reads as nothing saved', () => {
		const evaluating = (result: () => unknown) => ({ evaluateExpression: result }) as unknown as IWebhookFunctions;
		expect(waitingState(evaluating(() => { throw new Error('no input'); }))).toBeUndefined();
		expect(waitingState(evaluating(() => 'not json'))).toBeUndefined();
		expect(waitingState(evaluating(() => '[1]'))).toBeUndefined();
		expect(waitingState(evaluating(() => ({ ...SAVED })))).toEqual(SAVED);
	});
});
