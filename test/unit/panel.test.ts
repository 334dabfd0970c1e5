/**
 * The node panel reads in words: canvas subtitles evaluated the way the editor evaluates them,
 * one label for an operation's optional fields, Statuses only with a status event, and notices
 * kept for real traps.
 */
import type { INode, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeType, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ExotelContactCenter } from '../../nodes/ExotelContactCenter/ExotelContactCenter.node';
import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { ExotelMessagingTrigger, STATUS_EVENTS } from '../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { MESSAGING_EVENTS } from '../../nodes/ExotelMessagingTrigger/events';
import { ExotelNumberAllocation } from '../../nodes/ExotelNumberAllocation/ExotelNumberAllocation.node';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';
import { ExotelVoiceTrigger } from '../../nodes/ExotelVoiceTrigger/ExotelVoiceTrigger.node';

const ACTION_NODES: INodeType[] = [new ExotelMessaging(), new ExotelVoice(), new ExotelContactCenter(), new ExotelNumberAllocation()];
const TRIGGERS: INodeType[] = [new ExotelMessagingTrigger(), new ExotelVoiceTrigger()];
const ALL = [...ACTION_NODES, ...TRIGGERS];

const nodeTypes: INodeTypes = {
	getByName: (name) => ALL.find((type) => type.description.name === name)!,
	getByNameAndVersion: (name) => ALL.find((type) => type.description.name === name)!,
	getKnownTypes: () => ({}),
};

/** The subtitle as the editor shows it: n8n's expression engine over the node's parameters. */
function subtitleOf(type: INodeType, parameters: INode['parameters']): unknown {
	const node: INode = {
		id: '1',
		name: type.description.defaults.name ?? 'Node',
		type: type.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, type.description.subtitle as string, 'internal', {});
}

/** Every property, collections' and fixed collections' options included. */
function everyProperty(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const inner = (property.options ?? []).flatMap((option) => {
			if ('displayName' in option && 'type' in option) return everyProperty([option as INodeProperties]);
			if ('values' in option) return everyProperty((option as INodePropertyCollection).values);
			return [];
		});
		return [property, ...inner];
	});
}

const isWords = (text: unknown) => typeof text === 'string' && /^[A-Z0-9][^:]*$/.test(text) && !/^[a-z]+[A-Z]/.test(text);

describe('canvas subtitles', () => {
	it.each(ACTION_NODES.map((type) => [type.description.displayName, type] as const))(
		'%s shows the action of every resource and operation in words',
		(_name, type) => {
			const subtitle = String(type.description.subtitle);
			// the old pattern showed raw values ("send: sms")
			expect(subtitle).not.toContain('$parameter["operation"] + ": "');
			const resource = type.description.properties.find((property) => property.name === 'resource')!;
			let checked = 0;
			for (const { value: resourceValue } of resource.options as INodePropertyOptions[]) {
				const dropdowns = type.description.properties.filter(
					(property) =>
						property.name === 'operation' &&
						(property.displayOptions?.show?.resource as string[] | undefined)?.includes(String(resourceValue)),
				);
				expect(dropdowns).toHaveLength(1);
				for (const operation of dropdowns[0].options as INodePropertyOptions[]) {
					const shown = subtitleOf(type, { resource: resourceValue, operation: operation.value });
					expect(shown).toBe(operation.action);
					expect(isWords(shown)).toBe(true);
					checked++;
				}
			}
			expect(checked).toBeGreaterThan(0);
		},
	);

	it('every operation carries an action sentence for its subtitle', () => {
		for (const type of ACTION_NODES) {
			for (const property of type.description.properties.filter((p) => p.name === 'operation')) {
				for (const option of property.options as INodePropertyOptions[]) expect(option.action).toMatch(/^[A-Z][a-z]/);
			}
		}
	});

	it.each(TRIGGERS.map((type) => [type.description.displayName, type] as const))(
		'%s names its events in words',
		(_name, type) => {
			expect(String(type.description.subtitle)).not.toContain('$parameter["events"].join');
			const events = type.description.properties.find((property) => property.name === 'events')!.options as INodePropertyOptions[];
			for (const event of events) expect(subtitleOf(type, { events: [event.value] })).toBe(event.name);
			expect(subtitleOf(type, { events: [events[0].value, events[1].value] })).toBe(`${events[0].name}, ${events[1].name}`);
			expect(subtitleOf(type, { events: events.slice(0, 3).map((event) => event.value) })).toBe('3 Events');
			expect(subtitleOf(type, { events: events.map((event) => event.value) })).toBe('All Events');
			// the defaults, as a new trigger shows them on the canvas
			const defaults = type.description.properties.find((property) => property.name === 'events')!.default as string[];
			expect(isWords(subtitleOf(type, { events: defaults }))).toBe(true);
		},
	);

	it('the Messaging Trigger subtitle reads "Chat App Incoming Message", not chatAppIncoming', () => {
		expect(subtitleOf(new ExotelMessagingTrigger(), { events: ['chatAppIncoming'] })).toBe('Chat App Incoming Message');
		expect(subtitleOf(new ExotelMessaging(), { resource: 'sms', operation: 'send' })).toBe('Send an SMS');
	});
});

