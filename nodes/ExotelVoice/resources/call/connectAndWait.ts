import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { LIMITS } from '../../../shared/rules/limits';
import { withoutKeys } from '../../../shared/rules/values';
import { sentOption, waitingTwin } from '../../../shared/sendAndWait/execute';
import { callWaitItem, endedCallItem } from '../../../shared/sendAndWait/waitingItem';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CALLS } from '../../endpoints';
import * as connect from './connect';

/** Without Limit Wait Time the wait ends this long after the call's own Time Limit and Time Out. */
const MARGIN_SECONDS = 600;
/** Ringing bound when Time Out is not set (the spec gives no default). */
const RING_SECONDS = 120;

/**
 * The call's final state, asked of the service once before waiting: a call that ended while it was
 * being placed sent its terminal callback before n8n saved the wait, n8n answered it 409, and the
 * service does not send call callbacks again. A failed check only means waiting for the callback.
 */
async function endedAlready(context: IExecuteFunctions, run: NodeRun, call: IDataObject): Promise<IDataObject | undefined> {
	if (typeof call.callSid !== 'string' || !call.callSid) return undefined;
	try {
		const response = await exotelRequest(context, run, {
			endpoint: CALLS.get,
			params: { callSid: call.callSid },
			qs: { details: 'true' },
			itemIndex: 0,
		});
		const body = response.body as IDataObject;
		return endedCallItem((body.Call ?? body) as IDataObject, sentOption(context, 'additionalFields', 'customField'));
	} catch {
		return undefined;
	}
}

/** Call → Connect to Flow (same checks, same request), its terminal status posted to the resume URL. */
export const { option, description, execute } = waitingTwin(connect, {
	option: {
		name: 'Connect and Wait for Call End',
		value: 'connectAndWait',
		action: 'Connect a number to a call flow and wait for the call to end',
		description: 'Place the call and continue when it ends, with its final status, legs and recording',
	},
	notice:
		'The number is called and connected to the flow. The execution waits until the call ends (without Limit Wait Time, at most 10 minutes past the call’s Time Limit and Time Out), then continues with its final status, legs and recording.',
	drop: ['statusCallbackEvents'],
	given: (resumeUrl, context) => {
		const extra = withoutKeys((context.getNodeParameter('additionalFields', 0, {}) ?? {}) as IDataObject, ['limitWaitTime']);
		return { statusCallback: resumeUrl, additionalFields: { ...extra, statusCallbackEvents: ['terminal'] } };
	},
	settled: endedAlready,
	defaultWaitTill: (context) => {
		const extra = (context.getNodeParameter('additionalFields', 0, {}) ?? {}) as IDataObject;
		const seconds = Number(extra.timeLimit ?? LIMITS.voice.timeLimitSeconds) + Number(extra.timeOut ?? RING_SECONDS) + MARGIN_SECONDS;
		return new Date(Date.now() + seconds * 1000);
	},
	timedOut: (call, context) => callWaitItem({ ...call, status: 'timedOut', raw: null }, 'timeout', sentOption(context, 'additionalFields', 'customField')),
});
