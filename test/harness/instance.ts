/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- runs an n8n instance and talks to it (process, timers, fs, http, path); never shipped */
/**
 * One isolated, running n8n (`N8nInstance`): its own temp user folder, database, ports and install
 * of the packed package; its CLI (import, execute, publish), its processes (`start`, workers,
 * webhook processors) and its REST client (owner session, public API key, activation, executions,
 * test listens, publication waits).
 *
 * Jest sets NODE_ENV=test, and n8n refuses to load nodes then ("Not available in
 * tests"): n8n processes get NODE_ENV=production.
 */
import * as fsp from 'fs/promises';
import * as http from 'http';
import * as path from 'path';
import axios, { AxiosRequestConfig, AxiosResponse, Method } from 'axios';
import { ExecutionStatusList } from 'n8n-workflow';

import { ensureN8n, nodeEnv, npmInstallPackage, sharedPackage, type EnsureN8nResult } from './install';
import { harnessLog } from './log';
import {
	adoptServer,
	baseEnv,
	describeRun,
	freePort,
	makeTempDir,
	removeTempDir,
	runCommand,
	sleep,
	spawnServer,
	type RunResult,
	type ServerProcess,
} from './process';
import { executeOutcome, NATIVE_CRASH_SIGNALS, type ExecuteResult, type ListedExecution, type RunJson, type SavedExecution } from './results';
import { publishesAsynchronously, releaseEnv, webhookUrlVariable } from './targets';
import { budget, pollFor, TIMEOUTS } from './timeouts';
import { newWorkflowId, type CredentialSpec, type WorkflowJson } from './workflows';

/** n8n's answer while its database check fails (its middleware, before any route runs). */
function isDatabaseNotReady(res: AxiosResponse): boolean {
	return res.status === 503 && (res.data as { message?: unknown } | undefined)?.message === 'Database is not ready!';
}

const NO_KEEP_ALIVE = new http.Agent({ keepAlive: false });

/** Fixed so credentials imported by one process can be decrypted by the next. */
export const E2E_ENCRYPTION_KEY = 'n8n-nodes-exotel-e2e-dummy-fixed-encryption-key';

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
	/** The label of the public-API key this instance creates (n8n lists it under Settings); default `e2e <time>`. */
	apiKeyLabel?: string;
}

export type N8nProcess = ServerProcess;

/**
 * What a test file needs to reach the stage's shared n8n that jest's globalSetup started
 * (`N8nInstance.attach`): written to the file named by `N8N_E2E_SHARED`.
 */
export interface SharedInstanceState {
	userFolder: string;
	port: number;
	brokerPort: number;
	webhookBase: string;
	env: Record<string, string>;
	pid: number;
	logFile: string;
	/** The folder n8n may read and write files in (N8N_RESTRICT_FILE_ACCESS_TO). */
	filesDir: string;
	/**
	 * The owner's session and public-API key, made once by the stage: each test file attaching logs
	 * in no more (n8n rate-limits POST /rest/login; eight files logging in within a minute met its 429).
	 */
	cookie?: string;
	apiKey?: string;
}

/** A workflow as the public API answers it (`POST /api/v1/workflows/{id}/activate`, `.../deactivate`). */
export interface PublicWorkflow {
	id: string;
	name: string;
	active: boolean;
	[key: string]: unknown;
}

