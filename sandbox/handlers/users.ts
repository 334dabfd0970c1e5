/**
 * Users on the contact-center management API (ccm base, basic auth): the list with extra fields
 * only when asked, the `devices.contact_uri` and `email` filters and offset paging, and one user.
 * SANDBOX_USER_COUNT users are seeded on first use after a reset (ids `user-1` ... `user-120`);
 * the integrations API (device status) and the calls' agents use the same users.
 */
import { createHash } from 'crypto';

import { fail, firstQueryValue, json, randomHex } from '../http';
import type { SandboxState } from '../state';
import type { CcmDevice, CcmUser } from '../stored';
import type { Reply, RequestContext, RouteDefinition } from '../types';

export const SANDBOX_USER_COUNT = 120;

/** User list `limit`: default 20, at most 50 (the spec's Limits). */
export const USERS_PAGE = { default: 20, max: 50 } as const;

export const USER_EXTRA_FIELDS = ['devices', 'active_call', 'last_login'] as const;

const E164 = /^\+[1-9]\d{7,14}$/;

const FIRST_NAMES = ['Asha', 'Ravi', 'Meera', 'Arjun', 'Kavya', 'Rohan', 'Divya', 'Vikram', 'Neha', 'Sanjay', 'Priya', 'Imran'];
const LAST_NAMES = ['Rao', 'Iyer', 'Shah', 'Menon', 'Gupta', 'Nair', 'Das', 'Khan', 'Reddy', 'Joshi'];

/** The first device of user n: `+9198765` + n on five digits (user-1 → +919876500001). */
export function userPhone(n: number): string {
	return `+9198765${String(n).padStart(5, '0')}`;
}

/** The second device of every fourth user (an office line). */
export function userOfficePhone(n: number): string {
	return `+9180471${String(n).padStart(5, '0')}`;
}

const isoAt = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const hex32 = (seed: string) => createHash('sha256').update(seed).digest('hex').slice(0, 32);

/** The seeded users, deterministic (fixed dates, no randomness). */
export function seedCcmUsers(): CcmUser[] {
	const created = Date.UTC(2025, 5, 1, 9, 0, 0);
	return Array.from({ length: SANDBOX_USER_COUNT }, (_, i) => {
		const n = i + 1;
		const first = FIRST_NAMES[i % FIRST_NAMES.length];
		const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length];
		const onCall = n % 15 === 0;
		const devices: CcmDevice[] = [
			{
				id: n * 10 + 1,
				name: 'Mobile',
				contact_uri: userPhone(n),
				type: 'tel',
				available: n % 7 !== 0,
				verified: n % 11 !== 0,
				status: onCall ? 'busy' : 'free',
			},
		];
		if (n % 4 === 0) {
			devices.push({ id: n * 10 + 2, name: 'Office phone', contact_uri: userOfficePhone(n), type: 'tel', available: true, verified: true, status: 'free' });
		}
		return {
			id: `user-${n}`,
			first_name: first,
			last_name: last,
			email: `${first}.${last}${n}@acme.example`.toLowerCase(),
			email_verified: n % 9 !== 0,
			role: 'user',
			active_call: onCall
				? {
						call_sid: hex32(`sandbox-active-call-${n}`),
						direction: 'inbound',
						from: `+9199887${String(n).padStart(5, '0')}`,
						to: '+918047112233',
						start_time: isoAt(Date.UTC(2026, 0, 15, 10, 0, 0) + n * 1000),
					}
				: null,
			last_login: isoAt(Date.UTC(2026, 0, 1, 8, 0, 0) + n * 3_600_000),
			date_created: isoAt(created + n * 86_400_000),
			date_updated: isoAt(created + n * 86_400_000 + 3_600_000),
			devices,
		};
	});
}

/** The users of the account, seeded on first use after a reset. */
export function ccmUsersOf(state: SandboxState): Map<string, CcmUser> {
	if (!state.ccmUsersSeeded) {
		state.ccmUsersSeeded = true;
		for (const user of seedCcmUsers()) state.ccmUsers.set(user.id, user);
	}
	return state.ccmUsers;
}

