/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the examples and saves failure screenshots (fs, os, path); never shipped */
/**
 * The package in n8n 2.8.4's editor, in Debian's Chromium: every node is found in the node panel
 * (node creator) and every node's parameter panel (NDV) renders its own parameters, not n8n's
 * "Install this node" placeholder. Takes the screenshots of docs/screenshots/ on the way.
 *
 * Setup mirrors `npm run dev` (scripts/dev.ts): the packed package installed as users get it, the
 * sandbox credentials (the workflows refer to them by name and id) and the example workflows, plus one workflow per node
 * with realistic parameters. WEBHOOK_URL is set to a public-looking address only so that the
 * webhook URLs shown in the trigger screenshots are stable across runs; nothing calls it.
 *
 * Editor facts this relies on (measured on n8n 2.8.4): canvas nodes are
 * `[data-test-id="canvas-node"][data-node-name][data-node-type]`; a node whose type is not
 * installed gets `node-not-installed` on the canvas and `install-community-node-button` in its
 * NDV; the NDV is a `<dialog data-test-id="ndv">` whose `node-version` line reads
 * "<display name> node version 1"; node creator entries carry `data-keyboard-nav-id` =
 * "<node type>-<uuid>", and n8n merges a node and its trigger into one app entry.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

import { SANDBOX_CREDENTIAL_IDS as CREDENTIAL_IDS, sandboxCredentialData } from '../../sandbox/fixtures';
import { ExotelSandbox } from '../../sandbox/server';
import { budget, JEST_TIMEOUTS, makeWorkflow, N8N_TARGET, N8nInstance, packPackage, REPO_ROOT, removeTempDir, type WorkflowNode } from '../harness';
import { launchChromium, newEditorContext } from './browser';

const PACKAGE = 'n8n-nodes-exotel';
// The README shows the editor users run today: the newest n8n's pictures go to docs/, the others' to a temp folder.
const SCREENSHOT_DIR = N8N_TARGET === 'newest' ? path.join(REPO_ROOT, 'docs', 'screenshots') : path.join(os.tmpdir(), `exotel-screenshots-${N8N_TARGET}`);
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** Shown in the trigger panels' webhook URLs instead of a random loopback port. */
const PUBLIC_WEBHOOK_URL = 'https://n8n.example.com/';

/** Waits; the machine has 2 cores shared with other n8n instances, so they are generous, and stretched on a busy one. */
const WAIT = {
	/** First editor load: measured 9 to 18 s. */
	editorLoad: budget(90_000),
	element: budget(30_000),
	test: budget(180_000),
} as const;

interface NodeCase {
	/** Screenshot file name (without .png). */
	file: string;
	/** Type name without the package prefix. */
	type: string;
	displayName: string;
	trigger: boolean;
	node: WorkflowNode;
	/** Credential the NDV should show as selected, if any. */
	credential?: string;
	/** Parameter names whose inputs must be shown (`parameter-input-<name>`). */
	parameters: string[];
	/** Labels that must appear in the parameter panel. */
	labels: string[];
	/** Parameter name → text its input must show (a selected option, chips, a value). */
	shows: Record<string, string[]>;
	/** A trigger's webhook path after its webhook id, as its panel shows the URL (default `webhook`). */
	webhookPath?: string;
}

