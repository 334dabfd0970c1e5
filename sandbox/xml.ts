/**
 * The live service's XML answers of the v1 API (live mode, a path without `.json`): the JSON answer
 * written as `<TwilioResponse>`, one element per key, in order. No attributes, no whitespace between
 * elements; null is an empty element; text is escaped (`&amp; &lt; &gt;`, line breaks as `&#xA;` / `&#xD;`).
 */

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** Text content, escaped as the live service writes it. */
export function escapeXml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#xA;').replace(/\r/g, '&#xD;');
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The children of an object: one element per key. */
function children(value: Record<string, unknown>): string {
	return Object.entries(value)
		.map(([name, child]) => element(name, child))
		.join('');
}

/**
 * The items of an array, in turn: a wrapper (one key holding an object, `{Leg: {…}}`, `{SMSMessage: {…}}`)
 * gives its element; any other item is an element named `item` (`Calls: [{…}]` → `<Call>…</Call>`).
 */
function items(list: unknown[], item: string): string {
	return list
		.map((value) => {
			const keys = isObject(value) ? Object.keys(value) : [];
			return keys.length === 1 && isObject((value as Record<string, unknown>)[keys[0]]) ? children(value as Record<string, unknown>) : element(item, value);
		})
		.join('');
}

/**
 * `<name>…</name>`: an object's keys as child elements; an array's items inside it (items: `Legs: [{Leg:
 * {…}}]` → `<Legs><Leg>…</Leg></Legs>`, `Calls: [{Sid, …}]` → `<Calls><Call><Sid>…</Call></Calls>`).
 */
function element(name: string, value: unknown): string {
	if (value === null || value === undefined) return `<${name}/>`;
	let inner: string;
	if (Array.isArray(value)) inner = items(value, name.endsWith('s') ? name.slice(0, -1) : 'Item');
	else if (isObject(value)) inner = children(value);
	else inner = escapeXml(String(value));
	return `<${name}>${inner}</${name}>`;
}

/** A RestException's fields in the live order: Status, Message, then Code (only when there is one) and the rest. */
function liveRestException(exception: Record<string, unknown>): Record<string, unknown> {
	const { Status, Message, ...rest } = exception;
	return { Status, Message, ...rest };
}

/**
 * The XML document of a v1 JSON answer: `{Call: {…}}` → `<TwilioResponse><Call>…</Call></TwilioResponse>`,
 * `[{SMSMessage: {…}}, …]` → one `<SMSMessage>` per item, `{RestException: {…}}` → `<RestException>`.
 */
export function twilioResponse(json: unknown): string {
	let inner: string;
	if (Array.isArray(json)) inner = items(json, 'Item');
	else if (isObject(json)) {
		inner = isObject(json.RestException) ? children({ ...json, RestException: liveRestException(json.RestException) }) : children(json);
	} else inner = json === undefined || json === null ? '' : escapeXml(String(json));
	return `${XML_DECLARATION}\n<TwilioResponse>${inner}</TwilioResponse>`;
}
