// An endpoint: where one kind of request goes and which of the account's limits it counts against; a request: what goes there.
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { FormValue } from './encoding';
import type { RateCategory } from './rateLimits';

/** The spec's base URLs, each served by one credential type. */
export type ExotelBase = 'base' | 'ccm' | 'integrations' | 'cms' | 'cc' | 'alloc';

export type ExotelCredentialType = 'exotelApi' | 'exotelBearerTokenApi' | 'exotelContactCenterApi' | 'exotelAllocationApi';

/**
 * One request of the spec the package makes. Each node declares its own in its `endpoints.ts`;
 * the pacing, the sandbox's limiter and the tests all read the category from there, so a new
 * operation's request is counted where the service counts it, or fails the spec-wire test by name.
 */
export interface Endpoint {
	base: ExotelBase;
	method: IHttpRequestMethods;
	/** Under the base; `{accountSid}` is the credential's, every other `{name}` the request's `params.name`. */
	path: string;
	/** The category of the service's rate-limiting page the request counts in. */
	rate: RateCategory;
}

/** The key the chat app goes under: the API reference's `chatapp`, or `whatsapp` as the live service takes it. */
export type ChatAppEnvelope = 'chatapp' | 'whatsapp';

/**
 * The one request two nodes make (Messaging's Set Webhooks and the Messaging Trigger's
 * registration): the PUT of the account's chat-app webhooks, under each envelope's own path.
 */
export const CHAT_APP_WEBHOOK: Readonly<Record<ChatAppEnvelope, Endpoint>> = {
	chatapp: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/chatapp/webhook', rate: 'chatApp' },
	whatsapp: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/whatsapp/webhook', rate: 'chatApp' },
};

export interface ExotelRequest {
	/** Where it goes and which rate limit it counts in (each node's `endpoints.ts`). */
	endpoint: Endpoint;
	/** Values of the endpoint path's placeholders besides `{accountSid}`. */
	params?: Record<string, string>;
	qs?: IDataObject;
	/** v1 body: sent form-encoded with bracket keys (`To[]`, `Messages[0][To]`). */
	form?: Record<string, FormValue>;
	/** v2/v3 body: sent as JSON. */
	body?: IDataObject | IDataObject[];
	/** A body already encoded (multipart uploads), sent as is with its content type. */
	rawBody?: { data: Buffer; contentType: string };
	/** Answer as raw bytes (recordings) instead of parsed JSON. */
	binary?: boolean;
	/** A base URL given explicitly (e.g. a configuration server derived from the contact-center URL). */
	baseUrl?: string;
	/** Another credential for the same base, e.g. a bearer token for contact upload on `ccm`. */
	credentialType?: ExotelCredentialType;
	itemIndex?: number;
	/**
	 * Whether the request may be sent again after a lost connection. Defaults to true except for
	 * POST: a POST whose answer was lost may already have been accepted (messages sent, calls made).
	 */
	idempotent?: boolean;
	timeout?: number;
	/** Secrets the request carries besides the credential's (a verify token), kept out of errors. */
	secrets?: string[];
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The endpoint's path with its placeholders filled, each value URI-encoded as one path segment. */
export function pathOf(endpoint: Endpoint, accountSid: string, params: Record<string, string> = {}): string {
	return endpoint.path.replace(PLACEHOLDER, (_whole, name: string) => {
		const value = name === 'accountSid' ? accountSid : params[name];
		if (value === undefined) throw new Error(`${endpoint.method} ${endpoint.path}: no value for {${name}}`);
		return encodeURIComponent(value);
	});
}

/** Whether a path as received (any values in the placeholders' places, `.json` or not) is this endpoint's. */
export function matchesEndpoint(endpoint: Endpoint, base: string, method: string, path: string): boolean {
	if (endpoint.base !== base || endpoint.method !== method.toUpperCase()) return false;
	const pattern = endpoint.path
		.replace(/\.json$/, '')
		.split(PLACEHOLDER)
		.map((part, index) => (index % 2 === 1 ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
		.join('');
	return new RegExp(`^${pattern}(?:\\.json)?/?$`).test(path);
}
