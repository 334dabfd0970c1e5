// One item whatever ended a wait (a callback, the status check, Limit Wait Time): the comparison the
// in-process and real-n8n tests of every wait share.

/**
 * Where in an item each type is found: every path (an array's elements under `[]`) with the types of
 * its values that are not null, and every object's keys under `path{}`.
 */
function typesOf(value: unknown, path: string, found: Map<string, Set<string>>): void {
	const note = (at: string, type: string) => found.set(at, (found.get(at) ?? new Set()).add(type));
	if (value === null || value === undefined) return;
	if (Array.isArray(value)) {
		note(path, 'array');
		for (const entry of value) typesOf(entry, `${path}[]`, found);
	} else if (typeof value === 'object') {
		note(path, 'object');
		note(`${path}{}`, Object.keys(value).join(','));
		for (const [key, entry] of Object.entries(value)) typesOf(entry, `${path}.${key}`, found);
	} else note(path, typeof value);
}

/**
 * The items are the same to a workflow: the same keys in the same order, each value (down to the
 * elements of arrays and keys of objects) of one type wherever it is not null (what that ending
 * cannot know), and `resumedBy` naming the ending; `raw` is the service's object as received.
 */
export function expectSameItem(endings: Record<string, Record<string, unknown>>): void {
	const entries = Object.entries(endings);
	const found = new Map<string, Set<string>>();
	for (const [, item] of entries) {
		const rest = Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'raw'));
		typesOf(rest, '', found);
	}
	const mixed = [...found].filter(([, types]) => types.size > 1).map(([path, types]) => `${path}: ${[...types].join(' | ')}`);
	expect(mixed).toEqual([]);
	expect(entries.filter(([, item]) => !('raw' in item)).map(([ending]) => ending)).toEqual([]);
	expect(Object.fromEntries(entries.map(([ending, item]) => [ending, item.resumedBy]))).toEqual(Object.fromEntries(entries.map(([ending]) => [ending, ending])));
}
