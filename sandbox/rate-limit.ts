/**
 * The account rate-limit modes.
 * - Sliding (`mode` absent): at most `limit` requests per `windowMs`. The service allows about 200
 *   requests a minute per account, then answers 429 (the spec promises no Retry-After;
 *   `retryAfter: true` adds one for clients that want to test honouring it).
 * - Documented (`mode: 'documented'`): the service's public rate-limiting page: per endpoint
 *   category (categoryOf), fixed one-minute windows, X-RateLimit-* headers, 429 with Retry-After 30.
 */
import { SANDBOX_BASE_PREFIX } from './fixtures';
import { declaredEndpointsOf } from './package-endpoints';
import type {
	AnyRateLimitConfig,
	DocumentedRateLimitConfig,
	RateCategory,
	RateCategoryStats,
	RateLimitConfig,
	RateLimitStats,
	Reply,
	SandboxBase,
} from './types';

export type { AnyRateLimitConfig, DocumentedRateLimitConfig, RateCategory, RateCategoryStats, RateLimitConfig, RateLimitStats };

export type RateLimitDecision = { limited: false } | { limited: true; retryAfterSeconds: number };

function isPositiveInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** Validates a configuration of either mode (from code, the control API or the CLI); throws Error with a message. */
export function parseRateLimitConfig(input: RateLimitConfig): RateLimitConfig;
export function parseRateLimitConfig(input: DocumentedRateLimitConfig): ResolvedDocumentedConfig;
export function parseRateLimitConfig(input: unknown): AnyRateLimitConfig;
export function parseRateLimitConfig(input: unknown): AnyRateLimitConfig {
	if (input === null || typeof input !== 'object' || Array.isArray(input)) {
		throw new Error('rate limit must be an object {limit, windowMs, retryAfter?, bases?}');
	}
	const { mode } = input as Record<string, unknown>;
	if (mode === 'documented') return parseDocumentedConfig(input as Record<string, unknown>);
	if (mode !== undefined) {
		throw new Error(`mode must be "documented", or absent for the sliding window (got ${JSON.stringify(mode)})`);
	}
	return parseSlidingConfig(input as Record<string, unknown>);
}

function parseSlidingConfig(input: Record<string, unknown>): RateLimitConfig {
	// a documented-mode option without the mode is a forgotten `mode`, not something to ignore
	const stray = DOCUMENTED_KEYS.filter((key) => key !== 'mode' && input[key] !== undefined);
	if (stray.length > 0) throw new Error(`${stray.join(', ')} belongs to mode "documented" (add mode: "documented")`);
	const { limit, windowMs, retryAfter, bases } = input;
	if (!isPositiveInteger(limit)) throw new Error(`limit must be a positive integer (got ${JSON.stringify(limit)})`);
	if (!isPositiveInteger(windowMs)) {
		throw new Error(`windowMs must be a positive integer (got ${JSON.stringify(windowMs)})`);
	}
	if (retryAfter !== undefined && typeof retryAfter !== 'boolean') {
		throw new Error(`retryAfter must be a boolean (got ${JSON.stringify(retryAfter)})`);
	}
	const config: RateLimitConfig = { limit, windowMs, retryAfter: retryAfter ?? false };
	if (bases !== undefined) {
		const known = Object.keys(SANDBOX_BASE_PREFIX);
		if (!Array.isArray(bases) || bases.length === 0 || bases.some((b) => typeof b !== 'string' || !known.includes(b))) {
			throw new Error(`bases must be a non-empty array of: ${known.join(', ')} (got ${JSON.stringify(bases)})`);
		}
		config.bases = [...new Set(bases as SandboxBase[])];
	}
	return config;
}

/** A fill request (`POST /__sandbox/rate-limit/fill`, ExotelSandbox.fillRateLimit). */
export interface RateLimitFill {
	/** documented mode: the category to fill; the sliding window has none */
	category?: RateCategory;
	/** how many requests another client has just made */
	count: number;
}

