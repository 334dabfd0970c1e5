/**
 * Number allocation (ExoBridge, alloc base): allocate a virtual number, read it, deallocate it.
 * State: active → vault; a deallocated number goes back to the free pool.
 */
import { fail, isPlainObject, json, randomHex, readJson } from '../http';
import type { SandboxState } from '../state';
import type { Allocation, AllocationRecord, GreenvnPoolEntry } from '../stored';
import type { Handler, Reply, RequestContext, RouteDefinition } from '../types';

export const ALLOCATION_REGIONS = ['DL', 'MU', 'MH', 'WB', 'AP', 'TN', 'GJ', 'KA', 'KL', 'RJ', 'MP'] as const;

/** Strict E.164: `+`, a non-zero digit, 7 to 14 more digits. */
export const E164_PATTERN = /^\+[1-9]\d{7,14}$/;

export const ALLOC_CODES = {
	internal: 0,
	notFound: 1,
	mandatoryMissing: 3,
	noFreeNumber: 4,
	badParameters: 5,
	authFailed: 7,
	duplicateInRequest: 14,
	regionNotSupported: 15,
	invalidNumber: 16,
	duplicateConnectionId: 18,
} as const;

function success(data: Allocation): Reply {
	return json(200, { success: true, status: 200, code: null, message: null, data });
}

function allocError(ctx: RequestContext, status: number, code: number, message: string): Reply {
	return fail(ctx, status, message, { code });
}

class AllocationError extends Error {
	constructor(
		readonly status: number,
		readonly code: number,
		message: string,
	) {
		super(message);
	}
}

function numbers(body: Record<string, unknown>, key: string): string[] {
	const value = body[key];
	if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string')) {
		throw new AllocationError(400, ALLOC_CODES.badParameters, `${key} must be a non-empty array of E.164 strings`);
	}
	for (const n of value as string[]) {
		if (!E164_PATTERN.test(n)) throw new AllocationError(400, ALLOC_CODES.invalidNumber, `Invalid number in ${key}: '${n}' (E.164 expected, e.g. +919876543210)`);
	}
	return [...(value as string[])];
}

function pins(body: Record<string, unknown>, key: string): number[] {
	const value = body[key];
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isInteger(v) || v <= 0)) {
		throw new AllocationError(400, ALLOC_CODES.badParameters, `${key} must be an array of positive integers`);
	}
	if (new Set(value).size !== value.length) {
		throw new AllocationError(400, ALLOC_CODES.duplicateInRequest, `${key} holds the same pin more than once`);
	}
	return [...(value as number[])];
}

interface Preferences {
	greenvn?: string;
	region?: string;
	pin_code?: string | number;
	type?: 'mobile' | 'landline';
}

function preferencesOf(body: Record<string, unknown>): Preferences | undefined {
	const value = body.preferences;
	if (value === undefined || value === null) return undefined;
	if (!isPlainObject(value)) throw new AllocationError(400, ALLOC_CODES.badParameters, 'preferences must be an object');
	const prefs: Preferences = {};
	if (value.greenvn !== undefined) {
		if (typeof value.greenvn !== 'string' || !E164_PATTERN.test(value.greenvn)) {
			throw new AllocationError(400, ALLOC_CODES.invalidNumber, `preferences.greenvn must be an E.164 number (got '${String(value.greenvn)}')`);
		}
		prefs.greenvn = value.greenvn;
	}
	if (value.region !== undefined) {
		if (typeof value.region !== 'string' || !(ALLOCATION_REGIONS as readonly string[]).includes(value.region)) {
			throw new AllocationError(400, ALLOC_CODES.regionNotSupported, `Region not supported: '${String(value.region)}'; one of ${ALLOCATION_REGIONS.join(', ')}`);
		}
		prefs.region = value.region;
	}
	if (value.pin_code !== undefined) {
		if (!/^\d{6}$/.test(String(value.pin_code)) || (typeof value.pin_code !== 'string' && typeof value.pin_code !== 'number')) {
			throw new AllocationError(400, ALLOC_CODES.badParameters, 'preferences.pin_code must be a 6-digit postal code');
		}
		prefs.pin_code = value.pin_code;
	}
	if (value.type !== undefined) {
		if (value.type !== 'mobile' && value.type !== 'landline') {
			throw new AllocationError(400, ALLOC_CODES.badParameters, "preferences.type must be 'mobile' or 'landline'");
		}
		prefs.type = value.type;
	}
	return prefs;
}

