/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- drives a browser and writes the picture (fs, path, __dirname, process, setTimeout); never shipped */
/**
 * Makes docs/send-and-wait-waiting.png: n8n's editor showing an execution of the example
 * `approve-refund-whatsapp` that waits at its Exotel node for the manager's answer. Run by hand when
 * the picture should be redone (not part of any test stage):
 *
 *   npm run build && npx ts-node --transpile-only scripts/screenshot-send-and-wait.ts [--out FILE]
 *
 * Needs Debian's Chromium (`apt-get install chromium`, driven as in test/system/browser.ts: no
 * download, loopback only) and the cached n8n of N8N_E2E_TARGET (2.8.4 by default, installed on first
 * use like the real-n8n tests). It starts the sandbox and a throwaway n8n with the packed package and
 * the sandbox credentials, publishes the example, posts a refund request to its webhook, waits until
 * the execution is `waiting`, then opens that execution in the editor's Executions tab (its list says
 * "Waiting", the canvas shows the run stopped at "Ask Manager") and takes the picture at 1440×900.
 * Everything it started is stopped at the end. Takes about a minute.
 */
import fs from 'fs';
import path from 'path';
import type { Page } from 'playwright-core';

import type { N8nInstance as Instance } from '../test/harness';
import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../sandbox/fixtures';
import { ExotelSandbox } from '../sandbox/server';
import { launchChromium, newEditorContext } from '../test/system/browser';

const REPO_ROOT = path.resolve(__dirname, '..');
const EXAMPLE = path.join(REPO_ROOT, 'examples', 'approve-refund-whatsapp.json');
const DEFAULT_OUT = path.join(REPO_ROOT, 'docs', 'send-and-wait-waiting.png');
/** The pictures of the README and docs/ stay small. */
const MAX_BYTES = 300_000;
const WAITING_NODE = 'Ask Manager';

function log(message: string) {
	process.stdout.write(`[screenshot] ${message}\n`);
}

/** The newest execution of the workflow once n8n says it is waiting (the editor's list: the public API leaves waiting ones out). */
async function waitingExecution(instance: Instance, workflowId: string, timeoutMs = 60_000): Promise<string> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const deadline = Date.now() + timeoutMs;
	let seen: unknown = [];
	while (Date.now() < deadline) {
		const res = await instance.rest<{ data?: { results?: Array<{ id: string; status: string }> } }>('GET', `/executions?filter=${filter}`);
		const results = res.data?.data?.results ?? [];
		seen = results.map(({ id, status }) => ({ id, status }));
		if (results[0]?.status === 'waiting') return results[0].id;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	throw new Error(`No waiting execution of ${workflowId} after ${timeoutMs} ms: ${JSON.stringify(seen)}`);
}

/** Closes first-run modals if n8n shows any (none on 2.8.4 with personalization off), so they do not cover the picture. */
async function tidy(page: Page): Promise<void> {
	for (let attempt = 0; attempt < 3; attempt++) {
		const overlays = page.locator('.el-overlay:visible');
		if ((await overlays.count()) === 0) break;
		const close = overlays.locator('.el-dialog__headerbtn, .el-drawer__close-btn, [data-test-id="close-button"]').first();
		if (await close.isVisible()) await close.click();
		else await page.keyboard.press('Escape');
		await page.waitForTimeout(300);
	}
}

async function main(): Promise<void> {
	const outAt = process.argv.indexOf('--out');
	const out = path.resolve(outAt > 0 ? process.argv[outAt + 1] : DEFAULT_OUT);
	process.env.N8N_E2E_TARGET ??= '2.8.4';
	// the harness reads its release from the environment when it loads
	const { N8nInstance, packPackage, removeTempDir } = await import('../test/harness');
	const example = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as { id: string; nodes: Array<{ type: string; parameters: Record<string, unknown> }> };
	const webhookPath = example.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')?.parameters.path as string;

	const sandbox = new ExotelSandbox();
	let instance: Instance | undefined;
	let tarball: string | undefined;
	let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
	try {
		await sandbox.start();
		tarball = await packPackage();
		instance = await N8nInstance.create({ tarball });
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		await instance.importCredentials(Object.entries(CREDENTIAL_IDS).map(([type, ref]) => ({ ...ref, type, data: data[type] })));
		await instance.importWorkflows([example]);
		await instance.publish(example.id);
		await instance.start();
		const cookie = await instance.ensureOwnerSession();
		log(`n8n ${instance.n8n.version} on ${instance.baseUrl}, sandbox on ${sandbox.origin}`);

		const res = await instance.request('POST', instance.webhookUrl(webhookPath), {
			data: { orderId: 'ORD-10490', amount: 1200, customerName: 'Asha Rao', managerPhone: '+919812340001' },
		});
		if (res.status !== 200) throw new Error(`POST /webhook/${webhookPath} → ${res.status}: ${JSON.stringify(res.data)}`);
		const executionId = await waitingExecution(instance, example.id);
		log(`execution ${executionId} is waiting at "${WAITING_NODE}"`);

		browser = await launchChromium();
		const context = await newEditorContext(browser, instance.baseUrl, cookie);
		context.setDefaultTimeout(30_000);
		const page = await context.newPage();
		await page.goto(`${instance.baseUrl}/workflow/${example.id}/executions/${executionId}`, { waitUntil: 'domcontentloaded', timeout: 90_000 });
		// the list and the execution's details, then its canvas, drawn in an iframe beside them (n8n 2.8.4's test ids)
		await page.locator(`[data-test-id="execution-details-${executionId}"]`).waitFor({ state: 'visible', timeout: 90_000 });
		const details = await page.locator(`[data-test-id="execution-preview-details-${executionId}"]`).innerText();
		if (!/Waiting/.test(details)) throw new Error(`execution ${executionId} is not shown waiting: ${details}`);
		const preview = page.frameLocator('[data-test-id="workflow-preview-iframe"]');
		// the canvas marks the node an execution waits at with the class "waiting"
		await preview.locator(`[data-test-id="canvas-node"][data-node-name="${WAITING_NODE}"].waiting`).waitFor({ state: 'visible', timeout: 90_000 });
		await page.waitForTimeout(2_000); // the preview's toast ("This execution hasn't finished yet") comes a moment later
		for (const toasts of [page, preview]) {
			for (const button of await toasts.locator('.el-notification:visible .el-notification__closeBtn').all()) await button.click().catch(() => undefined);
		}
		await tidy(page);
		await page.mouse.move(720, 12); // off any node, so no hover toolbar shows
		await page.waitForTimeout(1_500); // let the canvas fit the view and transitions end
		fs.mkdirSync(path.dirname(out), { recursive: true });
		const png = await page.screenshot({ path: out, animations: 'disabled', caret: 'hide' });
		log(`${path.relative(REPO_ROOT, out)}: ${png.length} bytes`);
		if (png.length > MAX_BYTES) throw new Error(`${out} is ${png.length} bytes, more than ${MAX_BYTES}`);
	} finally {
		await browser?.close().catch(() => undefined);
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
		await sandbox.stop();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`[screenshot] ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
