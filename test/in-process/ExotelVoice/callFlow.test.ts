/**
 * Exotel Voice → Call Flow → Answer through n8n-core: what it hands n8n to answer the request the
 * Exotel Call Flow Trigger holds (n8n's sendResponse hook, as a Respond to Webhook node would), each
 * applet's answer exactly, and the checks before anything is answered.
 */
import type { INode, INodeParameters } from 'n8n-workflow';

import { chain, itemsNode, packageNodeType, runWorkflow } from '../../helpers/n8n-core-harness';

const MARK = 'x-exotel-call-flow-answer';
const CALL = { callSid: 'cf-call-1', from: '09876543210', fromE164: '+919876543210', digits: '4711', applet: 'connect' };

function trigger(applet: string): INode {
	return { id: 'trigger', name: 'Call Flow Trigger', type: packageNodeType('exotelCallFlowTrigger'), typeVersion: 1, position: [0, 0], parameters: { applet }, webhookId: 'c0ffee00-0000-4000-8000-cf0000000099' };
}

function answer(parameters: INodeParameters, settings: Partial<INode> = {}): INode {
	return { id: 'answer', name: 'Answer', type: packageNodeType('exotelVoice'), typeVersion: 2, position: [400, 0], parameters: { resource: 'callFlow', operation: 'answer', ...parameters }, ...settings };
}

/** Trigger → the call's item → Answer, as a workflow started by a call-flow request. */
async function run(parameters: INodeParameters, options: { triggerApplet?: string; withoutTrigger?: boolean; settings?: Partial<INode>; items?: object[] } = {}) {
	const items = itemsNode('Lookup', (options.items ?? [CALL]) as never);
	const nodes = options.withoutTrigger ? [items, answer(parameters, options.settings)] : [trigger(options.triggerApplet ?? String(parameters.applet)), items, answer(parameters, options.settings)];
	return await runWorkflow({
		nodes,
		connections: options.withoutTrigger ? chain('Lookup', 'Answer') : chain('Call Flow Trigger', 'Lookup', 'Answer'),
		credentials: [{ type: 'exotelCallFlowApi', data: { secret: 'in-process-call-flow-secret', allowedAddresses: '' } }],
	});
}

