/**
 * A campaign's own timeline (handlers/campaigns.ts decides what each step does): its next step on a
 * timer, and its callbacks posted in the order it made them, each once the previous one's first
 * attempt has finished. Cancelled with the rest of the dispatcher's work.
 */
import { jsonPost } from './payload';
import type { CallbackWork, Deliver } from './types';

/** The longest delay setTimeout keeps (a longer one fires at once): a step further ahead is re-armed then. */
const MAX_TIMER_MS = 2_147_483_647;

export interface CampaignQueueParts {
	work: CallbackWork;
	deliver: Deliver;
	/** Called after a step ran on its own (the state moved). */
	stateChanged: () => void;
	/** Says that a step failed (the campaign stays where it was). */
	warn: (text: string) => void;
}

export class CampaignQueue {
	/** Each campaign's next step, by campaign id. */
	private readonly steps = new Map<string, NodeJS.Timeout>();

	/** Each campaign's latest callback: the next one is posted once that one's first attempt has finished. */
	private readonly queues = new Map<string, Promise<void>>();

	/** Campaign callbacks waiting behind an earlier one of their campaign (counted as pending). */
	private queued = 0;

	constructor(private readonly parts: CampaignQueueParts) {}

	get pending(): number {
		return this.queued;
	}

	/** `step` runs at real ms epoch `at` (at once when past), replacing the campaign's step; null only cancels it. */
	step(campaignId: string, at: number | null, step: () => void): void {
		const { work } = this.parts;
		const previous = this.steps.get(campaignId);
		if (previous) {
			work.cancel(previous);
			this.steps.delete(campaignId);
		}
		if (at === null) return;
		const generation = work.generation;
		const timer = work.after(Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())), () => {
			if (this.steps.get(campaignId) === timer) this.steps.delete(campaignId);
			if (generation !== work.generation) return;
			try {
				step();
			} catch (error) {
				this.parts.warn(`Exotel sandbox: campaign ${campaignId} could not move on: ${(error as Error)?.message ?? String(error)}\n`);
			}
			this.parts.stateChanged();
		});
		this.steps.set(campaignId, timer);
	}

	/** A campaign callback (JSON, unsigned, kind custom), posted after the campaign's previous one. */
	post(campaignId: string, url: string, payload: Record<string, unknown>): void {
		const request = jsonPost(url, 'custom', payload, false);
		const generation = this.parts.work.generation;
		this.queued++;
		const previous = this.queues.get(campaignId) ?? Promise.resolve();
		const posted = previous
			.then(async () => {
				// cancelled: clear() has set the count to 0 already
				if (generation !== this.parts.work.generation) return;
				this.queued--;
				await this.parts.deliver(request);
			})
			.catch(() => undefined);
		this.queues.set(campaignId, posted);
		void posted.then(() => {
			if (this.queues.get(campaignId) === posted) this.queues.delete(campaignId);
		});
	}

	/** Forgets every step and queued callback (their timers are cancelled with all the others). */
	clear(): void {
		this.steps.clear();
		this.queues.clear();
		this.queued = 0;
	}
}