const CASES: NodeCase[] = [
	{
		file: 'exotel-messaging',
		type: 'exotelMessaging',
		displayName: 'Exotel Messaging',
		trigger: false,
		credential: CREDENTIAL_IDS.exotelApi.name,
		node: {
			name: 'Send SMS',
			type: `${PACKAGE}.exotelMessaging`,
			typeVersion: 2,
			credentials: { exotelApi: CREDENTIAL_IDS.exotelApi },
			parameters: {
				resource: 'sms',
				operation: 'send',
				from: 'EXOTEL',
				to: '+919876543210',
				body: 'Hi Asha, your order #4721 has shipped and arrives tomorrow.',
				additionalFields: { smsType: 'transactional' },
			},
		},
		parameters: ['resource', 'operation', 'from', 'to', 'body', 'statusCallback'],
		labels: ['Resource', 'Operation', 'From', 'To', 'Body', 'Options', 'SMS Type'],
		shows: { resource: ['SMS'], operation: ['Send'], to: ['+919876543210'], body: ['your order #4721 has shipped'] },
	},
	{
		file: 'exotel-messaging-trigger',
		type: 'exotelMessagingTrigger',
		displayName: 'Exotel Messaging Trigger',
		trigger: true,
		credential: CREDENTIAL_IDS.exotelApi.name,
		node: {
			name: 'Exotel Messaging Trigger',
			type: `${PACKAGE}.exotelMessagingTrigger`,
			typeVersion: 1,
			webhookId: '5d0c7a52-8f0e-4c1b-9d1e-3c6a9b2e7f01',
			credentials: { exotelApi: CREDENTIAL_IDS.exotelApi },
			parameters: { events: ['chatAppIncoming', 'rcsDeliveryReport', 'smsStatus'], statuses: ['delivered', 'failed'] },
		},
		parameters: ['events', 'statuses', 'registerWebhooks', 'verifyToken'],
		labels: ['Events', 'Statuses', 'Register Chat App Webhooks on Activation', 'Verify Token'],
		shows: { events: ['Chat App Incoming Message', 'RCS Delivery Report', 'SMS Status Callback'], statuses: ['Delivered', 'Failed'] },
	},
	{
		file: 'exotel-voice',
		type: 'exotelVoice',
		displayName: 'Exotel Voice',
		trigger: false,
		credential: CREDENTIAL_IDS.exotelApi.name,
		node: {
			name: 'Call Customer',
			type: `${PACKAGE}.exotelVoice`,
			typeVersion: 2,
			credentials: { exotelApi: CREDENTIAL_IDS.exotelApi },
			parameters: {
				resource: 'call',
				operation: 'connect',
				from: '+919876543210',
				callerId: '08047112233',
				url: 'http://my.exotel.com/exotelsandbox1/exoml/start_voice/24601',
				additionalFields: { timeLimit: 600 },
			},
		},
		parameters: ['resource', 'operation', 'from', 'callerId', 'url', 'statusCallback'],
		labels: ['Resource', 'Operation', 'From', 'Caller ID', 'Flow URL', 'Time Limit (Seconds)'],
		shows: { resource: ['Call'], operation: ['Connect to Flow'], callerId: ['08047112233'] },
	},
	{
		file: 'exotel-voice-trigger',
		type: 'exotelVoiceTrigger',
		displayName: 'Exotel Voice Trigger',
		trigger: true,
		node: {
			name: 'Exotel Voice Trigger',
			type: `${PACKAGE}.exotelVoiceTrigger`,
			typeVersion: 1,
			webhookId: '5d0c7a52-8f0e-4c1b-9d1e-3c6a9b2e7f02',
			parameters: { events: ['callStatus', 'campaignCallStatus', 'campaignStatus'], statuses: 'completed, no-answer, busy' },
		},
		parameters: ['events', 'statuses'],
		labels: ['Events', 'Statuses'],
		shows: { events: ['Call Status', 'Campaign Call Status', 'Campaign Status'], statuses: ['completed, no-answer, busy'] },
	},
	{
		file: 'exotel-call-flow-trigger',
		type: 'exotelCallFlowTrigger',
		displayName: 'Exotel Call Flow Trigger',
		trigger: true,
		credential: CREDENTIAL_IDS.exotelCallFlowApi.name,
		node: {
			name: 'Route Caller',
			type: `${PACKAGE}.exotelCallFlowTrigger`,
			typeVersion: 1,
			webhookId: '5d0c7a52-8f0e-4c1b-9d1e-3c6a9b2e7f09',
			credentials: { exotelCallFlowApi: CREDENTIAL_IDS.exotelCallFlowApi },
			parameters: { applet: 'passthru', passthruMode: 'sync', answerWithin: 4, fallbackBranch: 'second' },
		},
		parameters: ['applet', 'passthruMode', 'answerWithin', 'fallbackBranch'],
		labels: ['Applet', 'Mode', 'Answer Within (Seconds)', 'Fallback Branch'],
		shows: { applet: ['Passthru'], passthruMode: ['Sync (Pick the Branch)'], fallbackBranch: ['Second (302)'] },
		// the URL to paste into the applet, `:secret` to be replaced by the credential's URL Secret
		webhookPath: 'passthru/5d0c7a52-8f0e-4c1b-9d1e-3c6a9b2e7f09/:secret',
	},
	{
		file: 'exotel-contact-center',
		type: 'exotelContactCenter',
		displayName: 'Exotel Contact Center',
		trigger: false,
		credential: CREDENTIAL_IDS.exotelContactCenterApi.name,
		node: {
			name: 'Create Agent',
			type: `${PACKAGE}.exotelContactCenter`,
			typeVersion: 2,
			credentials: { exotelContactCenterApi: CREDENTIAL_IDS.exotelContactCenterApi },
			parameters: {
				resource: 'user',
				operation: 'create',
				userId: 'asha.rao',
				userName: 'Asha Rao',
				userType: 'Agent',
				contactCenterId: 1,
				additionalFields: { description: 'Support team, Bengaluru' },
			},
		},
		parameters: ['resource', 'operation', 'userId', 'userName', 'userType', 'contactCenterId'],
		labels: ['Resource', 'Operation', 'User ID', 'User Name', 'User Type', 'Contact Center ID', 'Description'],
		shows: { resource: ['User'], operation: ['Create'], userName: ['Asha Rao'] },
	},
	{
		file: 'exotel-number-allocation',
		type: 'exotelNumberAllocation',
		displayName: 'Exotel Number Allocation',
		trigger: false,
		credential: CREDENTIAL_IDS.exotelAllocationApi.name,
		node: {
			name: 'Allocate Masked Number',
			type: `${PACKAGE}.exotelNumberAllocation`,
			typeVersion: 2,
			credentials: { exotelAllocationApi: CREDENTIAL_IDS.exotelAllocationApi },
			parameters: {
				resource: 'allocation',
				operation: 'allocate',
				connectionId: 'order-4721',
				apartyNumbers: '+919876543210',
				bpartyNumbers: '+919812345678',
				usage: 'twoway',
				additionalFields: { region: 'KA' },
			},
		},
		parameters: ['resource', 'operation', 'connectionId', 'apartyNumbers', 'bpartyNumbers', 'usage'],
		labels: ['Resource', 'Operation', 'Connection ID', 'A-Party Numbers', 'B-Party Numbers', 'Usage', 'Preferred Region'],
		shows: { resource: ['Allocation'], operation: ['Allocate'], usage: ['Two Way'], bpartyNumbers: ['+919812345678'] },
	},
];

