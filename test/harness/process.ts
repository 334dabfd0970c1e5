/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- starts and stops n8n processes and their temp folders (process, timers, child_process, fs, net, os, path); never shipped */
/**
 * Process control of the real-n8n harness: child processes and temp folders that never outlive the
 * run, one-shot commands (`runCommand`), long-running servers (`spawnServer`), loopback ports, and
 * the environment a child process gets.
 *
 * Every child process is spawned detached (its own process group; n8n's task runner
 * child shares it), tracked, and killed by process group when it is stopped or times
 * out. Last resorts: a process 'exit' hook (does not fire inside jest) and a detached
 * reaper process that cleans up when this process dies, even by SIGKILL (measured).
 * Only loopback addresses are used.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

import { TIMEOUTS } from './timeouts';

const TMP_PREFIX = 'n8n-exotel-e2e-';

/* ------------------------------------------------------------------ */
/* Process tracking, the reaper and the exit hook                       */
/* ------------------------------------------------------------------ */

/** Process-group ids (= pids of detached children) that may still be alive. */
const liveGroups = new Set<number>();
/** Temp dirs to remove if nobody disposes them. */
const liveTempDirs = new Set<string>();
let exitHookInstalled = false;

/**
 * Last resort, part 1: a process 'exit' hook. Measured: inside jest it never fires
 * (jest hands test files a sandboxed `process` object), so part 2 exists.
 */
function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on('exit', () => {
		for (const pgid of liveGroups) {
			try {
				process.kill(-pgid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
		liveGroups.clear();
		for (const dir of liveTempDirs) {
			try {
				fs.rmSync(dir, { recursive: true, force: true });
			} catch {
				// best effort
			}
		}
	});
}

/**
 * Last resort, part 2: a small detached "reaper" process that is told over its stdin
 * which process groups and temp dirs are live. When its stdin closes (this process
 * exited, crashed, or was killed, even with SIGKILL) it SIGTERMs, then SIGKILLs the
 * groups still registered and removes the dirs. It runs only while something is
 * registered, and ends quietly once everything was cleaned up normally.
 */
const REAPER_JS = `
const fs = require('fs');
const groups = new Set(), dirs = new Set();
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
	buf += d;
	let i;
	while ((i = buf.indexOf('\\n')) >= 0) {
		const line = buf.slice(0, i); buf = buf.slice(i + 1);
		const op = line.slice(0, 2), arg = line.slice(3);
		if (op === '+g') groups.add(Number(arg)); else if (op === '-g') groups.delete(Number(arg));
		else if (op === '+d') dirs.add(arg); else if (op === '-d') dirs.delete(arg);
	}
});
let reaping = false;
const reap = () => {
	if (reaping) return; reaping = true;
	for (const g of groups) { try { process.kill(-g, 'SIGTERM'); } catch {} }
	setTimeout(() => {
		for (const g of groups) { try { process.kill(-g, 'SIGKILL'); } catch {} }
		for (const d of dirs) { try { fs.rmSync(d, { recursive: true, force: true }); } catch {} }
		process.exit(0);
	}, groups.size ? 3000 : 0);
};
process.stdin.on('end', reap);
process.stdin.on('error', reap);
`;

let reaper: ChildProcess | undefined;

function reaperSend(line: string): void {
	if (!reaper) {
		if (line.startsWith('-')) return;
		const child = spawn(process.execPath, ['-e', REAPER_JS], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
		child.stdin!.on('error', () => {
			if (reaper === child) reaper = undefined;
		});
		child.on('exit', () => {
			if (reaper === child) reaper = undefined;
		});
		child.unref();
		(child.stdin as unknown as { unref?: () => void }).unref?.();
		reaper = child;
		// re-register what is live (in case a previous reaper died)
		for (const g of liveGroups) child.stdin!.write(`+g ${g}\n`);
		for (const d of liveTempDirs) child.stdin!.write(`+d ${d}\n`);
	}
	reaper.stdin!.write(`${line}\n`);
	if (liveGroups.size === 0 && liveTempDirs.size === 0) {
		reaper.stdin!.end(); // nothing left to guard: let it exit
		reaper = undefined;
	}
}

export function trackGroup(pgid: number): void {
	installExitHook();
	liveGroups.add(pgid);
	reaperSend(`+g ${pgid}`);
}

export function untrackGroup(pgid: number): void {
	if (!liveGroups.delete(pgid)) return;
	reaperSend(`-g ${pgid}`);
}

function trackDir(dir: string): void {
	installExitHook();
	liveTempDirs.add(dir);
	reaperSend(`+d ${dir}`);
}

function untrackDir(dir: string): void {
	if (!liveTempDirs.delete(dir)) return;
	reaperSend(`-d ${dir}`);
}

/** Makes a temp dir (`<os.tmpdir()>/n8n-exotel-e2e-<prefix>XXXXXX`) that is removed even if the run dies; remove it with `removeTempDir`. */
export async function makeTempDir(prefix = ''): Promise<string> {
	const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `${TMP_PREFIX}${prefix}`));
	trackDir(dir);
	return dir;
}

/** Removes a temp dir made by this module (e.g. `path.dirname(await packPackage())`). */
export async function removeTempDir(dir: string): Promise<void> {
	await fsp.rm(dir, { recursive: true, force: true });
	untrackDir(dir);
}

/** True if any process of the group still exists (signal 0 probes without killing). */
export function processGroupAlive(pgid: number): boolean {
	return pidAlive(-pgid);
}

/** True if the process exists (signal 0 probes without killing; a negative pid probes its group). */
export function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for `promise` or `ms`, whichever comes first, without leaving a timer behind. */
async function raceTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	try {
		await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
	} finally {
		clearTimeout(timer);
	}
}

