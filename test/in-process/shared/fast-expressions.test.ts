/**
 * The fast expression path of parameterReader (nodes/shared/items/expressions.ts) against n8n's own
 * evaluation, through n8n-core's real WorkflowExecute: a test node whose description declares
 * string parameters reads every parameter for every item both ways, `parameterReader(this)` and
 * `this.getNodeParameter(name, i)`, and the two must agree exactly (same value and type, or the
 * same error). The reader runs on a wrapper context that counts its getNodeParameter calls, so
 * the tests also see whether the fast path was taken (no call) or n8n decided (one call).
 * The same for collection and fixedCollection parameters (compared with key order), and for the
 * real SMS → Send and RCS → Send Template with the fast path on and off.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { NodeExecutionContext } from 'n8n-core/dist/execution-engine/node-execution-context/node-execution-context';

import * as expressions from '../../../nodes/shared/items/expressions';
import { compileParameter, compileTemplate, evaluateParameter } from '../../../nodes/shared/items/expressions';
import { parameterReader } from '../../../nodes/shared/items/parameters';
import { formFields, packageNode, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { chain, packageNodeType, packageNodeTypes, runWorkflow } from '../../helpers/n8n-core-harness';

type Outcome = { value: unknown } | { error: { name: string; message: string } };

interface Reading {
	parameter: string;
	template: string;
	itemIndex: number;
	json: unknown;
	fast: Outcome;
	n8n: Outcome;
	/** getNodeParameter calls the reader made for this read: 0 = fast path, 1 = n8n decided */
	calls: number;
}

const PARAMETER_COUNT = 60;
const parameterNames = Array.from({ length: PARAMETER_COUNT }, (_, i) => `p${i}`);

function outcomeOf(read: () => unknown): Outcome {
	try {
		return { value: read() };
	} catch (error) {
		return { error: { name: (error as Error).constructor.name, message: (error as Error).message } };
	}
}

