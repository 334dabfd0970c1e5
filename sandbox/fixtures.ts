/**
 * Identities the sandbox accepts. Tests, `npm run dev` and the real-n8n harness all build
 * their credentials from these, so a secret used anywhere in the suite is recognisable here.
 */
export const SANDBOX_ACCOUNT = {
	accountSid: 'exotelsandbox1',
	apiKey: 'sbx-dummy-api-key-4f9c',
	apiToken: 'sbx-dummy-api-token-SECRET-91d2e7',
	/** Accepted as `Authorization: Bearer` on the integrations, configuration and contact-upload bases. */
	bearerToken: 'sbx-dummy-bearer-SECRET-7a11c0',
	ccUserId: 'agent.sandbox',
	ccToken: 'sbx-dummy-cc-token-SECRET-55b3',
	allocUsername: 'alloc.sandbox',
	allocPassword: 'sbx-dummy-alloc-password-SECRET-c4e8',
	webhookSigningSecret: 'sbx-dummy-signing-SECRET-0e6f2a',
	/**
	 * The URL Secret of the call-flow credential: the call-flow examples' flow files (examples/call-flows/)
	 * carry it in their trigger URLs, as a flow builder's applet URL would.
	 */
	callFlowSecret: 'sbx-dummy-call-flow-SECRET-3b7d',
} as const;

/** Ids and names of the sandbox credentials that `npm run dev` imports and the example workflows refer to. */
export const SANDBOX_CREDENTIAL_IDS: Record<string, { id: string; name: string }> = {
	exotelApi: { id: 'exotelSandboxApi', name: 'Exotel Sandbox' },
	exotelBearerTokenApi: { id: 'exotelSandboxBearer', name: 'Exotel Sandbox (bearer)' },
	exotelContactCenterApi: { id: 'exotelSandboxCc', name: 'Exotel Sandbox (contact center)' },
	exotelAllocationApi: { id: 'exotelSandboxAlloc', name: 'Exotel Sandbox (allocation)' },
	exotelCallFlowApi: { id: 'exotelSandboxCallFlow', name: 'Exotel Sandbox (call flow)' },
};

/** Path prefixes under the sandbox origin that stand for the spec's base URLs. */
export const SANDBOX_BASE_PREFIX = {
	base: '',
	ccm: '/ccm',
	integrations: '/integrations',
	cms: '/cms',
	cc: '/cc',
	alloc: '/alloc',
} as const;

export type SandboxBase = keyof typeof SANDBOX_BASE_PREFIX;

export function sandboxBaseUrls(origin: string): Record<SandboxBase, string> {
	const out = {} as Record<SandboxBase, string>;
	for (const [base, prefix] of Object.entries(SANDBOX_BASE_PREFIX)) {
		out[base as SandboxBase] = origin + prefix;
	}
	return out;
}

/** Credential data, as n8n stores it, pointing each credential type at a sandbox. */
export function sandboxCredentialData(origin: string, options: { live?: boolean } = {}) {
	const urls = sandboxBaseUrls(origin);
	return {
		exotelApi: {
			apiKey: SANDBOX_ACCOUNT.apiKey,
			apiToken: SANDBOX_ACCOUNT.apiToken,
			accountSid: SANDBOX_ACCOUNT.accountSid,
			region: 'custom',
			baseUrl: urls.base,
			ccmBaseUrl: urls.ccm,
			// Live mode answers as a live account on Exotel's hosts, where Auto means these and nothing is signed.
			...(options.live
				? { chatAppEnvelope: 'whatsapp', timeZone: 'Asia/Kolkata', webhookSigningSecret: '' }
				: { webhookSigningSecret: SANDBOX_ACCOUNT.webhookSigningSecret }),
		},
		exotelBearerTokenApi: {
			token: SANDBOX_ACCOUNT.bearerToken,
			accountSid: SANDBOX_ACCOUNT.accountSid,
			integrationsBaseUrl: urls.integrations,
			cmsBaseUrl: urls.cms,
			ccmBaseUrl: urls.ccm,
			contactCenterId: '1',
		},
		exotelContactCenterApi: {
			ccBaseUrl: urls.cc,
			userId: SANDBOX_ACCOUNT.ccUserId,
			token: SANDBOX_ACCOUNT.ccToken,
			terminalInfo: 'n8n',
			forceLogin: true,
			sessionId: '',
		},
		exotelAllocationApi: {
			allocBaseUrl: urls.alloc,
			accountSid: SANDBOX_ACCOUNT.accountSid,
			username: SANDBOX_ACCOUNT.allocUsername,
			password: SANDBOX_ACCOUNT.allocPassword,
		},
		// the Call Flow Trigger's: nothing of it points at the sandbox (the service calls n8n, not the other way)
		exotelCallFlowApi: {
			secret: SANDBOX_ACCOUNT.callFlowSecret,
			allowedAddresses: '',
		},
	};
}

