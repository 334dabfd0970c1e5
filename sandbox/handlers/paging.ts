/**
 * The v2 answers of the list and campaign routes (lists.ts, campaigns.ts): the envelope, and the
 * offset paging, `metadata` and sorting of their listings.
 */
import { fail, firstQueryValue, isPlainObject, json, randomHex } from '../http';
import type { Reply, RequestContext } from '../types';

export function v2Answer(ctx: RequestContext, status: number, response: unknown, extra: Record<string, unknown> = {}): Reply {
	return json(status, { request_id: randomHex(32), method: ctx.request.method, http_code: status, ...extra, response });
}

/** `offset` and `limit` of a listing query, or the 400 that refuses them. */
export function pageQuery(
	ctx: RequestContext,
	defaults: { defaultLimit: number; maxLimit: number },
): { offset: number; limit: number } | Reply {
	const rawOffset = firstQueryValue(ctx.request.query.offset);
	const rawLimit = firstQueryValue(ctx.request.query.limit);
	const offset = rawOffset === undefined ? 0 : /^\d+$/.test(rawOffset) ? Number(rawOffset) : NaN;
	if (!Number.isInteger(offset)) return fail(ctx, 400, `offset must be a non-negative integer (got '${rawOffset}')`);
	const limit = rawLimit === undefined ? defaults.defaultLimit : /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
	if (!(Number.isInteger(limit) && limit >= 1 && limit <= defaults.maxLimit)) {
		return fail(ctx, 400, `limit must be an integer from 1 to ${defaults.maxLimit} (got '${rawLimit}')`);
	}
	return { offset, limit };
}

export function isReply(value: unknown): value is Reply {
	return isPlainObject(value) && typeof value.status === 'number' && !('offset' in value);
}

/** One page of `all` with the spec's `metadata {count, offset, total, limit}`. */
export function pageAnswer(ctx: RequestContext, all: unknown[], page: { offset: number; limit: number }): Reply {
	const slice = all.slice(page.offset, page.offset + page.limit);
	return v2Answer(ctx, 200, slice, { metadata: { count: slice.length, offset: page.offset, total: all.length, limit: page.limit } });
}

/** Sorts by `date_created` or `name`, ascending or descending; ties keep their order. */
export function sortBy<T>(items: T[], sort: string, keys: { date: (item: T) => string; name: (item: T) => string }): T[] {
	const [field, direction] = sort.split(':');
	const key = field === 'name' ? keys.name : keys.date;
	const sign = direction === 'asc' ? 1 : -1;
	return items
		.map((item, index) => ({ item, index }))
		.sort((a, b) => {
			const x = key(a.item).toLowerCase();
			const y = key(b.item).toLowerCase();
			return x < y ? -sign : x > y ? sign : a.index - b.index;
		})
		.map(({ item }) => item);
}
