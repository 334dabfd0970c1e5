/**
 * Outbound call campaigns (main base, `/v2/accounts/<sid>/campaigns`): create, list, get, update
 * (parameters before `send_at`, callbacks only after it), the actions pause / resume / complete /
 * archive per the spec's transitions table, per-campaign call records, delete.
 *
 * Time: a campaign is `Created` until its `send_at` (none: it starts right after creation), then
 * `InProgress`. It calls one recipient a minute (× timeScale; 0 = every call at once), counted on a
 * virtual clock from its start. Once every recipient was called it is `Completed`. State moves in
 * one place, `refreshCampaign`, which also posts the campaign callbacks of each step it takes; it
 * runs on every campaign request (a campaign nobody looked at catches up), and, for a campaign
 * with a callback URL, on its own timeline (`scheduleCampaign`: a dispatcher timer at the
 * campaign's next step), so the callbacks arrive without a request. Whichever comes first moves
 * the state; the other finds nothing due, so nothing is posted twice.
 *
 * The spec does not show the method and path of Get Campaign Details and Delete Campaign: the
 * sandbox serves them as GET and DELETE on `/v2/accounts/<sid>/campaigns/<campaign_id>`.
 */
import { isoWithOffset } from '../callbacks';
import {
	campaignCallOutcomeFor,
	SANDBOX_ACCOUNT,
	SANDBOX_CAMPAIGN_ACCOUNT_CALL_LIMIT,
	SANDBOX_CAMPAIGNS,
	type SandboxCampaignSeed,
} from '../fixtures';
import { fail, firstQueryValue, isPlainObject, randomHex, readJson } from '../http';
import type { SandboxState } from '../state';
import type { CallStatus, CampaignCallRecord, CampaignParams, CampaignRetries, CampaignStatus, StoredCampaign, StoredContact } from '../stored';
import type { Reply, RequestContext, RouteDefinition } from '../types';
import { prepareListState } from './listStore';
import { isReply, pageAnswer, pageQuery, sortBy, v2Answer } from './paging';

export type CampaignAction = 'pause' | 'resume' | 'complete' | 'archive';

/** The spec's limits, and the sandbox's pace. */
export const CAMPAIGN_LIMITS = {
	fromNumbers: 5000,
	listsStatic: 5,
	listsDynamic: 1,
	retriesMax: 3,
	nameMinLength: 3,
	listLimitDefault: 20,
	listLimitMax: 500,
	/** Not in the spec (it gives the default only): the campaign listing's maximum. */
	callDetailsLimitMax: 500,
} as const;

export const CAMPAIGN_TIMING = {
	/** One recipient called per minute of campaign time (× timeScale). */
	callIntervalMs: 60_000,
} as const;

/** Source statuses of each action (the spec's transitions table). */
export const CAMPAIGN_TRANSITIONS: Record<CampaignAction, readonly CampaignStatus[]> = {
	pause: ['Created', 'InProgress'],
	resume: ['Paused'],
	complete: ['Paused'],
	archive: ['Completed'],
};

const CALL_STATUSES: readonly CallStatus[] = ['completed', 'failed', 'busy', 'no-answer'];
const RETRY_STATUSES = ['busy', 'no-answer', 'failed'] as const;
const CALLBACK_FIELDS = ['status_callback', 'call_status_callback', 'call_schedule_callback'] as const;
const CAMPAIGN_SORTS = ['date_created:asc', 'date_created:desc', 'name:asc', 'name:desc'] as const;
const CALL_SORTS = ['date_created:asc', 'date_created:desc'] as const;
const STATUS_NAMES: readonly CampaignStatus[] = ['Created', 'InProgress', 'Paused', 'Completed', 'Archived'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const PHONE = /^\+?\d{6,15}$/;

// ---------------------------------------------------------------- helpers

/** `in-progress`, `InProgress`, `IN_PROGRESS` → `inprogress`. */
export const statusKey = (status: string) => status.toLowerCase().replace(/[^a-z]/g, '');

function dateOf(value: string | undefined): number | undefined {
	if (!value) return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

function sendAtOf(campaign: StoredCampaign): number | undefined {
	return dateOf(campaign.params.schedule?.send_at);
}

/** Whether `send_at` has passed (a campaign without one starts at once, so it has). */
export function sendTimePassed(campaign: StoredCampaign, now = Date.now()): boolean {
	const sendAt = sendAtOf(campaign);
	return sendAt === undefined || sendAt <= now;
}

function hashOf(text: string): number {
	let h = 0;
	for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
	return h;
}

/** What a campaign's clock reads and posts through: the state, the time scale, the dispatcher (absent outside a sandbox). */
export type CampaignClock = Pick<RequestContext, 'state' | 'timeScale' | 'callbacks'>;

/** Hooks of the callback dispatcher (callbacks/dispatcher.ts) for campaigns. */
interface CampaignHooks {
	/** Posts a campaign callback (JSON, kind custom) after the campaign's previous one: in order. */
	postCampaignCallback(campaignId: string, url: string, payload: Record<string, unknown>): void;
	/** Runs `step` at real ms epoch `at` (replacing the campaign's timer; null: cancels it). */
	campaignStep(campaignId: string, at: number | null, step: () => void): void;
}

const hooksOf = (clock: CampaignClock) => clock.callbacks as Partial<CampaignHooks> | undefined;

/** Posts a campaign callback through the sandbox's dispatcher (loopback URLs only; others are logged as skipped). */
function postCallback(clock: CampaignClock, campaign: StoredCampaign, url: string | undefined, payload: Record<string, unknown>): void {
	const hooks = hooksOf(clock);
	if (!url || !hooks?.postCampaignCallback) return;
	hooks.postCampaignCallback(campaign.id, url, payload);
}

// ---------------------------------------------------------------- validation

type Problem = { problem: string };

function isUrl(value: unknown): boolean {
	return typeof value === 'string' && /^https?:\/\/[^\s/]+\S*$/i.test(value);
}

function isInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value);
}

