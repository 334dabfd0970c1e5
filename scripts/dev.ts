/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- starts n8n and the sandbox as processes and reads their files (process, timers, __dirname, child_process spawn, fs, os, path); never shipped */
/**
 * `npm run dev`: the sandbox, and a cached n8n on http://127.0.0.1:5678 with this package installed
 * the way users get it (packed tarball), sandbox credentials and the example workflows imported.
 * Sources are watched: a change rebuilds, reinstalls and restarts n8n. Ctrl-C, or SIGINT or SIGTERM
 * to the `npm run dev` process, stops all, and npm returns once all is stopped (the script `exec`s,
 * so npm passes its signals to this process; dev-stop.ts also stops it when its parent goes away).
 *
 * Which n8n: `npm run dev -- --n8n newest` (or `latest`) or `--n8n 2.8.4`; without the flag the
 * newest when it is installed (test/harness/targets.ts), 2.8.4 otherwise. Each has its own user
 * folder (.dev/n8n for 2.8.4, .dev/n8n-newest: a database the newest migrated cannot go back to
 * 2.8.4), kept between runs with the user's edits: credentials and examples are imported only when
 * missing, and an example that starts from a webhook is published once, on its first import
 * (dev-setup.ts). The sandbox keeps what it sent and its calls in .dev/sandbox-state.json, so a
 * person still answers an execution that waited through a restart.
 *
 * The banner lists each example's webhook with a ready curl and what to run next (dev-examples.ts),
 * e.g. how to answer a waiting send-and-wait execution as the person it asked, from a terminal:
 * `npm run person` (scripts/person.ts) or the same request with curl to the sandbox's control API.
 *
 * The sandbox's account rate limit, as for `npm run sandbox`: the service's documented limits with
 * `npm run dev -- --rate-limit documented [--time-factor N] [--no-rate-limit-headers] [--sms-503]`,
 * or one sliding window `--rate-limit 50/15000 [--retry-after]` (env SANDBOX_RATE_LIMIT alike).
 * `--dlt-template ID=TEXT` (repeatable) gives the sandbox DLT templates, as for `npm run sandbox`.
 * `--live` starts the sandbox in live mode (it answers as the live service's recorded traffic shows:
 * sandbox/README.md, "Live mode"); the banner says so.
 * `--human-review`: an AI agent's human review without an account or a model key, on the newest n8n
 * (it refuses `--n8n 2.8.4`): the scripted model (scripts/scripted-model.ts) on loopback, an OpenAI
 * credential pointing at it, and the examples of examples/newest-n8n/ imported and published
 * (scripts/dev-human-review.ts). Without it no scripted model runs and those examples are not imported.
 * Ports: env N8N_DEV_PORT (5678), SANDBOX_PORT (4010) and SCRIPTED_MODEL_PORT (4011).
 */
import { spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

import { LIVE_MODE_BANNER, parseDltTemplateOptions, parseLiveOption, parseRateLimitOptions, rateLimitBanner } from '../sandbox/cli';
import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../sandbox/fixtures';
import { ExotelSandbox } from '../sandbox/server';
import { setHarnessLog } from '../test/harness/log';
import { isInstalled, publishesAsynchronously, targetCacheDir, type N8nTargetName } from '../test/harness/targets';
import { exampleBanner, exampleWebhooks, HUMAN_REVIEW_EXAMPLE_ID, readExamples } from './dev-examples';
import { createDevLog } from './dev-log';
import { devChoice, humanReviewBanner, humanReviewExamples, humanReviewNote, scriptedModelCredential } from './dev-human-review';
import { activeWorkflowIds, devStateFile, importBeforeStart, publishAfterStart, readDevState } from './dev-setup';
import { onStopRequest } from './dev-stop';
import { personHelp } from './person';
import { ScriptedModel, scriptedModelPort } from './scripted-model';

const N8N_PORT = Number(process.env.N8N_DEV_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 4010);
const REPO_ROOT = path.resolve(__dirname, '..');
const DEV_DIR = path.join(REPO_ROOT, '.dev');
const userFolderOf = (target: N8nTargetName) => path.join(DEV_DIR, target === 'newest' ? 'n8n-newest' : 'n8n');
export const SANDBOX_STATE_FILE = path.join(DEV_DIR, 'sandbox-state.json');
/** What the banner leaves out: each example's URLs, curl and next steps, and how to answer as the person. */
export const TRY_IT_FILE = path.join(DEV_DIR, 'try-it.txt');
/** The example the banner offers first: the plainest send (with --human-review, the agent's). */
const FIRST_TRY_PATH = 'order-shipped';

/** `~/.cache/...` rather than the home folder's full path. */
const home = (file: string) => (file.startsWith(os.homedir() + path.sep) ? `~${file.slice(os.homedir().length)}` : file);

const log = createDevLog((text) => process.stdout.write(text));

/** Set once a stop was asked for: what fails after it (n8n killed mid-step) is not an error. */
let stopping = false;
/** Undone in reverse order when asked to stop, whatever the start had reached. */
const cleanups: Array<{ what: string; run: () => Promise<void> | void }> = [];

async function stopAll(reason: string, exitCode = 0): Promise<never> {
	log.line(`stopping (${reason}); Ctrl-C again stops at once`);
	for (const cleanup of cleanups.reverse()) {
		try {
			await cleanup.run();
		} catch (error) {
			log.line(`while stopping ${cleanup.what}: ${(error as Error).message.split('\n')[0]}`);
		}
	}
	log.line('stopped');
	// the harness's exit hook kills what a step left running (an npm install, an n8n CLI call)
	process.exit(exitCode);
}

/** `npm run -s build`, its output shown; rejects when it fails. Stopped with the rest. */
function build(): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
		const cleanup = { what: 'the build', run: () => void child.kill('SIGTERM') };
		cleanups.push(cleanup);
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			cleanups.splice(cleanups.indexOf(cleanup), 1);
			if (code === 0) resolve();
			else reject(new Error(`npm run build failed (${signal ?? `exit ${code}`})`));
		});
	});
}

