/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- times rate windows (perf_hooks, setTimeout); never shipped */
/**
 * The account rate-limit modes (rate-limit.ts): the windows themselves with synthetic times, then the
 * sandbox over real HTTP. Sliding windows that must slide are short with generous margins; the others
 * are a minute long so that a slow machine cannot change an outcome. The documented mode's fixed
 * windows are aligned to the epoch, so a burst may straddle a boundary: its HTTP tests check each
 * answer against the window its recorded `time` fell in, and fill a window until a refusal comes.
 */
import { performance } from 'perf_hooks';

import { describeRateLimit, parseCliOptions, parseRateLimitOptions } from './cli';
import { SANDBOX_ACCOUNT } from './fixtures';
import {
	categoryOf,
	DOCUMENTED_LIMITS,
	DocumentedRateLimiter,
	parseRateLimitConfig,
	RATE_CATEGORIES,
	RateLimiter,
	type RateCategory,
	type RateLimitConfig,
} from './rate-limit';
import { basicOf, call as sandboxCall, type Answer, type CallOptions } from './client';
import { ExotelSandbox } from './server';

const A = SANDBOX_ACCOUNT;
const SID = A.accountSid;
const BASIC = basicOf(A.apiKey, A.apiToken);
const ALLOC = basicOf(A.allocUsername, A.allocPassword);
const SEND = `/v1/Accounts/${SID}/Sms/send`;
const MESSAGES = `/v2/accounts/${SID}/messages`;
const GREENVN = `/alloc/v1/tenants/${SID}/greenvn`;
const MINUTE = 60_000;

let sandbox: ExotelSandbox;
let origin: string;

/** A v1 error. */
interface V1Error {
	RestException: { Message: string };
}

async function call<B = unknown>(method: string, path: string, options: CallOptions = {}, at = origin): Promise<Answer<B>> {
	return await sandboxCall<B>(at, method, path, options);
}

let smsCount = 0;
const sms = (at = origin) =>
	call(
		'POST',
		SEND,
		{
			form: [
				['From', 'EXOTEL'],
				['To', `+9198000${String(++smsCount).padStart(5, '0')}`],
				['Body', 'Rate-limit test'],
			],
			headers: { authorization: BASIC },
		},
		at,
	);
const allocate = () =>
	call('POST', GREENVN, {
		json: { connection_id: 'conn-1', aparty_numbers: ['+919800000001'], bparty_numbers: ['+919800000002'], usage: 'twoway' },
		headers: { authorization: ALLOC },
	});
const control = <B = unknown>(method: string, path: string, json?: unknown, raw?: string) =>
	call<B>(method, `/__sandbox${path}`, { json, raw });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Retry-After the sandbox must have computed, from the recorded arrival times. */
function expectedRetryAfter(windowMs: number): string {
	const log = sandbox.requests();
	const limited = log.filter((r) => r.rateLimited);
	const counted = log.filter((r) => !r.rateLimited && r.time > limited[0].time - windowMs);
	return String(Math.max(1, Math.ceil((counted[0].time + windowMs - limited[0].time) / 1000)));
}

beforeAll(async () => {
	sandbox = new ExotelSandbox({ port: 0 });
	origin = await sandbox.start();
});

afterAll(async () => {
	await sandbox.stop();
});

beforeEach(() => {
	sandbox.setRateLimit(null);
	sandbox.setLatency(0);
	sandbox.reset();
});

describe('the sliding window (synthetic times)', () => {
	it('counts accepted requests in (t - windowMs, t]; a limited one does not enter the window', () => {
		const limiter = new RateLimiter({ limit: 2, windowMs: 1000 });
		expect(limiter.check(0)).toEqual({ limited: false });
		expect(limiter.check(400)).toEqual({ limited: false });
		expect(limiter.check(999)).toEqual({ limited: true, retryAfterSeconds: 1 });
		// exactly windowMs after the first: it has left the window
		expect(limiter.check(1000)).toEqual({ limited: false });
		// the window now holds 400 and 1000; 400 leaves it at 1400
		expect(limiter.check(1399)).toEqual({ limited: true, retryAfterSeconds: 1 });
		expect(limiter.check(1400)).toEqual({ limited: false });
		expect(limiter.stats()).toEqual({ limited: 2, counted: 4 });
	});

	it('Retry-After: seconds until the oldest counted request leaves, rounded up, at least 1', () => {
		const limiter = new RateLimiter({ limit: 1, windowMs: 15_000 });
		limiter.check(10_000);
		expect(limiter.check(10_000)).toEqual({ limited: true, retryAfterSeconds: 15 });
		expect(limiter.check(10_001)).toEqual({ limited: true, retryAfterSeconds: 15 });
		expect(limiter.check(11_000)).toEqual({ limited: true, retryAfterSeconds: 14 });
		expect(limiter.check(24_999)).toEqual({ limited: true, retryAfterSeconds: 1 });
		const short = new RateLimiter({ limit: 1, windowMs: 200 });
		short.check(0);
		expect(short.check(50)).toEqual({ limited: true, retryAfterSeconds: 1 });
	});

	it('hammering through 429s does not extend the lock-out', () => {
		const limiter = new RateLimiter({ limit: 1, windowMs: 1000 });
		limiter.check(0);
		for (let t = 1; t < 1000; t += 7) expect(limiter.check(t).limited).toBe(true);
		expect(limiter.check(1000)).toEqual({ limited: false });
	});

	it('clear() empties the window and the counters', () => {
		const limiter = new RateLimiter({ limit: 1, windowMs: MINUTE });
		limiter.check(0);
		limiter.check(1);
		limiter.clear();
		expect(limiter.stats()).toEqual({ limited: 0, counted: 0 });
		expect(limiter.check(2)).toEqual({ limited: false });
	});

	it('validates the configuration', () => {
		expect(parseRateLimitConfig({ limit: 5, windowMs: 2000 })).toEqual({ limit: 5, windowMs: 2000, retryAfter: false });
		expect(parseRateLimitConfig({ limit: 5, windowMs: 2000, retryAfter: true, bases: ['alloc', 'alloc', 'cms'] })).toEqual({
			limit: 5,
			windowMs: 2000,
			retryAfter: true,
			bases: ['alloc', 'cms'],
		});
		expect(() => parseRateLimitConfig({ limit: 0, windowMs: 2000 })).toThrow('limit must be a positive integer (got 0)');
		expect(() => parseRateLimitConfig({ limit: 1.5, windowMs: 2000 })).toThrow('limit must be a positive integer');
		expect(() => parseRateLimitConfig({ limit: '5', windowMs: 2000 })).toThrow('limit must be a positive integer (got "5")');
		expect(() => parseRateLimitConfig({ limit: 5 })).toThrow('windowMs must be a positive integer (got undefined)');
		expect(() => parseRateLimitConfig({ limit: 5, windowMs: -1 })).toThrow('windowMs must be a positive integer');
		expect(() => parseRateLimitConfig({ limit: 5, windowMs: 10, retryAfter: 'yes' })).toThrow('retryAfter must be a boolean');
		expect(() => parseRateLimitConfig({ limit: 5, windowMs: 10, bases: ['nope'] })).toThrow(/^bases must be a non-empty array of: base, ccm/);
		expect(() => parseRateLimitConfig({ limit: 5, windowMs: 10, bases: [] })).toThrow('bases must be a non-empty array');
		expect(() => parseRateLimitConfig(null)).toThrow('rate limit must be an object');
		expect(() => parseRateLimitConfig([5, 10])).toThrow('rate limit must be an object');
	});
});

