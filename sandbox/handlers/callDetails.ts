/**
 * Call details of the contact-center management API (ccm): `GET /v2/accounts/<sid>/calls/<call_sid>`,
 * answered in shape A or B (SHAPE_B_PREFIX) with the call's agent among the management API's users.
 */
import { isoWithOffset } from '../callbacks';
import { fail } from '../http';
import type { SandboxState } from '../state';
import type { StoredCall } from '../stored';
import type { RouteDefinition } from '../types';
import { callsOf, ended, RECORDING_URL_VALIDITY, recordingUrl, SHAPE_B_PREFIX, simulated, v2Envelope } from './calls';
import { ccmUsersOf } from './users';

/** Simulated seconds since the start, never past the end. */
function elapsedOf(call: StoredCall, now: number, timeScale: number): number {
	if (ended(call, now)) return call.endedAfter;
	if (timeScale <= 0) return call.endedAfter;
	return Math.min(call.endedAfter, Math.floor((now - call.createdAt) / timeScale / 1000));
}

function customerOf(call: StoredCall): string {
	if (call.connect) return call.from;
	return call.direction === 'inbound' ? call.from : (call.to ?? call.from);
}

/** Management API status of an ended call, shape A or B (States: Call). */
export function managementStatus(call: StoredCall, shape: 'A' | 'B'): string {
	switch (call.outcome) {
		case 'completed':
			return 'completed';
		case 'no-answer':
			return call.agentFirst && call.legs[0]?.status === 'no-answer' ? 'agent_unanswered' : 'customer_unanswered';
		case 'busy':
			return 'customer_unanswered';
		case 'failed':
			if (shape === 'A') return 'failed';
			return call.direction === 'inbound' ? 'agent_no_dial' : 'customer_no_dial';
	}
}

/** `call_details` of the management API: shape B for sids starting with SHAPE_B_PREFIX, else shape A. */
export function managementCallView(call: StoredCall, state: SandboxState, now: number, timeScale: number, origin: string): { shape: 'A' | 'B'; details: Record<string, unknown> } {
	const done = ended(call, now);
	const elapsed = elapsedOf(call, now, timeScale);
	const talk = call.answeredAfter === null ? 0 : Math.max(0, elapsed - call.answeredAfter);
	const agent = call.agentUserId ? ccmUsersOf(state).get(call.agentUserId) : undefined;
	const recording = done && call.recording ? recordingUrl(origin, call.sid, 'mp3', 'single', Math.floor(now / 1000) + RECORDING_URL_VALIDITY.default * 60) : undefined;
	const start = isoWithOffset(new Date(call.createdAt));
	const end = done ? isoWithOffset(simulated(call, call.endedAfter)) : null;
	if (call.sid.startsWith(SHAPE_B_PREFIX)) {
		const details: Record<string, unknown> = {
			sid: call.sid,
			direction: call.direction,
			virtual_number: call.phoneNumberSid,
			state: done ? 'terminal' : 'active',
			status: done ? managementStatus(call, 'B') : null,
			assigned_agent_details: agent ? { user_id: agent.id, contact_uri: agent.devices[0].contact_uri } : null,
			customer_details: { number: customerOf(call) },
			created_time: start,
			updated_time: end ?? start,
			start_time: start,
			end_time: end,
			total_duration: elapsed,
			total_talk_time: talk,
			recording: recording ? { available: true, url: recording } : { available: false, url: null },
		};
		if (call.customField !== undefined) details.custom_field = call.customField;
		details.legs = `/v2/accounts/${call.accountSid}/calls/${call.sid}/legs`;
		return { shape: 'B', details };
	}
	const details: Record<string, unknown> = {
		call_sid: call.sid,
		call_state: done ? 'terminal' : 'active',
		call_status: done ? managementStatus(call, 'A') : null,
		direction: call.direction === 'inbound' ? 'inbound' : 'outbound',
		virtual_number: call.phoneNumberSid,
		from: call.from,
		to: call.to,
		start_time: start,
		end_time: end,
		duration: elapsed,
		talk_time: talk,
	};
	if (recording) details.recording_url = recording;
	if (call.customField !== undefined) details.custom_field = call.customField;
	details.agent_details = agent ? { user_id: agent.id, name: `${agent.first_name} ${agent.last_name}`, email: agent.email } : null;
	details.customer_details = { number: customerOf(call) };
	return { shape: 'A', details };
}

export const callDetailsRoutes: RouteDefinition[] = [
	{
		base: 'ccm',
		method: 'GET',
		path: '/v2/accounts/:sid/calls/:callSid',
		auth: 'basic',
		handler: (ctx) => {
			const call = callsOf(ctx.state).get(ctx.params.callSid);
			if (!call) return fail(ctx, 404, `Call ${ctx.params.callSid} does not exist for this account`);
			const { shape, details } = managementCallView(call, ctx.state, Date.now(), ctx.timeScale, ctx.origin);
			return shape === 'A'
				? v2Envelope(ctx, { code: 200, status: 'success', call_details: details }, false)
				: v2Envelope(ctx, { call_details: details });
		},
	},
];
