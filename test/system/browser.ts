/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- starts Debian's Chromium (process, fs); never shipped */
/**
 * Debian's Chromium (`/usr/bin/chromium`) driven by playwright-core, for tests of n8n's editor.
 * Never downloads a browser. The flags keep Chromium off the network: without
 * --disable-background-networking and friends it keeps trying (and failing) to reach Google's
 * hosts on this machine's closed network. Every request to a non-loopback address is aborted,
 * e.g. the editor's banner fetch from api.n8n.io.
 */
import fs from 'fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Screenshots for the docs are taken at this size. */
export const VIEWPORT = { width: 1440, height: 900 } as const;

const LOOPBACK = /^(http|ws)s?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//;

export async function launchChromium(): Promise<Browser> {
	if (!fs.existsSync(CHROMIUM_PATH)) {
		throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium)`);
	}
	return await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/**
 * A fresh context at `VIEWPORT`, logged in with an `n8n-auth=...` cookie for `baseUrl`, that
 * only reaches loopback addresses.
 */
export async function newEditorContext(browser: Browser, baseUrl: string, authCookie: string): Promise<BrowserContext> {
	const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' });
	await context.route((url) => !LOOPBACK.test(url.href), async (route) => await route.abort('blockedbyclient'));
	const separator = authCookie.indexOf('=');
	await context.addCookies([{ name: authCookie.slice(0, separator), value: authCookie.slice(separator + 1), url: baseUrl }]);
	return context;
}