describe('the sandbox with a rate limit', () => {
	it('answers the request over the limit 429 in the v1 style, without Retry-After, and stores nothing', async () => {
		sandbox.setRateLimit({ limit: 5, windowMs: MINUTE });
		for (let i = 0; i < 5; i++) expect((await sms()).status).toBe(200);
		const res = await sms();
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBeNull();
		expect(res.body).toEqual({ RestException: { Status: 429, Message: `Rate limit exceeded: 5 requests per ${MINUTE} ms` } });
		expect(sandbox.messages()).toHaveLength(5);
		const log = sandbox.requests();
		expect(log).toHaveLength(6);
		expect(log[5]).toMatchObject({ status: 429, rateLimited: true });
		expect(log[5].fault).toBeUndefined();
		expect(log.slice(0, 5).every((r) => r.status === 200 && r.rateLimited === undefined)).toBe(true);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 1, counted: 5 });
		// still full: every further request is limited too
		expect((await sms()).status).toBe(429);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 2, counted: 5 });
	});

	it('with retryAfter, Retry-After is the whole seconds until the oldest counted request leaves', async () => {
		sandbox.setRateLimit({ limit: 5, windowMs: MINUTE, retryAfter: true });
		for (let i = 0; i < 5; i++) await sms();
		const res = await sms();
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe(expectedRetryAfter(MINUTE));
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
	});

	it('a short window: Retry-After is at least 1 second', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: 5000, retryAfter: true });
		await sms();
		const res = await sms();
		expect(res.status).toBe(429);
		expect(res.headers.get('retry-after')).toBe(expectedRetryAfter(5000));
	});

	it('accepts requests again once the window has slid past them', async () => {
		const windowMs = 600;
		sandbox.setRateLimit({ limit: 2, windowMs });
		expect((await sms()).status).toBe(200);
		expect((await sms()).status).toBe(200);
		expect((await sms()).status).toBe(429);
		await sleep(windowMs + 500);
		expect((await sms()).status).toBe(200);
		expect((await sms()).status).toBe(200);
		expect(sandbox.messages()).toHaveLength(4);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 1, counted: 4 });
	});

	it('concurrent requests: exactly `limit` get through', async () => {
		sandbox.setRateLimit({ limit: 3, windowMs: MINUTE });
		const answers = await Promise.all(Array.from({ length: 10 }, () => sms()));
		expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
		expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
		expect(sandbox.messages()).toHaveLength(3);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 7, counted: 3 });
	});

	it('answers in the error style of the base (v2, alloc)', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		await sms();
		const v2 = await call('POST', MESSAGES, {
			json: { from: '+918047090000', to: '+919812345678', content: { type: 'text', text: { body: 'hi' } } },
			headers: { authorization: BASIC },
		});
		expect(v2.status).toBe(429);
		expect(v2.body).toMatchObject({
			method: 'POST',
			http_code: 429,
			response: { code: 429, status: 'failure', error_data: { code: 1029, description: `Rate limit exceeded: 1 requests per ${MINUTE} ms` } },
		});
		expect(sandbox.chatAppMessages()).toHaveLength(0);
		const alloc = await allocate();
		expect(alloc.status).toBe(429);
		expect(alloc.body).toMatchObject({ success: false, status: 429, code: 17, data: null });
	});

	it('counts requests whatever their outcome (401, 404), before authentication', async () => {
		sandbox.setRateLimit({ limit: 2, windowMs: MINUTE });
		expect((await call('GET', `/v1/Accounts/${SID}/Calls.json`)).status).toBe(401);
		expect((await call('GET', '/nowhere')).status).toBe(404);
		expect((await call('GET', '/nowhere')).status).toBe(429);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 1, counted: 2 });
	});

	it('bases: only requests to those bases are counted and limited', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE, bases: ['alloc'] });
		for (let i = 0; i < 3; i++) expect((await sms()).status).toBe(200);
		expect((await allocate()).status).toBe(200);
		expect((await allocate()).status).toBe(429);
		expect(sandbox.allocations()).toHaveLength(1);
		expect((await sms()).status).toBe(200);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 1, counted: 1 });
		expect(sandbox.rateLimit).toEqual({ limit: 1, windowMs: MINUTE, retryAfter: false, bases: ['alloc'] });
	});

	it('never counts control-API requests', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		for (let i = 0; i < 5; i++) expect((await control('GET', '/health')).status).toBe(200);
		expect((await control('GET', '/rate-limit')).status).toBe(200);
		expect((await sms()).status).toBe(200);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 1 });
	});

	it('an injected status fault answers instead of the limiter and is not counted; a delay fault is', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		sandbox.injectFaults({ kind: 'status', status: 503 });
		expect((await sms()).status).toBe(503);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 0 });
		sandbox.injectFaults({ kind: 'delay', ms: 10 });
		expect((await sms()).status).toBe(200);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 1 });
		// the window is full, but a pending status fault still wins for its request
		sandbox.injectFaults({ kind: 'status', status: 500 });
		expect((await sms()).status).toBe(500);
		expect((await sms()).status).toBe(429);
		const log = sandbox.requests();
		expect(log.map((r) => [r.status, r.fault ?? null, r.rateLimited ?? false])).toEqual([
			[503, 'status:503', false],
			[200, 'delay:10', false],
			[500, 'status:500', false],
			[429, null, true],
		]);
	});

	it('latency applies to 429 answers too', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		await sms();
		sandbox.setLatency(150);
		const t0 = performance.now();
		expect((await sms()).status).toBe(429);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
	});

	it('reset() keeps the configuration but clears the window and the counters', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE, retryAfter: true });
		await sms();
		expect((await sms()).status).toBe(429);
		sandbox.reset();
		expect(sandbox.rateLimit).toEqual({ limit: 1, windowMs: MINUTE, retryAfter: true });
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 0 });
		expect((await sms()).status).toBe(200);
		expect((await sms()).status).toBe(429);
	});

	it('setRateLimit starts a new window; null turns it off; bad values throw', async () => {
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		await sms();
		expect((await sms()).status).toBe(429);
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 0 });
		expect((await sms()).status).toBe(200);
		sandbox.setRateLimit(null);
		expect(sandbox.rateLimit).toBeNull();
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 0 });
		for (let i = 0; i < 3; i++) expect((await sms()).status).toBe(200);
		expect(() => sandbox.setRateLimit({ limit: 0, windowMs: 10 })).toThrow('limit must be a positive integer');
		expect(sandbox.rateLimit).toBeNull();
	});

	it('rateLimit returns a copy', () => {
		sandbox.setRateLimit({ limit: 2, windowMs: 1000, bases: ['base'] });
		const config = sandbox.rateLimit as RateLimitConfig;
		config.limit = 99;
		config.bases!.push('cc');
		expect(sandbox.rateLimit).toEqual({ limit: 2, windowMs: 1000, retryAfter: false, bases: ['base'] });
	});

	it('takes the constructor option', async () => {
		const limited = new ExotelSandbox({ rateLimit: { limit: 1, windowMs: MINUTE } });
		const at = await limited.start();
		try {
			expect(limited.rateLimit).toEqual({ limit: 1, windowMs: MINUTE, retryAfter: false });
			expect((await sms(at)).status).toBe(200);
			expect((await sms(at)).status).toBe(429);
			expect(limited.rateLimitStats()).toEqual({ limited: 1, counted: 1 });
		} finally {
			await limited.stop();
		}
	});
});

