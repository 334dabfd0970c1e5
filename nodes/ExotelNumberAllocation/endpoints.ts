// The requests the Number Allocation node makes, and the rate-limit category each counts in.
import type { Endpoint } from '../shared/transport/endpoint';

export const ALLOCATIONS = {
	allocate: { base: 'alloc', method: 'POST', path: '/v1/tenants/{accountSid}/greenvn', rate: 'exoPhone' },
	get: { base: 'alloc', method: 'GET', path: '/v1/tenants/{accountSid}/greenvn/{greenvnId}', rate: 'generalGet' },
	deallocate: { base: 'alloc', method: 'DELETE', path: '/v1/tenants/{accountSid}/greenvn/{greenvnId}', rate: 'exoPhone' },
} as const satisfies Record<string, Endpoint>;
