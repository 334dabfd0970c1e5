import { deliveryTimedOut, waitingTwin } from '../../../shared/sendAndWait';
import * as send from './send';

/** SMS → Send (dynamic bulk, one message) with the resume URL as StatusCallback. */
export const { option, description, execute } = waitingTwin(send, {
	option: {
		name: 'Send and Wait for Delivery',
		value: 'sendAndWaitForDelivery',
		action: 'Send an SMS and wait for its delivery',
		description: 'Send one SMS and continue when its status callback reports the final status',
	},
	notice: 'The execution continues on the SMS’s status callback, which the service sends on its final status.',
	overrides: (resumeUrl) => ({ statusCallback: resumeUrl }),
	timedOut: deliveryTimedOut,
});
