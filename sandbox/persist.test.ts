/* eslint-disable @n8n/community-nodes/no-restricted-imports -- state files in a temporary directory (fs, os, path); never shipped */
/**
 * The sandbox's records across restarts (persist.ts, `stateFile`; `npm run dev` keeps them in
 * .dev/): what it sent, the calls it placed and the campaigns created come back in a new sandbox on
 * the same file (on another port too), so a person still answers a message or ends a call sent
 * before the restart, and a campaign goes on; a call's status callbacks and a campaign's steps that
 * fell due while it was down go at once. A person's answer to a
 * number nothing was sent to says since when the sandbox has records, and why. Every receiver is a
 * local http server on 127.0.0.1.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { parseCliOptions } from './cli';
import { SANDBOX_ACCOUNT } from './fixtures';
import type { SavedState } from './persist';
import { Receiver, sandboxCall, sandboxControl } from './receiver';
import { ExotelSandbox } from './server';
import type { CallbackAttempt, OpenLinkResult } from './server';
import { budget } from './timing';

const SID = SANDBOX_ACCOUNT.accountSid;
const MESSAGES = `/v2/accounts/${SID}/messages`;
const WEBHOOK = `/v2/accounts/${SID}/chatapp/webhook`;
const SEND = `/v1/Accounts/${SID}/Sms/send`;
const CONNECT = `/v1/Accounts/${SID}/Calls/connect`;
const CAMPAIGNS = `/v2/accounts/${SID}/campaigns`;
const BUSINESS = '+919000000001';
const MANAGER = '+919812340001';
const PATIENT = '+919845012345';
const UTC_TIME = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC';

// ---------------------------------------------------------------- the answers and callbacks, as the tests read them

/** The answer to a chat-app send. */
interface ChatAppSent {
	response: { chatapp: { messages: Array<{ data: { sid: string } }> } };
}

/** A chat-app callback body. */
interface ChatAppCallback {
	chatapp: { messages: Array<Record<string, unknown> & { callback_type: string }> };
}

const rx = new Receiver();
let tmp: string;
let seq = 0;
const fresh = (name: string) => `/${name}/${++seq}`;
/** Sandboxes a test started: stopped after it, whatever happened. */
const started: ExotelSandbox[] = [];

async function startSandbox(options: ConstructorParameters<typeof ExotelSandbox>[0]): Promise<{ sandbox: ExotelSandbox; origin: string }> {
	const sandbox = new ExotelSandbox(options);
	started.push(sandbox);
	return { sandbox, origin: await sandbox.start() };
}

const buttons = {
	type: 'interactive',
	interactive: {
		type: 'button',
		body: { text: 'Refund 1200 INR for order ORD-1?' },
		action: { buttons: [{ type: 'reply', reply: { id: 'approve', title: 'Approve refund' } }, { type: 'reply', reply: { id: 'decline', title: 'Decline' } }] },
	},
};

beforeAll(async () => {
	await rx.start();
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-sandbox-state-'));
});

afterEach(async () => {
	for (const sandbox of started.splice(0)) await sandbox.stop();
});

afterAll(async () => {
	await rx.stop();
	fs.rmSync(tmp, { recursive: true, force: true });
});

