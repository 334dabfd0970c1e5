/**
 * `npm run dev`: the sandbox, and a cached n8n on http://127.0.0.1:5678 with this package installed
 * the way users get it (packed tarball), sandbox credentials and the example workflows imported.
 * Sources are watched: a change rebuilds, reinstalls and restarts n8n. Ctrl-C stops all.
 *
 * Which n8n: `npm run dev -- --n8n newest` or `--n8n 2.8.4`; without the flag the newest when it is
 * installed (test/harness/targets.ts), 2.8.4 otherwise. Each has its own user folder (.dev/n8n for
 * 2.8.4, .dev/n8n-newest: a database the newest migrated cannot go back to 2.8.4), kept between
 * runs with the user's edits: an example is imported only when no workflow with its id exists,
 * never over one (see importMissingExamples).
 *
 * The banner says how to answer a waiting send-and-wait execution as the person it asked, from a
 * terminal: `npm run person` (scripts/person.ts) or the same request with curl to the sandbox's
 * control API.
 *
 * The sandbox's account rate limit, as for `npm run sandbox`: the service's documented limits with
 * `npm run dev -- --rate-limit documented [--time-factor N] [--no-rate-limit-headers] [--sms-503]`,
 * or one sliding window `--rate-limit 50/15000 [--retry-after]` (env SANDBOX_RATE_LIMIT alike).
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';

import type { N8nInstance } from '../test/harness';
import { devTarget, type N8nTargetName } from '../test/harness/targets';
import { parseRateLimitOptions, rateLimitBanner } from '../sandbox/cli';
import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../sandbox/fixtures';
import { ExotelSandbox } from '../sandbox/server';
import { personHelp } from './person';

const N8N_PORT = Number(process.env.N8N_DEV_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4010);
const REPO_ROOT = path.resolve(__dirname, '..');
const userFolderOf = (target: N8nTargetName) => path.join(REPO_ROOT, '.dev', target === 'newest' ? 'n8n-newest' : 'n8n');

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

function log(message: string) {
	process.stdout.write(`[dev] ${message}\n`);
}

/** Runs one step of the start, saying what it does and, once done, how long it took. */
async function step<T>(what: string, work: () => Promise<T> | T): Promise<T> {
	const started = Date.now();
	log(`${what}...`);
	const result = await work();
	log(`${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return result;
}

function build() {
	execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** The example workflows of examples/, each with its fixed id. */
export function readExamples(dir: string = EXAMPLES_DIR): Array<{ id: string; name: string }> {
	return fs
		.readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { id: string; name: string });
}

/**
 * Imports the examples the instance does not hold yet (matched by workflow id) and leaves the others
 * alone, so renames and other edits made in the editor survive a restart. Returns what it did.
 */
export async function importMissingExamples(
	instance: Pick<N8nInstance, 'listWorkflows' | 'importWorkflows'>,
	examples: Array<{ id: string; name: string }> = readExamples(),
): Promise<{ imported: string[]; kept: string[] }> {
	const present = new Set((await instance.listWorkflows()).map((workflow) => workflow.id));
	const missing = examples.filter((example) => !present.has(example.id));
	if (missing.length > 0) await instance.importWorkflows(missing);
	return {
		imported: missing.map((example) => example.id),
		kept: examples.filter((example) => present.has(example.id)).map((example) => example.id),
	};
}

async function main() {
	let rateLimit: ReturnType<typeof parseRateLimitOptions>;
	let target: N8nTargetName;
	try {
		rateLimit = parseRateLimitOptions(process.argv.slice(2), process.env);
		target = devTarget(process.argv.slice(2), process.env);
	} catch (error) {
		// before the build: a typo should not cost a build and an n8n start
		process.stderr.write(`[dev] ${(error as Error).message}\n`);
		process.exit(2);
	}
	// The harness reads its release from the environment when it loads.
	process.env.N8N_E2E_TARGET = target;
	const { N8nInstance, packPackage, ensureN8n } = await import('../test/harness');
	await step('building the package', build);
	const sandbox = new ExotelSandbox({ port: SANDBOX_PORT, rateLimit });
	await sandbox.start();
	log(`sandbox on ${sandbox.origin}`);
	if (rateLimit) log(`sandbox account rate limit: ${rateLimitBanner(rateLimit)}`);

	let tarball = await step('packing the package', () => packPackage());
	const n8n = await step(
		target === 'newest'
			? 'finding and installing the newest n8n and its Node 24 if not cached (up to 17 minutes the first time)'
			: 'installing n8n 2.8.4 if not cached (minutes the first time)',
		() => ensureN8n(),
	);
	log(`n8n ${n8n.version} on Node ${n8n.node === process.execPath ? process.version : `24 (${n8n.node})`}${target === 'newest' ? '' : '; `npm run dev -- --n8n newest` starts the newest'}`);
	const instance = await step('installing the packed package', () =>
		N8nInstance.create({ tarball, userFolder: userFolderOf(target), port: N8N_PORT }),
	);
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await step('importing the sandbox credentials', () =>
		instance.importCredentials(Object.entries(data).map(([type, fields]) => ({ ...CREDENTIAL_IDS[type], type, data: fields }))),
	);
	const { imported, kept } = await step('importing the example workflows that are missing', () =>
		importMissingExamples(instance),
	);
	log(`example workflows: ${imported.length} imported, ${kept.length} already there and left as they are`);

	await step('starting n8n', async () => {
		await instance.start();
		await instance.ensureOwnerSession();
	});
	const owner = N8nInstance.OWNER;
	log(`n8n ${n8n.version} is ready: ${instance.baseUrl}`);
	log(`log in as ${owner.email} / ${owner.password}`);
	for (const line of personHelp(sandbox.origin)) log(line);
	log('editing nodes/, credentials/ or icons/ rebuilds and restarts n8n; Ctrl-C stops everything');

	let pending: NodeJS.Timeout | undefined;
	let rebuilding = Promise.resolve();
	const rebuild = () => {
		rebuilding = rebuilding.then(async () => {
			try {
				log('a source changed: rebuilding');
				build();
				tarball = await packPackage();
				log('reinstalling the package and restarting n8n');
				await instance.stop();
				await instance.installPackage(tarball);
				await instance.start();
				log(`rebuilt and restarted: ${instance.baseUrl}`);
			} catch (error) {
				log(`rebuild failed: ${(error as Error).message}`);
			}
		});
	};
	const watchers = ['nodes', 'credentials', 'icons'].map((dir) =>
		fs.watch(path.join(REPO_ROOT, dir), { recursive: true }, () => {
			clearTimeout(pending);
			pending = setTimeout(rebuild, 400);
		}),
	);

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		log('stopping');
		watchers.forEach((watcher) => watcher.close());
		clearTimeout(pending);
		await rebuilding;
		await instance.dispose();
		await sandbox.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

// run as `npm run dev`; imported (by the e2e test of importMissingExamples) it starts nothing
if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`[dev] ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	});
}
