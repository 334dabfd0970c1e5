import type { IDataObject } from 'n8n-workflow';

import { nestBracketKeys } from '../shared/webhook';

export const VOICE_EVENTS = [
	{ name: 'Call Status', value: 'callStatus', action: 'On call status', description: 'Status callback of a call placed with Connect to Flow (answered, terminal)' },
	{ name: 'Call Status (Management API)', value: 'callStatusManagement', action: 'On call status (management API)', description: 'Status events of a call from the contact-center management API' },
	{ name: 'Campaign Call Schedule', value: 'campaignCallSchedule', action: 'On campaign call schedule', description: 'A campaign call finished all its retries' },
	{ name: 'Campaign Call Status', value: 'campaignCallStatus', action: 'On campaign call status', description: 'Status of one call of a campaign' },
	{ name: 'Campaign Status', value: 'campaignStatus', action: 'On campaign status', description: 'A campaign completed or changed status' },
	{ name: 'Unrecognized Payload', value: 'unknown', action: 'On unrecognized payload', description: 'Any other payload, passed through whole' },
] as const;

/** The `callback` query value to add to the trigger URL for each campaign callback field. */
export const CAMPAIGN_CALLBACKS: Record<string, string> = {
	status_callback: 'campaignStatus',
	call_status_callback: 'campaignCallStatus',
	call_schedule_callback: 'campaignCallSchedule',
};

const text = (value: unknown) => (value === undefined || value === null || value === '' ? null : String(value));

/**
 * One item per callback, with flat fields and the payload as received (form bodies with their
 * `Legs[i][...]` keys rebuilt). `hint` is the `callback` query parameter, when the URL carries one.
 */
export function voiceEventItem(body: unknown, hint?: string): IDataObject | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const payload = nestBracketKeys(body as IDataObject);
	const base = (event: string, fields: IDataObject): IDataObject => ({ event, ...fields, payload });

	if (payload.CallSid !== undefined) {
		const legs = Array.isArray(payload.Legs) ? (payload.Legs as IDataObject[]) : [];
		return base('callStatus', {
			callSid: text(payload.CallSid),
			eventType: text(payload.EventType),
			status: text(payload.Status),
			from: text(payload.From),
			to: text(payload.To),
			direction: text(payload.Direction),
			conversationDuration: payload.ConversationDuration === undefined ? null : Number(payload.ConversationDuration),
			recordingUrl: text(payload.RecordingUrl),
			customField: text(payload.CustomField),
			startTime: text(payload.StartTime),
			endTime: text(payload.EndTime),
			answeredBy: legs.map((leg) => text(leg.AnsweredBy)),
			legs,
		});
	}
	if (payload.call_sid !== undefined && payload.event_type !== undefined && payload.campaign_sid === undefined) {
		return base('callStatusManagement', {
			callSid: text(payload.call_sid),
			eventType: text(payload.event_type),
			status: text(payload.call_state),
			duration: payload.duration === undefined ? null : Number(payload.duration),
			recordingUrl: text(payload.recording_url),
		});
	}
	const event =
		hint && Object.values(CAMPAIGN_CALLBACKS).includes(hint)
			? hint
			: payload.campaign_sid !== undefined
				? Array.isArray(payload.call_sids)
					? 'campaignStatus'
					: payload.call_sid !== undefined
						? 'campaignCallStatus'
						: 'campaignStatus'
				: 'unknown';
	return base(event, {
		campaignSid: text(payload.campaign_sid ?? payload.id),
		callSid: text(payload.call_sid),
		number: text(payload.number ?? payload.to),
		status: text(payload.status),
	});
}
