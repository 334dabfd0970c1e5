import type { IDataObject } from 'n8n-workflow';

import { ExotelVoiceTrigger } from '../../../nodes/ExotelVoiceTrigger/ExotelVoiceTrigger.node';
import { ANSWERED_CALL_CALLBACK } from '../../helpers/live-recorded';
import { callWebhook } from '../../helpers/webhook-context';

const trigger = new ExotelVoiceTrigger();
const ALL = ['callStatus', 'callStatusManagement', 'campaignCallSchedule', 'campaignCallStatus', 'campaignStatus', 'unknown'];
/** Every item's keys, in order: the event, the call vocabulary (nodes/shared/output/vocabulary.ts), what the event adds, the payload as received under raw. */
const CALL_KEYS = ['event', 'callSid', 'status', 'from', 'to', 'direction', 'startTime', 'endTime', 'duration', 'recordingUrl'];
const keysOf = (...extras: string[]) => [...CALL_KEYS, ...extras, 'raw'];
const CALL_STATUS_EXTRAS = ['eventType', 'conversationDuration', 'customField', 'answeredBy', 'legs'];

function post(rawBody: string, options: { contentType?: string; query?: IDataObject; parameters?: IDataObject } = {}) {
	return callWebhook(trigger, {
		rawBody,
		contentType: options.contentType ?? 'application/json',
		query: options.query,
		parameters: { events: ALL, statuses: '', ...options.parameters },
	});
}

const callStatusForm = new URLSearchParams([
	['CallSid', 'c9f3a1d2e4b5'],
	['DateUpdated', '2026-11-22 10:20:00'],
	['Status', 'completed'],
	['RecordingUrl', 'https://recordings.example/c9f3.mp3'],
	['EventType', 'terminal'],
	['DateCreated', '2026-11-22 10:15:00'],
	['To', ''],
	['From', '+919876543210'],
	['PhoneNumberSid', '+918047112233'],
	['StartTime', '2026-11-22 10:15:02'],
	['EndTime', '2026-11-22 10:20:00'],
	['ConversationDuration', '281'],
	['Direction', 'outbound-api'],
	['CustomField', 'order-9'],
	['Legs[0][OnCallDuration]', '290'],
	['Legs[0][Status]', 'completed'],
	['Legs[0][AnsweredBy]', 'NA'],
	['Legs[1][OnCallDuration]', '281'],
	['Legs[1][Status]', 'completed'],
	['Legs[1][AnsweredBy]', 'Human'],
]).toString();

