import type { ICredentialDataDecryptedObject, INodeProperties } from 'n8n-workflow';

/**
 * The service's rate limits: per account, per minute, by endpoint category (its public
 * rate-limiting page; shared/notes/service-facts.md). Each request's category is declared with its
 * endpoint (each node's `endpoints.ts`). Enterprise accounts may have others, so a credential can
 * override each one.
 */
export type RateCategory = 'bulkSms' | 'sms' | 'voice' | 'chatApp' | 'exoPhone' | 'campaign' | 'userManagement' | 'generalGet';

export const RATE_CATEGORIES: Readonly<Record<RateCategory, { displayName: string; perMinute: number; covers: string }>> = {
	bulkSms: { displayName: 'Bulk SMS', perMinute: 50, covers: 'Sms/bulksend: SMS Send with different texts, Send and Wait' },
	campaign: { displayName: 'Campaign', perMinute: 30, covers: 'creating and changing campaigns, lists and contacts' },
	chatApp: { displayName: 'Chat App', perMinute: 200, covers: 'WhatsApp and RCS sends, webhook settings' },
	exoPhone: { displayName: 'ExoPhone', perMinute: 50, covers: 'virtual number allocation' },
	generalGet: { displayName: 'General GET', perMinute: 300, covers: 'every other read' },
	sms: { displayName: 'SMS', perMinute: 200, covers: 'Sms/send: one message, or one text to many' },
	userManagement: { displayName: 'User Management', perMinute: 50, covers: 'creating and changing users and their devices' },
	voice: { displayName: 'Voice', perMinute: 200, covers: 'making calls, call details and voice logs' },
};

const MAX_PER_WINDOW = 100_000;
const MAX_WINDOW_SECONDS = 3_600;

/** A category's limit: requests a minute, or so many in each window of so long (an account counting in other windows). */
export type Rate = number | { limit: number; windowMs: number };

/** A category as a user may write it: any case, spaces, hyphens or underscores ("Bulk SMS", "bulkSms", "bulk_sms"). */
const normalise = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

const CATEGORY_BY_NAME: Readonly<Record<string, RateCategory>> = Object.freeze(
	Object.fromEntries(
		(Object.keys(RATE_CATEGORIES) as RateCategory[]).flatMap((category) => [
			[normalise(category), category],
			[normalise(RATE_CATEGORIES[category].displayName), category],
		]),
	),
);

/**
 * The credential field for accounts whose limits differ from the defaults. One optional text rather
 * than a switch and a number per category: n8n's public API makes a field shown by a switch
 * required whenever the switch is missing from a payload, which would break every credential
 * created or updated through it without the new field.
 */
export function rateLimitCredentialField(categories: RateCategory[]): INodeProperties {
	const listed = [...categories]
		.sort()
		.map((category) => `${RATE_CATEGORIES[category].displayName} ${RATE_CATEGORIES[category].perMinute}`)
		.join(', ');
	return {
		displayName: 'Custom Rate Limits',
		name: 'rateLimits',
		type: 'string',
		default: '',
		placeholder: 'Bulk SMS=100, Campaign=60',
		description: `Only for accounts whose limits differ from the service's defaults (some enterprise accounts): requests per minute by category, separated by commas, or per window in seconds when the account counts in other windows (Voice=20/10s). Defaults: ${listed}.`,
	};
}

/** The credential's Custom Rate Limits (a short text, read per request); a string is the error, naming the entry. */
function customLimits(text: string): Partial<Record<RateCategory, Rate>> | string {
	const limits: Partial<Record<RateCategory, Rate>> = {};
	for (const entry of text.split(/[,;\n]/).map((part) => part.trim()).filter(Boolean)) {
		const match = /^(.+?)\s*[=:]\s*(.*)$/.exec(entry);
		const name = match ? normalise(match[1]) : '';
		const category = Object.prototype.hasOwnProperty.call(CATEGORY_BY_NAME, name) ? CATEGORY_BY_NAME[name] : undefined;
		if (!match || !category) {
			return `Custom Rate Limits in the credential: "${entry}" is not a category and a number (write e.g. Bulk SMS=100; categories: ${Object.values(RATE_CATEGORIES).map((c) => c.displayName).join(', ')})`;
		}
		const rate = rateOfText(match[2]);
		if (rate === undefined) {
			return `Custom Rate Limits in the credential: ${RATE_CATEGORIES[category].displayName} must be a whole number of requests a minute from 1 to ${MAX_PER_WINDOW.toLocaleString('en-US')}, or per window of 1 to ${MAX_WINDOW_SECONDS.toLocaleString('en-US')} seconds as in 20/10s (got "${match[2]}")`;
		}
		limits[category] = rate;
	}
	return limits;
}

/** "50" (a minute) or "50/10s" (per window of 10 seconds); undefined unless whole numbers in range. */
function rateOfText(text: string): Rate | undefined {
	const match = /^(\d+)(?:\s*\/\s*(\d+)\s*s)?$/i.exec(text);
	if (!match) return undefined;
	const limit = Number(match[1]);
	const seconds = match[2] === undefined ? 60 : Number(match[2]);
	if (limit < 1 || limit > MAX_PER_WINDOW || seconds < 1 || seconds > MAX_WINDOW_SECONDS) return undefined;
	return match[2] === undefined ? limit : { limit, windowMs: seconds * 1000 };
}

/**
 * The account's limit for a category in requests a minute: the credential's own when it sets one,
 * else the documented default. A malformed entry is the credential's error, named, never a silent
 * default.
 */
export function rateOf(credentials: ICredentialDataDecryptedObject, category: RateCategory): Rate | string {
	const text = typeof credentials.rateLimits === 'string' ? credentials.rateLimits.trim() : '';
	const limits = text ? customLimits(text) : {};
	if (typeof limits === 'string') return limits;
	return limits[category] ?? RATE_CATEGORIES[category].perMinute;
}
