import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemsOf, statusKey } from '../../shared/output/envelope';
import { trimmed } from '../../shared/rules/validation';
import type { Endpoint } from '../../shared/transport/endpoint';
import { exotelRequest } from '../../shared/transport/request';
import { NodeRun } from '../../shared/transport/run';
import { CAMPAIGNS, LISTS, USERS } from '../endpoints';

/** Entries a search asks for at once; the user listing allows no more than this (LIMITS.users.listLimit). */
const PAGE_SIZE = 50;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const STATUS_LABELS: Record<string, string> = {
	created: 'Created',
	inprogress: 'In Progress',
	paused: 'Paused',
	completed: 'Completed',
	archived: 'Archived',
};

/** The offset a pagination token stands for (the token is the next offset; none is the first page). */
function offsetOf(paginationToken: unknown): number {
	const offset = Number(paginationToken);
	return Number.isInteger(offset) && offset > 0 ? offset : 0;
}

/** The next page's token: the next offset after a full page, none after a short one. */
const nextToken = (offset: number, page: unknown[]) => (page.length >= PAGE_SIZE ? String(offset + page.length) : undefined);

/**
 * One page of a v2 listing searched by name (the service's `name` filter), the token being the
 * next page's offset; entries without an ID (`idKey`) are left out, the others named by `nameOf`.
 */
async function searchByName(
	context: ILoadOptionsFunctions,
	endpoint: Endpoint,
	filter: string | undefined,
	paginationToken: string | undefined,
	idKey: string,
	nameOf: (entry: IDataObject, id: string) => string,
): Promise<INodeListSearchResult> {
	const offset = offsetOf(paginationToken);
	const qs: IDataObject = { offset, limit: PAGE_SIZE };
	if (trimmed(filter)) qs.name = trimmed(filter);
	const response = await exotelRequest(context, NodeRun.alone(), { endpoint, qs });
	const entries = itemsOf(response.body);
	const results: INodeListSearchItems[] = entries
		.filter((entry) => trimmed(entry[idKey]))
		.map((entry) => ({ name: nameOf(entry, trimmed(entry[idKey])), value: trimmed(entry[idKey]) }));
	return { results, paginationToken: nextToken(offset, entries) };
}

/** Campaigns whose name contains the filter (the service's `name` search), newest first, with their status. */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchByName(this, CAMPAIGNS.getMany, filter, paginationToken, 'id', (campaign, id) => {
		const status = trimmed(campaign.status);
		const label = STATUS_LABELS[statusKey(status)] ?? status;
		const name = trimmed(campaign.name) || id;
		return label ? `${name} (${label})` : name;
	});
}

/** Lists whose name contains the filter (the service's `name` search), with their contact counts. */
export async function searchLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	// Contact upload may run on a bearer token, which does not reach the lists (main base, API key).
	if (this.getCurrentNodeParameter('resource') === 'contact' && this.getCurrentNodeParameter('authentication') === 'bearerToken') {
		throw new NodeOperationError(this.getNode(), 'Lists can be searched only with the API Key authentication', {
			description: 'With a bearer token, choose ID and enter the list ID.',
		});
	}
	return await searchByName(this, LISTS.getMany, filter, paginationToken, 'sid', (list, sid) => {
		const name = trimmed(list.name) || sid;
		const count = Number(list.contact_count);
		if (list.contact_count === undefined || list.contact_count === null || !Number.isFinite(count)) return name;
		return `${name} (${count} ${count === 1 ? 'contact' : 'contacts'})`;
	});
}

function userItem(user: IDataObject): INodeListSearchItems {
	const id = trimmed(user.id);
	const fullName = [trimmed(user.first_name), trimmed(user.last_name)].filter(Boolean).join(' ');
	const email = trimmed(user.email);
	const name = fullName && email ? `${fullName} (${email})` : fullName || email || id;
	return { name, value: id };
}

/**
 * Users by name or email. The user listing has no name search, so one page of 50 is filtered
 * here on first name, last name, full name and email; the token is the next page's offset. A
 * filter that is a whole email address is first looked up with the service's `email` filter,
 * which finds the user on any page.
 */
export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = offsetOf(paginationToken);
	const search = trimmed(filter).toLowerCase().replace(/\s+/g, ' ');
	const run = NodeRun.alone();
	const request = async (qs: IDataObject) => itemsOf((await exotelRequest(this, run, { endpoint: USERS.getMany, qs })).body);

	if (offset === 0 && EMAIL.test(search)) {
		const found = (await request({ email: trimmed(filter), offset: 0, limit: PAGE_SIZE })).filter((user) => trimmed(user.id));
		if (found.length) return { results: found.map(userItem) };
	}
	const users = await request({ offset, limit: PAGE_SIZE });
	const matches = (user: IDataObject) => {
		const first = trimmed(user.first_name).toLowerCase();
		const last = trimmed(user.last_name).toLowerCase();
		return [first, last, `${first} ${last}`, trimmed(user.email).toLowerCase()].some((value) => value.includes(search));
	};
	const results = users.filter((user) => trimmed(user.id) && (!search || matches(user))).map(userItem);
	return { results, paginationToken: nextToken(offset, users) };
}
