/**
 * Links in SMS bodies: finding them, and the service's URL shortening (`ShortenUrl=true`), which
 * replaces each http(s) URL in the body the handset receives by a short link of the sandbox,
 * `<origin>/s/<code>`, answered 302 to the long URL (shortLinkAnswer; server.ts serves it).
 */
import { randomBytes } from 'crypto';

/** Where a short link lives under the sandbox origin: `/s/<code>`. */
export const SHORT_LINK_PREFIX = '/s/';

/** A short-link code: 8 url-safe characters (6 random bytes in base64url). */
export const SHORT_CODE_PATTERN = /^[A-Za-z0-9_-]{8}$/;

export interface ShortLink {
	code: string;
	/** `<sandbox origin>/s/<code>` */
	shortUrl: string;
	longUrl: string;
}

/** Everything from `http://` or `https://` up to whitespace or a quote or angle bracket. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/gi;

/** Characters that end a sentence rather than the URL before them. */
const TRAILING = /[.,;:!?)\]}]+$/;

/** The http(s) URLs of a text, in order (trailing sentence punctuation is not part of a URL). */
export function linksIn(text: string): Array<{ url: string; index: number }> {
	const found: Array<{ url: string; index: number }> = [];
	for (const match of text.matchAll(URL_IN_TEXT)) {
		const url = match[0].replace(TRAILING, '');
		if (/^https?:\/\/[^/?#]/i.test(url)) found.push({ url, index: match.index ?? 0 });
	}
	return found;
}

/** A fresh code not in `taken` (8 url-safe characters). */
export function newShortCode(taken: { has(code: string): boolean }): string {
	for (;;) {
		const code = randomBytes(6).toString('base64url');
		if (!taken.has(code)) return code;
	}
}

/**
 * The body the handset receives when URLs are shortened: every http(s) URL replaced by a short
 * link (the same URL twice in one body gets one link), and the links made, in order of appearance.
 */
export function shortenBody(
	body: string,
	origin: string,
	taken: { has(code: string): boolean },
): { deliveredBody: string; shortLinks: ShortLink[] } {
	const shortLinks: ShortLink[] = [];
	const byUrl = new Map<string, ShortLink>();
	const taken2 = { has: (code: string) => taken.has(code) || shortLinks.some((link) => link.code === code) };
	let deliveredBody = '';
	let at = 0;
	for (const { url, index } of linksIn(body)) {
		let link = byUrl.get(url);
		if (!link) {
			const code = newShortCode(taken2);
			link = { code, shortUrl: `${origin}${SHORT_LINK_PREFIX}${code}`, longUrl: url };
			byUrl.set(url, link);
			shortLinks.push(link);
		}
		deliveredBody += body.slice(at, index) + link.shortUrl;
		at = index + url.length;
	}
	deliveredBody += body.slice(at);
	return { deliveredBody, shortLinks };
}

/**
 * `GET /s/<code>`: a short link of an SMS sent with ShortenUrl=true answers 302 to its long URL.
 * Served like the control API (a handset's visit, not an API request): no auth, never recorded,
 * faulted or rate limited. HEAD answers the same without a body; an unknown code 404.
 */
export function shortLinkAnswer(
	method: string,
	code: string,
	find: (code: string) => ShortLink | undefined,
): { status: number; headers: Record<string, string>; body?: string } {
	const link = SHORT_CODE_PATTERN.test(code) ? find(code) : undefined;
	const upper = method.toUpperCase();
	const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
	let status: number;
	let body: string;
	if (upper !== 'GET' && upper !== 'HEAD') {
		status = 405;
		body = `${upper} is not allowed on a short link; allowed: GET, HEAD`;
		headers.allow = 'GET, HEAD';
	} else if (!link) {
		status = 404;
		body = `No such short link: ${SHORT_LINK_PREFIX}${code}`;
	} else {
		status = 302;
		body = `Found: ${link.longUrl}`;
		headers.location = link.longUrl;
	}
	return { status, headers, body: upper === 'HEAD' ? undefined : body };
}