/** The numbers of a `from` string, as given (trimmed, empty entries dropped). */
export function fromNumbers(from: string): string[] {
	return from
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}

function isProblem(value: unknown): value is Problem {
	return isPlainObject(value) && typeof value.problem === 'string';
}

function fromProblem(from: unknown): string | undefined {
	if (typeof from !== 'string') return 'from must be a string of comma-separated phone numbers';
	const numbers = fromNumbers(from);
	if (numbers.length === 0) return 'from holds no phone numbers';
	if (numbers.length > CAMPAIGN_LIMITS.fromNumbers) return `from holds ${numbers.length} numbers; at most ${CAMPAIGN_LIMITS.fromNumbers} are allowed`;
	const bad = numbers.find((n) => !PHONE.test(n));
	return bad === undefined ? undefined : `from: '${bad}' is not a phone number (E.164 preferred, e.g. +919876543210)`;
}

function listsProblem(state: SandboxState, lists: unknown, campaignType: 'static' | 'dynamic'): string | undefined {
	if (!Array.isArray(lists) || lists.some((sid) => typeof sid !== 'string' || !sid)) return 'lists must be an array of list ids';
	if (lists.length === 0) return 'lists holds no list ids';
	const max = campaignType === 'dynamic' ? CAMPAIGN_LIMITS.listsDynamic : CAMPAIGN_LIMITS.listsStatic;
	if (lists.length > max) return `lists holds ${lists.length} list ids; a ${campaignType} campaign takes at most ${max}`;
	const missing = (lists as string[]).find((sid) => !state.lists.has(sid));
	return missing ? `lists: no list with id '${missing}'` : undefined;
}

/** Who is called: `from` numbers or `lists`, exactly one of them. */
function recipientsProblem(state: SandboxState, raw: Record<string, unknown>, campaignType: 'static' | 'dynamic'): string | undefined {
	const hasFrom = raw.from !== undefined && raw.from !== null;
	const hasLists = raw.lists !== undefined && raw.lists !== null;
	if (hasFrom && hasLists) return 'Give either from or lists, not both';
	if (!hasFrom && !hasLists) return 'from or lists is required';
	return hasFrom ? fromProblem(raw.from) : listsProblem(state, raw.lists, campaignType);
}

/** What the call plays: flow_type, url, read_via_text. */
function flowProblem(raw: Record<string, unknown>): string | undefined {
	if (raw.flow_type !== undefined && raw.flow_type !== 'ivr' && raw.flow_type !== 'greeting') {
		return `flow_type must be one of ivr, greeting (got '${String(raw.flow_type)}')`;
	}
	if (raw.url !== undefined && !isUrl(raw.url)) return `url must be an absolute http(s) URL (got '${String(raw.url)}')`;
	if (raw.read_via_text !== undefined && typeof raw.read_via_text !== 'string') return 'read_via_text must be a string';
	return undefined;
}

/** The name given (trimmed), or one made of the time when none is. */
function nameOf(name: unknown, now: number): string | Problem {
	if (name === undefined || name === null) return `Campaign ${new Date(now).toISOString().slice(0, 19).replace('T', ' ')}`;
	if (typeof name !== 'string') return { problem: 'name must be a string' };
	const length = name.trim().length;
	if (length < CAMPAIGN_LIMITS.nameMinLength) return { problem: `name is ${length} characters long; at least ${CAMPAIGN_LIMITS.nameMinLength} are required` };
	return name.trim();
}

