// The requests the Voice node makes, and the rate-limit category each counts in.
import type { Endpoint } from '../shared/transport/endpoint';

export const CALLS = {
	connect: { base: 'base', method: 'POST', path: '/v1/Accounts/{accountSid}/Calls/connect', rate: 'voice' },
	get: { base: 'base', method: 'GET', path: '/v1/Accounts/{accountSid}/Calls/{callSid}.json', rate: 'voice' },
	getMany: { base: 'base', method: 'GET', path: '/v1/Accounts/{accountSid}/Calls.json', rate: 'voice' },
	/** The contact-center management API's details of one call, with its legs. */
	getDetails: { base: 'ccm', method: 'GET', path: '/v2/accounts/{accountSid}/calls/{callSid}', rate: 'voice' },
	voiceLogs: { base: 'base', method: 'GET', path: '/v3/accounts/{accountSid}/calls/{callSid}/voice-logs', rate: 'voice' },
} as const satisfies Record<string, Endpoint>;

/**
 * The spec shows create, list, update (PUT) and call details only; Get Campaign Details and Delete
 * Campaign are not shown, so the node uses GET and DELETE on `campaigns/<campaign_id>`.
 */
export const CAMPAIGNS = {
	create: { base: 'base', method: 'POST', path: '/v2/accounts/{accountSid}/campaigns', rate: 'campaign' },
	getMany: { base: 'base', method: 'GET', path: '/v2/accounts/{accountSid}/campaigns', rate: 'generalGet' },
	get: { base: 'base', method: 'GET', path: '/v2/accounts/{accountSid}/campaigns/{campaignId}', rate: 'generalGet' },
	update: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/campaigns/{campaignId}', rate: 'campaign' },
	delete: { base: 'base', method: 'DELETE', path: '/v2/accounts/{accountSid}/campaigns/{campaignId}', rate: 'campaign' },
	getCallDetails: { base: 'base', method: 'GET', path: '/v2/accounts/{accountSid}/campaigns/{campaignId}/call-details', rate: 'generalGet' },
} as const satisfies Record<string, Endpoint>;

export const LISTS = {
	getMany: { base: 'base', method: 'GET', path: '/v2/accounts/{accountSid}/lists', rate: 'generalGet' },
	/** Renames several lists in one request. */
	bulkRename: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/lists', rate: 'campaign' },
	get: { base: 'base', method: 'GET', path: '/v2/accounts/{accountSid}/lists/{listSid}', rate: 'generalGet' },
	rename: { base: 'base', method: 'PUT', path: '/v2/accounts/{accountSid}/lists/{listSid}', rate: 'campaign' },
	delete: { base: 'base', method: 'DELETE', path: '/v2/accounts/{accountSid}/lists/{listSid}', rate: 'campaign' },
	getContacts: { base: 'base', method: 'GET', path: '/v2/accounts/{accountSid}/lists/{listSid}/contacts', rate: 'generalGet' },
	removeContact: { base: 'base', method: 'DELETE', path: '/v2/accounts/{accountSid}/lists/{listSid}/contacts/{contactSid}', rate: 'campaign' },
} as const satisfies Record<string, Endpoint>;

/** Contact upload lives on the contact-center management API. */
export const CONTACT_UPLOADS = {
	upload: { base: 'ccm', method: 'POST', path: '/v2/accounts/{accountSid}/contacts/upload', rate: 'campaign' },
	getStatus: { base: 'ccm', method: 'GET', path: '/v2/accounts/{accountSid}/contacts/upload/{uploadId}', rate: 'generalGet' },
} as const satisfies Record<string, Endpoint>;

/** Users live on the contact-center management API, wrapped as `response: [{code, status, data: User}]`. */
export const USERS = {
	getMany: { base: 'ccm', method: 'GET', path: '/v2/accounts/{accountSid}/users', rate: 'generalGet' },
	get: { base: 'ccm', method: 'GET', path: '/v2/accounts/{accountSid}/users/{userId}', rate: 'generalGet' },
} as const satisfies Record<string, Endpoint>;

/** A user's devices on the integrations API, named by customer, app and user. */
export const USER_DEVICES = {
	getStatus: { base: 'integrations', method: 'GET', path: '/v2/integrations/{customer}/apps/{app}/users/{user}/devices', rate: 'generalGet' },
	update: { base: 'integrations', method: 'PUT', path: '/v2/integrations/{customer}/apps/{app}/users/{user}/devices', rate: 'userManagement' },
} as const satisfies Record<string, Endpoint>;
