/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- runs npm ls and npm pack on the repository (child_process, fs, path, __dirname); never shipped */
/**
 * What users install: only dist/, README, LICENSE and the published fields of package.json (staged by
 * scripts/stage-package.js, as the publish workflow and the real-n8n tests pack it), and no runtime dependency.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

// plain JavaScript, run by the publish workflow as it is
import { PUBLISHED_FIELDS, stagePackage } from '../../scripts/stage-package';

const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

let staged = '';
beforeAll(() => {
	staged = stagePackage(fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-package-test-')));
});
afterAll(() => fs.rmSync(staged, { recursive: true, force: true }));

describe('package contract', () => {
	it('declares no runtime dependencies, only n8n-workflow as a peer, and no install scripts', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		for (const script of ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish']) {
			expect(pkg.scripts?.[script]).toBeUndefined();
		}
		// the sandbox is a workspace of the repository, never a dependency of what users install
		expect(pkg.workspaces).toEqual(['sandbox']);
		const ls = JSON.parse(
			execFileSync('npm', ['ls', '--omit=dev', '--omit=peer', '--json', '--depth=0', '--workspaces=false'], { cwd: root, encoding: 'utf8' }),
		);
		expect(Object.keys(ls.dependencies ?? {})).toEqual([]);
	});

	it('lists every built node and credential in the n8n block, all under dist/', () => {
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(pkg.n8n.strict).toBe(true);
		const listed = [...pkg.n8n.nodes, ...pkg.n8n.credentials] as string[];
		for (const file of listed) expect(file).toMatch(/^dist\/(nodes|credentials)\/.+\.js$/);
		const sources = (dir: string, suffix: string) =>
			fs
				.readdirSync(path.join(root, dir), { recursive: true })
				.map(String)
				.filter((file) => file.endsWith(suffix))
				.map((file) => `dist/${dir}/${file.replace(/\.ts$/, '.js')}`);
		expect([...pkg.n8n.nodes].sort()).toEqual(sources('nodes', '.node.ts').sort());
		expect([...pkg.n8n.credentials].sort()).toEqual(sources('credentials', '.credentials.ts').sort());
	});

	it('publishes only the fields a package needs: nothing of the repository\'s development reaches n8n', () => {
		// n8n unpacks the tarball and runs `npm install` inside it: every field there is read as a project's own
		const published = JSON.parse(fs.readFileSync(path.join(staged, 'package.json'), 'utf8'));
		expect(Object.keys(published)).toEqual(PUBLISHED_FIELDS.filter((field: string) => field in pkg));
		for (const field of Object.keys(published)) expect([field, published[field]]).toEqual([field, pkg[field]]);
		for (const field of ['main', 'scripts', 'devDependencies', 'workspaces', 'allowScripts', 'overrides']) expect(published[field]).toBeUndefined();
		// root's own fields that are the repository's, so a new one is a decision, not a leak
		expect(Object.keys(pkg).filter((field) => !PUBLISHED_FIELDS.includes(field))).toEqual(['workspaces', 'scripts', 'devDependencies', 'allowScripts']);
	});

	it('passes n8n\'s lint and the scanner\'s rule sets as published', () => {
		const eslint = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
		for (const config of ['eslint.config.mjs', 'eslint.scanner.config.mjs']) {
			const run = () => execFileSync(process.execPath, [eslint, '-c', path.join(root, config), '--max-warnings', '0', 'package.json'], { cwd: staged, encoding: 'utf8' });
			expect(run).not.toThrow();
		}
	});

	it('packs only dist/, README, LICENSE and package.json', () => {
		const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: staged, encoding: 'utf8' }));
		const files = (pack.files as Array<{ path: string }>).map((file) => file.path);
		expect(files.filter((file) => !file.startsWith('dist/'))).toEqual(['LICENSE', 'README.md', 'package.json'].sort());
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials, 'dist/icons/exotel.svg', 'dist/icons/exotel.dark.svg']) {
			expect(files).toContain(file);
		}
		// each node's codex (categories, aliases, documentation links) beside its compiled file, where n8n reads it
		for (const node of pkg.n8n.nodes as string[]) expect(files).toContain(node.replace(/\.js$/, '.json'));
		expect(files.filter((file) => file.endsWith('.node.json'))).toHaveLength(pkg.n8n.nodes.length);
		expect(files.some((file) => /\.test\.|sandbox|\/test\//.test(file))).toBe(false);
	});
});