async function waitUntil(predicate: () => boolean, timeoutMs: number, intervalMs = 100): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (predicate()) return true;
		await sleep(intervalMs);
	}
	return predicate();
}

/** SIGKILL the whole group and wait (bounded) until it is empty. */
export async function killGroup(pgid: number): Promise<void> {
	try {
		process.kill(-pgid, 'SIGKILL');
	} catch {
		// nothing left
	}
	if (await waitUntil(() => !processGroupAlive(pgid), TIMEOUTS.killWait)) {
		untrackGroup(pgid);
		return;
	}
	// Slow to go on a busy machine: forget it once it is gone, so that the reaper never signals the
	// group's id after the system has handed it to another process.
	const poll = setInterval(() => {
		if (processGroupAlive(pgid)) return;
		clearInterval(poll);
		untrackGroup(pgid);
	}, 500);
	poll.unref();
}

/** The last `chars` characters of `text`, marked with `…` where they were cut. */
function tailOf(text: string, chars: number): string {
	return text.length > chars ? `…${text.slice(text.length - chars)}` : text;
}

/** Keeps the last `max` characters of a stream of text. */
class OutputTail {
	private text = '';

	constructor(private readonly max = 256 * 1024) {}

	append(chunk: string): void {
		this.text += chunk;
		if (this.text.length > this.max) this.text = this.text.slice(this.text.length - this.max);
	}

	get value(): string {
		return this.text;
	}

	tail(chars = 6000): string {
		return tailOf(this.text, chars);
	}
}

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	durationMs: number;
}

interface RunOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	timeoutMs: number;
	/** Also append all output to this file. */
	logFile?: string;
	/** Told the child's pid (= its process group) once it runs, e.g. to see what it is doing. */
	onSpawn?: (pid: number) => void;
}

/**
 * Spawns `command` detached (its own process group, tracked by the reaper) with its output piped;
 * throws, naming it `name`, when it cannot start.
 */
async function spawnTracked(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, name: string) {
	installExitHook();
	const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const pid = child.pid;
	if (pid === undefined) {
		// spawn failed synchronously (ENOENT etc.): the 'error' event explains it.
		const error = await new Promise<Error>((resolve) => child.once('error', resolve));
		throw new Error(`Could not start ${name}: ${error.message}`);
	}
	trackGroup(pid);
	return { child, pid };
}

