/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files (fs, path, __dirname); never shipped */
/**
 * The documentation holds together: every relative link and image in README.md, CHANGELOG.md,
 * docs/*.md and sandbox/README.md points at a file that exists, and every `#anchor` at a heading of
 * the file it names (GitHub's slugs). The README stays a user's page (at most 250 lines) and keeps the
 * commands CI runs (.ci/run).
 */
import fs from 'fs';
import path from 'path';

import { anchors, githubSlug, headings, links, section } from '../helpers/markdown';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

const DOCS = [
	'README.md',
	'CHANGELOG.md',
	...fs
		.readdirSync(path.join(root, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
	'sandbox/README.md',
];

/** A link that leaves the repository: a scheme such as https: or mailto:. */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The repository as package.json names it (`git+https://github.com/<owner>/<name>.git`). */
const REPOSITORY = /github\.com\/([^/]+\/[^/.]+)/.exec(JSON.parse(read('package.json')).repository.url)?.[1] ?? '';
/** Where the npm page's links to files outside the tarball go: a page of the repository, or a picture's raw file. */
const REPOSITORY_LINK = new RegExp(`^https://(?:github\\.com/${REPOSITORY}/blob|raw\\.githubusercontent\\.com/${REPOSITORY})/main/(.+)$`);
/** A link into this repository's main branch, as the repository-relative target it stands for; else undefined. */
const inRepository = (target: string) => REPOSITORY_LINK.exec(target)?.[1];
/** What the tarball holds besides dist/ (scripts/stage-package.js), so what a relative link of the npm page reaches. */
const PUBLISHED = ['README.md', 'LICENSE', 'package.json'];

describe('markdown helpers', () => {
	it('slugs headings as GitHub does', () => {
		expect(githubSlug("Sends of any size: the account's rate limits")).toBe('sends-of-any-size-the-accounts-rate-limits');
		expect(githubSlug('Callbacks (`callbacks/`)')).toBe('callbacks-callbacks');
		expect(githubSlug('"Authentication failed: check the credential" (HTTP 401)')).toBe('authentication-failed-check-the-credential-http-401');
		expect(githubSlug('Where things are, and how to add an operation')).toBe('where-things-are-and-how-to-add-an-operation');
		expect(githubSlug('Messaging → SMS')).toBe('messaging--sms');
		expect(githubSlug('npm run dev')).toBe('npm-run-dev');
		expect(githubSlug('rate_limit and [a link](https://example.com)')).toBe('rate_limit-and-a-link');
	});

	it('numbers repeated headings and skips code blocks', () => {
		const markdown = ['# Title', '## Setup', '```sh', '# not a heading', '```', '## Setup', '### Setup'].join('\n');
		expect(headings(markdown).map((heading) => heading.text)).toEqual(['Title', 'Setup', 'Setup', 'Setup']);
		expect([...anchors(markdown)]).toEqual(['title', 'setup', 'setup-1', 'setup-2']);
	});

	it('finds links and images, not the ones in code, with their lines', () => {
		const markdown = ['See [the docs](docs/a.md#x) and ![a picture](p.png).', '`[not](a-link.md)`', '```', '[nor](this.md)', '```', '[wrapped', 'text](b.md "title")'].join('\n');
		expect(links(markdown)).toEqual([
			{ target: 'docs/a.md#x', image: false, line: 1 },
			{ target: 'p.png', image: true, line: 1 },
			{ target: 'b.md', image: false, line: 6 },
		]);
	});

	it('cuts a section at the next heading of its level or higher', () => {
		const markdown = ['## A', 'a', '### A.1', 'a1', '## B', 'b'].join('\n');
		expect(section(markdown, 'A')).toBe(['a', '### A.1', 'a1'].join('\n'));
		expect(section(markdown, 'B')).toBe('b');
		expect(section(markdown, 'C')).toBeUndefined();
	});
});

describe('documentation links', () => {
	it.each(DOCS)('%s: every relative link and anchor resolves', (file) => {
		const broken: string[] = [];
		for (const link of links(read(file))) {
			const local = isExternal(link.target) ? inRepository(link.target) : link.target;
			if (local === undefined) continue;
			const [rawPath, anchor] = local.split('#', 2);
			const targetPath = decodeURIComponent(rawPath);
			const base = local === link.target ? path.dirname(path.join(root, file)) : root;
			const target = targetPath === '' ? path.join(root, file) : path.resolve(base, targetPath);
			const where = `${file}:${link.line} → ${link.target}`;
			if (!fs.existsSync(target)) {
				broken.push(`${where}: no such file`);
				continue;
			}
			if (anchor === undefined) continue;
			if (!target.endsWith('.md')) {
				broken.push(`${where}: an anchor into a file that is not Markdown`);
				continue;
			}
			if (!anchors(fs.readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))) {
				broken.push(`${where}: no heading with that anchor in ${path.relative(root, target)}`);
			}
		}
		expect(broken).toEqual([]);
	});

	it('links README.md to the docs, the changelog and its pictures', () => {
		const targets = links(read('README.md')).map((link) => (inRepository(link.target) ?? link.target).split('#')[0]);
		for (const file of ['docs/nodes.md', 'docs/send-and-wait.md', 'docs/rate-limits.md', 'docs/development.md', 'CHANGELOG.md']) {
			expect(targets).toContain(file);
		}
		expect(links(read('README.md')).filter((link) => link.image).length).toBeGreaterThan(0);
	});

	it('links README.md, the npm page, to files outside the tarball through the repository, pictures to their raw files', () => {
		expect(REPOSITORY).toBe('n8n-nodes-exotel/n8n-nodes-exotel');
		const relative = links(read('README.md')).filter((link) => !isExternal(link.target) && !link.target.startsWith('#'));
		expect(relative.filter((link) => !PUBLISHED.includes(link.target.split('#')[0])).map((link) => `README.md:${link.line} → ${link.target}`)).toEqual([]);
		const images = links(read('README.md')).filter((link) => link.image);
		expect(images.filter((link) => !link.target.startsWith(`https://raw.githubusercontent.com/${REPOSITORY}/main/`)).map((link) => link.target)).toEqual([]);
	});
});

describe('README.md', () => {
	const readme = read('README.md');

	it('stays a page for n8n users: at most 250 lines', () => {
		expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(250);
	});

	it('keeps the commands to develop and test, which CI runs', () => {
		const develop = section(readme, 'Develop') ?? '';
		const commands = [...develop.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1].split('\n').filter(Boolean));
		expect(commands).toEqual(['npm install && npm run dev', 'npm install && npm test', 'apt-get install -y redis-server postgresql chromium && npm run test:system']);
		const ci = read('.ci/run');
		for (const command of ['npm install', 'npm test', 'apt-get install -y redis-server postgresql chromium', 'npm run test:system']) {
			expect([command, ci.includes(command)]).toEqual([command, true]);
		}
	});
});
