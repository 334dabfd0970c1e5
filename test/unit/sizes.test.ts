/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files (fs, path, __dirname); never shipped */
/**
 * Issue 47: no function longer than a reader holds, no class either. In the non-test `.ts` files of
 * `nodes/`, `credentials/` and `sandbox/`, every function (declarations, methods, constructors,
 * accessors, arrow functions and function expressions) spans at most 60 lines and every class at
 * most 250: a node's line span, end line − start line + 1, from its first token (a leading doc
 * comment is not counted). A function of longer code is split, not exempted.
 *
 * Declarative literals are data, not code: an object or array literal is no function however long (a
 * node's description, a table), and neither is a function whose body is nothing but one such literal
 * (`return {…}`, `() => ({…})`). A function written inside a literal still counts on its own.
 */
import fs from 'fs';
import path from 'path';

import ts from 'typescript';

export const SIZE_LIMITS = { functionLines: 60, classLines: 250 } as const;

const root = path.resolve(__dirname, '..', '..');
const FOLDERS = ['nodes', 'credentials', 'sandbox'] as const;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);

/** The non-test TypeScript sources under `dir` (repository-relative, `/` separated). */
function sourceFiles(dir: string): string[] {
	return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = path.posix.join(dir, entry.name);
		if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(file);
		return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [file] : [];
	});
}

/** The expression under parentheses, `as` and `satisfies`. */
function unwrapped(expression: ts.Expression): ts.Expression {
	let inner = expression;
	while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner)) inner = inner.expression;
	return inner;
}

function isLiteral(expression: ts.Expression | undefined): boolean {
	if (!expression) return false;
	const inner = unwrapped(expression);
	return ts.isObjectLiteralExpression(inner) || ts.isArrayLiteralExpression(inner);
}

/** A function that only hands out one object or array literal: a description, not code. */
function isDeclarative(fn: ts.FunctionLikeDeclaration): boolean {
	const body = fn.body;
	if (!body) return false;
	if (!ts.isBlock(body)) return isLiteral(body);
	const [only, ...rest] = body.statements;
	return rest.length === 0 && only !== undefined && ts.isReturnStatement(only) && isLiteral(only.expression);
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
	return (
		ts.isFunctionDeclaration(node) ||
		ts.isMethodDeclaration(node) ||
		ts.isConstructorDeclaration(node) ||
		ts.isGetAccessorDeclaration(node) ||
		ts.isSetAccessorDeclaration(node) ||
		ts.isArrowFunction(node) ||
		ts.isFunctionExpression(node)
	);
}

/** The name a function or class is known by: its own, the one it is assigned to, or undefined (a callback). */
function ownName(node: ts.FunctionLikeDeclaration | ts.ClassLikeDeclaration, source: ts.SourceFile): string | undefined {
	if (ts.isConstructorDeclaration(node)) return 'constructor';
	if (!ts.isArrowFunction(node) && node.name) return node.name.getText(source);
	const parent = node.parent;
	if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
	if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) return parent.left.getText(source);
	return undefined;
}

/** A function as the failures name it: `Class.method`, `outer.inner`, or the callback of what it is written in. */
function functionName(own: string | undefined, owner: string | undefined): string {
	if (own === undefined) return `(callback in ${owner ?? 'the module'})`;
	return owner ? `${owner}.${own}` : own;
}

export interface Oversize {
	file: string;
	line: number;
	name: string;
	lines: number;
}

/** `file:line name (N lines)`, as the failures list them. */
export const describeOversize = ({ file, line, name, lines }: Oversize): string => `${file}:${line} ${name} (${lines} lines)`;

/** The functions and classes of one source text over the limits, in the order they start. */
export function oversized(file: string, text: string, limits: { functionLines: number; classLines: number } = SIZE_LIMITS): Oversize[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
	const found: Oversize[] = [];
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
	const visit = (node: ts.Node, owner: string | undefined) => {
		const measured = ts.isClassLike(node) || isFunctionLike(node) ? node : undefined;
		let inner = owner;
		if (measured) {
			const isClass = ts.isClassLike(measured);
			const own = ownName(measured, source);
			const name = isClass ? `class ${own ?? '(anonymous)'}` : functionName(own, owner);
			const line = lineOf(measured.getStart(source));
			const lines = lineOf(measured.getEnd()) - line + 1;
			const limit = isClass ? limits.classLines : limits.functionLines;
			if (lines > limit && (isClass || !isDeclarative(measured))) found.push({ file, line, name, lines });
			inner = isClass ? (own ?? '(class)') : name;
		}
		ts.forEachChild(node, (child) => visit(child, inner));
	};
	visit(source, undefined);
	return found;
}

