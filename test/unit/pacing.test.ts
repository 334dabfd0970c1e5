/**
 * The pacer against a simulated account on a virtual clock: a sliding window of N accepted
 * requests per W ms, answering 429 (with or without Retry-After) past it. Virtual time makes the
 * figures exact and the test immune to machine load; the same pacer runs on real n8n in
 * test/system/rate-limit.test.ts.
 */
import { ExotelContactCenter } from '../../nodes/ExotelContactCenter/ExotelContactCenter.node';
import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { ExotelNumberAllocation } from '../../nodes/ExotelNumberAllocation/ExotelNumberAllocation.node';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';
import { REQUESTS_IN_FLIGHT } from '../../nodes/shared/operation';
import { AccountPacer, PACING_POLICY, retryAfterMs, type PacingClock } from '../../nodes/shared/pacing';

class VirtualClock implements PacingClock {
	private time = 0;

	private seq = 0;

	private timers: Array<{ at: number; seq: number; resolve: () => void }> = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((resolve) => this.timers.push({ at: this.time + Math.max(0, ms), seq: this.seq++, resolve }));
	}

	/** Runs until `main` settles, jumping from timer to timer. */
	async run<T>(main: Promise<T>): Promise<T> {
		let settled = false;
		const watched = main.finally(() => {
			settled = true;
		});
		for (;;) {
			await new Promise((resolve) => setImmediate(resolve));
			if (settled) return await watched;
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift();
			if (!next) throw new Error('deadlock: nothing scheduled and the run has not finished');
			this.time = next.at;
			next.resolve();
		}
	}
}

/** The service's account limit: N accepted requests in any W ms; a 429 is not counted. */
class SlidingWindow {
	private accepted: number[] = [];

	limited = 0;

	constructor(
		readonly limit: number,
		readonly windowMs: number,
		private readonly withRetryAfter: boolean,
	) {}

	take(now: number): { ok: boolean; retryAfterMs?: number } {
		this.accepted = this.accepted.filter((t) => t > now - this.windowMs);
		if (this.accepted.length < this.limit) {
			this.accepted.push(now);
			return { ok: true };
		}
		this.limited++;
		const wait = this.accepted[0] + this.windowMs - now;
		return { ok: false, retryAfterMs: this.withRetryAfter ? Math.max(1, Math.ceil(wait / 1000)) * 1000 : undefined };
	}
}

interface RunResult {
	sent: number;
	failed: number;
	limited: number;
	/** 429s after the first accepted request that followed the first pause. */
	limitedAfterSettling: number;
	finishedAt: number;
}

/** One run: `requests` requests, as many in flight as the nodes send, each attempt `latencyMs` long, sharing one pacer. */
async function runSender(
	clock: VirtualClock,
	service: SlidingWindow,
	requests: number,
	options: { latencyMs?: number; maxWaitMs?: number; startAt?: number } = {},
): Promise<RunResult> {
	const latency = options.latencyMs ?? 20;
	if (options.startAt) await clock.sleep(options.startAt);
	const pacer = new AccountPacer(options.maxWaitMs ?? PACING_POLICY.defaultMaxWaitMs, clock);
	const result: RunResult = { sent: 0, failed: 0, limited: 0, limitedAfterSettling: 0, finishedAt: 0 };
	let settled = false;
	let next = 0;
	const worker = async () => {
		while (next < requests) {
			next++;
			for (;;) {
				const turn = await pacer.turn();
				if ('refused' in turn) {
					result.failed++;
					break;
				}
				await clock.sleep(latency / 2);
				const answer = service.take(clock.now());
				await clock.sleep(latency / 2);
				if (answer.ok) {
					pacer.accepted();
					if (result.limited > 0) settled = true;
					result.sent++;
					break;
				}
				result.limited++;
				if (settled) result.limitedAfterSettling++;
				if (pacer.rateLimited(turn.sentAt, answer.retryAfterMs)) {
					result.failed++;
					break;
				}
			}
		}
	};
	await Promise.all(Array.from({ length: REQUESTS_IN_FLIGHT }, worker));
	result.finishedAt = clock.now();
	return result;
}

const floorMs = (requests: number, service: SlidingWindow) => (requests / service.limit) * service.windowMs;