/** The five entries the node creator shows for "Exotel": the event triggers are merged into their app; the Call Flow Trigger has none to join. */
const APP_ENTRIES: Record<string, string> = {
	exotelCallFlowTrigger: 'Exotel Call Flow Trigger',
	exotelContactCenter: 'Exotel Contact Center',
	exotelMessaging: 'Exotel Messaging',
	exotelNumberAllocation: 'Exotel Number Allocation',
	exotelVoice: 'Exotel Voice',
};

/** One workflow per node: Manual Trigger → action node, or trigger node → No Operation. */
const WORKFLOWS = CASES.map((c, index) => {
	const handler: WorkflowNode = { name: 'Handle Event', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	return makeWorkflow(c.trigger ? [handler] : [c.node], {
		id: `exoScreenshot${String(index + 1).padStart(2, '0')}`,
		name: c.displayName,
		trigger: c.trigger ? c.node : undefined,
	});
});

/** The example shown on the canvas screenshot (examples/chat-app-auto-reply.json). */
const CANVAS_EXAMPLE = 'chat-app-auto-reply.json';

let sandbox: ExotelSandbox | undefined;
let instance: N8nInstance | undefined;
let tarball: string | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let page: Page;
let canvasExample: { id: string; nodes: Array<{ name: string; type: string }> };
/** Uncaught errors in the editor, reported with any failure. */
const pageErrors: string[] = [];

function editor(): N8nInstance {
	if (!instance) throw new Error('n8n did not start');
	return instance;
}

beforeAll(async () => {
	fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
	sandbox = new ExotelSandbox();
	await sandbox.start();
	tarball = await packPackage();
	instance = await N8nInstance.create({ tarball, webhookUrl: PUBLIC_WEBHOOK_URL });
	// started first, so the credentials and examples go in through its API, not a CLI process each
	await instance.start();
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await instance.importCredentials(Object.entries(data).map(([type, fields]) => ({ ...CREDENTIAL_IDS[type], type, data: fields })));
	const examples = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as Record<string, unknown> }));
	const canvas = examples.find((e) => e.file === CANVAS_EXAMPLE);
	if (!canvas) throw new Error(`examples/${CANVAS_EXAMPLE} is missing`);
	canvasExample = canvas.workflow as typeof canvasExample;
	await instance.importWorkflows([...examples.map((e) => e.workflow), ...WORKFLOWS]);
	const cookie = await instance.ensureOwnerSession();

	browser = await launchChromium();
	context = await newEditorContext(browser, instance.baseUrl, cookie);
	context.setDefaultTimeout(WAIT.element);
	page = await context.newPage();
	page.on('pageerror', (error) => pageErrors.push(error.message));
	// A "leave page?" prompt must never block navigation between workflows.
	page.on('dialog', (dialog) => void dialog.accept().catch(() => undefined));
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server + 120_000);