// Named groups keep their own names: they are not "the optional fields of the operation".
const NAMED_GROUPS: Record<string, string> = {
	'Column Fields': 'Add Column',
	'Fallback Options': 'Add Option',
	Filters: 'Add Filter', // narrows a Get Many: n8n's label for list filters
	'Rate Limit': 'Add Option',
	'Template Variables': 'Add Variable',
	'Update Fields': 'Add Field', // what an Update changes: n8n's label for update operations
};

describe('one label for optional fields', () => {
	const collections = ALL.flatMap((type) =>
		everyProperty(type.description.properties)
			.filter((property) => property.type === 'collection')
			.map((property) => ({ node: type.description.displayName, property })),
	);

	it('finds the collections', () => {
		expect(collections.length).toBeGreaterThan(10);
	});

	it.each(collections.map(({ node, property }) => [`${node}: ${property.name} (${property.displayName})`, property] as const))(
		'%s',
		(_label, property) => {
			expect(property.displayName).not.toBe('Additional Fields');
			if (property.displayName in NAMED_GROUPS) {
				expect(property.placeholder).toBe(NAMED_GROUPS[property.displayName]);
			} else {
				expect(property.displayName).toBe('Options');
				expect(property.placeholder).toBe('Add Option');
			}
		},
	);

	it('keeps the saved parameter names (additionalFields, options), so workflows still open', () => {
		const names = new Set(collections.filter(({ property }) => property.displayName === 'Options').map(({ property }) => property.name));
		expect([...names].sort()).toEqual(['additionalFields', 'options']);
	});
});

describe('Messaging Trigger Statuses', () => {
	const description = new ExotelMessagingTrigger().description;
	const statuses = description.properties.find((property) => property.name === 'statuses')!;
	const shown = (events: string[]) => NodeHelpers.displayParameter({ events }, statuses, null, description);

	it('shows Statuses only when a status event is picked', () => {
		expect(statuses.displayOptions?.show?.events).toEqual(STATUS_EVENTS);
		for (const event of STATUS_EVENTS) expect(shown([event])).toBe(true);
		expect(shown(['chatAppIncoming', 'smsStatus'])).toBe(true);
		expect(shown(['chatAppIncoming', 'rcsIncoming', 'smsClick', 'unknown'])).toBe(false);
		expect(shown([])).toBe(false);
	});

	it('names only real events as status events', () => {
		const values = MESSAGING_EVENTS.map((event) => event.value as string);
		for (const event of STATUS_EVENTS) expect(values).toContain(event);
	});
});

// The traps a notice is kept for; anything else is a hint or a description.
const NOTICES: Record<string, string[]> = {
	'Exotel Contact Center': ['deleteNotice'], // deleting a user is permanent
	'Exotel Messaging': [
		'dltNotice', // Indian SMS without DLT IDs are rejected by the operators
		'linkNotice', // the approval links are shortened (chargeable), and Indian SMS with links need a DLT template that allows them
		'waitNotice', // a waiting operation handles one item; the answer comes to the resume URL, not to a trigger
		'webhookNotice', // Set Webhooks replaces the account-wide URLs of every chat-app number
	],
	'Exotel Messaging Trigger': [
		'registerNotice', // account-wide URLs, not removed on deactivation
		'setupNotice', // without a signing secret requests are accepted unverified
		'testListenNotice', // a test listen registers nothing: the service must be pointed at the test URL by hand
	],
	'Exotel Number Allocation': [],
	'Exotel Voice': ['waitNotice'], // Connect and Wait handles one call per execution
	'Exotel Voice Trigger': ['setupNotice'], // campaign callbacks need ?callback=...; voice callbacks are unsigned
};

describe('notices', () => {
	it('are kept for real traps only', () => {
		const found: Record<string, string[]> = {};
		for (const type of ALL) {
			found[type.description.displayName] = [
				...new Set(everyProperty(type.description.properties).filter((p) => p.type === 'notice').map((p) => p.name)),
			].sort();
		}
		expect(found).toEqual(NOTICES);
	});
});
