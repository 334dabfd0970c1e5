/**
 * The node panel reads in words: canvas subtitles evaluated the way the editor evaluates them and
 * short enough to show whole under the node, one label for an operation's optional fields, Statuses
 * only with a status event, and notices kept for real traps.
 */
import type { INode, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeType, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ExotelCallFlowTrigger } from '../../nodes/ExotelCallFlowTrigger/ExotelCallFlowTrigger.node';
import { ExotelContactCenter } from '../../nodes/ExotelContactCenter/ExotelContactCenter.node';
import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { ExotelMessagingTrigger } from '../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { MESSAGING_EVENTS } from '../../nodes/ExotelMessagingTrigger/events';
import { ExotelNumberAllocation } from '../../nodes/ExotelNumberAllocation/ExotelNumberAllocation.node';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';
import { ExotelVoiceTrigger } from '../../nodes/ExotelVoiceTrigger/ExotelVoiceTrigger.node';
import { inWords, lowerCased, operationSubtitles } from '../../nodes/shared/descriptions/subtitle';
import { STATUS_EVENTS } from '../../nodes/shared/output/messagingEvents';

const ACTION_NODES: INodeType[] = [new ExotelMessaging(), new ExotelVoice(), new ExotelContactCenter(), new ExotelNumberAllocation()];
const TRIGGERS: INodeType[] = [new ExotelMessagingTrigger(), new ExotelVoiceTrigger(), new ExotelCallFlowTrigger()];
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

/** n8n cuts a subtitle longer than this under the node. */
const SUBTITLE_FITS = 30;

/** Short words in n8n's shape ("send: SMS", "3 events"): lower-case but for acronyms, no raw camelCase values. */
const isShortWords = (text: unknown) =>
	typeof text === 'string' && text.length > 0 && text.length <= SUBTITLE_FITS && /^([a-z0-9]|[A-Z]{2,}\b)/.test(text) && !/[a-z][A-Z]/.test(text);

describe('canvas subtitles', () => {
	it.each(ACTION_NODES.map((type) => [type.description.displayName, type] as const))(
		'%s shows "operation: resource" in short words for every resource and operation',
		(_name, type) => {
			const table = operationSubtitles(type.description.properties);
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
					const key = `${String(resourceValue)}:${String(operation.value)}`;
					const shown = subtitleOf(type, { resource: resourceValue, operation: operation.value });
					// [key, ...] so that a failure names the combination
					expect([key, shown]).toEqual([key, table[key]]);
					expect([key, shown, isShortWords(shown)]).toEqual([key, shown, true]);
					expect(String(shown)).toMatch(/^[a-z][a-zA-Z ]*: [a-zA-Z][a-zA-Z ]*$/);
					checked++;
				}
			}
			expect(checked).toBeGreaterThan(0);
			expect(Object.keys(table)).toHaveLength(checked);
		},
	);

	it('reads like n8n\'s own ("send: message"), not the action sentence that was cut ("Send a chat app message an…")', () => {
		const messaging = new ExotelMessaging();
		expect(subtitleOf(messaging, { resource: 'sms', operation: 'send' })).toBe('send: SMS');
		expect(subtitleOf(messaging, { resource: 'chatApp', operation: 'send' })).toBe('send: chat app');
		expect(subtitleOf(messaging, { resource: 'chatApp', operation: 'sendAndWait' })).toBe('send and wait: chat app');
		expect(subtitleOf(messaging, { resource: 'chatApp', operation: 'sendAndWaitForDelivery' })).toBe('wait for delivery: chat app');
		expect(subtitleOf(messaging, { resource: 'rcs', operation: 'sendTemplate' })).toBe('send template: RCS');
		expect(subtitleOf(new ExotelVoice(), { resource: 'call', operation: 'getMany' })).toBe('get many: call');
		expect(subtitleOf(new ExotelVoice(), { resource: 'userDevice', operation: 'getStatus' })).toBe('get status: user device');
		expect(subtitleOf(new ExotelContactCenter(), { resource: 'voiceLog', operation: 'download' })).toBe('download: voice log');
		expect(subtitleOf(new ExotelNumberAllocation(), { resource: 'allocation', operation: 'allocate' })).toBe('allocate: allocation');
	});

	it('every operation carries an action sentence (n8n\'s node panel lists actions by it)', () => {
		for (const type of ACTION_NODES) {
			for (const property of type.description.properties.filter((p) => p.name === 'operation')) {
				for (const option of property.options as INodePropertyOptions[]) expect(option.action).toMatch(/^[A-Z][a-z]/);
			}
		}
	});

	it.each(TRIGGERS.filter((type) => type.description.properties.some((property) => property.name === 'events')).map((type) => [type.description.displayName, type] as const))(
		'%s names its one chosen event, or how many, in short words',
		(_name, type) => {
			expect(String(type.description.subtitle)).not.toContain('$parameter["events"].join');
			const field = type.description.properties.find((property) => property.name === 'events')!;
			const events = field.options as INodePropertyOptions[];
			for (const event of events) {
				const shown = subtitleOf(type, { events: [event.value] });
				expect(shown).toBe(lowerCased(event.name));
				expect([shown, isShortWords(shown)]).toEqual([shown, true]);
			}
			for (let count = 2; count < events.length; count++) {
				expect(subtitleOf(type, { events: events.slice(0, count).map((event) => event.value) })).toBe(`${count} events`);
			}
			expect(subtitleOf(type, { events: events.map((event) => event.value) })).toBe('all events');
			expect(subtitleOf(type, { events: [] })).toBe('no events');
			// the defaults, as a new trigger shows them on the canvas
			const defaults = field.default as string[];
			expect(subtitleOf(type, { events: defaults })).toBe(`${defaults.length} events`);
		},
	);

	it('the Call Flow Trigger names the applet it answers', () => {
		const applets = (new ExotelCallFlowTrigger().description.properties.find((property) => property.name === 'applet')!.options as INodePropertyOptions[]).map((option) => option.value);
		expect(applets.map((applet) => subtitleOf(new ExotelCallFlowTrigger(), { applet }))).toEqual(['Connect', 'Gather', 'Greeting', 'Passthru']);
	});

	it('the Messaging Trigger subtitle reads "chat app incoming message", not chatAppIncoming; acronyms keep their capitals', () => {
		expect(subtitleOf(new ExotelMessagingTrigger(), { events: ['chatAppIncoming'] })).toBe('chat app incoming message');
		expect(subtitleOf(new ExotelMessagingTrigger(), { events: ['smsStatus'] })).toBe('SMS status callback');
		expect(subtitleOf(new ExotelVoiceTrigger(), { events: ['callStatusManagement'] })).toBe('call status (management API)');
		expect(inWords('rcsDeliveryReport')).toBe('RCS delivery report');
	});
});

