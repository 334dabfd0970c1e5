/**
 * CallFlowPlayer: one incoming call through its flow, applet after applet from `start` until a
 * transition says 'hangup' (or names nothing), each applet's requests on the call's own network
 * (the budget is its timeout). Cancelled (reset, stop), or past MAX_APPLETS_PER_CALL applets (a flow
 * that loops), the caller hangs up.
 */
import { NodeWork } from '../callbacks';
import { playConnect } from './connect';
import type { AppletContext, StepEnd } from './context';
import { playGather } from './gather';
import { playGreeting } from './greeting';
import type { CallState } from './params';
import { playPassthru } from './passthru';
import { UrlFetcher } from './requests';
import type { Applet, AppletRequest, CallFlowCall, CallFlowResult, CallFlowStep } from './types';

/** Applets one call goes through at most: a caller stuck in a loop gives up. */
export const MAX_APPLETS_PER_CALL = 100;

function playApplet(applet: Applet, ctx: AppletContext): Promise<StepEnd> {
	switch (applet.kind) {
		case 'passthru':
			return playPassthru(applet, ctx);
		case 'connect':
			return playConnect(applet, ctx);
		case 'gather':
			return playGather(applet, ctx);
		case 'greeting':
			return playGreeting(applet, ctx);
	}
}

export class CallFlowPlayer {
	readonly result: CallFlowResult;

	private readonly work: NodeWork;

	private readonly fetcher: UrlFetcher;

	private cancelled = false;

	constructor(private readonly call: CallFlowCall) {
		this.work = new NodeWork(call.budgetMs);
		this.fetcher = new UrlFetcher(this.work, call.repeatEachRequest, () => this.cancelled);
		this.result = { callSid: call.callSid, from: call.from, to: call.to, steps: [], heard: [], dialled: [], ended: 'hangup' };
	}

	/** The call's requests in flight stop now ('cancelled') and the caller hangs up before the next applet. */
	cancel(): void {
		this.cancelled = true;
		this.work.cancelAll();
	}

	/** Resolves once the async Passthru requests have their answers recorded (the call may have ended long before). */
	detachedSettled(): Promise<void> {
		return this.fetcher.detachedSettled();
	}

	/** Plays the call to its end; the result (an async Passthru's answer may still be written into it later). */
	async play(): Promise<CallFlowResult> {
		const { call, result } = this;
		const state: CallState = { callSid: call.callSid, from: call.from, to: call.to, flowId: call.flow.id, startedAt: new Date(), simulatedMs: 0 };
		if (call.customField !== undefined) state.customField = call.customField;
		const press = [...call.press];
		let name = call.flow.start;
		for (let played = 0; name !== 'hangup'; played++) {
			if (this.cancelled || played >= MAX_APPLETS_PER_CALL) {
				result.ended = 'caller-hangup';
				break;
			}
			const applet = call.flow.applets[name];
			const requests: AppletRequest[] = [];
			const ctx: AppletContext = { call: state, press, callees: call.callees, conversationSeconds: call.conversationSeconds, fetcher: this.fetcher, requests, heard: result.heard, dialled: result.dialled };
			const end = await playApplet(applet, ctx);
			const step: CallFlowStep = { applet: name, kind: applet.kind, requests, outcome: end.outcome, next: end.next ?? 'hangup' };
			if (end.reason !== undefined) step.reason = end.reason;
			result.steps.push(step);
			name = step.next;
		}
		return result;
	}
}