/** Whether two files hold the same bytes (a tarball is about 200 kB). */
async function sameBytes(a: string, b: string): Promise<boolean> {
	const [x, y] = await Promise.all([fsp.readFile(a), fsp.readFile(b)]);
	return x.equals(y);
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
	/** The state file of the stage's shared n8n this instance is attached to (`attach`). */
	private sharedStateFile?: string;
	/** Credentials created through the REST API: the id a spec named → the id n8n gave it. */
	private credentialIds = new Map<string, string>();
	/** Workflows this file activated on a shared n8n: deactivated when it detaches. */
	private activatedHere = new Set<string>();
	/** The folder n8n may read and write files in, when the instance was given one. */
	filesDir?: string;
	private apiKeyLabel?: string;

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
		instance.apiKeyLabel = opts.apiKeyLabel;
		instance.ownsUserFolder = !opts.userFolder;
		let installed = false;
		try {
			await instance.installPackage(opts.tarball);
			installed = true;
		} finally {
			if (!installed) await instance.dispose();
		}
		return instance;
	}

	/**
	 * The stage's shared n8n, started once by jest's globalSetup (test/harness/stage.ts) and described
	 * by the state file `N8N_E2E_SHARED` names: an instance that talks to the running server and
	 * never stops it or removes its folder on dispose (it deactivates what it activated). A test
	 * that restarts it writes the new server's pid back, so the teardown stops the right one.
	 */
	static async attach(stateFile: string): Promise<N8nInstance> {
		const state = JSON.parse(await fsp.readFile(stateFile, 'utf8')) as SharedInstanceState;
		const n8n = await ensureN8n();
		const instance = new N8nInstance(n8n, state.userFolder, { port: state.port, brokerPort: state.brokerPort }, state.env);
		instance.webhookBase = state.webhookBase;
		instance.ownsUserFolder = false;
		instance.sharedStateFile = stateFile;
		instance.filesDir = state.filesDir;
		instance.cookie = state.cookie;
		instance.apiKey = state.apiKey;
		instance.server = adoptServer(state.pid, state.logFile);
		if (!instance.running) throw new Error(`The stage's shared n8n (pid ${state.pid}) is not running; log ${state.logFile}\n${instance.serverLog(4000)}`);
		return instance;
	}

	/** What `attach` needs, for the state file of the stage's shared n8n. */
	sharedState(): SharedInstanceState {
		if (!this.server?.logFile) throw new Error('No running server to share (call start())');
		return {
			userFolder: this.userFolder,
			port: this.port,
			brokerPort: this.brokerPort,
			webhookBase: this.webhookBase,
			env: this.extraEnv,
			pid: this.server.pid,
			logFile: this.server.logFile,
			filesDir: this.filesDir ?? this.userFolder,
			cookie: this.cookie,
			apiKey: this.apiKey,
		};
	}

	/**
	 * `npm install --omit=peer <tarball>` in `<userFolder>/.n8n/nodes`, as users get it; the run's one tarball
	 * (`sharedPackage`) gets a copy of the folder its one install made, the same files.
	 */
	async installPackage(tarball: string): Promise<void> {
		const shared = sharedPackage();
		if (shared && (await sameBytes(tarball, shared.tarball))) {
			await fsp.cp(shared.installed, this.nodesDir, { recursive: true });
			return;
		}
		await npmInstallPackage(tarball, this.nodesDir, path.join(this.userFolder, 'npm-install.log'));
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

	/**
	 * Runs `node <n8n> ...args` with a fresh task-broker port (so it never clashes with a running
	 * server). The newest n8n on Node 24 sometimes dies of SIGSEGV as its CLI exits, after its work
	 * is done (measured: 4 of 30 `n8n execute` runs with three CPU burners beside, none of 25 on a
	 * quiet machine, none of 30 under the same load with N8N_EXPRESSION_ENGINE=legacy: it is the
	 * default `vm` expression engine, isolated-vm, going down with the process). Users run that
	 * default, so the tests keep it. The import, list and publish commands can simply run again;
	 * `execute` cannot (its sends would go twice) and reads the run it printed instead (`crashedOnExit`).
	 */
	async cli(args: string[], timeoutMs: number = TIMEOUTS.cli, opts: { runAgainOnCrash?: boolean } = {}): Promise<RunResult> {
		this.assertNotDisposed();
		for (let attempt = 1; ; attempt++) {
			const brokerPort = await freePort();
			this.cliCount++;
			const r = await runCommand(this.n8n.node, [this.n8n.bin, ...args], {
				cwd: this.userFolder,
				env: this.env({ N8N_RUNNERS_BROKER_PORT: String(brokerPort) }),
				timeoutMs,
				logFile: path.join(this.userFolder, 'cli.log'),
			});
			if (!r.signal || !NATIVE_CRASH_SIGNALS.has(r.signal) || opts.runAgainOnCrash === false || attempt === 3) return r;
			harnessLog(`n8n ${args[0]} died of ${r.signal} as it exited (n8n ${this.n8n.version}); running it again`);
		}
	}

	private async writeTempJson(prefix: string, data: unknown): Promise<string> {
		const dir = path.join(this.userFolder, 'imports');
		await fsp.mkdir(dir, { recursive: true });
		const file = path.join(dir, `${prefix}-${Date.now()}-${this.cliCount}.json`);
		await fsp.writeFile(file, JSON.stringify(data, null, '\t'));
		return file;
	}

	/**
	 * Credentials into the instance: through the REST API while the server runs (n8n gives them ids
	 * of its own; `importWorkflows` and `credentialId` translate the spec's), else
	 * `n8n import:credentials`. The plain `data` is encrypted by n8n either way.
	 */
	async importCredentials(creds: CredentialSpec[]): Promise<void> {
		if (this.running) {
			for (const spec of creds) {
				const res = await this.rest<{ data?: { id?: string } }>('POST', '/credentials', { name: spec.name, type: spec.type, data: spec.data });
				const id = res.data?.data?.id as string | undefined;
				// never the body: it may echo the credential's secrets
				if (res.status !== 200 || !id) throw new Error(`POST /rest/credentials (${spec.type} "${spec.name}") → ${res.status}`);
				this.credentialIds.set(spec.id, id);
			}
			return;
		}
		const file = await this.writeTempJson('credentials', creds);
		const r = await this.cli(['import:credentials', `--input=${file}`]);
		if (r.code !== 0 || r.timedOut || !/Successfully imported/.test(r.stdout + r.stderr)) {
			throw new Error(describeRun('n8n import:credentials', r));
		}
		await fsp.rm(file, { force: true }); // holds secrets in plain text
	}

	/**
	 * The id, name and type of every credential: through the REST API while the server runs, else
	 * `n8n export:credentials --all` into a file read and removed at once (n8n exports them encrypted:
	 * no secret is written in plain text).
	 */
	async listCredentials(): Promise<Array<{ id: string; name: string; type: string }>> {
		const pick = (list: Array<{ id: string; name: string; type: string }>) => list.map(({ id, name, type }) => ({ id, name, type }));
		if (this.running) {
			const res = await this.rest<{ data?: Array<{ id: string; name: string; type: string }> }>('GET', '/credentials');
			if (res.status !== 200 || !Array.isArray(res.data?.data)) throw new Error(`GET /rest/credentials → ${res.status}`);
			return pick(res.data.data);
		}
		const dir = path.join(this.userFolder, 'imports');
		await fsp.mkdir(dir, { recursive: true });
		const file = path.join(dir, `credentials-list-${Date.now()}-${this.cliCount}.json`);
		try {
			const r = await this.cli(['export:credentials', '--all', `--output=${file}`]);
			// none yet: n8n refuses to export nothing
			if (/No credentials found/.test(r.stdout + r.stderr)) return [];
			if (r.code !== 0 || r.timedOut) throw new Error(describeRun('n8n export:credentials', r));
			return pick(JSON.parse(await fsp.readFile(file, 'utf8')) as Array<{ id: string; name: string; type: string }>);
		} finally {
			await fsp.rm(file, { force: true });
		}
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

	/** The id n8n gave the credential a spec named `specId` (the spec's own id when imported by the CLI). */
	credentialId(specId: string): string {
		return this.credentialIds.get(specId) ?? specId;
	}

	/**
	 * Workflows into the instance, with their ids (generated where missing): through the REST API
	 * while the server runs (`POST /rest/workflows`, which keeps a given id; credential references
	 * translated to the ids n8n gave them), else `n8n import:workflow`. Returns the ids in order.
	 */
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
		if (this.running) {
			for (const workflow of withIds) {
				const res = await this.rest('POST', '/workflows', this.withCredentialIds(workflow));
				if (res.status !== 200) throw new Error(`POST /rest/workflows (${workflow.id as string}) → ${res.status}: ${JSON.stringify(res.data).slice(0, 1000)}`);
			}
			return withIds.map((w) => w.id as string);
		}
		const file = await this.writeTempJson('workflows', withIds);
		const r = await this.cli(['import:workflow', `--input=${file}`]);
		if (r.code !== 0 || r.timedOut || !/Successfully imported/.test(r.stdout + r.stderr)) {
			throw new Error(describeRun('n8n import:workflow', r));
		}
		return withIds.map((w) => w.id as string);
	}

	private withCredentialIds(workflow: Record<string, unknown>): Record<string, unknown> {
		const nodes = (workflow.nodes as Array<Record<string, unknown>> | undefined) ?? [];
		return {
			...workflow,
			nodes: nodes.map((node) => {
				if (!node.credentials) return node;
				const credentials = Object.fromEntries(
					Object.entries(node.credentials as Record<string, { id: string; name: string }>).map(([type, ref]) => [type, { ...ref, id: this.credentialId(ref.id) }]),
				);
				return { ...node, credentials };
			}),
		};
	}

	/**
	 * Runs a workflow to its end and reads the run. While the server runs, as the editor's Execute
	 * Workflow does (`POST /rest/workflows/{id}/run` from its Manual Trigger, then the saved
	 * execution; `stdout` holds that execution, `stderr` the server's log of the run); else
	 * `n8n execute --id=<id> --rawOutput`, read by `executeOutcome`. Never throws for a failed run:
	 * see `ok`/`error`.
	 */
	async execute(workflowId: string): Promise<ExecuteResult> {
		if (this.running) return await this.runManually(workflowId);
		const r = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], TIMEOUTS.execute, { runAgainOnCrash: false });
		const outcome = executeOutcome(r, TIMEOUTS.execute);
		if (outcome.crashedOnExit) {
			harnessLog(`n8n execute died of ${outcome.crashedOnExit} after printing its finished run (n8n ${this.n8n.version}); reading that run`);
		}
		return outcome;
	}

	/** Like `execute`, but throws (with the output tail) unless the run succeeded. */
	async executeOk(workflowId: string): Promise<RunJson> {
		const r = await this.execute(workflowId);
		// a run that is ok always comes with its run (executeOutcome, runManually)
		if (!r.ok || !r.result) {
			throw new Error(
				`Workflow ${workflowId} failed: ${r.error}\n--- stdout (tail) ---\n${r.stdout.slice(-6000)}\n--- stderr (tail) ---\n${r.stderr.slice(-4000)}`,
			);
		}
		return r.result;
	}

	private async runManually(workflowId: string): Promise<ExecuteResult> {
		const started = Date.now();
		const logFrom = await this.serverLogSize();
		const stored = await this.rest<{ data: WorkflowJson }>('GET', `/workflows/${workflowId}`);
		if (stored.status !== 200) throw new Error(`GET /rest/workflows/${workflowId} → ${stored.status}: ${JSON.stringify(stored.data).slice(0, 1000)}`);
		const workflowData = stored.data.data;
		const trigger = workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		const res = await this.rest<{ data?: { executionId?: string } }>('POST', `/workflows/${workflowId}/run`, { workflowData, ...(trigger ? { triggerToStartFrom: { name: trigger.name } } : {}) });
		const executionId = res.data?.data?.executionId;
		if (res.status !== 200 || !executionId) {
			throw new Error(`POST /rest/workflows/${workflowId}/run → ${res.status}: ${JSON.stringify(res.data).slice(0, 2000)}\n${this.serverLog(4000)}`);
		}
		await this.setupOwnerAndApiKey();
		const limit = budget(TIMEOUTS.execute);
		let execution: ListedExecution | undefined;
		for (;;) {
			// the status alone while it runs; its data once, when it has ended
			execution = await this.publicApi<ListedExecution>('GET', `/executions/${executionId}`).catch(() => undefined);
			if (execution && !['new', 'running'].includes(execution.status)) {
				execution = await this.publicApi<SavedExecution>('GET', `/executions/${executionId}?includeData=true`);
				break;
			}
			if (Date.now() - started > limit) {
				const stdout = JSON.stringify(execution ?? null);
				const stderr = await this.serverLogSince(logFrom);
				return { ok: false, error: `execution ${executionId} still ${execution?.status} after ${limit} ms`, result: execution, stdout, stderr, exitCode: null, durationMs: Date.now() - started };
			}
			await sleep(200);
		}
		const runError = execution.data?.resultData?.error;
		const ok = execution.status === 'success' && !runError;
		return {
			ok,
			result: execution,
			...(ok ? {} : { error: runError?.message ?? `execution ${executionId} ended ${execution.status}` }),
			stdout: JSON.stringify(execution),
			stderr: await this.serverLogSince(logFrom),
			exitCode: null,
			durationMs: Date.now() - started,
		};
	}

	/**
	 * Publishes a workflow: through the public API while the server runs (`activate`), else
	 * `n8n publish:workflow --id=<id>`, which takes effect at the next `start()`.
	 */
	async publish(workflowId: string): Promise<void> {
		if (this.running) {
			await this.setupOwnerAndApiKey();
			await this.activate(workflowId);
			return;
		}
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

	private async serverLogSize(): Promise<number> {
		const file = this.server?.logFile;
		return file ? (await fsp.stat(file).catch(() => ({ size: 0 }))).size : 0;
	}

	/** What the server wrote to its log file since `offset` bytes. */
	private async serverLogSince(offset: number): Promise<string> {
		const file = this.server?.logFile;
		if (!file) return '';
		// only what the run added: the stage's log grows with every file that ran before
		const handle = await fsp.open(file, 'r').catch(() => undefined);
		if (!handle) return '';
		try {
			const { size } = await handle.stat();
			const added = Buffer.alloc(Math.max(0, size - offset));
			await handle.read(added, 0, added.length, offset);
			return added.toString('utf8');
		} finally {
			await handle.close();
		}
	}

	/** The server log so far (tail), for diagnostics. */
	serverLog(chars = 20_000): string {
		return this.server?.log(chars) ?? '';
	}

	/**
	 * `n8n start`; resolves once stdout says "Editor is now accessible" (webhooks are
	 * registered by then; /healthz/readiness answers ~3 s earlier).
	 */
	async start(): Promise<{ url: string }> {
		this.assertNotDisposed();
		if (this.running) return { url: this.baseUrl };
		this.server = await spawnN8nProcess(this, ['start'], this.env(), 'Editor is now accessible', 'n8n-start');
		if (this.sharedStateFile) await fsp.writeFile(this.sharedStateFile, JSON.stringify(this.sharedState()));
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
	async request<T = unknown>(method: Method, urlPath: string, config: AxiosRequestConfig = {}): Promise<AxiosResponse<T>> {
		const url = /^https?:\/\//.test(urlPath) ? urlPath : `${this.baseUrl}${urlPath.startsWith('/') ? '' : '/'}${urlPath}`;
		if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url)) throw new Error(`Refusing non-loopback URL ${url}`);
		const send = async () =>
			await axios.request<T>({
				method,
				url,
				timeout: TIMEOUTS.http,
				proxy: false,
				// a fresh connection each time: a kept-alive socket that n8n closes after its 5 s idle
				// timeout, just as the next request goes out on it, is a "socket hang up" (seen under load)
				httpAgent: NO_KEEP_ALIVE,
				validateStatus: () => true,
				...config,
			});
		// n8n answers 503 "Database is not ready!" while its own database check fails, before any route
		// runs: seen on the newest under npm run test:load, after "Editor is now accessible" (its check
		// pings the database on a timer). Nothing was done: the same request again once it is ready.
		const deadline = Date.now() + budget(TIMEOUTS.databaseReady);
		for (;;) {
			const res = await send();
			if (!isDatabaseNotReady(res) || Date.now() > deadline) return res;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}

	/**
	 * GET a JSON document as the owner; throws on non-2xx. In n8n 2.8.4
	 * `/types/nodes.json`, `/types/credentials.json` and `/types/node-versions.json` need
	 * an authenticated session (401 otherwise), so this sets up / logs in the owner first.
	 */
	async fetchJson<T = unknown>(urlPath: string): Promise<T> {
		const cookie = await this.ensureOwnerSession();
		// n8n writes /types/*.json in the background while it starts (FrontendService's un-awaited
		// generateTypes, measured finishing 0.2-0.3 s before "Editor is now accessible" here): a
		// slower disk serves a missing or half-written file for a moment after start.
		const typeFile = /^\/?types\//.test(urlPath);
		const deadline = Date.now() + TIMEOUTS.start;
		for (;;) {
			const res = await this.request<string>('GET', urlPath, { responseType: 'text', headers: { Cookie: cookie } });
			let parsed: T | undefined;
			let parseError = '';
			try {
				parsed = JSON.parse(res.data) as T;
			} catch (error) {
				parseError = (error as Error).message;
			}
			const ok = res.status >= 200 && res.status < 300 && !parseError;
			if (ok && (!typeFile || Array.isArray(parsed))) return parsed as T;
			if (!typeFile || Date.now() > deadline) {
				const why = parseError ? `not JSON (${parseError}, ${String(res.data).length} chars)` : String(res.data).slice(0, 2000);
				throw new Error(`GET ${urlPath} → ${res.status}: ${why}\n${this.serverLog(4000)}`);
			}
			await sleep(250);
		}
	}

	/** The fixed owner account of every instance. */
	static readonly OWNER = { email: 'owner@e2e.test', firstName: 'E2E', lastName: 'Owner', password: 'E2eOwnerDummyPassw0rd' };

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
			const scopesRes = await this.request<{ data?: string[] }>('GET', '/rest/api-keys/scopes', { headers: { Cookie: cookie } });
			const scopes: string[] =
				scopesRes.status === 200 && Array.isArray(scopesRes.data?.data) && scopesRes.data.data.length
					? scopesRes.data.data
					: ['workflow:read', 'workflow:activate', 'execution:read', 'execution:list'];
			const keyRes = await this.request<{ data?: { rawApiKey?: string } }>('POST', '/rest/api-keys', {
				headers: { Cookie: cookie },
				data: { label: this.apiKeyLabel ?? `e2e ${Date.now()}`, scopes, expiresAt: null },
			});
			const apiKey = keyRes.data?.data?.rawApiKey;
			if (keyRes.status !== 200 || !apiKey) {
				throw new Error(`POST /rest/api-keys → ${keyRes.status}: ${JSON.stringify(keyRes.data).slice(0, 2000)}`);
			}
			this.apiKey = apiKey;
		}
		return { email: owner.email, password: owner.password, apiKey: this.apiKey };
	}

	/** Request to the public API (`/api/v1<path>`) with `X-N8N-API-KEY`; throws on non-2xx. */
	async publicApi<T = unknown>(method: Method, apiPath: string, data?: unknown): Promise<T> {
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
	async rest<T = unknown>(method: Method, restPath: string, data?: unknown): Promise<AxiosResponse<T>> {
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
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<{ waitingForWebhook?: boolean }> {
		const stored = await this.rest<{ data: WorkflowJson }>('GET', `/workflows/${workflowId}`);
		if (stored.status !== 200) throw new Error(`GET /rest/workflows/${workflowId} → ${stored.status}: ${JSON.stringify(stored.data).slice(0, 1000)}`);
		const res = await this.rest<{ data: { waitingForWebhook?: boolean } }>('POST', `/workflows/${workflowId}/run`, {
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
		const res = await this.rest<{ data?: boolean | null }>('DELETE', `/test-webhook/${workflowId}`);
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
	async activate(workflowId: string): Promise<PublicWorkflow> {
		const activated = await this.publicApi<PublicWorkflow>('POST', `/workflows/${workflowId}/activate`, {});
		this.published.add(workflowId);
		this.activatedHere.add(workflowId);
		if (this.running) await this.waitForPublication([workflowId]);
		return activated;
	}

	/** `POST /api/v1/workflows/{id}/deactivate`. */
	async deactivate(workflowId: string): Promise<PublicWorkflow> {
		this.published.delete(workflowId);
		this.activatedHere.delete(workflowId);
		return await this.publicApi<PublicWorkflow>('POST', `/workflows/${workflowId}/deactivate`, {});
	}

	/**
	 * Saved executions of a workflow, newest first: `GET /api/v1/executions?workflowId=&includeData=`.
	 * With includeData, each has `data.resultData.runData` as in `execute()` results, so
	 * `nodeOutput(execution, node)` works on them too.
	 */
	executions(workflowId: string, opts?: { includeData?: true; limit?: number }): Promise<SavedExecution[]>;
	executions(workflowId: string, opts: { includeData: false; limit?: number }): Promise<ListedExecution[]>;
	async executions(workflowId: string, opts: { includeData?: boolean; limit?: number } = {}): Promise<ListedExecution[]> {
		const q = new URLSearchParams({
			workflowId,
			includeData: String(opts.includeData ?? true),
			limit: String(opts.limit ?? 100),
		});
		const res = await this.publicApi<{ data: ListedExecution[] }>('GET', `/executions?${q.toString()}`);
		return res.data;
	}

	/**
	 * Ids of a workflow's latest 100 executions, waiting and running ones included. The public API's
	 * list leaves out executions n8n still holds in memory, and 2.8.4 holds a waiting one there
	 * (measured: `GET /api/v1/executions` lists nothing, with or without `status=waiting`, while `GET
	 * /api/v1/executions/<id>` says `waiting`), so the list is the editor's (`GET /rest/executions`).
	 * Every status is named: without one, both versions read the running executions and the finished
	 * ones in two queries at once (findCurrentAndCompleted), and one that finishes between the two is
	 * in neither (seen once on 2.41.1 under load, right after its webhook's 200) or in both.
	 */
	async executionIds(workflowId: string): Promise<string[]> {
		const filter = JSON.stringify({ workflowId, status: ExecutionStatusList });
		const res = await this.rest<{ data?: { results?: Array<{ id: string | number }> } }>('GET', `/executions?limit=100&filter=${encodeURIComponent(filter)}`);
		if (res.status !== 200) throw new Error(`GET /rest/executions → ${res.status}: ${JSON.stringify(res.data).slice(0, 1000)}`);
		return (res.data?.data?.results ?? []).map((e) => String(e.id));
	}

	/** One saved execution with its data: `GET /api/v1/executions/<id>?includeData=true`. */
	async execution(id: string): Promise<SavedExecution> {
		return await this.publicApi<SavedExecution>('GET', `/executions/${id}?includeData=true`);
	}

	/** The harness's pollFor (its budget stretched on a busy machine), its failure followed by the tail of n8n's log. */
	async pollWithLog<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, describe?: () => Promise<string>): Promise<T> {
		return await pollFor(what, timeoutMs, check, async () => `${describe ? await describe() : ''}\n--- n8n log (tail) ---\n${this.serverLog(3000)}`);
	}

	/** Waits until execution `id` has `status`; any other final status throws at once, with the execution's gist. */
	async waitForExecutionStatus(id: string, status: 'waiting' | 'success', timeoutMs = 60_000): Promise<SavedExecution> {
		const gist = (run: SavedExecution | undefined) =>
			JSON.stringify({ id: run?.id, status: run?.status, finished: run?.finished, waitTill: run?.waitTill, error: run?.data?.resultData?.error?.message }).slice(0, 800);
		return await this.pollWithLog(
			`execution ${id} to be ${status}`,
			timeoutMs,
			async () => {
				const run = await this.execution(id);
				if (run.status === status) return run;
				if (['error', 'crashed', 'canceled'].includes(run.status) || (status === 'waiting' && run.status === 'success')) {
					throw new Error(`execution ${id} is ${run.status}, expected ${status}: ${gist(run)}`);
				}
				return undefined;
			},
			async () => gist(await this.execution(id)),
		);
	}

	/** Posts `body` to a workflow's production webhook and resolves with the id of the execution it started. */
	async startExecution(flow: { id: string; path: string }, body: Record<string, unknown>): Promise<string> {
		const known = new Set(await this.executionIds(flow.id));
		const res = await this.request('POST', this.webhookUrl(flow.path), { data: body });
		if (res.status !== 200 || (res.data as { message?: unknown })?.message !== 'Workflow was started') {
			throw new Error(`POST ${flow.path} → ${res.status} ${JSON.stringify(res.data).slice(0, 500)}, not "Workflow was started"`);
		}
		return await this.pollWithLog(`a new execution of workflow ${flow.id} (webhook ${flow.path})`, 60_000, async () =>
			(await this.executionIds(flow.id)).find((e) => !known.has(e)),
		);
	}

	/**
	 * startExecution, then waits until n8n has saved the execution as `waiting`: an answer posted
	 * before that finds no waiting execution (n8n answers 409), so none is posted before this returns.
	 */
	async startWaitingExecution(flow: { id: string; path: string }, body: Record<string, unknown>): Promise<string> {
		const id = await this.startExecution(flow, body);
		await this.waitForExecutionStatus(id, 'waiting');
		return id;
	}

	async waitForExecutions(workflowId: string, count = 1, timeoutMs: number = TIMEOUTS.executionWait): Promise<SavedExecution[]> {
		const deadline = Date.now() + budget(timeoutMs);
		let last: SavedExecution[] = [];
		while (Date.now() < deadline) {
			last = await this.executions(workflowId);
			if (last.filter((e) => e.finished || (e.status && e.status !== 'running' && e.status !== 'new')).length >= count) return last;
			await sleep(300);
		}
		throw new Error(`Only ${last.length} execution(s) of ${workflowId} after ${budget(timeoutMs)} ms: ${JSON.stringify(last).slice(0, 2000)}`);
	}

	/** Stops everything and removes the temp user folder. Safe to call twice. */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		if (this.sharedStateFile) {
			// the stage's n8n goes on for the next file: only what this file published goes quiet
			for (const id of [...this.activatedHere]) if (this.running) await this.deactivate(id);
			this.disposed = true;
			return;
		}
		this.disposed = true;
		try {
			await this.stop();
		} finally {
			if (!this.ownsUserFolder) {
				// a caller-owned folder (npm run dev) keeps its database between runs
			} else if (process.env.N8N_E2E_KEEP_TMP === '1') {
				harnessLog(`keeping ${this.userFolder} (N8N_E2E_KEEP_TMP=1)`);
			} else {
				await removeTempDir(this.userFolder);
			}
		}
	}

	private assertNotDisposed(): void {
		if (this.disposed) throw new Error('N8nInstance already disposed');
	}
}
