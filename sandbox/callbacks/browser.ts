/**
 * Opening a link of an SMS as a person in a browser, or as a link-preview bot. The requests go
 * through the dispatcher (loopback only, the acknowledgement timeout, cancelled by reset/stop);
 * here is what a browser and a bot do with the answers.
 *
 * - bot: one GET and one HEAD of the long URL (the short link resolved without an HTTP hop) with a
 *   preview bot's User-Agent, nothing else (no redirect followed, no form submitted).
 * - person: GET of what the handset shows (the sandbox's short link, whose 302 counts as a
 *   redirect, else the URL) with a browser's User-Agent, cookies kept, redirects followed (at most
 *   3 in all, loopback only); a 200 HTML page holding a `<form method="post">` is submitted once, as
 *   `application/x-www-form-urlencoded`, with its hidden inputs and its submit button's name/value.
 */
import type { OpenLinkPlan } from './person';

export const PERSON_USER_AGENT =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

export const BOT_USER_AGENT = 'WhatsApp/2.23.20.0 A (link preview bot)';

/** Redirects a person's browser follows in one open, in all. */
export const MAX_REDIRECTS = 3;

/** Characters of each answer kept in `bodyExcerpt`. */
export const EXCERPT_CHARS = 500;

/** What one request got back (the dispatcher's exchange). */
export interface LinkResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
	error?: string;
}

/** One request to a loopback URL; refuses (status 0, error) anything else. */
export type LinkFetch = (
	url: string,
	init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<LinkResponse>;

/** One request made while opening the link, and what it got. */
export interface OpenedPage {
	method: string;
	url: string;
	/** HTTP status, 0 when there was no answer (see error). */
	status: number;
	contentType: string | null;
	/** The first 500 characters of the answer's body ('' for HEAD). */
	bodyExcerpt: string;
	/** The form body sent (the POST of a form only). */
	requestBody?: string;
	/** The Location of a redirect. */
	location?: string;
	/** Why there was no (complete) answer: 'ECONNREFUSED', 'timeout after 5000 ms', 'cancelled'... */
	error?: string;
}

export interface OpenLinkResult {
	ok: true;
	/** The SMS whose link was opened. */
	sid: string;
	as: 'person' | 'bot';
	/** The link tapped: the short link of the body (null when not shortened) and the URL it stands for. */
	link: { shortUrl: string | null; longUrl: string };
	/** Every request, in order. */
	pages: OpenedPage[];
	/** Why the person's browser stopped before the end (a redirect not followed, a form not submitted). */
	stopped?: string;
}

// ---------------------------------------------------------------- HTML

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
		if (name[0] === '#') {
			const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
			return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
		}
		return ENTITIES[name.toLowerCase()] ?? whole;
	});
}

/** The attributes of a tag's inside (`method="post" action=''`), names lower-cased, values decoded. */
export function attributesOf(inside: string): Record<string, string> {
	const attributes: Record<string, string> = {};
	const pattern = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g;
	for (const m of inside.matchAll(pattern)) {
		const name = m[1].toLowerCase();
		if (name in attributes) continue;
		attributes[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
	}
	return attributes;
}

export interface PostForm {
	/** As written ('' when absent). */
	action: string;
	/** Hidden inputs, then the submit button's name and value when it has a name. */
	fields: Array<[string, string]>;
}

/** The first `<form>` of a page whose method is post (any case), with what submitting it sends. */
export function findPostForm(html: string): PostForm | undefined {
	for (const form of html.matchAll(/<form\b([^>]*)>([\s\S]*?)(?:<\/form\s*>|$)/gi)) {
		const attributes = attributesOf(form[1]);
		if ((attributes.method ?? '').trim().toLowerCase() !== 'post') continue;
		const fields: Array<[string, string]> = [];
		let submit: [string, string] | undefined;
		let submitSeen = false;
		for (const control of form[2].matchAll(/<(input|button)\b([^>]*)>/gi)) {
			const tag = control[1].toLowerCase();
			const a = attributesOf(control[2]);
			const type = (a.type ?? (tag === 'button' ? 'submit' : 'text')).toLowerCase();
			if (tag === 'input' && type === 'hidden' && a.name) fields.push([a.name, a.value ?? '']);
			if (!submitSeen && type === 'submit') {
				submitSeen = true;
				if (a.name) submit = [a.name, a.value ?? ''];
			}
		}
		if (submit) fields.push(submit);
		return { action: attributes.action ?? '', fields };
	}
	return undefined;
}

// ---------------------------------------------------------------- opening

function header(response: LinkResponse, name: string): string | undefined {
	const value = response.headers[name];
	return Array.isArray(value) ? value.join(', ') : value;
}

function pageOf(method: string, url: string, response: LinkResponse, requestBody?: string): OpenedPage {
	const page: OpenedPage = {
		method,
		url,
		status: response.status,
		contentType: header(response, 'content-type') ?? null,
		bodyExcerpt: response.body.toString('utf8').slice(0, EXCERPT_CHARS),
	};
	if (requestBody !== undefined) page.requestBody = requestBody;
	const location = header(response, 'location');
	if (location !== undefined && response.status >= 300 && response.status < 400) page.location = location;
	if (response.error !== undefined) page.error = response.error;
	return page;
}

const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);

