/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the codex files and loads the built nodes with n8n-core's package loader (fs, path, __dirname, @n8n/backend-common, @n8n/di); never shipped */
/**
 * Each node's codex, `<Node>.node.json` beside `<Node>.node.ts`: the categories the nodes panel
 * files it under, the aliases its search finds it by, and the documentation links of its panel.
 * n8n reads it from beside the compiled node (`dist/nodes/<Node>/<Node>.node.json`, the `.js`
 * path with `on` appended), so the build copies it there.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import fs from 'fs';
import { PackageDirectoryLoader } from 'n8n-core';
import type { ICredentialType, INodeType, INodeTypeDescription } from 'n8n-workflow';
import path from 'path';

import { ExotelAllocationApi } from '../../credentials/ExotelAllocationApi.credentials';
import { ExotelApi } from '../../credentials/ExotelApi.credentials';
import { ExotelBearerTokenApi } from '../../credentials/ExotelBearerTokenApi.credentials';
import { ExotelCallFlowApi } from '../../credentials/ExotelCallFlowApi.credentials';
import { ExotelContactCenterApi } from '../../credentials/ExotelContactCenterApi.credentials';
import { ExotelCallFlowTrigger } from '../../nodes/ExotelCallFlowTrigger/ExotelCallFlowTrigger.node';
import { ExotelContactCenter } from '../../nodes/ExotelContactCenter/ExotelContactCenter.node';
import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { ExotelMessagingTrigger } from '../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { ExotelNumberAllocation } from '../../nodes/ExotelNumberAllocation/ExotelNumberAllocation.node';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';
import { ExotelVoiceTrigger } from '../../nodes/ExotelVoiceTrigger/ExotelVoiceTrigger.node';

const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const listedNodes = pkg.n8n.nodes as string[];

const NODE_TYPES: INodeType[] = [
	new ExotelMessaging(),
	new ExotelMessagingTrigger(),
	new ExotelVoice(),
	new ExotelVoiceTrigger(),
	new ExotelCallFlowTrigger(),
	new ExotelContactCenter(),
	new ExotelNumberAllocation(),
];
const CREDENTIALS: ICredentialType[] = [new ExotelApi(), new ExotelBearerTokenApi(), new ExotelContactCenterApi(), new ExotelAllocationApi(), new ExotelCallFlowApi()];

/**
 * n8n's categories: those its documentation lists for codex files, and "Marketing", the spelling
 * n8n's own nodes use (the editor groups by the exact string). "Core Nodes" is n8n's own, and
 * "Custom Nodes" is added by n8n itself to unpackaged custom nodes.
 */