function retriesOf(r: unknown): CampaignRetries | Problem {
	if (!isPlainObject(r)) return { problem: 'retries must be an object' };
	if (!isInteger(r.number_of_retries) || r.number_of_retries < 0 || r.number_of_retries > CAMPAIGN_LIMITS.retriesMax) {
		return { problem: `retries.number_of_retries must be an integer from 0 to ${CAMPAIGN_LIMITS.retriesMax} (got ${JSON.stringify(r.number_of_retries)})` };
	}
	if (r.interval_mins !== undefined && (!isInteger(r.interval_mins) || r.interval_mins < 1)) {
		return { problem: `retries.interval_mins must be a positive integer (got ${JSON.stringify(r.interval_mins)})` };
	}
	if (r.mechanism !== undefined && r.mechanism !== 'Linear' && r.mechanism !== 'Exponential') {
		return { problem: `retries.mechanism must be one of Linear, Exponential (got '${String(r.mechanism)}')` };
	}
	if (r.on_status !== undefined && (!Array.isArray(r.on_status) || r.on_status.some((s) => !(RETRY_STATUSES as readonly unknown[]).includes(s)))) {
		return { problem: `retries.on_status must be an array of ${RETRY_STATUSES.join(', ')}` };
	}
	return {
		number_of_retries: r.number_of_retries,
		...(r.interval_mins !== undefined ? { interval_mins: r.interval_mins as number } : {}),
		...(r.mechanism !== undefined ? { mechanism: r.mechanism as 'Linear' | 'Exponential' } : {}),
		...(r.on_status !== undefined ? { on_status: r.on_status as string[] } : {}),
	};
}

function scheduleOf(s: unknown, now: number): NonNullable<CampaignParams['schedule']> | Problem {
	if (!isPlainObject(s)) return { problem: 'schedule must be an object {send_at, end_at}' };
	for (const key of ['send_at', 'end_at'] as const) {
		if (s[key] !== undefined && (typeof s[key] !== 'string' || !RFC3339.test(s[key] as string) || dateOf(s[key] as string) === undefined)) {
			return { problem: `schedule.${key} must be an RFC 3339 date-time such as 2026-03-01T10:00:00+05:30 (got '${String(s[key])}')` };
		}
	}
	const sendAt = dateOf(s.send_at as string | undefined);
	const endAt = dateOf(s.end_at as string | undefined);
	if (endAt !== undefined && endAt <= (sendAt ?? now)) return { problem: `schedule.end_at must be after ${sendAt !== undefined ? 'send_at' : 'now'}` };
	return {
		...(s.send_at !== undefined ? { send_at: s.send_at as string } : {}),
		...(s.end_at !== undefined ? { end_at: s.end_at as string } : {}),
	};
}

/** How it calls and reports: the callback URLs, mode and throttle, custom_field, repeat_menu_attempts. */
function callingOf(raw: Record<string, unknown>): { mode: 'auto' | 'custom'; repeat: number } | Problem {
	for (const key of CALLBACK_FIELDS) {
		if (raw[key] !== undefined && raw[key] !== null && !isUrl(raw[key])) return { problem: `${key} must be an absolute http(s) URL (got '${String(raw[key])}')` };
	}
	const mode = raw.mode ?? 'auto';
	if (mode !== 'auto' && mode !== 'custom') return { problem: `mode must be one of auto, custom (got '${String(mode)}')` };
	const throttleMax = SANDBOX_CAMPAIGN_ACCOUNT_CALL_LIMIT - 1;
	if (raw.throttle !== undefined && raw.throttle !== null) {
		if (mode !== 'custom') return { problem: 'throttle is only allowed with mode custom' };
		if (!isInteger(raw.throttle) || raw.throttle < 1 || raw.throttle > throttleMax) {
			return {
				problem: `throttle must be an integer from 1 to ${throttleMax} (the account limit of ${SANDBOX_CAMPAIGN_ACCOUNT_CALL_LIMIT} calls a minute minus 1) (got ${JSON.stringify(raw.throttle)})`,
			};
		}
	} else if (mode === 'custom') {
		return { problem: 'mode custom needs throttle (calls per minute)' };
	}
	if (raw.custom_field !== undefined && raw.custom_field !== null && typeof raw.custom_field !== 'string') return { problem: 'custom_field must be a string' };
	const repeat = raw.repeat_menu_attempts ?? 0;
	if (!isInteger(repeat) || repeat < 0) return { problem: `repeat_menu_attempts must be a non-negative integer (got ${JSON.stringify(repeat)})` };
	return { mode, repeat };
}

type CheckedParams = Pick<CampaignParams, 'name' | 'campaign_type' | 'call_duplicate_numbers' | 'mode' | 'repeat_menu_attempts' | 'retries' | 'schedule'>;

/** The checked parameters in the order they are kept and answered, the optional ones only when given. */
function paramsOf(raw: Record<string, unknown>, checked: CheckedParams): CampaignParams {
	const { retries, schedule } = checked;
	const params: CampaignParams = {
		name: checked.name,
		type: 'trans',
		caller_id: (raw.caller_id as string).trim(),
		campaign_type: checked.campaign_type,
		call_duplicate_numbers: checked.call_duplicate_numbers,
		mode: checked.mode,
		repeat_menu_attempts: checked.repeat_menu_attempts,
	};
	if (raw.from !== undefined && raw.from !== null) params.from = raw.from as string;
	if (raw.lists !== undefined && raw.lists !== null) params.lists = [...(raw.lists as string[])];
	if (raw.flow_type !== undefined) params.flow_type = raw.flow_type as 'ivr' | 'greeting';
	if (raw.url !== undefined) params.url = raw.url as string;
	if (raw.read_via_text !== undefined) params.read_via_text = raw.read_via_text as string;
	if (retries) params.retries = retries;
	if (schedule) params.schedule = schedule;
	for (const key of CALLBACK_FIELDS) if (typeof raw[key] === 'string') params[key] = raw[key] as string;
	if (raw.throttle !== undefined && raw.throttle !== null) params.throttle = raw.throttle as number;
	if (typeof raw.custom_field === 'string') params.custom_field = raw.custom_field;
	return params;
}

