/**
 * `npm run person` (scripts/person.ts): the command line becomes the sandbox control-API request of
 * "Acting as the person" and "Call flows" (sandbox/README.md), and `npm run dev`'s banner shows the
 * same requests. No network: only the request is built (a call's flow file read through a stand-in).
 */
import { callSummary, curlLine, parsePersonArgs, personHelp, sandboxOrigin } from '../../scripts/person';
import type { CallFlowResult } from '../../sandbox/callFlows';

describe('npm run person: the command line → the control-API request', () => {
	it('reply: a tapped reply button to the latest chat-app message sent to a number', () => {
		expect(parsePersonArgs(['reply', '--to', '+919812340001', '--button', 'approve'])).toEqual({
			url: 'http://127.0.0.1:4010/__sandbox/reply',
			body: { to: '+919812340001', button: 'approve' },
		});
	});

	it('reply: a list row, text, an RCS suggestion (JSON), a given message, someone else answering; --flag=value too', () => {
		expect(parsePersonArgs(['reply', '--sid', 'abc123', '--list-row', 'slot-2', '--from=+919811112222', '--name', 'Asha Rao']).body).toEqual({
			sid: 'abc123',
			listRow: 'slot-2',
			from: '+919811112222',
			name: 'Asha Rao',
		});
		expect(parsePersonArgs(['reply', '--to', '+919812340001', '--text', 'yes, go ahead']).body).toEqual({ to: '+919812340001', text: 'yes, go ahead' });
		expect(parsePersonArgs(['reply', '--to', '+919812340001', '--suggestion', '{"reply":{"text":"Yes","postback_data":"yes"}}']).body).toEqual({
			to: '+919812340001',
			suggestion: { reply: { text: 'Yes', postback_data: 'yes' } },
		});
	});

	it('open-link: the link whose URL contains a text, or by position, as a person or a preview bot', () => {
		expect(parsePersonArgs(['open-link', '--to', '+919845012345', '--match', 'answer=approve'])).toEqual({
			url: 'http://127.0.0.1:4010/__sandbox/open-link',
			body: { to: '+919845012345', match: 'answer=approve' },
		});
		expect(parsePersonArgs(['open-link', '--sid', 'sms1', '--link', '1', '--as', 'bot']).body).toEqual({ sid: 'sms1', link: 1, as: 'bot' });
	});

	it('end-call: a running call ends now', () => {
		expect(parsePersonArgs(['end-call', '--call-sid', 'c0ffee', '--status', 'no-answer'])).toEqual({
			url: 'http://127.0.0.1:4010/__sandbox/end-call',
			body: { callSid: 'c0ffee', status: 'no-answer' },
		});
	});

	it('call: an incoming call through the flow of a file, what the caller presses, how callees behave, the budget', () => {
		const flow = { start: 'hello', applets: { hello: { kind: 'greeting', text: 'Hello', next: 'hangup' } } };
		const files: Record<string, string> = { 'flows/ivr.json': JSON.stringify(flow) };
		const read = (path: string) => files[path] ?? '';
		const args = ['call', '--flow', 'flows/ivr.json', '--from', '+919876543210', '--to', '+918041234567', '--press', '1', '--press', '1234#'];
		expect(parsePersonArgs([...args, '--callee', '+919812340001=no-answer', '--callee=+919812340002=busy', '--budget-ms', '300'], {}, read)).toEqual({
			url: 'http://127.0.0.1:4010/__sandbox/call-flow',
			body: {
				flow,
				from: '+919876543210',
				to: '+918041234567',
				press: ['1', '1234#'],
				callees: { '+919812340001': 'no-answer', '+919812340002': 'busy' },
				budgetMs: 300,
			},
		});
		expect(parsePersonArgs([...args, '--press', '', '--call-sid', 'c1', '--custom-field', 'order-42', '--conversation-seconds', '45', '--repeat-each-request'], {}, read).body).toMatchObject({
			press: ['1', '1234#', ''],
			callSid: 'c1',
			customField: 'order-42',
			conversationSeconds: 45,
			repeatEachRequest: true,
		});
		expect(parsePersonArgs(['call', '--flow', 'flows/ivr.json', '--repeat-each-request=false', '--from', '+919876543210'], {}, read).body).toEqual({
			flow,
			repeatEachRequest: false,
			from: '+919876543210',
		});
	});

	it('call: refuses a flow file that cannot be read or is not JSON, a bad callee, a budget that is not a number', () => {
		const read = (path: string) => {
			if (path === 'broken.json') return '{"start": ';
			throw new Error(`ENOENT: no such file or directory, open '${path}'`);
		};
		expect(() => parsePersonArgs(['call', '--flow', 'missing.json'], {}, read)).toThrow("--flow: cannot read missing.json (ENOENT: no such file or directory, open 'missing.json')");
		expect(() => parsePersonArgs(['call', '--flow', 'broken.json'], {}, read)).toThrow('--flow: broken.json is not JSON');
		expect(() => parsePersonArgs(['call', '--callee', '+919812340001'])).toThrow("--callee must be NUMBER=answers|no-answer|busy (got '+919812340001')");
		expect(() => parsePersonArgs(['call', '--budget-ms', '5s'])).toThrow("--budget-ms must be a whole number (got '5s')");
		expect(() => parsePersonArgs(['call', '--repeat-each-request=yes'])).toThrow('--repeat-each-request takes no value, or =true / =false');
		expect(() => parsePersonArgs(['call', '--button', 'approve'])).toThrow("call: unknown option '--button'");
	});

	it('call: the summary on stderr says what the caller heard, who was dialled and the way through the flow', () => {
		const call: CallFlowResult = {
			callSid: 'c1',
			from: '+919876543210',
			to: '+918041234567',
			steps: [
				{ applet: 'menu', kind: 'gather', requests: [], outcome: 'gathered', next: 'dial' },
				{ applet: 'dial', kind: 'connect', requests: [], outcome: 'dialled', next: 'log' },
				{ applet: 'log', kind: 'passthru', requests: [], outcome: 'second', reason: 'timeout', next: 'hangup' },
			],
			heard: ['Press 1 for sales', 'audio: http://127.0.0.1:5678/hold.wav'],
			dialled: [
				{ number: '+919812340001', callerId: '+918041234567', result: 'no-answer' },
				{ number: '+919812340002', callerId: '+918041234567', result: 'completed' },
			],
			ended: 'hangup',
		};
		expect(callSummary(call)).toEqual([
			'call c1 from +919876543210 to +918041234567 ended: hangup',
			'  heard: "Press 1 for sales", "audio: http://127.0.0.1:5678/hold.wav"',
			'  dialled: +919812340001 (no-answer), +919812340002 (completed)',
			'  through: menu gathered → dial dialled → log second (timeout) → hangup',
		]);
		expect(callSummary({ ...call, heard: [], dialled: [], steps: [], ended: 'caller-hangup' }).slice(1)).toEqual(['  heard: nothing', '  dialled: nobody', '  through: caller-hangup']);
	});

	it('the sandbox: --sandbox, else SANDBOX_PORT (as npm run dev), else 4010; loopback only', () => {
		expect(parsePersonArgs(['reply', '--to', '+919812340001', '--text', 'ok', '--sandbox', 'http://127.0.0.1:4999/']).url).toBe(
			'http://127.0.0.1:4999/__sandbox/reply',
		);
		expect(parsePersonArgs(['end-call', '--call-sid', 'c1'], { SANDBOX_PORT: '4020' }).url).toBe('http://127.0.0.1:4020/__sandbox/end-call');
		expect(sandboxOrigin(undefined, { SANDBOX_PORT: ' ' })).toBe('http://127.0.0.1:4010');
		expect(() => sandboxOrigin('http://10.0.0.5:4010')).toThrow('--sandbox must be a loopback origin');
		expect(() => sandboxOrigin('https://example.com')).toThrow('loopback');
	});

	it('refuses a bad command line before sending anything, naming the problem', () => {
		expect(() => parsePersonArgs([])).toThrow(/^no command: use reply, open-link, end-call or call/);
		expect(() => parsePersonArgs(['tap'])).toThrow("unknown command 'tap'");
		expect(() => parsePersonArgs(['reply', '--to', '+919812340001', '--match', 'x'])).toThrow("reply: unknown option '--match'");
		expect(() => parsePersonArgs(['reply', '--to'])).toThrow('--to needs a value');
		expect(() => parsePersonArgs(['reply', '--to', '--button', 'approve'])).toThrow('--to needs a value');
		expect(() => parsePersonArgs(['open-link', '--to', '+919845012345', '--link', 'first'])).toThrow("--link must be a link's position");
		expect(() => parsePersonArgs(['reply', '--to', '+919812340001', '--suggestion', '{reply'])).toThrow('--suggestion must be JSON');
	});
});