describe('what the sandbox sent, across a restart', () => {
	it('comes back on another port: messages, short links, the chat-app webhook; a person answers the message and opens the link', async () => {
		const file = path.join(tmp, `sent-${++seq}.json`);
		const { sandbox: first, origin: firstOrigin } = await startSandbox({ stateFile: file, timeScale: 0.001 });
		expect(first.records.why).toBe(`when it started with no saved records in ${file}`);
		const since = first.records.since;

		const answerAt = fresh('resume');
		const chat = await sandboxCall<ChatAppSent>(firstOrigin, 'POST', MESSAGES, { from: BUSINESS, to: MANAGER, content: buttons, status_callback: rx.url(answerAt) });
		expect(chat.status).toBe(202);
		const chatSid = chat.body.response.chatapp.messages[0].data.sid as string;
		const page = fresh('confirm-page');
		const sms = await sandboxCall(firstOrigin, 'POST', SEND, undefined, [
			['From', 'EXOTEL'],
			['To', PATIENT],
			['Body', `Tap to confirm: ${rx.url(page)}?answer=approve`],
			['ShortenUrl', 'true'],
		]);
		expect(sms.status).toBe(200);
		const webhook = { incoming_message_url: rx.url(fresh('incoming')), status_callback_url: rx.url(fresh('status')) };
		expect((await sandboxCall(firstOrigin, 'PUT', WEBHOOK, { chatapp: { webhook } })).status).toBe(200);
		const sent = { chat: first.chatAppMessages(), sms: first.messages() };
		expect(sent.sms[0].deliveredBody).toContain(`${firstOrigin}/s/`);
		await first.stop();

		const { sandbox: second, origin } = await startSandbox({ stateFile: file, timeScale: 0.001 });
		expect(origin).not.toBe(firstOrigin);
		expect(second.records).toEqual({ since, why: `its records, kept in ${file} across restarts, begin then` });
		expect(second.chatAppMessages()).toEqual(sent.chat);
		expect(second.chatAppWebhook()).toEqual(webhook);
		const [restored] = second.messages();
		expect(restored).toMatchObject({ sid: sent.sms[0].sid, to: PATIENT, body: sent.sms[0].body });
		// the handset's short link now reaches this sandbox
		expect(restored.deliveredBody).toBe(sent.sms[0].deliveredBody!.split(firstOrigin).join(origin));
		expect(restored.shortLinks![0].shortUrl.startsWith(`${origin}/s/`)).toBe(true);

		// the manager taps Approve after the restart: the reply goes to the waiting execution's URL
		const reply = await second.reply({ to: MANAGER, button: 'approve' });
		expect(reply).toMatchObject({ url: rx.url(answerAt), kind: 'chatapp-reply', messageSid: chatSid, status: 200 });
		const icm = rx.json<ChatAppCallback>(answerAt).filter((body) => body.chatapp.messages[0].callback_type === 'icm');
		expect(icm).toHaveLength(1);
		expect(icm[0].chatapp.messages[0]).toMatchObject({ from: MANAGER, button: { payload: 'approve', text: 'Approve refund' }, context: { id: chatSid } });

		// the patient opens the link (through the control API, as npm run person does)
		const opened = await sandboxControl<OpenLinkResult>(origin, '/open-link', { to: PATIENT });
		expect(opened.status).toBe(200);
		expect(opened.body.pages.map((p: { url: string; status: number }) => [p.url.split('?')[0], p.status])).toEqual([
			[restored.shortLinks![0].shortUrl, 302],
			[rx.url(page), 200],
		]);

		// later sends order after the restored ones (a reply to a number finds the latest)
		const later = await sandboxCall(origin, 'POST', MESSAGES, { from: BUSINESS, to: MANAGER, content: { type: 'text', text: { body: 'Thanks' } } });
		expect(later.status).toBe(202);
		const [old, next] = second.chatAppMessages();
		expect(next.requestId).toBeGreaterThan(old.requestId);
	});

	it("a placed call still running goes on: its terminal callback stays due, and end-call ends it now", async () => {
		const file = path.join(tmp, `call-${++seq}.json`);
		const { origin: firstOrigin, sandbox: first } = await startSandbox({ stateFile: file });
		const callbackAt = fresh('call-status');
		const connect = await sandboxCall<{ Call: { Sid: string } }>(firstOrigin, 'POST', CONNECT, undefined, [
			['From', '+919876543210'],
			['CallerId', '+918047112233'],
			['Url', `http://my.exotel.com/${SID}/flowml/start_voice/926`],
			['StatusCallback', rx.url(callbackAt)],
			['StatusCallbackEvents[]', 'terminal'],
		]);
		expect(connect.status).toBe(200);
		const callSid = connect.body.Call.Sid as string;
		await first.stop();

		const { sandbox: second, origin } = await startSandbox({ stateFile: file });
		// the terminal report, about 35 s away, scheduled again
		expect(second.pendingCallbacks).toBeGreaterThan(0);
		const ended = await sandboxControl<{ callback: CallbackAttempt }>(origin, '/end-call', { callSid });
		expect(ended.status).toBe(200);
		expect(ended.body.callback).toMatchObject({ kind: 'call-status', url: rx.url(callbackAt), outcome: 'delivered', messageSid: callSid });
		await second.waitForCallbacks(() => second.pendingCallbacks === 0, budget(5000));
		const posted = rx.at(callbackAt).map((r) => Object.fromEntries(new URLSearchParams(r.text)));
		expect(posted).toEqual([expect.objectContaining({ CallSid: callSid, Status: 'completed', EventType: 'terminal' })]);
	});

	it('status callbacks of a call that fell due while the sandbox was down are posted at once when it starts again, in order', async () => {
		const file = path.join(tmp, `overdue-${++seq}.json`);
		const { origin: firstOrigin, sandbox: first } = await startSandbox({ stateFile: file });
		const callbackAt = fresh('overdue');
		const connect = await sandboxCall<{ Call: { Sid: string } }>(firstOrigin, 'POST', CONNECT, undefined, [
			['From', '+919876543210'],
			['CallerId', '+918047112233'],
			['Url', `http://my.exotel.com/${SID}/flowml/start_voice/926`],
			['StatusCallback', rx.url(callbackAt)],
			['StatusCallbackEvents[]', 'answered'],
			['StatusCallbackEvents[]', 'terminal'],
		]);
		const callSid = connect.body.Call.Sid as string;
		await first.stop();
		// as if it had been down for a minute: the save and the call both lie that far in the past
		const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedState;
		saved.savedAt -= 60_000;
		for (const call of saved.calls) {
			call.createdAt -= 60_000;
			call.endsAt -= 60_000;
		}
		fs.writeFileSync(file, JSON.stringify(saved));

		const { sandbox: second } = await startSandbox({ stateFile: file });
		await second.waitForCallbacks((log) => log.filter((a) => a.messageSid === callSid && a.outcome === 'delivered').length === 2, budget(10_000));
		const events = rx.at(callbackAt).map((r) => new URLSearchParams(r.text).get('EventType'));
		expect(events).toEqual(['answered', 'terminal']);
		expect(second.pendingCallbacks).toBe(0);
	});
});

