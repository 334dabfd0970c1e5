/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files (fs, path, __dirname); never shipped */
/** Documentation links go to the page about that credential or API family, never the docs' home page. */
import fs from 'fs';
import path from 'path';

import type { ICredentialType } from 'n8n-workflow';

import { ExotelAllocationApi } from '../../credentials/ExotelAllocationApi.credentials';
import { ExotelApi } from '../../credentials/ExotelApi.credentials';
import { ExotelBearerTokenApi } from '../../credentials/ExotelBearerTokenApi.credentials';
import { ExotelCallFlowApi } from '../../credentials/ExotelCallFlowApi.credentials';
import { ExotelContactCenterApi } from '../../credentials/ExotelContactCenterApi.credentials';
import { section } from '../helpers/markdown';

const root = path.resolve(__dirname, '..', '..');
const CREDENTIALS: ICredentialType[] = [new ExotelApi(), new ExotelBearerTokenApi(), new ExotelContactCenterApi(), new ExotelAllocationApi(), new ExotelCallFlowApi()];

/** A home page: the bare host, or a docs root such as /api, /docs, /api-console. */
function isHomePage(link: string): boolean {
	const url = new URL(link);
	const segments = url.pathname.split('/').filter(Boolean);
	return segments.length === 0 || (segments.length === 1 && ['api', 'docs', 'api-console', 'exoml'].includes(segments[0]));
}

describe('documentation links', () => {
	it('recognises home pages', () => {
		for (const home of ['https://developer.exotel.com', 'https://developer.exotel.com/', 'https://developer.exotel.com/api', 'https://developer.exotel.com/api/#intro', 'https://exotel.com']) {
			expect(isHomePage(home)).toBe(true);
		}
		expect(isHomePage('https://developer.exotel.com/api/sms')).toBe(false);
	});

	it.each(CREDENTIALS.map((credential) => [credential.displayName, credential] as const))(
		'%s links to its own page in the Exotel developer docs',
		(_name, credential) => {
			const link = String(credential.documentationUrl);
			expect(link).toMatch(/^https:\/\/developer\.exotel\.com\//);
			expect(isHomePage(link)).toBe(false);
		},
	);

	it('gives each credential its own page', () => {
		const links = CREDENTIALS.map((credential) => credential.documentationUrl);
		expect(new Set(links).size).toBe(links.length);
	});

	// The README's first workflow of each node and that node's section of docs/nodes.md
	it.each(['README.md', 'docs/nodes.md'])('links every node section of %s to its API family, not the docs home page', (file) => {
		const markdown = fs.readFileSync(path.join(root, file), 'utf8');
		const links = [...markdown.matchAll(/\((https?:\/\/[^)\s]*exotel\.com[^)\s]*)\)/g)].map((match) => match[1]);
		const docs = links.filter((link) => new URL(link).hostname === 'developer.exotel.com');
		expect(docs.length).toBeGreaterThan(5);
		for (const link of docs) expect([link, isHomePage(link)]).toEqual([link, false]);
		for (const node of ['Exotel Messaging', 'Exotel Messaging Trigger', 'Exotel Voice', 'Exotel Voice Trigger', 'Exotel Contact Center', 'Exotel Number Allocation']) {
			expect([node, section(markdown, node)?.includes('https://developer.exotel.com/')]).toEqual([node, true]);
		}
	});
});