/**
 * Checks a complete parameter set (a create body, or a campaign with an update merged in) against
 * the spec's rules; the first problem wins. Unknown fields are ignored.
 */
export function checkCampaign(state: SandboxState, raw: Record<string, unknown>, now = Date.now()): CampaignParams | Problem {
	const problem = (text: string | undefined): Problem | undefined => (text === undefined ? undefined : { problem: text });
	if (typeof raw.caller_id !== 'string' || !raw.caller_id.trim()) return { problem: 'caller_id is required' };
	const campaignType = raw.campaign_type ?? 'static';
	if (campaignType !== 'static' && campaignType !== 'dynamic') return { problem: `campaign_type must be one of static, dynamic (got '${String(campaignType)}')` };
	const early = problem(recipientsProblem(state, raw, campaignType) ?? flowProblem(raw));
	if (early) return early;
	const name = nameOf(raw.name, now);
	if (isProblem(name)) return name;
	const type = raw.type ?? 'trans';
	if (type !== 'trans') return { problem: `type must be trans (got '${String(type)}')` };
	const duplicates = raw.call_duplicate_numbers ?? false;
	if (typeof duplicates !== 'boolean') return { problem: 'call_duplicate_numbers must be a boolean' };
	const retries = raw.retries === undefined || raw.retries === null ? undefined : retriesOf(raw.retries);
	if (isProblem(retries)) return retries;
	const schedule = raw.schedule === undefined || raw.schedule === null ? undefined : scheduleOf(raw.schedule, now);
	if (isProblem(schedule)) return schedule;
	const calling = callingOf(raw);
	if (isProblem(calling)) return calling;
	const { mode, repeat } = calling;
	return paramsOf(raw, { name, campaign_type: campaignType, call_duplicate_numbers: duplicates, mode, repeat_menu_attempts: repeat, retries, schedule });
}

/** Who a campaign calls: `from` numbers, or the contacts of its lists; duplicates once unless allowed. */
function recipientsOf(state: SandboxState, params: CampaignParams): StoredCampaign['recipients'] {
	const all: StoredCampaign['recipients'] = [];
	if (params.from !== undefined) {
		for (const number of fromNumbers(params.from)) all.push({ number, name: null });
	} else {
		for (const sid of params.lists ?? []) {
			for (const contactSid of state.lists.get(sid)?.contactSids ?? []) {
				const contact = state.contacts.get(contactSid) as StoredContact | undefined;
				if (!contact) continue;
				const name = [contact.fields.first_name, contact.fields.last_name].filter(Boolean).join(' ') || null;
				all.push({ number: contact.fields.phone_number, name });
			}
		}
	}
	if (params.call_duplicate_numbers) return all;
	const seen = new Set<string>();
	return all.filter(({ number }) => !seen.has(number) && (seen.add(number), true));
}

// ---------------------------------------------------------------- the clock

function interval(clock: { timeScale: number }): number {
	return CAMPAIGN_TIMING.callIntervalMs * clock.timeScale;
}

/** Calls one recipient at virtual time `at`: the attempt and its retries, with their callbacks. */
function placeCall(ctx: CampaignClock, campaign: StoredCampaign, at: number): void {
	const recipient = campaign.recipients[campaign.placed];
	campaign.placed++;
	const outcome = campaignCallOutcomeFor(recipient.number);
	const retries = campaign.params.retries;
	const retryOn = retries?.on_status ?? [...RETRY_STATUSES];
	const attempts = 1 + (outcome !== 'completed' && retries && retryOn.includes(outcome) ? retries.number_of_retries : 0);
	const hash = hashOf(recipient.number);
	const callSids: string[] = [];
	let time = at;
	for (let attempt = 0; attempt < attempts; attempt++) {
		if (attempt > 0) {
			const minutes = retries?.interval_mins ?? 5;
			const factor = retries?.mechanism === 'Exponential' ? 2 ** (attempt - 1) : 1;
			time += minutes * 60_000 * factor;
		}
		const answered = outcome === 'completed';
		const duration = answered ? 15 + (hash % 90) : 0;
		const ringing = 5_000 + (hash % 10) * 1000;
		const callSid = randomHex(32);
		callSids.push(callSid);
		const record: CampaignCallRecord = {
			number: recipient.number,
			name: recipient.name,
			duration,
			date_created: isoWithOffset(new Date(time)),
			status: outcome,
			digit: answered && campaign.params.flow_type === 'ivr' ? String(1 + (hash % 3)) : null,
			recording_url: answered ? `https://recordings.sandbox.invalid/${SANDBOX_ACCOUNT.accountSid}/${callSid}.mp3` : null,
			start_time: isoWithOffset(new Date(time + 1000)),
			end_time: isoWithOffset(new Date(time + 1000 + ringing + duration * 1000)),
			caller_id: campaign.params.caller_id,
			direction: 'Outgoing',
			call_sid: callSid,
			at: time,
		};
		campaign.calls.push(record);
		postCallback(ctx, campaign, campaign.params.call_status_callback, {
			campaign_sid: campaign.id,
			call_sid: callSid,
			number: recipient.number,
			status: outcome,
			date_created: record.date_created,
			date_updated: record.end_time,
		});
	}
	if (outcome === 'completed') campaign.answered++;
	else campaign.unanswered++;
	postCallback(ctx, campaign, campaign.params.call_schedule_callback, {
		campaign_sid: campaign.id,
		number: recipient.number,
		status: outcome,
		attempts,
		call_sids: callSids,
		date_updated: isoWithOffset(new Date(time)),
	});
}