/** A user as answered: the base fields, plus `extras` (all of them for the single-user path). */
export function userView(user: CcmUser, extras: readonly string[]): Record<string, unknown> {
	const view: Record<string, unknown> = {
		id: user.id,
		first_name: user.first_name,
		last_name: user.last_name,
		email: user.email,
		email_verified: user.email_verified,
		role: user.role,
	};
	if (extras.includes('active_call')) view.active_call = user.active_call === null ? null : { ...user.active_call };
	if (extras.includes('last_login')) view.last_login = user.last_login;
	view.date_created = user.date_created;
	view.date_updated = user.date_updated;
	if (extras.includes('devices')) view.devices = user.devices.map((device) => ({ ...device }));
	return view;
}

function envelope(ctx: RequestContext, users: CcmUser[], extras: readonly string[], metadata: Record<string, number>): Reply {
	return json(200, {
		request_id: randomHex(32),
		method: ctx.request.method,
		http_code: 200,
		metadata,
		response: users.map((user) => ({ code: 200, status: 'success', data: userView(user, extras) })),
	});
}

/** One query value; a parameter given twice is refused (the sandbox does not guess which one counts). */
function single(ctx: RequestContext, name: string): { value?: string; error?: Reply } {
	const raw = ctx.request.query[name];
	if (Array.isArray(raw)) return { error: fail(ctx, 400, `${name} is given ${raw.length} times; give it once`) };
	return { value: firstQueryValue(raw) };
}

function listUsers(ctx: RequestContext): Reply {
	const read: Record<string, string | undefined> = {};
	for (const name of ['fields', 'devices.contact_uri', 'email', 'offset', 'limit']) {
		const { value, error } = single(ctx, name);
		if (error) return error;
		read[name] = value;
	}
	const extras: string[] = [];
	if (read.fields !== undefined) {
		for (const field of read.fields.split(',').map((f) => f.trim()).filter(Boolean)) {
			if (!(USER_EXTRA_FIELDS as readonly string[]).includes(field)) {
				return fail(ctx, 400, `fields: unknown field '${field}'; allowed: ${USER_EXTRA_FIELDS.join(', ')}`);
			}
			if (!extras.includes(field)) extras.push(field);
		}
	}
	let offset = 0;
	if (read.offset !== undefined) {
		if (!/^\d+$/.test(read.offset)) return fail(ctx, 400, `offset must be a non-negative integer (got '${read.offset}')`);
		offset = Number(read.offset);
	}
	let limit: number = USERS_PAGE.default;
	if (read.limit !== undefined) {
		limit = /^\d+$/.test(read.limit) ? Number(read.limit) : NaN;
		if (!(limit >= 1 && limit <= USERS_PAGE.max)) {
			return fail(ctx, 400, `limit must be an integer from 1 to ${USERS_PAGE.max} (got '${read.limit}')`);
		}
	}
	const contactUri = read['devices.contact_uri'];
	if (contactUri !== undefined && !E164.test(contactUri)) {
		const hint = /^ \d/.test(contactUri) ? " (a '+' sent unencoded in a query reads as a space: encode it as %2B)" : '';
		return fail(ctx, 400, `devices.contact_uri must be an E.164 number (got '${contactUri}')${hint}`);
	}
	const email = read.email?.trim().toLowerCase();
	const matched = [...ccmUsersOf(ctx.state).values()].filter(
		(user) =>
			(contactUri === undefined || user.devices.some((device) => device.contact_uri === contactUri)) &&
			(email === undefined || user.email.toLowerCase() === email),
	);
	const page = matched.slice(offset, offset + limit);
	return envelope(ctx, page, extras, { total: matched.length, count: page.length, offset, limit });
}

export const userRoutes: RouteDefinition[] = [
	{ base: 'ccm', method: 'GET', path: '/v2/accounts/:sid/users', auth: 'basic', handler: listUsers },
	{
		base: 'ccm',
		method: 'GET',
		path: '/v2/accounts/:sid/users/:userId',
		auth: 'basic',
		handler: (ctx) => {
			const user = ccmUsersOf(ctx.state).get(ctx.params.userId);
			if (!user) return fail(ctx, 404, `User ${ctx.params.userId} does not exist in this account`);
			// The path takes no query (spec): the one user comes with every extra field.
			return envelope(ctx, [user], USER_EXTRA_FIELDS, { total: 1, count: 1, offset: 0, limit: 1 });
		},
	},
];