function isLoopbackHttp(url: URL): boolean {
	return (url.protocol === 'http:' || url.protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname.toLowerCase());
}

/** Cookies by host, as a browser keeps them for this open only (name=value; attributes ignored but Max-Age=0). */
class CookieJar {
	private readonly byHost = new Map<string, Map<string, string>>();

	take(url: URL, response: LinkResponse): void {
		const raw = response.headers['set-cookie'];
		const lines = Array.isArray(raw) ? raw : raw ? [raw] : [];
		for (const line of lines) {
			const [pair, ...attributes] = line.split(';');
			const eq = pair.indexOf('=');
			if (eq <= 0) continue;
			const name = pair.slice(0, eq).trim();
			const value = pair.slice(eq + 1).trim();
			const jar = this.byHost.get(url.hostname) ?? new Map<string, string>();
			this.byHost.set(url.hostname, jar);
			const expired = attributes.some((a) => /^\s*max-age\s*=\s*(-\d+|0)\s*$/i.test(a));
			if (expired) jar.delete(name);
			else jar.set(name, value);
		}
	}

	header(url: URL): string | undefined {
		const jar = this.byHost.get(url.hostname);
		if (!jar || jar.size === 0) return undefined;
		return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
	}
}

async function openAsBot(plan: OpenLinkPlan, fetchLink: LinkFetch): Promise<OpenLinkResult> {
	const headers = { 'user-agent': BOT_USER_AGENT, accept: '*/*' };
	const pages: OpenedPage[] = [];
	for (const method of ['GET', 'HEAD']) {
		const response = await fetchLink(plan.link.longUrl, { method, headers });
		pages.push(pageOf(method, plan.link.longUrl, response));
		if (response.error === 'cancelled') break;
	}
	return { ok: true, sid: plan.sid, as: 'bot', link: plan.link, pages };
}

/** One request of a navigation. */
interface PageRequest {
	method: string;
	url: URL;
	body?: string;
	referer?: string;
}

type Navigated = { url: URL; response: LinkResponse } | { stopped: string };

/** A person's browser for one open: the pages it requested, its cookies, the redirects it followed. */
class PersonBrowser {
	readonly pages: OpenedPage[] = [];

	private readonly jar = new CookieJar();

	private redirects = 0;

	constructor(private readonly fetchLink: LinkFetch) {}

	/** One navigation: the request and its redirects. Resolves with the last answer, or why it stopped. */
	async navigate(first: PageRequest): Promise<Navigated> {
		let request = first;
		for (;;) {
			const { method, url, body } = request;
			const response = await this.fetchLink(url.toString(), { method, headers: this.headersFor(request), body });
			this.pages.push(pageOf(method, url.toString(), response, body));
			if (response.error === 'cancelled') return { stopped: 'cancelled' };
			if (response.error !== undefined && response.status === 0) return { stopped: `no answer from ${url.toString()}: ${response.error}` };
			this.jar.take(url, response);
			const location = header(response, 'location');
			if (!isRedirect(response.status) || location === undefined) return { url, response };
			const next = this.redirectOf(request, response.status, location);
			if ('stopped' in next) return next;
			request = next;
		}
	}

