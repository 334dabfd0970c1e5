/**
 * Everything the simulated service remembers between requests. Handler groups keep their data
 * here so that reset() clears it all in one place; later work adds stores next to these. The
 * records' shapes are in stored.ts.
 */
import { SANDBOX_DEVICE_USER_ID, SANDBOX_GREENVN_POOL } from './fixtures';
import type { ShortLink } from './links';
import type {
	AllocationRecord,
	CcmUser,
	CcSession,
	CcUser,
	ChatAppWebhookConfig,
	ContactUpload,
	DeviceStatus,
	GreenvnPoolEntry,
	StoredCall,
	StoredCampaign,
	StoredChatAppMessage,
	StoredContact,
	StoredList,
	StoredRcsMessage,
	StoredSmsMessage,
} from './stored';

/**
 * The allocation pool: the fixture's numbers, then generated Bangalore landlines
 * (+918047100000, +918047100001, …) up to `size` (never fewer than the fixture's).
 */
export function greenvnPool(size = SANDBOX_GREENVN_POOL.length): GreenvnPoolEntry[] {
	const pool: GreenvnPoolEntry[] = SANDBOX_GREENVN_POOL.map((entry) => ({ ...entry }));
	for (let i = 0; pool.length < size; i++) pool.push({ number: `+9180471${String(i).padStart(5, '0')}`, region: 'KA', type: 'landline' });
	return pool;
}

/** Device state the integrations API starts with. */
export function seededDevices(): DeviceStatus[] {
	return [
		{
			userId: SANDBOX_DEVICE_USER_ID,
			phone: { enabled: true, number: '+919876500001' },
			sip: { enabled: true, username: 'user1.sandbox', registered: true, lastSeen: '2026-01-01T09:00:00Z' },
		},
	];
}

/**
 * Where the sandbox's records of what it sent begin, and why there: a person's answer to a number
 * nothing was sent to says it (callbacks/person.ts). `why` reads after "since <time>".
 */
export interface RecordsStart {
	since: number;
	why: string;
}

/** The records of a sandbox without a state file: they begin when it started. */
export const IN_MEMORY_RECORDS = 'when it started: it keeps its records in memory only, so what it sent before a restart is gone';

export class SandboxState {
	readonly smsMessages = new Map<string, StoredSmsMessage>();

	/** DLT templates by id (SandboxOptions.dltTemplates): configuration, kept across reset(). */
	readonly dltTemplates = new Map<string, string>();

	/**
	 * Live mode (SandboxOptions.live, setLive): answers and callbacks as the live service's recorded
	 * traffic shows them rather than as the spec writes them (README, "Live mode"). Configuration, kept
	 * across reset().
	 */
	live = false;

	/** Where the records of what it sent begin (set on start, restore and reset). */
	records: RecordsStart = { since: Date.now(), why: IN_MEMORY_RECORDS };

	/** Short links of SMS sent with ShortenUrl=true, by code (`GET /s/<code>`; links.ts). */
	readonly shortLinks = new Map<string, ShortLink & { smsSid: string }>();

	readonly sessions = new Map<string, CcSession>();

	loginCount = 0;

	readonly ccUsers = new Map<string, CcUser>();

	nextCcUserId = 1001;

	readonly allocations = new Map<string, AllocationRecord>();

	/** Numbers not held by an active allocation, in pool order. */
	freeGreenvns: GreenvnPoolEntry[] = [];

	/** Every number of the allocation pool (see greenvnPool); set before reset(). */
	private pool: readonly GreenvnPoolEntry[] = SANDBOX_GREENVN_POOL;

	readonly devices = new Map<string, DeviceStatus>();

	readonly contactUploads = new Map<string, ContactUpload>();

	/** Campaigns by id (handlers/campaigns.ts); seeded on first use after a reset. */
	readonly campaigns = new Map<string, StoredCampaign>();

	campaignsSeeded = false;

	/** Campaign lists and contacts by sid (handlers/listStore.ts); seeded on first use after a reset. */
	readonly lists = new Map<string, StoredList>();

	readonly contacts = new Map<string, StoredContact>();

	listsSeeded = false;

	/** v1 calls by sid, seeded and placed (handlers/calls.ts); seeded on first use after a reset. */
	readonly calls = new Map<string, StoredCall>();

	callsSeeded = false;

	/** Management API users by id (handlers/users.ts); seeded on first use after a reset. */
	readonly ccmUsers = new Map<string, CcmUser>();

	ccmUsersSeeded = false;

	readonly rcsMessages = new Map<string, StoredRcsMessage>();

	readonly chatAppMessages = new Map<string, StoredChatAppMessage>();

	/** Set by PUT .../chatapp/webhook, cleared by DELETE (a sandbox convenience). */
	chatAppWebhook: ChatAppWebhookConfig | null = null;

	constructor(greenvnPoolSize?: number) {
		this.pool = greenvnPool(greenvnPoolSize);
		this.reset();
		this.records = { since: Date.now(), why: IN_MEMORY_RECORDS };
	}

	reset(): void {
		this.records = { since: Date.now(), why: 'when it was reset, which forgets everything it sent' };
		this.smsMessages.clear();
		this.shortLinks.clear();
		this.sessions.clear();
		this.loginCount = 0;
		this.ccUsers.clear();
		this.nextCcUserId = 1001;
		this.allocations.clear();
		this.freeGreenvns = this.pool.map((entry) => ({ ...entry }));
		this.devices.clear();
		for (const device of seededDevices()) this.devices.set(device.userId, device);
		this.contactUploads.clear();
		this.campaigns.clear();
		this.campaignsSeeded = false;
		this.lists.clear();
		this.contacts.clear();
		this.listsSeeded = false;
		this.calls.clear();
		this.callsSeeded = false;
		this.ccmUsers.clear();
		this.ccmUsersSeeded = false;
		this.rcsMessages.clear();
		this.chatAppMessages.clear();
		this.chatAppWebhook = null;
	}

	/** Invalidates every issued contact-center session; returns how many were live. */
	expireSessions(): number {
		let n = 0;
		for (const session of this.sessions.values()) {
			if (session.live) n++;
			session.live = false;
		}
		return n;
	}

	/** The pool entry of a number, to put it back in the free list. */
	poolEntry(number: string): GreenvnPoolEntry | undefined {
		const entry = this.pool.find((e) => e.number === number);
		return entry ? { ...entry } : undefined;
	}

	liveSession(sessionId: string | undefined): CcSession | undefined {
		if (!sessionId) return undefined;
		const session = this.sessions.get(sessionId);
		return session?.live ? session : undefined;
	}
}