/** Best free number for the preferences; with strictness every given preference must hold. */
function pickNumber(free: GreenvnPoolEntry[], prefs: Preferences | undefined, strict: boolean): GreenvnPoolEntry | undefined {
	if (!free.length) return undefined;
	const checks: Array<(e: GreenvnPoolEntry) => boolean> = [];
	if (prefs?.greenvn !== undefined) checks.push((e) => e.number === prefs.greenvn);
	if (prefs?.region !== undefined) checks.push((e) => e.region === prefs.region);
	if (prefs?.type !== undefined) checks.push((e) => e.type === prefs.type);
	let best: GreenvnPoolEntry | undefined;
	let bestScore = -1;
	for (const entry of free) {
		const score = checks.filter((check) => check(entry)).length;
		if (score > bestScore) {
			best = entry;
			bestScore = score;
		}
	}
	if (strict && bestScore < checks.length) return undefined;
	return best;
}

/** The body of an allocation: a JSON object with the mandatory parameters, the numbers unique across both parties. */
function partiesOf(ctx: RequestContext): { body: Record<string, unknown>; connectionId: string; aparty: string[]; bparty: string[] } {
	const parsed = readJson(ctx);
	if (!parsed.ok || !isPlainObject(parsed.value)) {
		throw new AllocationError(400, ALLOC_CODES.badParameters, 'The body must be a JSON object');
	}
	const body = parsed.value;
	const missing = ['connection_id', 'aparty_numbers', 'bparty_numbers', 'usage'].filter(
		(key) => body[key] === undefined || body[key] === null || body[key] === '',
	);
	if (missing.length) {
		throw new AllocationError(400, ALLOC_CODES.mandatoryMissing, `Mandatory parameter(s) missing: ${missing.join(', ')}`);
	}
	if (typeof body.connection_id !== 'string') {
		throw new AllocationError(400, ALLOC_CODES.badParameters, 'connection_id must be a string');
	}
	const aparty = numbers(body, 'aparty_numbers');
	const bparty = numbers(body, 'bparty_numbers');
	const all = [...aparty, ...bparty];
	if (new Set(all).size !== all.length) {
		throw new AllocationError(400, ALLOC_CODES.duplicateInRequest, 'A number appears more than once across aparty_numbers and bparty_numbers');
	}
	return { body, connectionId: body.connection_id, aparty, bparty };
}

/** The optional parameters: strictness, preferences, deallocation policy, flow id. */
function optionsOf(body: Record<string, unknown>): { strictness: boolean; prefs?: Preferences; deallocationPolicy?: { duration: string } } {
	if (body.strictness !== undefined && typeof body.strictness !== 'boolean') {
		throw new AllocationError(400, ALLOC_CODES.badParameters, 'strictness must be a boolean');
	}
	const strictness = (body.strictness as boolean | undefined) ?? false;
	const prefs = preferencesOf(body);
	let deallocationPolicy: { duration: string } | undefined;
	if (body.deallocation_policy !== undefined) {
		const policy = body.deallocation_policy;
		if (!isPlainObject(policy) || typeof policy.duration !== 'string' || !/^\d+[dms]$/.test(policy.duration)) {
			throw new AllocationError(400, ALLOC_CODES.badParameters, "deallocation_policy.duration must be a number with unit d, m or s (e.g. '3600s')");
		}
		deallocationPolicy = { duration: policy.duration };
	}
	if (body.flow_id !== undefined && typeof body.flow_id !== 'string' && typeof body.flow_id !== 'number') {
		throw new AllocationError(400, ALLOC_CODES.badParameters, 'flow_id must be a string');
	}
	return { strictness, prefs, deallocationPolicy };
}

