import { answerFor, CALL_FLOW_LIMITS } from '../../nodes/shared/callFlows/answers';
import { callFlowItem, digitsOf, e164Of } from '../../nodes/ExotelCallFlowTrigger/requests';

describe('a call-flow request read into an item', () => {
	test("the service's own Passthru example: numbers with their trunk 0 and in E.164, digits without quotes, the placeholder end time null", () => {
		// as printed by the service's article, query parsed
		const query = {
			CallSid: '1321360773',
			From: '09880847047',
			To: '08088919888',
			Direction: 'incoming',
			DialCallDuration: '7',
			StartTime: '2011-11-15 18:09:41',
			EndTime: '0000-00-00 00:00:00',
			CallType: 'call',
			DialWhomNumber: '09052161119',
			digits: '"89"',
		};
		expect(callFlowItem('passthru', query)).toEqual({
			callSid: '1321360773',
			status: null,
			from: '09880847047',
			to: '08088919888',
			direction: 'incoming',
			startTime: '2011-11-15 18:09:41',
			endTime: null,
			duration: 7,
			recordingUrl: null,
			applet: 'passthru',
			fromE164: '+919880847047',
			toE164: '+918088919888',
			digits: '89',
			callType: 'call',
			dialCallStatus: null,
			dialWhomNumber: '09052161119',
			dialWhomNumberE164: '+919052161119',
			legs: [],
			customField: null,
			flowId: null,
			tenantId: null,
			forwardedFrom: null,
			outgoingPhoneNumber: null,
			created: null,
			currentTime: null,
			raw: query,
		});
	});

	test('CallFrom and CallTo win over From and To; legs from flat bracket keys', () => {
		const item = callFlowItem('passthru', {
			CallSid: 'abc',
			CallFrom: '07799828555',
			From: '7799828555',
			CallTo: '08047112233',
			'Legs[0][Number]': '09876543210',
			'Legs[0][OnCallDuration]': '42',
			'Legs[0][CallerId]': '08047112233',
			DialCallStatus: 'completed',
			flow_id: '12345',
			EndTime: '1970-01-01 05:30:00',
		});
		expect(item).toMatchObject({
			from: '07799828555',
			fromE164: '+917799828555',
			to: '08047112233',
			endTime: null,
			dialCallStatus: 'completed',
			flowId: '12345',
			legs: [{ number: '09876543210', numberE164: '+919876543210', onCallDuration: 42, callerId: '08047112233', status: null }],
		});
	});

	test.each([
		['"89"', '89'],
		['89', '89'],
		['""', null],
		['"#"', '#'],
		[undefined, null],
	])('digits %p are %p', (value, expected) => expect(digitsOf(value)).toBe(expected));

	test.each([
		['07799828555', '+917799828555'],
		['+14155550100', '+14155550100'],
		['00447911123456', '+447911123456'],
		['919876543210', '+919876543210'],
		['sip:agent42', null],
		['', null],
	])('%p in E.164 is %p', (value, expected) => expect(e164Of(value)).toBe(expected));
});

describe('answers, exactly as each applet accepts them', () => {
	test('Passthru: 200 the first branch, 302 the second, a Switch Case keyword as {"select"}', () => {
		expect(answerFor('passthru', { branch: 'first' })).toEqual({ status: 200, contentType: 'text/plain', body: '' });
		expect(answerFor('passthru', { branch: 'second' })).toEqual({ status: 302, contentType: 'text/plain', body: '' });
		expect(answerFor('passthru', { select: 'gold' })).toEqual({ status: 200, contentType: 'text/plain', body: '{"select":"gold"}' });
		expect(answerFor('passthru', { select: ' ' })).toEqual({ problems: ['the Switch Case keyword is empty'] });
	});

	test('Connect: the JSON as given when it holds to every limit', () => {
		const connect = {
			destination: { numbers: ['+919876543210', '+919876543211'] },
			outgoing_phone_number: '+918041234567',
			record: true,
			recording_channels: 'dual' as const,
			max_ringing_duration: CALL_FLOW_LIMITS.maxRingingSeconds,
			max_conversation_duration: CALL_FLOW_LIMITS.maxConversationSeconds,
			start_call_playback: { playback_to: 'both' as const, type: 'text' as const, value: 'This call is recorded' },
			parallel_ringing: { activate: true, max_parallel_attempts: CALL_FLOW_LIMITS.maxParallelAttempts },
		};
		expect(answerFor('connect', connect)).toEqual({ status: 200, contentType: 'application/json', body: JSON.stringify(connect) });
		expect(answerFor('connect', { dialWhom: '09876543210, +919876543211' })).toEqual({ status: 200, contentType: 'text/plain', body: '09876543210,+919876543211' });
	});

	test('Connect: each limit named, with the value given', () => {
		const result = answerFor('connect', {
			destination: { numbers: ['+919876543210', 'abc'] },
			outgoing_phone_number: '08041234567',
			max_ringing_duration: 61,
			max_conversation_duration: 4501,
			start_call_playback: { playback_to: 'caller' as 'both', type: 'text', value: 'hi' },
			parallel_ringing: { activate: true, max_parallel_attempts: 6 },
		});
		expect(result).toEqual({
			problems: [
				'destination.numbers: "abc" is not an E.164 number (+919876543210), a national one or sip:<id>',
				'outgoing_phone_number must be an ExoPhone in E.164 (+918041234567), got "08041234567"',
				'max_ringing_duration must be whole seconds from 1 to 60, got 61',
				'max_conversation_duration must be whole seconds from 1 to 4500, got 4501',
				'start_call_playback.playback_to must be both or callee (the service refuses caller), got "caller"',
				'parallel_ringing.max_parallel_attempts must be from 1 to 5, got 6',
			],
		});
	});

	test('Gather: the prompt required, one of text and audio_url', () => {
		const gather = { gather_prompt: { text: 'Enter your order number' }, max_input_digits: 6, finish_on_key: '#', input_timeout: 5 };
		expect(answerFor('gather', gather)).toEqual({ status: 200, contentType: 'application/json', body: JSON.stringify(gather) });
		expect(answerFor('gather', { gather_prompt: {} })).toEqual({ problems: ['gather_prompt is empty: the caller would hear nothing; give its text or its audio_url'] });
		expect(answerFor('gather', { gather_prompt: { text: 'x', audio_url: 'https://example.com/a.wav' } })).toEqual({ problems: ['gather_prompt takes exactly one of text and audio_url'] });
		expect(answerFor('gather', { gather_prompt: { text: 'x' }, max_input_digits: 256, finish_on_key: '##' })).toEqual({
			problems: ['max_input_digits must be from 1 to 255, got 256', 'finish_on_key must be one key (0-9, * or #) or "" for none, got "##"'],
		});
	});

	test('Greeting: text/plain only, the text or the audio URLs one a line; never silence', () => {
		expect(answerFor('greeting', { text: 'Your order has shipped' })).toEqual({ status: 200, contentType: 'text/plain', body: 'Your order has shipped' });
		expect(answerFor('greeting', { audioUrls: ['https://example.com/a.wav', 'https://example.com/b.wav'] })).toEqual({
			status: 200,
			contentType: 'text/plain',
			body: 'https://example.com/a.wav\nhttps://example.com/b.wav',
		});
		expect(answerFor('greeting', { text: '  ' })).toEqual({ problems: ['the greeting text is empty: the caller would hear silence'] });
		expect(answerFor('greeting', { audioUrls: [] })).toEqual({ problems: ['no audio URL: the caller would hear silence'] });
	});
});
