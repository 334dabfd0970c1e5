// The requests the Messaging node makes, and the rate-limit category each counts in.
import type { Endpoint } from '../shared/transport/endpoint';

export const SMS = {
	/** Static bulk: one text to one or many (`To[]`). */
	send: { base: 'base', method: 'POST', path: '/v1/Accounts/{accountSid}/Sms/send', rate: 'sms' },
	/** Dynamic bulk: a text per message, counted in its own, lower limit. */
	bulksend: { base: 'base', method: 'POST', path: '/v1/Accounts/{accountSid}/Sms/bulksend', rate: 'bulkSms' },
} as const satisfies Record<string, Endpoint>;

/** The v2 send of RCS and chat-app messages. */
export const MESSAGES = {
	send: { base: 'base', method: 'POST', path: '/v2/accounts/{accountSid}/messages', rate: 'chatApp' },
} as const satisfies Record<string, Endpoint>;