/**
 * Runs a command detached (own process group), collects its output, kills the whole
 * group on timeout, and sweeps the group after the main process exits (n8n's task
 * runner is a child of the CLI process).
 */
export async function runCommand(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
	const started = Date.now();
	const { child, pid } = await spawnTracked(command, args, opts, command);
	opts.onSpawn?.(pid);
	let stdout = '';
	let stderr = '';
	const log = opts.logFile ? fs.createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
	log?.write(`\n$ ${command} ${args.join(' ')}   (cwd ${opts.cwd}, ${new Date().toISOString()})\n`);
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		stdout += chunk;
		log?.write(chunk);
	});
	child.stderr.on('data', (chunk: string) => {
		stderr += chunk;
		log?.write(chunk);
	});
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// gone
		}
	}, opts.timeoutMs);
	const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
		child.once('exit', (c, s) => resolve([c, s]));
		child.once('error', () => resolve([null, null]));
	});
	clearTimeout(timer);
	// Whatever the main process left behind (e.g. a task runner) goes now.
	await killGroup(pid);
	// Drain the pipes (bounded: a grandchild could have inherited them).
	await raceTimeout(
		new Promise<void>((resolve) => (child.stdout.readableEnded ? resolve() : child.stdout.once('close', () => resolve()))),
		2000,
	);
	await new Promise<void>((resolve) => (log ? log.end(() => resolve()) : resolve()));
	return { code, signal, stdout, stderr, timedOut, durationMs: Date.now() - started };
}

export function describeRun(what: string, r: RunResult): string {
	const tail = (s: string) => tailOf(s, 6000);
	return (
		`${what} ${r.timedOut ? 'timed out' : `failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ''})`} after ${r.durationMs} ms\n` +
		`--- stdout (tail) ---\n${tail(r.stdout)}\n--- stderr (tail) ---\n${tail(r.stderr)}`
	);
}

/* ------------------------------------------------------------------ */
/* Environment                                                          */
/* ------------------------------------------------------------------ */

/** Parent variables that configure n8n (or npm's view of the project) and must not leak in. */
const N8N_RELATED_ENV = /^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|WEBHOOK_TUNNEL_URL$|NODES_|NODE_FUNCTION_ALLOW_|CREDENTIALS_|WORKFLOWS_|EXTERNAL_|GENERIC_TIMEZONE$|VUE_APP_|E2E_TESTS$|NODE_ENV$)/i;
/** Variables `npm test` exports about THIS project; a nested npm in another folder must not see them. */
const NPM_PROJECT_ENV = /^(npm_package_|npm_lifecycle_|npm_command$|npm_config_local_prefix$|INIT_CWD$)/i;

function withLoopbackNoProxy(env: NodeJS.ProcessEnv): void {
	for (const key of ['NO_PROXY', 'no_proxy']) {
		const current = env[key] ? `${env[key]},` : '';
		env[key] = `${current}127.0.0.1,localhost,::1`;
	}
}

/** This process's environment without what configures n8n or npm's view of this project, loopback never proxied. */
export function baseEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (N8N_RELATED_ENV.test(key) || NPM_PROJECT_ENV.test(key)) continue;
		env[key] = value;
	}
	withLoopbackNoProxy(env);
	return env;
}

/** Environment for npm (installing n8n, packing, installing the tarball). */
export function npmEnv(): NodeJS.ProcessEnv {
	return baseEnv();
}

/* ------------------------------------------------------------------ */
/* Ports and long-running servers                                       */
/* ------------------------------------------------------------------ */