describe('control API', () => {
	it('GET, POST and DELETE /__sandbox/rate-limit', async () => {
		expect((await control('GET', '/rate-limit')).body).toEqual({ ok: true, rateLimit: null, limited: 0, counted: 0 });
		const set = await control('POST', '/rate-limit', { limit: 1, windowMs: MINUTE, retryAfter: true, bases: ['base'] });
		expect(set.status).toBe(200);
		expect(set.body).toEqual({
			ok: true,
			rateLimit: { limit: 1, windowMs: MINUTE, retryAfter: true, bases: ['base'] },
			limited: 0,
			counted: 0,
		});
		await sms();
		const limited = await sms();
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe(expectedRetryAfter(MINUTE));
		expect((await control('GET', '/rate-limit')).body).toEqual({
			ok: true,
			rateLimit: { limit: 1, windowMs: MINUTE, retryAfter: true, bases: ['base'] },
			limited: 1,
			counted: 1,
		});
		expect((await control('GET', '/health')).body).toMatchObject({ ok: true, rateLimited: 1 });

		const off = await control('DELETE', '/rate-limit');
		expect(off.body).toEqual({ ok: true, rateLimit: null, limited: 0, counted: 0 });
		expect((await sms()).status).toBe(200);
		expect((await control('GET', '/health')).body).toMatchObject({ rateLimited: 0 });
	});

	it('POST starts a new window, and /reset keeps the limit', async () => {
		await control('POST', '/rate-limit', { limit: 1, windowMs: MINUTE });
		await sms();
		expect((await sms()).status).toBe(429);
		await control('POST', '/rate-limit', { limit: 1, windowMs: MINUTE });
		expect((await sms()).status).toBe(200);
		expect((await control('POST', '/reset')).status).toBe(200);
		expect((await control('GET', '/rate-limit')).body).toEqual({
			ok: true,
			rateLimit: { limit: 1, windowMs: MINUTE, retryAfter: false },
			limited: 0,
			counted: 0,
		});
	});

	it('POST answers 400 with a clear error for a bad body, and keeps the previous setting', async () => {
		await control('POST', '/rate-limit', { limit: 3, windowMs: 1000 });
		const cases: Array<[unknown, string | undefined, string | RegExp]> = [
			[{ limit: 0, windowMs: 1000 }, undefined, 'limit must be a positive integer (got 0)'],
			[{ limit: 2.5, windowMs: 1000 }, undefined, 'limit must be a positive integer (got 2.5)'],
			[{ limit: 5 }, undefined, 'windowMs must be a positive integer (got undefined)'],
			[{ limit: 5, windowMs: '1000' }, undefined, 'windowMs must be a positive integer (got "1000")'],
			[{ limit: 5, windowMs: 1000, retryAfter: 1 }, undefined, 'retryAfter must be a boolean (got 1)'],
			[{ limit: 5, windowMs: 1000, bases: ['main'] }, undefined, /^bases must be a non-empty array of: base, /],
			[undefined, '', 'rate limit must be an object {limit, windowMs, retryAfter?, bases?}'],
			[undefined, '{"limit": ', /^body is not JSON/],
			[[1, 2], undefined, /^rate limit must be an object/],
		];
		for (const [json, raw, error] of cases) {
			const res = await control<{ ok: boolean; error: string }>('POST', '/rate-limit', json, raw);
			expect(res.status).toBe(400);
			expect(res.body.ok).toBe(false);
			expect(res.body.error).toEqual(typeof error === 'string' ? error : expect.stringMatching(error));
		}
		expect(sandbox.rateLimit).toEqual({ limit: 3, windowMs: 1000, retryAfter: false });
	});

	it('POST /rate-limit/fill, documented: the category\'s next request meets the spent window; other categories and the counters untouched', async () => {
		await control('POST', '/rate-limit', { mode: 'documented', limits: { sms: 3, exoPhone: 1 } });
		const filled = await control<{ ok: boolean; counted: number; limited: number }>('POST', '/rate-limit/fill', { category: 'sms', count: 2 });
		expect(filled.status).toBe(200);
		expect(filled.body).toMatchObject({ ok: true, limited: 0, counted: 0 });
		expect((await allocate()).status).toBe(200);
		const first = await sms();
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
		// a fill of the whole limit: the very next request is refused, whenever it comes
		await control('POST', '/rate-limit/fill', { category: 'sms', count: 3 });
		expect((await sms()).status).toBe(429);
		expect(sandbox.rateLimitStats().byCategory).toMatchObject({ sms: { counted: 1, limited: 1 }, exoPhone: { counted: 1, limited: 0 } });
	});

	it('a fill is met by the next request, however late: no window turns in between (synthetic times)', () => {
		const limiter = new DocumentedRateLimiter({ mode: 'documented', timeFactor: 60, limits: { voice: 2 } });
		limiter.fill('voice', 5);
		// many windows after the fill, the first request still meets it (at most the limit)
		expect(limiter.check('voice', 1_000 * 1_000 + 999)).toMatchObject({ limited: true, remaining: 0 });
		// the next window is empty again: the fill was spent
		expect(limiter.check('voice', 1_000 * 1_001)).toMatchObject({ limited: false, remaining: 1 });
		const sliding = new RateLimiter({ limit: 2, windowMs: 1_000 });
		sliding.fill(2);
		expect(sliding.check(50_000).limited).toBe(true);
		expect(sliding.check(51_000).limited).toBe(false);
		expect(sliding.stats()).toEqual({ limited: 1, counted: 1 });
		sliding.fill(1);
		sliding.clear();
		expect(sliding.check(52_000).limited).toBe(false);
	});

	it('POST /rate-limit/fill, sliding: the next counted request meets `count` requests in its window', async () => {
		await control('POST', '/rate-limit', { limit: 3, windowMs: MINUTE });
		expect((await control('POST', '/rate-limit/fill', { count: 2 })).status).toBe(200);
		expect((await sms()).status).toBe(200);
		expect((await sms()).status).toBe(429);
		expect(sandbox.rateLimitStats()).toEqual({ limited: 1, counted: 1 });
	});

	it('POST /rate-limit/fill answers 400 with a clear error', async () => {
		const fill = (json: unknown) => control<{ ok: boolean; error: string }>('POST', '/rate-limit/fill', json);
		expect((await fill({ count: 1 })).body).toEqual({ ok: false, error: 'no rate limit is on (set one first)' });
		await control('POST', '/rate-limit', { limit: 3, windowMs: MINUTE });
		expect((await fill({ count: 0 })).body.error).toBe('count must be a positive integer (got 0)');
		expect((await fill({ category: 'sms', count: 1 })).body.error).toMatch(/^category belongs to mode "documented"/);
		expect((await fill({ count: 1, windowMs: 5 })).body.error).toBe('fill takes category and count (got windowMs)');
		await control('POST', '/rate-limit', { mode: 'documented' });
		const noCategory = await fill({ count: 1 });
		expect(noCategory.status).toBe(400);
		expect(noCategory.body.error).toMatch(/^category must be a rate category \(one of: bulkSms, /);
		expect((await fill({ category: 'whatsapp', count: 1 })).body.error).toMatch(/\(got "whatsapp"\)$/);
	});
});

describe('CLI options', () => {
	it('--rate-limit LIMIT/WINDOW_MS, --retry-after, and the env variables', () => {
		expect(parseCliOptions([]).rateLimit).toBeUndefined();
		expect(parseCliOptions(['--rate-limit', '50/15000']).rateLimit).toEqual({ limit: 50, windowMs: 15000, retryAfter: false });
		expect(parseCliOptions(['--rate-limit=50/15000', '--retry-after']).rateLimit).toEqual({
			limit: 50,
			windowMs: 15000,
			retryAfter: true,
		});
		expect(parseCliOptions([], { SANDBOX_RATE_LIMIT: '200/60000' }).rateLimit).toEqual({
			limit: 200,
			windowMs: 60000,
			retryAfter: false,
		});
		expect(parseCliOptions([], { SANDBOX_RATE_LIMIT: '200/60000', SANDBOX_RETRY_AFTER: '1' }).rateLimit).toEqual({
			limit: 200,
			windowMs: 60000,
			retryAfter: true,
		});
		expect(parseCliOptions([], { SANDBOX_RATE_LIMIT: '200/60000', SANDBOX_RETRY_AFTER: '0' }).rateLimit).toMatchObject({ retryAfter: false });
		// the flag wins over the variable; an empty variable is unset
		expect(parseCliOptions(['--rate-limit', '5/100'], { SANDBOX_RATE_LIMIT: '200/60000' }).rateLimit).toMatchObject({ limit: 5 });
		expect(parseCliOptions([], { SANDBOX_RATE_LIMIT: '' }).rateLimit).toBeUndefined();
		expect(parseCliOptions(['--port', '0', '--rate-limit', '1/1', '--json'])).toMatchObject({
			port: 0,
			json: true,
			rateLimit: { limit: 1, windowMs: 1 },
		});
	});

	it('refuses bad values with a clear message', () => {
		const bad: Array<[string[], NodeJS.ProcessEnv, string]> = [
			[['--rate-limit', 'abc'], {}, "--rate-limit must be LIMIT/WINDOW_MS with positive integers, e.g. 50/15000 (got 'abc')"],
			[['--rate-limit', '0/1000'], {}, "--rate-limit must be LIMIT/WINDOW_MS with positive integers, e.g. 50/15000 (got '0/1000')"],
			[['--rate-limit', '5/0'], {}, "(got '5/0')"],
			[['--rate-limit', '5/1.5'], {}, "(got '5/1.5')"],
			[['--rate-limit', '50'], {}, "(got '50')"],
			[['--rate-limit'], {}, '--rate-limit needs LIMIT/WINDOW_MS, e.g. --rate-limit 50/15000'],
			[['--rate-limit', '--json'], {}, '--rate-limit needs LIMIT/WINDOW_MS'],
			[[], { SANDBOX_RATE_LIMIT: '50 per minute' }, "SANDBOX_RATE_LIMIT must be LIMIT/WINDOW_MS with positive integers, e.g. 50/15000 (got '50 per minute')"],
			[['--retry-after'], {}, '--retry-after / SANDBOX_RETRY_AFTER needs a rate limit (--rate-limit or SANDBOX_RATE_LIMIT)'],
			[[], { SANDBOX_RETRY_AFTER: '1' }, 'needs a rate limit'],
			[[], { SANDBOX_RATE_LIMIT: '5/100', SANDBOX_RETRY_AFTER: 'maybe' }, "SANDBOX_RETRY_AFTER must be 1 or 0 (got 'maybe')"],
		];
		for (const [args, env, message] of bad) {
			expect(() => parseCliOptions(args, env)).toThrow(message);
			expect(() => parseRateLimitOptions(args, env)).toThrow(message);
		}
	});
});

// ---------------------------------------------------------------- the documented mode

const BULK = `/v1/Accounts/${SID}/Sms/bulksend`;
const CALLS = `/v1/Accounts/${SID}/Calls.json`;
const LOGIN = '/cc/servicerestapi/session/userLogin';
const ZEROS = Object.fromEntries(RATE_CATEGORIES.map((c) => [c, { limited: 0, counted: 0 }])) as Record<RateCategory, { limited: number; counted: number }>;
const DEFAULTS_RESOLVED = { mode: 'documented', timeFactor: 1, headers: true, smsStatus: 429, limits: DOCUMENTED_LIMITS };

const bulkSms = () =>
	call('POST', BULK, {
		form: [
			['From', 'EXOTEL'],
			['Messages[0][To]', `+9198000${String(++smsCount).padStart(5, '0')}`],
			['Messages[0][Body]', 'Rate-limit test'],
		],
		headers: { authorization: BASIC },
	});
const chatApp = () =>
	call('POST', MESSAGES, {
		json: { from: '+918047090000', to: '+919812345678', content: { type: 'text', text: { body: 'hi' } } },
		headers: { authorization: BASIC },
	});
const listCalls = () => call('GET', CALLS, { headers: { authorization: BASIC } });

/** Sends until one is refused (a window holds `limit`; a boundary in between only adds a few). */
async function untilRefused(send: () => Promise<Answer>, limit: number): Promise<{ accepted: Answer[]; refused: Answer }> {
	const accepted: Answer[] = [];
	for (let i = 0; i < 3 * limit + 3; i++) {
		const res = await send();
		if (res.status === 429 || res.status === 503) return { accepted, refused: res };
		accepted.push(res);
	}
	throw new Error(`no refusal after ${accepted.length} requests`);
}

/** The window (start, end in ms) a recorded time fell in. */
const windowOf = (time: number, windowMs: number) => {
	const start = Math.floor(time / windowMs) * windowMs;
	return { start, end: start + windowMs };
};

/**
 * The X-RateLimit-* an answer must carry, recomputed from the request log: the accepted requests of
 * the category in the window the request's recorded time fell in, up to and including it.
 */
function expectedHeaders(id: number, limit: number, windowMs: number): Record<string, string> {
	const log = sandbox.requests();
	const record = log.find((r) => r.id === id)!;
	const { start, end } = windowOf(record.time, windowMs);
	const used = log.filter((r) => r.id <= id && r.category === record.category && !r.rateLimited && r.time >= start && r.time < end).length;
	return {
		'x-ratelimit-limit': String(limit),
		'x-ratelimit-remaining': String(limit - used),
		'x-ratelimit-reset': String(end / 1000),
	};
}

function rateHeadersOf(res: Answer): Record<string, string | null> {
	return {
		'x-ratelimit-limit': res.headers.get('x-ratelimit-limit'),
		'x-ratelimit-remaining': res.headers.get('x-ratelimit-remaining'),
		'x-ratelimit-reset': res.headers.get('x-ratelimit-reset'),
	};
}

const idOf = (res: Answer) => Number(res.headers.get('x-sandbox-request-id'));

// The categories come from the package's declarations (sandbox/package-endpoints.ts); a request no
// node makes is counted as any other read (General GET) or, as a write, not at all.
describe('categoryOf: the rate-limiting page, one row each, on the paths the sandbox serves', () => {
	it('bulkSms: POST Sms/bulksend', () => {
		expect(categoryOf('base', 'POST', `/v1/Accounts/${SID}/Sms/bulksend`)).toBe('bulkSms');
	});

	it('sms: POST Sms/send; SMS details, which no node asks for, are any other read', () => {
		expect(categoryOf('base', 'POST', `/v1/Accounts/${SID}/Sms/send`)).toBe('sms');
		expect(categoryOf('base', 'post', `/v1/Accounts/${SID}/Sms/send`)).toBe('sms');
		expect(categoryOf('base', 'GET', `/v1/Accounts/${SID}/SMS/Messages/sms-1.json`)).toBe('generalGet');
		expect(categoryOf('base', 'GET', `/v1/Accounts/${SID}/Sms/Messages/sms-1`)).toBe('generalGet');
	});

	it('voice: any method on v1 Calls, v2 and v3 calls; the contact-center voice-log download', () => {
		expect(categoryOf('base', 'POST', `/v1/Accounts/${SID}/Calls/connect`)).toBe('voice');
		expect(categoryOf('base', 'GET', `/v1/Accounts/${SID}/Calls.json`)).toBe('voice');
		expect(categoryOf('base', 'GET', `/v1/Accounts/${SID}/Calls/call-1.json`)).toBe('voice');
		expect(categoryOf('ccm', 'GET', `/v2/accounts/${SID}/calls/call-1`)).toBe('voice');
		expect(categoryOf('base', 'GET', `/v3/accounts/${SID}/calls/call-1/voice-logs`)).toBe('voice');
		// served as GET (the spec, and the node's request), listed as POST by the page
		expect(categoryOf('cc', 'GET', '/servicerestapi/cc/downloadVoiceLog')).toBe('voice');
		expect(categoryOf('cc', 'POST', '/servicerestapi/cc/downloadVoiceLog')).toBeUndefined();
		// a longer segment is not Calls
		expect(categoryOf('base', 'POST', `/v1/Accounts/${SID}/CallsX`)).toBeUndefined();
	});

	it('chatApp: POST v2 messages and PUT of the webhooks (chatapp/ or whatsapp/)', () => {
		expect(categoryOf('base', 'POST', `/v2/accounts/${SID}/messages`)).toBe('chatApp');
		expect(categoryOf('base', 'PUT', `/v2/accounts/${SID}/chatapp/webhook`)).toBe('chatApp');
		expect(categoryOf('base', 'PUT', `/v2/accounts/${SID}/whatsapp/webhook`)).toBe('chatApp');
		expect(categoryOf('base', 'GET', `/v2/accounts/${SID}/chatapp/webhook`)).toBe('generalGet');
		expect(categoryOf('base', 'DELETE', `/v2/accounts/${SID}/chatapp/webhook`)).toBeUndefined();
	});

	it('exoPhone: non-GET on the allocation base greenvn; its GET is a general GET', () => {
		expect(categoryOf('alloc', 'POST', `/v1/tenants/${SID}/greenvn`)).toBe('exoPhone');
		expect(categoryOf('alloc', 'DELETE', `/v1/tenants/${SID}/greenvn/gvn-1`)).toBe('exoPhone');
		expect(categoryOf('alloc', 'GET', `/v1/tenants/${SID}/greenvn/gvn-1`)).toBe('generalGet');
		// the page names the allocation host
		expect(categoryOf('base', 'POST', `/v1/tenants/${SID}/greenvn`)).toBeUndefined();
	});

	it('campaign: non-GET on campaigns, lists and contacts; their GETs are general GETs', () => {
		expect(categoryOf('base', 'POST', `/v2/accounts/${SID}/campaigns`)).toBe('campaign');
		expect(categoryOf('base', 'PUT', `/v2/accounts/${SID}/campaigns/cmp-1`)).toBe('campaign');
		expect(categoryOf('base', 'DELETE', `/v2/accounts/${SID}/campaigns/cmp-1`)).toBe('campaign');
		expect(categoryOf('base', 'PUT', `/v2/accounts/${SID}/lists`)).toBe('campaign');
		expect(categoryOf('base', 'DELETE', `/v2/accounts/${SID}/lists/list-1/contacts/contact-1`)).toBe('campaign');
		expect(categoryOf('ccm', 'POST', `/v2/accounts/${SID}/contacts/upload`)).toBe('campaign');
		expect(categoryOf('base', 'GET', `/v2/accounts/${SID}/campaigns/cmp-1/call-details`)).toBe('generalGet');
		expect(categoryOf('ccm', 'GET', `/v2/accounts/${SID}/contacts/upload/up-1`)).toBe('generalGet');
	});

	it('userManagement: PUT integrations devices, and the contact-center users\' writes', () => {
		expect(categoryOf('integrations', 'PUT', '/v2/integrations/cust-1/apps/app-1/users/user-1/devices')).toBe('userManagement');
		expect(categoryOf('cc', 'POST', '/servicerestapi/cc/contactCenterUsers')).toBe('userManagement');
		expect(categoryOf('cc', 'PUT', '/servicerestapi/cc/contactCenterUsers/agent.1')).toBe('userManagement');
		expect(categoryOf('cc', 'DELETE', '/servicerestapi/user/users/agent.1')).toBe('userManagement');
		expect(categoryOf('ccm', 'GET', `/v2/accounts/${SID}/users`)).toBe('generalGet');
		expect(categoryOf('integrations', 'GET', '/v2/integrations/cust-1/apps/app-1/users/user-1/devices')).toBe('generalGet');
	});

	it('generalGet: every other GET (configuration, recordings, unknown paths)', () => {
		expect(categoryOf('cms', 'GET', '/configuration/hierarchyconfig/campaign')).toBe('generalGet');
		expect(categoryOf('base', 'GET', '/__recordings/call-1.mp3')).toBe('generalGet');
		expect(categoryOf('base', 'GET', '/nowhere')).toBe('generalGet');
	});

	it('none: anything else, e.g. the contact-center login', () => {
		expect(categoryOf('cc', 'POST', '/servicerestapi/session/userLogin')).toBeUndefined();
		expect(categoryOf('base', 'POST', '/nowhere')).toBeUndefined();
		expect(categoryOf('base', 'PATCH', `/v1/Accounts/${SID}/Sms/send`)).toBeUndefined();
	});
});

describe('the documented mode: fixed windows (synthetic times)', () => {
	// a minute boundary (2023-11-14T22:13:00Z): a window starts there
	const T0 = 1_700_000_000_000 - (1_700_000_000_000 % MINUTE);

	it('X-RateLimit-*: the limit, what is left after the request, and the window end in epoch seconds', () => {
		const limiter = new DocumentedRateLimiter({ mode: 'documented', limits: { campaign: 3 } });
		const at = T0 + 12_345;
		const reset = (T0 + MINUTE) / 1000;
		expect(limiter.check('campaign', at)).toEqual({ category: 'campaign', limited: false, limit: 3, remaining: 2, resetSeconds: reset });
		expect(limiter.check('campaign', at + 1).remaining).toBe(1);
		const last = limiter.check('campaign', T0 + MINUTE - 1);
		expect(last).toMatchObject({ limited: false, remaining: 0, resetSeconds: reset });
		expect(limiter.headersFor(last)).toEqual({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) });
		expect(limiter.check('campaign', T0 + MINUTE - 1)).toMatchObject({ limited: true, remaining: 0, resetSeconds: reset });
		expect(Number.isInteger(reset)).toBe(true);
	});

	it('the counter starts again in the next fixed window, whatever the requests did before', () => {
		const limiter = new DocumentedRateLimiter({ mode: 'documented', limits: { sms: 1 } });
		expect(limiter.check('sms', T0 + MINUTE - 1).limited).toBe(false);
		// one ms later is a new window, though the sliding mode would still count that request
		expect(limiter.check('sms', T0 + MINUTE)).toMatchObject({ limited: false, remaining: 0, resetSeconds: (T0 + 2 * MINUTE) / 1000 });
		expect(limiter.check('sms', T0 + 2 * MINUTE - 1).limited).toBe(true);
		expect(limiter.check('sms', T0 + 5 * MINUTE + 30_000)).toMatchObject({ limited: false, resetSeconds: (T0 + 6 * MINUTE) / 1000 });
		expect(limiter.stats().byCategory!.sms).toEqual({ limited: 1, counted: 3 });
	});

	it('each category has its own counter; the defaults are the page\'s', () => {
		const limiter = new DocumentedRateLimiter({ mode: 'documented' });
		for (const category of RATE_CATEGORIES) {
			for (let i = 0; i < DOCUMENTED_LIMITS[category]; i++) expect(limiter.check(category, T0 + i).limited).toBe(false);
			expect(limiter.check(category, T0 + 999)).toMatchObject({ limited: true, limit: DOCUMENTED_LIMITS[category] });
		}
		expect(DOCUMENTED_LIMITS).toEqual({ bulkSms: 50, sms: 200, voice: 200, chatApp: 200, exoPhone: 50, campaign: 30, userManagement: 50, generalGet: 300 });
		const stats = limiter.stats();
		expect(stats.limited).toBe(8);
		expect(stats.counted).toBe(1080);
		expect(stats.byCategory!.campaign).toEqual({ limited: 1, counted: 30 });
	});

	it('timeFactor scales the window (60 s / factor) and Retry-After (ceil(30 s / factor))', () => {
		const fast = new DocumentedRateLimiter({ mode: 'documented', timeFactor: 60, limits: { voice: 1 } });
		expect(fast.windowMs).toBe(1000);
		expect(fast.retryAfterSeconds).toBe(1);
		expect(fast.check('voice', T0 + 1500)).toMatchObject({ limited: false, resetSeconds: T0 / 1000 + 2 });
		expect(fast.check('voice', T0 + 1999).limited).toBe(true);
		expect(fast.check('voice', T0 + 2000).limited).toBe(false);
		const four = new DocumentedRateLimiter({ mode: 'documented', timeFactor: 4 });
		expect([four.windowMs, four.retryAfterSeconds]).toEqual([15_000, 8]);
		expect(four.check('sms', T0 + 16_000).resetSeconds).toBe(T0 / 1000 + 30);
		const half = new DocumentedRateLimiter({ mode: 'documented', timeFactor: 0.5 });
		expect([half.windowMs, half.retryAfterSeconds]).toEqual([120_000, 60]);
	});

	it('the refusal: 429 with Retry-After and the page\'s body; 503 without Retry-After for SMS only when asked', () => {
		const page = new DocumentedRateLimiter({ mode: 'documented' });
		for (const category of RATE_CATEGORIES) {
			expect(page.refusal(category)).toEqual({
				status: 429,
				json: { RestException: { Status: 429, Message: 'Rate limit exceeded. Try again in 30 seconds.', Code: 'RATE_LIMIT_EXCEEDED' } },
				headers: { 'retry-after': '30' },
			});
		}
		const older = new DocumentedRateLimiter({ mode: 'documented', smsStatus: 503, timeFactor: 60 });
		for (const category of ['sms', 'bulkSms'] as const) {
			expect(older.refusal(category)).toEqual({
				status: 503,
				json: { RestException: { Status: 503, Message: 'Service unavailable: SMS rate limit exceeded', Code: 'RATE_LIMIT_EXCEEDED' } },
			});
		}
		expect(older.refusal('chatApp')).toEqual({
			status: 429,
			json: { RestException: { Status: 429, Message: 'Rate limit exceeded. Try again in 1 second.', Code: 'RATE_LIMIT_EXCEEDED' } },
			headers: { 'retry-after': '1' },
		});
	});

	it('headers: false leaves the X-RateLimit-* headers out; clear() empties windows and counters', () => {
		const limiter = new DocumentedRateLimiter({ mode: 'documented', headers: false, limits: { sms: 1 } });
		expect(limiter.headersFor(limiter.check('sms', T0))).toEqual({});
		expect(limiter.check('sms', T0).limited).toBe(true);
		limiter.clear();
		expect(limiter.stats()).toEqual({ limited: 0, counted: 0, byCategory: ZEROS });
		expect(limiter.check('sms', T0).limited).toBe(false);
	});

	it('validates the configuration, naming the option, the category and the value', () => {
		expect(parseRateLimitConfig({ mode: 'documented' })).toEqual(DEFAULTS_RESOLVED);
		expect(parseRateLimitConfig({ mode: 'documented', timeFactor: 60, headers: false, smsStatus: 503, limits: { sms: 1000, campaign: 60 } })).toEqual({
			mode: 'documented',
			timeFactor: 60,
			headers: false,
			smsStatus: 503,
			limits: { ...DOCUMENTED_LIMITS, sms: 1000, campaign: 60 },
		});
		for (const factor of [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60, 0.5]) {
			expect(parseRateLimitConfig({ mode: 'documented', timeFactor: factor })).toMatchObject({ timeFactor: factor });
		}
		const bad: Array<[unknown, string | RegExp]> = [
			[{ mode: 'documented', timeFactor: 7 }, /^timeFactor must be a positive number that makes the minute a whole number of seconds .* \(got 7\)$/],
			[{ mode: 'documented', timeFactor: 0 }, /^timeFactor must be .*\(got 0\)$/],
			[{ mode: 'documented', timeFactor: -2 }, '(got -2)'],
			[{ mode: 'documented', timeFactor: 120 }, '(got 120)'],
			[{ mode: 'documented', timeFactor: '60' }, '(got "60")'],
			[{ mode: 'documented', headers: 'no' }, 'headers must be a boolean (got "no")'],
			[{ mode: 'documented', smsStatus: 500 }, 'smsStatus must be 429 or 503 (got 500)'],
			[{ mode: 'documented', limits: { sms: 0 } }, 'limits.sms must be a positive integer (got 0)'],
			[{ mode: 'documented', limits: { campaign: 2.5 } }, 'limits.campaign must be a positive integer (got 2.5)'],
			[{ mode: 'documented', limits: { voice: '100' } }, 'limits.voice must be a positive integer (got "100")'],
			[{ mode: 'documented', limits: { whatsapp: 10 } }, 'limits: "whatsapp" is not a rate category (one of: bulkSms, sms, voice, chatApp, exoPhone, campaign, userManagement, generalGet)'],
			[{ mode: 'documented', limits: [1] }, 'limits must be an object {category: requests per window} (got [1])'],
			[{ mode: 'documented', limit: 5 }, 'mode "documented" takes timeFactor, headers, smsStatus, limits (got limit)'],
			[{ mode: 'fixed' }, 'mode must be "documented", or absent for the sliding window (got "fixed")'],
			[{ limit: 5, windowMs: 1000, timeFactor: 60 }, 'timeFactor belongs to mode "documented" (add mode: "documented")'],
		];
		for (const [input, message] of bad) expect(() => parseRateLimitConfig(input)).toThrow(message);
	});
});