afterAll(async () => {
	try {
		await context?.close().catch(() => undefined);
		await browser?.close().catch(() => undefined);
	} finally {
		try {
			await instance?.dispose();
		} finally {
			if (tarball) await removeTempDir(path.dirname(tarball));
			await sandbox?.stop();
		}
	}
}, JEST_TIMEOUTS.dispose + 60_000);

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/** Runs `body`; on failure saves a screenshot to the temp dir and adds it and the editor's errors to the message. */
async function withDiagnostics(name: string, body: () => Promise<void>): Promise<void> {
	const failed = await body().then(() => undefined, (error: unknown) => ({ error }));
	if (!failed) return;
	if (!(page as Page | undefined)) throw failed.error; // beforeAll failed: jest reports that
	const file = path.join(os.tmpdir(), `exotel-editor-failure-${name}.png`);
	const saved = await page
		.screenshot({ path: file })
		.then(() => `screenshot of the failure: ${file}`)
		.catch(() => 'no screenshot');
	const err = failed.error as Error;
	err.message += `\n(${saved}; page ${page.url()})${pageErrors.length ? `\neditor errors: ${pageErrors.join(' | ').slice(0, 2000)}` : ''}`;
	throw err;
}

/** Opens a workflow and waits for its canvas to show `nodeName`. */
async function openWorkflow(workflowId: string, nodeName?: string): Promise<void> {
	await page.goto(`${editor().baseUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded', timeout: WAIT.editorLoad });
	const ready = nodeName ? canvasNode(nodeName) : page.locator('[data-test-id="canvas-wrapper"]');
	await ready.waitFor({ state: 'visible', timeout: WAIT.editorLoad });
	expect(page.url()).not.toMatch(/\/signin|\/setup/);
	await dismissModals();
}

function canvasNode(name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Fails if n8n draws the canvas node as "not installed" (its placeholder for unknown types). */
async function assertNotPlaceholder(nodeName: string): Promise<void> {
	if ((await canvasNode(nodeName).locator('[data-test-id="node-not-installed"]').count()) > 0) {
		throw new Error(`n8n shows node "${nodeName}" as not installed: the package's node did not load`);
	}
}