describe('the size checker itself', () => {
	/** A function `name` spanning `lines` lines (its opening and closing line included). */
	const fn = (name: string, lines: number) => `function ${name}() {\n${'\tstep();\n'.repeat(lines - 2)}}\n`;
	const check = (text: string) => oversized('x.ts', text).map(describeOversize);

	it('catches a 61-line function and lets a 60-line one be', () => {
		expect(check(`${fn('sixty', 60)}${fn('sixtyOne', 61)}`)).toEqual(['x.ts:61 sixtyOne (61 lines)']);
	});

	it('measures from the first token, so a leading doc comment does not count', () => {
		expect(check(`/**\n * Why.\n */\n${fn('documented', 60)}`)).toEqual([]);
	});

	it('catches methods, constructors, accessors and named arrow functions and function expressions, named with their class', () => {
		const body = '\t\tstep();\n'.repeat(59);
		const text = [
			'class Box {',
			`\tconstructor() {\n${body}\t}`,
			`\trun(): void {\n${body}\t}`,
			`\tget size(): number {\n${body}\t\treturn 1;\n\t}`,
			`\tprivate readonly handler = () => {\n${body}\t};`,
			'}',
			`const arrow = () => {\n${body}};`,
			`exports.later = function () {\n${body}};`,
			`items.forEach((item) => {\n${body}});`,
		].join('\n');
		expect(check(text).map((entry) => entry.replace(/^x\.ts:\d+ /, ''))).toEqual([
			'Box.constructor (61 lines)',
			'Box.run (61 lines)',
			'Box.size (62 lines)',
			'Box.handler (61 lines)',
			'arrow (61 lines)',
			'exports.later (61 lines)',
			'(callback in the module) (61 lines)',
		]);
	});

	it('catches a class over 250 lines and lets a class of 250 be', () => {
		const cls = (name: string, lines: number) => `class ${name} {\n${'\ta = 1;\n'.repeat(lines - 2)}}\n`;
		expect(check(`${cls('Fits', 250)}${cls('TooBig', 251)}`)).toEqual(['x.ts:251 class TooBig (251 lines)']);
	});

	it('lets big literals be, and a function that only returns one, but not a function inside one', () => {
		const rows = '\t{ name: "row", value: 1 },\n'.repeat(80);
		const table = `export const TABLE = [\n${rows}];\n`;
		const description = `function description() {\n\treturn {\n\t\tproperties: [\n${rows}\t\t],\n\t};\n}\n`;
		const arrowDescription = `const fields = (): unknown[] => [\n${rows}];\n`;
		const inside = `export const NODE = {\n\tname: 'x',\n\texecute: () => {\n${'\t\tstep();\n'.repeat(60)}\t},\n};\n`;
		expect(check(`${table}${description}${arrowDescription}`)).toEqual([]);
		expect(check(inside)).toEqual(['x.ts:3 execute (62 lines)']);
	});

	it('counts a function that does more than return a literal', () => {
		const rows = '\t\t{ name: "row" },\n'.repeat(70);
		expect(check(`function options(sorted: boolean) {\n\tconst all = [\n${rows}\t];\n\treturn sorted ? all.sort() : all;\n}\n`)).toEqual(['x.ts:1 options (75 lines)']);
	});
});

describe('function and class sizes (issue 47)', () => {
	it.each(FOLDERS)('holds every function in %s/ to 60 lines and every class to 250', (folder) => {
		const files = sourceFiles(folder);
		expect(files.length).toBeGreaterThan(0);
		const over = files.flatMap((file) => oversized(file, fs.readFileSync(path.join(root, file), 'utf8')));
		expect(over.map(describeOversize)).toEqual([]);
	});
});
