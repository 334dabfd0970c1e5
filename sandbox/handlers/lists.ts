/**
 * Campaign lists and their contacts (main base, `/v2/accounts/<sid>/lists`). The spec names the
 * endpoints and their status codes (200, 207, 400) but shows no bodies: the envelopes here follow
 * the v2 family (see the sandbox README, "Lists and contacts").
 *
 * Lists and contacts are seeded from fixtures on first use after a reset, and contact uploads
 * (handlers/contacts.ts) add contacts and list memberships when they complete: both in listStore.ts.
 */
import { fail, firstQueryValue, isoTimestamp, isPlainObject, readJson } from '../http';
import type { SandboxState } from '../state';
import { CONTACT_COLUMNS, type StoredContact, type StoredList } from '../stored';
import type { Reply, RequestContext, RouteDefinition } from '../types';
import { prepareListState } from './listStore';
import { isReply, pageAnswer, pageQuery, sortBy, v2Answer } from './paging';

/** Listing limits of the list and contact endpoints (the spec gives the default only; the maximum is the campaign listing's). */
export const LIST_PAGE = { defaultLimit: 20, maxLimit: 500 } as const;

export const LIST_SORTS = ['date_created:asc', 'date_created:desc', 'name:asc', 'name:desc'] as const;

/** Entries of one bulk rename (the spec's limit). */
export const BULK_RENAME_MAX = 5000;

// ---------------------------------------------------------------- views

export function listView(list: StoredList, accountSid: string): Record<string, unknown> {
	return {
		sid: list.sid,
		name: list.name,
		contact_count: list.contactSids.length,
		date_created: list.dateCreated,
		date_updated: list.dateUpdated,
		uri: `/v2/accounts/${accountSid}/lists/${list.sid}`,
	};
}

export function contactView(contact: StoredContact): Record<string, unknown> {
	const view: Record<string, unknown> = { sid: contact.sid };
	for (const column of CONTACT_COLUMNS) view[column] = contact.fields[column] ?? null;
	view.date_created = contact.dateCreated;
	view.date_updated = contact.dateUpdated;
	return view;
}

/** Seeds the lists and settles the contact uploads (prepareListState), then the list of the path, or a 404. */
function listOr404(ctx: RequestContext): StoredList | Reply {
	prepareListState(ctx.state);
	const sid = ctx.params.listSid;
	return ctx.state.lists.get(sid) ?? fail(ctx, 404, `No list with sid '${sid}'`);
}

function nameTaken(state: SandboxState, name: string, exceptSid: string): StoredList | undefined {
	const wanted = name.trim().toLowerCase();
	for (const list of state.lists.values()) {
		if (list.sid !== exceptSid && list.name.trim().toLowerCase() === wanted) return list;
	}
	return undefined;
}

function readName(value: unknown, path: string): string | { problem: string } {
	if (value === undefined || value === null) return { problem: `${path} is required` };
	if (typeof value !== 'string') return { problem: `${path} must be a string` };
	if (!value.trim()) return { problem: `${path} must not be empty` };
	return value.trim();
}

// ---------------------------------------------------------------- routes

const LISTS = '/v2/accounts/:sid/lists';