describe('Exotel Voice → Call Flow → Answer', () => {
	test('Passthru: the second branch is 302 with an empty text/plain body, marked for the trigger', async () => {
		const result = await run({ applet: 'passthru', branch: 'second' });
		expect(result.error).toBeUndefined();
		expect(result.responses).toEqual([{ body: '', headers: { [MARK]: 'passthru', 'content-type': 'text/plain' }, statusCode: 302 }]);
		expect(result.output('Answer').map((item) => item.json)).toEqual([{ ...CALL, callFlowAnswer: { applet: 'passthru', status: 302, contentType: 'text/plain', body: '' } }]);
	});

	test('Passthru: the first branch is 200; a Switch Case keyword is 200 with {"select": …}', async () => {
		expect((await run({ applet: 'passthru', branch: 'first' })).responses).toEqual([{ body: '', headers: { [MARK]: 'passthru', 'content-type': 'text/plain' }, statusCode: 200 }]);
		expect((await run({ applet: 'passthru', branch: 'select', select: '={{ $json.digits === "4711" ? "vip" : "other" }}' })).responses[0]).toMatchObject({ body: '{"select":"vip"}', statusCode: 200 });
	});

	test("Connect: the programmable JSON in the service's field names, only what was set", async () => {
		const result = await run({
			applet: 'connect',
			numbers: '+919812340001, +919812340002',
			callerId: '+918041234567',
			options: { maxRingingDuration: 45, maxConversationDuration: 4500, maxParallelAttempts: 2, record: true, recordingChannels: 'dual', playbackValue: 'This call is recorded', playbackTo: 'callee', fetchAfterAttempt: true, musicOnHold: 'operator_tone' },
		});
		expect(result.error).toBeUndefined();
		const [response] = result.responses;
		expect([response.statusCode, response.headers]).toEqual([200, { [MARK]: 'connect', 'content-type': 'application/json' }]);
		expect(JSON.parse(response.body as string)).toEqual({
			destination: { numbers: ['+919812340001', '+919812340002'] },
			outgoing_phone_number: '+918041234567',
			fetch_after_attempt: true,
			record: true,
			recording_channels: 'dual',
			max_ringing_duration: 45,
			max_conversation_duration: 4500,
			parallel_ringing: { activate: true, max_parallel_attempts: 2 },
			music_on_hold: { type: 'operator_tone' },
			start_call_playback: { playback_to: 'callee', type: 'text', value: 'This call is recorded' },
		});
		expect(JSON.parse((await run({ applet: 'connect', numbers: '+919812340001' })).responses[0].body as string)).toEqual({ destination: { numbers: ['+919812340001'] } });
	});

	test('Connect as a plain number: the numbers as text for the classic Dial Whom URL', async () => {
		expect((await run({ applet: 'connect', connectAs: 'dialWhom', numbers: '+919812340001, 09812340002' })).responses).toEqual([
			{ body: '+919812340001,09812340002', headers: { [MARK]: 'connect', 'content-type': 'text/plain' }, statusCode: 200 },
		]);
	});

	test('Gather: the prompt and its rules; Finish On Key None is ""', async () => {
		const result = await run({ applet: 'gather', promptType: 'text', prompt: 'Your order number, then hash', options: { maxInputDigits: 8, finishOnKey: 'none', inputTimeout: 5, repeatMenu: 2, repeatPrompt: 'Once more: your order number' } });
		expect(JSON.parse(result.responses[0].body as string)).toEqual({
			gather_prompt: { text: 'Your order number, then hash' },
			max_input_digits: 8,
			finish_on_key: '',
			input_timeout: 5,
			repeat_menu: 2,
			repeat_gather_prompt: { text: 'Once more: your order number' },
		});
		expect(JSON.parse((await run({ applet: 'gather', promptType: 'audioUrl', prompt: 'https://example.com/menu.wav' })).responses[0].body as string)).toEqual({ gather_prompt: { audio_url: 'https://example.com/menu.wav' } });
	});

	test('Greeting: the text from the item, or audio URLs a line each, text/plain', async () => {
		expect((await run({ applet: 'greeting', greetingType: 'text', text: '=Your order {{ $json.digits }} was shipped today' })).responses).toEqual([
			{ body: 'Your order 4711 was shipped today', headers: { [MARK]: 'greeting', 'content-type': 'text/plain' }, statusCode: 200 },
		]);
		expect((await run({ applet: 'greeting', greetingType: 'audioUrls', audioUrls: 'https://example.com/a.wav\nhttps://example.com/b.wav' })).responses[0].body).toBe('https://example.com/a.wav\nhttps://example.com/b.wav');
	});

	test('an answer the applet would refuse names its field and limit, and nothing is answered (the trigger gives its fallback)', async () => {
		const cases: Array<[INodeParameters, RegExp]> = [
			[{ applet: 'connect', numbers: '+919812340001', options: { maxRingingDuration: '={{ 61 }}' } }, /max_ringing_duration must be whole seconds from 1 to 60, got 61/],
			[{ applet: 'connect', numbers: '+919812340001', options: { maxConversationDuration: '={{ 4501 }}' } }, /max_conversation_duration must be whole seconds from 1 to 4500, got 4501/],
			[{ applet: 'connect', numbers: '+919812340001', options: { maxParallelAttempts: '={{ 6 }}' } }, /max_parallel_attempts must be from 1 to 5, got 6/],
			[{ applet: 'connect', numbers: '+919812340001', callerId: '08041234567' }, /outgoing_phone_number must be an ExoPhone in E.164/],
			[{ applet: 'connect', numbers: '+919812340001', options: { playbackValue: 'hi', playbackTo: '={{ "caller" }}' } }, /playback_to must be both or callee \(the service refuses caller\)/],
			[{ applet: 'gather', promptType: 'text', prompt: '={{ $json.missing ?? "" }}' }, /gather_prompt is empty: the caller would hear nothing/],
			[{ applet: 'greeting', greetingType: 'text', text: '={{ " " }}' }, /the caller would hear silence/],
		];
		for (const [parameters, message] of cases) {
			const result = await run(parameters);
			expect([parameters, result.error?.message]).toEqual([parameters, expect.stringMatching(message)]);
			expect(result.responses).toEqual([]);
		}
	});

	test('with Continue On Fail the refused answer is the first item\'s error, and nothing is answered', async () => {
		const result = await run({ applet: 'greeting', greetingType: 'text', text: '={{ $json.spoken ?? "" }}' }, { settings: { onError: 'continueRegularOutput' } });
		expect(result.error).toBeUndefined();
		expect(result.responses).toEqual([]);
		expect(result.output('Answer').map((item) => item.json)).toEqual([{ ...CALL, error: expect.stringContaining('the caller would hear silence') }]);
	});

	test("without a Call Flow Trigger before it, or for another applet than the trigger's, it answers nothing", async () => {
		expect((await run({ applet: 'passthru', branch: 'first' }, { withoutTrigger: true })).error?.message).toBe('No Exotel Call Flow Trigger before this node');
		const mismatch = await run({ applet: 'passthru', branch: 'first' }, { triggerApplet: 'connect' });
		expect(mismatch.error?.message).toBe('Applet is passthru, but "Call Flow Trigger" answers a connect applet');
		expect(mismatch.responses).toEqual([]);
	});

	test('several items: one answer, from the first; every item goes on, paired', async () => {
		const result = await run({ applet: 'greeting', greetingType: 'text', text: '={{ $json.text }}' }, { items: [{ text: 'first' }, { text: 'second' }] });
		expect(result.responses.map((response) => response.body)).toEqual(['first']);
		expect(result.output('Answer').map((item) => [item.json.text, item.pairedItem])).toEqual([
			['first', { item: 0 }],
			['second', { item: 1 }],
		]);
	});
});