/** Emits the given JavaScript values as items, as a Code node could (NaN, Dates, undefined, ...). */
function sourceType(values: unknown[]): INodeType {
	return {
		description: {
			displayName: 'JS Items',
			name: 'test.jsItems',
			group: ['input'],
			version: 1,
			description: 'Emits JavaScript items',
			defaults: { name: 'JS Items' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(): Promise<INodeExecutionData[][]> {
			return [values.map((json) => ({ json: json as IDataObject, pairedItem: { item: 0 } }))];
		},
	};
}

/** Reads every declared parameter for every item, with the fast reader and with n8n. */
function compareType(readings: Reading[]): INodeType {
	return {
		description: {
			displayName: 'Compare Parameters',
			name: 'test.compareParameters',
			group: ['transform'],
			version: 1,
			description: 'Reads parameters both ways',
			defaults: { name: 'Compare' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: parameterNames.map((name) => ({ displayName: name, name, type: 'string' as const, default: '' })),
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			const raw = this.getNode().parameters;
			let calls = 0;
			const counted = Object.create(this) as IExecuteFunctions;
			counted.getNodeParameter = ((...args: Parameters<IExecuteFunctions['getNodeParameter']>) => {
				calls++;
				return this.getNodeParameter(...args);
			}) as IExecuteFunctions['getNodeParameter'];
			const param = parameterReader(counted);
			for (const parameter of parameterNames) {
				if (typeof raw[parameter] !== 'string' || raw[parameter] === '') continue;
				for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
					const before = calls;
					const fast = outcomeOf(() => param(parameter, itemIndex, ''));
					const made = calls - before;
					const n8n = outcomeOf(() => this.getNodeParameter(parameter, itemIndex, ''));
					readings.push({ parameter, template: raw[parameter] as string, itemIndex, json: items[itemIndex].json, fast, n8n, calls: made });
				}
			}
			return [items];
		},
	};
}

/** Runs the templates (at most PARAMETER_COUNT) over the items and returns every reading. */
async function compare(templates: string[], values: unknown[]): Promise<Reading[]> {
	expect(templates.length).toBeLessThanOrEqual(PARAMETER_COUNT);
	const readings: Reading[] = [];
	const parameters: INodeParameters = {};
	templates.forEach((template, i) => (parameters[parameterNames[i]] = template));
	const result = await runWorkflow({
		nodes: [
			{ id: 'source', name: 'Source', type: 'test.jsItems', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'compare', name: 'Compare', type: 'test.compareParameters', typeVersion: 1, position: [200, 0], parameters },
		],
		connections: chain('Source', 'Compare'),
		nodeTypes: [sourceType(values), compareType(readings)],
	});
	expect(result.error).toBeUndefined();
	expect(readings.length).toBe(templates.filter((t) => t !== '').length * values.length);
	return readings;
}

const describeValue = (value: unknown) =>
	typeof value === 'number' && Object.is(value, -0) ? '-0' : typeof value === 'bigint' ? `${value}n` : value;

/** Fails with the first few disagreements, each shown with its template and item. */
function expectAgreement(readings: Reading[]) {
	const disagreements = readings.filter((r) => {
		if ('error' in r.n8n || 'error' in r.fast) return JSON.stringify(r.fast) !== JSON.stringify(r.n8n);
		return !sameValue(r.fast.value, r.n8n.value);
	});
	const shown = disagreements.slice(0, 10).map((r) => ({
		template: r.template,
		json: r.json,
		fast: 'value' in r.fast ? describeValue(r.fast.value) : r.fast,
		n8n: 'value' in r.n8n ? describeValue(r.n8n.value) : r.n8n,
		calls: r.calls,
	}));
	expect(shown).toEqual([]);
}

/** Deep equality that tells -0 from 0, NaN from undefined, and a number from its text. */
function sameValue(a: unknown, b: unknown): boolean {
	if (typeof a !== typeof b) return false;
	if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b);
	if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
	const keysA = Reflect.ownKeys(a as object);
	const keysB = Reflect.ownKeys(b as object);
	if (keysA.length !== keysB.length) return false;
	return keysA.every((key) => sameValue((a as Record<PropertyKey, unknown>)[key], (b as Record<PropertyKey, unknown>)[key]));
}

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

class Custom {
	name = 'custom';
}

/** Item json shapes a previous node can produce, JSON and not. */
function shapes(): unknown[] {
	const nullPrototype = Object.create(null) as Record<string, unknown>;
	nullPrototype.name = 'no prototype';
	nullPrototype.phone = '+919876543210';
	return [
		{ phone: '+919876543210', name: 'Asha', orderId: 'A-1' },
		{ phone: '+919876543211', name: '', orderId: 0 },
		{},
		{ name: 0, orderId: -0, phone: 1.5 },
		{ name: 1e21, orderId: 123456789012345680000, phone: -1 },
		{ name: 1e-7, orderId: 0.1 + 0.2, phone: Number.MAX_SAFE_INTEGER },
		{ name: NaN, orderId: Infinity, phone: -Infinity },
		{ name: true, orderId: false, phone: 'false' },
		{ name: null, orderId: undefined, phone: 'null' },
		{ name: { first: 'Asha', 'last name': 'Rao' }, orderId: [1, 2], phone: [] },
		{ name: new Date(0), orderId: 10n, phone: Symbol('x') },
		{ name: () => 'fn', orderId: new Custom(), phone: /re/ },
		{ name: 'नमस्ते 👋 مرحبا', orderId: 'שלום', phone: '\u202E+91' },
		{ name: 'a {{ b }} c', orderId: '}}', phone: '={{ $json.name }}' },
		{ name: 'line\nbreak\r\ttab', orderId: '\\', phone: '"quoted" \'single\'' },
		{ 'a b': 'space key', 'a.b': 'dot key', a: { b: 'nested', c: { d: 42 } }, "it's": 'quote key', 'x"y': 'dq', '': 'empty key' },
		{ a: { b: null, c: 'not an object' } },
		{ a: ['x'], name: 'Array a' },
		{ a: new Custom(), name: 'class a' },
		{ a: nullPrototype, name: 'null proto a' },
		nullPrototype,
		{ toString: 'own toString', constructor: 'own constructor', valueOf: 'own valueOf', hasOwnProperty: 'own' },
		{ __proto__: { name: 'inherited' } },
		{ class: 'keyword', if: 'if', null: 'null key', true: 'true key', $: 'dollar', $a: 'dollar a', _x: 'underscore', 名前: 'unicode key' },
		{ '0': 'zero', '1': 'one', items: ['first', 'second'] },
		{ name: 'x'.repeat(5000) },
	];
}

/** Templates n8n users write, the simple ones the fast path takes and the rest it must leave. */
const SIMPLE_TEMPLATES = [
	'={{ $json.phone }}',
	'={{$json.phone}}',
	'={{   $json.name   }}',
	'={{\n$json.name\n}}',
	'={{\t$json.orderId }}',
	'=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped',
	'={{ $json.name }}{{ $json.orderId }}',
	'= {{ $json.name }}',
	'={{ $json.name }} ',
	'=x{{ $json.name }}',
	'={{ $json.name }}y',
	'=hello',
	'= ',
	'=a = b',
	'=line\nbreak {{ $json.name }}',
	'=👋 {{ $json.name }} مرحبا',
	'={{ $json.a.b }}',
	'={{ $json.a.c.d }}',
	'={{ $json["a b"] }}',
	"={{ $json['a.b'] }}",
	'={{ $json["a"]["b"] }}',
	"={{ $json.a['c'].d }}",
	`={{ $json["it's"] }}`,
	`={{ $json['x"y'] }}`,
	'={{ $json[""] }}',
	'={{ $json["0"] }}',
	'={{ $json.class }}',
	'={{ $json.if }}',
	'={{ $json.null }}',
	'={{ $json.true }}',
	'={{ $json.$a }}',
	'={{ $json._x }}',
	'={{ $json["名前"] }}',
	'=Dear {{ $json["a b"] }} / {{ $json.a.b }}',
	'=a { b {{ $json.name }} } c',
	'={{ $json.name }}}',
	'=}{{ $json.name }}',
	'={{ $json.missing }}',
	'=x {{ $json.missing.deeper }} y',
	'={{ $json.name.first }}',
	'={{ $json.phone }}{{ $json.name.length }}',
];

const NOT_SIMPLE_TEMPLATES = [
	'={{ $json }}',
	'={{ $json.a + 1 }}',
	'={{ $json.name.toUpperCase() }}',
	"={{ $('Source').item.json.name }}",
	'={{ $input.item.json.name }}',
	'={{ 1 + 1 }}',
	'={{ $json?.name }}',
	'={{ $json.name ?? "none" }}',
	'={{ $json.items[0] }}',
	'={{ $json[0] }}',
	'={{ $json.constructor }}',
	'={{ $json.toString }}',
	'={{ $json.__proto__ }}',
	'={{ $json["__proto__"] }}',
	'={{ $json.hasOwnProperty }}',
	'={{ $json.valueOf }}',
	'={{ $json.$ }}',
	'={{ $json.prototype }}',
	'={{ $json.mainModule }}',
	'=foo.constructor {{ $json.name }}',
	'={{ $json.name }} }} x',
	'=a }} b',
	'=\\{{ $json.name }}',
	'=a \\ b {{ $json.name }}',
	'={{ $json["a\\"b"] }}',
	'={{ $json.name',
	'={{ {{ $json.name }} }}',
	'={{ $json.na me }}',
	'={{ $json. name }}',
	'={{ $json .name }}',
	'={{ $json[ "a b" ] }}',
	'={{ $json["a b"].c }}x{{ $itemIndex }}',
	'={{ $itemIndex }}',
	'={{ "x" }}',
	'={{ }}',
	'={{}}',
	'=',
	'={{ $json.1a }}',
	'={{ $json.a-b }}',
	'={{ $json["a\nb"] }}',
	'={{ $json.nam\u00e9 }}',
	'={{ $jsonx.name }}',
	'={{ $data.name }}',
	'={{ $json.name, $json.phone }}',
	'={{ $json.name; }}',
	'={{ ($json.name) }}',
	'={{ $json.name // comment }}',
	'={{ $json.name /* c */ }}',
];

describe('fast expression path: the rules', () => {
	it('compiles the simple templates and refuses the others', () => {
		expect(SIMPLE_TEMPLATES.filter((t) => compileTemplate(t) === undefined)).toEqual([]);
		expect(NOT_SIMPLE_TEMPLATES.filter((t) => compileTemplate(t) !== undefined)).toEqual([]);
		for (const raw of ['plain', '', 42, true, null, undefined, {}, ['={{ $json.a }}'], { value: '={{ $json.a }}' }]) {
			expect(compileTemplate(raw)).toBeUndefined();
		}
	});

	it('a whole-value template is only `={{ path }}` with nothing around the braces', () => {
		expect(compileTemplate('={{ $json.a }}')?.whole).toBe(true);
		expect(compileTemplate('= {{ $json.a }}')?.whole).toBe(false);
		expect(compileTemplate('={{ $json.a }} ')?.whole).toBe(false);
		expect(compileTemplate('={{ $json.a }}{{ $json.b }}')?.whole).toBe(false);
		expect(compileTemplate('=text')?.whole).toBe(false);
	});
	it('compiles a collection only when every leaf is a constant or a simple template and one is a template', () => {
		const wholeA = { kind: 'template', template: { parts: [['a']], whole: true } };
		const mixed = compileParameter({ a: '={{ $json.a }}', b: 'x', c: 1, d: true, e: null, f: [{ g: '=x {{ $json.b }}' }] });
		expect(mixed).toEqual({
			root: {
				kind: 'object',
				entries: [
					['a', wholeA],
					['b', { kind: 'constant', value: 'x' }],
					['c', { kind: 'constant', value: 1 }],
					['d', { kind: 'constant', value: true }],
					['e', { kind: 'constant', value: null }],
					['f', { kind: 'array', items: [{ kind: 'object', entries: [['g', { kind: 'template', template: { parts: ['x ', ['b']], whole: false } }]] }] }],
				],
			},
		});
		expect(evaluateParameter(mixed!, { a: 'A', b: 2 })).toEqual({ a: 'A', b: 'x', c: 1, d: true, e: null, f: [{ g: 'x 2' }] });
		const nullPrototype = compileParameter(Object.assign(Object.create(null), { a: '={{ $json.a }}' }));
		expect(nullPrototype).toEqual({ root: { kind: 'object', entries: [['a', wholeA]] } });
		expect(evaluateParameter(nullPrototype!, { a: 7 })).toEqual({ a: 7 });
		for (const raw of [
			{ a: 'plain', b: 1 },
			{},
			['={{ $json.a }}'],
			{ a: '={{ $json.a }}', b: undefined },
			{ a: '={{ $json.a }}', b: new Date(0) },
			{ a: '={{ $json.a }}', b: () => 1 },
			{ a: '={{ $json.a }}', b: 1n },
			{ a: '={{ $json.a }}', b: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }) }, // a hole at [1]
			{ a: '={{ $json.a }}', b: '=' },
			{ a: '={{ $json.a.toUpperCase() }}' },
			JSON.parse('{"a": "={{ $json.a }}", "__proto__": "x"}'),
		]) {
			expect(compileParameter(raw)).toBeUndefined();
		}
	});
});