describe('the sandbox with the documented limits', () => {
	it('every answer in a category carries X-RateLimit-*: Remaining counts down to 0 in the request\'s window', async () => {
		sandbox.setRateLimit({ mode: 'documented', limits: { sms: 3 } });
		const { accepted, refused } = await untilRefused(sms, 3);
		for (const res of [...accepted, refused]) {
			expect(rateHeadersOf(res)).toEqual(expectedHeaders(idOf(res), 3, MINUTE));
			expect(Number(res.headers.get('x-ratelimit-reset')) % 60).toBe(0);
		}
		// the requests of the refused one's window left nothing
		expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(accepted.slice(-3).map((res) => res.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
		expect(sandbox.requests().every((r) => r.category === 'sms')).toBe(true);
		// another category has its own counter; an uncategorised request carries no header
		const calls = await listCalls();
		expect(calls.status).toBe(200);
		expect(rateHeadersOf(calls)).toEqual(expectedHeaders(idOf(calls), 200, MINUTE));
		const login = await call('POST', LOGIN, { json: { userId: A.ccUserId, token: A.ccToken, forceLogin: true, terminalInfo: 'jest' } });
		expect(login.status).toBe(200);
		expect(login.headers.get('x-ratelimit-limit')).toBeNull();
		expect(sandbox.requests().at(-1)!.category).toBeUndefined();
	});

	it('past the limit: 429, Retry-After 30, the page\'s body, no handler run; the record says so', async () => {
		sandbox.setRateLimit({ mode: 'documented', limits: { bulkSms: 2 } });
		const { accepted, refused } = await untilRefused(bulkSms, 2);
		expect(accepted.every((res) => res.status === 200)).toBe(true);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('30');
		expect(refused.text).toBe('{"RestException":{"Status":429,"Message":"Rate limit exceeded. Try again in 30 seconds.","Code":"RATE_LIMIT_EXCEEDED"}}');
		expect(sandbox.messages()).toHaveLength(accepted.length);
		const last = sandbox.requests().at(-1)!;
		expect(last).toMatchObject({ status: 429, rateLimited: true, category: 'bulkSms' });
		expect(sandbox.rateLimitStats()).toEqual({
			limited: 1,
			counted: accepted.length,
			byCategory: { ...ZEROS, bulkSms: { limited: 1, counted: accepted.length } },
		});
		// the same body on a v2 path (the page gives one body), and the limit of the category
		sandbox.setRateLimit({ mode: 'documented', limits: { chatApp: 1 } });
		const v2 = (await untilRefused(chatApp, 1)).refused;
		expect(v2.status).toBe(429);
		expect(v2.body).toEqual({ RestException: { Status: 429, Message: 'Rate limit exceeded. Try again in 30 seconds.', Code: 'RATE_LIMIT_EXCEEDED' } });
		expect(sandbox.chatAppMessages()).toHaveLength(sandbox.rateLimitStats().counted);
	});

	it('timeFactor scales Retry-After and its message', async () => {
		sandbox.setRateLimit({ mode: 'documented', timeFactor: 4, limits: { voice: 1 } });
		const four = (await untilRefused(listCalls, 1)).refused;
		expect(four.headers.get('retry-after')).toBe('8');
		expect((four.body as V1Error).RestException.Message).toBe('Rate limit exceeded. Try again in 8 seconds.');
		expect(rateHeadersOf(four)).toEqual(expectedHeaders(idOf(four), 1, 15_000));
		sandbox.setRateLimit({ mode: 'documented', timeFactor: 60, limits: { voice: 1 } });
		const sixty = (await untilRefused(listCalls, 1)).refused;
		expect(sixty.headers.get('retry-after')).toBe('1');
		expect((sixty.body as V1Error).RestException.Message).toBe('Rate limit exceeded. Try again in 1 second.');
	});

	it('headers: false: no X-RateLimit-* on any answer; a 429 keeps Retry-After', async () => {
		sandbox.setRateLimit({ mode: 'documented', headers: false, limits: { sms: 1 } });
		const { accepted, refused } = await untilRefused(sms, 1);
		for (const res of [...accepted, refused]) expect(rateHeadersOf(res)).toEqual({ 'x-ratelimit-limit': null, 'x-ratelimit-remaining': null, 'x-ratelimit-reset': null });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('30');
	});

	it('smsStatus 503: an SMS or Bulk SMS breach answers 503 without Retry-After; other categories 429', async () => {
		sandbox.setRateLimit({ mode: 'documented', smsStatus: 503, limits: { sms: 1, bulkSms: 1, chatApp: 1 } });
		for (const send of [sms, bulkSms]) {
			const { refused } = await untilRefused(send, 1);
			expect(refused.status).toBe(503);
			expect(refused.headers.get('retry-after')).toBeNull();
			expect(refused.body).toEqual({ RestException: { Status: 503, Message: 'Service unavailable: SMS rate limit exceeded', Code: 'RATE_LIMIT_EXCEEDED' } });
			expect(rateHeadersOf(refused)).toEqual(expectedHeaders(idOf(refused), 1, MINUTE));
		}
		const other = (await untilRefused(chatApp, 1)).refused;
		expect(other.status).toBe(429);
		expect(other.headers.get('retry-after')).toBe('30');
		const stats = sandbox.rateLimitStats();
		expect(stats.limited).toBe(3);
		expect([stats.byCategory!.sms.limited, stats.byCategory!.bulkSms.limited, stats.byCategory!.chatApp.limited]).toEqual([1, 1, 1]);
		expect(sandbox.requests().filter((r) => r.rateLimited).map((r) => [r.status, r.category])).toEqual([
			[503, 'sms'],
			[503, 'bulkSms'],
			[429, 'chatApp'],
		]);
	});

	it('the counter starts again in the next fixed window (1-second windows)', async () => {
		sandbox.setRateLimit({ mode: 'documented', timeFactor: 60, limits: { sms: 1 } });
		const { refused } = await untilRefused(sms, 1);
		const resetMs = Number(refused.headers.get('x-ratelimit-reset')) * 1000;
		expect(resetMs % 1000).toBe(0);
		// waits for the clock, not a guess: the refused one's window has ended when Date.now() reaches its reset
		while (Date.now() < resetMs) await sleep(resetMs - Date.now() + 5);
		const next = await sms();
		expect(next.status).toBe(200);
		expect(Number(next.headers.get('x-ratelimit-reset'))).toBeGreaterThan(resetMs / 1000);
		expect(rateHeadersOf(next)).toEqual(expectedHeaders(idOf(next), 1, 1000));
	});

	it('an injected status fault answers instead and is neither counted nor given headers or a category', async () => {
		sandbox.setRateLimit({ mode: 'documented', limits: { sms: 1 } });
		sandbox.injectFaults({ kind: 'status', status: 500 });
		const faulted = await sms();
		expect(faulted.status).toBe(500);
		expect(faulted.headers.get('x-ratelimit-limit')).toBeNull();
		expect(sandbox.requests()[0].category).toBeUndefined();
		expect(sandbox.rateLimitStats().counted).toBe(0);
	});

	it('reset() keeps the configuration and clears the counters; setRateLimit switches modes; the constructor takes it', async () => {
		sandbox.setRateLimit({ mode: 'documented', limits: { sms: 1 } });
		await untilRefused(sms, 1);
		sandbox.reset();
		expect(sandbox.rateLimit).toEqual({ ...DEFAULTS_RESOLVED, limits: { ...DOCUMENTED_LIMITS, sms: 1 } });
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 0, byCategory: ZEROS });
		expect((await sms()).status).toBe(200);
		// a copy
		(sandbox.rateLimit as { limits: Record<string, number> }).limits.sms = 99;
		expect(sandbox.rateLimit).toMatchObject({ limits: { sms: 1 } });
		sandbox.setRateLimit({ limit: 1, windowMs: MINUTE });
		expect(sandbox.rateLimitStats()).toEqual({ limited: 0, counted: 0 });
		expect(() => sandbox.setRateLimit({ mode: 'documented', timeFactor: 7 })).toThrow('timeFactor must be');
		expect(sandbox.rateLimit).toEqual({ limit: 1, windowMs: MINUTE, retryAfter: false });

		const documented = new ExotelSandbox({ rateLimit: { mode: 'documented', limits: { generalGet: 1 } } });
		const at = await documented.start();
		try {
			const get = () => call('GET', '/cms/configuration/hierarchyconfig/campaign', {}, at);
			const first = await get();
			expect(first.headers.get('x-ratelimit-limit')).toBe('1');
			expect(documented.requests()[0].category).toBe('generalGet');
			expect(documented.rateLimitStats().byCategory!.generalGet.counted).toBe(1);
		} finally {
			await documented.stop();
		}
	});
});

