/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command line (process: argv, env, exit, stdout/stderr; fs: the flow file); never shipped */
/**
 * `npm run person`: answer a waiting "send and wait" execution from a terminal, as the person it
 * asked, through the sandbox's control API (sandbox/README.md, "Acting as the person"). Meant
 * for `npm run dev`, whose banner prints these lines:
 *
 *   npm run person -- reply --to +919812340001 --button approve       chat app: tap a reply button
 *                       (or --list-row ID, --text "...", RCS --suggestion '{"reply":{...}}'; --sid SID for a given message;
 *                        --from NUMBER answers as someone else, --name NAME)
 *   npm run person -- open-link --to +919845012345 --match answer=approve
 *                       SMS: open a link of the latest SMS to that number and press its page's button
 *                       (--link N by position, --as bot for a link preview that presses nothing)
 *   npm run person -- end-call --call-sid SID [--status completed|failed|busy|no-answer]
 *   npm run person -- call --flow FILE.json --from +919876543210 --to +918041234567
 *                       [--press 1 --press 1234#] [--callee +919812340001=no-answer] [--budget-ms 5000]
 *                       an incoming call played through a call flow (sandbox/README.md, "Call flows"):
 *                       what the caller heard and who was dialled also on stderr
 *                       (--call-sid SID, --custom-field TEXT, --conversation-seconds N, --repeat-each-request)
 *
 * The sandbox: --sandbox http://127.0.0.1:PORT, else env SANDBOX_PORT, else 4010 (npm run dev's);
 * loopback only. Prints the sandbox's JSON answer; exits 1 when it refuses (400, naming why) and 2 on
 * a bad command line.
 */
import * as fs from 'fs';

import axios from 'axios';

import type { CallFlowResult } from '../sandbox/callFlows';
import { DEFAULT_SANDBOX_PORT } from '../sandbox/cli';

export type PersonCommand = 'reply' | 'open-link' | 'end-call' | 'call';

/** One control-API request: `POST <url>` with `body` as JSON. */
export interface PersonRequest {
	url: string;
	body: Record<string, unknown>;
}

/** The flags of each command and the body key each one sets. */
const FLAGS: Record<PersonCommand, Record<string, string>> = {
	reply: { '--sid': 'sid', '--to': 'to', '--from': 'from', '--name': 'name', '--button': 'button', '--list-row': 'listRow', '--text': 'text', '--suggestion': 'suggestion' },
	'open-link': { '--sid': 'sid', '--to': 'to', '--link': 'link', '--match': 'match', '--as': 'as' },
	'end-call': { '--call-sid': 'callSid', '--status': 'status' },
	call: {
		'--flow': 'flow',
		'--from': 'from',
		'--to': 'to',
		'--press': 'press',
		'--callee': 'callees',
		'--budget-ms': 'budgetMs',
		'--call-sid': 'callSid',
		'--custom-field': 'customField',
		'--conversation-seconds': 'conversationSeconds',
		'--repeat-each-request': 'repeatEachRequest',
	},
};

/** The control endpoint of a command, where it is not the command's own name. */
const ENDPOINTS: Partial<Record<PersonCommand, string>> = { call: 'call-flow' };

/** Flags that take no value (`--flag` is true; `--flag=false` is allowed). */
const SWITCHES = new Set(['--repeat-each-request']);

/** Reads the --flow file (a test hands in its own). */
export type ReadFlowFile = (path: string) => string;

const readFlowFile: ReadFlowFile = (path) => fs.readFileSync(path, 'utf8');

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

