import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withParameters } from '../../../shared/operation';
import type { OperationOption } from '../../../shared/resource';
import { deliveryTimedOut, LIMIT_WAIT_TIME_OPTION, sendThenWait, waitingFields, waitNotice } from '../../../shared/sendAndWait';
import * as send from './send';

export const option: OperationOption = {
	name: 'Send and Wait for Delivery',
	value: 'sendAndWaitForDelivery',
	action: 'Send a chat app message and wait for its delivery',
	description: 'Send one message and continue when its delivery report says delivered, seen or failed',
};

export const description: INodeProperties[] = [
	waitNotice('The execution continues on the message’s final delivery report (delivered, seen or failed).'),
	...waitingFields(send.description, [LIMIT_WAIT_TIME_OPTION]),
];

/** Sends through Chat App → Send (same checks, same request) with the resume URL as the message's status callback. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await sendThenWait(this, items, (context, resumeUrl) => ({
		send: async () => await send.execute.call(withParameters(context, { statusCallback: resumeUrl }), items),
		timedOut: deliveryTimedOut,
	}));
}
