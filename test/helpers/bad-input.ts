/**
 * The bad-input suite the resource files of test/in-process share: every limit and required field
 * of the two spec documents that the nodes enforce before sending. The run fails with a message
 * naming the field, the item and the limit or rule, and the sandbox records no request (operations
 * that read first, campaign update and actions, send no write). Then, per node family, a bad item
 * next to a good one with "Continue": the bad one comes out marked, the good one is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CSV_FILE_NODE_TYPE, CsvFileNode } from './csv-file-node';
import { packageNode, sandboxCredentials, useSandbox } from './exotel';
import { chain, itemsNode, runWorkflow } from './n8n-core-harness';
import type { ExotelSandbox } from '../../sandbox/server';

export type NodeName = 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';

function run(sandbox: ExotelSandbox, node: NodeName, parameters: IDataObject, items: IDataObject[] = [{}], options: { onError?: 'continueRegularOutput'; csv?: boolean } = {}) {
	const target = packageNode(node, parameters as INodeParameters, { onError: options.onError });
	if (options.csv) {
		return runWorkflow({
			nodes: [itemsNode('Items', items), { id: 'csv', name: 'CSV File', type: CSV_FILE_NODE_TYPE, typeVersion: 1, position: [100, 0], parameters: {} }, target],
			connections: chain('Items', 'CSV File', 'Exotel'),
			credentials: sandboxCredentials(sandbox),
			nodeTypes: [new CsvFileNode()],
		});
	}
	return runWorkflow({ nodes: [itemsNode('Items', items), target], connections: chain('Items', 'Exotel'), credentials: sandboxCredentials(sandbox) });
}

export const x = (n: number) => 'x'.repeat(n);
// n characters (code points) of which the last is an emoji: n + 1 UTF-16 units.
export const emoji = (n: number) => `${'x'.repeat(n - 1)}😀`;
export const list = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join(',');

export interface RefusedCase {
	name: string;
	node: NodeName;
	parameters: IDataObject;
	items?: IDataObject[];
	csv?: boolean;
	/** Index of the bad item (default 0); null: a setting of the one upload made from all items, which names no item. */
	item?: number | null;
	/** The error message without ` (item N)`: a string is matched exactly. */
	message: string | RegExp;
	/** Reads are allowed first (campaign update and actions GET the campaign): only writes must be absent. */
	readsFirst?: boolean;
}

export const refused = (name: string, node: NodeName, parameters: IDataObject, message: string | RegExp, extra: Partial<RefusedCase> = {}): RefusedCase => ({ name, node, parameters, message, ...extra });

export interface ContinueCase {
	family: string;
	node: NodeName;
	parameters: IDataObject;
	items: IDataObject[];
	/** The bad item's index; the other is good. */
	bad: number;
	message: string | RegExp;
	csv?: boolean;
	/** Requests the good item makes (default 1). */
	requests?: number;
}

/**
 * The bad-input tests of one resource, each describe on a sandbox of its own (no added latency):
 * the cases refused before sending, then those where a bad item sits next to a good one.
 */
export function describeBadInput(cases: RefusedCase[], continueCases: ContinueCase[] = []) {
	describe('refused before sending: names the field, the item and the limit', () => {
		const sandbox = useSandbox({ timeScale: 0 });

		it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
			const result = await run(sandbox, c.node, c.parameters, c.items, { csv: c.csv });
			const message = result.error?.message ?? '';
			const suffix = c.item === null ? '' : ` (item ${c.item ?? 0})`;
			expect(message.endsWith(suffix)).toBe(true);
			const bare = message.slice(0, message.length - suffix.length);
			if (typeof c.message === 'string') expect(bare).toBe(c.message);
			else expect(bare).toMatch(c.message);
			const sent = sandbox.requests();
			if (c.readsFirst) expect(sent.filter((r) => r.method !== 'GET')).toEqual([]);
			else expect(sent).toEqual([]);
		});
	});

	if (!continueCases.length) return;
	describe('with On Error: Continue, the bad item comes out marked and the good one is sent', () => {
		const sandbox = useSandbox({ timeScale: 0 });

		it.each(continueCases.map((c) => [c.family, c] as const))('%s', async (_family, c) => {
			const result = await run(sandbox, c.node, c.parameters, c.items, { onError: 'continueRegularOutput', csv: c.csv });
			expect(result.error).toBeUndefined();
			const out = result.output('Exotel');
			const marked = out.filter((item) => item.json.error !== undefined);
			expect(marked).toHaveLength(1);
			expect(marked[0].pairedItem).toEqual({ item: c.bad });
			const text = typeof marked[0].json.error === 'string' ? marked[0].json.error : String((marked[0].json.error as IDataObject).message);
			if (typeof c.message === 'string') expect(text).toBe(c.message);
			else expect(text).toMatch(c.message);
			const good = 1 - c.bad;
			expect(out.some((item) => item.json.error === undefined && JSON.stringify(item.pairedItem).includes(`"item":${good}`))).toBe(true);
			// The good item was sent (the contact center also logs in first); writes only for it.
			const writes = sandbox.requests().filter((r) => r.method !== 'GET');
			expect(writes).toHaveLength(c.requests ?? 1);
		});
	});
}