describe('control API, documented mode', () => {
	it('POST {mode: "documented", …} turns it on, GET shows byCategory, DELETE turns it off', async () => {
		const set = await control('POST', '/rate-limit', { mode: 'documented', timeFactor: 2, limits: { campaign: 5 } });
		expect(set.status).toBe(200);
		const config = { mode: 'documented', timeFactor: 2, headers: true, smsStatus: 429, limits: { ...DOCUMENTED_LIMITS, campaign: 5 } };
		expect(set.body).toEqual({ ok: true, rateLimit: config, limited: 0, counted: 0, byCategory: ZEROS });
		const res = await sms();
		expect(res.status).toBe(200);
		expect(rateHeadersOf(res)).toEqual(expectedHeaders(idOf(res), 200, 30_000));
		expect((await control('GET', '/rate-limit')).body).toEqual({
			ok: true,
			rateLimit: config,
			limited: 0,
			counted: 1,
			byCategory: { ...ZEROS, sms: { limited: 0, counted: 1 } },
		});
		// what GET shows can be posted back as is
		expect((await control<{ rateLimit: unknown }>('POST', '/rate-limit', config)).body.rateLimit).toEqual(config);
		expect((await control('DELETE', '/rate-limit')).body).toEqual({ ok: true, rateLimit: null, limited: 0, counted: 0 });
		expect((await sms()).headers.get('x-ratelimit-limit')).toBeNull();
	});

	it('POST answers 400 with the message for a bad documented body, and keeps the previous setting', async () => {
		await control('POST', '/rate-limit', { mode: 'documented' });
		const cases: Array<[unknown, string | RegExp]> = [
			[{ mode: 'documented', timeFactor: 7 }, /^timeFactor must be a positive number .*\(got 7\)$/],
			[{ mode: 'documented', limits: { sms: -1 } }, 'limits.sms must be a positive integer (got -1)'],
			[{ mode: 'documented', limits: { mms: 1 } }, /^limits: "mms" is not a rate category/],
			[{ mode: 'documented', smsStatus: '503' }, 'smsStatus must be 429 or 503 (got "503")'],
			[{ mode: 'documented', headers: 1 }, 'headers must be a boolean (got 1)'],
			[{ mode: 'Documented' }, 'mode must be "documented", or absent for the sliding window (got "Documented")'],
		];
		for (const [json, error] of cases) {
			const res = await control('POST', '/rate-limit', json);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({ ok: false, error: typeof error === 'string' ? error : expect.stringMatching(error) });
		}
		expect(sandbox.rateLimit).toEqual(DEFAULTS_RESOLVED);
	});
});