describe("npm run dev's banner", () => {
	it('shows the npm run person lines and the same requests as curl, to the running sandbox', () => {
		const lines = personHelp('http://127.0.0.1:4010');
		expect(lines).toContain('  chat app, tap a reply button:   npm run person -- reply --to +919812340001 --button approve');
		expect(lines).toContain('  SMS, open a link and confirm:   npm run person -- open-link --to +919845012345 --match answer=approve');
		expect(lines).toContain(
			`  or: curl -s -X POST http://127.0.0.1:4010/__sandbox/reply -H 'content-type: application/json' -d '{"to":"+919812340001","button":"approve"}'`,
		);
		expect(lines).toContain(
			`  or: curl -s -X POST http://127.0.0.1:4010/__sandbox/open-link -H 'content-type: application/json' -d '{"to":"+919845012345","match":"answer=approve"}'`,
		);
	});

	it('names the sandbox when it is not on the default port', () => {
		const lines = personHelp('http://127.0.0.1:4321');
		expect(lines.filter((line) => line.includes('npm run person -- ')).every((line) => line.endsWith(' --sandbox http://127.0.0.1:4321'))).toBe(true);
		expect(lines.filter((line) => line.includes('curl')).every((line) => line.includes('http://127.0.0.1:4321/__sandbox/'))).toBe(true);
	});

	it('curlLine posts the body as JSON', () => {
		expect(curlLine({ url: 'http://127.0.0.1:4010/__sandbox/end-call', body: { callSid: 'c1' } })).toBe(
			`curl -s -X POST http://127.0.0.1:4010/__sandbox/end-call -H 'content-type: application/json' -d '{"callSid":"c1"}'`,
		);
	});
});
