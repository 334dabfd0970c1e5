/**
 * `npm run person` (scripts/person.ts): the command line becomes the sandbox control-API request of
 * "Acting as the person" (sandbox/README.md), and `npm run dev`'s banner shows the same requests.
 * No network: only the request is built.
 */
import { curlLine, parsePersonArgs, personHelp, sandboxOrigin } from '../../scripts/person';

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
		expect(() => parsePersonArgs([])).toThrow(/^no command: use reply, open-link or end-call/);
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
