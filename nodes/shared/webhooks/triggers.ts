import type { IDataObject, IHookFunctions, INodeProperties, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { startWith } from './respond';

/**
 * What the package's triggers do alike: one POST URL the service calls back, a notice that says
 * where to paste it, an Events list, and a start with only the chosen events of a callback.
 */

/** An entry of a trigger's Events list; `action` is how n8n's nodes panel lists it. */
export interface TriggerEvent {
	name: string;
	value: string;
	action: string;
	description: string;
}

/** The event of a payload no callback family describes, passed through whole. */
export const UNKNOWN_EVENT = 'unknown';

/** The Events entry of that payload; `description` says what it is to this trigger. */
export function unrecognizedPayload(description: string) {
	return { name: 'Unrecognized Payload', value: UNKNOWN_EVENT, action: 'On unrecognized payload', description } as const;
}

/**
 * Where the service posts its callbacks: the trigger's Production (or Test) URL. An empty
 * responseData makes n8n answer with the trigger's own `webhookResponse` (without one it answers the
 * text "firstEntryJson").
 */
export const CALLBACK_WEBHOOK: IWebhookDescription = { name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' };

/**
 * The webhook methods of a trigger whose URL the user gives the service by hand (per call, per
 * campaign, in the flow builder): nothing to register on activation, nothing to remove after.
 */
export const URL_GIVEN_BY_HAND = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return this.getNodeWebhookUrl('default') !== undefined;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};

/** The trigger's first parameter: where to paste its URL and how the requests to it are checked. */
export function setupNotice(text: string): INodeProperties {
	return { displayName: text, name: 'setupNotice', type: 'notice', default: '' };
}

/** Events: which callbacks start the workflow; by default every recognised one. */
export function eventsField(events: readonly TriggerEvent[], description: string): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: [...events],
		// written as an array literal: n8n's lint rule for multiOptions defaults reads the literal
		default: [...events.map((event) => event.value).filter((value) => value !== UNKNOWN_EVENT)],
		description,
	};
}

/**
 * Starts the workflow with those of a callback's items whose event is picked in Events and whose
 * status passes the trigger's own Statuses filter; n8n answers 200 once it holds the execution (a
 * callback with none left is answered at once).
 */
export function startWithChosen<Item extends IDataObject>(
	context: IWebhookFunctions,
	items: Item[],
	statusPasses: (item: Item) => boolean,
): IWebhookResponseData {
	const events = context.getNodeParameter('events', []) as string[];
	return startWith(
		context,
		items.length,
		items.filter((item) => events.includes(String(item.event)) && statusPasses(item)),
	);
}
