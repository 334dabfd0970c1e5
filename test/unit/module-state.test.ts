/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the repository's files (fs, path, __dirname); never shipped */
/**
 * In queue mode an execution may run on any worker, and a worker runs many executions in one
 * process: state kept in module memory would leak between executions or differ between workers.
 * This reads every source file of nodes/ and credentials/ with the TypeScript parser and fails on
 * module-level bindings that can hold state: `let`/`var`, and `const`s initialised with a mutable
 * container (`new Map()`, `new Set()`, `[]`, ...) that is not frozen; also non-readonly static
 * class fields. Per-execution state belongs in locals, and state that must outlive an execution
 * in the workflow's static data (which n8n keeps in its database).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const MUTABLE_CONSTRUCTORS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Object']);

function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

function isMutableContainer(init: ts.Expression | undefined): boolean {
	if (!init) return false;
	let e = init;
	while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
	if (ts.isNewExpression(e) && ts.isIdentifier(e.expression)) return MUTABLE_CONSTRUCTORS.has(e.expression.text);
	// an empty literal is only ever useful as a container that is filled later
	if (ts.isArrayLiteralExpression(e)) return e.elements.length === 0;
	if (ts.isObjectLiteralExpression(e)) return e.properties.length === 0;
	return false;
}

/** `file:line  text` for every module-level binding that can hold state. */
export function moduleStateIn(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const report = (node: ts.Node) => {
		const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
		found.push(`${path.relative(ROOT, file)}:${line + 1}  ${node.getText(source).split('\n')[0]}`);
	};
	for (const statement of source.statements) {
		if (ts.isVariableStatement(statement)) {
			const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
			for (const declaration of statement.declarationList.declarations) {
				// an empty parameter list (`description: INodeProperties[] = []`) is read by n8n, never filled
				const isDescription = declaration.type?.getText(source) === 'INodeProperties[]';
				if (!isConst || (isMutableContainer(declaration.initializer) && !isDescription)) report(declaration);
			}
		}
		if (ts.isClassDeclaration(statement)) {
			for (const member of statement.members) {
				const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
				const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
				const isReadonly = modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);
				if (ts.isPropertyDeclaration(member) && isStatic && !isReadonly) report(member);
			}
		}
	}
	return found;
}

test('the checker flags each kind of module-level state and leaves constants alone', () => {
	const sample = [
		'let sessionId: string | undefined;',
		'var calls = 0;',
		'const cache = new Map<string, string>();',
		'const seen: string[] = [];',
		'export const description: INodeProperties[] = [];',
		'const byId = {} as Record<string, number>;',
		'export class Node { static counter = 0; static readonly version = 1; description = {}; }',
		"const LIMITS = { body: 2000 } as const;",
		"const NAMES = ['sms', 'rcs'];",
		'const RETRY = Object.freeze({ attempts: 4 });',
		'function local() { let n = 0; const m = new Map(); return [n, m]; }',
	].join('\n');
	expect(moduleStateIn(path.join(ROOT, 'nodes', 'sample.ts'), sample).map((line) => line.split('  ')[1])).toEqual([
		'sessionId: string | undefined',
		'calls = 0',
		'cache = new Map<string, string>()',
		'seen: string[] = []',
		'byId = {} as Record<string, number>',
		'static counter = 0;',
	]);
});

/**
 * The one exception, by file and binding: the HTTP requests the Call Flow Trigger holds open in this
 * process (and their answers for a moment after), so that a repeat of one starts no second execution.
 * A held request lives only in the process whose socket it came on (main or webhook process, never a
 * worker), so there is nowhere else to keep it; no execution's state is in it.
 */
const PROCESS_LOCAL = ['nodes/ExotelCallFlowTrigger/inFlight.ts:REQUESTS'];

test('no source file in nodes/ or credentials/ keeps state in module memory, but for the requests a process holds', () => {
	const files = [...sourceFiles(path.join(ROOT, 'nodes')), ...sourceFiles(path.join(ROOT, 'credentials'))];
	expect(files.length).toBeGreaterThan(50);
	const found = files.flatMap((file) => moduleStateIn(file));
	const named = found.map((line) => `${line.split(':')[0]}:${line.split('  ')[1].split(/[\s=:]/)[0]}`);
	// the exception is still there (not stale), and nothing else is
	expect(named).toEqual(PROCESS_LOCAL);
});
