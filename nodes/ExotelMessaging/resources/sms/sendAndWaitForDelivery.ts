import { sentOption, waitingTwin } from '../../../shared/sendAndWait/execute';
import { deliveryTimedOut } from '../../../shared/sendAndWait/waitingItem';
import * as send from './send';

/** SMS → Send (dynamic bulk, one message) with the resume URL as StatusCallback. */
export const { option, description, execute } = waitingTwin(send, {
	option: {
		name: 'Send and Wait for Delivery',
		value: 'sendAndWaitForDelivery',
		action: 'Send an SMS and wait for its delivery',
		description: 'Send one SMS and continue when its status callback reports the final status',
	},
	notice:
		'The recipient gets the SMS. The execution waits for its final status (delivered or failed), or until Limit Wait Time if set, then continues with that status.',
	given: (resumeUrl) => ({ statusCallback: resumeUrl }),
	timedOut: (sent, context) => deliveryTimedOut(sent, sentOption(context, 'additionalFields', 'customField')),
});
