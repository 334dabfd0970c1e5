/**
 * One call and the bulk call query (v1): `GET /v1/Accounts/<sid>/Calls/<sid>.json` and
 * `GET /v1/Accounts/<sid>/Calls.json` with every filter of the spec, cursor paging and the spec's
 * history window.
 */
import { fail, firstQueryValue, INDIA_OFFSET_MINUTES, json } from '../http';
import type { StoredCall } from '../stored';
import type { Handler, Reply, RequestContext, RouteDefinition } from '../types';
import { callsOf, ended, RECORDING_URL_VALIDITY, v1CallView } from './calls';

export const CALLS_PAGE_SIZE = { default: 50, max: 100 } as const;
/** The spec's window in calendar months: 6 back, 1 per request (Nov 24 → May 24; Jan 31 + 1 → Feb 28). */
export const CALL_QUERY_LIMITS = { sids: 100, numbers: 5, historyMonths: 6, rangeMonths: 1 } as const;

const E164 = /^\+[1-9]\d{7,14}$/;
const DAY_MS = 86_400_000;

/** The same wall-clock time `months` calendar months later (earlier if negative), kept inside the month. */
export function addCalendarMonths(ms: number, months: number): number {
	const d = new Date(ms);
	const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
	target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
	return target.getTime() + (ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

type RangeOp = 'gte' | 'lte' | 'gt' | 'lt' | 'eq';
type Range = Partial<Record<RangeOp, number>>;

class QueryError extends Error {}

function parseRange(name: string, raw: string, ops: readonly RangeOp[], value: (text: string) => number | undefined, example: string): Range {
	const range: Range = {};
	for (const part of raw.split(';')) {
		const m = /^([a-z]+):(.+)$/.exec(part.trim());
		if (!m || !(ops as readonly string[]).includes(m[1])) {
			throw new QueryError(`${name} must look like ${example} (operators ${ops.join(', ')}; got '${raw}')`);
		}
		const op = m[1] as RangeOp;
		if (range[op] !== undefined) throw new QueryError(`${name} gives '${op}' twice`);
		const v = value(m[2].trim());
		if (v === undefined) throw new QueryError(`${name} has an invalid value '${m[2]}' (e.g. ${example})`);
		range[op] = v;
	}
	return range;
}

function inRange(v: number, r: Range): boolean {
	return (
		(r.gte === undefined || v >= r.gte) &&
		(r.lte === undefined || v <= r.lte) &&
		(r.gt === undefined || v > r.gt) &&
		(r.lt === undefined || v < r.lt) &&
		(r.eq === undefined || v === r.eq)
	);
}

/** A DateCreated bound: UTC (spec mode), or India wall-clock time in live mode (`offsetMinutes` 330). */
function parseServiceDate(text: string, offsetMinutes = 0): number | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
	if (!m) return undefined;
	const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
	return Number.isNaN(ms) ? undefined : ms - offsetMinutes * 60_000;
}

function numberList(name: string, raw: string): string[] {
	const list = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
	if (list.length > CALL_QUERY_LIMITS.numbers) {
		throw new QueryError(`${name} has ${list.length} numbers; at most ${CALL_QUERY_LIMITS.numbers} are allowed`);
	}
	for (const entry of raw.split(',')) {
		if (!E164.test(entry.trim())) {
			const hint = /^ \d/.test(entry) ? " (a '+' sent unencoded in a query reads as a space: encode it as %2B)" : '';
			throw new QueryError(`${name} values must be E.164 numbers (got '${entry}')${hint}`);
		}
	}
	return list;
}

const cursorOf = (call: StoredCall) => Buffer.from(`${call.createdAt}:${call.sid}`).toString('base64url');

function parseCursor(name: string, raw: string): { createdAt: number; sid: string } {
	const decoded = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
	const m = /^(\d+):([0-9a-z]+)$/.exec(decoded);
	if (!m) throw new QueryError(`${name} is not a cursor of this query (take it from PrevPageUri or NextPageUri)`);
	return { createdAt: Number(m[1]), sid: m[2] };
}

const STATUSES: readonly string[] = ['completed', 'failed', 'busy', 'no-answer'];
const DIRECTIONS: readonly string[] = ['inbound', 'outbound-dial', 'outbound-api'];
const QUERY_KEYS = ['Sid', 'DateCreated', 'To', 'From', 'Status', 'Duration', 'Price', 'Direction', 'PhoneNumber', 'PageSize', 'SortBy', 'Before', 'After', 'RecordingUrlValidity'] as const;

type QueryKey = (typeof QUERY_KEYS)[number];
type Query = Partial<Record<QueryKey, string>>;
type CallFilter = (call: StoredCall) => boolean;
type CursorKey = { createdAt: number; sid: string };

/** An integer query value from `min` to `max`, else a QueryError saying so. */
function integerIn(key: string, raw: string, min: number, max: number, unit = ''): number {
	const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(value >= min && value <= max)) throw new QueryError(`${key} must be an integer from ${min} to ${max}${unit} (got '${raw}')`);
	return value;
}

