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

function bulkQuery(ctx: RequestContext): Reply {
	const q: Partial<Record<(typeof QUERY_KEYS)[number], string>> = {};
	for (const key of QUERY_KEYS) {
		const raw = ctx.request.query[key];
		if (Array.isArray(raw)) return fail(ctx, 400, `${key} is given ${raw.length} times; give it once (comma-separated where a list is allowed)`);
		if (raw !== undefined) q[key] = raw;
	}
	const now = Date.now();
	const live = ctx.state.live;
	const filters: Array<(call: StoredCall) => boolean> = [];
	let pageSize: number = CALLS_PAGE_SIZE.default;
	let validity: number = RECORDING_URL_VALIDITY.default;
	let ascending = false;
	// a QueryError answers 400 with its message (guarded)
	if (q.PageSize !== undefined) {
		pageSize = /^\d+$/.test(q.PageSize) ? Number(q.PageSize) : NaN;
		if (!(pageSize >= 1 && pageSize <= CALLS_PAGE_SIZE.max)) {
			throw new QueryError(`PageSize must be an integer from 1 to ${CALLS_PAGE_SIZE.max} (got '${q.PageSize}')`);
		}
	}
	if (q.Sid !== undefined) {
		const sids = q.Sid.split(',').map((s) => s.trim());
		if (sids.length > CALL_QUERY_LIMITS.sids) throw new QueryError(`Sid has ${sids.length} call ids; at most ${CALL_QUERY_LIMITS.sids} are allowed`);
		if (sids.some((s) => !s)) throw new QueryError('Sid has an empty entry');
		const set = new Set(sids);
		filters.push((call) => set.has(call.sid));
	}
	if (q.DateCreated !== undefined) {
		const offset = live ? INDIA_OFFSET_MINUTES : 0;
		const range = parseRange('DateCreated', q.DateCreated, ['gte', 'lte', 'gt', 'lt'], (text) => parseServiceDate(text, offset), 'gte:2026-01-01 00:00:00;lte:2026-01-31 23:59:59');
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
		filters.push((call) => inRange(call.createdAt, range));
	}
	for (const [key, pick] of [
		['To', (call: StoredCall) => call.to],
		['From', (call: StoredCall) => call.from],
		['PhoneNumber', (call: StoredCall) => call.phoneNumberSid],
	] as const) {
		const raw = q[key];
		if (raw === undefined) continue;
		const set = new Set(numberList(key, raw));
		filters.push((call) => set.has(pick(call) ?? ''));
	}
	if (q.Status !== undefined) {
		if (!STATUSES.includes(q.Status)) throw new QueryError(`Status must be one of ${STATUSES.join(', ')} (got '${q.Status}')`);
		filters.push((call) => ended(call, now) && call.outcome === q.Status);
	}
	if (q.Direction !== undefined) {
		if (!DIRECTIONS.includes(q.Direction)) throw new QueryError(`Direction must be one of ${DIRECTIONS.join(', ')} (got '${q.Direction}')`);
		filters.push((call) => call.direction === q.Direction);
	}
	if (q.Duration !== undefined) {
		const range = parseRange('Duration', q.Duration, ['gte', 'lte', 'gt', 'lt', 'eq'], (t) => (/^\d+s$/.test(t) ? Number(t.slice(0, -1)) : undefined), 'gte:10s;lte:45s or eq:30s');
		filters.push((call) => ended(call, now) && inRange(call.endedAfter, range));
	}
	if (q.Price !== undefined) {
		const range = parseRange('Price', q.Price, ['gte', 'lte', 'gt', 'lt', 'eq'], (t) => (/^\d+(\.\d+)?$/.test(t) ? Number(t) : undefined), 'gte:0.50;lte:2.00');
		filters.push((call) => ended(call, now) && inRange(Number(call.price), range));
	}
	if (q.SortBy !== undefined) {
		if (q.SortBy !== 'DateCreated:asc' && q.SortBy !== 'DateCreated:desc') {
			throw new QueryError(`SortBy must be DateCreated:asc or DateCreated:desc (got '${q.SortBy}')`);
		}
		ascending = q.SortBy === 'DateCreated:asc';
	}
	if (q.RecordingUrlValidity !== undefined) {
		validity = /^\d+$/.test(q.RecordingUrlValidity) ? Number(q.RecordingUrlValidity) : NaN;
		if (!(validity >= RECORDING_URL_VALIDITY.min && validity <= RECORDING_URL_VALIDITY.max)) {
			throw new QueryError(`RecordingUrlValidity must be an integer from ${RECORDING_URL_VALIDITY.min} to ${RECORDING_URL_VALIDITY.max} minutes (got '${q.RecordingUrlValidity}')`);
		}
	}
	if (q.Before !== undefined && q.After !== undefined) throw new QueryError('Give Before or After, not both');
	let before: { createdAt: number; sid: string } | undefined;
	let after: { createdAt: number; sid: string } | undefined;
	try {
		if (q.Before !== undefined) before = parseCursor('Before', q.Before);
		if (q.After !== undefined) after = parseCursor('After', q.After);
	} catch (error) {
		return fail(ctx, 400, (error as Error).message);
	}

	type Key = { createdAt: number; sid: string };
	const asc = (a: Key, b: Key) => a.createdAt - b.createdAt || (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0);
	const order = ascending ? asc : (a: Key, b: Key) => asc(b, a);
	const matched = [...callsOf(ctx.state).values()].filter((call) => filters.every((f) => f(call))).sort(order);
	let start = 0;
	let end: number;
	if (after) {
		start = matched.findIndex((call) => order(call, after!) > 0);
		if (start < 0) start = matched.length;
		end = Math.min(matched.length, start + pageSize);
	} else if (before) {
		end = matched.findIndex((call) => order(call, before!) >= 0);
		if (end < 0) end = matched.length;
		start = Math.max(0, end - pageSize);
	} else {
		end = Math.min(matched.length, pageSize);
	}
	const page = matched.slice(start, end);

	const path = `/v1/Accounts/${ctx.params.sid}/Calls.json`;
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(ctx.request.query)) {
		if (key === 'Before' || key === 'After') continue;
		for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
	}
	if (!params.has('PageSize')) params.append('PageSize', String(pageSize));
	const uri = (cursor?: [string, string]) => {
		const p = new URLSearchParams(params);
		if (cursor) p.append(cursor[0], cursor[1]);
		return `${path}?${p.toString()}`;
	};
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
		Calls: page.map((call) => v1CallView(call, now, { origin: ctx.origin, validityMinutes: validity, live })),
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
