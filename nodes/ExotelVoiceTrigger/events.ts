import type { IDataObject } from 'n8n-workflow';

import type { VoiceEvent } from '../shared/output/callbacks';
import { unrecognizedPayload, type TriggerEvent, type UNKNOWN_EVENT } from '../shared/webhooks/triggers';

/** The trigger's Events list: the events of the callbacks posted to it (nodes/shared/output/callbacks.ts), then any other payload. */
export const VOICE_EVENTS = [
	{ name: 'Call Status', value: 'callStatus', action: 'On call status', description: 'Status callback of a call placed with Connect to Flow: answered or ended (Call Events)' },
	{ name: 'Call Status (Management API)', value: 'callStatusManagement', action: 'On call status (management API)', description: 'Status events of a call from the contact-center management API' },
	{ name: 'Campaign Call Schedule', value: 'campaignCallSchedule', action: 'On campaign call schedule', description: 'A campaign call finished all its retries' },
	{ name: 'Campaign Call Status', value: 'campaignCallStatus', action: 'On campaign call status', description: 'Status of one call of a campaign' },
	{ name: 'Campaign Status', value: 'campaignStatus', action: 'On campaign status', description: 'A campaign completed or changed status' },
	unrecognizedPayload('Any other payload, passed through whole'),
] as const satisfies ReadonlyArray<TriggerEvent & { value: VoiceEvent | typeof UNKNOWN_EVENT }>;

/** A call's status callbacks, by `EventType` (its Status Callback Events). */
export const CALL_EVENTS = [
	{ name: 'Answered', value: 'answered', description: 'The call was answered: status in-progress, no end time yet' },
	{ name: 'Terminal', value: 'terminal', description: 'The call ended: completed, failed, busy or no-answer' },
] as const;

/** Which of CALL_EVENTS a call status item is: its EventType, else (a callback without one) by its status. */
export function callEventOf(item: IDataObject): string {
	const eventType = String(item.eventType ?? '').toLowerCase();
	if (eventType === 'answered' || eventType === 'terminal') return eventType;
	return String(item.status ?? '').toLowerCase() === 'in-progress' ? 'answered' : 'terminal';
}