describe('fast expression path against n8n (in n8n-core)', () => {
	it('agrees with getNodeParameter on every simple template for every item shape, and takes the fast path where proven', async () => {
		const values = shapes();
		const readings = await compare(SIMPLE_TEMPLATES, values);
		expectAgreement(readings);
		const fast = readings.filter((r) => r.calls === 0);
		// Every fast read gave a string, a finite number or a boolean.
		expect(fast.filter((r) => !('value' in r.fast) || !['string', 'number', 'boolean'].includes(typeof r.fast.value))).toEqual([]);
		expect(fast.length).toBeGreaterThan(readings.length / 4);
		expect(readings.every((r) => r.calls <= 1)).toBe(true);
	});

	it('leaves every template that is not simple to n8n, with the same results', async () => {
		const values = shapes();
		const readings: Reading[] = [];
		for (let start = 0; start < NOT_SIMPLE_TEMPLATES.length; start += PARAMETER_COUNT) {
			readings.push(...(await compare(NOT_SIMPLE_TEMPLATES.slice(start, start + PARAMETER_COUNT), values)));
		}
		expectAgreement(readings);
		expect(readings.filter((r) => r.calls !== 1).map((r) => r.template)).toEqual([]);
	});

	it('takes the fast path exactly for strings, finite numbers and booleans, and asks n8n for anything else', async () => {
		const cases: Array<[unknown, boolean]> = [
			['text', true],
			['', true],
			['👋 नमस्ते', true],
			[0, true],
			[-0, true],
			[1.5, true],
			[1e21, true],
			[-1e-7, true],
			[true, true],
			[false, true],
			[NaN, false],
			[Infinity, false],
			[null, false],
			[undefined, false],
			[{ a: 1 }, false],
			[[1, 2], false],
			[new Date(0), false],
			[10n, false],
		];
		const values = cases.map(([value]) => ({ v: value, nested: { v: value } }));
		const readings = await compare(['={{ $json.v }}', '=v: {{ $json.v }}', '={{ $json.nested.v }}', '=[{{ $json["nested"]["v"] }}]'], values);
		expectAgreement(readings);
		for (const reading of readings) {
			expect({ template: reading.template, value: describeValue(cases[reading.itemIndex][0]), fast: reading.calls === 0 }).toEqual({
				template: reading.template,
				value: describeValue(cases[reading.itemIndex][0]),
				fast: cases[reading.itemIndex][1],
			});
		}
		// Missing keys and items without the key are n8n's to decide too.
		const missing = await compare(['={{ $json.v }}', '=x{{ $json.a.v }}'], [{}, { a: {} }, { a: 'string' }, { a: null }]);
		expectAgreement(missing);
		expect(missing.every((r) => r.calls === 1)).toBe(true);
	});

	it('agrees on thousands of random templates and items (seeded)', async () => {
		const random = seeded(20240611);
		let readings: Reading[] = [];
		for (let round = 0; round < 4; round++) {
			const templates = Array.from({ length: PARAMETER_COUNT }, () => randomTemplate(random));
			const values = Array.from({ length: 20 }, () => randomItem(random, 0));
			const batch = await compare(templates, values);
			expectAgreement(batch);
			readings = readings.concat(batch);
		}
		expect(readings.length).toBe(4 * PARAMETER_COUNT * 20);
		const fast = readings.filter((r) => r.calls === 0).length;
		expect(fast).toBeGreaterThan(readings.length / 5);
		expect(fast).toBeLessThan(readings.length);
	});
});

// ---------------------------------------------------------------------------------------------
// Seeded random templates and items
// ---------------------------------------------------------------------------------------------