/**
 * Closes first-run modals or tours if n8n shows any (none appeared in 2.8.4 with personalization
 * off, but an upgrade may add one). The NDV is a native `<dialog>`, not one of these.
 */
async function dismissModals(): Promise<void> {
	for (let attempt = 0; attempt < 3; attempt++) {
		// n8n keeps its modals and drawers (NPS survey, "What's new") mounted in hidden .el-overlay elements
		const overlays = page.locator('.el-overlay:visible');
		if ((await overlays.count()) === 0) return;
		const close = overlays.locator('.el-dialog__headerbtn, .el-drawer__close-btn, [data-test-id="close-button"]').first();
		if (await close.isVisible()) await close.click();
		else await page.keyboard.press('Escape');
		await page.waitForTimeout(300);
	}
}

/** Fails on an error toast; closes the others so they do not cover a screenshot. */
async function assertNoErrorToasts(): Promise<void> {
	const toasts = page.locator('.el-notification:visible');
	const texts = (await toasts.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
	expect(texts.filter((t) => /error|problem|could not|failed|unknown|not installed/i.test(t))).toEqual([]);
	for (const button of await page.locator('.el-notification:visible .el-notification__closeBtn').all()) {
		await button.click().catch(() => undefined);
	}
}

/** Screenshot of the whole viewport into docs/screenshots/<file>.png; checks it is a real, non-trivial PNG. */
async function screenshot(file: string): Promise<void> {
	await page.mouse.move(720, 12); // off any field, so no hover toolbar shows
	await page.waitForTimeout(400); // let transitions end
	const target = path.join(SCREENSHOT_DIR, `${file}.png`);
	const png = await page.screenshot({ path: target, animations: 'disabled', caret: 'hide' });
	expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
	expect(png.readUInt32BE(16)).toBe(1440);
	expect(png.readUInt32BE(20)).toBe(900);
	expect(png.length).toBeGreaterThan(20_000); // a blank page compresses to a few KB
}

/** Types a query into the node creator's search (opening the creator first). */
async function searchNodeCreator(query: string): Promise<void> {
	const search = page.locator('[data-test-id="node-creator-search-bar"]');
	if (!(await search.isVisible())) {
		// the empty canvas has "Add first step"; otherwise the "+" of the canvas toolbar
		const addFirst = page.locator('[data-test-id="canvas-plus-button"]');
		if (await addFirst.isVisible()) await addFirst.click();
		else await page.locator('[data-test-id="node-creator-plus-button"]').click();
	}
	await search.waitFor({ state: 'visible' });
	await search.fill(query);
}

/** Node types (without the uuid suffix) of the creator's entries of a kind ('node', 'action'). */
async function creatorTypes(kind: string): Promise<string[]> {
	const ids = await page
		.locator(`[data-test-id="node-creator"] [data-keyboard-nav-type="${kind}"]`)
		.evaluateAll((elements) => elements.map((e) => e.getAttribute('data-keyboard-nav-id') ?? ''));
	return [...new Set(ids.map((id) => id.replace(/-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, '')))].sort();
}

/**
 * Waits until the creator lists exactly these node types of a kind: search results replace the
 * panel's default list asynchronously (n8n 2.41 shows its trigger list for a moment first).
 */
async function waitForCreatorTypes(kind: string, expected: string[]): Promise<void> {
	let seen: string[] = [];
	const failed = await expectEventually(async () => {
		seen = await creatorTypes(kind);
		return JSON.stringify(seen) === JSON.stringify([...expected].sort());
	}, `node creator entries of kind ${kind}: ${expected.join(', ')}`).then(() => undefined, (error: Error) => ({ error }));
	if (failed) throw new Error(`${failed.error.message}; last seen: ${seen.join(', ') || '(none)'}`);
}

/** Waits until the creator lists exactly `count` entries of a kind (results render asynchronously). */
async function waitForCreatorEntries(kind: string, count: number): Promise<void> {
	await expectEventually(async () => (await creatorTypes(kind)).length >= count, `${count} node creator entries of kind ${kind}`);
}

async function expectEventually(predicate: () => Promise<boolean>, what: string, timeoutMs: number = WAIT.element): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await predicate())) {
		if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await page.waitForTimeout(250);
	}
}

