/**
 * The requests of one call to its applets' URLs: each sent through the callbacks' loopback-only
 * network (callbacks/work.ts) within the call's budget, recorded as it goes, judged by the applet
 * that asked (a Judge), sent again identically with repeatEachRequest, and tried at the Fallback URL
 * when the primary's answer is not taken.
 */
import type { NodeWork } from '../callbacks';
import { mediaTypeOf } from '../http';
import type { AppletRequest } from './types';

/** Bytes of an answer read and recorded. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface RequestPlan {
	method: 'GET' | 'HEAD';
	/** With its query. */
	url: string;
	headers: Record<string, string>;
}

/** What a URL answered, as a judge reads it. */
export interface UrlAnswer {
	status: number;
	/** The Content-Type header as sent, null without one. */
	contentType: string | null;
	/** Its media type, lower-cased (`text/plain; charset=utf-8` → `text/plain`). */
	mediaType?: string;
	body: string;
}

/**
 * An applet's reading of an answer: taken (`value`; `label` the request's outcome, default
 * 'accepted'; `reason` why a Passthru took its second branch), or not (`fail`: 'status 500',
 * 'invalid: <what>'; the fetcher itself fails 'timeout', 'error' and 'cancelled').
 */
export type Verdict<T> = { value: T; label?: string; reason?: string } | { fail: string };

export type Judge<T> = (answer: UrlAnswer) => Verdict<T>;

const ignored: Judge<undefined> = () => ({ value: undefined, label: 'ignored' });

function recordOf(plan: RequestPlan, repeat: boolean): AppletRequest {
	const record: AppletRequest = { method: plan.method, url: plan.url, headers: { ...plan.headers }, status: 0, contentType: null, body: '', ms: 0, outcome: 'pending' };
	if (repeat) record.repeat = true;
	return record;
}

function headerText(value: string | string[] | undefined): string | null {
	if (value === undefined) return null;
	return Array.isArray(value) ? value.join(', ') : value;
}

export class UrlFetcher {
	/** Requests nothing waits for (an async Passthru's), until their answer is recorded. */
	private readonly detachedRuns = new Set<Promise<void>>();

	constructor(
		private readonly work: NodeWork,
		private readonly repeatEach: boolean,
		private readonly cancelled: () => boolean,
	) {}

	/** Resolves once every detached request has its answer recorded. */
	async detachedSettled(): Promise<void> {
		while (this.detachedRuns.size) await Promise.all([...this.detachedRuns]);
	}

	/** The primary URL, then the fallback while the answer is not taken; the last verdict. */
	async fetchFirst<T>(urls: Array<string | undefined>, plan: (url: string) => RequestPlan, into: AppletRequest[], judge: Judge<T>): Promise<Verdict<T>> {
		let verdict: Verdict<T> = { fail: 'error' };
		for (const url of urls) {
			if (url === undefined) continue;
			verdict = await this.fetch(plan(url), into, judge);
			if (!('fail' in verdict) || this.cancelled()) break;
		}
		return verdict;
	}

	/** One request (and its repeat), recorded in `into`; the first one's verdict. */
	async fetch<T>(plan: RequestPlan, into: AppletRequest[], judge: Judge<T>): Promise<Verdict<T>> {
		const verdict = await this.once(plan, into, judge, false);
		// the same bytes once the first has its answer: the call goes on with the first
		if (this.repeatEach && !this.cancelled()) await this.once(plan, into, judge, true);
		return verdict;
	}

	/** Sent now; nothing waits for its answer, which is recorded ('ignored') when it comes. */
	detach(plan: RequestPlan, into: AppletRequest[]): void {
		const run: Promise<void> = this.fetch(plan, into, ignored).then(
			() => undefined,
			() => undefined,
		);
		this.detachedRuns.add(run);
		void run.then(() => this.detachedRuns.delete(run));
	}

	private async once<T>(plan: RequestPlan, into: AppletRequest[], judge: Judge<T>, repeat: boolean): Promise<Verdict<T>> {
		const record = recordOf(plan, repeat);
		into.push(record);
		const started = Date.now();
		const result = await this.work.exchange(new URL(plan.url), {
			method: plan.method,
			headers: plan.headers,
			readBody: plan.method !== 'HEAD',
			maxBodyBytes: MAX_ANSWER_BYTES,
		});
		record.ms = Date.now() - started;
		record.status = result.status;
		record.contentType = headerText(result.headers['content-type']);
		record.body = result.body.toString('utf8');
		let verdict: Verdict<T>;
		if (this.cancelled()) verdict = { fail: 'cancelled' };
		else if (result.error !== undefined) {
			verdict = { fail: /^timeout/.test(result.error) ? 'timeout' : 'error' };
			record.error = result.error;
		} else {
			const { status, contentType, body } = record;
			verdict = judge({ status, contentType, mediaType: mediaTypeOf(contentType ?? undefined), body });
		}
		record.outcome = 'fail' in verdict ? verdict.fail : (verdict.label ?? 'accepted');
		return verdict;
	}
}