/** mulberry32 */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const KEYS = ['a', 'b', 'name', 'phone', 'a b', 'a.b', "it's", '', '0', '名前', 'class', '$x', 'toString', '__proto__', 'constructor'];
const LEAVES: unknown[] = [
	'text',
	'',
	'नमस्ते 👋',
	'{{ x }}',
	'}}',
	'=',
	'a\nb',
	0,
	-0,
	1,
	-2.5,
	1e21,
	1e-7,
	NaN,
	Infinity,
	true,
	false,
	null,
	undefined,
	[],
	['x', 1],
	new Date(86400000),
];
const TEXTS = ['', ' ', 'Hi ', ', ', '=', ' = ', '{', '}', '}}', '{{', '\n', 'नमस्ते', '👋', '\\', 'a.constructor ', 'x'];

function pick<T>(random: () => number, list: readonly T[]): T {
	return list[Math.floor(random() * list.length)];
}

function randomItem(random: () => number, depth: number): Record<string, unknown> {
	const item: Record<string, unknown> = {};
	const count = Math.floor(random() * 6);
	for (let i = 0; i < count; i++) {
		const key = pick(random, KEYS);
		if (key === '__proto__') continue;
		item[key] = depth < 2 && random() < 0.3 ? randomItem(random, depth + 1) : pick(random, LEAVES);
	}
	return item;
}

function randomStep(random: () => number): string {
	const key = pick(random, KEYS);
	const identifier = /^[A-Za-z_$][\w$]*$/.test(key);
	const roll = random();
	if (identifier && roll < 0.6) return `.${key}`;
	if (!key.includes('"') && roll < 0.8) return `["${key}"]`;
	if (!key.includes("'") && roll < 0.95) return `['${key}']`;
	return pick(random, ['[0]', '?.a', '.a()', ' .a', '.', '[a]']);
}

function randomCode(random: () => number): string {
	if (random() < 0.1) return pick(random, [' $json ', ' $itemIndex ', ' 1 + 1 ', ' $json.a + "!" ', ' $input.item.json.a ', '']);
	const steps = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomStep(random)).join('');
	const space = () => pick(random, ['', ' ', '  ', '\n', '\t']);
	return `${space()}$json${steps}${space()}`;
}

function randomTemplate(random: () => number): string {
	const segments = Math.floor(random() * 4);
	let template = '=';
	if (random() < 0.5) template += pick(random, TEXTS);
	for (let i = 0; i < segments; i++) {
		template += `{{${randomCode(random)}}}`;
		if (random() < 0.6) template += pick(random, TEXTS);
	}
	return template === '=' ? '=x' : template;
}

// ---------------------------------------------------------------------------------------------
// The real Exotel Messaging node: SMS → Send
// ---------------------------------------------------------------------------------------------

describe('Exotel Messaging → SMS → Send with the fast path (in n8n-core)', () => {
	const sandbox = useSandbox();

	const items = [
		{ phone: '+919876543210', name: 'Asha', orderId: 'A-1' },
		{ phone: '+919876543211', name: 'नमस्ते 👋', orderId: 7 },
		{ phone: '+919876543212', name: 'Ravi', orderId: 0 },
		{ phone: '+919876543213', name: true, orderId: 1e21 },
		{ phone: '+919876543214', name: null, orderId: 'x' },
		{ phone: '+919876543215', name: { first: 'Obj' }, orderId: 'y' },
		{ phone: '+919876543216', orderId: 'missing name' },
		{ phone: '+919876543217', name: 'a {{ b }} c }}', orderId: -0 },
	];
	const parameters: INodeParameters = {
		resource: 'sms',
		operation: 'send',
		from: 'EXOTEL',
		to: '={{ $json.phone }}',
		body: '=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped',
	};

	async function send(fastPath: boolean) {
		sandbox.reset();
		const spy = fastPath ? undefined : jest.spyOn(expressions, 'compileParameter').mockReturnValue(undefined);
		const reads = jest.spyOn(NodeExecutionContext.prototype as unknown as { _getNodeParameter(name: string): unknown }, '_getNodeParameter');
		try {
			const result = await runWorkflow({
				nodes: [
					{ id: 'source', name: 'Source', type: 'test.jsItems', typeVersion: 1, position: [0, 0], parameters: {} },
					packageNode('exotelMessaging', parameters),
				],
				connections: chain('Source', 'Exotel'),
				credentials: sandboxCredentials(sandbox),
				nodeTypes: [sourceType(items)],
			});
			expect(result.error).toBeUndefined();
			const names = reads.mock.calls.map(([name]) => name as string);
			const forms = sandbox.requests({ pathIncludes: '/Sms/bulksend' }).map((r) => formFields(r.form));
			const outputs = result.output('Exotel').map(({ json, pairedItem }) => ({ pairedItem, To: json.To, Body: json.Body, Status: json.Status }));
			return { names, forms, outputs };
		} finally {
			reads.mockRestore();
			spy?.mockRestore();
		}
	}

	it('sends exactly what n8n evaluation gives, reading To and Body without n8n for proven values', async () => {
		const fast = await send(true);
		const slow = await send(false);
		expect(fast.forms).toEqual(slow.forms);
		expect(fast.outputs).toEqual(slow.outputs);
		expect(fast.forms[0]['Messages[1][Body]']).toEqual(['Hi नमस्ते 👋, order 7 has shipped']);
		expect(fast.forms[0]['Messages[3][Body]']).toEqual(['Hi true, order 1e+21 has shipped']);
		expect(fast.forms[0]['Messages[4][Body]']).toEqual(['Hi , order x has shipped']);
		expect(fast.forms[0]['Messages[5][Body]']).toEqual(['Hi [object Object], order y has shipped']);

		// Without the fast path n8n evaluates To and Body for every item ...
		const count = (names: string[], name: string) => names.filter((n) => n === name).length;
		expect(count(slow.names, 'to')).toBe(items.length);
		expect(count(slow.names, 'body')).toBe(items.length);
		// ... with it, To never, and Body only for the items whose name is null, an object or missing.
		expect(count(fast.names, 'to')).toBe(0);
		expect(count(fast.names, 'body')).toBe(3);
	});

	it('is what the package node type reads its parameters through', () => {
		const type = packageNodeTypes().getByNameAndVersion(packageNodeType('exotelMessaging'), 1);
		const names = type.description.properties.map((p) => p.name);
		expect(names).toEqual(expect.arrayContaining(['to', 'body']));
		// n8n converts a parameter's value after evaluation when its description has validateType;
		// the fast path relies on no property of the package's nodes doing so.
		const withValidation = (properties: unknown): boolean =>
			Array.isArray(properties) &&
			properties.some(
				(p) => p && typeof p === 'object' && ('validateType' in p || withValidation((p as { options?: unknown }).options) || withValidation((p as { values?: unknown }).values)),
			);
		for (const name of ['exotelMessaging', 'exotelVoice', 'exotelContactCenter', 'exotelNumberAllocation']) {
			const properties = packageNodeTypes().getByNameAndVersion(packageNodeType(name), 1).description.properties;
			expect({ name, validateType: withValidation(properties) }).toEqual({ name, validateType: false });
		}
	});
});