function finish(ctx: CampaignClock, campaign: StoredCampaign, at: number): void {
	campaign.cancelled += campaign.recipients.length - campaign.placed - campaign.cancelled;
	campaign.status = 'Completed';
	campaign.nextCallAt = null;
	campaign.dateUpdated = isoWithOffset(new Date(Math.min(at, Date.now())));
	postCallback(ctx, campaign, campaign.params.status_callback, {
		campaign_sid: campaign.id,
		name: campaign.params.name,
		status: 'Completed',
		from: campaign.params.caller_id,
		to: campaign.recipients.map((r) => r.number).join(','),
		call_sids: campaign.calls.map((call) => call.call_sid),
		stats: statsOf(campaign),
		date_updated: campaign.dateUpdated,
	});
}

/** Moves a campaign to where its clock says it is: start at send_at, calls due, completion, end_at. */
export function refreshCampaign(ctx: CampaignClock, campaign: StoredCampaign, now = Date.now()): void {
	if (campaign.status === 'Created') {
		const start = sendAtOf(campaign) ?? campaign.createdMs;
		if (start > now) return;
		campaign.status = 'InProgress';
		campaign.nextCallAt = start + interval(ctx);
		campaign.dateUpdated = isoWithOffset(new Date(start));
	}
	const endAt = dateOf(campaign.params.schedule?.end_at);
	if (campaign.status === 'InProgress') {
		const until = Math.min(now, endAt ?? Infinity);
		while (campaign.placed + campaign.cancelled < campaign.recipients.length && (campaign.nextCallAt ?? Infinity) <= until) {
			placeCall(ctx, campaign, campaign.nextCallAt as number);
			campaign.nextCallAt = (campaign.nextCallAt as number) + interval(ctx);
		}
		if (campaign.placed + campaign.cancelled >= campaign.recipients.length) {
			finish(ctx, campaign, campaign.calls.at(-1)?.at ?? now);
			return;
		}
	}
	if ((campaign.status === 'InProgress' || campaign.status === 'Paused') && endAt !== undefined && endAt <= now) {
		finish(ctx, campaign, endAt);
	}
}

function refreshAll(ctx: RequestContext): void {
	ensureCampaignsSeeded(ctx);
	const now = Date.now();
	for (const campaign of ctx.state.campaigns.values()) refreshCampaign(ctx, campaign, now);
}

// ---------------------------------------------------------------- the timeline

function hasCallbacks(campaign: StoredCampaign): boolean {
	return CALLBACK_FIELDS.some((key) => campaign.params[key] !== undefined);
}

/**
 * Real ms epoch of the campaign's next step (what refreshCampaign would do first): its start
 * while Created, its next call (or end_at, if sooner) while InProgress, end_at while Paused.
 * Null when nothing is ahead, or when the campaign has no callback URL: its state is then only
 * read, and a request computes it the same.
 */
export function nextCampaignStepAt(campaign: StoredCampaign): number | null {
	if (!hasCallbacks(campaign)) return null;
	const endAt = dateOf(campaign.params.schedule?.end_at);
	switch (campaign.status) {
		case 'Created':
			return sendAtOf(campaign) ?? campaign.createdMs;
		case 'InProgress': {
			const at = Math.min(campaign.nextCallAt ?? Infinity, endAt ?? Infinity);
			return Number.isFinite(at) ? at : null;
		}
		case 'Paused':
			return endAt ?? null;
		default:
			return null;
	}
}

/**
 * Puts the campaign's next step on the dispatcher's timeline (or takes it off): when it comes, the
 * campaign is refreshed (its callbacks posted) and the step after is scheduled. Called after
 * every change of a campaign's status, schedule or callbacks, and for each restored campaign.
 */
export function scheduleCampaign(clock: CampaignClock, campaign: StoredCampaign): void {
	const hooks = hooksOf(clock);
	if (!hooks?.campaignStep) return;
	hooks.campaignStep(campaign.id, nextCampaignStepAt(campaign), () => {
		// deleted, or the state was reset: nothing of it moves any more
		if (clock.state.campaigns.get(campaign.id) !== campaign) return;
		refreshCampaign(clock, campaign, Date.now());
		scheduleCampaign(clock, campaign);
	});
}

