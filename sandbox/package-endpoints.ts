/**
 * The requests the package declares it makes (each node's `endpoints.ts`), with the rate-limit
 * category it declares for each: the sandbox counts a request in the category of the declaration
 * it matches, so the package's pacing and the sandbox's limiter read one table. Type imports and
 * plain data only: the sandbox stays on Node built-ins.
 */
import * as contactCenter from '../nodes/ExotelContactCenter/endpoints';
import * as messaging from '../nodes/ExotelMessaging/endpoints';
import * as numberAllocation from '../nodes/ExotelNumberAllocation/endpoints';
import * as voice from '../nodes/ExotelVoice/endpoints';
import { CHAT_APP_WEBHOOK, matchesEndpoint, type Endpoint } from '../nodes/shared/transport/endpoint';

export interface DeclaredEndpoint {
	/** Where it is declared: `<catalogue>.<request>`, e.g. `LISTS.rename` or `CHAT_APP_WEBHOOK.whatsapp`. */
	name: string;
	endpoint: Endpoint;
}

const CATALOGUES: Record<string, Record<string, Endpoint>> = { ...contactCenter, ...messaging, ...numberAllocation, ...voice, CHAT_APP_WEBHOOK };

export const PACKAGE_ENDPOINTS: readonly DeclaredEndpoint[] = Object.entries(CATALOGUES).flatMap(([catalogue, endpoints]) =>
	Object.entries(endpoints).map(([request, endpoint]) => ({ name: `${catalogue}.${request}`, endpoint })),
);

/** The declarations a request as received matches (`path` without the base prefix and query): one, or none for a request the package never makes. */
export function declaredEndpointsOf(base: string, method: string, path: string): DeclaredEndpoint[] {
	return PACKAGE_ENDPOINTS.filter(({ endpoint }) => matchesEndpoint(endpoint, base, method, path));
}
