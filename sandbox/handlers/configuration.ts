/**
 * Configuration lookup on the configuration server (cms base): the campaigns of a contact center.
 */
import { SANDBOX_CONTACT_CENTER_ID } from '../fixtures';
import { fail, firstQueryValue, json } from '../http';
import type { RouteDefinition } from '../types';

/** The hierarchy campaigns of the sandbox contact center. */
export function hierarchyCampaigns(contactCenterId: number) {
	return [
		{
			campaignContextId: 101,
			campaignContextName: 'Sandbox Inbound Support',
			campaignContextType: 'Interaction Campaign',
			contactCenterId,
			processId: 11,
			description: 'Inbound support queue of the sandbox contact center',
			dateAdded: '2025-11-03T09:15:00Z',
			dateModified: '2026-01-12T16:40:00Z',
			ref: 3,
			version: 2,
		},
		{
			campaignContextId: 102,
			campaignContextName: 'Sandbox Outbound Sales',
			campaignContextType: 'Outbound Voice Campaign',
			contactCenterId,
			processId: 12,
			description: 'Outbound sales dialling of the sandbox contact center',
			dateAdded: '2025-11-03T09:20:00Z',
			dateModified: '2026-01-20T11:05:00Z',
			ref: 1,
			version: 1,
		},
	];
}

export const configurationRoutes: RouteDefinition[] = [
	{
		base: 'cms',
		method: 'GET',
		path: '/configuration/hierarchyconfig/campaign',
		auth: 'bearer',
		handler: (ctx) => {
			const raw = firstQueryValue(ctx.request.query.contactCenterId);
			if (raw === undefined || raw === '') {
				return fail(ctx, 400, 'Query parameter contactCenterId is required');
			}
			if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
				return fail(ctx, 400, `contactCenterId must be an integer (got '${raw}')`);
			}
			const id = Number(raw);
			if (id !== SANDBOX_CONTACT_CENTER_ID) {
				return fail(ctx, 404, `Object does not exist: no contact center with id ${id}`);
			}
			return json(200, hierarchyCampaigns(id));
		},
	},
];
