/**
 * The account rate-limit mode (rate-limit.ts): the window itself with synthetic times, then the
 * sandbox over real HTTP. Windows that must slide are short with generous margins; the others
 * are a minute long so that a slow machine cannot change an outcome.
 */
import { performance } from 'perf_hooks';

import { parseCliOptions, parseRateLimitOptions } from './cli';
import { SANDBOX_ACCOUNT } from './fixtures';
import { parseRateLimitConfig, RateLimiter, type RateLimitConfig } from './rate-limit';
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

async function call(method: string, path: string, options: CallOptions = {}, at = origin): Promise<Answer> {
	return await sandboxCall(at, method, path, options);
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
const control = (method: string, path: string, json?: unknown, raw?: string) =>
	call(method, `/__sandbox${path}`, { json, raw });
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
			const res = await control('POST', '/rate-limit', json, raw);
			expect(res.status).toBe(400);
			expect(res.body.ok).toBe(false);
			expect(res.body.error).toEqual(typeof error === 'string' ? error : expect.stringMatching(error));
		}
		expect(sandbox.rateLimit).toEqual({ limit: 3, windowMs: 1000, retryAfter: false });
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