describe('a campaign across a restart', () => {
	it('goes on where it was: what fell due while the sandbox was down comes at once, each callback once and in order', async () => {
		const file = path.join(tmp, `campaign-${++seq}.json`);
		// 600 ms a number
		const { origin: firstOrigin, sandbox: first } = await startSandbox({ stateFile: file, timeScale: 0.01 });
		const at = { status: fresh('campaign-status'), call: fresh('campaign-call'), schedule: fresh('campaign-schedule') };
		const numbers = ['+919845000001', '+919845000097', '+919845000003'];
		const created = await sandboxCall<{ response: Array<{ data: { id: string } }> }>(firstOrigin, 'POST', CAMPAIGNS, {
			caller_id: '+918047112233',
			from: numbers.join(','),
			name: 'Across a restart',
			retries: { number_of_retries: 1 },
			status_callback: rx.url(at.status),
			call_status_callback: rx.url(at.call),
			call_schedule_callback: rx.url(at.schedule),
		});
		const id = created.body.response[0].data.id as string;
		// the first number reported (and nothing in flight: only the next step is pending), then a stop
		await first.waitForCallbacks(() => rx.at(at.schedule).length >= 1 && first.pendingCallbacks === 1, budget(10_000));
		await first.stop();
		// as if it had been down for a minute: the rest of the campaign fell due meanwhile
		const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedState;
		expect(saved.campaigns!.map((c) => [c.id, c.status])).toEqual([[id, 'InProgress']]);
		expect(saved.campaigns![0].placed).toBe(rx.at(at.schedule).length);
		saved.campaigns![0].nextCallAt! -= 60_000;
		fs.writeFileSync(file, JSON.stringify(saved));

		const { sandbox: second, origin } = await startSandbox({ stateFile: file, timeScale: 0.01 });
		await second.waitForCallbacks(() => rx.at(at.status).length === 1 && second.pendingCallbacks === 0, budget(10_000));
		expect(second.requests()).toEqual([]);
		const arrived = rx.received
			.filter((r) => Object.values(at).includes(r.pathname))
			.map((r) => {
				const body = JSON.parse(r.text);
				return r.pathname === at.call ? `call ${body.number} ${body.status}` : r.pathname === at.schedule ? `schedule ${body.number} ${body.attempts}` : `campaign ${body.status}`;
			});
		expect(arrived).toEqual([
			'call +919845000001 completed',
			'schedule +919845000001 1',
			'call +919845000097 busy',
			'call +919845000097 busy',
			'schedule +919845000097 2',
			'call +919845000003 completed',
			'schedule +919845000003 1',
			'campaign Completed',
		]);
		const read = await sandboxCall<{ response: { data: unknown } }>(origin, 'GET', `${CAMPAIGNS}/${id}`);
		expect(read.body.response.data).toMatchObject({ status: 'Completed', stats: { created: 3, completed: 2, failed: 1, pending: 0 } });
		expect(rx.json<{ call_sids: string[] }>(at.status)[0].call_sids).toEqual(rx.json<{ call_sid: string }>(at.call).map((b) => b.call_sid));
	});
});