describe('Exotel Voice Trigger', () => {
	it('v1 call status callback (form-encoded): the call keys, legs rebuilt, answered-by per leg', async () => {
		const answer = await post(callStatusForm, { contentType: 'application/x-www-form-urlencoded' });
		expect(answer.status).toBe(200);
		const received = [
			{ OnCallDuration: '290', Status: 'completed', AnsweredBy: 'NA' },
			{ OnCallDuration: '281', Status: 'completed', AnsweredBy: 'Human' },
		];
		// seconds as numbers (the spec's integer; a form sends text), as Connect and Wait gives them
		const legs = received.map((leg) => ({ ...leg, OnCallDuration: Number(leg.OnCallDuration) }));
		expect(answer.workflowData).toEqual([
			{
				event: 'callStatus',
				callSid: 'c9f3a1d2e4b5',
				status: 'completed',
				from: '+919876543210',
				to: null,
				direction: 'outbound-api',
				startTime: '2026-11-22 10:15:02',
				endTime: '2026-11-22 10:20:00',
				// the v1 callback carries no Duration: its ConversationDuration is the extra below
				duration: 298, // EndTime - StartTime: the callback carries no Duration
				recordingUrl: 'https://recordings.example/c9f3.mp3',
				eventType: 'terminal',
				conversationDuration: 281,
				customField: 'order-9',
				answeredBy: ['NA', 'Human'],
				legs,
				// the form as received, its Legs[i][...] keys rebuilt into Legs
				raw: { ...Object.fromEntries([...new URLSearchParams(callStatusForm)].filter(([key]) => !key.startsWith('Legs['))), Legs: received },
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf(...CALL_STATUS_EXTRAS));
		expect(answer.workflowData?.[0].raw).toMatchObject({ CallSid: 'c9f3a1d2e4b5', PhoneNumberSid: '+918047112233', To: '' });
	});

	it('answered event', async () => {
		const form = 'CallSid=c1&EventType=answered&Status=in-progress&From=%2B919876543210&Direction=outbound-api';
		const answer = await post(form, { contentType: 'application/x-www-form-urlencoded' });
		expect(answer.workflowData).toEqual([
			{
				event: 'callStatus',
				callSid: 'c1',
				status: 'in-progress',
				from: '+919876543210',
				to: null,
				direction: 'outbound-api',
				startTime: null,
				endTime: null,
				duration: null,
				recordingUrl: null,
				eventType: 'answered',
				conversationDuration: null,
				customField: null,
				answeredBy: [],
				legs: [],
				raw: Object.fromEntries(new URLSearchParams(form)),
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf(...CALL_STATUS_EXTRAS));
	});

	it('management-API call status callback: `status` is the call’s status, never the event or the call state', async () => {
		// The spec's fields: no status of the call, so none is made up from the event (terminal) or call_state.
		const body = { call_sid: 'c2', event_type: 'terminal', call_state: 'terminal', duration: 95, recording_url: 'https://recordings.example/c2.mp3' };
		const answer = await post(JSON.stringify(body));
		expect(answer.workflowData).toEqual([
			{
				event: 'callStatusManagement',
				callSid: 'c2',
				status: null,
				from: null,
				to: null,
				direction: null,
				startTime: null,
				endTime: null,
				duration: 95,
				recordingUrl: 'https://recordings.example/c2.mp3',
				eventType: 'terminal',
				// the call's state under the key Call → Get Details gives it
				state: 'terminal',
				raw: body,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf('eventType', 'state'));
	});

	it.each([
		['call_status (shape A)', { call_sid: 'c3', event_type: 'terminal', call_state: 'terminal', call_status: 'customer_unanswered', duration: 30 }, 'customer_unanswered'],
		['status (shape B)', { call_sid: 'c4', event_type: 'answered', call_state: 'active', status: 'completed', duration: 12 }, 'completed'],
	])('management-API call status callback carrying the call’s %s: that is `status`, and the Statuses filter reads it', async (_name, body, status) => {
		const answer = await post(JSON.stringify(body));
		expect(answer.workflowData?.map((item) => [item.event, item.status, item.eventType, item.state])).toEqual([['callStatusManagement', status, body.event_type, body.call_state]]);
		const byEvent = await post(JSON.stringify(body), { parameters: { statuses: String(body.event_type) } });
		expect([byEvent.status, byEvent.workflowData]).toEqual([200, undefined]);
		const byStatus = await post(JSON.stringify(body), { parameters: { statuses: status } });
		expect(byStatus.workflowData?.map((item) => item.callSid)).toEqual([body.call_sid]);
	});

	it.each([
		['campaign status by shape', { campaign_sid: 'cmp-1', to: '+919876543210', from: '+918047112233', call_sids: ['c1', 'c2'], status: 'completed' }, undefined, 'campaignStatus'],
		['per-call status by shape', { campaign_sid: 'cmp-1', call_sid: 'c1', number: '+919876543210', status: 'no-answer', date_created: 'x', date_updated: 'y' }, undefined, 'campaignCallStatus'],
		['after-retries callback named by the URL', { campaign_sid: 'cmp-1', call_sid: 'c1', number: '+919876543210', status: 'failed' }, 'campaignCallSchedule', 'campaignCallSchedule'],
	])('%s', async (_name, body, callback, event) => {
		const answer = await post(JSON.stringify(body), { query: callback ? { callback } : {} });
		const payload = body as IDataObject;
		expect(answer.workflowData).toEqual([
			{
				event,
				callSid: payload.call_sid ?? null,
				status: body.status,
				// campaign callbacks name a call by `call_sid` and the number called by `number` (`to` on the campaign
				// status, with the caller ID as `from`)
				from: payload.from ?? null,
				to: payload.number ?? payload.to,
				direction: null,
				startTime: null,
				endTime: null,
				duration: null,
				recordingUrl: null,
				campaignSid: 'cmp-1',
				raw: body,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf('campaignSid'));
		expect(answer.workflowData![0]).not.toHaveProperty('number');
	});

	it('passes unknown payloads through whole, when selected', async () => {
		const body = { something: 'else' };
		const answer = await post(JSON.stringify(body));
		expect(answer.workflowData).toEqual([
			{
				event: 'unknown',
				callSid: null,
				status: null,
				from: null,
				to: null,
				direction: null,
				startTime: null,
				endTime: null,
				duration: null,
				recordingUrl: null,
				campaignSid: null,
				raw: body,
			},
		]);
		expect(Object.keys(answer.workflowData![0])).toEqual(keysOf('campaignSid'));
		const ignored = await post(JSON.stringify(body), { parameters: { events: ['callStatus'] } });
		expect([ignored.status, ignored.workflowData]).toEqual([200, undefined]);
	});

	it('filters on statuses and events, still answering 200: at once when filtered, by n8n once it holds the execution otherwise', async () => {
		const filtered = await post(callStatusForm, { contentType: 'application/x-www-form-urlencoded', parameters: { statuses: 'busy, no-answer' } });
		expect([filtered.status, filtered.workflowData, filtered.answeredBy]).toEqual([200, undefined, 'node']);
		const kept = await post(callStatusForm, { contentType: 'application/x-www-form-urlencoded', parameters: { statuses: 'Completed' } });
		expect(kept.workflowData).toHaveLength(1);
		expect([kept.status, kept.body, kept.answeredBy]).toEqual([200, { received: 1, accepted: 1 }, 'n8n']);
	});

	it('an answered callback as the live service sends it (frappe/crm): in-progress, no end yet, picked by Call Events', async () => {
		const answered = new URLSearchParams(ANSWERED_CALL_CALLBACK).toString();
		const form = { contentType: 'application/x-www-form-urlencoded' };
		const started = await post(answered, form);
		expect(started.workflowData).toHaveLength(1);
		const [item] = started.workflowData!;
		expect(item).toMatchObject({
			event: 'callStatus',
			callSid: ANSWERED_CALL_CALLBACK.CallSid,
			status: 'in-progress',
			eventType: 'answered',
			endTime: null,
			duration: null,
			answeredBy: ['NA', null],
		});
		expect(Object.keys(item)).toEqual(keysOf(...CALL_STATUS_EXTRAS));
		// Call Events: only the end, only the answer; the other kind answered 200 and dropped
		const endsOnly = { ...form, parameters: { callEvents: ['terminal'] } };
		expect((await post(answered, endsOnly)).workflowData).toBeUndefined();
		expect((await post(callStatusForm, endsOnly)).workflowData).toHaveLength(1);
		const answersOnly = { ...form, parameters: { callEvents: ['answered'] } };
		expect((await post(answered, answersOnly)).workflowData).toHaveLength(1);
		const ended = await post(callStatusForm, answersOnly);
		expect([ended.status, ended.workflowData]).toEqual([200, undefined]);
		// the Statuses filter names an answered call by its status
		expect((await post(answered, { ...form, parameters: { statuses: 'in-progress' } })).workflowData).toHaveLength(1);
	});

	it('a body that is not a form or JSON object gets 400 and starts nothing', async () => {
		const answer = await post('[1,2]');
		expect([answer.status, answer.workflowData]).toEqual([400, undefined]);
	});
});
