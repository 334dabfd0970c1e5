import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * Canvas subtitles short enough to show whole under a node (n8n cuts them at about 30 characters),
 * in n8n's own shape: "operation: resource" for an action node ("send: SMS", "get many: call"),
 * from the values (the dropdown names are too long: "Send Template and Wait for Reply"); for a
 * trigger the chosen event's name ("SMS status callback") or how many ("3 events"). Built from the
 * descriptions' own options so they cannot drift; n8n evaluates them as expressions over `$parameter`.
 */

type Named = Pick<INodePropertyOptions, 'name' | 'value'>;

/** Words that stay in capitals. */
const ACRONYMS = ['dlt', 'rcs', 'sms'];

/** Operations whose value in words would not fit beside their resource. */
const SHORTER: Record<string, string> = {
	sendAndWaitForDelivery: 'wait for delivery',
};

/** A camelCase value in lower-case words: sendAndWait → "send and wait", smsStatus → "SMS status". */
export function inWords(value: string): string {
	return value
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(' ')
		.map((word) => (ACRONYMS.includes(word) ? word.toUpperCase() : word))
		.join(' ');
}

/** A dropdown name in lower case but for its acronyms: "Call Status (Management API)" → "call status (management API)". */
export function lowerCased(name: string): string {
	return name
		.split(' ')
		.map((word) => (/^[^a-z]*[A-Z][^a-z]*[A-Z][^a-z]*$/.test(word) ? word : word.toLowerCase()))
		.join(' ');
}

function lookup(table: Record<string, string>): string {
	return `{ ${Object.entries(table)
		.map(([key, words]) => `${JSON.stringify(key)}: ${JSON.stringify(words)}`)
		.join(', ')} }`;
}

/** `resource:operation` to its subtitle, for every Operation dropdown in `properties`. */
export function operationSubtitles(properties: INodeProperties[]): Record<string, string> {
	const table: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		const resources = (property.displayOptions?.show?.resource ?? []) as string[];
		for (const option of (property.options ?? []) as Named[]) {
			const operation = String(option.value);
			for (const resource of resources) table[`${resource}:${operation}`] = `${SHORTER[operation] ?? inWords(operation)}: ${inWords(resource)}`;
		}
	}
	return table;
}

/** The subtitle of a resource/operation node. */
export function operationSubtitle(properties: INodeProperties[]): string {
	return `={{ ${lookup(operationSubtitles(properties))}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

/** The subtitle of a trigger with an Events list: the one chosen event, or how many ("3 events", "all events", "no events"). */
export function eventsSubtitle(events: readonly Named[]): string {
	const words: Record<string, string> = {};
	for (const event of events) words[String(event.value)] = lowerCased(event.name);
	const chosen = '$parameter["events"]';
	return (
		`={{ ${chosen}.length >= ${events.length} ? "all events" : ` +
		`${chosen}.length === 0 ? "no events" : ` +
		`${chosen}.length > 1 ? ${chosen}.length + " events" : ` +
		`(${lookup(words)}[${chosen}[0]] || ${chosen}[0]) }}`
	);
}
