/**
 * `npm run dev`: the sandbox, and the cached n8n 2.8.4 on http://127.0.0.1:5678 with this package
 * installed the way users get it (packed tarball), sandbox credentials and the example workflows
 * imported. Sources are watched: a change rebuilds, reinstalls and restarts n8n. Ctrl-C stops all.
 *
 * The sandbox's account rate limit, as for `npm run sandbox`: `npm run dev -- --rate-limit 50/15000
 * [--retry-after]`, or env SANDBOX_RATE_LIMIT=50/15000 (and SANDBOX_RETRY_AFTER=1).
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import path from 'path';

import { N8nInstance, packPackage, REPO_ROOT } from '../test/e2e/n8n';
import { describeRateLimit, parseRateLimitOptions } from '../test/sandbox/cli';
import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../test/sandbox/fixtures';
import { ExotelSandbox } from '../test/sandbox/server';

const N8N_PORT = Number(process.env.N8N_DEV_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4010);
const USER_FOLDER = path.join(REPO_ROOT, '.dev', 'n8n');

function log(message: string) {
	process.stdout.write(`[dev] ${message}\n`);
}

function build() {
	execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

async function main() {
	let rateLimit: ReturnType<typeof parseRateLimitOptions>;
	try {
		rateLimit = parseRateLimitOptions(process.argv.slice(2), process.env);
	} catch (error) {
		// before the build: a typo should not cost a build and an n8n start
		process.stderr.write(`[dev] ${(error as Error).message}\n`);
		process.exit(2);
	}
	build();
	const sandbox = new ExotelSandbox({ port: SANDBOX_PORT, rateLimit });
	await sandbox.start();
	log(`sandbox on ${sandbox.origin}`);
	if (rateLimit) log(`sandbox account rate limit: ${describeRateLimit(rateLimit)} (429 beyond it)`);

	let tarball = await packPackage();
	const instance = await N8nInstance.create({ tarball, userFolder: USER_FOLDER, port: N8N_PORT });
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await instance.importCredentials(
		Object.entries(data).map(([type, fields]) => ({ ...CREDENTIAL_IDS[type], type, data: fields })),
	);
	const examplesDir = path.join(REPO_ROOT, 'examples');
	const examples = fs
		.readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.map((file) => JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8')) as object);
	await instance.importWorkflows(examples);
	log(`imported ${examples.length} example workflow(s) and the sandbox credentials`);

	await instance.start();
	await instance.ensureOwnerSession();
	const owner = N8nInstance.OWNER;
	log(`n8n is ready: ${instance.baseUrl}`);
	log(`log in as ${owner.email} / ${owner.password}`);
	log('editing nodes/, credentials/ or icons/ rebuilds and restarts n8n; Ctrl-C stops everything');

	let pending: NodeJS.Timeout | undefined;
	let rebuilding = Promise.resolve();
	const rebuild = () => {
		rebuilding = rebuilding.then(async () => {
			try {
				build();
				tarball = await packPackage();
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

main().catch((error) => {
	process.stderr.write(`[dev] ${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