export const listRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'GET',
		path: LISTS,
		auth: 'basic',
		handler: (ctx) => {
			prepareListState(ctx.state);
			const page = pageQuery(ctx, LIST_PAGE);
			if (isReply(page)) return page;
			const sort = firstQueryValue(ctx.request.query.sort_by) ?? 'date_created:desc';
			if (!(LIST_SORTS as readonly string[]).includes(sort)) {
				return fail(ctx, 400, `sort_by must be one of ${LIST_SORTS.join(', ')} (got '${sort}')`);
			}
			const search = (firstQueryValue(ctx.request.query.name) ?? '').trim().toLowerCase();
			const lists = [...ctx.state.lists.values()].filter((list) => !search || list.name.toLowerCase().includes(search));
			const sorted = sortBy(lists, sort, { date: (l) => l.dateCreated, name: (l) => l.name });
			return pageAnswer(ctx, sorted.map((list) => listView(list, ctx.params.sid)), page);
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: `${LISTS}/:listSid`,
		auth: 'basic',
		handler: (ctx) => {
			const list = listOr404(ctx);
			if (isReply(list)) return list;
			return v2Answer(ctx, 200, { code: 200, status: 'success', data: listView(list, ctx.params.sid) });
		},
	},
	{
		base: 'base',
		method: 'PUT',
		path: `${LISTS}/:listSid`,
		auth: 'basic',
		handler: (ctx) => {
			const list = listOr404(ctx);
			if (isReply(list)) return list;
			const body = readJson(ctx);
			if (!body.ok || !isPlainObject(body.value)) return fail(ctx, 400, 'The body must be a JSON object {name}');
			const name = readName(body.value.name, 'name');
			if (typeof name !== 'string') return fail(ctx, 400, name.problem);
			const clash = nameTaken(ctx.state, name, list.sid);
			if (clash) return fail(ctx, 400, `name '${name}' is already used by list '${clash.sid}'; list names are unique`);
			list.name = name;
			list.dateUpdated = isoTimestamp();
			return v2Answer(ctx, 200, { code: 200, status: 'success', data: listView(list, ctx.params.sid) });
		},
	},
	{
		base: 'base',
		method: 'PUT',
		path: LISTS,
		auth: 'basic',
		handler: (ctx) => {
			prepareListState(ctx.state);
			const body = readJson(ctx);
			if (!body.ok || !isPlainObject(body.value)) return fail(ctx, 400, 'The body must be a JSON object {lists: [{sid, name}]}');
			const entries = body.value.lists;
			if (!Array.isArray(entries) || entries.length === 0) return fail(ctx, 400, 'lists must be a non-empty array of {sid, name}');
			if (entries.length > BULK_RENAME_MAX) {
				return fail(ctx, 400, `lists holds ${entries.length} entries; at most ${BULK_RENAME_MAX} are allowed`);
			}
			for (const [index, entry] of entries.entries()) {
				if (!isPlainObject(entry)) return fail(ctx, 400, `lists[${index}] must be an object {sid, name}`);
				if (typeof entry.sid !== 'string' || !entry.sid) return fail(ctx, 400, `lists[${index}].sid is required`);
				const name = readName(entry.name, `lists[${index}].name`);
				if (typeof name !== 'string') return fail(ctx, 400, name.problem);
			}
			// Applied in order: a name freed or taken by an earlier entry counts for the later ones.
			let failed = 0;
			const results = (entries as Array<{ sid: string; name: string }>).map((entry, index) => {
				const list = ctx.state.lists.get(entry.sid);
				const name = entry.name.trim();
				const failure = (code: number, errorCode: number, message: string, description: string) => {
					failed++;
					return { code, status: 'failure', data: { sid: entry.sid, name }, error_data: { code: errorCode, message, description } };
				};
				if (!list) return failure(404, 1004, 'Not found', `lists[${index}]: no list with sid '${entry.sid}'`);
				const clash = nameTaken(ctx.state, name, list.sid);
				if (clash) {
					return failure(400, 1009, 'Duplicate name', `lists[${index}]: name '${name}' is already used by list '${clash.sid}'`);
				}
				list.name = name;
				list.dateUpdated = isoTimestamp();
				return { code: 200, status: 'success', data: listView(list, ctx.params.sid), error_data: null };
			});
			const status = failed > 0 ? 207 : 200;
			return v2Answer(ctx, status, results, { metadata: { total: results.length, success: results.length - failed, failed } });
		},
	},
	{
		base: 'base',
		method: 'DELETE',
		path: `${LISTS}/:listSid`,
		auth: 'basic',
		handler: (ctx) => {
			const list = listOr404(ctx);
			if (isReply(list)) return list;
			ctx.state.lists.delete(list.sid);
			return v2Answer(ctx, 200, { code: 200, status: 'success', data: { sid: list.sid, deleted: true } });
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: `${LISTS}/:listSid/contacts`,
		auth: 'basic',
		handler: (ctx) => {
			const list = listOr404(ctx);
			if (isReply(list)) return list;
			const page = pageQuery(ctx, LIST_PAGE);
			if (isReply(page)) return page;
			const contacts = list.contactSids.map((sid) => ctx.state.contacts.get(sid)).filter((c): c is StoredContact => !!c);
			return pageAnswer(ctx, contacts.map(contactView), page);
		},
	},
	{
		base: 'base',
		method: 'DELETE',
		path: `${LISTS}/:listSid/contacts/:contactSid`,
		auth: 'basic',
		handler: (ctx) => {
			const list = listOr404(ctx);
			if (isReply(list)) return list;
			const position = list.contactSids.indexOf(ctx.params.contactSid);
			if (position < 0) return fail(ctx, 404, `Contact '${ctx.params.contactSid}' is not in list '${list.sid}'`);
			// Only the membership goes: the contact stays (and stays in its other lists).
			list.contactSids.splice(position, 1);
			list.dateUpdated = isoTimestamp();
			return v2Answer(ctx, 200, {
				code: 200,
				status: 'success',
				data: { list_sid: list.sid, contact_sid: ctx.params.contactSid, removed: true },
			});
		},
	},
];
