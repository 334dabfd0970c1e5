/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the example and writes a temporary dev folder (fs, os, path); never shipped */
/**
 * `npm run dev -- --human-review` (scripts/dev-human-review.ts): the flag starts the newest n8n and
 * refuses 2.8.4; the example of examples/newest-n8n/ is an importable export, imported by that flag
 * only (never by a plain `npm run dev`, nor by 2.8.4's readers of examples/*.json), with the
 * scripted model's credential; the banner gives its curl and the `npm run person` answer. No n8n,
 * no network.
 */
import * as fs from 'fs';
import * as os from 'os';
import type { INode } from 'n8n-workflow';
import * as path from 'path';

import { SANDBOX_CREDENTIAL_IDS } from '../../sandbox/fixtures';
import {
	bodyFieldsRead,
	EXAMPLES_DIR,
	exampleWebhooks,
	HUMAN_REVIEW_EXAMPLE_ID,
	NEWEST_EXAMPLES_DIR,
	NEWEST_SAMPLE_BODIES,
	readExamples,
	startsFromWebhook,
	type ExampleWorkflow,
} from '../../scripts/dev-examples';
import {
	devChoice,
	EXAMPLE_MODEL_ORIGIN,
	humanReviewBanner,
	humanReviewExamples,
	humanReviewNote,
	SCRIPTED_MODEL_CREDENTIAL,
	scriptedModelCredential,
} from '../../scripts/dev-human-review';
import { devStateFile, importBeforeStart, readDevState } from '../../scripts/dev-setup';
import { parsePersonArgs } from '../../scripts/person';
import type { CredentialSpec } from '../harness/workflows';

const FILE = path.join(NEWEST_EXAMPLES_DIR, 'ai-agent-human-review.json');
/** The example as n8n exports it: its nodes, and for each node the targets of each kind of output. */
type Example = ExampleWorkflow & { nodes: INode[]; connections: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>> };
const example = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Example;
const node = (name: string) => example.nodes.find((candidate) => candidate.name === name)!;
const origin = 'http://127.0.0.1:4011';

describe('the flag: the newest n8n, never 2.8.4', () => {
	it('--human-review starts the newest, also when N8N_E2E_TARGET says 2.8.4 or the flag names the newest', () => {
		expect(devChoice(['--human-review'], {})).toEqual({ target: 'newest', humanReview: true });
		expect(devChoice(['--human-review'], { N8N_E2E_TARGET: '2.8.4' })).toEqual({ target: 'newest', humanReview: true });
		expect(devChoice(['--n8n', 'latest', '--human-review'], {})).toEqual({ target: 'newest', humanReview: true });
		expect(devChoice(['--human-review', '--n8n=newest', '--live'], {})).toEqual({ target: 'newest', humanReview: true });
	});

	it('--n8n 2.8.4 beside it is refused, saying why and what to do; a value or a bad --n8n too', () => {
		for (const args of [['--human-review', '--n8n', '2.8.4'], ['--n8n=2.8.4', '--human-review']]) {
			expect(() => devChoice(args, {})).toThrow(
				'--human-review needs the newest n8n: n8n 2.8.4 makes no human-review tools for an AI agent (2.41 does). Drop --n8n 2.8.4 (--human-review starts the newest) or give --n8n newest',
			);
		}
		expect(() => devChoice(['--human-review=yes'], {})).toThrow("--human-review takes no value (got '--human-review=yes')");
		expect(() => devChoice(['--human-review', '--n8n', '2.41'], {})).toThrow('--n8n 2.41: use one of 2.8.4, newest, latest');
	});

	it('without it, the release is chosen as before and no human review is set up', () => {
		expect(devChoice(['--n8n', '2.8.4'], {})).toEqual({ target: '2.8.4', humanReview: false });
		expect(devChoice(['--n8n', 'newest'], {})).toEqual({ target: 'newest', humanReview: false });
	});
});

