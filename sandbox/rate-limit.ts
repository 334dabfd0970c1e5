/**
 * The account rate-limit mode: a sliding window of at most `limit` requests per `windowMs`.
 * The service allows about 200 requests a minute per account, then answers 429 (the spec promises
 * no Retry-After; `retryAfter: true` adds one for clients that want to test honouring it).
 */
import { SANDBOX_BASE_PREFIX } from './fixtures';
import type { RateLimitConfig, RateLimitStats, SandboxBase } from './types';

export type { RateLimitConfig, RateLimitStats };

export type RateLimitDecision = { limited: false } | { limited: true; retryAfterSeconds: number };

function isPositiveInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** Validates a configuration (from code, the control API or the CLI); throws Error with a message. */
export function parseRateLimitConfig(input: unknown): RateLimitConfig {
	if (input === null || typeof input !== 'object' || Array.isArray(input)) {
		throw new Error('rate limit must be an object {limit, windowMs, retryAfter?, bases?}');
	}
	const { limit, windowMs, retryAfter, bases } = input as Record<string, unknown>;
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

	constructor(config: RateLimitConfig) {
		this.config = parseRateLimitConfig(config);
	}

	applies(base: SandboxBase): boolean {
		return !this.config.bases || this.config.bases.includes(base);
	}

	/** Counts the request at `now` if the window has room, else says how long until it has. */
	check(now: number): RateLimitDecision {
		const { limit, windowMs } = this.config;
		// the window is (now - windowMs, now]: a request exactly windowMs old has left it
		while (this.window.length > 0 && this.window[0] <= now - windowMs) this.window.shift();
		if (this.window.length < limit) {
			this.window.push(now);
			this.countedCount++;
			return { limited: false };
		}
		this.limitedCount++;
		const ms = this.window[0] + windowMs - now;
		return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
	}

	stats(): RateLimitStats {
		return { limited: this.limitedCount, counted: this.countedCount };
	}

	clear(): void {
		this.window = [];
		this.limitedCount = 0;
		this.countedCount = 0;
	}
}