// ---------------------------------------------------------------------------------------------
// Collections and fixedCollections
// ---------------------------------------------------------------------------------------------

/**
 * Options of the test collections (n8n keeps only declared keys, in this order). No option named
 * like an Object.prototype member: n8n-workflow's parameter checks fail on one (`constructor`).
 */
const COLLECTION_OPTIONS: INodeProperties[] = [
	{ displayName: 'A', name: 'a', type: 'string', default: '' },
	{ displayName: 'B', name: 'b', type: 'string', default: '' },
	{ displayName: 'Name', name: 'name', type: 'string', default: '' },
	{ displayName: 'Phone', name: 'phone', type: 'string', default: '' },
	{ displayName: 'A B', name: 'a b', type: 'string', default: '' },
	{ displayName: 'One', name: '1', type: 'string', default: '' },
	{ displayName: 'Num', name: 'num', type: 'number', default: 0 },
	{ displayName: 'Flag', name: 'flag', type: 'boolean', default: false },
	{
		displayName: 'Group',
		name: 'group',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [{ displayName: 'Row', name: 'row', values: [{ displayName: 'Cell', name: 'cell', type: 'string', default: '' }] }],
	},
];

const FIXED_OPTIONS: INodeProperties['options'] = [
	{
		displayName: 'Entries',
		name: 'entries',
		values: [
			{ displayName: 'Key', name: 'key', type: 'string', default: '' },
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			{ displayName: 'Count', name: 'count', type: 'number', default: 0 },
			{ displayName: 'On', name: 'on', type: 'boolean', default: false },
		],
	},
	{ displayName: 'Notes', name: 'notes', values: [{ displayName: 'Text', name: 'text', type: 'string', default: 'default note' }] },
];

const COLLECTIONS = 20;
const collectionNames = Array.from({ length: COLLECTIONS }, (_, i) => `c${i}`);
const fixedNames = Array.from({ length: COLLECTIONS }, (_, i) => `f${i}`);
const singleNames = Array.from({ length: 5 }, (_, i) => `s${i}`);

const COLLECTION_PROPERTIES: INodeProperties[] = [
	...collectionNames.map((name) => ({ displayName: name, name, type: 'collection' as const, default: {}, options: COLLECTION_OPTIONS })),
	...fixedNames.map((name) => ({
		displayName: name,
		name,
		type: 'fixedCollection' as const,
		typeOptions: { multipleValues: true },
		default: {},
		options: FIXED_OPTIONS,
	})),
	...singleNames.map((name) => ({ displayName: name, name, type: 'fixedCollection' as const, default: {}, options: FIXED_OPTIONS })),
];

/** Deep equality as sameValue, and the same key order at every level. */
function sameOrdered(a: unknown, b: unknown): boolean {
	if (!sameValue(a, b)) return false;
	if (typeof a !== 'object' || a === null) return true;
	const keysA = Reflect.ownKeys(a as object);
	const keysB = Reflect.ownKeys(b as object);
	return keysA.every((key, i) => key === keysB[i] && sameOrdered((a as Record<PropertyKey, unknown>)[key], (b as Record<PropertyKey, unknown>)[key]));
}

/** Reads every set collection parameter for every item with the fast reader and with n8n. */
function compareCollectionsType(readings: Reading[]): INodeType {
	return {
		description: {
			displayName: 'Compare Collections',
			name: 'test.compareCollections',
			group: ['transform'],
			version: 1,
			description: 'Reads collection parameters both ways',
			defaults: { name: 'Compare' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: COLLECTION_PROPERTIES,
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			const raw = this.getNode().parameters;
			let calls = 0;
			const counted = Object.create(this) as IExecuteFunctions;
			counted.getNodeParameter = ((...args: Parameters<IExecuteFunctions['getNodeParameter']>) => {
				calls++;
				return this.getNodeParameter(...args);
			}) as IExecuteFunctions['getNodeParameter'];
			const param = parameterReader(counted);
			for (const parameter of [...collectionNames, ...fixedNames, ...singleNames]) {
				const value = raw[parameter];
				if (typeof value !== 'object' || value === null || Object.keys(value).length === 0) continue;
				for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
					const before = calls;
					const fast = outcomeOf(() => param(parameter, itemIndex, {}));
					const made = calls - before;
					const n8n = outcomeOf(() => this.getNodeParameter(parameter, itemIndex, {}));
					readings.push({ parameter, template: JSON.stringify(value), itemIndex, json: items[itemIndex].json, fast, n8n, calls: made });
				}
			}
			return [items];
		},
	};
}

/** Runs the parameter values (name → value) over the items and returns every reading. */
async function compareCollections(parameters: INodeParameters, values: unknown[]): Promise<Reading[]> {
	const readings: Reading[] = [];
	const result = await runWorkflow({
		nodes: [
			{ id: 'source', name: 'Source', type: 'test.jsItems', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'compare', name: 'Compare', type: 'test.compareCollections', typeVersion: 1, position: [200, 0], parameters },
		],
		connections: chain('Source', 'Compare'),
		nodeTypes: [sourceType(values), compareCollectionsType(readings)],
	});
	expect(result.error).toBeUndefined();
	return readings;
}

function expectOrderedAgreement(readings: Reading[]) {
	const disagreements = readings.filter((r) => {
		if ('error' in r.n8n || 'error' in r.fast) return JSON.stringify(r.fast) !== JSON.stringify(r.n8n);
		return !sameOrdered(r.fast.value, r.n8n.value);
	});
	const shown = disagreements.slice(0, 5).map((r) => ({ parameter: r.template, json: r.json, fast: r.fast, n8n: r.n8n, calls: r.calls }));
	expect(shown).toEqual([]);
	expect(readings.every((r) => r.calls <= 1)).toBe(true);
}