const N8N_CATEGORIES = [
	'Analytics',
	'Communication',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'Marketing',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

/** Words a user would type into the nodes panel's search for each node. */
const EXPECTED_ALIASES: Record<string, string[]> = {
	exotelMessaging: ['SMS', 'WhatsApp', 'RCS', 'Text Message', 'Chat', 'Approval', 'Human in the Loop'],
	exotelMessagingTrigger: ['SMS', 'WhatsApp', 'RCS', 'Incoming Message', 'Delivery Report', 'Status Callback'],
	exotelVoice: ['Call', 'IVR', 'Phone', 'Campaign', 'Dialer'],
	exotelVoiceTrigger: ['Call', 'Call Status', 'Status Callback', 'Campaign Status'],
	exotelCallFlowTrigger: ['Call', 'IVR', 'Passthru', 'Call Routing'],
	exotelContactCenter: ['Call Center', 'Agent', 'CCaaS'],
	exotelNumberAllocation: ['Virtual Number', 'Masked Number', 'ExoBridge'],
};

interface Codex {
	node: string;
	nodeVersion: string;
	codexVersion: string;
	categories: string[];
	subcategories?: Record<string, string[]>;
	resources: {
		credentialDocumentation?: Array<{ url: string }>;
		primaryDocumentation: Array<{ url: string }>;
	};
	alias: string[];
}

/** The same rule as doc-links.test.ts: the bare host, or a docs root such as /api, /docs, /api-console. */
function isHomePage(link: string): boolean {
	const url = new URL(link);
	const segments = url.pathname.split('/').filter(Boolean);
	return segments.length === 0 || (segments.length === 1 && ['api', 'docs', 'api-console', 'exoml'].includes(segments[0]));
}

/** `dist/nodes/X/X.node.js` → `nodes/X/X.node.json`. */
const sourceCodexOf = (listed: string) => path.join(root, listed.replace(/^dist\//, '').replace(/\.js$/, '.json'));
const readCodex = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Codex;

function descriptionOf(listed: string): INodeTypeDescription {
	const name = path.basename(listed, '.node.js');
	const type = NODE_TYPES.find((candidate) => candidate.constructor.name === name);
	if (!type) throw new Error(`no node class ${name} in this test's list`);
	return type.description;
}

const cases = listedNodes.map((listed) => [path.basename(listed, '.js'), listed] as const);

describe('codex files', () => {
	it('covers every node of package.json and nothing else', () => {
		expect(listedNodes).toHaveLength(NODE_TYPES.length);
		const sources = fs
			.readdirSync(path.join(root, 'nodes'), { recursive: true })
			.map(String)
			.filter((file) => file.endsWith('.node.json'))
			.map((file) => `dist/nodes/${file.replace(/\\/g, '/').replace(/\.json$/, '.js')}`);
		expect(sources.sort()).toEqual([...listedNodes].sort());
	});

	it.each(cases)('%s names its node and versions as n8n reads them', (_name, listed) => {
		const codex = readCodex(sourceCodexOf(listed));
		const description = descriptionOf(listed);
		expect(codex.node).toBe(`${pkg.name}.${description.name}`);
		const version = Array.isArray(description.version) ? Math.max(...description.version) : description.version;
		expect(codex.nodeVersion).toBe(Number.isInteger(version) ? `${version}.0` : String(version));
		expect(codex.codexVersion).toBe('1.0');
		expect(Object.keys(codex).filter((key) => !['node', 'nodeVersion', 'codexVersion', 'categories', 'subcategories', 'resources', 'alias'].includes(key))).toEqual([]);
	});

	it.each(cases)('%s files itself under n8n categories only', (_name, listed) => {
		const { categories, subcategories } = readCodex(sourceCodexOf(listed));
		expect(categories.length).toBeGreaterThan(0);
		expect(categories).toContain('Communication');
		for (const category of categories) expect([category, N8N_CATEGORIES.includes(category)]).toEqual([category, true]);
		expect(new Set(categories).size).toBe(categories.length);
		for (const category of Object.keys(subcategories ?? {})) expect(categories).toContain(category);
	});

	it.each(cases)('%s is found by the words users search for', (_name, listed) => {
		const { alias } = readCodex(sourceCodexOf(listed));
		const { name, displayName } = descriptionOf(listed);
		for (const word of EXPECTED_ALIASES[name]) expect(alias).toContain(word);
		for (const word of alias) expect(word).toMatch(/^\S(.*\S)?$/);
		expect(new Set(alias.map((word) => word.toLowerCase())).size).toBe(alias.length);
		// The display name is searched anyway; an alias repeating it adds nothing.
		expect(alias.map((word) => word.toLowerCase())).not.toContain(displayName.toLowerCase());
	});

	it.each(cases)('%s links to specific pages of the Exotel developer docs', (_name, listed) => {
		const { resources } = readCodex(sourceCodexOf(listed));
		const links = [...resources.primaryDocumentation, ...(resources.credentialDocumentation ?? [])].map((entry) => entry.url);
		expect(resources.primaryDocumentation.length).toBeGreaterThan(0);
		for (const link of links) {
			expect(link).toMatch(/^https:\/\/developer\.exotel\.com\//);
			expect([link, isHomePage(link)]).toEqual([link, false]);
		}
	});

	it.each(cases)("%s links each of its credentials' own pages as credential documentation", (_name, listed) => {
		const { resources } = readCodex(sourceCodexOf(listed));
		const expected = [
			...new Set(
				(descriptionOf(listed).credentials ?? []).map(({ name }) => {
					const credential = CREDENTIALS.find((candidate) => candidate.name === name);
					if (!credential) throw new Error(`no credential ${name}`);
					return String(credential.documentationUrl);
				}),
			),
		];
		expect((resources.credentialDocumentation ?? []).map((entry) => entry.url)).toEqual(expected);
	});
});

// The build's output, checked when there is one (`npm test` builds first; a dist/ from before a
// codex change fails here until `npm run build` runs again).
const built = listedNodes.every((listed) => fs.existsSync(path.join(root, listed)));
(built ? describe : describe.skip)('codex files in the build', () => {
	it.each(cases)('%s has its codex beside the compiled node, as in the source', (_name, listed) => {
		const compiled = path.join(root, listed.replace(/\.js$/, '.json'));
		expect([compiled, fs.existsSync(compiled)]).toEqual([compiled, true]);
		expect(fs.readFileSync(compiled, 'utf8')).toBe(fs.readFileSync(sourceCodexOf(listed), 'utf8'));
	});

	it("n8n-core's package loader gives every built node its codex", () => {
		const silent = () => undefined;
		const logger = { debug: silent, info: silent, warn: silent, error: silent, scoped: () => logger };
		Container.set(Logger, logger as unknown as Logger);
		const loader = new PackageDirectoryLoader(root);
		for (const listed of listedNodes) {
			loader.loadNodeFromFile(listed, pkg.version);
			const name = descriptionOf(listed).name;
			const source = readCodex(sourceCodexOf(listed));
			expect([name, loader.nodeTypes[name]?.type.description.codex]).toEqual([
				name,
				{
					categories: source.categories,
					alias: source.alias,
					resources: {
						primaryDocumentation: source.resources.primaryDocumentation,
						credentialDocumentation: source.resources.credentialDocumentation,
					},
				},
			]);
		}
	});
});