describe('AccountPacer against a sliding-window account limit (virtual time)', () => {
	test.each([
		['no Retry-After', false],
		['with Retry-After', true],
	])('one run of 200 requests, 50 per 15 s, %s: all sent, within 1.25x the floor, few 429s once paced', async (_name, withRetryAfter) => {
		const clock = new VirtualClock();
		const service = new SlidingWindow(50, 15_000, withRetryAfter);
		const result = await clock.run(runSender(clock, service, 200));
		process.stdout.write(`one run (${_name}): ${JSON.stringify(result)} floor ${floorMs(200, service)} ms\n`);
		expect(result.sent).toBe(200);
		expect(result.failed).toBe(0);
		expect(result.finishedAt).toBeLessThanOrEqual(1.25 * floorMs(200, service));
		expect(result.limitedAfterSettling).toBeLessThanOrEqual(3);
	});

	test.each([
		['no Retry-After', false],
		['with Retry-After', true],
	])('two runs of 200 requests each on one account, %s: both finish, nothing lost', async (_name, withRetryAfter) => {
		const clock = new VirtualClock();
		const service = new SlidingWindow(50, 15_000, withRetryAfter);
		const [a, b] = await clock.run(Promise.all([runSender(clock, service, 200), runSender(clock, service, 200, { startAt: 300 })]));
		process.stdout.write(`two runs (${_name}): ${JSON.stringify([a, b])} floor ${floorMs(400, service)} ms\n`);
		expect(a.sent + b.sent).toBe(400);
		expect(a.failed + b.failed).toBe(0);
		expect(Math.max(a.finishedAt, b.finishedAt)).toBeLessThanOrEqual(1.25 * floorMs(400, service));
	});

	test('a lower limit than the published one: the pace follows the service down', async () => {
		const clock = new VirtualClock();
		const service = new SlidingWindow(10, 15_000, false);
		const result = await clock.run(runSender(clock, service, 60));
		process.stdout.write(`low limit: ${JSON.stringify(result)} floor ${floorMs(60, service)} ms\n`);
		expect(result.sent).toBe(60);
		expect(result.failed).toBe(0);
		expect(result.finishedAt).toBeLessThanOrEqual(1.5 * floorMs(60, service));
	});

	test('a limit that never lifts: requests fail once Max Wait has passed with nothing accepted', async () => {
		const clock = new VirtualClock();
		const service = new SlidingWindow(0, 15_000, false);
		const result = await clock.run(runSender(clock, service, 5, { maxWaitMs: 60_000 }));
		expect(result.sent).toBe(0);
		expect(result.failed).toBe(5);
		expect(result.finishedAt).toBeGreaterThanOrEqual(60_000);
		expect(result.finishedAt).toBeLessThan(60_000 + PACING_POLICY.maxPauseMs);
		// one probe per pause, not one 429 per request in flight per pause
		expect(result.limited).toBeLessThan(20);
	});

	test('a Retry-After past Max Wait fails at once instead of waiting', async () => {
		const clock = new VirtualClock();
		const pacer = new AccountPacer(10_000, clock);
		expect(pacer.rateLimited(0, 60_000)).toMatch(/Retry-After.*Max Wait of 10 s/);
		expect(await pacer.turn()).toEqual({ refused: expect.stringMatching(/Retry-After/) });
	});

	test('Retry-After is read in seconds or as an HTTP date', () => {
		expect(retryAfterMs('3')).toBe(3000);
		expect(retryAfterMs('0')).toBe(0);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
		expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
	});
});

describe('Rate Limit → Max Wait on every action node', () => {
	const actionNodes = [new ExotelMessaging(), new ExotelVoice(), new ExotelContactCenter(), new ExotelNumberAllocation()];

	test.each(actionNodes.map((node) => [node.description.displayName, node] as const))('%s offers it, shown for every operation, 15 minutes by default', (_name, node) => {
		const rateLimit = node.description.properties.find((property) => property.name === 'rateLimit');
		expect(rateLimit).toMatchObject({ type: 'collection', default: {} });
		expect(rateLimit?.displayOptions).toBeUndefined();
		expect(rateLimit?.options).toEqual([expect.objectContaining({ name: 'maxWaitMinutes', type: 'number', default: PACING_POLICY.defaultMaxWaitMs / 60_000 })]);
		expect(node.description.properties[node.description.properties.length - 1]).toBe(rateLimit);
	});
});