function sidFilter(raw: string): CallFilter {
	const sids = raw.split(',').map((s) => s.trim());
	if (sids.length > CALL_QUERY_LIMITS.sids) throw new QueryError(`Sid has ${sids.length} call ids; at most ${CALL_QUERY_LIMITS.sids} are allowed`);
	if (sids.some((s) => !s)) throw new QueryError('Sid has an empty entry');
	const set = new Set(sids);
	return (call) => set.has(call.sid);
}

/** DateCreated: within the spec's history window, at most a month per request. */
function dateCreatedFilter(raw: string, now: number, live: boolean): CallFilter {
	const offset = live ? INDIA_OFFSET_MINUTES : 0;
	const range = parseRange('DateCreated', raw, ['gte', 'lte', 'gt', 'lt'], (text) => parseServiceDate(text, offset), 'gte:2026-01-01 00:00:00;lte:2026-01-31 23:59:59');
	const lower = range.gte ?? range.gt;
	const upper = range.lte ?? range.lt;
	const oldest = addCalendarMonths(now, -CALL_QUERY_LIMITS.historyMonths);
	if ((lower !== undefined && lower < oldest) || (upper !== undefined && upper < oldest)) {
		throw new QueryError('DateCreated reaches back more than 6 months; older calls cannot be queried');
	}
	if (lower !== undefined && upper !== undefined) {
		if (upper < lower) throw new QueryError('DateCreated ends before it starts');
		if (upper > addCalendarMonths(lower, CALL_QUERY_LIMITS.rangeMonths)) {
			throw new QueryError(`DateCreated spans ${Math.ceil((upper - lower) / DAY_MS)} days; at most one month per request`);
		}
	}
	return (call) => inRange(call.createdAt, range);
}

const NUMBER_FILTERS = [
	['To', (call: StoredCall) => call.to],
	['From', (call: StoredCall) => call.from],
	['PhoneNumber', (call: StoredCall) => call.phoneNumberSid],
] as const;

/** Status, Direction, Duration and Price: the first two one of a list, the others ranges (of ended calls). */
function outcomeFilters(q: Query, now: number): CallFilter[] {
	const filters: CallFilter[] = [];
	const { Status: status, Direction: direction } = q;
	if (status !== undefined) {
		if (!STATUSES.includes(status)) throw new QueryError(`Status must be one of ${STATUSES.join(', ')} (got '${status}')`);
		filters.push((call) => ended(call, now) && call.outcome === status);
	}
	if (direction !== undefined) {
		if (!DIRECTIONS.includes(direction)) throw new QueryError(`Direction must be one of ${DIRECTIONS.join(', ')} (got '${direction}')`);
		filters.push((call) => call.direction === direction);
	}
	if (q.Duration !== undefined) {
		const range = parseRange('Duration', q.Duration, ['gte', 'lte', 'gt', 'lt', 'eq'], (t) => (/^\d+s$/.test(t) ? Number(t.slice(0, -1)) : undefined), 'gte:10s;lte:45s or eq:30s');
		filters.push((call) => ended(call, now) && inRange(call.endedAfter, range));
	}
	if (q.Price !== undefined) {
		const range = parseRange('Price', q.Price, ['gte', 'lte', 'gt', 'lt', 'eq'], (t) => (/^\d+(\.\d+)?$/.test(t) ? Number(t) : undefined), 'gte:0.50;lte:2.00');
		filters.push((call) => ended(call, now) && inRange(Number(call.price), range));
	}
	return filters;
}

/** Every filter of the query, checked in the order of the spec's table (the first problem is the one answered). */
function filtersOf(q: Query, now: number, live: boolean): CallFilter[] {
	const filters: CallFilter[] = [];
	if (q.Sid !== undefined) filters.push(sidFilter(q.Sid));
	if (q.DateCreated !== undefined) filters.push(dateCreatedFilter(q.DateCreated, now, live));
	for (const [key, pick] of NUMBER_FILTERS) {
		const raw = q[key];
		if (raw === undefined) continue;
		const set = new Set(numberList(key, raw));
		filters.push((call) => set.has(pick(call) ?? ''));
	}
	return [...filters, ...outcomeFilters(q, now)];
}

/** How the page is cut: order, recording URL validity and the cursor; a QueryError for a bad one. */
function pagingOf(q: Query): { ascending: boolean; validity: number; before?: CursorKey; after?: CursorKey } {
	if (q.SortBy !== undefined && q.SortBy !== 'DateCreated:asc' && q.SortBy !== 'DateCreated:desc') {
		throw new QueryError(`SortBy must be DateCreated:asc or DateCreated:desc (got '${q.SortBy}')`);
	}
	const { min, max } = RECORDING_URL_VALIDITY;
	const validity = q.RecordingUrlValidity === undefined ? RECORDING_URL_VALIDITY.default : integerIn('RecordingUrlValidity', q.RecordingUrlValidity, min, max, ' minutes');
	if (q.Before !== undefined && q.After !== undefined) throw new QueryError('Give Before or After, not both');
	return {
		ascending: q.SortBy === 'DateCreated:asc',
		validity,
		before: q.Before === undefined ? undefined : parseCursor('Before', q.Before),
		after: q.After === undefined ? undefined : parseCursor('After', q.After),
	};
}

