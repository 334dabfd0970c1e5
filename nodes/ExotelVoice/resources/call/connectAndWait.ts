import type { IDataObject } from 'n8n-workflow';

import { waitingTwin } from '../../../shared/sendAndWait';
import * as connect from './connect';

/** Call → Connect to Flow (same checks, same request), its terminal status posted to the resume URL. */
export const { option, description, execute } = waitingTwin(connect, {
	option: {
		name: 'Connect and Wait for Call End',
		value: 'connectAndWait',
		action: 'Connect a number to a call flow and wait for the call to end',
		description: 'Place the call and continue when it ends, with its final status, legs and recording',
	},
	notice: 'The execution continues on the call’s terminal status callback.',
	drop: ['statusCallbackEvents'],
	overrides: (resumeUrl) => ({
		statusCallback: resumeUrl,
		additionalFields: (read: unknown) => {
			const { limitWaitTime, ...extra } = (read ?? {}) as IDataObject;
			return { ...extra, statusCallbackEvents: ['terminal'] };
		},
	}),
	timedOut: (call) => {
		const { raw, ...fields } = call;
		return { ...fields, eventType: null, conversationDuration: null, customField: null, answeredBy: [], legs: [], timedOut: true, waitingFor: 'callEnd', raw: null };
	},
});