/** Validates a fill against the limiter in effect (`documented`: whether it is the documented mode); throws Error with a message. */
export function parseRateLimitFill(input: unknown, documented: boolean): RateLimitFill {
	if (input === null || typeof input !== 'object' || Array.isArray(input)) {
		throw new Error('fill must be an object {category?, count}');
	}
	const { category, count, ...rest } = input as Record<string, unknown>;
	const stray = Object.keys(rest);
	if (stray.length > 0) throw new Error(`fill takes category and count (got ${stray.join(', ')})`);
	if (!isPositiveInteger(count)) throw new Error(`count must be a positive integer (got ${JSON.stringify(count)})`);
	if (!documented) {
		if (category !== undefined) throw new Error('category belongs to mode "documented"; the sliding window has one window for every request');
		return { count };
	}
	if (typeof category !== 'string' || !(RATE_CATEGORIES as readonly string[]).includes(category)) {
		throw new Error(`category must be a rate category (one of: ${RATE_CATEGORIES.join(', ')}) (got ${JSON.stringify(category)})`);
	}
	return { category: category as RateCategory, count };
}

/**
 * Times are the caller's (the request record's `time`), so a test can recompute Retry-After from
 * the request log. Only accepted requests enter the window: a client hammering through 429s does
 * not keep itself locked out.
 */
export class RateLimiter {
	readonly config: RateLimitConfig;

	/** acceptance times, oldest first */
	private window: number[] = [];

	private limitedCount = 0;

	private countedCount = 0;

	/** another client's accepted requests, entered into the window at the next check (fill) */
	private pendingFill = 0;

	constructor(config: RateLimitConfig) {
		this.config = parseSlidingConfig({ ...config });
	}

	applies(base: SandboxBase): boolean {
		return !this.config.bases || this.config.bases.includes(base);
	}

	/** Counts the request at `now` if the window has room, else says how long until it has. */
	check(now: number): RateLimitDecision {
		const { limit, windowMs } = this.config;
		// the window is (now - windowMs, now]: a request exactly windowMs old has left it
		while (this.window.length > 0 && this.window[0] <= now - windowMs) this.window.shift();
		// another client's requests, made just before this one (at most what the window has room for)
		for (; this.pendingFill > 0 && this.window.length < limit; this.pendingFill--) this.window.push(now);
		this.pendingFill = 0;
		if (this.window.length < limit) {
			this.window.push(now);
			this.countedCount++;
			return { limited: false };
		}
		this.limitedCount++;
		const ms = this.window[0] + windowMs - now;
		return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
	}

	/**
	 * Another client on the account makes `count` accepted requests just before the next request this
	 * limiter checks (entered at that request's time, so no window can turn in between): that one
	 * meets a window with `count` fewer places. Not in the counters, which are this sandbox's
	 * requests. A second fill before that request replaces the first.
	 */
	fill(count: number): void {
		this.pendingFill = count;
	}

	stats(): RateLimitStats {
		return { limited: this.limitedCount, counted: this.countedCount };
	}

	clear(): void {
		this.window = [];
		this.limitedCount = 0;
		this.countedCount = 0;
		this.pendingFill = 0;
	}
}

// ---------------------------------------------------------------- the documented mode

/** The documented limits per minute (the rate-limiting page; enterprise accounts differ: `limits`). */
export const DOCUMENTED_LIMITS: Readonly<Record<RateCategory, number>> = Object.freeze({
	bulkSms: 50,
	sms: 200,
	voice: 200,
	chatApp: 200,
	exoPhone: 50,
	campaign: 30,
	userManagement: 50,
	generalGet: 300,
});

/** In the page's order; also the order of `byCategory` and of the CLI banner. */
export const RATE_CATEGORIES = Object.keys(DOCUMENTED_LIMITS) as readonly RateCategory[];

/** Names for people (the CLI banner). */
export const RATE_CATEGORY_NAMES: Readonly<Record<RateCategory, string>> = Object.freeze({
	bulkSms: 'Bulk SMS',
	sms: 'SMS',
	voice: 'Voice',
	chatApp: 'Chat app',
	exoPhone: 'ExoPhone',
	campaign: 'Campaign',
	userManagement: 'User management',
	generalGet: 'General GET',
});