describe('when the sandbox has no record of a message', () => {
	it('an unreadable state file is moved aside; the sandbox starts empty and a person’s answer says why', async () => {
		const file = path.join(tmp, `broken-${++seq}.json`);
		fs.writeFileSync(file, '{"version": 1, "smsMess');
		const { sandbox, origin } = await startSandbox({ stateFile: file });
		expect(sandbox.records.why).toMatch(new RegExp(`^when it started: its saved records in ${file.replace(/[.]/g, '\\.')} could not be read \\(not JSON .*\\) and were moved to broken-\\d+\\.json\\.unreadable-\\d+$`));
		expect(fs.readdirSync(tmp).filter((name) => name.startsWith(path.basename(file)))).toEqual([expect.stringMatching(/\.unreadable-\d+$/)]);
		const refused = await sandboxControl<{ error: string }>(origin, '/reply', { to: MANAGER, button: 'approve' });
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(
			new RegExp(`^no chat-app or RCS message was sent to \\+919812340001: the sandbox has no record of one since ${UTC_TIME} \\(when it started: its saved records in .* could not be read .*\\); it has sent no chat-app or RCS message in that time$`),
		);
		await sandbox.stop();
		// written again, whole, on stop
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 1, smsMessages: [], calls: [] });
	});

	it('without a state file the records are in memory only, and the answer says a restart loses them', async () => {
		const { sandbox, origin } = await startSandbox({});
		await expect(sandbox.openLink({ to: PATIENT })).rejects.toThrow(
			new RegExp(`^no SMS was sent to \\+919845012345: the sandbox has no record of one since ${UTC_TIME} \\(when it started: it keeps its records in memory only, so what it sent before a restart is gone\\); it has sent no SMS in that time$`),
		);
		const chat = await sandboxCall(origin, 'POST', MESSAGES, { from: BUSINESS, to: PATIENT, content: buttons });
		expect(chat.status).toBe(202);
		await expect(sandbox.openLink({ to: PATIENT })).rejects.toThrow(/; a chat-app or RCS message was sent to it \([0-9a-f]{32}\): answer it with reply$/);
	});

	it('a reset forgets what was sent, in the file too, and the answer says so', async () => {
		const file = path.join(tmp, `reset-${++seq}.json`);
		const { sandbox, origin } = await startSandbox({ stateFile: file, timeScale: 0.001 });
		expect((await sandboxCall(origin, 'POST', MESSAGES, { from: BUSINESS, to: MANAGER, content: buttons })).status).toBe(202);
		expect((await sandboxControl(origin, '/reset', {})).status).toBe(200);
		await expect(sandbox.reply({ to: MANAGER, button: 'approve' })).rejects.toThrow(
			new RegExp(`since ${UTC_TIME} \\(when it was reset, which forgets everything it sent\\); it has sent no chat-app or RCS message in that time$`),
		);
		await sandbox.stop();
		const { sandbox: again } = await startSandbox({ stateFile: file });
		expect(again.chatAppMessages()).toEqual([]);
	});

	it('npm run sandbox -- --state FILE keeps its records in that file too; without it, in memory', () => {
		expect(parseCliOptions(['--state', '.dev/sandbox-state.json']).stateFile).toBe('.dev/sandbox-state.json');
		expect(parseCliOptions(['--state=/tmp/x.json', '--port', '0']).stateFile).toBe('/tmp/x.json');
		expect(parseCliOptions([]).stateFile).toBeUndefined();
	});
});