export const USAGE = [
	'npm run person -- reply     (--to NUMBER | --sid SID) (--button ID | --list-row ID | --text TEXT | --suggestion JSON) [--from NUMBER] [--name NAME]',
	'npm run person -- open-link (--to NUMBER | --sid SID) [--match TEXT | --link N] [--as person|bot]',
	'npm run person -- end-call  --call-sid SID [--status completed|failed|busy|no-answer]',
	'npm run person -- call      --flow FILE.json --from NUMBER --to NUMBER [--press KEYS]... [--callee NUMBER=answers|no-answer|busy]...',
	'                            [--budget-ms MS] [--call-sid SID] [--custom-field TEXT] [--conversation-seconds N] [--repeat-each-request]',
	`  every command: [--sandbox http://127.0.0.1:PORT] (else env SANDBOX_PORT, else ${DEFAULT_SANDBOX_PORT})`,
].join('\n');

/** The sandbox origin: --sandbox, else SANDBOX_PORT, else the default port; loopback only. */
export function sandboxOrigin(flag: string | undefined, env: NodeJS.ProcessEnv = {}): string {
	const origin = (flag ?? `http://127.0.0.1:${env.SANDBOX_PORT?.trim() || DEFAULT_SANDBOX_PORT}`).replace(/\/+$/, '');
	if (!LOOPBACK.test(origin)) throw new Error(`--sandbox must be a loopback origin like http://127.0.0.1:4010 (got '${origin}')`);
	return origin;
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
function parsedJson(text: string): { value: unknown } | undefined {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch {
		return undefined;
	}
}

/** A whole number for a numeric flag. */
function wholeNumber(name: string, value: string): number {
	if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number (got '${value}')`);
	return Number(value);
}

/** The --flow file's JSON. */
function flowOf(path: string, read: ReadFlowFile): unknown {
	let textRead: string | undefined;
	let problem = '';
	try {
		textRead = read(path);
	} catch (error) {
		problem = (error as Error).message;
	}
	if (textRead === undefined) throw new Error(`--flow: cannot read ${path} (${problem})`);
	const flow = parsedJson(textRead);
	if (!flow) throw new Error(`--flow: ${path} is not JSON`);
	return flow.value;
}

/** One flag's value into the body: most as given, some parsed, --press and --callee collected. */
function setOption(body: Record<string, unknown>, name: string, key: string, value: string, read: ReadFlowFile): void {
	if (name === '--link') {
		if (!/^\d+$/.test(value)) throw new Error(`--link must be a link's position, 0 for the first (got '${value}')`);
		body.link = Number(value);
	} else if (name === '--suggestion') {
		const suggestion = parsedJson(value);
		if (!suggestion) throw new Error(`--suggestion must be JSON, e.g. '{"reply":{"text":"Yes","postback_data":"yes"}}' (got '${value}')`);
		body.suggestion = suggestion.value;
	} else if (name === '--flow') body.flow = flowOf(value, read);
	else if (name === '--press') body.press = [...((body.press as string[] | undefined) ?? []), value];
	else if (name === '--callee') {
		const eq = value.lastIndexOf('=');
		if (eq <= 0) throw new Error(`--callee must be NUMBER=answers|no-answer|busy (got '${value}')`);
		body.callees = { ...(body.callees as Record<string, string> | undefined), [value.slice(0, eq)]: value.slice(eq + 1) };
	} else if (name === '--budget-ms' || name === '--conversation-seconds') body[key] = wholeNumber(name, value);
	else if (SWITCHES.has(name)) {
		if (value !== 'true' && value !== 'false') throw new Error(`${name} takes no value, or =true / =false (got '${value}')`);
		body[key] = value === 'true';
	} else body[key] = value;
}