describe('CLI options, documented mode', () => {
	it('--rate-limit documented with --time-factor, --no-rate-limit-headers, --sms-503, --rate-limit-category', () => {
		expect(parseCliOptions(['--rate-limit', 'documented']).rateLimit).toEqual(DEFAULTS_RESOLVED);
		expect(parseCliOptions([], { SANDBOX_RATE_LIMIT: 'documented' }).rateLimit).toEqual(DEFAULTS_RESOLVED);
		expect(
			parseCliOptions([
				'--rate-limit=documented',
				'--time-factor',
				'60',
				'--no-rate-limit-headers',
				'--sms-503',
				'--rate-limit-category',
				'sms=1000',
				'--rate-limit-category=campaign=5',
				'--rate-limit-category',
				'sms=900',
			]).rateLimit,
		).toEqual({ mode: 'documented', timeFactor: 60, headers: false, smsStatus: 503, limits: { ...DOCUMENTED_LIMITS, sms: 900, campaign: 5 } });
		expect(parseCliOptions(['--rate-limit', 'documented', '--time-factor=4']).rateLimit).toMatchObject({ timeFactor: 4 });
	});

	it('the banner describes the documented limits in words', () => {
		expect(describeRateLimit({ mode: 'documented' })).toBe(
			"the service's documented limits (Bulk SMS 50, SMS 200, Voice 200, Chat app 200, ExoPhone 50, Campaign 30, User management 50, General GET 300 per minute; headers on; Retry-After 30 s)",
		);
		expect(describeRateLimit({ mode: 'documented', timeFactor: 4, headers: false, smsStatus: 503, limits: { sms: 10 } })).toBe(
			"the service's documented limits (Bulk SMS 50, SMS 10, Voice 200, Chat app 200, ExoPhone 50, Campaign 30, User management 50, General GET 300 per 15 s (time factor 4); headers off; Retry-After 8 s; SMS and Bulk SMS breaches answer 503)",
		);
	});

	it('refuses bad values and flags without the documented mode', () => {
		const bad: Array<[string[], NodeJS.ProcessEnv, string | RegExp]> = [
			[['--rate-limit', 'documented', '--time-factor', '7'], {}, /^timeFactor must be a positive number .*\(got 7\)$/],
			[['--rate-limit', 'documented', '--time-factor', 'fast'], {}, "--time-factor must be a number (got 'fast')"],
			[['--rate-limit', 'documented', '--time-factor'], {}, '--time-factor needs a value, e.g. --time-factor 60'],
			[['--rate-limit', 'documented', '--rate-limit-category', 'sms'], {}, "--rate-limit-category must be NAME=N with a positive integer N, e.g. sms=100 (got 'sms'"],
			[['--rate-limit', 'documented', '--rate-limit-category', 'sms=0'], {}, "(got 'sms=0'"],
			[['--rate-limit', 'documented', '--rate-limit-category', 'mms=5'], {}, 'limits: "mms" is not a rate category'],
			[['--rate-limit', 'documented', '--rate-limit-category', '--json'], {}, '--rate-limit-category needs a value, e.g. --rate-limit-category sms=100'],
			[['--rate-limit', 'documented', '--retry-after'], {}, '--retry-after / SANDBOX_RETRY_AFTER is for a sliding window: the documented limits always send Retry-After'],
			[['--sms-503'], {}, '--sms-503 needs the documented limits (--rate-limit documented or SANDBOX_RATE_LIMIT=documented)'],
			[['--time-factor', '60', '--no-rate-limit-headers'], {}, '--time-factor, --no-rate-limit-headers needs the documented limits'],
			[['--rate-limit', '50/15000', '--rate-limit-category', 'sms=5'], {}, "--rate-limit-category needs the documented limits (--rate-limit documented), not a sliding window ('50/15000')"],
			[['--rate-limit', 'documentd'], {}, "--rate-limit must be LIMIT/WINDOW_MS with positive integers, e.g. 50/15000 (got 'documentd'), or documented"],
			[['--rate-limit'], {}, '--rate-limit needs LIMIT/WINDOW_MS, e.g. --rate-limit 50/15000, or documented'],
		];
		for (const [args, env, message] of bad) {
			expect(() => parseCliOptions(args, env)).toThrow(message);
			expect(() => parseRateLimitOptions(args, env)).toThrow(message);
		}
	});
});