export async function freePort(): Promise<number> {
	return await new Promise<number>((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** One long-running server in its own process group: n8n (`start`, `worker`, `webhook`), Redis, PostgreSQL. */
export interface ServerProcess {
	pid: number;
	output: OutputTail;
	exited: Promise<void>;
	hasExited: () => boolean;
	logFile?: string;
	/** The output so far (tail). */
	log: (chars?: number) => string;
	/** `stopSignal`, SIGKILL after the grace period, then SIGKILL whatever is left of the group. */
	stop: () => Promise<void>;
}

export interface SpawnServerOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Text in stdout or stderr that says the server is ready. */
	ready: string | RegExp;
	/** Where to copy the output, if anywhere. */
	logFile?: string;
	/** Default SIGTERM to the process; PostgreSQL's fast shutdown is SIGINT. */
	stopSignal?: NodeJS.Signals;
	/** Signal the whole group (a server behind `runuser`) rather than the process. */
	signalGroup?: boolean;
}

/** Spawns `command` detached, tracked by the reaper, and resolves once its output shows `ready`. */
export async function spawnServer(command: string, args: string[], opts: SpawnServerOptions): Promise<ServerProcess> {
	const name = `${path.basename(command)} ${args.join(' ')}`.slice(0, 200);
	const { child, pid } = await spawnTracked(command, args, opts, name);
	const log = opts.logFile ? fs.createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
	const output = new OutputTail();
	let exited = false;
	let exitInfo = '';
	const exitedPromise = new Promise<void>((resolve) => {
		child.once('exit', (code, signal) => {
			exited = true;
			exitInfo = `exit ${code}${signal ? `, ${signal}` : ''}`;
			resolve();
		});
	});
	let ready = false;
	let seen = '';
	const onChunk = (chunk: string) => {
		output.append(chunk);
		log?.write(chunk);
		if (!ready) {
			seen += chunk;
			ready = typeof opts.ready === 'string' ? seen.includes(opts.ready) : opts.ready.test(seen);
			if (ready) seen = '';
		}
	};
	child.stdout.setEncoding('utf8').on('data', onChunk);
	child.stderr.setEncoding('utf8').on('data', onChunk);
	child.once('exit', () => log?.end());
	const server: ServerProcess = {
		pid,
		output,
		exited: exitedPromise,
		hasExited: () => exited,
		logFile: opts.logFile,
		log: (chars = 20_000) => output.tail(chars),
		stop: async () => {
			if (!exited) {
				try {
					process.kill(opts.signalGroup ? -pid : pid, opts.stopSignal ?? 'SIGTERM');
				} catch {
					// already gone
				}
				await raceTimeout(exitedPromise, TIMEOUTS.stopGrace);
			}
			await killGroup(pid);
			await raceTimeout(exitedPromise, TIMEOUTS.killWait);
			if (processGroupAlive(pid)) throw new Error(`process group ${pid} (${name}) survived SIGKILL`);
		},
	};

	const isReady = await waitUntil(() => ready || exited, TIMEOUTS.start, 100);
	if (!ready || !isReady) {
		const why = exited ? `${name} exited early (${exitInfo})` : `${name} not ready after ${TIMEOUTS.start} ms`;
		await server.stop();
		throw new Error(`${why}${opts.logFile ? `; log ${opts.logFile}` : ''}\n--- output (tail) ---\n${output.tail(8000)}`);
	}
	return server;
}

/**
 * A server another process of this run started (the stage's shared n8n, started by jest's
 * globalSetup): known by its pid and log file only. `stop` ends its process group as
 * `spawnServer`'s does; the log is read from the file.
 */
export function adoptServer(pid: number, logFile: string): ServerProcess {
	const hasExited = () => !pidAlive(pid);
	const log = (chars = 20_000) => {
		try {
			return tailOf(fs.readFileSync(logFile, 'utf8'), chars);
		} catch {
			return '';
		}
	};
	return {
		pid,
		// what it printed is in the file (`log`), not in a tail of this process's own
		output: new OutputTail(),
		// only read by callers that spawned the server themselves; never left polling here
		exited: Promise.resolve(),
		hasExited,
		logFile,
		log,
		stop: async () => {
			if (!hasExited()) {
				try {
					process.kill(pid, 'SIGTERM');
				} catch {
					// already gone
				}
				await waitUntil(hasExited, TIMEOUTS.stopGrace, 100);
			}
			await killGroup(pid);
			if (processGroupAlive(pid)) throw new Error(`process group ${pid} (adopted server) survived SIGKILL`);
		},
	};
}