/** Text an input shows: its visible text plus the values of its <input>/<textarea> elements. */
async function shownText(container: Locator): Promise<string> {
	const values = await container
		.locator('input, textarea')
		.evaluateAll((elements) => elements.map((e) => (e as unknown as { value: string }).value));
	return `${await container.innerText()}\n${values.join('\n')}`;
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */
/* ------------------------------------------------------------------ */

test(
	'the node panel finds every Exotel node: four app entries and the Call Flow Trigger, the two event triggers inside their apps',
	async () => {
		await withDiagnostics('node-panel', async () => {
			await openWorkflow('new');
			await searchNodeCreator('Exotel');
			const appTypes = Object.keys(APP_ENTRIES).map((t) => `${PACKAGE}.${t}`);
			await waitForCreatorTypes('node', appTypes);
			expect(await creatorTypes('node')).toEqual(appTypes.sort());
			const names = await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').allInnerTexts();
			expect(names.map((n) => n.trim()).sort()).toEqual(Object.values(APP_ENTRIES).sort());
			await expect(page.locator('[data-test-id="node-creator"] img[src*="/icons/n8n-nodes-exotel/"]').count()).resolves.toBeGreaterThanOrEqual(4);
			await assertNoErrorToasts();
			await screenshot('node-panel');

			// A trigger lives inside its app's entry: open it, its events are listed as trigger actions.
			const back = page.locator('[data-test-id="node-creator"] [data-test-id="nodes-list-header"] button').first();
			for (const [app, trigger] of [
				['Exotel Messaging', 'exotelMessagingTrigger'],
				['Exotel Voice', 'exotelVoiceTrigger'],
			]) {
				await page.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]', { hasText: app }).first().click();
				await waitForCreatorEntries('action', 1);
				// the Actions category starts collapsed in the trigger view: open it too
				const actions = page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-category-item"]', { hasText: 'Actions' });
				const actionType = `${PACKAGE}.${trigger.replace(/Trigger$/, '')}`;
				if (!(await creatorTypes('action')).includes(actionType)) await actions.first().click();
				await expectEventually(async () => (await creatorTypes('action')).length === 2, `${app}: trigger and action entries`);
				expect(await creatorTypes('action')).toEqual([actionType, `${PACKAGE}.${trigger}`].sort());
				if (app === 'Exotel Messaging') {
					// each event's `action` names its trigger entry (n8n would lower-case the option names: "On rcs ...")
					const panel = await page.locator('[data-test-id="node-creator"]').innerText();
					for (const name of ['On RCS delivery report', 'On SMS click', 'On chat app incoming message']) expect(panel).toContain(name);
					// collapse the triggers so the screenshot shows every action, grouped by resource
					await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-category-item"]', { hasText: 'Triggers' }).first().click();
					await expectEventually(async () => (await creatorTypes('action')).length === 1, 'the trigger entries to collapse');
					await assertNoErrorToasts();
					await screenshot('node-panel-messaging');
				}
				await back.click();
				await waitForCreatorTypes('node', appTypes);
			}
		});
	},
	WAIT.test,
);

