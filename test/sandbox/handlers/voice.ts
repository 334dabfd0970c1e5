/**
 * Voice (v1). Today only the bulk call query, which the Exotel API credential uses as its test;
 * the sandbox places no calls yet, so the list is empty.
 */
import { fail, firstQueryValue, json } from '../http';
import type { RouteDefinition } from '../types';

export const CALLS_PAGE_SIZE = { default: 50, max: 100 } as const;

export const voiceRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'GET',
		path: '/v1/Accounts/:sid/Calls.json',
		auth: 'basic',
		handler: (ctx) => {
			const raw = firstQueryValue(ctx.request.query.PageSize);
			let pageSize: number = CALLS_PAGE_SIZE.default;
			if (raw !== undefined) {
				pageSize = /^\d+$/.test(raw) ? Number(raw) : NaN;
				if (!(pageSize >= 1 && pageSize <= CALLS_PAGE_SIZE.max)) {
					return fail(ctx, 400, `PageSize must be an integer from 1 to ${CALLS_PAGE_SIZE.max} (got '${raw}')`);
				}
			}
			return json(200, {
				Metadata: {
					Total: 0,
					PageSize: pageSize,
					FirstPageUri: `/v1/Accounts/${ctx.params.sid}/Calls.json?PageSize=${pageSize}`,
					PrevPageUri: null,
					NextPageUri: null,
				},
				Calls: [],
			});
		},
	},
];
