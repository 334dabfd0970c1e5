/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- checks the installed package files and its own process (fs, path, process); never shipped */
/**
 * Self-test of the real-n8n harness (test/harness), using a throwaway package installed exactly as
 * users install community packages: its CLI path (import, execute, publish) and a server of its own.
 * The same install check for THIS repo's package is package-loads.e2e.test.ts, on the stage's n8n.
 *
 * Run: npx jest test/e2e/cli --runInBand   (cold n8n install: ~4-6 minutes, once);
 * N8N_E2E_TIMINGS=1 prints how long each harness step took.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
	compareVersions,
	JEST_TIMEOUTS,
	LEGACY_N8N_VERSION,
	N8N_TARGET,
	N8N_VERSION,
	N8nInstance,
	ensureN8n,
	makeWorkflow,
	nodeJson,
	packPackage,
	processGroupAlive,
	removeTempDir,
	WorkflowNode,
	setNode,
	webhookNode,
} from '../../harness';
import { PROBE_CREDENTIAL, PROBE_NODE_TYPE, writeProbePackage } from './probe-package';

const timings: Record<string, number> = {};
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const started = Date.now();
	try {
		return await fn();
	} finally {
		timings[label] = Date.now() - started;
	}
}

const PROBE_CRED = { id: 'e2eProbeCred0001', name: 'E2E probe credential', type: PROBE_CREDENTIAL, data: { token: 'secret-dummy-token-123' } };

function probeNode(name: string, greeting: string, fail = false): WorkflowNode {
	return {
		name,
		type: PROBE_NODE_TYPE,
		typeVersion: 1,
		parameters: { greeting, fail },
		credentials: { [PROBE_CREDENTIAL]: { id: PROBE_CRED.id, name: PROBE_CRED.name } },
	};
}

describe('real n8n harness (throwaway package)', () => {
	let instance: N8nInstance | undefined;
	let probeDir: string | undefined;
	let tarball: string | undefined;
	let serverPid: number | undefined;

	beforeAll(async () => {
		const n8n = await timed('ensureN8n', ensureN8n);
		if (N8N_TARGET === 'newest') {
			// the newest that resolves, on the Node it asks for
			expect(compareVersions(n8n.version, LEGACY_N8N_VERSION)).toBeGreaterThan(0);
			expect(n8n.node).not.toBe(process.execPath);
		} else {
			expect([n8n.version, n8n.node]).toEqual([N8N_VERSION, process.execPath]);
		}
		timings[n8n.installed ? 'ensureN8n (installed)' : 'ensureN8n (cached)'] = n8n.durationMs;
		probeDir = await writeProbePackage();
		tarball = await timed('packPackage (probe)', async () => await packPackage(probeDir));
		instance = await timed('N8nInstance.create', async () => await N8nInstance.create({ tarball: tarball! }));
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance);

	afterAll(async () => {
		await timed('dispose', async () => await instance?.dispose());
		if (probeDir) await removeTempDir(probeDir);
		if (tarball) await removeTempDir(path.dirname(tarball));
		// On request only: jest prints a file's console output above its failures, and a long log is cut.
		if (process.env.N8N_E2E_TIMINGS === '1') {
			process.stdout.write(`e2e harness timings (ms):\n${JSON.stringify(timings, null, 2)}\n`);
		}
	}, JEST_TIMEOUTS.dispose);

	test('the package is installed where n8n looks for community packages', () => {
		const pkgJson = path.join(instance!.nodesDir, 'node_modules', 'n8n-nodes-e2e-probe', 'package.json');
		expect(fs.existsSync(pkgJson)).toBe(true);
		// --omit=peer: no private n8n-workflow copy next to it
		expect(fs.existsSync(path.join(instance!.nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
	});

	test(
		'executes a workflow of core nodes via the CLI',
		async () => {
			const wf = makeWorkflow([setNode('Set', { hello: 'world', answer: '={{ 6 * 7 }}' }), { name: 'NoOp', type: 'n8n-nodes-base.noOp', typeVersion: 1 }]);
			const [id] = await timed('importWorkflows', async () => await instance!.importWorkflows([wf]));
			expect(id).toBe(wf.id);
			const run = await timed('execute (core nodes)', async () => await instance!.execute(id));
			if (!run.ok) throw new Error(`${run.error}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`);
			expect(run.result?.status).toBe('success');
			expect(nodeJson(run.result, 'Manual Trigger')).toEqual([{}]);
			expect(nodeJson(run.result, 'NoOp')).toEqual([{ hello: 'world', answer: '42' }]);
		},
		JEST_TIMEOUTS.execute + 2 * 60_000,
	);

	test(
		"runs the installed package's node with an imported credential",
		async () => {
			await timed('importCredentials', async () => await instance!.importCredentials([PROBE_CRED]));
			const wf = makeWorkflow([setNode('Set', { n: 1 }), probeNode('Probe', 'hi from cli')]);
			await instance!.importWorkflows([wf]);
			const run = await timed('execute (package node)', async () => await instance!.execute(wf.id));
			if (!run.ok) throw new Error(`${run.error}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`);
			expect(nodeJson(run.result, 'Probe')).toEqual([{ n: 1, greeting: 'hi from cli', tokenLength: PROBE_CRED.data.token.length }]);
		},
		JEST_TIMEOUTS.execute + 2 * 60_000,
	);

	test(
		'reports a failing node as ok:false with its message',
		async () => {
			const wf = makeWorkflow([probeNode('Probe', 'x', true)]);
			await instance!.importWorkflows([wf]);
			const run = await instance!.execute(wf.id);
			expect(run.ok).toBe(false);
			// n8n exits 1 after a failed run, unless a native crash ended it once the run was printed (see execute())
			if (run.crashedOnExit) expect(run.exitCode).toBeNull();
			// the signal named when there is one: a crash of another kind says which
			// (what n8n printed goes into a failure's diff: a SIGSEGV after a failed run was once not read as printed)
			else {
				const printed = run.exitCode === 1 ? {} : { stdout: run.stdout.slice(-1500), stderr: run.stderr.slice(-1500) };
				expect({ exitCode: run.exitCode, signal: run.signal ?? null, ...printed }).toEqual({ exitCode: 1, signal: null });
			}
			expect(run.error).toBe('probe asked to fail');
			// the run is still parsed: the failing node recorded its error
			expect(run.result?.data?.resultData?.error?.message).toBe('probe asked to fail');
			expect(run.result?.data?.resultData?.lastNodeExecuted).toBe('Probe');
		},
		JEST_TIMEOUTS.execute + 60_000,
	);

	test(
		'server: health, node types, published and API-activated webhooks, executions',
		async () => {
			const n8n = instance!;
			const published = makeWorkflow(
				[setNode('Set', { echo: '={{ $json.body.msg }}' }), probeNode('Probe', 'hi from webhook')],
				{ trigger: webhookNode('Webhook', 'e2e-published'), name: 'published webhook' },
			);
			const later = makeWorkflow([{ name: 'NoOp', type: 'n8n-nodes-base.noOp', typeVersion: 1 }], {
				trigger: webhookNode('Webhook', 'e2e-activated'),
				name: 'activated at runtime',
			});
			await n8n.importWorkflows([published, later]);
			await timed('publish', async () => await n8n.publish(published.id));

			const { url } = await timed('start', async () => await n8n.start());
			expect(url).toBe(n8n.baseUrl);
			serverPid = (n8n as unknown as { server: { pid: number } }).server.pid;

			const health = await n8n.request('GET', '/healthz');
			expect(health.status).toBe(200);
			expect(health.data).toEqual({ status: 'ok' });

			const nodeTypes = await n8n.fetchJson<Array<{ name: string; version: number | number[] }>>('/types/nodes.json');
			const names = nodeTypes.map((t) => t.name);
			expect(names).toContain(PROBE_NODE_TYPE);
			expect(names).toContain('n8n-nodes-base.webhook');
			const credTypes = await n8n.fetchJson<Array<{ name: string }>>('/types/credentials.json');
			expect(credTypes.map((c) => c.name)).toContain(PROBE_CREDENTIAL);

			const hook = await timed('webhook (published)', async () => await n8n.request('POST', n8n.webhookUrl('e2e-published'), { data: { msg: 'ping' } }));
			expect(hook.status).toBe(200);
			expect(hook.data).toEqual({ echo: 'ping', greeting: 'hi from webhook', tokenLength: PROBE_CRED.data.token.length });

			// not published yet: n8n answers 404
			expect((await n8n.request('POST', n8n.webhookUrl('e2e-activated'), { data: {} })).status).toBe(404);

			await timed('setupOwnerAndApiKey', async () => await n8n.setupOwnerAndApiKey());
			const activated = await n8n.activate(later.id);
			expect(activated.id).toBe(later.id);
			const hook2 = await n8n.request<{ body: unknown }>('POST', n8n.webhookUrl('e2e-activated'), { data: { msg: 'pong' } });
			expect(hook2.status).toBe(200);
			expect(hook2.data.body).toEqual({ msg: 'pong' });

			const executions = await n8n.waitForExecutions(published.id, 1);
			expect(executions).toHaveLength(1);
			expect(executions[0].status).toBe('success');
			expect(nodeJson(executions[0], 'Probe')).toEqual([
				{ echo: 'ping', greeting: 'hi from webhook', tokenLength: PROBE_CRED.data.token.length },
			]);

			await timed('stop', async () => await n8n.stop());
			expect(n8n.running).toBe(false);
			expect(processGroupAlive(serverPid)).toBe(false);
		},
		JEST_TIMEOUTS.server + 60_000,
	);
});
