/* eslint-disable @n8n/community-nodes/no-restricted-imports -- builds paths to its files (path); never shipped */
/**
 * `npm run dev`'s import on a real n8n (scripts/dev-setup.ts), run twice against one user folder as
 * two dev starts, with the sandbox's credentials:
 * - the first imports the credentials and every example, starts n8n and publishes the examples that
 *   start from a webhook, so the production URL the banner prints answers (the SMS example sends to
 *   the sandbox); the user then unpublishes that example, renames a credential and an example in the
 *   editor;
 * - the second imports and publishes nothing, and the three edits are as the user left them.
 * One install of the package serves both starts, as it does for `npm run dev`, and what is listed once
 * n8n runs is read through its REST API (the n8n CLI boots n8n for each call: the slow part of this file).
 */
import path from 'path';

import { SANDBOX_CREDENTIAL_IDS, sandboxCredentialData } from '../../../sandbox/fixtures';
import { ExotelSandbox } from '../../../sandbox/server';
import { readExamples, SAMPLE_BODIES, startsFromWebhook } from '../../../scripts/dev-examples';
import { activeWorkflowIds, importBeforeStart, publishAfterStart } from '../../../scripts/dev-setup';
import { JEST_TIMEOUTS, makeTempDir, N8nInstance, packPackage, removeTempDir, type CredentialSpec } from '../../harness';

const RENAMED_WORKFLOW = 'My campaign (renamed in the editor)';
const RENAMED_CREDENTIAL = 'My Exotel account (edited in the editor)';
const SMS_EXAMPLE = 'exotelExampleSms01';
const MANUAL_EXAMPLE = 'exoCampaignList1';

/** What the editor lists while n8n runs: every workflow's and credential's id and name. */
async function listed(instance: N8nInstance): Promise<{ workflows: Record<string, string>; credentials: Array<{ id: string; name: string; type: string }> }> {
	const workflows = await instance.rest<{ data: Array<{ id: string; name: string }> }>('GET', '/workflows');
	const credentials = await instance.rest<{ data: Array<{ id: string; name: string; type: string }> }>('GET', '/credentials');
	expect([workflows.status, credentials.status]).toEqual([200, 200]);
	return {
		workflows: Object.fromEntries(workflows.data.data.map((w) => [w.id, w.name])),
		credentials: credentials.data.data.map(({ id, name, type }) => ({ id, name, type })),
	};
}

describe('npm run dev: what it imports and publishes, and what it leaves as the user left it', () => {
	const examples = readExamples();
	const webhookStarted = examples.filter(startsFromWebhook).map((example) => example.id);
	let sandbox: ExotelSandbox;
	let credentials: CredentialSpec[];
	let userFolder: string;
	let tarball: string;
	let instance: N8nInstance;

	beforeAll(async () => {
		sandbox = new ExotelSandbox({ timeScale: 0.01 });
		await sandbox.start();
		const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
		credentials = Object.entries(data).map(([type, fields]) => ({ ...SANDBOX_CREDENTIAL_IDS[type], type, data: fields }));
		userFolder = await makeTempDir('dev-examples-');
		tarball = await packPackage();
		instance = await N8nInstance.create({ tarball, userFolder, apiKeyLabel: 'npm run dev' });
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance);

	afterAll(async () => {
		await instance?.dispose();
		await sandbox?.stop();
		if (userFolder) await removeTempDir(userFolder);
		if (tarball) await removeTempDir(path.dirname(tarball));
	}, JEST_TIMEOUTS.dispose);

	it('has examples with fixed ids to match on, some started by a webhook', () => {
		expect(examples.length).toBeGreaterThan(0);
		for (const example of examples) expect(example.id).toMatch(/^[A-Za-z0-9]+$/);
		expect(webhookStarted).toContain(SMS_EXAMPLE);
		expect(webhookStarted).not.toContain(MANUAL_EXAMPLE);
	});

	it(
		'the first start imports every credential and example and publishes those that start from a webhook: the production URL answers',
		async () => {
			const before = await importBeforeStart(instance, { credentials, examples, sandboxOrigin: sandbox.origin });
			expect(before.credentials).toEqual({ imported: credentials.map((c) => c.id), kept: [] });
			expect(before.examples).toEqual({ imported: examples.map((e) => e.id), kept: [] });

			await instance.start();
			const first = await listed(instance);
			expect(Object.keys(first.workflows).sort()).toEqual(examples.map((e) => e.id).sort());
			expect(first.credentials.map((c) => c.id).sort()).toEqual(credentials.map((c) => c.id).sort());
			expect(await publishAfterStart(instance, before.toPublish)).toEqual({ published: webhookStarted, failed: [] });
			expect([...(await activeWorkflowIds(instance, examples.map((e) => e.id)))].sort()).toEqual([...webhookStarted].sort());

			// the banner's curl for the SMS example: answered by the workflow, not 404
			const res = await instance.request('POST', instance.webhookUrl('order-shipped'), { data: SAMPLE_BODIES[SMS_EXAMPLE] });
			expect(res.status).toBe(200);
			expect(sandbox.messages().map((m) => m.to)).toContain(SAMPLE_BODIES[SMS_EXAMPLE].phone);

			// the user's edits in the editor: unpublishes the SMS example, renames a credential (the editor
			// sends the whole credential) and an example (the editor sends the version it edited)
			await instance.deactivate(SMS_EXAMPLE);
			const api = credentials.find((c) => c.type === 'exotelApi')!;
			const edited = await instance.rest('PATCH', `/credentials/${api.id}`, { name: RENAMED_CREDENTIAL, type: api.type, data: api.data });
			expect(edited.status).toBe(200);
			const manual = await instance.rest<{ data: { versionId: string } }>('GET', `/workflows/${MANUAL_EXAMPLE}`);
			const renamed = await instance.rest('PATCH', `/workflows/${MANUAL_EXAMPLE}`, { name: RENAMED_WORKFLOW, versionId: manual.data.data.versionId });
			expect(renamed.status).toBe(200);
			await instance.stop();
		},
		JEST_TIMEOUTS.server + 8 * JEST_TIMEOUTS.execute,
	);

	it(
		'the next start, on the same user folder, imports and publishes nothing: the unpublished example, the renamed credential and example stay',
		async () => {
			const before = await importBeforeStart(instance, { credentials, examples, sandboxOrigin: sandbox.origin });
			expect(before).toEqual({
				credentials: { imported: [], kept: credentials.map((c) => c.id) },
				examples: { imported: [], kept: examples.map((e) => e.id) },
				toPublish: [],
				notes: [],
			});

			await instance.start();
			const next = await listed(instance);
			expect(Object.keys(next.workflows)).toHaveLength(examples.length);
			expect(next.workflows[MANUAL_EXAMPLE]).toBe(RENAMED_WORKFLOW);
			expect(next.credentials.find((c) => c.type === 'exotelApi')?.name).toBe(RENAMED_CREDENTIAL);
			expect(await publishAfterStart(instance, before.toPublish)).toEqual({ published: [], failed: [] });
			expect([...(await activeWorkflowIds(instance, examples.map((e) => e.id)))].sort()).toEqual(webhookStarted.filter((id) => id !== SMS_EXAMPLE).sort());
			const res = await instance.request('POST', instance.webhookUrl('order-shipped'), { data: SAMPLE_BODIES[SMS_EXAMPLE] });
			expect(res.status).toBe(404);
		},
		JEST_TIMEOUTS.server + 6 * JEST_TIMEOUTS.execute,
	);
});
