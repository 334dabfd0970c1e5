/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files (fs, path, __dirname); never shipped */
/**
 * The layout of nodes/ (docs/development.md, "Where things are"; nodes/shared/README.md): rooms in
 * nodes/shared/ that import only from the rooms below them, nothing of one node's own in shared/,
 * no node importing another, no circle of imports, and one naming rule for helper files.
 */
import fs from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const NODES = path.join(ROOT, 'nodes');
const SHARED = path.join(NODES, 'shared');

/** The rooms of nodes/shared/, bottom up: each may import from those before it. */
const ROOMS = ['rules', 'webhooks', 'transport', 'items', 'descriptions', 'output', 'sendAndWait', 'callFlows'];
/** Rooms on one floor do not import each other. */
const FLOOR: Record<string, number> = { rules: 0, webhooks: 0, transport: 1, items: 2, descriptions: 3, output: 3, sendAndWait: 4, callFlows: 4 };

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/** Every relative import of a file, resolved to a file of the tree. */
function importsOf(file: string): string[] {
	const text = fs.readFileSync(file, 'utf8');
	return [...text.matchAll(/(?:import|export)[^;]*?from\s+'(\.[^']+)'/gs)].map((match) => {
		const target = path.resolve(path.dirname(file), match[1]);
		return fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts');
	});
}

const files = [...sourceFiles(NODES), ...sourceFiles(path.join(ROOT, 'credentials'))];
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const roomOf = (file: string) => (file.startsWith(SHARED + path.sep) ? path.relative(SHARED, file).split(path.sep)[0] : undefined);
/** The node folder (or `credentials`) a file belongs to; undefined in nodes/shared. */
const ownerOf = (file: string) => (roomOf(file) !== undefined ? undefined : rel(file).split('/')[0] === 'credentials' ? 'credentials' : rel(file).split('/')[1]);

type Graph = Map<string, string[]>;

/** Imports from a room to a room on the same or a higher floor, or from nodes/shared out of it. */
function importsUp(g: Graph): string[] {
	const wrong: string[] = [];
	for (const [file, targets] of g) {
		const room = roomOf(file);
		if (room === undefined) continue;
		for (const target of targets) {
			const to = roomOf(target);
			if (to === undefined) wrong.push(`${rel(file)} → ${rel(target)} (outside nodes/shared)`);
			else if (to !== room && FLOOR[to] >= FLOOR[room]) wrong.push(`${rel(file)} → ${rel(target)} (${room} may not use ${to})`);
		}
	}
	return wrong;
}

/** The circles of imports, each as the files around it. */
function circlesIn(g: Graph): string[] {
	const state = new Map<string, 'open' | 'done'>();
	const circles: string[] = [];
	const walk = (file: string, trail: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			circles.push([...trail.slice(trail.indexOf(file)), file].map(rel).join(' → '));
			return;
		}
		state.set(file, 'open');
		for (const target of g.get(file) ?? []) walk(target, [...trail, file]);
		state.set(file, 'done');
	};
	for (const file of g.keys()) walk(file, []);
	return circles;
}

/** Files of nodes/shared that fewer than two nodes reach, with the nodes that do. */
function ownFiles(g: Graph): string[] {
	const users = new Map<string, Set<string>>();
	const visit = (file: string, owner: string, seen: Set<string>) => {
		for (const target of g.get(file) ?? []) {
			if (seen.has(target)) continue;
			seen.add(target);
			if (roomOf(target) !== undefined) users.set(target, (users.get(target) ?? new Set()).add(owner));
			visit(target, owner, seen);
		}
	};
	for (const file of g.keys()) {
		const owner = ownerOf(file);
		if (owner) visit(file, owner, new Set());
	}
	return [...g.keys()]
		.filter((file) => roomOf(file) !== undefined)
		.filter((file) => (users.get(file)?.size ?? 0) < 2)
		.map((file) => `${rel(file)}: ${[...(users.get(file) ?? [])].join(', ') || 'no node'}`);
}

describe('nodes/shared in rooms', () => {
	it('has exactly the rooms its README lists, each holding files', () => {
		const folders = fs.readdirSync(SHARED, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
		expect(folders.sort()).toEqual([...ROOMS].sort());
		expect(fs.readdirSync(SHARED).filter((name) => name.endsWith('.ts'))).toEqual([]);
		const readme = fs.readFileSync(path.join(SHARED, 'README.md'), 'utf8');
		const listed = [...readme.matchAll(/^\| `([a-zA-Z]+)\/` \|/gm)].map((m) => m[1]);
		expect(listed).toEqual(ROOMS);
	});

	it('imports point down: a room uses only rooms on lower floors, never a node or a credential', () => {
		expect(importsUp(graph)).toEqual([]);
	});

	it('holds nothing of one node\'s own: every file serves at least two nodes (credentials count as one)', () => {
		expect(ownFiles(graph)).toEqual([]);
	});
});

describe('nodes', () => {
	it('never import one another', () => {
		const wrong = [...graph].flatMap(([file, targets]) =>
			targets.filter((target) => ownerOf(target) !== undefined && ownerOf(target) !== ownerOf(file)).map((target) => `${rel(file)} → ${rel(target)}`),
		);
		expect(wrong).toEqual([]);
	});

	it('have no circle of imports', () => {
		expect(circlesIn(graph)).toEqual([]);
	});

	it('name helper files by what they hold: resources/ holds only resource folders, no shared.ts anywhere', () => {
		const wrong: string[] = [];
		for (const node of fs.readdirSync(NODES).filter((name) => name !== 'shared' && fs.statSync(path.join(NODES, name)).isDirectory())) {
			const resources = path.join(NODES, node, 'resources');
			if (fs.existsSync(resources)) {
				for (const entry of fs.readdirSync(resources, { withFileTypes: true })) {
					if (!entry.isDirectory()) wrong.push(`${node}/resources/${entry.name}: a node's helper sits at the node's root`);
					else if (!fs.existsSync(path.join(resources, entry.name, 'index.ts'))) wrong.push(`${node}/resources/${entry.name}: no index.ts`);
				}
			}
			for (const file of sourceFiles(path.join(NODES, node))) {
				if (['shared.ts', 'utils.ts', 'helpers.ts', 'common.ts'].includes(path.basename(file))) wrong.push(`${rel(file)}: name it for what it holds (fields.ts, api.ts, ...)`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it('the checks catch what they are for: an import up, a circle, a file of one node in shared', () => {
		const at = (file: string) => path.join(ROOT, file);
		const made: Graph = new Map([
			[at('nodes/shared/items/route.ts'), [at('nodes/shared/descriptions/fields.ts')]],
			[at('nodes/shared/descriptions/fields.ts'), [at('nodes/shared/items/route.ts')]],
			[at('nodes/shared/output/vocabulary.ts'), [at('nodes/ExotelVoice/fields.ts')]],
			[at('nodes/ExotelVoice/fields.ts'), [at('nodes/shared/output/vocabulary.ts')]],
		]);
		expect(importsUp(made)).toEqual([
			'nodes/shared/items/route.ts → nodes/shared/descriptions/fields.ts (items may not use descriptions)',
			'nodes/shared/output/vocabulary.ts → nodes/ExotelVoice/fields.ts (outside nodes/shared)',
		]);
		expect(circlesIn(made)).toHaveLength(2);
		expect(ownFiles(made)).toEqual(['nodes/shared/items/route.ts: no node', 'nodes/shared/descriptions/fields.ts: no node', 'nodes/shared/output/vocabulary.ts: ExotelVoice']);
	});
});
