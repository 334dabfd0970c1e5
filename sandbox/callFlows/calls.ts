/**
 * CallFlows: the calls played through flows (playCallFlow), the last CALL_FLOW_LOG_LIMIT of them kept
 * in memory (never in the state file), and the calls still playing or still waiting for an async
 * Passthru's answer, cancelled together by reset and stop.
 */
import { parseCallInput } from './input';
import { CallFlowPlayer } from './player';
import type { CallFlowResult } from './types';

/** Calls kept for callFlows(), the latest. */
export const CALL_FLOW_LOG_LIMIT = 200;

export class CallFlows {
	private readonly log: CallFlowResult[] = [];

	private readonly players = new Set<CallFlowPlayer>();

	/** Bumped by reset(): a call that was playing then is not kept. */
	private generation = 0;

	/**
	 * Plays one call (input.ts checks the input: a CallFlowInputError names the bad field) and
	 * resolves with what happened once it has ended. An async Passthru's answer that comes later is
	 * written into the kept call (callFlows()), not into this copy.
	 */
	async play(input: unknown): Promise<CallFlowResult> {
		const player = new CallFlowPlayer(parseCallInput(input));
		const generation = this.generation;
		this.players.add(player);
		let result: CallFlowResult | undefined;
		try {
			result = await player.play();
		} finally {
			// a call that failed unexpectedly leaves nothing behind
			if (!result) this.players.delete(player);
		}
		if (generation === this.generation) {
			this.log.push(result);
			if (this.log.length > CALL_FLOW_LOG_LIMIT) this.log.splice(0, this.log.length - CALL_FLOW_LOG_LIMIT);
		}
		void player.detachedSettled().then(() => this.players.delete(player));
		return structuredClone(result);
	}

	/** The kept calls, oldest first (copies). */
	list(): CallFlowResult[] {
		return this.log.map((call) => structuredClone(call));
	}

	/** Every call's requests in flight stop now; a call playing hangs up before its next applet. */
	cancelAll(): void {
		for (const player of this.players) player.cancel();
		this.players.clear();
	}

	/** cancelAll(), and the kept calls are forgotten. */
	reset(): void {
		this.generation++;
		this.cancelAll();
		this.log.length = 0;
	}
}
