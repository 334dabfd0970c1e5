import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withParameters } from '../../../shared/operation';
import type { OperationOption } from '../../../shared/resource';
import { LIMIT_WAIT_TIME_OPTION, sendThenWait, waitingFields, waitNotice } from '../../../shared/sendAndWait';
import * as connect from './connect';

export const option: OperationOption = {
	name: 'Connect and Wait for Call End',
	value: 'connectAndWait',
	action: 'Connect a number to a call flow and wait for the call to end',
	description: 'Place the call and continue when it ends, with its final status, legs and recording',
};

export const description: INodeProperties[] = [
	waitNotice('The execution continues on the call’s terminal status callback.'),
	...waitingFields(connect.description, [LIMIT_WAIT_TIME_OPTION], ['statusCallbackEvents']),
];

/** Places the call through Call → Connect to Flow (same checks, same request), its terminal status posted to the resume URL. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await sendThenWait(this, items, (context, resumeUrl) => ({
		send: async () =>
			await connect.execute.call(
				withParameters(context, {
					statusCallback: resumeUrl,
					additionalFields: (read: unknown) => {
						const { limitWaitTime, ...extra } = (read ?? {}) as IDataObject;
						return { ...extra, statusCallbackEvents: ['terminal'] };
					},
				}),
				items,
			),
		timedOut: (call) => {
			const { raw, ...fields } = call;
			return { ...fields, eventType: null, conversationDuration: null, customField: null, answeredBy: [], legs: [], timedOut: true, waitingFor: 'callEnd', raw: null };
		},
	}));
}
