import type { ICredentialDataDecryptedObject, INodeProperties } from 'n8n-workflow';

/**
 * The service's rate limits: per account, per minute, by endpoint category (its public
 * rate-limiting page; shared/notes/service-facts.md). Enterprise accounts may have others, so a
 * credential can override each one.
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

/** What the requests of no documented category are paced to: the general figure of the service's older material. */
export const UNCATEGORISED_PER_MINUTE = 200;

const MAX_PER_MINUTE = 100_000;

/**
 * The category a request counts against, from its method and path (the path as the node builds
 * it, `{accountSid}` not yet filled in); undefined for a write the page names no category for.
 */
export function rateCategoryOf(request: { base: string; method: string; path: string }): RateCategory | undefined {
	const { base, method, path } = request;
	if (/\/Sms\/bulksend$/i.test(path)) return 'bulkSms';
	if (/\/Sms\//i.test(path)) return 'sms';
	if (/\/calls(\/|\.json|$)/i.test(path) || /\/downloadVoiceLog$/.test(path)) return 'voice';
	if (/^\/v2\/accounts\/[^/]+\/(messages|chatapp)(\/|$)/.test(path)) return 'chatApp';
	if (method === 'GET') return 'generalGet';
	if (base === 'alloc') return 'exoPhone';
	if (/^\/v2\/accounts\/[^/]+\/(campaigns|lists|contacts)(\/|$)/.test(path)) return 'campaign';
	if (/\/users(\/|$)|\/contactCenterUsers(\/|$)|\/devices$/.test(path)) return 'userManagement';
	return undefined;
}

/** One number per category, shown once Custom Rate Limits is on; defaults as documented. */
const RATE_LIMIT_FIELDS: Readonly<Record<RateCategory, INodeProperties>> = {
	bulkSms: {
		displayName: 'Bulk SMS (Requests per Minute)',
		name: 'rateLimitBulkSms',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 50,
		description: "The account's limit for Sms/bulksend: SMS Send with different texts, Send and Wait",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	campaign: {
		displayName: 'Campaign (Requests per Minute)',
		name: 'rateLimitCampaign',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 30,
		description: "The account's limit for creating and changing campaigns, lists and contacts",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	chatApp: {
		displayName: 'Chat App (Requests per Minute)',
		name: 'rateLimitChatApp',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 200,
		description: "The account's limit for WhatsApp and RCS sends, webhook settings",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	exoPhone: {
		displayName: 'ExoPhone (Requests per Minute)',
		name: 'rateLimitExoPhone',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 50,
		description: "The account's limit for virtual number allocation",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	generalGet: {
		displayName: 'General GET (Requests per Minute)',
		name: 'rateLimitGeneralGet',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 300,
		description: "The account's limit for every other read",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	sms: {
		displayName: 'SMS (Requests per Minute)',
		name: 'rateLimitSms',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 200,
		description: "The account's limit for Sms/send: one message, or one text to many",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	userManagement: {
		displayName: 'User Management (Requests per Minute)',
		name: 'rateLimitUserManagement',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 50,
		description: "The account's limit for creating and changing users and their devices",
		displayOptions: { show: { customRateLimits: [true] } },
	},
	voice: {
		displayName: 'Voice (Requests per Minute)',
		name: 'rateLimitVoice',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
		default: 200,
		description: "The account's limit for making calls, call details and voice logs",
		displayOptions: { show: { customRateLimits: [true] } },
	},
};

/**
 * The credential fields for accounts whose limits differ from the defaults: a switch, then one
 * number per category the credential's requests fall in.
 */
export function rateLimitCredentialFields(categories: RateCategory[]): INodeProperties[] {
	return [
		{
			displayName: 'Custom Rate Limits',
			name: 'customRateLimits',
			type: 'boolean',
			default: false,
			description: "Whether the account has rate limits other than the service's defaults (some enterprise accounts do)",
		},
		...[...categories].sort().map((category) => RATE_LIMIT_FIELDS[category]),
	];
}

/**
 * The account's limit for a category in requests a minute: the credential's own when it sets
 * custom limits, else the documented default. A value that is not a whole number in range is the
 * credential's error, named, never a silent default.
 */
export function perMinuteOf(credentials: ICredentialDataDecryptedObject, category: RateCategory | undefined): number | string {
	if (category === undefined) return UNCATEGORISED_PER_MINUTE;
	const fallback = RATE_CATEGORIES[category].perMinute;
	if (credentials.customRateLimits !== true) return fallback;
	const value = credentials[RATE_LIMIT_FIELDS[category].name];
	if (value === undefined || value === null || value === '') return fallback;
	const perMinute = Number(value);
	if (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > MAX_PER_MINUTE) {
		return `${RATE_CATEGORIES[category].displayName} (Requests per Minute) in the credential must be a whole number from 1 to ${MAX_PER_MINUTE.toLocaleString('en-US')} (got ${JSON.stringify(value)})`;
	}
	return perMinute;
}
