import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withParameters } from '../../../shared/operation';
import type { OperationOption } from '../../../shared/resource';
import { deliveryTimedOut, LIMIT_WAIT_TIME_OPTION, sendThenWait, waitingFields, waitNotice } from '../../../shared/sendAndWait';
import * as send from './send';

export const option: OperationOption = {
	name: 'Send and Wait for Delivery',
	value: 'sendAndWaitForDelivery',
	action: 'Send an SMS and wait for its delivery',
	description: 'Send one SMS and continue when its status callback reports the final status',
};

export const description: INodeProperties[] = [
	waitNotice('The execution continues on the SMS’s status callback, which the service sends on its final status.'),
	...waitingFields(send.description, [LIMIT_WAIT_TIME_OPTION]),
];

/** Sends through SMS → Send (dynamic bulk, one message) with the resume URL as StatusCallback. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await sendThenWait(this, items, (context, resumeUrl) => ({
		send: async () => await send.execute.call(withParameters(context, { statusCallback: resumeUrl }), items),
		timedOut: deliveryTimedOut,
	}));
}