// Named groups keep their own names: they are not "the optional fields of the operation".
const NAMED_GROUPS: Record<string, string> = {
	'Column Fields': 'Add Column',
	'Fallback Options': 'Add Option',
	Filters: 'Add Filter', // narrows a Get Many: n8n's label for list filters
	'Rate Limit': 'Add Option', // version 1 only: Max Wait's own collection (version 2 lists it under Options)
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
	'Exotel Call Flow Trigger': ['setupNotice'], // :secret in the URL is to be replaced by hand; the service cannot sign these requests
};

describe('notices', () => {
	it('of the waiting operations say in the user\'s words what the person gets, what the execution waits for and what comes out', () => {
		const notices = [new ExotelMessaging(), new ExotelVoice()].flatMap((type) =>
			type.description.properties.filter((p) => p.name === 'waitNotice').map((p) => p.displayName),
		);
		// SMS, chat app and RCS answers, SMS and chat-app deliveries, the call's end
		expect(new Set(notices).size).toBe(6);
		for (const text of new Set(notices)) {
			expect(text).toMatch(/^The (person|recipient|number) /);
			expect(text).toContain('The execution waits');
			expect(text).toContain('Limit Wait Time');
			expect(text).toMatch(/continues with/);
			expect(text).toMatch(/It takes one input item: loop over items for more\.$/);
			expect(text).not.toMatch(/resume URL|status callback|callback|webhook/i);
			expect(text.length).toBeLessThanOrEqual(300);
		}
	});

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

/**
 * n8n's editor takes a parameter for the node's authentication choice when the credentials' `show`
 * conditions name every one of its options (its getMainAuthField, measured on 2.8.4 and 2.41): it
 * then hides that parameter from the panel and sets it from the credential picked. Resource must
 * never be taken for it. Version 1 nodes escaped this only because n8n adds a "Custom API Call"
 * option to their Resource dropdown; from version 2 it does not.
 */
describe('credentials by resource', () => {
	/** The parameter the editor would take for the authentication choice, as it picks it. */
	function editorsAuthChoice(description: INodeType['description']): string | undefined {
		const shownFor: Record<string, string[]> = {};
		for (const credential of description.credentials ?? []) {
			for (const [name, values] of Object.entries(credential.displayOptions?.show ?? {})) {
				shownFor[name] = [...(shownFor[name] ?? []), ...(values ?? []).map(String)];
			}
		}
		const candidates = description.properties.filter((property) => property.name in shownFor);
		const named = candidates.find((property) => property.name === 'authentication');
		if (named) return named.name;
		return candidates.find((property) =>
			((property.options ?? []) as INodePropertyOptions[]).every((option) => typeof option.value !== 'string' || shownFor[property.name].includes(option.value)),
		)?.name;
	}

	/** The credentials the panel offers for these parameters. */
	const offered = (type: INodeType, parameters: Record<string, string>) =>
		(type.description.credentials ?? [])
			.filter((credential) => !credential.displayOptions || NodeHelpers.displayParameter(parameters, credential, null, type.description))
			.map((credential) => credential.name);

	it.each(ACTION_NODES.map((type) => [type.description.displayName, type] as const))('%s: Resource is not taken for an authentication choice', (_, type) => {
		expect(editorsAuthChoice(type.description)).not.toBe('resource');
	});

	it('the rule catches credentials shown for every resource (how Voice and Contact Center had them)', () => {
		const description = new ExotelContactCenter().description;
		const before = {
			...description,
			credentials: [
				{ name: 'exotelContactCenterApi', required: true, displayOptions: { show: { resource: ['user', 'voiceLog'] } } },
				{ name: 'exotelBearerTokenApi', required: true, displayOptions: { show: { resource: ['campaign'] } } },
			],
		};
		expect(editorsAuthChoice(before)).toBe('resource');
	});

	it('each resource offers its own credential', () => {
		const voice = new ExotelVoice();
		for (const resource of ['call', 'campaign', 'list', 'user', 'voiceLog']) expect(offered(voice, { resource })).toEqual(['exotelApi']);
		expect(offered(voice, { resource: 'userDevice' })).toEqual(['exotelBearerTokenApi']);
		expect(offered(voice, { resource: 'contact', authentication: 'apiKey' })).toEqual(['exotelApi']);
		expect(offered(voice, { resource: 'contact', authentication: 'bearerToken' })).toEqual(['exotelBearerTokenApi']);
		const contactCenter = new ExotelContactCenter();
		for (const resource of ['user', 'voiceLog']) expect(offered(contactCenter, { resource })).toEqual(['exotelContactCenterApi']);
		expect(offered(contactCenter, { resource: 'campaign' })).toEqual(['exotelBearerTokenApi']);
	});
});
