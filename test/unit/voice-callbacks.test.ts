/**
 * The callback shapes posted to the Voice Trigger (nodes/shared/output/callbacks.ts) hold together with its Events:
 * every one has sample bodies here that the trigger reads as that shape and as exactly its declared events, the
 * Events list is those events, and a body is taken unsigned where the credential's signing secret applies (a
 * Messaging Trigger, a wait) exactly when UNSIGNED_AT_A_WAIT below, written here by hand, says so. A new voice shape
 * adds its samples to SAMPLES and its row there (docs/development.md, "Adding a callback shape").
 */
import type { IDataObject } from 'n8n-workflow';

import { VOICE_EVENTS } from '../../nodes/ExotelVoiceTrigger/events';
import { CALLBACKS, callbackItems, callbackOf, unsignedFamilyOf, type CallbackShape, type VoiceShape } from '../../nodes/shared/output/callbacks';
import { nestBracketKeys } from '../../nodes/shared/webhooks/respond';
import { UNKNOWN_EVENT } from '../../nodes/shared/webhooks/triggers';
import { ANSWERED_CALL_CALLBACK } from '../helpers/live-recorded';

/** A body as received, and the campaign callback its trigger URL names (`?callback=`), if it names one. */
interface Sample {
	body: IDataObject;
	named?: string;
}

const CAMPAIGN = 'cmp-1';
const PERSON = '+919876543210';

/** Bodies of each shape, as the spec (or the live-service notes) shows them. */
const SAMPLES: Record<VoiceShape, Sample[]> = {
	call: [
		{ body: ANSWERED_CALL_CALLBACK },
		{ body: { CallSid: 'c1', Status: 'completed', EventType: 'terminal', 'Legs[0][Status]': 'completed', 'Legs[0][OnCallDuration]': '12' } },
		// the URL's name is a campaign's: a call's own status callback is still that
		{ body: { CallSid: 'c1', Status: 'completed' }, named: 'campaignCallSchedule' },
	],
	callStatusManagement: [
		{ body: { call_sid: 'c2', event_type: 'terminal', call_state: 'terminal', duration: 95 } },
		{ body: { call_sid: 'c4', event_type: 'answered', call_state: 'active', status: 'completed' }, named: 'campaignStatus' },
	],
	campaignStatus: [
		{ body: { campaign_sid: CAMPAIGN, to: PERSON, call_sids: ['c1', 'c2'], status: 'completed' } },
		{ body: { campaign_sid: CAMPAIGN, status: 'in-progress' } },
		// named by the URL whatever its body says
		{ body: { campaign_sid: CAMPAIGN, call_sid: 'c1', number: PERSON, status: 'no-answer' }, named: 'campaignStatus' },
	],
	campaignCallStatus: [{ body: { campaign_sid: CAMPAIGN, call_sid: 'c1', number: PERSON, status: 'no-answer', date_created: 'x', date_updated: 'y' } }],
	campaignCallSchedule: [
		{ body: { campaign_sid: CAMPAIGN, call_sid: 'c1', number: PERSON, status: 'failed' }, named: 'campaignCallSchedule' },
		{ body: { something: 'else' }, named: 'campaignCallSchedule' },
	],
};

/**
 * Whether a body wholly of the shape may come unsigned where the credential's signing secret applies, written by hand
 * from where the service posts it: a call's status callback goes to a call wait too, and the service does not sign
 * it; the others go to the Voice Trigger alone, so anywhere else they are bodies of no known shape, signed or refused.
 */
const UNSIGNED_AT_A_WAIT: Record<VoiceShape, boolean> = {
	call: true,
	callStatusManagement: false,
	campaignStatus: false,
	campaignCallStatus: false,
	campaignCallSchedule: false,
};

const SHAPES = Object.keys(SAMPLES) as VoiceShape[];
const callbackAt = ({ body, named }: Sample) => callbackOf(body, 'voiceTrigger', named);

describe('every shape posted to the Voice Trigger', () => {
	it('is sampled here, and every other declared shape is the Messaging Trigger\'s or a wait\'s (test/unit/messaging-events.test.ts)', () => {
		const declared = Object.keys(CALLBACKS) as CallbackShape[];
		const posted = (shape: CallbackShape) => (CALLBACKS[shape].postedTo as readonly string[]);
		expect(declared.filter((shape) => posted(shape).includes('voiceTrigger'))).toEqual(SHAPES);
		for (const shape of declared) expect([shape, posted(shape).length > 0]).toEqual([shape, true]);
	});

	it.each(SHAPES)('%s: its samples are read as it, no earlier shape taking them', (shape) => {
		for (const sample of SAMPLES[shape]) expect([sample, callbackAt(sample).entries.map((entry) => entry.shape)]).toEqual([sample, [shape]]);
	});

	it.each(SHAPES)('%s: its samples read as exactly its declared events, one item a body', (shape) => {
		const items = SAMPLES[shape].flatMap((sample) => callbackItems(callbackAt(sample)));
		expect(items).toHaveLength(SAMPLES[shape].length);
		expect([...new Set(items.map((item) => item.event))].sort()).toEqual([...CALLBACKS[shape].events].sort());
	});

	it.each(SHAPES)('%s: taken unsigned where the signing secret applies exactly when the service posts it to a wait', (shape) => {
		const expected = UNSIGNED_AT_A_WAIT[shape] ? shape : undefined;
		for (const { body } of SAMPLES[shape].filter((sample) => sample.named === undefined)) {
			expect([body, unsignedFamilyOf(nestBracketKeys(body)), callbackOf(body, 'messagingTrigger').unsigned]).toEqual([body, expected, expected]);
		}
	});
});

describe('the Voice Trigger\'s events', () => {
	it('the Events list is the declared events, by name, then any other payload', () => {
		const declared = SHAPES.flatMap((shape) => CALLBACKS[shape].events as readonly string[]);
		expect(VOICE_EVENTS.map((event) => event.value)).toEqual([...new Set(declared)].sort().concat(UNKNOWN_EVENT));
		const names = VOICE_EVENTS.map((event) => event.name);
		expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort((a, b) => a.localeCompare(b)));
	});

	it('a body no shape describes, and a URL naming no campaign callback, pass the body on whole', () => {
		for (const named of [undefined, 'callStatus', 'bogus']) {
			const [item] = callbackItems(callbackOf({ something: 'else' }, 'voiceTrigger', named));
			expect([named, item.event, item.raw]).toEqual([named, UNKNOWN_EVENT, { something: 'else' }]);
		}
	});
});
