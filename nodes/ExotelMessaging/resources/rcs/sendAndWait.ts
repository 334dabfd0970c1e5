import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { APPROVERS_OPTION, LIMIT_WAIT_TIME_OPTION, SEND_AND_WAIT, waitingFields, waitNotice } from '../../../shared/sendAndWait/fields';
import type { NodeRun } from '../../../shared/transport/run';
import { waitForAnswer } from '../../waitForAnswer';
import * as sendTemplate from './sendTemplate';

export const option: OperationOption = {
	name: 'Send Template and Wait for Reply',
	value: SEND_AND_WAIT,
	action: 'Send an RCS template and wait for the reply',
	description: 'Send an approved RCS template and continue with the reply: text, or the suggested reply or action chosen',
};

// The status callbacks of the request and channel would be overruled by the message's (the resume URL): not offered.
const OVERRULED = ['requestStatusCallback', 'channelStatusCallback'];

export const description: INodeProperties[] = [
	waitNotice(
		'The person gets the RCS template message and replies to it. The execution waits for their reply, or until Limit Wait Time if set, then continues with it: their text, or the suggestion they tapped.',
	),
	...waitingFields(sendTemplate.description, [APPROVERS_OPTION, LIMIT_WAIT_TIME_OPTION], OVERRULED),
];

/** Sends through RCS → Send Template (same checks, same request) with the resume URL as the message's status callback. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await waitForAnswer(this, items, 'rcs', (context, resumeUrl) => ({
		question: { responseType: 'reply', text: String(context.getNodeParameter('templateName', 0, '')), choices: [], approvers: [] },
		send: async () => await sendTemplate.send(context, run, items, { statusCallback: resumeUrl() }),
	}));
}
