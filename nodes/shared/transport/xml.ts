/**
 * Reads the XML answers of the Exotel v1 API (sent unless the path ends in `.json`) as their JSON
 * twins, so the rest of the package never sees the difference. Hand-written because community
 * nodes may not ship runtime dependencies: it covers the XML the service emits and gives
 * `undefined`, never an exception, for anything else.
 */

/** An element as read; `hasContent` stays false while only literal whitespace arrived (→ null). */
interface XmlElement { name: string; children: XmlElement[]; text: string; hasContent: boolean }

const NAME = /^[A-Za-z_][\w.:-]*$/;
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
// The service nests at most two levels below the root; a deeper document is not one of its answers.
const MAX_DEPTH = 32;

/** Cheap test for the caller: could this body be XML at all? (trimStart also drops a BOM.) */
export function looksLikeXml(text: string): boolean {
	return text.trimStart().startsWith('<');
}

function decodeEntities(raw: string): string {
	return raw.replace(ENTITY, (whole, ref: string) => {
		if (ref[0] !== '#') return NAMED[ref] ?? whole;
		const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
		// fromCodePoint throws past U+10FFFF; a reference no decoder could honour stays as written
		const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
		return valid ? String.fromCodePoint(code) : whole;
	});
}

/** Index of the `>` closing the tag opened at `from`, skipping quoted attribute values; -1 if none. */
function tagEnd(text: string, from: number): number {
	for (let i = from; i < text.length; i++) {
		const c = text[i];
		if (c === '>') return i;
		if (c === '"' || c === "'") {
			i = text.indexOf(c, i + 1);
			if (i < 0) return -1;
		}
	}
	return -1;
}

/** Index of the last character of the first `marker` at or after `from`; -1 if there is none. */
function lastCharOf(text: string, marker: string, from: number): number {
	const at = text.indexOf(marker, from);
	return at < 0 ? -1 : at + marker.length - 1;
}

/** One pass over the text with indexOf jumps (linear time, no recursion); undefined when malformed. */
function parseDocument(text: string): XmlElement | undefined {
	const stack: XmlElement[] = [];
	let root: XmlElement | undefined;
	let i = 0;
	while (i < text.length) {
		const lt = text.indexOf('<', i);
		const raw = text.slice(i, lt < 0 ? text.length : lt);
		const top = stack[stack.length - 1];
		if (top) {
			top.text += raw.includes('&') ? decodeEntities(raw) : raw;
			top.hasContent ||= raw.trim() !== '';
		} else if (raw.trim() !== '') return undefined; // text outside the root element
		if (lt < 0) break;
		// `end` is the index of the construct's last character, or -1 when it never ends (truncated)
		let end: number;
		if (text.startsWith('<!--', lt)) {
			end = lastCharOf(text, '-->', lt + 4);
		} else if (text.startsWith('<![CDATA[', lt)) {
			end = lastCharOf(text, ']]>', lt + 9);
			if (!top || end < 0) return undefined;
			top.text += text.slice(lt + 9, end - 2); // verbatim: no entities inside CDATA
			top.hasContent = true;
		} else if (text.startsWith('<?', lt)) {
			end = lastCharOf(text, '?>', lt + 2); // the prolog and other processing instructions
		} else if (text.startsWith('<!', lt)) {
			return undefined; // DOCTYPE and the like: never in a service answer
		} else if (text.startsWith('</', lt)) {
			end = text.indexOf('>', lt + 2);
			if (end < 0 || !top || text.slice(lt + 2, end).trimEnd() !== top.name) return undefined;
			stack.pop();
			if (stack.length === 0) root = top;
		} else {
			end = tagEnd(text, lt + 1);
			if (end < 0) return undefined;
			const body = text.slice(lt + 1, end);
			const name = body.slice(0, body.search(/[\s/]|$/));
			// a second root element, or one past the depth limit, is not a service answer
			if (!NAME.test(name) || root || stack.length >= MAX_DEPTH) return undefined;
			const element: XmlElement = { name, children: [], text: '', hasContent: false };
			if (top) top.children.push(element);
			if (!body.endsWith('/')) stack.push(element);
			else if (!top) root = element;
		}
		if (end < 0) return undefined;
		i = end + 1;
	}
	return stack.length === 0 ? root : undefined;
}

/** Leaf → string (or null when empty); element with children → object, repeated names → arrays. */
function toValue(element: XmlElement): unknown {
	if (element.children.length === 0) return element.hasContent ? element.text : null;
	return toObject(element.children);
}

function toObject(children: XmlElement[]): Record<string, unknown> {
	// a Map then fromEntries, so a tag named __proto__ becomes a plain key, never a prototype
	const fields = new Map<string, unknown>();
	for (const child of children) {
		const value = toValue(child);
		const seen = fields.get(child.name);
		if (Array.isArray(seen)) seen.push(value);
		else fields.set(child.name, fields.has(child.name) ? [seen, value] : value);
	}
	return Object.fromEntries(fields);
}

// The JSON answers carry these fields as numbers (up to 15 digits always fit exactly; longer is no
// code); everything else, phone numbers with their leading zero included, stays a string.
function numberFields(value: unknown, keys: string[]): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const record = value as Record<string, unknown>;
	for (const key of keys) {
		const field = record[key];
		if (typeof field === 'string' && /^\d{1,15}$/.test(field)) record[key] = Number(field);
	}
	return record;
}

/**
 * The JSON twin of a `<TwilioResponse>` document: SMS sends → `[{ SMSMessage }, …]`,
 * a call → `{ Call }`, an error → `{ RestException }` (numeric Status and Code), anything else
 * → an object of the root's children. `undefined` when the text is not such a document.
 */
export function readServiceXml(text: string): unknown | undefined {
	const root = parseDocument(text);
	if (!root || root.name !== 'TwilioResponse') return undefined;
	if (root.children.length > 0 && root.children.every((child) => child.name === 'SMSMessage')) {
		return root.children.map((child) => ({
			SMSMessage: numberFields(toValue(child), ['DetailedStatusCode', 'SmsUnits']),
		}));
	}
	const answer = toObject(root.children);
	if ('RestException' in answer) numberFields(answer.RestException, ['Status', 'Code']);
	return answer;
}