/** Assigns collection values to c0.., fixedCollection values to f0.., single ones to s0... */
function collectionParameters(collections: unknown[], fixed: unknown[] = [], single: unknown[] = []): INodeParameters {
	expect(collections.length).toBeLessThanOrEqual(COLLECTIONS);
	expect(fixed.length).toBeLessThanOrEqual(COLLECTIONS);
	expect(single.length).toBeLessThanOrEqual(singleNames.length);
	const parameters: INodeParameters = {};
	collections.forEach((value, i) => (parameters[collectionNames[i]] = value as INodeParameters));
	fixed.forEach((value, i) => (parameters[fixedNames[i]] = value as INodeParameters));
	single.forEach((value, i) => (parameters[singleNames[i]] = value as INodeParameters));
	return parameters;
}

const SIMPLE_COLLECTIONS = [
	{ name: '={{ $json.name }}', phone: '={{ $json.phone }}' },
	{ a: 'plain', b: '=Hi {{ $json.name }}, order {{ $json.orderId }}', num: 5, flag: true },
	{ 'a b': '={{ $json["a b"] }}', '1': '={{ $json.a.c.d }}', a: '={{ $json.a.b }}' },
	{ b: '={{ $json.name }}', a: '', num: -0, flag: false, phone: 'Hi {{ $json.name }}' },
	{ a: '=plain after =', b: '= ', name: '={{ $json.name }}{{ $json.orderId }}' },
	{ '1': '={{ $json.name }}', name: 'x' },
	{ name: '={{ $json.orderId }}', group: { row: [{ cell: '={{ $json.name }}' }, { cell: 'fixed' }, { cell: '=№ {{ $json.phone }}' }] } },
	{ num: '={{ $json.orderId }}', flag: '={{ $json.name }}' },
];

const SIMPLE_FIXED = [
	{ entries: [{ key: 'name', value: '={{ $json.name }}' }, { key: 'order', value: '={{ $json.orderId }}', count: 2, on: true }] },
	{ entries: [{ value: '={{ $json.phone }}' }], notes: [{ text: '=Dear {{ $json.name }}' }, {}] },
	{ notes: [{ text: 'plain' }], entries: [{ key: '=k', value: '={{ $json["a b"] }}', count: '={{ $json.orderId }}' }] },
	{ entries: [] },
];

const SIMPLE_SINGLE = [{ entries: { key: 'k', value: '={{ $json.name }}' } }, { notes: { text: '={{ $json.phone }}' } }];

/** Values with a part that is not a simple template: n8n decides every read. */
const NOT_SIMPLE_COLLECTIONS = [
	{ name: '={{ $json.name.toUpperCase() }}', phone: '={{ $json.phone }}' },
	{ a: '=', b: '={{ $json.name }}' },
	{ a: '={{ $itemIndex }}', b: 'plain' },
	{ group: { row: [{ cell: '={{ $json.name }}' }, { cell: '={{ $json }}' }] } },
	{ a: '={{ $json.constructor }}' },
	{ a: "={{ $('Source').item.json.name }}" },
];

const NOT_SIMPLE_FIXED = [
	{ entries: [{ key: 'k', value: '={{ $json.name ?? "none" }}' }] },
	{ notes: [{ text: '={{ $json.name }}' }], entries: [{ value: '={{ $json.items[0] }}' }] },
];