describe.each(CASES.map((c, index) => [c.displayName, c, WORKFLOWS[index].id] as const))(
	'%s',
	(_name, c, workflowId) => {
		test(
			`its parameter panel renders (screenshot docs/screenshots/${c.file}.png)`,
			async () => {
				await withDiagnostics(c.file, async () => {
					await openWorkflow(workflowId, c.node.name);
					const node = canvasNode(c.node.name);
					await expect(node.getAttribute('data-node-type')).resolves.toBe(`${PACKAGE}.${c.type}`);
					await assertNotPlaceholder(c.node.name);
					await expect(node.locator(`img[src*="/icons/${PACKAGE}/"]`).count()).resolves.toBe(1);

					await node.dblclick();
					const ndv = page.locator('[data-test-id="ndv"]');
					const parameters = ndv.locator('[data-test-id="node-parameters"]');
					await parameters.waitFor({ state: 'visible' });
					await expect(ndv.locator('[data-test-id="node-title-container"]').innerText()).resolves.toContain(c.node.name);
					// our icon, not n8n's "?" placeholder of unknown nodes
					await expect(ndv.locator(`header img[src*="/icons/${PACKAGE}/"]`).count()).resolves.toBe(1);
					await expect(ndv.locator('[data-test-id="node-version"]').textContent()).resolves.toContain(`${c.displayName} node version ${c.node.typeVersion}`);
					if ((await ndv.locator('[data-test-id="install-community-node-button"]').count()) > 0) {
						throw new Error(`The panel of "${c.node.name}" shows n8n's "Install this node" placeholder`);
					}
					// collections render their fields lazily ("Loading fields..."): wait for the labels, slow on a busy machine
					await expectEventually(async () => {
						const text = await parameters.innerText();
						return !text.includes('Loading fields') && c.labels.every((label) => text.includes(label));
					}, `the labels of "${c.node.name}" to render`).catch(() => undefined);
					const panelText = await parameters.innerText();
					expect(panelText).not.toMatch(/Install this node|not currently installed|unknown node/i);
					for (const label of c.labels) expect(panelText).toContain(label);
					// version 2 of the action nodes: Max Wait is among the Options, no Rate Limit collection of its own
					if (!c.trigger) expect(panelText).not.toContain('Rate Limit');
					for (const name of c.parameters) {
						await parameters.locator(`[data-test-id="parameter-input-${name}"]`).first().waitFor({ state: 'visible' });
					}
					for (const [name, texts] of Object.entries(c.shows)) {
						const shown = await shownText(parameters.locator(`[data-test-id="parameter-input-${name}"]`).first());
						for (const text of texts) expect(shown).toContain(text);
					}
					if (c.credential) {
						await expect(shownText(parameters.locator('[data-test-id="node-credentials-select"]').first())).resolves.toContain(c.credential);
					}
					if (c.trigger) {
						// show where the service must send events: the production URL of this trigger
						await parameters.locator('.webhooks .headline').click();
						await parameters.locator('[data-test-id="radio-button-production"]').click();
						const url = `${PUBLIC_WEBHOOK_URL}webhook/${c.node.webhookId as string}/${c.webhookPath ?? 'webhook'}`;
						await expect(parameters.locator('.webhook-url').first().innerText()).resolves.toContain(url);
					}
					await assertNoErrorToasts();
					await screenshot(c.file);
				});
			},
			WAIT.test,
		);
	},
);

test(
	'an example workflow renders on the canvas with its Exotel nodes (screenshot docs/screenshots/workflow-canvas.png)',
	async () => {
		await withDiagnostics('workflow-canvas', async () => {
			const exotelNodes = canvasExample.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`));
			expect(exotelNodes.length).toBeGreaterThanOrEqual(2);
			await openWorkflow(canvasExample.id, exotelNodes[0].name);
			for (const n of exotelNodes) {
				await expect(canvasNode(n.name).getAttribute('data-node-type')).resolves.toBe(n.type);
				await expect(canvasNode(n.name).locator(`img[src*="/icons/${PACKAGE}/"]`).count()).resolves.toBe(1);
			}
			for (const n of exotelNodes) await assertNotPlaceholder(n.name);
			await page.locator('[data-test-id="zoom-to-fit"]').click();
			await assertNoErrorToasts();
			await screenshot('workflow-canvas');
		});
	},
	WAIT.test,
);