	private headersFor({ url, body, referer }: PageRequest): Record<string, string> {
		const headers: Record<string, string> = {
			'user-agent': PERSON_USER_AGENT,
			accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
			'accept-language': 'en-IN,en;q=0.9',
		};
		const cookie = this.jar.header(url);
		if (cookie) headers.cookie = cookie;
		if (referer) headers.referer = referer;
		if (body !== undefined) {
			headers['content-type'] = 'application/x-www-form-urlencoded';
			headers['content-length'] = String(Buffer.byteLength(body));
			headers.origin = new URL(referer ?? url.toString()).origin;
		}
		return headers;
	}

	/** The request a redirect leads to (a 303, or a 301/302 after a POST, turns into a GET), or why it is not followed. */
	private redirectOf(request: PageRequest, status: number, location: string): PageRequest | { stopped: string } {
		let next: URL;
		try {
			next = new URL(location, request.url);
		} catch {
			return { stopped: `redirect to an invalid Location not followed: ${location}` };
		}
		if (this.redirects >= MAX_REDIRECTS) return { stopped: `more than ${MAX_REDIRECTS} redirects: ${next.toString()} not followed` };
		if (!isLoopbackHttp(next)) return { stopped: `redirect to a non-loopback URL not followed: ${next.toString()}` };
		this.redirects++;
		const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
		const referer = request.url.toString();
		return toGet ? { method: 'GET', url: next, referer } : { method: request.method, url: next, body: request.body, referer };
	}
}

/** The POST of the page's form, when the page is 200 HTML holding one; or why it is not submitted. */
function formPostOf({ url, response }: { url: URL; response: LinkResponse }): PageRequest | { stopped: string } | undefined {
	const contentType = (header(response, 'content-type') ?? '').toLowerCase();
	if (response.status !== 200 || !contentType.includes('html')) return undefined;
	const form = findPostForm(response.body.toString('utf8'));
	if (!form) return undefined;
	let action: URL;
	try {
		// An empty action is the page itself (query included, fragment dropped).
		action = new URL(form.action.trim(), url);
	} catch {
		return { stopped: `the form's action is not a URL: ${form.action}` };
	}
	if (!isLoopbackHttp(action)) return { stopped: `the form posts to a non-loopback URL: ${action.toString()} (not submitted)` };
	return { method: 'POST', url: action, body: new URLSearchParams(form.fields).toString(), referer: url.toString() };
}

async function openAsPerson(plan: OpenLinkPlan, fetchLink: LinkFetch): Promise<OpenLinkResult> {
	const browser = new PersonBrowser(fetchLink);
	const result = (stopped?: string): OpenLinkResult => {
		const out: OpenLinkResult = { ok: true, sid: plan.sid, as: 'person', link: plan.link, pages: browser.pages };
		if (stopped !== undefined) out.stopped = stopped;
		return out;
	};
	// The person taps what the handset shows: the sandbox's short link (its 302 is the first redirect), else the URL.
	const opened = await browser.navigate({ method: 'GET', url: new URL(plan.link.shortUrl ?? plan.link.longUrl) });
	if ('stopped' in opened) return result(opened.stopped);
	const post = formPostOf(opened);
	if (!post) return result();
	if ('stopped' in post) return result(post.stopped);
	const submitted = await browser.navigate(post);
	return result('stopped' in submitted ? submitted.stopped : undefined);
}

/** Opens the planned link as a person (browse, submit the page's post form) or as a preview bot (GET + HEAD). */
export function openLinkAs(plan: OpenLinkPlan, fetchLink: LinkFetch): Promise<OpenLinkResult> {
	return plan.as === 'bot' ? openAsBot(plan, fetchLink) : openAsPerson(plan, fetchLink);
}
