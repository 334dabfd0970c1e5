/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads package.json and the built files (fs, path); never shipped */
/**
 * THIS repo's package, packed and installed into the stage's n8n as users get it (needs `dist/`,
 * which `npm test` builds first): every node and credential of its n8n block is in the editor's
 * type lists, each with an icon the editor can fetch.
 */
import * as fs from 'fs';
import * as path from 'path';

import { JEST_TIMEOUTS, N8nInstance, REPO_ROOT, sharedN8n } from '../harness';

/** The real package, installed from `npm pack` of this repo, when its dist/ is built. */
function builtPackageFiles(): { nodes: string[]; credentials: string[] } | undefined {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const nodes = pkg.n8n?.nodes ?? [];
	const credentials = pkg.n8n?.credentials ?? [];
	const all = [...nodes, ...credentials];
	if (!all.length || !all.every((f) => fs.existsSync(path.join(REPO_ROOT, f)))) return undefined;
	return { nodes, credentials };
}

/** `description.name` of node classes / `name` of credential classes exported by a built file. */
async function exportedNames(file: string, kind: 'node' | 'credential'): Promise<string[]> {
	const mod = (await import(path.join(REPO_ROOT, file))) as Record<string, unknown>;
	return Object.values(mod)
		.filter((v): v is new () => { description?: { name?: string }; name?: string } => typeof v === 'function')
		.map((Cls) => {
			const obj = new Cls();
			return kind === 'node' ? (obj.description?.name as string) : (obj.name as string);
		})
		.filter(Boolean);
}

const built = builtPackageFiles();
(built ? describe : describe.skip)('real n8n: this repo\'s packed package loads (needs dist/)', () => {
	let instance: N8nInstance | undefined;
	const pkgName = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string }).name;

	// the stage's n8n, which has this repo's packed package installed as users get it
	beforeAll(async () => {
		instance = await sharedN8n();
	}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

	afterAll(async () => {
		await instance?.dispose();
	}, JEST_TIMEOUTS.dispose);

	test(
		'every node and credential in the n8n block appears in the editor type lists',
		async () => {
			type TypeEntry = { name: string; iconUrl?: string | { light: string; dark: string } };
			const nodeTypes = await instance!.fetchJson<TypeEntry[]>('/types/nodes.json');
			const credTypes = await instance!.fetchJson<TypeEntry[]>('/types/credentials.json');
			const nodeNames = nodeTypes.map((t) => t.name);
			const credNames = credTypes.map((c) => c.name);
			const ours: TypeEntry[] = [];
			for (const file of built!.nodes) {
				for (const name of await exportedNames(file, 'node')) {
					expect(nodeNames).toContain(`${pkgName}.${name}`);
					ours.push(...nodeTypes.filter((t) => t.name === `${pkgName}.${name}`));
				}
			}
			for (const file of built!.credentials) {
				for (const name of await exportedNames(file, 'credential')) {
					expect(credNames).toContain(name);
					ours.push(...credTypes.filter((t) => t.name === name));
				}
			}
			// every node and credential has a file icon, and every icon the editor would
			// request is served (i.e. it made it into the tarball)
			for (const entry of ours) {
				expect({ type: entry.name, hasIconUrl: !!entry.iconUrl }).toEqual({ type: entry.name, hasIconUrl: true });
				const urls = typeof entry.iconUrl === 'string' ? [entry.iconUrl] : entry.iconUrl ? [entry.iconUrl.light, entry.iconUrl.dark] : [];
				for (const url of urls) {
					const res = await instance!.request('GET', `/${url.replace(/^\/+/, '')}`);
					expect({ type: entry.name, url, status: res.status }).toEqual({ type: entry.name, url, status: 200 });
				}
			}
		},
		JEST_TIMEOUTS.server,
	);
});