/** Takes the campaign off the timeline (deleted). */
function unscheduleCampaign(clock: CampaignClock, campaign: StoredCampaign): void {
	hooksOf(clock)?.campaignStep?.(campaign.id, null, () => undefined);
}

/** Schedules every campaign of the state (after a restore from the state file: overdue steps run at once). */
export function scheduleCampaigns(clock: CampaignClock): void {
	for (const campaign of clock.state.campaigns.values()) scheduleCampaign(clock, campaign);
}

// ---------------------------------------------------------------- seeding and views

function newCampaign(state: SandboxState, id: string, params: CampaignParams, createdMs: number): StoredCampaign {
	const date = isoWithOffset(new Date(createdMs));
	return {
		id,
		params,
		status: 'Created',
		createdMs,
		dateCreated: date,
		dateUpdated: date,
		recipients: recipientsOf(state, params),
		placed: 0,
		answered: 0,
		unanswered: 0,
		cancelled: 0,
		calls: [],
		nextCallAt: null,
	};
}

function seedCampaign(ctx: RequestContext, seed: SandboxCampaignSeed, now: number): StoredCampaign {
	const createdMs = now - seed.ageDays * 86_400_000;
	const params: CampaignParams = {
		name: seed.name,
		type: 'trans',
		caller_id: '+918047112233',
		campaign_type: 'static',
		from: seed.numbers.join(','),
		flow_type: 'ivr',
		url: `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`,
		call_duplicate_numbers: false,
		mode: 'auto',
		repeat_menu_attempts: 0,
	};
	if (seed.sendAtInMs !== undefined) params.schedule = { send_at: isoWithOffset(new Date(now + seed.sendAtInMs)) };
	const campaign = newCampaign(ctx.state, seed.id, params, createdMs);
	// The calls already made, a minute apart from the creation (callbacks are not posted for these).
	const quiet = { ...ctx, callbacks: undefined } as RequestContext;
	for (let i = 0; i < seed.placed; i++) placeCall(quiet, campaign, createdMs + (i + 1) * 60_000);
	campaign.status = seed.status;
	if (seed.status === 'InProgress') campaign.nextCallAt = now + interval(ctx);
	if (seed.status === 'Completed' || seed.status === 'Archived') campaign.cancelled = campaign.recipients.length - campaign.placed;
	if (seed.status !== 'Created') campaign.dateUpdated = isoWithOffset(new Date(createdMs + (seed.placed + 1) * 60_000));
	return campaign;
}

/** Seeds one campaign per status (fixtures) once per reset. */
export function ensureCampaignsSeeded(ctx: RequestContext): void {
	prepareListState(ctx.state);
	if (ctx.state.campaignsSeeded) return;
	ctx.state.campaignsSeeded = true;
	const now = Date.now();
	for (const seed of SANDBOX_CAMPAIGNS) ctx.state.campaigns.set(seed.id, seedCampaign(ctx, seed, now));
}

function statsOf(campaign: StoredCampaign) {
	return {
		created: campaign.recipients.length,
		completed: campaign.answered,
		failed: campaign.unanswered + campaign.cancelled,
		pending: campaign.recipients.length - campaign.placed - campaign.cancelled,
	};
}

export function campaignView(campaign: StoredCampaign, accountSid: string): Record<string, unknown> {
	const p = campaign.params;
	const view: Record<string, unknown> = {
		id: campaign.id,
		account_sid: accountSid,
		name: p.name,
		type: p.type,
		caller_id: p.caller_id,
		campaign_type: p.campaign_type,
	};
	if (p.from !== undefined) view.from = p.from;
	if (p.lists !== undefined) view.lists = [...p.lists];
	if (p.flow_type !== undefined) view.flow_type = p.flow_type;
	if (p.url !== undefined) view.url = p.url;
	if (p.read_via_text !== undefined) view.read_via_text = p.read_via_text;
	view.retries = p.retries ?? null;
	view.schedule = p.schedule ?? null;
	view.status = campaign.status;
	view.call_duplicate_numbers = p.call_duplicate_numbers;
	for (const key of CALLBACK_FIELDS) if (p[key] !== undefined) view[key] = p[key];
	view.mode = p.mode;
	if (p.throttle !== undefined) view.throttle = p.throttle;
	if (p.custom_field !== undefined) view.custom_field = p.custom_field;
	view.repeat_menu_attempts = p.repeat_menu_attempts;
	view.date_created = campaign.dateCreated;
	view.date_updated = campaign.dateUpdated;
	view.stats = statsOf(campaign);
	view.uri = `/v2/accounts/${accountSid}/campaigns/${campaign.id}`;
	return view;
}

/** The fields of `record` but `key`, in their order. */
function without(record: object, key: string): Record<string, unknown> {
	return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
}

function callView(call: CampaignCallRecord): Record<string, unknown> {
	return without(call, 'at');
}

/** Brings every campaign up to now (refreshAll), then the campaign of the path, or a 404. */
function campaignOr404(ctx: RequestContext): StoredCampaign | Reply {
	refreshAll(ctx);
	return ctx.state.campaigns.get(ctx.params.campaignId) ?? fail(ctx, 404, `No campaign with id '${ctx.params.campaignId}'`);
}