/** The page's window and Retry-After, before timeFactor. */
export const DOCUMENTED_WINDOW_MS = 60_000;
export const DOCUMENTED_RETRY_AFTER_SECONDS = 30;

/** A documented configuration with every default filled in and the full limit map. */
export type ResolvedDocumentedConfig = Required<Omit<DocumentedRateLimitConfig, 'limits'>> & { limits: Record<RateCategory, number> };

const DOCUMENTED_KEYS = ['mode', 'timeFactor', 'headers', 'smsStatus', 'limits'];

/**
 * The documented category of a request (`path` without the base prefix and query): the one its
 * declaration in the package names (package-endpoints.ts), else General GET for any other read;
 * undefined for any other write (e.g. the contact-center login): then it is not counted.
 */
export function categoryOf(base: SandboxBase, method: string, path: string): RateCategory | undefined {
	const [declared] = declaredEndpointsOf(base, method, path);
	if (declared) return declared.endpoint.rate;
	return method.toUpperCase() === 'GET' ? 'generalGet' : undefined;
}

function parseDocumentedConfig(input: Record<string, unknown>): ResolvedDocumentedConfig {
	const unknownKeys = Object.keys(input).filter((key) => !DOCUMENTED_KEYS.includes(key) && input[key] !== undefined);
	if (unknownKeys.length > 0) {
		throw new Error(`mode "documented" takes ${DOCUMENTED_KEYS.slice(1).join(', ')} (got ${unknownKeys.join(', ')})`);
	}
	const { timeFactor = 1, headers = true, smsStatus = 429, limits = {} } = input;
	// whole-second windows keep X-RateLimit-Reset (epoch seconds) exact
	if (typeof timeFactor !== 'number' || !(timeFactor > 0) || !Number.isFinite(timeFactor) || !Number.isInteger(60 / timeFactor)) {
		throw new Error(
			`timeFactor must be a positive number that makes the minute a whole number of seconds (60 / timeFactor whole, e.g. 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60) (got ${JSON.stringify(timeFactor)})`,
		);
	}
	if (typeof headers !== 'boolean') throw new Error(`headers must be a boolean (got ${JSON.stringify(headers)})`);
	if (smsStatus !== 429 && smsStatus !== 503) throw new Error(`smsStatus must be 429 or 503 (got ${JSON.stringify(smsStatus)})`);
	if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) {
		throw new Error(`limits must be an object {category: requests per window} (got ${JSON.stringify(limits)})`);
	}
	const resolved: Record<RateCategory, number> = { ...DOCUMENTED_LIMITS };
	for (const [category, value] of Object.entries(limits as Record<string, unknown>)) {
		if (!(RATE_CATEGORIES as readonly string[]).includes(category)) {
			throw new Error(`limits: ${JSON.stringify(category)} is not a rate category (one of: ${RATE_CATEGORIES.join(', ')})`);
		}
		if (!isPositiveInteger(value)) throw new Error(`limits.${category} must be a positive integer (got ${JSON.stringify(value)})`);
		resolved[category as RateCategory] = value;
	}
	return { mode: 'documented', timeFactor, headers, smsStatus, limits: resolved };
}

export interface DocumentedDecision {
	category: RateCategory;
	limited: boolean;
	/** the category's limit per window */
	limit: number;
	/** what is left in the current window after this request (0 when limited) */
	remaining: number;
	/** epoch seconds when the current window ends */
	resetSeconds: number;
}

function pluralSeconds(n: number): string {
	return `${n} second${n === 1 ? '' : 's'}`;
}

/**
 * One fixed-window counter per category. Windows are aligned to multiples of the window length
 * since the epoch, so every client sees the same boundaries. As in the sliding mode, times are the
 * caller's and only accepted requests count.
 */
export class DocumentedRateLimiter {
	readonly config: ResolvedDocumentedConfig;

