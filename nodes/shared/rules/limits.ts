/**
 * The spec's limit tables, in one place. Validation reads these; nothing else hard-codes a limit.
 * Messaging: messaging.md § Limits. Voice and allocation: voice-contact-center-allocation.md § Limits.
 */
export const LIMITS = {
	sms: {
		bodyLength: 2000,
		recipientsPerStaticBulk: 100,
		messagesPerDynamicBulk: 100,
	},
	rcs: {
		messagesPerRequest: 100,
	},
	chatApp: {
		replyButtons: 3,
		replyButtonTitle: 20,
		replyButtonId: 256,
		listButtonLabel: 20,
		listSections: 10,
		listRowsTotal: 10,
		listRowTitle: 24,
		listRowDescription: 72,
		listRowId: 200,
		listSectionTitle: 24,
		headerText: 60,
		body: 1024,
		footer: 60,
	},
	voice: {
		timeLimitSeconds: 14400,
		bulkQuerySids: 100,
		bulkQueryNumbers: 5,
		bulkQueryPageSize: 100,
		bulkQueryHistoryMonths: 6,
		bulkQueryRangeMonths: 1,
		recordingUrlValidityMin: 5,
		recordingUrlValidityMax: 60,
	},
	campaign: {
		fromNumbers: 5000,
		listsStatic: 5,
		listsDynamic: 1,
		retriesMax: 3,
		nameMinLength: 3,
		listLimit: 500,
		bulkListRename: 5000,
	},
	users: { listLimit: 50 },
	contactUpload: { maxBytes: 10 * 1024 * 1024, maxRecords: 50_000, extension: '.csv' },
} as const;

/** Regions an allocation preference may name. */
export const ALLOCATION_REGIONS = ['AP', 'DL', 'GJ', 'KA', 'KL', 'MH', 'MP', 'MU', 'RJ', 'TN', 'WB'] as const;
