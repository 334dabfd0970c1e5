// The execute side of a wait: one item, the send with the resume URL as its callback, then the wait.
// Written after n8n's own send-and-wait (packages/nodes-base/utils/sendAndWait), which a community
// package cannot import; the service routes a reply to the URL given in the send itself
// (messaging.md, "RCS incoming message" and "Chat-app status callback"), so the answer resumes the
// waiting execution directly.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import type { OperationModule, OperationOption } from '../descriptions/resource';
import type { GivenParameters } from '../items/parameters';
import type { NodeRun } from '../transport/run';
import { LIMIT_WAIT_TIME_OPTION, waitingFields, waitNotice } from './fields';
import { resumeUrls, type ResumeUrl } from './resumeUrl';
import { saveWaitingState } from './savedState';
import { waitingItem } from './waitingItem';

/** A waiting operation handles one item: one message, one resume. */
export function oneItemOnly(context: IExecuteFunctions, items: INodeExecutionData[]): void {
	if (items.length === 1) return;
	throw new NodeOperationError(context.getNode(), `This operation waits for one message and got ${items.length} input items`, {
		description:
			'An execution can wait for one answer. Put a Loop Over Items node (Batch Size 1) before this node, or send to many with Send and collect answers with the Messaging Trigger.',
	});
}

function collectionOf(context: IExecuteFunctions, name: string): IDataObject {
	return (context.getNodeParameter(name, 0, {}) as IDataObject) ?? {};
}

/** A text option the send took from item 0 (`collection.name`), null when not given: what a timed-out item can still tell. */
export function sentOption(context: IExecuteFunctions, collection: string, name: string): string | null {
	const value = collectionOf(context, collection)[name];
	return value === undefined || value === null || String(value).trim() === '' ? null : String(value);
}

/** When Limit Wait Time ends the wait; undefined when it is not set. */
export function limitWaitTimeOf(context: IExecuteFunctions): Date | undefined {
	const limit = [collectionOf(context, 'options'), collectionOf(context, 'additionalFields')]
		.map((collection) => (collection.limitWaitTime as IDataObject | undefined)?.values as IDataObject | undefined)
		.find(Boolean);
	if (!limit) return undefined;
	if (limit.limitType === 'atSpecifiedTime') {
		const at = new Date(String(limit.maxDateAndTime ?? ''));
		if (Number.isNaN(at.getTime())) {
			throw new NodeOperationError(context.getNode(), 'Limit Wait Time: Max Date and Time is not a date', { itemIndex: 0 });
		}
		return at;
	}
	const amount = Number(limit.resumeAmount ?? 0);
	const unit = { seconds: 1e3, minutes: 60e3, hours: 3600e3, days: 86400e3 }[String(limit.resumeUnit ?? 'minutes')] ?? 60e3;
	if (!Number.isFinite(amount) || amount < 0) {
		throw new NodeOperationError(context.getNode(), `Limit Wait Time: Amount must be 0 or more (got ${String(limit.resumeAmount)})`, { itemIndex: 0 });
	}
	return new Date(Date.now() + amount * unit);
}

/**
 * Puts the execution to wait. `timedOut` is the item the node outputs if Limit Wait Time ends the
 * wait, saved as the node's input (savedState.ts), where the webhook also reads what was sent.
 * `waiting` is what the node shows while it waits.
 */
export async function waitFor(
	context: IExecuteFunctions,
	timedOut: IDataObject,
	waiting: IDataObject,
	waitTill: Date,
): Promise<INodeExecutionData[]> {
	saveWaitingState(context, timedOut);
	await context.putExecutionToWait(waitTill);
	return [{ json: waiting, pairedItem: { item: 0 } }];
}

/** How a waiting operation sends, and the item it outputs if the wait times out. */
export interface SendThenWait {
	/** The plain send, with the resume URL as its callback; one output item. */
	send(): Promise<INodeExecutionData[]>;
	/** The timed-out item, from the sent item's keys; the webhook reads it back (waitingState). */
	timedOut(sent: IDataObject): IDataObject;
	/**
	 * Asked once after the send, before waiting, where the service can be asked: the item to continue
	 * with now when the outcome is already known (a callback that came before n8n saved the wait is
	 * answered 409 by n8n and, for calls, never sent again), else undefined.
	 */
	settled?(sent: IDataObject): Promise<IDataObject | undefined>;
	/** When to stop waiting if Limit Wait Time is not set; never by default. */
	defaultWaitTill?(sent: IDataObject): Date;
}

/**
 * Checks the input (one item) and Limit Wait Time, sends with the resume URL, then waits. A send
 * that failed does not wait: its item comes out as the plain send's would (error, or with
 * "continue" the failed item).
 */
export async function sendThenWait(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	build: (context: IExecuteFunctions, resumeUrl: ResumeUrl) => SendThenWait,
): Promise<INodeExecutionData[]> {
	oneItemOnly(context, items);
	const limit = limitWaitTimeOf(context);
	const plan = build(context, resumeUrls(context));
	const output = await plan.send();
	const sent = output[0];
	if (!sent || output.length !== 1 || sent.json.error !== undefined) return output;
	const settled = await plan.settled?.(sent.json);
	if (settled) return [{ json: settled, pairedItem: { item: 0 } }];
	const waitTill = limit ?? plan.defaultWaitTill?.(sent.json) ?? WAIT_INDEFINITELY;
	const timedOut = plan.timedOut(sent.json);
	const until = waitTill.getTime() === WAIT_INDEFINITELY.getTime() ? null : waitTill.toISOString();
	return await waitFor(context, timedOut, waitingItem(sent.json, timedOut.waitingFor, until), waitTill);
}

/** A plain send a waiting operation runs: its fields, and its run with some parameters given instead of read. */
export interface PlainSend {
	description: INodeProperties[];
	send(context: IExecuteFunctions, run: NodeRun, items: INodeExecutionData[], given?: GivenParameters): Promise<INodeExecutionData[]>;
}

/**
 * The waiting twin of a plain operation that waits for an outcome (a delivery report, a call's
 * end): the plain operation's fields under a notice and with Limit Wait Time, run as the plain
 * operation with `given(resumeUrl)` instead of the parameters they name.
 */
export function waitingTwin(
	plain: PlainSend,
	twin: {
		option: OperationOption;
		notice: string;
		drop?: string[];
		given: (resumeUrl: string, context: IExecuteFunctions) => GivenParameters;
		/** The timed-out item, from the sent item's keys and what the node sent (the parameters of item 0). */
		timedOut: (sent: IDataObject, context: IExecuteFunctions) => IDataObject;
		settled?: (context: IExecuteFunctions, run: NodeRun, sent: IDataObject) => Promise<IDataObject | undefined>;
		defaultWaitTill?: (context: IExecuteFunctions, sent: IDataObject) => Date;
	},
): OperationModule {
	return {
		option: twin.option,
		description: [waitNotice(twin.notice), ...waitingFields(plain.description, [LIMIT_WAIT_TIME_OPTION], twin.drop)],
		async execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
			return await sendThenWait(this, items, (context, resumeUrl) => ({
				send: async () => await plain.send(context, run, items, twin.given(resumeUrl(), context)),
				timedOut: (sent) => twin.timedOut(sent, context),
				settled: twin.settled && (async (sent) => await twin.settled!(context, run, sent)),
				defaultWaitTill: twin.defaultWaitTill && ((sent) => twin.defaultWaitTill!(context, sent)),
			}));
		},
	};
}