function oneCampaign(ctx: RequestContext, campaign: StoredCampaign): Reply {
	return v2Answer(ctx, 200, { code: 200, status: 'success', data: campaignView(campaign, ctx.params.sid) });
}

function bodyObject(ctx: RequestContext): { body: Record<string, unknown> } | { reply: Reply } {
	const body = readJson(ctx);
	if (!body.ok || !isPlainObject(body.value)) return { reply: fail(ctx, 400, 'The body must be a JSON object') };
	return { body: body.value };
}

// ---------------------------------------------------------------- actions and updates

function applyAction(ctx: RequestContext, campaign: StoredCampaign, action: CampaignAction, now: number): Reply | undefined {
	const allowed = CAMPAIGN_TRANSITIONS[action];
	if (!allowed.includes(campaign.status)) {
		return fail(
			ctx,
			400,
			`Cannot ${action} campaign '${campaign.id}': its status is ${campaign.status}; ${action} is allowed only from ${allowed.join(' or ')}`,
		);
	}
	const stamp = isoWithOffset(new Date(now));
	switch (action) {
		case 'pause':
			campaign.status = 'Paused';
			campaign.nextCallAt = null;
			break;
		case 'resume':
			// Not shown in the spec: back to InProgress, or Created while send_at is still ahead.
			if (sendTimePassed(campaign, now)) {
				campaign.status = 'InProgress';
				campaign.nextCallAt = now + interval(ctx);
			} else {
				campaign.status = 'Created';
			}
			break;
		case 'complete':
			// "Remaining calls are marked failed".
			finish(ctx, campaign, now);
			break;
		case 'archive':
			// Not shown in the spec: Archived, a final status.
			campaign.status = 'Archived';
			break;
	}
	campaign.dateUpdated = stamp;
	return undefined;
}

function applyUpdate(ctx: RequestContext, campaign: StoredCampaign, body: Record<string, unknown>, now: number): Reply | undefined {
	const keys = Object.keys(body);
	if (keys.length === 0) return fail(ctx, 400, 'Nothing to update: give action or campaign parameters');
	const locked = keys.filter((key) => !(CALLBACK_FIELDS as readonly string[]).includes(key));
	if (locked.length > 0 && sendTimePassed(campaign, now)) {
		const sendAt = campaign.params.schedule?.send_at;
		return fail(
			ctx,
			400,
			`Campaign '${campaign.id}' is past its send_at (${sendAt ?? 'none: it started when created'}); only ${CALLBACK_FIELDS.join(', ')} can be updated (refused: ${locked.join(', ')})`,
		);
	}
	if ('from' in body && 'lists' in body) return fail(ctx, 400, 'Give either from or lists, not both');
	const merged: Record<string, unknown> = { ...campaign.params, ...body };
	if ('from' in body) delete merged.lists;
	if ('lists' in body) delete merged.from;
	if ('mode' in body && body.mode === 'auto' && !('throttle' in body)) delete merged.throttle;
	const checked = checkCampaign(ctx.state, merged, now);
	if ('problem' in checked) return fail(ctx, 400, checked.problem);
	const recipientsChanged = ['from', 'lists', 'call_duplicate_numbers'].some((key) => key in body);
	campaign.params = checked;
	if (recipientsChanged) campaign.recipients = recipientsOf(ctx.state, checked);
	campaign.dateUpdated = isoWithOffset(new Date(now));
	return undefined;
}

// ---------------------------------------------------------------- routes

const CAMPAIGNS = '/v2/accounts/:sid/campaigns';

