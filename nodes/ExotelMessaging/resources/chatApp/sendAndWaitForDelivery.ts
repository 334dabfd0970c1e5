import { sentOption, waitingTwin } from '../../../shared/sendAndWait/execute';
import { deliveryTimedOut } from '../../../shared/sendAndWait/waitingItem';
import * as send from './send';

/** Chat App → Send (same checks, same request) with the resume URL as the message's status callback. */
export const { option, description, execute } = waitingTwin(send, {
	option: {
		name: 'Send and Wait for Delivery',
		value: 'sendAndWaitForDelivery',
		action: 'Send a chat app message and wait for its delivery',
		description: 'Send one message and continue when its delivery report says delivered, seen or failed',
	},
	notice:
		'The recipient gets the message. The execution waits for its final delivery report (delivered, seen or failed), or until Limit Wait Time if set, then continues with that status.',
	given: (resumeUrl) => ({ statusCallback: resumeUrl }),
	timedOut: (sent, context) => deliveryTimedOut(sent, sentOption(context, 'options', 'customData')?.trim() ?? null),
});
