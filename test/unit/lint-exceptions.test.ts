/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files (fs, __dirname); never shipped */
/**
 * n8n's own tool must call the package eligible for n8n Cloud, and the exceptions to its rules must be few
 * enough to count:
 * - `eslint.config.mjs` is the default of `@n8n/node-cli`, compared as the tool compares it, and
 *   `package.json` keeps strict mode;
 * - nothing in `nodes/` or `credentials/` switches a rule off, in any way ESLint reads a comment;
 * - code that never ships switches off only the rules for what n8n Cloud forbids to nodes (Node's globals and
 *   modules, and spawning processes where it imports `child_process`), once per file at its top, with the reason;
 * - `docs/development.md` lists exactly those files and rules.
 */
import fs from 'fs';
import path from 'path';

import ts from 'typescript';

import { section } from '../helpers/markdown';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

const PREFIX = '@n8n/community-nodes/';
/** The cloud-runtime rules, in the order a directive names them. */
const CLOUD_RUNTIME_RULES = ['no-restricted-globals', 'no-restricted-imports', 'no-dangerous-functions'];
const SHIPPED = ['nodes', 'credentials'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'coverage', 'published', '.dev', '.n8n-e2e']);
const SOURCE = /\.(ts|js|mjs|cjs)$/;
/** What ESLint reads as a directive: `eslint-disable…`, `eslint-enable`, `eslint <rules>`, `eslint-env`, `global(s)`, `exported`. */
const DIRECTIVE = /^\s*(eslint(-[a-z-]+)?|globals?|exported)(\s|$)/;
const FILE_DIRECTIVE = /^ eslint-disable (\S+(?:, \S+)*) -- (.+) $/;
const CHILD_PROCESS_IMPORT = /from '(node:)?child_process'|require\('(node:)?child_process'\)/;

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = path.posix.join(dir, entry.name);
		if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(file);
		return SOURCE.test(entry.name) ? [file] : [];
	});
}

interface Comment {
	type: 'Line' | 'Block';
	/** The text between the comment's markers, as ESLint reads a directive from it. */
	value: string;
	start: number;
}

/** Every comment of a source file (the trivia around each token, so none inside strings or templates), and where its code starts. */
function commentsOf(file: string, text: string): { comments: Comment[]; codeStart: number } {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
	const found = new Map<number, Comment>();
	const visit = (node: ts.Node) => {
		const ranges = [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? [])];
		for (const range of ranges) {
			const line = range.kind === ts.SyntaxKind.SingleLineCommentTrivia;
			found.set(range.pos, { type: line ? 'Line' : 'Block', value: text.slice(range.pos + 2, line ? range.end : range.end - 2), start: range.pos });
		}
		for (const child of node.getChildren(source)) visit(child);
	};
	visit(source);
	const first = source.statements[0];
	return { comments: [...found.values()].sort((a, b) => a.start - b.start), codeStart: first ? first.getStart(source) : text.length };
}

interface Exception {
	rules: string[];
	reason: string;
}

/**
 * What is wrong with one file's directive comments, and the rules it switches off. `shipped` files may have none;
 * others one `/* eslint-disable <cloud-runtime rules> -- <why>; never shipped *\/` before any code.
 */
