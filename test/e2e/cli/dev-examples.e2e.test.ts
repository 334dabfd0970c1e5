/**
 * `npm run dev` keeps the user's edits: its import step (scripts/dev.ts, importMissingExamples)
 * run on a real n8n 2.8.4 twice against one user folder, as two dev starts, with an example renamed
 * in between. The second start imports nothing and the rename survives.
 */
import path from 'path';

import { importMissingExamples, readExamples } from '../../../scripts/dev';
import { JEST_TIMEOUTS, makeTempDir, N8nInstance, packPackage, removeTempDir } from '../../harness';

const RENAMED = 'My SMS workflow (renamed in the editor)';

describe('npm run dev: example import', () => {
	const examples = readExamples();
	let userFolder: string;
	let tarball: string;
	let instance: N8nInstance | undefined;

	beforeAll(async () => {
		userFolder = await makeTempDir('dev-examples-');
		tarball = await packPackage();
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance);

	afterEach(async () => {
		await instance?.dispose();
		instance = undefined;
	}, JEST_TIMEOUTS.dispose);

	afterAll(async () => {
		if (userFolder) await removeTempDir(userFolder);
		if (tarball) await removeTempDir(path.dirname(tarball));
	});

	it('has examples with fixed ids to match on', () => {
		expect(examples.length).toBeGreaterThan(0);
		for (const example of examples) expect(example.id).toMatch(/^[A-Za-z0-9]+$/);
	});

	it(
		'the first start imports every example',
		async () => {
			instance = await N8nInstance.create({ tarball, userFolder });
			const result = await importMissingExamples(instance, examples);
			expect(result).toEqual({ imported: examples.map((example) => example.id), kept: [] });
			const listed = await instance.listWorkflows();
			expect(listed.map((workflow) => workflow.id).sort()).toEqual(examples.map((example) => example.id).sort());

			// the user renames one example in the editor (the same row n8n's editor would update)
			const [first] = examples;
			await instance.importWorkflows([{ ...first, name: RENAMED }]);
			expect((await instance.listWorkflows()).find((workflow) => workflow.id === first.id)?.name).toBe(RENAMED);
		},
		JEST_TIMEOUTS.createInstance + 4 * JEST_TIMEOUTS.execute,
	);

	it(
		'the next start, on the same user folder, imports nothing and keeps the rename',
		async () => {
			instance = await N8nInstance.create({ tarball, userFolder });
			const result = await importMissingExamples(instance, examples);
			expect(result).toEqual({ imported: [], kept: examples.map((example) => example.id) });
			const listed = await instance.listWorkflows();
			expect(listed).toHaveLength(examples.length);
			expect(listed.find((workflow) => workflow.id === examples[0].id)?.name).toBe(RENAMED);
			for (const example of examples.slice(1)) {
				expect(listed.find((workflow) => workflow.id === example.id)?.name).toBe(example.name);
			}
		},
		JEST_TIMEOUTS.createInstance + 3 * JEST_TIMEOUTS.execute,
	);
});