export const campaignRoutes: RouteDefinition[] = [
	{
		base: 'base',
		method: 'POST',
		path: CAMPAIGNS,
		auth: 'basic',
		handler: (ctx) => {
			refreshAll(ctx);
			const read = bodyObject(ctx);
			if ('reply' in read) return read.reply;
			const { body } = read;
			const now = Date.now();
			const checked = checkCampaign(ctx.state, body, now);
			if ('problem' in checked) return fail(ctx, 400, checked.problem);
			const campaign = newCampaign(ctx.state, randomHex(32), checked, now);
			ctx.state.campaigns.set(campaign.id, campaign);
			scheduleCampaign(ctx, campaign);
			return v2Answer(ctx, 200, [{ code: 200, status: 'success', data: campaignView(campaign, ctx.params.sid) }]);
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: CAMPAIGNS,
		auth: 'basic',
		handler: (ctx) => {
			refreshAll(ctx);
			const page = pageQuery(ctx, { defaultLimit: CAMPAIGN_LIMITS.listLimitDefault, maxLimit: CAMPAIGN_LIMITS.listLimitMax });
			if (isReply(page)) return page;
			const query = (name: string) => firstQueryValue(ctx.request.query[name]);
			const sort = query('sort_by') ?? 'date_created:desc';
			if (!(CAMPAIGN_SORTS as readonly string[]).includes(sort)) {
				return fail(ctx, 400, `sort_by must be one of ${CAMPAIGN_SORTS.join(', ')} (got '${sort}')`);
			}
			const statuses = (query('status') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
			const known = STATUS_NAMES.map(statusKey);
			const unknown = statuses.find((s) => !known.includes(statusKey(s)));
			if (unknown) return fail(ctx, 400, `status must be comma-separated values of ${STATUS_NAMES.join(', ')} (got '${unknown}')`);
			const wanted = new Set(statuses.map(statusKey));
			const search = (query('name') ?? '').trim().toLowerCase();
			const type = (query('type') ?? '').trim().toLowerCase();
			const campaigns = [...ctx.state.campaigns.values()].filter(
				(c) =>
					(!search || c.params.name.toLowerCase().includes(search)) &&
					(wanted.size === 0 || wanted.has(statusKey(c.status))) &&
					(!type || c.params.campaign_type === type || c.params.type === type),
			);
			const sorted = sortBy(campaigns, sort, {
				date: (c) => String(c.createdMs).padStart(15, '0'),
				name: (c) => c.params.name,
			});
			return pageAnswer(ctx, sorted.map((c) => campaignView(c, ctx.params.sid)), page);
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: `${CAMPAIGNS}/:campaignId`,
		auth: 'basic',
		handler: (ctx) => {
			const campaign = campaignOr404(ctx);
			if (isReply(campaign)) return campaign;
			return oneCampaign(ctx, campaign);
		},
	},
	{
		base: 'base',
		method: 'PUT',
		path: `${CAMPAIGNS}/:campaignId`,
		auth: 'basic',
		handler: (ctx) => {
			const campaign = campaignOr404(ctx);
			if (isReply(campaign)) return campaign;
			const read = bodyObject(ctx);
			if ('reply' in read) return read.reply;
			const { body } = read;
			const now = Date.now();
			if (body.action !== undefined) {
				const action = body.action as CampaignAction;
				if (!(Object.keys(CAMPAIGN_TRANSITIONS) as string[]).includes(action as string)) {
					return fail(ctx, 400, `action must be one of ${Object.keys(CAMPAIGN_TRANSITIONS).join(', ')} (got '${String(body.action)}')`);
				}
				const rest = without(body, 'action');
				const others = Object.keys(rest).filter((key) => !(CALLBACK_FIELDS as readonly string[]).includes(key));
				if (others.length) {
					return fail(ctx, 400, `action can be sent alone or with ${CALLBACK_FIELDS.join(', ')} only (got also: ${others.join(', ')})`);
				}
				const refused = applyAction(ctx, campaign, action, now);
				if (refused) return refused;
				// pause stops the timeline (but for end_at), resume goes on, complete and archive end it
				const problem = Object.keys(rest).length ? applyUpdate(ctx, campaign, rest, now) : undefined;
				scheduleCampaign(ctx, campaign);
				return problem ?? oneCampaign(ctx, campaign);
			}
			const problem = applyUpdate(ctx, campaign, body, now);
			if (problem) return problem;
			refreshCampaign(ctx, campaign, now);
			// new callbacks, send_at or recipients: the timeline from here
			scheduleCampaign(ctx, campaign);
			return oneCampaign(ctx, campaign);
		},
	},
	{
		base: 'base',
		method: 'DELETE',
		path: `${CAMPAIGNS}/:campaignId`,
		auth: 'basic',
		handler: (ctx) => {
			const campaign = campaignOr404(ctx);
			if (isReply(campaign)) return campaign;
			ctx.state.campaigns.delete(campaign.id);
			unscheduleCampaign(ctx, campaign);
			return v2Answer(ctx, 200, { code: 200, status: 'success', data: { id: campaign.id, deleted: true } });
		},
	},
	{
		base: 'base',
		method: 'GET',
		path: `${CAMPAIGNS}/:campaignId/call-details`,
		auth: 'basic',
		handler: (ctx) => {
			const campaign = campaignOr404(ctx);
			if (isReply(campaign)) return campaign;
			const page = pageQuery(ctx, { defaultLimit: CAMPAIGN_LIMITS.listLimitDefault, maxLimit: CAMPAIGN_LIMITS.callDetailsLimitMax });
			if (isReply(page)) return page;
			const status = firstQueryValue(ctx.request.query.status);
			if (status !== undefined && !(CALL_STATUSES as readonly string[]).includes(status)) {
				return fail(ctx, 400, `status must be one of ${CALL_STATUSES.join(', ')} (got '${status}')`);
			}
			const sort = firstQueryValue(ctx.request.query.sort_by) ?? 'date_created:desc';
			if (!(CALL_SORTS as readonly string[]).includes(sort)) {
				return fail(ctx, 400, `sort_by must be one of ${CALL_SORTS.join(', ')} (got '${sort}')`);
			}
			const calls = campaign.calls.filter((call) => status === undefined || call.status === status);
			const sorted = sortBy(calls, sort, { date: (c) => String(c.at).padStart(15, '0'), name: (c) => c.number });
			return pageAnswer(ctx, sorted.map(callView), page);
		},
	},
];