describe('fast path for collections and fixedCollections against n8n (in n8n-core)', () => {
	it("establishes what n8n-core's getNodeParameter returns for collections and fixedCollections", async () => {
		const facts: Record<string, unknown> = {};
		const type: INodeType = {
			...compareCollectionsType([]),
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				const raw = this.getNode().parameters;
				const first = this.getNodeParameter('c0', 0) as IDataObject;
				const second = this.getNodeParameter('c0', 0) as IDataObject;
				facts.collection = { ...first };
				facts.rawCollection = raw.c0;
				facts.newObjectEachRead = first !== second && first !== raw.c0;
				facts.keys = Object.keys(first);
				facts.rawKeys = Object.keys(raw.c0 as object);
				facts.prototype = Object.getPrototypeOf(first) === Object.prototype;
				facts.rawNumZero = Object.is((raw.c0 as IDataObject).num, -0) ? '-0' : (raw.c0 as IDataObject).num;
				(first as IDataObject).name = 'mutated';
				facts.unaffectedByMutation = (this.getNodeParameter('c0', 0) as IDataObject).name;
				const fixed = this.getNodeParameter('f0', 1) as { entries: IDataObject[]; notes: IDataObject[] };
				const fixedAgain = this.getNodeParameter('f0', 1) as { entries: IDataObject[] };
				facts.fixed = fixed;
				facts.rawFixed = raw.f0;
				facts.newArraysEachRead = fixed.entries !== fixedAgain.entries && fixed.entries[0] !== fixedAgain.entries[0];
				facts.wholeNumber = typeof fixed.entries[0].value;
				facts.wholeNegativeZero = Object.is((this.getNodeParameter('f0', 2) as { entries: IDataObject[] }).entries[0].value, -0);
				facts.single = this.getNodeParameter('s0', 0);
				return [this.getInputData()];
			},
		};
		const parameters = collectionParameters(
			[{ name: '={{ $json.name }}', b: '=', a: '=plain', phone: 'Hi {{ $json.name }}', 'a b': '', num: -0, flag: true, '1': '=  ', unknown: 'dropped' }],
			[{ notes: [{}], entries: [{ value: '={{ $json.n }}' }, { key: 'k', count: 3, on: true }] }],
			[{ entries: { value: '={{ $json.name }}' } }],
		);
		const result = await runWorkflow({
			nodes: [
				{ id: 'source', name: 'Source', type: 'test.jsItems', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'compare', name: 'Compare', type: 'test.compareCollections', typeVersion: 1, position: [200, 0], parameters },
			],
			connections: chain('Source', 'Compare'),
			nodeTypes: [sourceType([{ name: 'Asha', n: 1 }, { name: 'Ravi', n: 42 }, { n: -0 }]), type],
		});
		expect(result.error).toBeUndefined();
		expect(facts).toEqual({
			// Keys are the declared options present, in the description's order (n8n's Workflow keeps
			// only those, in that order, before the node runs); the read keeps that order.
			rawCollection: { a: '=plain', b: '=', name: '={{ $json.name }}', phone: 'Hi {{ $json.name }}', 'a b': '', '1': '=  ', num: 0, flag: true },
			rawKeys: ['1', 'a', 'b', 'name', 'phone', 'a b', 'num', 'flag'],
			keys: ['1', 'a', 'b', 'name', 'phone', 'a b', 'num', 'flag'],
			// `=` alone is an expression giving '', `=text` gives the text, a string without `=` is
			// kept as it is even with braces, '' stays '', numbers and booleans keep their type.
			collection: { '1': '  ', a: 'plain', b: '', name: 'Asha', phone: 'Hi {{ $json.name }}', 'a b': '', num: 0, flag: true },
			// -0 as a raw leaf is already 0 in the node's parameters.
			rawNumZero: 0,
			prototype: true,
			newObjectEachRead: true,
			unaffectedByMutation: 'Asha',
			// fixedCollection entries get their options' defaults; arrays are new on every read.
			rawFixed: {
				entries: [
					{ key: '', value: '={{ $json.n }}', count: 0, on: false },
					{ key: 'k', value: '', count: 3, on: true },
				],
				notes: [{ text: 'default note' }],
			},
			fixed: {
				entries: [
					{ key: '', value: 42, count: 0, on: false },
					{ key: 'k', value: '', count: 3, on: true },
				],
				notes: [{ text: 'default note' }],
			},
			newArraysEachRead: true,
			// A whole-value template gives the value itself: a number stays a number, -0 stays -0.
			wholeNumber: 'number',
			wholeNegativeZero: true,
			single: { entries: { key: '', value: 'Asha', count: 0, on: false } },
		});
	});

	it('agrees with getNodeParameter on simple collections for every item shape, and takes the fast path where proven', async () => {
		const readings = await compareCollections(collectionParameters(SIMPLE_COLLECTIONS, SIMPLE_FIXED, SIMPLE_SINGLE), shapes());
		expect(readings.length).toBe((SIMPLE_COLLECTIONS.length + SIMPLE_FIXED.length + SIMPLE_SINGLE.length) * shapes().length);
		expectOrderedAgreement(readings);
		const fast = readings.filter((r) => r.calls === 0);
		expect(fast.length).toBeGreaterThan(readings.length / 5);
		expect(fast.length).toBeLessThan(readings.length);
		// The one with no template is a constant: n8n reads it once, then the reader's cache answers.
		const constant = readings.filter((r) => r.template === JSON.stringify({ entries: [] }));
		expect(constant.map((r) => r.calls)).toEqual(shapes().map((_, i) => (i === 0 ? 1 : 0)));
	});

	it('takes the fast path for every read of simple collections over items that have the fields', async () => {
		const items = Array.from({ length: 30 }, (_, i) => ({
			name: i % 3 ? `Customer ${i}` : i,
			orderId: i % 2 ? `A-${i}` : i * 1.5,
			phone: i % 5 ? `+91987654${String(i).padStart(4, '0')}` : true,
			a: { b: 'nested', c: { d: -0 } },
			'a b': 'नमस्ते 👋',
		}));
		const readings = await compareCollections(collectionParameters(SIMPLE_COLLECTIONS, SIMPLE_FIXED.slice(0, 3), SIMPLE_SINGLE), items);
		expectOrderedAgreement(readings);
		expect(readings.filter((r) => r.calls !== 0).map((r) => r.template)).toEqual([]);
	});

	it('leaves every collection with a part that is not simple to n8n, with the same results', async () => {
		const readings = await compareCollections(collectionParameters(NOT_SIMPLE_COLLECTIONS, NOT_SIMPLE_FIXED), shapes());
		expectOrderedAgreement(readings);
		expect(readings.filter((r) => r.calls !== 1).map((r) => r.template)).toEqual([]);
		for (const value of [...NOT_SIMPLE_COLLECTIONS, ...NOT_SIMPLE_FIXED]) expect(compileParameter(value)).toBeUndefined();
	});

	it('returns a new object on every read, which the caller may change without changing later reads', async () => {
		let checked = 0;
		const type: INodeType = {
			...compareCollectionsType([]),
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				const param = parameterReader(this);
				const first = param('f0', 0, {}) as { entries: IDataObject[] };
				const second = param('f0', 0, {}) as { entries: IDataObject[] };
				expect(first).not.toBe(second);
				expect(first.entries).not.toBe(second.entries);
				expect(first.entries[0]).not.toBe(second.entries[0]);
				first.entries[0].value = 'changed';
				first.entries.push({});
				expect(param('f0', 0, {})).toEqual(this.getNodeParameter('f0', 0));
				checked++;
				return [this.getInputData()];
			},
		};
		const result = await runWorkflow({
			nodes: [
				{ id: 'source', name: 'Source', type: 'test.jsItems', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'compare', name: 'Compare', type: 'test.compareCollections', typeVersion: 1, position: [200, 0], parameters: collectionParameters([], SIMPLE_FIXED.slice(0, 1)) },
			],
			connections: chain('Source', 'Compare'),
			nodeTypes: [sourceType([{ name: 'Asha', orderId: 'A-1' }]), type],
		});
		expect(result.error).toBeUndefined();
		expect(checked).toBe(1);
	});

	it('agrees on random collections and fixedCollections over random items (seeded)', async () => {
		const random = seeded(20250214);
		let readings: Reading[] = [];
		for (let round = 0; round < 3; round++) {
			const collections = Array.from({ length: COLLECTIONS }, () => randomCollection(random));
			const fixed = Array.from({ length: COLLECTIONS }, () => randomFixed(random));
			const values = Array.from({ length: 15 }, () => randomItem(random, 0));
			// items that have the fields the templates read, so that many reads are fast
			values.push(...Array.from({ length: 10 }, () => fullItem(random)));
			const batch = await compareCollections(collectionParameters(collections, fixed), values);
			expectOrderedAgreement(batch);
			readings = readings.concat(batch);
		}
		expect(readings.length).toBeGreaterThan(3 * COLLECTIONS * 25);
		const fast = readings.filter((r) => r.calls === 0).length;
		expect(fast).toBeGreaterThan(readings.length / 10);
		expect(fast).toBeLessThan(readings.length);
	});
});

const COLLECTION_LEAVES: unknown[] = ['', 'plain', 'Hi {{ $json.name }}', '=', '= ', '=plain', 0, 7, -1.5, true, false];

function randomLeaf(random: () => number): unknown {
	const roll = random();
	if (roll < 0.5) return pick(random, SIMPLE_TEMPLATES);
	if (roll < 0.6) return pick(random, NOT_SIMPLE_TEMPLATES);
	if (roll < 0.75) return randomTemplate(random);
	return pick(random, COLLECTION_LEAVES);
}

