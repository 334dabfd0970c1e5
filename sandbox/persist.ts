/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads and writes the sandbox's state file (fs, path, process, setTimeout); never shipped */
/**
 * The sandbox's records on disk (`stateFile`; `npm run dev` keeps them in `.dev/sandbox-state.json`):
 * what it sent (SMS with their short links, RCS and chat-app messages), the chat-app webhook
 * configuration, the calls it placed and the campaigns created through the API, so that a person
 * can still answer a waiting execution after a restart (`npm run person`) and a campaign goes on.
 * Not kept: the request and callback logs, faults, rate-limit windows, seeded data (made again on
 * first use), and the callbacks that were still scheduled, except a placed call's status callbacks,
 * which StateFileKeeper schedules again from the call's times, and a campaign's, which its clock
 * makes again (handlers/campaigns.ts, scheduleCampaigns).
 */
import * as fs from 'fs';
import * as path from 'path';

import type { CallbackDispatcher } from './callbacks';
import { SANDBOX_CAMPAIGNS } from './fixtures';
import { callStatusReportsOf } from './handlers/callStatus';
import { scheduleCampaigns } from './handlers/campaigns';
import type { ShortLink } from './links';
import type { SandboxState } from './state';
import type { ChatAppWebhookConfig, StoredCall, StoredCampaign, StoredChatAppMessage, StoredRcsMessage, StoredSmsMessage } from './stored';

export const SAVED_STATE_VERSION = 1 as const;

export interface SavedState {
	version: typeof SAVED_STATE_VERSION;
	/** ms epoch of the save: a placed call's status callbacks timed after it had not been posted. */
	savedAt: number;
	/** The origin the records were made under (short links carry it). */
	origin: string;
	/** Real ms per simulated ms of that run (a call's times are in it). */
	timeScale: number;
	/** When the records begin (kept across restarts). */
	recordsSince: number;
	/** The next request id: a message's requestId orders the sends, so ids go on rising. */
	nextRequestId: number;
	smsMessages: StoredSmsMessage[];
	shortLinks: Array<ShortLink & { smsSid: string }>;
	rcsMessages: StoredRcsMessage[];
	chatAppMessages: StoredChatAppMessage[];
	chatAppWebhook: ChatAppWebhookConfig | null;
	/** Calls placed with Calls/connect (the seeded ones are made again). */
	calls: StoredCall[];
	/** Campaigns created through the API, as they stood (the seeded ones are made again). Absent in older files. */
	campaigns?: StoredCampaign[];
}

const SEEDED_CAMPAIGNS = new Set(SANDBOX_CAMPAIGNS.map((seed) => seed.id));

export function snapshotState(
	state: SandboxState,
	meta: Pick<SavedState, 'origin' | 'timeScale' | 'nextRequestId'>,
	now = Date.now(),
): SavedState {
	return structuredClone({
		version: SAVED_STATE_VERSION,
		savedAt: now,
		...meta,
		recordsSince: state.records.since,
		smsMessages: [...state.smsMessages.values()],
		shortLinks: [...state.shortLinks.values()],
		rcsMessages: [...state.rcsMessages.values()],
		chatAppMessages: [...state.chatAppMessages.values()],
		chatAppWebhook: state.chatAppWebhook,
		calls: [...state.calls.values()].filter((call) => call.connect),
		campaigns: [...state.campaigns.values()].filter((campaign) => !SEEDED_CAMPAIGNS.has(campaign.id)),
	});
}

/**
 * Puts saved records into a fresh state, in their order. Short links and delivered bodies made under
 * another origin (another port) are moved to `origin`, so the links a person opens reach this sandbox.
 */
export function restoreState(state: SandboxState, saved: SavedState, origin: string): void {
	const moved = (text: string) => (saved.origin && saved.origin !== origin ? text.split(`${saved.origin}/s/`).join(`${origin}/s/`) : text);
	for (const message of structuredClone(saved.smsMessages)) {
		if (message.deliveredBody !== undefined) message.deliveredBody = moved(message.deliveredBody);
		for (const link of message.shortLinks ?? []) link.shortUrl = moved(link.shortUrl);
		state.smsMessages.set(message.sid, message);
	}
	for (const link of structuredClone(saved.shortLinks)) state.shortLinks.set(link.code, { ...link, shortUrl: moved(link.shortUrl) });
	for (const message of structuredClone(saved.rcsMessages)) state.rcsMessages.set(message.sid, message);
	for (const message of structuredClone(saved.chatAppMessages)) state.chatAppMessages.set(message.sid, message);
	state.chatAppWebhook = saved.chatAppWebhook ? { ...saved.chatAppWebhook } : null;
	for (const call of structuredClone(saved.calls)) state.calls.set(call.sid, call);
	for (const campaign of structuredClone(saved.campaigns ?? [])) state.campaigns.set(campaign.id, campaign);
}

