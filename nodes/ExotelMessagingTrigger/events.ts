import { CALLBACK_EVENTS, DECLARED_EVENTS } from '../shared/output/messagingEvents';
import { unrecognizedPayload, type TriggerEvent } from '../shared/webhooks/triggers';

/** The trigger's Events list: every declared messaging event, then any other JSON object. */
export const MESSAGING_EVENTS: readonly TriggerEvent[] = [
	...DECLARED_EVENTS.map((value) => {
		const { displayName, action, description } = CALLBACK_EVENTS[value];
		return { name: displayName, value, action, description };
	}),
	unrecognizedPayload('Any other JSON object, passed through whole'),
];