/** The control-API request a command line asks for (the sandbox checks the rest and names what is wrong). */
export function parsePersonArgs(args: string[], env: NodeJS.ProcessEnv = {}, read: ReadFlowFile = readFlowFile): PersonRequest {
	const [command, ...rest] = args;
	if (!command || !(command in FLAGS)) {
		throw new Error(`${command ? `unknown command '${command}'` : 'no command'}: use reply, open-link, end-call or call\n${USAGE}`);
	}
	const flags = FLAGS[command as PersonCommand];
	const body: Record<string, unknown> = {};
	let sandbox: string | undefined;
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i];
		const eq = arg.indexOf('=');
		const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
		if (name !== '--sandbox' && !(name in flags)) throw new Error(`${command}: unknown option '${arg}'\n${USAGE}`);
		let value: string;
		if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
		else if (SWITCHES.has(name)) value = 'true';
		else if (rest[i + 1] === undefined || rest[i + 1].startsWith('--')) throw new Error(`${name} needs a value`);
		else value = rest[++i];
		if (name === '--sandbox') sandbox = value;
		else setOption(body, name, flags[name], value, read);
	}
	const endpoint = ENDPOINTS[command as PersonCommand] ?? command;
	return { url: `${sandboxOrigin(sandbox, env)}/__sandbox/${endpoint}`, body };
}

/** The same request as a `curl` line. */
export function curlLine({ url, body }: PersonRequest): string {
	return `curl -s -X POST ${url} -H 'content-type: application/json' -d '${JSON.stringify(body)}'`;
}

/** What `npm run dev` prints: how to answer a waiting execution from a terminal, with npm run person and with curl. */
export function personHelp(origin: string): string[] {
	const reply = ['reply', '--to', '+919812340001', '--button', 'approve'];
	const open = ['open-link', '--to', '+919845012345', '--match', 'answer=approve'];
	const request = (args: string[]) => parsePersonArgs([...args, '--sandbox', origin]);
	const port = new URL(origin).port;
	const sandboxFlag = port === String(DEFAULT_SANDBOX_PORT) ? '' : ` --sandbox ${origin}`;
	return [
		'a send-and-wait execution waits for the person it asked; answer as that person from a terminal:',
		`  chat app, tap a reply button:   npm run person -- ${reply.join(' ')}${sandboxFlag}`,
		`  SMS, open a link and confirm:   npm run person -- ${open.join(' ')}${sandboxFlag}`,
		'  (the number the message went to; --list-row ID or --text TEXT, --as bot for a link preview; `npm run person` lists all)',
		`  or: ${curlLine(request(reply))}`,
		`  or: ${curlLine(request(open))}`,
	];
}

/** What a played call amounts to, for a person at a terminal: what the caller heard, who was dialled, the way through the flow. */
export function callSummary(call: CallFlowResult): string[] {
	const heard = call.heard.length ? call.heard.map((words) => JSON.stringify(words)).join(', ') : 'nothing';
	const dialled = call.dialled.length ? call.dialled.map((d) => `${d.number} (${d.result})`).join(', ') : 'nobody';
	const steps = call.steps.map((step) => `${step.applet} ${step.outcome}${step.reason ? ` (${step.reason})` : ''}`);
	return [
		`call ${call.callSid} from ${call.from} to ${call.to} ended: ${call.ended}`,
		`  heard: ${heard}`,
		`  dialled: ${dialled}`,
		`  through: ${[...steps, call.ended].join(' → ')}`,
	];
}

async function main(): Promise<void> {
	let request: PersonRequest;
	try {
		request = parsePersonArgs(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`[person] ${(error as Error).message}\n`);
		process.exit(2);
	}
	let res;
	try {
		// a call lasts as long as its URLs take to answer (each up to its budget)
		const timeout = request.url.endsWith('/call-flow') ? 600_000 : 30_000;
		res = await axios.post(request.url, request.body, { proxy: false, timeout, validateStatus: () => true });
	} catch (error) {
		process.stderr.write(`[person] no sandbox at ${new URL(request.url).origin} (${(error as Error).message}): is npm run dev running?\n`);
		process.exit(1);
	}
	process.stdout.write(`${JSON.stringify(res.data, null, 2)}\n`);
	const call = (res.data as { call?: CallFlowResult } | undefined)?.call;
	if (res.status === 200 && call) process.stderr.write(`${callSummary(call).map((line) => `[person] ${line}`).join('\n')}\n`);
	if (res.status !== 200) process.exit(1);
}

// run as `npm run person`; imported (by its unit test) it sends nothing
if (require.main === module) void main();