/** The saved records of `file`: none when it does not exist, else the records or why they cannot be used. */
export function readSavedState(file: string): { saved?: SavedState; problem?: string } {
	let text: string;
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
		return { problem: (error as Error).message };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { problem: `not JSON (${(error as Error).message})` };
	}
	const saved = value as Partial<SavedState> | null;
	if (!saved || typeof saved !== 'object' || saved.version !== SAVED_STATE_VERSION) {
		return { problem: `not version ${SAVED_STATE_VERSION} of the sandbox's saved records` };
	}
	const lists = ['smsMessages', 'shortLinks', 'rcsMessages', 'chatAppMessages', 'calls'] as const;
	const missing: string[] = lists.filter((key) => !Array.isArray(saved[key]));
	if (saved.campaigns !== undefined && !Array.isArray(saved.campaigns)) missing.push('campaigns');
	if (missing.length) return { problem: `${missing.join(', ')} missing` };
	return { saved: saved as SavedState };
}

/** Writes the records whole or not at all (a temporary file renamed over the old one). */
export function writeSavedState(file: string, saved: SavedState): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const temporary = `${file}.${process.pid}.tmp`;
	fs.writeFileSync(temporary, JSON.stringify(saved));
	fs.renameSync(temporary, file);
}

/** How soon after a change the records are written to the state file (changes come in bursts). */
const SAVE_DELAY_MS = 200;

/** The file as a person reads it: `.dev/sandbox-state.json` under the project, the full path elsewhere. */
function shownPath(file: string): string {
	const relative = path.relative(process.cwd(), file);
	return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** Why the records begin at this start when the file gave none; an unreadable file is moved aside. */
function startedEmpty(file: string, problem: string | undefined): string {
	const shown = shownPath(file);
	if (!problem) return `when it started with no saved records in ${shown}`;
	const aside = `${file}.unreadable-${Date.now()}`;
	try {
		fs.renameSync(file, aside);
	} catch {
		return `when it started: its saved records in ${shown} could not be read (${problem})`;
	}
	return `when it started: its saved records in ${shown} could not be read (${problem}) and were moved to ${path.basename(aside)}`;
}

/** What the keeper reads and restores: the state, the request ids, the time scale and the callbacks. */
export interface KeeperParts {
	state: SandboxState;
	/** The request ids: a restored file's go on from where they were. */
	ids: { nextId: number };
	timeScale: number;
	callbacks: CallbackDispatcher;
}

/** The state file of a running sandbox: read on start, written soon after each change, and on stop. */
export class StateFileKeeper {
	private timer?: NodeJS.Timeout;

	private origin?: string;

	constructor(
		private readonly file: string,
		private readonly parts: KeeperParts,
	) {}

	/**
	 * Reads the state file: its records come back (the short links moved to this origin, the request
	 * ids going on from where they were) and the status callbacks its placed calls had not posted are
	 * scheduled again; those that fell due while it was down go at once. A file that cannot be read is
	 * moved aside and the sandbox starts empty, saying why in its records.
	 */
	load(origin: string): void {
		this.origin = origin;
		const { state, ids, timeScale, callbacks } = this.parts;
		const { saved, problem } = readSavedState(this.file);
		if (!saved) {
			state.records = { since: Date.now(), why: startedEmpty(this.file, problem) };
			return;
		}
		restoreState(state, saved, origin);
		ids.nextId = Math.max(ids.nextId, saved.nextRequestId);
		state.records = { since: saved.recordsSince, why: `its records, kept in ${shownPath(this.file)} across restarts, begin then` };
		this.rescheduleCalls(saved, origin);
		// a restored campaign goes on: what fell due while the sandbox was down runs at once, in order
		scheduleCampaigns({ state, timeScale, callbacks });
	}

	/** Something the records hold may have changed: written soon, once for a burst of changes. */
	changed(): void {
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.save();
		}, SAVE_DELAY_MS);
		this.timer.unref();
	}

	/** Writes the records now, in place of a write still due (stop). */
	flush(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		this.save();
	}

	private save(): void {
		if (!this.origin) return;
		const { state, ids, timeScale } = this.parts;
		try {
			writeSavedState(this.file, snapshotState(state, { origin: this.origin, timeScale, nextRequestId: ids.nextId }));
		} catch (error) {
			// the sandbox goes on in memory; the next change tries again
			process.stderr.write(`Exotel sandbox: could not save its records to ${this.file}: ${(error as Error).message}\n`);
		}
	}

	/** A restored call's status callbacks timed after the save (not posted then), at their times or at once when overdue. */
	private rescheduleCalls(saved: SavedState, origin: string): void {
		const { state, timeScale, callbacks } = this.parts;
		const now = Date.now();
		for (const call of state.calls.values()) {
			if (!call.connect) continue;
			const connectedAt = call.endsAt - call.endedAfter * 1000 * saved.timeScale;
			let previous = -1;
			const pending = callStatusReportsOf(call, origin, () => state.live)
				.map((report) => ({ report, at: connectedAt + report.delayMs * saved.timeScale }))
				.filter(({ at }) => at > saved.savedAt)
				.map(({ report, at }) => {
					// distinct delays keep the order (answered before terminal) when both are overdue
					const delayMs = Math.max(previous + 1, timeScale > 0 ? Math.max(0, at - now) / timeScale : 0);
					previous = delayMs;
					return { ...report, delayMs };
				});
			if (pending.length) callbacks.callStatusScheduled(pending);
		}
	}
}
