/**
 * The account rate limit as the sandbox holds it: off, a sliding window or the documented limits
 * (rate-limit.ts), switched at run time, and what it decides for each request the pipeline counts.
 */
import { apiError } from './http';
import { categoryOf, DocumentedRateLimiter, parseRateLimitConfig, parseRateLimitFill, RateLimiter } from './rate-limit';
import type { AnyRateLimitConfig, ErrorStyle, RateCategory, RateLimitStats, Reply, SandboxBase } from './types';

/** What the limiter decided for a request it saw (see AccountRateLimit.check). */
export interface RateOutcome {
	category?: RateCategory;
	/** added to whatever answers the request */
	headers?: Record<string, string>;
	/** set when refused */
	refuse?: (style: ErrorStyle, method: string) => Reply;
}

function newLimiter(input: AnyRateLimitConfig): RateLimiter | DocumentedRateLimiter {
	// validated first, so that an unknown mode from untyped callers is an error, not a sliding window
	const config = parseRateLimitConfig(input as unknown);
	return config.mode === 'documented' ? new DocumentedRateLimiter(config) : new RateLimiter(config);
}

export class AccountRateLimit {
	private limiter?: RateLimiter | DocumentedRateLimiter;

	constructor(config?: AnyRateLimitConfig) {
		if (config) this.limiter = newLimiter(config);
	}

	/** On (new, empty windows and zero counters) or off with null; throws on an invalid configuration. */
	set(config: AnyRateLimitConfig | null): void {
		this.limiter = config ? newLimiter(config) : undefined;
	}

	/** Another client's accepted requests, met by the next request counted (ExotelSandbox.fillRateLimit). */
	fill(fill: { category?: RateCategory; count: number }): void {
		const limiter = this.limiter;
		if (!limiter) throw new Error('no rate limit is on (set one first)');
		const documented = limiter instanceof DocumentedRateLimiter;
		const { category, count } = parseRateLimitFill(fill, documented);
		if (limiter instanceof DocumentedRateLimiter) limiter.fill(category!, count);
		else limiter.fill(count);
	}

	/** The configuration in effect (a copy), or null when off. */
	get config(): AnyRateLimitConfig | null {
		if (!this.limiter) return null;
		if (this.limiter instanceof DocumentedRateLimiter) {
			const config = this.limiter.config;
			return { ...config, limits: { ...config.limits } };
		}
		const { bases, ...rest } = this.limiter.config;
		return bases ? { ...rest, bases: [...bases] } : { ...rest };
	}

	stats(): RateLimitStats {
		return this.limiter?.stats() ?? { limited: 0, counted: 0 };
	}

	/** Empties the windows and the counters (the configuration stays). */
	clear(): void {
		this.limiter?.clear();
	}

	/**
	 * Counts the request when the limiter applies to it. Undefined when it does not; else the
	 * headers every answer to it carries (documented mode), its category (documented mode), and,
	 * when it is refused, the answer that replaces the handler's.
	 */
	check(base: SandboxBase, method: string, path: string, now: number): RateOutcome | undefined {
		const limiter = this.limiter;
		if (!limiter) return undefined;
		if (limiter instanceof DocumentedRateLimiter) {
			const category = categoryOf(base, method, path);
			if (!category) return undefined;
			const decision = limiter.check(category, now);
			const refusal = decision.limited ? limiter.refusal(category) : undefined;
			return { category, headers: limiter.headersFor(decision), refuse: refusal && (() => refusal) };
		}
		if (!limiter.applies(base)) return undefined;
		const decision = limiter.check(now);
		if (!decision.limited) return {};
		const { limit, windowMs, retryAfter } = limiter.config;
		const headers: Record<string, string> = retryAfter ? { 'retry-after': String(decision.retryAfterSeconds) } : {};
		// in the error family of the path, known once routed
		return {
			refuse: (style, requestMethod) => apiError(style, 429, `Rate limit exceeded: ${limit} requests per ${windowMs} ms`, { method: requestMethod, headers }),
		};
	}
}
