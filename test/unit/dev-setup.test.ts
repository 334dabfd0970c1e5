/* eslint-disable @n8n/community-nodes/no-restricted-imports -- writes a temporary dev folder (fs, os, path); never shipped */
/**
 * What `npm run dev` imports and publishes (scripts/dev-setup.ts), on a stand-in for n8n that holds
 * credentials and workflows in memory: credentials and examples only when missing; an example that
 * starts from a webhook published once, on its first import, also when the first start stopped
 * before n8n was up; never again after (the user's choice stays). The real-n8n side of it is
 * test/e2e/cli/dev-examples.e2e.test.ts.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { readExamples, startsFromWebhook, type ExampleWorkflow } from '../../scripts/dev-examples';
import { devStateFile, importBeforeStart, publishAfterStart, readDevState } from '../../scripts/dev-setup';
import type { CredentialSpec } from '../harness/workflows';

const examples = readExamples();
const webhookStarted = examples.filter(startsFromWebhook).map((example) => example.id);
const credentials: CredentialSpec[] = [
	{ id: 'exotelSandboxApi', name: 'Exotel Sandbox', type: 'exotelApi', data: { baseUrl: 'http://127.0.0.1:4010' } },
	{ id: 'exotelSandboxAlloc', name: 'Exotel Sandbox (allocation)', type: 'exotelAllocationApi', data: {} },
];

/** n8n as dev's setup sees it: what it holds, what was published, and every import it got. */
class FakeN8n {
	readonly credentials = new Map<string, { id: string; name: string; type: string }>();
	readonly workflows = new Map<string, { id: string; name: string }>();
	readonly published = new Set<string>();
	readonly imports: string[][] = [];
	failPublishing = new Set<string>();

	constructor(readonly userFolder: string) {}

	async listCredentials() {
		return [...this.credentials.values()];
	}

	async importCredentials(list: CredentialSpec[]) {
		this.imports.push(list.map((c) => c.id));
		for (const { id, name, type } of list) this.credentials.set(id, { id, name, type });
	}

	async listWorkflows() {
		return [...this.workflows.values()];
	}

	async importWorkflows(list: object[]) {
		const ids = (list as ExampleWorkflow[]).map((w) => w.id);
		this.imports.push(ids);
		for (const w of list as ExampleWorkflow[]) this.workflows.set(w.id, { id: w.id, name: w.name });
		return ids;
	}

	async publish(id: string) {
		if (this.failPublishing.has(id)) throw new Error(`Workflow ${id} publication failed: trigger error\nserver log...`);
		this.published.add(id);
	}
}