export function checkDirectives(file: string, text: string, shipped: boolean): { problems: string[]; exception?: Exception } {
	const { comments, codeStart } = commentsOf(file, text);
	const directives = comments.filter((comment) => DIRECTIVE.test(comment.value));
	if (directives.length === 0) return { problems: [] };
	if (shipped) return { problems: directives.map((comment) => `${file}: ships, and switches rules off: "${comment.value.trim()}"`) };
	const problems: string[] = [];
	const [first, ...rest] = directives;
	for (const comment of rest) problems.push(`${file}: a second directive, "${comment.value.trim()}" (one per file, at its top)`);
	const form = first.type === 'Block' ? FILE_DIRECTIVE.exec(first.value) : null;
	if (!form) return { problems: [...problems, `${file}: "${first.value.trim()}" is not /* eslint-disable <rules> -- <why>; never shipped */`] };
	if (first.start > codeStart) problems.push(`${file}: its directive comes after code (it belongs at the top)`);
	const rules = form[1].split(', ');
	for (const rule of rules) {
		const name = rule.startsWith(PREFIX) ? rule.slice(PREFIX.length) : undefined;
		if (name === undefined || !CLOUD_RUNTIME_RULES.includes(name)) problems.push(`${file}: switches off ${rule}, not a cloud-runtime rule`);
	}
	const names = rules.map((rule) => rule.slice(PREFIX.length));
	const cloud = names.filter((name) => CLOUD_RUNTIME_RULES.includes(name));
	if (cloud.join() !== CLOUD_RUNTIME_RULES.filter((rule) => cloud.includes(rule)).join() || new Set(names).size !== names.length) {
		problems.push(`${file}: rules out of order or repeated (${CLOUD_RUNTIME_RULES.join(', ')})`);
	}
	if (names.includes('no-dangerous-functions') && !CHILD_PROCESS_IMPORT.test(text)) {
		problems.push(`${file}: switches off no-dangerous-functions without importing child_process (eval and new Function stay forbidden)`);
	}
	if (/\beval\s*\(|new Function\s*\(/.test(text) && names.includes('no-dangerous-functions')) problems.push(`${file}: eval or new Function`);
	const reason = form[2];
	if (!/never shipped$/.test(reason)) problems.push(`${file}: the reason must end with "never shipped": "${reason}"`);
	return { problems, exception: { rules: names, reason } };
}

const SHIPPED_FILES = SHIPPED.flatMap((dir) => sourceFiles(dir));
const OTHER_FILES = fs
	.readdirSync(root, { withFileTypes: true })
	.flatMap((entry) => {
		if (SHIPPED.includes(entry.name) || SKIPPED_FOLDERS.has(entry.name)) return [];
		if (entry.isDirectory()) return sourceFiles(entry.name);
		return SOURCE.test(entry.name) ? [entry.name] : [];
	})
	.sort();

/** The table in docs/development.md: `| \`file\` | rule, rule |` rows. */
function documentedExceptions(): Map<string, string[]> {
	const table = section(read('docs/development.md'), 'Lint exceptions') ?? '';
	const rows = [...table.matchAll(/^\| `([^`]+)` \| ([a-z, -]+) \|/gm)];
	return new Map(rows.map((row) => [row[1], row[2].split(', ')]));
}

describe('n8n Cloud eligibility: the tool default lint config and strict mode', () => {
	it('keeps eslint.config.mjs the default of @n8n/node-cli, as `n8n-node lint` compares it', () => {
		// the file `n8n-node lint` compares with (the package's exports do not name it)
		const template = read('node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs');
		const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
		expect(normalise(read('eslint.config.mjs'))).toBe(normalise(template));
		expect(normalise(template)).toBe("import { config } from '@n8n/node-cli/eslint'; export default config;");
	});

	it('keeps strict mode in package.json', () => {
		expect(JSON.parse(read('package.json')).n8n.strict).toBe(true);
	});
});

describe('rules switched off', () => {
	it('finds the shipped and the other source files', () => {
		expect(SHIPPED_FILES.length).toBeGreaterThan(50);
		expect(OTHER_FILES).toEqual(expect.arrayContaining(['test/unit/lint-exceptions.test.ts', 'sandbox/server.ts', 'scripts/dev.ts', 'gulpfile.js']));
	});

	it('switches nothing off in nodes/ or credentials/', () => {
		expect(SHIPPED_FILES.flatMap((file) => checkDirectives(file, read(file), true).problems)).toEqual([]);
	});

	// parsed once for the two checks below (a few seconds)
	let others: Array<[string, ReturnType<typeof checkDirectives>]> = [];
	beforeAll(() => {
		others = OTHER_FILES.map((file) => [file, checkDirectives(file, read(file), false)]);
	});

	it('switches off only cloud-runtime rules elsewhere, once per file, with the reason', () => {
		expect(others.flatMap(([, { problems }]) => problems)).toEqual([]);
	});

	it('lists every exception in docs/development.md, and nothing else', () => {
		const actual = new Map(others.flatMap(([file, { exception }]) => (exception ? [[file, exception.rules] as const] : [])));
		const documented = documentedExceptions();
		expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(actual));
		const count = /(\d+) files switch rules off/.exec(section(read('docs/development.md'), 'Lint exceptions') ?? '');
		expect(Number(count?.[1])).toBe(actual.size);
	});
});

describe('the directive check itself', () => {
	const ok = `/* eslint-disable ${PREFIX}no-restricted-globals -- reads process.env; never shipped */\nconst a = process.env.X;\n`;

	it('accepts a file-level directive of cloud-runtime rules with its reason', () => {
		expect(checkDirectives('test/x.ts', ok, false)).toEqual({ problems: [], exception: { rules: ['no-restricted-globals'], reason: 'reads process.env; never shipped' } });
		const spawning = `/* eslint-disable ${PREFIX}no-restricted-imports, ${PREFIX}no-dangerous-functions -- runs npm (child_process); never shipped */\nimport { spawn } from 'child_process';\nspawn('npm');\n`;
		expect(checkDirectives('test/x.ts', spawning, false).problems).toEqual([]);
		expect(checkDirectives('test/x.ts', 'const text = "// eslint-disable-next-line no-console";\n', false)).toEqual({ problems: [] });
	});

	it('refuses any directive in shipped code, whatever it switches off', () => {
		for (const text of [ok, '// eslint-disable-next-line no-console\nconsole.log(1);\n', 'const a = 1; // eslint-disable-line\n', '/* eslint no-console: off */\n', '/* global fetch */\n']) {
			expect(checkDirectives('nodes/X.node.ts', text, true).problems).toHaveLength(1);
		}
	});

	it('refuses other rules, line directives, a second directive, a missing reason and misplaced ones', () => {
		const refused = (text: string) => checkDirectives('test/x.ts', text, false).problems;
		expect(refused(`/* eslint-disable @typescript-eslint/no-explicit-any -- typing; never shipped */\nconst a: any = 1;\n`)).toEqual([
			'test/x.ts: switches off @typescript-eslint/no-explicit-any, not a cloud-runtime rule',
		]);
		expect(refused(`/* eslint-disable ${PREFIX}no-hardcoded-secrets -- fixtures; never shipped */\n`)[0]).toMatch(/not a cloud-runtime rule/);
		expect(refused('// eslint-disable-next-line no-console\nconsole.log(1);\n')[0]).toMatch(/is not \/\* eslint-disable/);
		expect(refused(`${ok}// eslint-disable-next-line no-console\n`)[0]).toMatch(/a second directive/);
		expect(refused(`/* eslint-disable ${PREFIX}no-restricted-globals */\n`)[0]).toMatch(/is not/);
		expect(refused(`/* eslint-disable ${PREFIX}no-restricted-globals -- reads process.env */\n`)[0]).toMatch(/must end with "never shipped"/);
		expect(refused(`const a = 1;\n${ok}`)[0]).toMatch(/after code/);
		expect(refused(`/* eslint-disable ${PREFIX}no-restricted-imports, ${PREFIX}no-restricted-globals -- x; never shipped */\n`)[0]).toMatch(/out of order/);
		expect(refused(`/* eslint-disable ${PREFIX}no-dangerous-functions -- eval; never shipped */\neval('1');\n`)).toHaveLength(2);
	});
});
