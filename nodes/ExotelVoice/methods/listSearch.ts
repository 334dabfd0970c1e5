import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { exotelRequest } from '../../shared/transport';
import { CAMPAIGNS_PATH, itemsOf, statusKey, text } from '../resources/campaign/shared';
import { LISTS_PATH } from '../resources/list/shared';
import { USERS_PATH, usersOf } from '../resources/user';

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

/** Campaigns whose name contains the filter (the service's `name` search), newest first, with their status. */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = offsetOf(paginationToken);
	const qs: IDataObject = { offset, limit: PAGE_SIZE };
	if (text(filter)) qs.name = text(filter);
	const response = await exotelRequest.call(this, { base: 'base', method: 'GET', path: CAMPAIGNS_PATH, qs });
	const campaigns = itemsOf(response.body);
	const results: INodeListSearchItems[] = campaigns
		.filter((campaign) => text(campaign.id))
		.map((campaign) => {
			const id = text(campaign.id);
			const status = text(campaign.status);
			const label = STATUS_LABELS[statusKey(status)] ?? status;
			const name = text(campaign.name) || id;
			return { name: label ? `${name} (${label})` : name, value: id };
		});
	return { results, paginationToken: nextToken(offset, campaigns) };
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
	const offset = offsetOf(paginationToken);
	const qs: IDataObject = { offset, limit: PAGE_SIZE };
	if (text(filter)) qs.name = text(filter);
	const response = await exotelRequest.call(this, { base: 'base', method: 'GET', path: LISTS_PATH, qs });
	const lists = itemsOf(response.body);
	const results: INodeListSearchItems[] = lists
		.filter((list) => text(list.sid))
		.map((list) => {
			const sid = text(list.sid);
			const name = text(list.name) || sid;
			const count = Number(list.contact_count);
			if (list.contact_count === undefined || list.contact_count === null || !Number.isFinite(count)) return { name, value: sid };
			return { name: `${name} (${count} ${count === 1 ? 'contact' : 'contacts'})`, value: sid };
		});
	return { results, paginationToken: nextToken(offset, lists) };
}

function userItem(user: IDataObject): INodeListSearchItems {
	const id = text(user.id);
	const fullName = [text(user.first_name), text(user.last_name)].filter(Boolean).join(' ');
	const email = text(user.email);
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
	const search = text(filter).toLowerCase().replace(/\s+/g, ' ');
	const request = async (qs: IDataObject) =>
		usersOf((await exotelRequest.call(this, { base: 'ccm', method: 'GET', path: USERS_PATH, qs })).body);

	if (offset === 0 && EMAIL.test(search)) {
		const found = (await request({ email: text(filter), offset: 0, limit: PAGE_SIZE })).filter((user) => text(user.id));
		if (found.length) return { results: found.map(userItem) };
	}
	const users = await request({ offset, limit: PAGE_SIZE });
	const matches = (user: IDataObject) => {
		const first = text(user.first_name).toLowerCase();
		const last = text(user.last_name).toLowerCase();
		return [first, last, `${first} ${last}`, text(user.email).toLowerCase()].some((value) => value.includes(search));
	};
	const results = users.filter((user) => text(user.id) && (!search || matches(user))).map(userItem);
	return { results, paginationToken: nextToken(offset, users) };
}
