import type { IDataObject } from 'n8n-workflow';

import { callItem, callStatusItem, secondsOf, textOf, type CallFields } from '../shared/output/vocabulary';
import { objectOf } from '../shared/rules/values';
import { nestBracketKeys } from '../shared/webhooks/respond';
import { UNKNOWN_EVENT, unrecognizedPayload } from '../shared/webhooks/triggers';

export const VOICE_EVENTS = [
	{ name: 'Call Status', value: 'callStatus', action: 'On call status', description: 'Status callback of a call placed with Connect to Flow: answered or ended (Call Events)' },
	{ name: 'Call Status (Management API)', value: 'callStatusManagement', action: 'On call status (management API)', description: 'Status events of a call from the contact-center management API' },
	{ name: 'Campaign Call Schedule', value: 'campaignCallSchedule', action: 'On campaign call schedule', description: 'A campaign call finished all its retries' },
	{ name: 'Campaign Call Status', value: 'campaignCallStatus', action: 'On campaign call status', description: 'Status of one call of a campaign' },
	{ name: 'Campaign Status', value: 'campaignStatus', action: 'On campaign status', description: 'A campaign completed or changed status' },
	unrecognizedPayload('Any other payload, passed through whole'),
] as const;

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

/** The `callback` query value to add to the trigger URL for each campaign callback field. */
export const CAMPAIGN_CALLBACKS: Record<string, string> = {
	status_callback: 'campaignStatus',
	call_status_callback: 'campaignCallStatus',
	call_schedule_callback: 'campaignCallSchedule',
};

/**
 * One item per callback in the package's call vocabulary (vocabulary.ts), the payload as received
 * under `raw` (form bodies with their `Legs[i][...]` keys rebuilt). `hint` is the `callback` query
 * parameter, when the URL carries one.
 */
export function voiceEventItem(body: unknown, hint?: string): IDataObject | undefined {
	const object = objectOf(body);
	if (!object) return undefined;
	const payload = nestBracketKeys(object);
	const event = (name: string, fields: Partial<CallFields>, extra: IDataObject = {}): IDataObject => ({
		event: name,
		...callItem(fields, payload, extra),
	});

	if (payload.CallSid !== undefined) return { event: 'callStatus', ...callStatusItem(payload) };
	if (payload.call_sid !== undefined && payload.event_type !== undefined && payload.campaign_sid === undefined) {
		// `status` is the call's status (call_status, or status in the second call_details shape), as
		// Get Details gives it; the callback's call_state (active, terminal) is `state`, as there too.
		return event(
			'callStatusManagement',
			{
				callSid: textOf(payload.call_sid),
				status: textOf(payload.call_status ?? payload.status),
				duration: secondsOf(payload.duration),
				recordingUrl: textOf(payload.recording_url),
			},
			{ eventType: textOf(payload.event_type), state: textOf(payload.call_state ?? payload.state) },
		);
	}
	const name =
		hint && Object.values(CAMPAIGN_CALLBACKS).includes(hint)
			? hint
			: payload.campaign_sid !== undefined
				? Array.isArray(payload.call_sids)
					? 'campaignStatus'
					: payload.call_sid !== undefined
						? 'campaignCallStatus'
						: 'campaignStatus'
				: UNKNOWN_EVENT;
	return event(
		name,
		{ callSid: textOf(payload.call_sid), from: textOf(payload.from), to: textOf(payload.number ?? payload.to), status: textOf(payload.status) },
		{ campaignSid: textOf(payload.campaign_sid ?? payload.id) },
	);
}