/** The query's values, each given at most once; a string is the 400 for one given twice. */
function queryOf(ctx: RequestContext): Query | string {
	const q: Query = {};
	for (const key of QUERY_KEYS) {
		const raw = ctx.request.query[key];
		if (Array.isArray(raw)) return `${key} is given ${raw.length} times; give it once (comma-separated where a list is allowed)`;
		if (raw !== undefined) q[key] = raw;
	}
	return q;
}

/** Where the page starts and ends in the matched calls: after a cursor, before one, or the first page. */
function pageBounds(
	matched: StoredCall[],
	order: (a: CursorKey, b: CursorKey) => number,
	{ after, before }: ReturnType<typeof pagingOf>,
	pageSize: number,
): { start: number; end: number } {
	if (after) {
		const found = matched.findIndex((call) => order(call, after) > 0);
		const start = found < 0 ? matched.length : found;
		return { start, end: Math.min(matched.length, start + pageSize) };
	}
	if (before) {
		const found = matched.findIndex((call) => order(call, before) >= 0);
		const end = found < 0 ? matched.length : found;
		return { start: Math.max(0, end - pageSize), end };
	}
	return { start: 0, end: Math.min(matched.length, pageSize) };
}

/** The page's URIs: the query as given but for its cursor, with PageSize. */
function pageUris(ctx: RequestContext, pageSize: number): (cursor?: [string, string]) => string {
	const path = `/v1/Accounts/${ctx.params.sid}/Calls.json`;
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(ctx.request.query)) {
		if (key === 'Before' || key === 'After') continue;
		for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
	}
	if (!params.has('PageSize')) params.append('PageSize', String(pageSize));
	return (cursor) => {
		const p = new URLSearchParams(params);
		if (cursor) p.append(cursor[0], cursor[1]);
		return `${path}?${p.toString()}`;
	};
}

function bulkQuery(ctx: RequestContext): Reply {
	const q = queryOf(ctx);
	if (typeof q === 'string') return fail(ctx, 400, q);
	const now = Date.now();
	const live = ctx.state.live;
	// checked in this order: PageSize, the filters, the rest of the paging
	const pageSize = q.PageSize === undefined ? CALLS_PAGE_SIZE.default : integerIn('PageSize', q.PageSize, 1, CALLS_PAGE_SIZE.max);
	const filters = filtersOf(q, now, live);
	const paging = pagingOf(q);
	const asc = (a: CursorKey, b: CursorKey) => a.createdAt - b.createdAt || (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);
	const order = paging.ascending ? asc : (a: CursorKey, b: CursorKey) => asc(b, a);
	const matched = [...callsOf(ctx.state).values()].filter((call) => filters.every((f) => f(call))).sort(order);
	const { start, end } = pageBounds(matched, order, paging, pageSize);
	const page = matched.slice(start, end);
	const uri = pageUris(ctx, pageSize);
	const nextCursor = page.length ? cursorOf(page[page.length - 1]) : undefined;
	const prevCursor = page.length ? cursorOf(page[0]) : q.After;
	return json(200, {
		Metadata: {
			Total: matched.length,
			PageSize: pageSize,
			FirstPageUri: uri(),
			PrevPageUri: start > 0 && prevCursor ? uri(['Before', prevCursor]) : null,
			NextPageUri: end < matched.length && nextCursor ? uri(['After', nextCursor]) : null,
		},
		Calls: page.map((call) => v1CallView(call, now, { origin: ctx.origin, validityMinutes: paging.validity, live })),
	});
}

/** A QueryError answers 400 with its message; anything else stays a failure. */
function guarded(handler: (ctx: RequestContext) => Reply): Handler {
	const run = async (ctx: RequestContext) => handler(ctx);
	return (ctx) =>
		run(ctx).catch((error: unknown) => {
			if (error instanceof QueryError) return fail(ctx, 400, error.message);
			throw error;
		});
}

export const callQueryRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'GET',
		path: '/v1/Accounts/:sid/Calls.json',
		auth: 'basic',
		handler: guarded(bulkQuery),
	},
	{
		base: 'base',
		method: 'GET',
		path: '/v1/Accounts/:sid/Calls/:callSid.json',
		auth: 'basic',
		handler: (ctx) => {
			const raw = ctx.request.query.details;
			const details = firstQueryValue(raw);
			if (Array.isArray(raw) || (details !== undefined && details !== 'true' && details !== 'false')) {
				return fail(ctx, 400, `details must be true or false (got '${String(raw)}')`);
			}
			const call = callsOf(ctx.state).get(ctx.params.callSid);
			if (!call) return fail(ctx, 404, `Call ${ctx.params.callSid} does not exist in this account`);
			return json(200, {
				Call: v1CallView(call, Date.now(), { origin: ctx.origin, validityMinutes: RECORDING_URL_VALIDITY.default, details: details === 'true', live: ctx.state.live }),
			});
		},
	},
];