function randomCollection(random: () => number): Record<string, unknown> {
	const collection: Record<string, unknown> = {};
	const keys = ['a', 'b', 'name', 'phone', 'a b', '1', 'num', 'flag'];
	for (let i = 0, count = 1 + Math.floor(random() * 4); i < count; i++) collection[pick(random, keys)] = randomLeaf(random);
	if (random() < 0.3) {
		collection.group = { row: Array.from({ length: Math.floor(random() * 3) }, () => ({ cell: randomLeaf(random) })) };
	}
	return collection;
}

function randomFixed(random: () => number): Record<string, unknown> {
	const fixed: Record<string, unknown> = {};
	if (random() < 0.8) {
		fixed.entries = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
			const entry: Record<string, unknown> = {};
			for (const key of ['key', 'value', 'count', 'on']) if (random() < 0.6) entry[key] = randomLeaf(random);
			return entry;
		});
	}
	if (random() < 0.4) fixed.notes = [{ text: randomLeaf(random) }];
	return fixed;
}

function fullItem(random: () => number): Record<string, unknown> {
	const leaf = () => pick(random, ['text', '', 'नमस्ते 👋', 0, -0, 1.5, 1e21, true, false, '{{ x }}']);
	return {
		phone: leaf(),
		name: leaf(),
		orderId: leaf(),
		a: { b: leaf(), c: { d: leaf() } },
		b: leaf(),
		'a b': leaf(),
		'a.b': leaf(),
		"it's": leaf(),
		'x"y': leaf(),
		'': leaf(),
		'0': leaf(),
		class: leaf(),
		if: leaf(),
		null: leaf(),
		true: leaf(),
		$a: leaf(),
		_x: leaf(),
		名前: leaf(),
	};
}

// ---------------------------------------------------------------------------------------------
// The real Exotel Messaging node: RCS → Send Template
// ---------------------------------------------------------------------------------------------

describe('Exotel Messaging → RCS → Send Template with the fast path (in n8n-core)', () => {
	const sandbox = useSandbox();

	const items = [
		{ phone: '+919876543210', name: 'Asha', orderId: 'A-1', campaign: 'spring' },
		{ phone: '+919876543211', name: 'नमस्ते 👋', orderId: 7, campaign: 'spring' },
		{ phone: '+919876543212', name: '', orderId: 0, campaign: 'summer' },
		{ phone: '+919876543213', name: true, orderId: 1e21, campaign: 'summer' },
		{ phone: '+919876543214', name: null, orderId: 'x', campaign: 'spring' },
		{ phone: '+919876543215', name: { first: 'Obj' }, orderId: 'y', campaign: 'spring' },
		{ phone: '+919876543216', orderId: 'missing name', campaign: 'spring' },
		{ phone: '+919876543217', name: 'a {{ b }} c }}', orderId: -0, campaign: 'autumn' },
		{ phone: '+919876543218', name: 'Ravi', orderId: 'A-9', campaign: 'spring' },
	];
	const parameters: INodeParameters = {
		resource: 'rcs',
		operation: 'sendTemplate',
		botId: 'acme_orders_bot',
		to: '={{ $json.phone }}',
		templateName: 'order_update',
		templateVariables: { TemplateParam1: '={{ $json.name }}', TemplateParam2: '={{ $json.orderId }}', TemplateParam3: 'fixed' },
		options: { requestCustomData: '={{ $json.campaign }}', customData: '=order {{ $json.orderId }}' },
		smsFallback: true,
		fallbackFrom: 'ACMEIN',
		fallbackText: '=Hi {{ $json.name }}',
		fallbackOptions: { dltTemplateId: '1107161234567890123', customDomain: '={{ $json.campaign }}.example' },
	};

	async function send(fastPath: boolean) {
		sandbox.reset();
		const spy = fastPath ? undefined : jest.spyOn(expressions, 'compileParameter').mockReturnValue(undefined);
		const reads = jest.spyOn(NodeExecutionContext.prototype as unknown as { _getNodeParameter(name: string): unknown }, '_getNodeParameter');
		try {
			const result = await runWorkflow({
				nodes: [
					{ id: 'source', name: 'Source', type: 'test.jsItems', typeVersion: 1, position: [0, 0], parameters: {} },
					packageNode('exotelMessaging', parameters, { onError: 'continueRegularOutput' }),
				],
				connections: chain('Source', 'Exotel'),
				credentials: sandboxCredentials(sandbox),
				nodeTypes: [sourceType(items)],
			});
			expect(result.error).toBeUndefined();
			const names = reads.mock.calls.map(([name]) => name as string);
			const bodies = sandbox
				.requests()
				.map((r) => r.json as { custom_data?: string; rcs: { messages: unknown[] } })
				.sort((a, b) => String(a.custom_data).localeCompare(String(b.custom_data)));
			const outputs = result.output('Exotel').map(({ json, pairedItem }) => ({ pairedItem, to: json.to, status: json.status, error: json.error }));
			return { names, bodies, outputs };
		} finally {
			reads.mockRestore();
			spy?.mockRestore();
		}
	}

	it('sends the same request bodies and gives the same outputs with the fast path on and off', async () => {
		const fast = await send(true);
		const slow = await send(false);
		expect(JSON.stringify(fast.bodies)).toBe(JSON.stringify(slow.bodies));
		expect(fast.outputs).toEqual(slow.outputs);
		expect(fast.bodies.map((b) => b.custom_data)).toEqual(['autumn', 'spring', 'summer']);
		const spring = fast.bodies[1].rcs.messages as Array<{ content: { template: { variables: unknown } }; fallback: { content: unknown } }>;
		expect(spring[1].content.template.variables).toEqual({ TemplateParam1: 'नमस्ते 👋', TemplateParam2: '7', TemplateParam3: 'fixed' });
		expect(spring[1].fallback.content).toMatchObject({ dlt_template_id: '1107161234567890123' });

		const count = (names: string[], name: string) => names.filter((n) => n === name).length;
		// Without the fast path n8n evaluates the collections for every item ...
		for (const name of ['templateVariables', 'options', 'fallbackOptions']) expect(count(slow.names, name)).toBe(items.length);
		// ... with it, never for options and fallbackOptions, and templateVariables only for the
		// items whose name is null, an object or missing.
		expect(count(fast.names, 'options')).toBe(0);
		expect(count(fast.names, 'fallbackOptions')).toBe(0);
		expect(count(fast.names, 'templateVariables')).toBe(3);
		expect(count(fast.names, 'to')).toBe(0);
	});
});