/** Virtual numbers the allocation API hands out, in order (region and type answer `preferences`). */
export const SANDBOX_GREENVN_POOL: ReadonlyArray<{
	number: string;
	region: string;
	type: 'mobile' | 'landline';
}> = [
	{ number: '+918047091001', region: 'KA', type: 'landline' },
	{ number: '+912247091002', region: 'MU', type: 'landline' },
	{ number: '+919999091003', region: 'DL', type: 'mobile' },
	{ number: '+914447091004', region: 'TN', type: 'landline' },
];

/** Contact center that exists on the configuration server (any other id answers 404 CONF-1001). */
export const SANDBOX_CONTACT_CENTER_ID = 1;

/** User id the integrations (device status) API knows. */
export const SANDBOX_DEVICE_USER_ID = 'user-1';

/**
 * RCS templates the sandbox treats as approved for the brand (any bot id): these names, plus any
 * name starting with SANDBOX_RCS_APPROVED_PREFIX. Another name fails its entry (40006 SETUP_ERROR).
 */
export const SANDBOX_RCS_TEMPLATES: readonly string[] = ['order_update', 'otp_code', 'delivery_slot'];

export const SANDBOX_RCS_APPROVED_PREFIX = 'approved_';

export function isApprovedRcsTemplate(name: string): boolean {
	return SANDBOX_RCS_TEMPLATES.includes(name) || name.startsWith(SANDBOX_RCS_APPROVED_PREFIX);
}

/**
 * Valid E.164 numbers that are not on the chat app: a chat-app send to one is accepted (202) but
 * its entry fails with 30012 INVALID_RECIPIENT.
 */
export const SANDBOX_CHATAPP_UNREACHABLE: readonly string[] = ['+919800000000', '+14155550100'];

/**
 * Recipients whose delivery reports tell a failure (callbacks/). Matched on the last four digits
 * of the number as accepted (whitespace removed):
 * - SMS ending in `0099`: Status `failed_dnd`, 23005 FAILED_DND; ending in `0098`: Status `failed`,
 *   24105 FAILED_HANDSET_ERROR. Any other number: Status `sent`, 20005 DELIVERED_TO_HANDSET.
 * - RCS ending in `0077`: not RCS capable: 40004 EX_SYSTEM_ERROR, with the SMS fallback's report in
 *   the same body when the message has a fallback; ending in `0076`: not RCS capable and the fallback
 *   cannot be triggered (the `sms` entry has `channel_sid` and `sms_units` null, 24010 FAILED_SYSTEM_ERROR).
 * - Chat app ending in `0088`: 30001 EX_MESSAGE_SENT, then 30004 EX_SYSTEM_ERROR (no 30002/30003).
 */
export const SANDBOX_CALLBACK_RULES = {
	smsDndSuffix: '0099',
	smsFailedSuffix: '0098',
	rcsNotCapableSuffix: '0077',
	rcsFallbackFailsSuffix: '0076',
	chatAppFailsSuffix: '0088',
} as const;

/**
 * A caller the service refuses: `Calls/connect` with this number as From or CallerId answers HTTP 503
 * `{RestException: {Status: 503, Message: 'Service Unavailable; ', Code: 35008}}` (XML on the path
 * without `.json` in live mode) and places nothing, as the live service did for one caller number
 * while others worked: a refusal with a reason, not a passing overload (live-service.md).
 */
export const SANDBOX_REFUSED_CALLER = '+918047119999';

/** Default numbers of sandbox-made incoming messages (`from` the end user, `to` the business). */
export const SANDBOX_CHATAPP_CUSTOMER = '+919812345678';
export const SANDBOX_CHATAPP_BUSINESS_NUMBER = '+918047090000';
export const SANDBOX_RCS_BOT_ID = 'exotel_sandbox_bot';

export type SandboxSmsOutcome = 'sent' | 'failed_dnd' | 'failed';

export function smsOutcomeFor(to: string): SandboxSmsOutcome {
	const n = to.replace(/\s+/g, '');
	if (n.endsWith(SANDBOX_CALLBACK_RULES.smsDndSuffix)) return 'failed_dnd';
	if (n.endsWith(SANDBOX_CALLBACK_RULES.smsFailedSuffix)) return 'failed';
	return 'sent';
}

/** 'capable', 'not-capable' (fallback triggered when given) or 'fallback-fails'. */
export function rcsReachabilityOf(to: string): 'capable' | 'not-capable' | 'fallback-fails' {
	if (to.endsWith(SANDBOX_CALLBACK_RULES.rcsNotCapableSuffix)) return 'not-capable';
	if (to.endsWith(SANDBOX_CALLBACK_RULES.rcsFallbackFailsSuffix)) return 'fallback-fails';
	return 'capable';
}

export function chatAppDeliveryFails(to: string): boolean {
	return to.endsWith(SANDBOX_CALLBACK_RULES.chatAppFailsSuffix);
}

// ---------------------------------------------------------------- campaigns, lists and contacts

export interface SandboxContactSeed {
	sid: string;
	phone_number: string;
	first_name?: string;
	last_name?: string;
	email?: string;
	company?: string;
	tag?: string;
	custom_field_1?: string;
}

