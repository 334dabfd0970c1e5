/**
 * `npm run dev` stops on SIGINT or SIGTERM sent to the `npm run dev` process itself, not only to the
 * node process under it (scripts/dev-stop.ts): npm passes the signal to its shell, which dies without
 * passing it on, and the node process sees its parent go. Run for real: `npm run` of a throwaway
 * package whose script starts a stand-in (test/helpers/dev-stop-fixture.ts) the way `npm run dev` starts dev.ts.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { pollFor } from '../harness/timeouts';

const FIXTURE = path.join(__dirname, '..', 'helpers', 'dev-stop-fixture.ts');
const TS_NODE = require.resolve('ts-node/register/transpile-only');

let tmp: string;
const children: ChildProcess[] = [];

beforeAll(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-dev-stop-'));
	const script = `node -r ${JSON.stringify(TS_NODE)} ${JSON.stringify(FIXTURE)}`;
	fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'dev-stop-probe', private: true, scripts: { dev: script } }));
});

afterAll(() => {
	for (const child of children) {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// gone already
		}
	}
	fs.rmSync(tmp, { recursive: true, force: true });
});

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

/** Starts `command` in its own process group (so the test's signal reaches it alone) and waits for the stand-in's `ready <pid>`. */
async function startProbe(command: string, args: string[]): Promise<{ child: ChildProcess; output: () => string; probePid: number; exited: Promise<number | null> }> {
	const child = spawn(command, args, { cwd: tmp, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	children.push(child);
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	const probePid = await pollFor(`the stand-in's ready line (${command})`, 30_000, async () => {
		const match = /ready (\d+)/.exec(output);
		return match ? Number(match[1]) : undefined;
	}, async () => output, 50);
	return { child, output: () => output, probePid, exited };
}

describe('npm run dev stops when its npm process is told to', () => {
	it.each(['SIGTERM', 'SIGINT'] as const)('%s to `npm run dev` (npm → sh → node) stops the node process under it', async (signal) => {
		const probe = await startProbe('npm', ['run', '-s', 'dev']);
		expect(probe.probePid).not.toBe(probe.child.pid);
		process.kill(probe.child.pid!, signal);
		await probe.exited;
		await pollFor('the stand-in to stop', 10_000, async () => (alive(probe.probePid) ? undefined : true), async () => probe.output(), 50);
		expect(probe.output()).toMatch(/stopping: its parent process \(\d+\) ended/);
	});

	it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s to the node process itself stops it, naming the signal', async (signal) => {
		const probe = await startProbe(process.execPath, ['-r', TS_NODE, FIXTURE]);
		expect(probe.probePid).toBe(probe.child.pid);
		process.kill(probe.probePid, signal);
		expect(await probe.exited).toBe(0);
		expect(probe.output()).toContain(`stopping: ${signal}`);
	});
});