	readonly windowMs: number;

	/** ceil(30 / timeFactor): a constant, as the page's, not the time left in the window */
	readonly retryAfterSeconds: number;

	private windows = new Map<RateCategory, { start: number; count: number }>();

	private counters = new Map<RateCategory, RateCategoryStats>();

	/** per category: another client's accepted requests, entered into the window of the category's next check (fill) */
	private pendingFills = new Map<RateCategory, number>();

	constructor(config: DocumentedRateLimitConfig) {
		this.config = parseDocumentedConfig({ ...config });
		this.windowMs = DOCUMENTED_WINDOW_MS / this.config.timeFactor;
		this.retryAfterSeconds = Math.ceil(DOCUMENTED_RETRY_AFTER_SECONDS / this.config.timeFactor);
	}

	/** Counts the request at `now` in its category's window if there is room. */
	check(category: RateCategory, now: number): DocumentedDecision {
		const limit = this.config.limits[category];
		const start = Math.floor(now / this.windowMs) * this.windowMs;
		let window = this.windows.get(category);
		if (!window || window.start !== start) {
			window = { start, count: 0 };
			this.windows.set(category, window);
		}
		const fill = this.pendingFills.get(category);
		if (fill !== undefined) {
			// another client's requests, made in this window just before this one (at most the limit)
			window.count = Math.min(limit, window.count + fill);
			this.pendingFills.delete(category);
		}
		const stats = this.statsOf(category);
		const limited = window.count >= limit;
		if (limited) {
			stats.limited++;
		} else {
			window.count++;
			stats.counted++;
		}
		return { category, limited, limit, remaining: limit - window.count, resetSeconds: (start + this.windowMs) / 1000 };
	}

	/** X-RateLimit-* for any answer in the category (none with `headers: false`). */
	headersFor(decision: DocumentedDecision): Record<string, string> {
		if (!this.config.headers) return {};
		return {
			'x-ratelimit-limit': String(decision.limit),
			'x-ratelimit-remaining': String(decision.remaining),
			'x-ratelimit-reset': String(decision.resetSeconds),
		};
	}

	/** The answer to a refused request: the page's 429, or the older SMS 503 when configured. */
	refusal(category: RateCategory): Reply {
		if (this.config.smsStatus === 503 && (category === 'sms' || category === 'bulkSms')) {
			return {
				status: 503,
				json: { RestException: { Status: 503, Message: 'Service unavailable: SMS rate limit exceeded', Code: 'RATE_LIMIT_EXCEEDED' } },
			};
		}
		const seconds = this.retryAfterSeconds;
		return {
			status: 429,
			json: { RestException: { Status: 429, Message: `Rate limit exceeded. Try again in ${pluralSeconds(seconds)}.`, Code: 'RATE_LIMIT_EXCEEDED' } },
			headers: { 'retry-after': String(seconds) },
		};
	}

	/**
	 * Another client on the account makes `count` accepted requests in the category just before the
	 * category's next request (in the window that request falls in, so no window can turn in
	 * between): that one meets a window with `count` fewer places. Not in the counters, which are this
	 * sandbox's requests. A second fill of the category before that request replaces the first.
	 */
	fill(category: RateCategory, count: number): void {
		this.pendingFills.set(category, count);
	}

	stats(): RateLimitStats {
		const byCategory = {} as Record<RateCategory, RateCategoryStats>;
		let limited = 0;
		let counted = 0;
		for (const category of RATE_CATEGORIES) {
			const stats = { ...this.statsOf(category) };
			byCategory[category] = stats;
			limited += stats.limited;
			counted += stats.counted;
		}
		return { limited, counted, byCategory };
	}

	clear(): void {
		this.windows.clear();
		this.counters.clear();
		this.pendingFills.clear();
	}

	private statsOf(category: RateCategory): RateCategoryStats {
		let stats = this.counters.get(category);
		if (!stats) {
			stats = { limited: 0, counted: 0 };
			this.counters.set(category, stats);
		}
		return stats;
	}
}