/**
 * Campaign lists the sandbox starts with (sids readable on purpose). `contact-1` is in two lists,
 * so removing it from one shows that the contact itself stays.
 */
export const SANDBOX_LISTS: ReadonlyArray<{ sid: string; name: string; contacts: readonly SandboxContactSeed[] }> = [
	{
		sid: 'list-1',
		name: 'Bengaluru customers',
		contacts: [
			{ sid: 'contact-1', phone_number: '+919845000001', first_name: 'Asha', last_name: 'Rao', email: 'asha@acme.example', company: 'Acme', tag: 'gold' },
			{ sid: 'contact-2', phone_number: '+919845000002', first_name: 'Ravi', last_name: 'Kumar', tag: 'silver' },
			{ sid: 'contact-3', phone_number: '+919845000003', first_name: 'Meera', last_name: 'Iyer', custom_field_1: 'renewal-due' },
			{ sid: 'contact-4', phone_number: '+919845000097', first_name: 'Busy', last_name: 'Line' },
			{ sid: 'contact-5', phone_number: '+919845000005', first_name: 'Kiran', company: 'Globex' },
		],
	},
	{
		sid: 'list-2',
		name: 'Mumbai leads',
		contacts: [
			{ sid: 'contact-1', phone_number: '+919845000001', first_name: 'Asha', last_name: 'Rao', email: 'asha@acme.example', company: 'Acme', tag: 'gold' },
			{ sid: 'contact-6', phone_number: '+912245000006', first_name: 'Sameer', last_name: 'Shah' },
			{ sid: 'contact-7', phone_number: '+912245000007', first_name: 'Priya', last_name: 'Nair', email: 'priya@initech.example' },
		],
	},
	{ sid: 'list-3', name: 'Empty list', contacts: [] },
];

/** A generated list large enough to page through (contacts `big-contact-1..`, phones `+91984600xxxxx`). */
export const SANDBOX_BIG_LIST = {
	sid: 'list-big',
	name: 'All subscribers',
	size: 1203,
	contactSidPrefix: 'big-contact-',
	phonePrefix: '+9198460',
} as const;

/**
 * Outcome of a campaign call by the last four digits of the number called; any other number
 * answers (`completed`). Retries repeat the same outcome.
 */
export const SANDBOX_CAMPAIGN_CALL_RULES = {
	busySuffix: '0097',
	noAnswerSuffix: '0096',
	failedSuffix: '0095',
} as const;

export function campaignCallOutcomeFor(number: string): 'completed' | 'busy' | 'no-answer' | 'failed' {
	const n = number.replace(/\s+/g, '');
	if (n.endsWith(SANDBOX_CAMPAIGN_CALL_RULES.busySuffix)) return 'busy';
	if (n.endsWith(SANDBOX_CAMPAIGN_CALL_RULES.noAnswerSuffix)) return 'no-answer';
	if (n.endsWith(SANDBOX_CAMPAIGN_CALL_RULES.failedSuffix)) return 'failed';
	return 'completed';
}

/** The account's call limit per minute: a custom `throttle` may be 1 to this minus 1. */
export const SANDBOX_CAMPAIGN_ACCOUNT_CALL_LIMIT = 60;

export interface SandboxCampaignSeed {
	id: string;
	name: string;
	status: 'Created' | 'InProgress' | 'Paused' | 'Completed' | 'Archived';
	numbers: readonly string[];
	/** How many of the numbers were already called. */
	placed: number;
	/** Created only: `send_at` this many ms after the reset. */
	sendAtInMs?: number;
	/** Days before the reset the campaign was created (for sorting). */
	ageDays: number;
}

const seedNumbers = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(4, '0')}`);

/**
 * Campaigns the sandbox starts with, one per status (ids readable on purpose). The in-progress one
 * has 12 calls placed of 30 (3 of them busy, no-answer and failed), the next one due a minute
 * (× timeScale) after the reset.
 */
export const SANDBOX_CAMPAIGNS: readonly SandboxCampaignSeed[] = [
	{ id: 'cmp-created', name: 'Diwali offers', status: 'Created', numbers: seedNumbers('+91984520', 3), placed: 0, sendAtInMs: 86_400_000, ageDays: 1 },
	{
		id: 'cmp-inprogress',
		name: 'Payment reminders',
		status: 'InProgress',
		numbers: ['+919845210095', '+919845210096', '+919845210097', ...seedNumbers('+91984521', 27)],
		placed: 12,
		ageDays: 2,
	},
	{ id: 'cmp-paused', name: 'Feedback survey', status: 'Paused', numbers: seedNumbers('+91984522', 10), placed: 4, ageDays: 3 },
	{ id: 'cmp-completed', name: 'Renewal notice', status: 'Completed', numbers: seedNumbers('+91984523', 6), placed: 6, ageDays: 4 },
	{ id: 'cmp-archived', name: 'Old promotion', status: 'Archived', numbers: seedNumbers('+91984524', 2), placed: 2, ageDays: 5 },
];
