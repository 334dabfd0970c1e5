import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * Canvas subtitles in words, built from the descriptions' own options so they cannot drift:
 * an action node shows its operation's `action` ("Send an SMS"), a trigger the names of its events.
 * n8n evaluates the subtitle as an expression over `$parameter`.
 */

type Named = Pick<INodePropertyOptions, 'name' | 'value'> & { action?: string };

function lookup(table: Record<string, string>): string {
	return `{ ${Object.entries(table)
		.map(([key, words]) => `${JSON.stringify(key)}: ${JSON.stringify(words)}`)
		.join(', ')} }`;
}

/** `resource:operation` to the operation's action, for every Operation dropdown in `properties`. */
export function operationActions(properties: INodeProperties[]): Record<string, string> {
	const table: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		const resources = (property.displayOptions?.show?.resource ?? []) as string[];
		for (const option of (property.options ?? []) as Named[]) {
			const words = option.action ?? option.name;
			for (const resource of resources) table[`${resource}:${String(option.value)}`] = words;
		}
	}
	return table;
}

/** The subtitle of a resource/operation node: the chosen operation's action. */
export function operationSubtitle(properties: INodeProperties[]): string {
	return `={{ ${lookup(operationActions(properties))}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

/**
 * The subtitle of a trigger with an Events list: the names of one or two chosen events,
 * "All Events", or a count ("5 Events") that fits the canvas.
 */
export function eventsSubtitle(events: readonly Named[]): string {
	const names: Record<string, string> = {};
	for (const event of events) names[String(event.value)] = event.name;
	const chosen = '$parameter["events"]';
	return (
		`={{ ${chosen}.length >= ${events.length} ? "All Events" : ` +
		`${chosen}.length > 2 ? ${chosen}.length + " Events" : ` +
		`${chosen}.map((event) => (${lookup(names)}[event] || event)).join(", ") }}`
	);
}