let tmp: string;
beforeEach(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-dev-setup-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const start = (n8n: FakeN8n, sandboxOrigin = 'http://127.0.0.1:4010') => importBeforeStart(n8n, { credentials, examples, sandboxOrigin });

describe('npm run dev: import what is missing, publish once', () => {
	it('the first start imports everything and publishes the examples that start from a webhook; the next leaves all as the user left it', async () => {
		const n8n = new FakeN8n(tmp);
		const first = await start(n8n);
		expect(first.credentials).toEqual({ imported: credentials.map((c) => c.id), kept: [] });
		expect(first.examples).toEqual({ imported: examples.map((e) => e.id), kept: [] });
		expect(first.toPublish).toEqual(webhookStarted);
		expect(await publishAfterStart(n8n, first.toPublish)).toEqual({ published: webhookStarted, failed: [] });
		expect(readDevState(devStateFile(tmp))).toEqual({ pendingPublish: [], credentialsFor: 'http://127.0.0.1:4010' });

		// the user unpublishes one example, renames a credential and an example
		n8n.published.delete('exotelExampleSms01');
		n8n.credentials.get('exotelSandboxApi')!.name = 'My Exotel';
		n8n.workflows.get('exoCampaignList1')!.name = 'My campaign';
		const importsBefore = n8n.imports.length;

		const second = await start(n8n);
		expect(second.credentials).toEqual({ imported: [], kept: credentials.map((c) => c.id) });
		expect(second.examples).toEqual({ imported: [], kept: examples.map((e) => e.id) });
		expect(second.toPublish).toEqual([]);
		expect(n8n.imports).toHaveLength(importsBefore);
		expect(n8n.published.has('exotelExampleSms01')).toBe(false);
		expect(n8n.credentials.get('exotelSandboxApi')!.name).toBe('My Exotel');
		expect(n8n.workflows.get('exoCampaignList1')!.name).toBe('My campaign');
	});

	it('credentials imported for the other mode of the sandbox (--live) are kept, with a note saying what to change', async () => {
		const n8n = new FakeN8n(tmp);
		await start(n8n);
		const live = await importBeforeStart(n8n, { credentials, examples, sandboxOrigin: 'http://127.0.0.1:4010', live: true });
		expect(live.credentials.imported).toEqual([]);
		expect(live.notes).toEqual([expect.stringMatching(/imported for the spec mode.*Chat App Envelope to WhatsApp.*Asia\/Kolkata/)]);
		// deleted, they come back for live mode; then the spec mode is the other one
		n8n.credentials.clear();
		expect((await importBeforeStart(n8n, { credentials, examples, sandboxOrigin: 'http://127.0.0.1:4010', live: true })).notes).toEqual([]);
		expect(readDevState(devStateFile(tmp))).toMatchObject({ credentialsLive: true });
		expect((await start(n8n)).notes).toEqual([expect.stringMatching(/imported for live mode/)]);
	});

	it('a first start stopped before n8n was up still publishes its examples on the next start', async () => {
		const n8n = new FakeN8n(tmp);
		await start(n8n); // stopped here: nothing published
		const next = await start(n8n);
		expect(next.examples.imported).toEqual([]);
		expect(next.toPublish).toEqual(webhookStarted);
		await publishAfterStart(n8n, next.toPublish);
		expect([...n8n.published].sort()).toEqual([...webhookStarted].sort());
		expect((await start(n8n)).toPublish).toEqual([]);
	});

	it('an example deleted in the editor comes back on the next start, published again; only the missing credential is imported', async () => {
		const n8n = new FakeN8n(tmp);
		await publishAfterStart(n8n, (await start(n8n)).toPublish);
		n8n.workflows.delete('exoRefundApprove1');
		n8n.published.delete('exoRefundApprove1');
		n8n.credentials.delete('exotelSandboxAlloc');
		const next = await start(n8n);
		expect(next.examples.imported).toEqual(['exoRefundApprove1']);
		expect(next.credentials).toEqual({ imported: ['exotelSandboxAlloc'], kept: ['exotelSandboxApi'] });
		expect(n8n.imports.slice(-2)).toEqual([['exotelSandboxAlloc'], ['exoRefundApprove1']]);
		expect(next.toPublish).toEqual(['exoRefundApprove1']);
	});

	it('one that cannot be published is reported (first line of the error) and not tried again', async () => {
		const n8n = new FakeN8n(tmp);
		n8n.failPublishing.add('exoChatAutoRpl01');
		const result = await publishAfterStart(n8n, (await start(n8n)).toPublish);
		expect(result.failed).toEqual([{ id: 'exoChatAutoRpl01', error: 'Workflow exoChatAutoRpl01 publication failed: trigger error' }]);
		expect(result.published).toEqual(webhookStarted.filter((id) => id !== 'exoChatAutoRpl01'));
		expect((await start(n8n)).toPublish).toEqual([]);
	});

	it('kept credentials that point at another sandbox origin are left alone, with a note saying how to change them', async () => {
		const n8n = new FakeN8n(tmp);
		await start(n8n, 'http://127.0.0.1:4010');
		const moved = await start(n8n, 'http://127.0.0.1:4020');
		expect(moved.credentials.imported).toEqual([]);
		expect(moved.notes).toEqual([expect.stringMatching(/imported for the sandbox at http:\/\/127\.0\.0\.1:4010 and are kept as they are; this sandbox is at http:\/\/127\.0\.0\.1:4020/)]);
		expect((await start(n8n, 'http://127.0.0.1:4010')).notes).toEqual([]);
	});
});