/** Takes the free green VN for a new connection (409 when the connection has an active allocation already). */
function takeNumber(state: SandboxState, connectionId: string, prefs: Preferences | undefined, strictness: boolean): GreenvnPoolEntry {
	for (const record of state.allocations.values()) {
		if (record.allocation.state === 'active' && record.allocation.connection_id === connectionId) {
			throw new AllocationError(409, ALLOC_CODES.duplicateConnectionId, `Duplicate connection id: '${connectionId}' already has an active allocation`);
		}
	}
	const chosen = pickNumber(state.freeGreenvns, prefs, strictness);
	if (!chosen) {
		throw new AllocationError(
			400,
			ALLOC_CODES.noFreeNumber,
			state.freeGreenvns.length ? 'No free green VN matches the preferences (strictness is true); unable to allocate' : 'No free green VN; unable to allocate',
		);
	}
	state.freeGreenvns = state.freeGreenvns.filter((e) => e !== chosen);
	return chosen;
}

function allocate(ctx: RequestContext): Reply {
	const { body, connectionId, aparty, bparty } = partiesOf(ctx);
	const apartyPins = pins(body, 'aparty_pins');
	const bpartyPins = pins(body, 'bparty_pins');
	if (body.usage !== 'oneway' && body.usage !== 'twoway') {
		throw new AllocationError(400, ALLOC_CODES.badParameters, "usage must be 'oneway' or 'twoway'");
	}
	const usage = body.usage;
	const { strictness, prefs, deallocationPolicy } = optionsOf(body);
	const chosen = takeNumber(ctx.state, connectionId, prefs, strictness);
	const allocation: Allocation = {
		connection_id: connectionId,
		aparty_numbers: aparty,
		bparty_numbers: bparty,
		aparty_pins: apartyPins,
		bparty_pins: bpartyPins,
		usage,
		greenvn: chosen.number,
		greenvn_id: randomHex(24),
		state: 'active',
	};
	if (body.flow_id !== undefined) allocation.flow_id = String(body.flow_id);
	const record: AllocationRecord = {
		allocation,
		strictness,
		preferences: prefs as Record<string, unknown> | undefined,
		deallocationPolicy,
		createdAt: Date.now(),
	};
	ctx.state.allocations.set(allocation.greenvn_id, record);
	return success({ ...allocation });
}

function guarded(handler: (ctx: RequestContext) => Reply): Handler {
	const run = async (ctx: RequestContext) => handler(ctx);
	return (ctx) =>
		run(ctx).catch((error: unknown) => {
			if (error instanceof AllocationError) return allocError(ctx, error.status, error.code, error.message);
			throw error;
		});
}

function find(ctx: RequestContext): AllocationRecord {
	const record = ctx.state.allocations.get(ctx.params.greenvnId);
	// The spec's allocation statuses have no 404: an unknown id is a 400 with code 1.
	if (!record) throw new AllocationError(400, ALLOC_CODES.notFound, `GreenVN not found: no allocation with greenvn_id '${ctx.params.greenvnId}'`);
	return record;
}

export const allocationRoutes: RouteDefinition[] = [
	{ base: 'alloc', method: 'POST', path: '/v1/tenants/:sid/greenvn', auth: 'allocBasic', handler: guarded(allocate) },
	{
		base: 'alloc',
		method: 'GET',
		path: '/v1/tenants/:sid/greenvn/:greenvnId',
		auth: 'allocBasic',
		handler: guarded((ctx) => success({ ...find(ctx).allocation })),
	},
	{
		base: 'alloc',
		method: 'DELETE',
		path: '/v1/tenants/:sid/greenvn/:greenvnId',
		auth: 'allocBasic',
		handler: guarded((ctx) => {
			const record = find(ctx);
			if (record.allocation.state !== 'active') {
				throw new AllocationError(400, ALLOC_CODES.badParameters, `GreenVN ${record.allocation.greenvn_id} is already deallocated (state vault)`);
			}
			record.allocation.state = 'vault';
			record.deallocatedAt = Date.now();
			const entry = ctx.state.poolEntry(record.allocation.greenvn);
			if (entry) ctx.state.freeGreenvns.push(entry);
			return success({ ...record.allocation });
		}),
	},
];