describe('the example: examples/newest-n8n/ai-agent-human-review.json', () => {
	it('is kept out of examples/*.json: a plain npm run dev (and 2.8.4) never imports it', () => {
		expect(fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'))).not.toContain('ai-agent-human-review.json');
		expect(readExamples().map((e) => e.id)).not.toContain(HUMAN_REVIEW_EXAMPLE_ID);
		expect(readExamples(NEWEST_EXAMPLES_DIR).map((e) => e.id)).toEqual([HUMAN_REVIEW_EXAMPLE_ID]);
	});

	it('is an importable n8n export: fixed id, unique names, connections between its nodes, a sticky note saying what it needs', () => {
		expect(example.id).toMatch(/^[A-Za-z0-9]{1,21}$/);
		expect(example).toMatchObject({ name: expect.any(String), settings: { executionOrder: 'v1' }, pinData: {} });
		const names = example.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		for (const n of example.nodes) {
			expect(n).toMatchObject({ id: expect.any(String), name: expect.any(String), type: expect.any(String), typeVersion: expect.any(Number), parameters: expect.any(Object) });
			expect(n.position).toHaveLength(2);
		}
		for (const [from, outputs] of Object.entries(example.connections)) {
			expect(names).toContain(from);
			for (const [type, lists] of Object.entries(outputs)) for (const target of lists.flat()) expect([names.includes(target.node), target.type]).toEqual([true, type]);
		}
		const note = String(node('Sticky Note').parameters.content);
		expect(note).toMatch(/2\.41/);
		expect(note).toContain('npm run dev -- --human-review');
		expect(note).toMatch(/template: pick your model/);
	});

	it('wires an AI Agent on a chat model and a refund tool gated by Exotel Messaging human review on WhatsApp', () => {
		expect(example.connections).toEqual({
			'Refund Request': { main: [[{ node: 'Refund Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'Refund Agent', type: 'ai_languageModel', index: 0 }]] },
			Issue_Refund: { ai_tool: [[{ node: 'Human Review', type: 'ai_tool', index: 0 }]] },
			'Human Review': { ai_tool: [[{ node: 'Refund Agent', type: 'ai_tool', index: 0 }]] },
		});
		expect(node('Refund Agent')).toMatchObject({ type: '@n8n/n8n-nodes-langchain.agent', parameters: { text: '={{ $json.body.request }}' } });
		expect(node('OpenAI Chat Model')).toMatchObject({ type: '@n8n/n8n-nodes-langchain.lmChatOpenAi', credentials: { openAiApi: SCRIPTED_MODEL_CREDENTIAL } });
		expect(node('Human Review')).toMatchObject({
			type: 'n8n-nodes-exotel.exotelMessagingHitlTool',
			webhookId: expect.any(String),
			credentials: { exotelApi: SANDBOX_CREDENTIAL_IDS.exotelApi },
			parameters: { to: '+919812340001', message: expect.stringContaining('{{ $tool.parameters }}') },
		});
		expect(node('Issue_Refund')).toMatchObject({ type: 'n8n-nodes-base.httpRequestTool', parameters: { url: expect.stringMatching(/^=http:\/\/127\.0\.0\.1:4011\/refund\?/) } });
		// nothing it calls is off the machine
		for (const url of JSON.stringify(example).match(/https?:\/\/[^\s"'`)]+/g) ?? []) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/);
	});

	it('starts from a webhook (published on import) whose sample body has exactly the fields it reads', () => {
		expect(startsFromWebhook(example)).toBe(true);
		expect(Object.keys(NEWEST_SAMPLE_BODIES[HUMAN_REVIEW_EXAMPLE_ID]).sort()).toEqual(bodyFieldsRead(example));
	});
});

describe('what --human-review imports and prints', () => {
	it('the credential points at the scripted model; the examples follow the model to another port', () => {
		expect(scriptedModelCredential(origin)).toEqual({
			id: 'exoScriptedModel',
			name: 'Scripted model (npm run dev)',
			type: 'openAiApi',
			data: { apiKey: expect.any(String), url: 'http://127.0.0.1:4011/v1' },
		});
		expect(JSON.stringify(humanReviewExamples(origin))).toBe(JSON.stringify([example]));
		const moved = JSON.stringify(humanReviewExamples('http://127.0.0.1:4999'));
		expect(moved).toContain('http://127.0.0.1:4999/refund?');
		expect(moved).not.toContain(EXAMPLE_MODEL_ORIGIN);
	});

	it("the banner: the curl with the sample body, npm run person as the manager, the refunds issued, the executions", () => {
		const [hook] = exampleWebhooks(humanReviewExamples(origin), { n8n: 'http://127.0.0.1:5678', sandbox: 'http://127.0.0.1:4010' });
		expect(hook).toMatchObject({ id: HUMAN_REVIEW_EXAMPLE_ID, method: 'POST', path: 'refund-agent', productionUrl: 'http://127.0.0.1:5678/webhook/refund-agent' });
		expect(hook.curl).toBe(
			`curl -s -X POST 'http://127.0.0.1:5678/webhook/refund-agent' -H 'content-type: application/json' -d '{"request":"Refund order ORD-1001 of Rs 499 to the customer"}'`,
		);
		expect(hook.next).toEqual([
			'npm run person -- reply --to +919812340001 --button approve   (taps "Approve refund"; --button decline taps "Decline")',
			'curl -s http://127.0.0.1:4011/refunds   (the refunds the gated tool issued: one after an approval, none after a decline)',
			'its executions in the editor: http://127.0.0.1:5678/workflow/exoAgentReview01/executions',
		]);
		expect(parsePersonArgs(hook.next[0].split('   (')[0].replace('npm run person -- ', '').split(' ')).body).toEqual({ to: '+919812340001', button: 'approve' });
		expect(humanReviewBanner(origin).join('\n')).toContain('http://127.0.0.1:4011/v1');
	});

	it('a start without the flag on a folder the flag set up says why the example does not run', () => {
		expect(humanReviewNote(undefined, false)).toEqual([]);
		expect(humanReviewNote(origin, true)).toEqual([]);
		expect(humanReviewNote(origin, false)).toEqual([expect.stringContaining('runs only with `npm run dev -- --human-review`')]);
	});
});

describe('importing with the scripted model (dev-setup.ts)', () => {
	const sandboxCredentials: CredentialSpec[] = [{ id: 'exotelSandboxApi', name: 'Exotel Sandbox', type: 'exotelApi', data: {} }];
	let tmp: string;
	beforeEach(() => {
		tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-dev-human-review-'));
	});
	afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

	/** n8n as dev's setup sees it, every import call recorded. */
	const fakeN8n = () => {
		const credentials = new Map<string, { id: string; name: string; type: string }>();
		const workflows = new Map<string, { id: string; name: string }>();
		const imports: string[][] = [];
		return {
			userFolder: tmp,
			imports,
			credentials,
			listCredentials: async () => [...credentials.values()],
			importCredentials: async (list: CredentialSpec[]) => {
				imports.push(list.map((c) => c.id));
				for (const { id, name, type } of list) credentials.set(id, { id, name, type });
			},
			listWorkflows: async () => [...workflows.values()],
			importWorkflows: async (list: object[]) => {
				const ids = (list as Array<{ id: string; name: string }>).map((w) => w.id);
				imports.push(ids);
				for (const w of list as Array<{ id: string; name: string }>) workflows.set(w.id, { id: w.id, name: w.name });
				return ids;
			},
		};
	};

	it('imports the credential with the sandbox ones in one call, remembers its origin, and notes a moved model', async () => {
		const n8n = fakeN8n();
		const examples = [...readExamples(), ...humanReviewExamples(origin)];
		const scriptedModel = { credential: scriptedModelCredential(origin), origin: origin };
		const first = await importBeforeStart(n8n, { credentials: sandboxCredentials, examples, sandboxOrigin: 'http://127.0.0.1:4010', scriptedModel });
		expect(first.credentials).toEqual({ imported: ['exotelSandboxApi'], kept: [] });
		expect(first.scriptedModel).toEqual({ imported: true });
		expect(n8n.imports[0]).toEqual(['exotelSandboxApi', 'exoScriptedModel']);
		expect(first.toPublish).toContain(HUMAN_REVIEW_EXAMPLE_ID);
		expect(readDevState(devStateFile(tmp))).toMatchObject({ credentialsFor: 'http://127.0.0.1:4010', scriptedModelFor: origin });

		const moved = { credential: scriptedModelCredential('http://127.0.0.1:4999'), origin: 'http://127.0.0.1:4999' };
		const next = await importBeforeStart(n8n, { credentials: sandboxCredentials, examples, sandboxOrigin: 'http://127.0.0.1:4010', scriptedModel: moved });
		expect(next.scriptedModel).toEqual({ imported: false });
		expect(next.notes).toEqual([expect.stringMatching(/imported for the scripted model at http:\/\/127\.0\.0\.1:4011 .* it is at http:\/\/127\.0\.0\.1:4999 now/)]);

		// a plain start later keeps what the flag set up and imports nothing of it
		const plain = await importBeforeStart(n8n, { credentials: sandboxCredentials, examples: readExamples(), sandboxOrigin: 'http://127.0.0.1:4010' });
		expect(plain.scriptedModel).toBeUndefined();
		expect(readDevState(devStateFile(tmp)).scriptedModelFor).toBe(origin);
	});
});
