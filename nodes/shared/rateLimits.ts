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

const FIELD_OF: Record<RateCategory, string> = {
	bulkSms: 'rateLimitBulkSms',
	campaign: 'rateLimitCampaign',
	chatApp: 'rateLimitChatApp',
	exoPhone: 'rateLimitExoPhone',
	generalGet: 'rateLimitGeneralGet',
	sms: 'rateLimitSms',
	userManagement: 'rateLimitUserManagement',
	voice: 'rateLimitVoice',
};

/**
 * The credential fields for accounts whose limits differ from the defaults: a switch, then one
 * number per category the credential's requests fall in.
 */
export function rateLimitCredentialFields(categories: RateCategory[]): INodeProperties[] {
	const show = { displayOptions: { show: { customRateLimits: [true] } } };
	return [
		{
			displayName: 'Custom Rate Limits',
			name: 'customRateLimits',
			type: 'boolean',
			default: false,
			description: "Whether the account has rate limits other than the service's defaults (some enterprise accounts do)",
		},
		...[...categories].sort().map(
			(category): INodeProperties => ({
				displayName: `${RATE_CATEGORIES[category].displayName} (Requests per Minute)`,
				name: FIELD_OF[category],
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PER_MINUTE, numberPrecision: 0 },
				default: RATE_CATEGORIES[category].perMinute,
				description: `The account's limit for ${RATE_CATEGORIES[category].covers}`,
				...show,
			}),
		),
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
	const value = credentials[FIELD_OF[category]];
	if (value === undefined || value === null || value === '') return fallback;
	const perMinute = Number(value);
	if (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > MAX_PER_MINUTE) {
		return `${RATE_CATEGORIES[category].displayName} (Requests per Minute) in the credential must be a whole number from 1 to ${MAX_PER_MINUTE.toLocaleString('en-US')} (got ${JSON.stringify(value)})`;
	}
	return perMinute;
}
