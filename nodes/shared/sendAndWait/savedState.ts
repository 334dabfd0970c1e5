// What a waiting node keeps between putExecutionToWait and its resume: one item, its timed-out item
// (waitFor), which the webhook also reads to know what was sent and what it waits for.
//
// n8n has no documented place for it. Node static data is saved when an execution ends, not when it
// starts waiting, and a resumed execution runs with the workflow as it was when it began; execution
// custom data (a node API in newer n8n only) is 10 strings of up to 512 characters, shared by the
// whole execution and shown to users. n8n's own waiting nodes keep nothing: their webhook reads the
// node's parameters again, and a timeout outputs the node's input.
//
// So the item is kept where n8n keeps the waiting node's input: the execution-stack entry the node
// runs with (getExecuteData()), which n8n puts back on the stack and saves with the waiting
// execution. n8n then uses that input twice, and this relies on both (n8n-core, both releases):
// - when Limit Wait Time ends the wait, n8n resumes the node disabled (WorkflowExecute's
//   handleWaitingState) and a disabled node outputs its input: the saved item is the output;
// - a request to the resume URL runs the node's webhook with that entry's input as its items
//   (WebhookContext), so `$json` there is the saved item.
// test/e2e/saved-state.e2e.test.ts fails, naming which, if a release stops doing either.
import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { objectOf } from '../rules/values';

/** Keeps `item` as the node's one input item: its output if the wait times out, the webhook's `$json`. */
export function saveWaitingState(context: IExecuteFunctions, item: IDataObject): void {
	context.getExecuteData().data = { main: [[{ json: item, pairedItem: { item: 0 } }]] };
}

/** The item saveWaitingState kept, read in the resume webhook; undefined when there is none. */
export function waitingState(context: IWebhookFunctions): IDataObject | undefined {
	try {
		// as JSON text, parsed here: a plain copy of the item, whatever the expression engine returns for an object
		const text = context.evaluateExpression('{{ JSON.stringify($json) }}', 0);
		return objectOf(typeof text === 'string' ? JSON.parse(text) : text);
	} catch {
		return undefined;
	}
}
