/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- starts a stand-in for npm run dev and signals it (child_process, process, fs, os, path, __dirname); never shipped */
/**
 * `npm run dev` stops on SIGINT or SIGTERM sent to the `npm run dev` process itself, not only to the
 * node process under it: its script `exec`s, so npm's signal reaches node (npm otherwise passes it to
 * a shell that dies without passing it on), and node also stops when its parent goes away
 * (scripts/dev-stop.ts). Run for real: `npm run dev` of a throwaway package whose script is the
 * project's own, starting a stand-in (test/helpers/dev-stop-fixture.ts) in place of scripts/dev.ts.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { pollFor } from '../harness/timeouts';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURE = path.join(__dirname, '..', 'helpers', 'dev-stop-fixture.ts');
const TS_NODE = require.resolve('ts-node/register/transpile-only');
const STAND_IN = `node -r ${JSON.stringify(TS_NODE)} ${JSON.stringify(FIXTURE)}`;
const DEV_SCRIPT = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.dev;

const children: ChildProcess[] = [];
const folders: string[] = [];

afterAll(() => {
	for (const child of children) {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// gone already
		}
	}
	for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A package whose `dev` script is `script`, in a folder of its own. */
function packageWithDevScript(script: string): string {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-dev-stop-'));
	folders.push(folder);
	fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'dev-stop-probe', private: true, scripts: { dev: script } }));
	return folder;
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

/** Starts `command` in its own process group (a signal of the test reaches what it names alone) and waits for the stand-in's `ready <pid>`. */
async function startProbe(command: string, args: string[], cwd: string) {
	// the project's tsconfig for the stand-in, whatever folder npm runs in (a tsconfig above /tmp would be found first)
	const env = { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.json') };
	const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	children.push(child);
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
	const probePid = await pollFor(
		`the stand-in's ready line (${command} ${args.join(' ')})`,
		30_000,
		async () => {
			const match = /ready (\d+)/.exec(output);
			return match ? Number(match[1]) : undefined;
		},
		async () => output,
		50,
	);
	return { child, output: () => output, probePid, exited };
}

describe('npm run dev stops when its npm process is told to', () => {
	it('the project runs dev.ts with exec, so npm passes its signals straight to it', () => {
		expect(DEV_SCRIPT).toBe('exec ts-node --transpile-only scripts/dev.ts');
	});

	it.each(['SIGTERM', 'SIGINT'] as const)('%s to `npm run dev` reaches the node process, and npm returns once it has stopped', async (signal) => {
		const cwd = packageWithDevScript(DEV_SCRIPT.replace('ts-node --transpile-only scripts/dev.ts', STAND_IN));
		const probe = await startProbe('npm', ['run', '-s', 'dev'], cwd);
		expect(probe.probePid).not.toBe(probe.child.pid);
		process.kill(probe.child.pid!, signal);
		const npmEnded = await probe.exited;
		// npm waited for it: by the time npm is gone, the node process has said why and ended
		expect(probe.output()).toContain(`stopping: ${signal}`);
		expect(alive(probe.probePid)).toBe(false);
		expect(npmEnded).toEqual({ code: 0, signal: null });
	});

	it('without exec (npm → sh → node), SIGTERM to npm kills only the shell: the node process stops because its parent went away', async () => {
		const cwd = packageWithDevScript(STAND_IN);
		const probe = await startProbe('npm', ['run', '-s', 'dev'], cwd);
		process.kill(probe.child.pid!, 'SIGTERM');
		await probe.exited;
		await pollFor('the stand-in to stop', 10_000, async () => (alive(probe.probePid) ? undefined : true), async () => probe.output(), 50);
		expect(probe.output()).toMatch(/stopping: its parent process \(\d+\) ended/);
	});

	it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s to the node process itself stops it, naming the signal', async (signal) => {
		const probe = await startProbe(process.execPath, ['-r', TS_NODE, FIXTURE], ROOT);
		expect(probe.probePid).toBe(probe.child.pid);
		process.kill(probe.probePid, signal);
		expect((await probe.exited).code).toBe(0);
		expect(probe.output()).toContain(`stopping: ${signal}`);
	});
});