async function main() {
	let rateLimit: ReturnType<typeof parseRateLimitOptions>;
	let target: N8nTargetName;
	let live: boolean;
	let humanReview: boolean;
	let modelPort: number;
	try {
		rateLimit = parseRateLimitOptions(process.argv.slice(2), process.env);
		live = parseLiveOption(process.argv.slice(2));
		({ target, humanReview } = devChoice(process.argv.slice(2), process.env));
		modelPort = scriptedModelPort(process.env);
	} catch (error) {
		// before the build: a typo should not cost a build and an n8n start
		process.stderr.write(`[dev] ${(error as Error).message}\n`);
		process.exit(2);
	}
	// from the first moment: a Ctrl-C during a cold install stops it too
	let firstRequest = 0;
	onStopRequest((reason) => {
		if (!stopping) {
			stopping = true;
			firstRequest = Date.now();
			void stopAll(reason);
		} else if (reason.startsWith('SIG') && Date.now() - firstRequest > 1000) {
			// a Ctrl-C reaches this process twice at once (from the terminal, and passed on by npm): only a later one is a second
			log.line('stopping at once');
			process.exit(1);
		}
	});
	// the harness says what it does in dev's log, not in the tests' `[n8n-e2e]` lines
	setHarnessLog((text) => log.line(text));
	// The harness reads its release from the environment when it loads.
	process.env.N8N_E2E_TARGET = target;
	const { N8nInstance, packPackage, ensureN8n, INSTALL_SIZE } = await import('../test/harness');

	await log.step('building the package', build);
	const dltTemplates = parseDltTemplateOptions(process.argv.slice(2));
	const sandbox = new ExotelSandbox({ port: SANDBOX_PORT, rateLimit, stateFile: SANDBOX_STATE_FILE, dltTemplates, live });
	await sandbox.start();
	cleanups.push({ what: 'the sandbox', run: () => sandbox.stop() });
	log.line(`sandbox on ${sandbox.origin}`);
	const sent = sandbox.messages().length + sandbox.rcsMessages().length + sandbox.chatAppMessages().length;
	log.line(`sandbox: ${sent} message(s) kept from earlier runs; records since ${new Date(sandbox.records.since).toISOString()} (${sandbox.records.why})`);
	if (live) log.line(`sandbox: ${LIVE_MODE_BANNER}`);
	if (rateLimit) log.line(`sandbox account rate limit: ${rateLimitBanner(rateLimit)}`);
	for (const [id, text] of Object.entries(dltTemplates)) log.line(`sandbox DLT template ${id}: ${JSON.stringify(text)} (an SMS sent with it that differs fails with 23185)`);
	let model: ScriptedModel | undefined;
	if (humanReview) {
		model = new ScriptedModel(modelPort);
		await model.start().catch((error: Error) => {
			throw new Error(`the scripted model cannot listen on 127.0.0.1:${modelPort} (${error.message}): set SCRIPTED_MODEL_PORT to a free port`);
		});
		const started = model;
		cleanups.push({ what: 'the scripted model', run: () => started.stop() });
		log.line(`scripted model on ${model.origin}/v1 and its refund endpoint ${model.origin}/refund (--human-review)`);
	}

	let tarball = await log.step('packing the package', () => packPackage());
	const cached = isInstalled(target);
	if (!cached) {
		log.line(
			`n8n ${target} is not installed yet: installing it once into ${home(targetCacheDir(target))} ` +
				`(about ${INSTALL_SIZE[target]} on disk${target === 'newest' ? ', and 0.2 GB for its Node 24; up to 17 minutes' : '; about 5 minutes'})`,
		);
	}
	const n8n = await log.step(cached ? `checking the cached n8n ${target}` : `installing n8n ${target}`, () => ensureN8n());
	const other = humanReview
		? '--human-review runs on the newest'
		: target === 'newest'
			? '`npm run dev -- --n8n 2.8.4` starts 2.8.4, `--human-review` adds an AI agent with human review'
			: '`npm run dev -- --n8n newest` starts the newest, `--human-review` an AI agent with human review on it';
	log.line(`n8n ${n8n.version} on Node ${n8n.node === process.execPath ? process.version : `24 (${n8n.node})`}; ${other}`);
	const instance = await log.step('installing the packed package', () =>
		N8nInstance.create({ tarball, userFolder: userFolderOf(target), port: N8N_PORT, apiKeyLabel: 'npm run dev' }),
	);
	cleanups.push({ what: 'n8n', run: () => instance.dispose() });

	const data = sandboxCredentialData(sandbox.origin, { live }) as Record<string, Record<string, unknown>>;
	const credentials = Object.entries(data).map(([type, fields]) => ({ ...CREDENTIAL_IDS[type], type, data: fields }));
	// the examples of examples/newest-n8n/ only for --human-review: they need its scripted model, and 2.8.4 cannot run them
	const examples = [...readExamples(), ...(model ? humanReviewExamples(model.origin) : [])];
	const scriptedModel = model ? { credential: scriptedModelCredential(model.origin), origin: model.origin } : undefined;
	const before = await log.step('importing the sandbox credentials and example workflows that are missing', () =>
		importBeforeStart(instance, { credentials, examples, sandboxOrigin: sandbox.origin, live, scriptedModel }),
	);
	log.line(`sandbox credentials: ${before.credentials.imported.length} imported, ${before.credentials.kept.length} already there and left as they are`);
	if (before.scriptedModel) log.line(`scripted-model credential: ${before.scriptedModel.imported ? 'imported' : 'already there and left as it is'}`);
	log.line(`example workflows: ${before.examples.imported.length} imported, ${before.examples.kept.length} already there and left as they are`);
	for (const note of [...before.notes, ...humanReviewNote(readDevState(devStateFile(instance.userFolder)).scriptedModelFor, humanReview)]) log.line(note);

	await log.step('starting n8n', async () => {
		await instance.start();
		await instance.ensureOwnerSession();
	});
	if (before.toPublish.length) {
		const { failed } = await log.step(`publishing the ${before.toPublish.length} example(s) just imported that start from a webhook`, () =>
			publishAfterStart(instance, before.toPublish),
		);
		for (const { id, error } of failed) log.line(`could not publish ${examples.find((example) => example.id === id)?.name ?? id}: ${error}; publish it in the editor`);
	}
	const webhooks = exampleWebhooks(examples, { n8n: instance.baseUrl, sandbox: sandbox.origin });
	const active = await activeWorkflowIds(
		instance,
		webhooks.map((hook) => hook.id),
	).catch(() => undefined);
	if (active?.size && publishesAsynchronously(n8n.version)) {
		// 2.41 registers published webhooks in the background: the banner's production URLs answer once this is done
		await log.step('waiting for n8n to register the published webhooks', () =>
			instance.waitForPublication([...active]).catch((error: Error) => log.line(`not all are registered: ${error.message.split('\n')[0]}`)),
		);
	}

	// Everything to try goes to a file; the terminal keeps a few lines, the address and login last, so
	// they stay on screen.
	const tryIt = [
		...exampleBanner(webhooks, active),
		...(model ? humanReviewBanner(model.origin) : []),
		...personHelp(sandbox.origin),
		`the sandbox keeps what it sent and its calls in ${path.relative(REPO_ROOT, SANDBOX_STATE_FILE)}: a person still answers after a restart`,
	];
	fs.writeFileSync(TRY_IT_FILE, `${tryIt.join('\n')}\n`);
	const ready = readyBanner({
		version: n8n.version,
		baseUrl: instance.baseUrl,
		login: N8nInstance.OWNER,
		first: webhooks.find((hook) => (model ? hook.id === HUMAN_REVIEW_EXAMPLE_ID : hook.path === FIRST_TRY_PATH)) ?? webhooks[0],
		notes: [
			...(live ? [`the sandbox is in live mode (--live): ${sandbox.origin}/__sandbox/live turns it off with POST {"live": false}`] : []),
			...(model ? [humanReviewBanner(model.origin)[0]] : []),
		],
	});
	for (const line of ready) log.line(line);

	let pending: NodeJS.Timeout | undefined;
	let rebuilding = Promise.resolve();
	const rebuild = () => {
		rebuilding = rebuilding.then(async () => {
			if (stopping) return;
			try {
				log.line('a source changed: rebuilding');
				await build();
				tarball = await packPackage();
				log.line('reinstalling the package and restarting n8n');
				await instance.stop();
				await instance.installPackage(tarball);
				await instance.start();
				log.line(`rebuilt and restarted: ${instance.baseUrl}`);
			} catch (error) {
				if (!stopping) log.line(`rebuild failed: ${(error as Error).message}`);
			}
		});
	};
	const watchers = ['nodes', 'credentials', 'icons'].map((dir) =>
		fs.watch(path.join(REPO_ROOT, dir), { recursive: true }, () => {
			clearTimeout(pending);
			pending = setTimeout(rebuild, 400);
		}),
	);
	cleanups.push({
		what: 'the source watchers',
		run: () => {
			watchers.forEach((watcher) => watcher.close());
			clearTimeout(pending);
		},
	});
}

/**
 * The last lines of the start, short enough that the address and the login, printed last, stay on
 * screen: one example to try, where the rest is (TRY_IT_FILE), how to stop.
 */
export function readyBanner(input: {
	version: string;
	baseUrl: string;
	login: { email: string; password: string };
	first?: { name: string; curl: string };
	notes?: string[];
}): string[] {
	return [
		...(input.notes ?? []),
		...(input.first ? [`try "${input.first.name}": ${input.first.curl}`] : []),
		`every example's webhook URLs, a ready curl each, and how to answer as the person: cat ${path.relative(REPO_ROOT, TRY_IT_FILE)}`,
		'editing nodes/, credentials/ or icons/ rebuilds and restarts n8n; Ctrl-C stops everything',
		`n8n ${input.version} is ready: ${input.baseUrl}  (log in as ${input.login.email} / ${input.login.password})`,
	];
}

// run as `npm run dev`; imported, it starts nothing
if (require.main === module) {
	main().catch((error) => {
		if (stopping) return; // a step cut short by the stop
		process.stderr.write(`[dev] ${(error as Error).stack ?? String(error)}\n`);
		// what started so far goes too
		stopping = true;
		void stopAll('the start failed', 1);
	});
}
