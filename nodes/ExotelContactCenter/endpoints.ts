// The requests the Contact Center node makes, and the rate-limit category each counts in.
import type { Endpoint } from '../shared/transport/endpoint';

/** The configuration server's campaigns (its host derived from the contact-center URL). */
export const CAMPAIGN_CONFIGURATION = {
	getMany: { base: 'cms', method: 'GET', path: '/configuration/hierarchyconfig/campaign', rate: 'generalGet' },
} as const satisfies Record<string, Endpoint>;

export const CONTACT_CENTER_USERS = {
	create: { base: 'cc', method: 'POST', path: '/servicerestapi/cc/contactCenterUsers', rate: 'userManagement' },
	/** The spec shows this path with and without the user ID: the node uses the path form. */
	update: { base: 'cc', method: 'PUT', path: '/servicerestapi/cc/contactCenterUsers/{userId}', rate: 'userManagement' },
	delete: { base: 'cc', method: 'DELETE', path: '/servicerestapi/user/users/{userId}', rate: 'userManagement' },
} as const satisfies Record<string, Endpoint>;

/** The page lists the download as POST; the spec serves it as GET, and it counts as Voice either way. */
export const VOICE_LOGS = {
	download: { base: 'cc', method: 'GET', path: '/servicerestapi/cc/downloadVoiceLog', rate: 'voice' },
} as const satisfies Record<string, Endpoint>;
