/**
 * Everything the simulated service remembers between requests. Handler groups keep their data
 * here so that reset() clears it all in one place; later work adds stores next to these.
 */
import { SANDBOX_DEVICE_USER_ID, SANDBOX_GREENVN_POOL } from './fixtures';

export interface StoredSmsMessage {
	sid: string;
	accountSid: string;
	/** Which endpoint accepted it. */
	endpoint: 'send' | 'bulksend';
	/** Id of the recorded request that carried it. */
	requestId: number;
	/** Sender as given (the answer adds `/<suffix>`). */
	from: string;
	to: string;
	body: string;
	status: string;
	detailedStatusCode: number;
	detailedStatus: string;
	dateCreated: string;
	dateUpdated: string;
	dateSent: string | null;
	smsUnits: number | null;
	statusCallback?: string;
	customField?: string;
	smsType?: string;
	dltEntityId?: string;
	dltTemplateId?: string;
	encodingType?: string;
	priority?: string;
	shortenUrl?: string;
	shortenUrlParams?: { header?: string; tracking?: string; clickTrackingCallbackUrl?: string };
}

export interface CcSession {
	sessionId: string;
	userId: string;
	terminalInfo: string;
	loginTime: number;
	live: boolean;
}

export interface CcUser {
	ccUserId: number;
	userId: string;
	userType: string;
	userName: string;
	contactCenterId: number;
	systemUserType: string;
	defaultReady: boolean;
	userData?: string;
	description?: string;
	loginPolicy: string;
	maxAllowedLogins: string | number;
	mappingUserId: string | null;
}

export interface Allocation {
	connection_id: string;
	aparty_numbers: string[];
	bparty_numbers: string[];
	aparty_pins: number[];
	bparty_pins: number[];
	usage: 'oneway' | 'twoway';
	greenvn: string;
	greenvn_id: string;
	state: 'active' | 'vault';
	flow_id?: string;
}

export interface AllocationRecord {
	allocation: Allocation;
	strictness: boolean;
	preferences?: Record<string, unknown>;
	deallocationPolicy?: { duration: string };
	createdAt: number;
	deallocatedAt?: number;
}

export interface GreenvnPoolEntry {
	number: string;
	region: string;
	type: 'mobile' | 'landline';
}

export interface DeviceStatus {
	userId: string;
	phone: { enabled: boolean; number: string };
	sip: { enabled: boolean; username: string; registered: boolean; lastSeen: string };
	updatedAt?: string;
}

export interface ContactUpload {
	uploadId: string;
	listId?: string;
	duplicateAction: 'skip' | 'update' | 'create_new';
	totalRecords: number;
	successful: number;
	failed: number;
	duplicatesSkipped: number;
	estimatedTimeSeconds: number;
	acceptedAt: number;
	/** Real ms epoch at which the job reports `completed` (timeScale applied). */
	completesAt: number;
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

export class SandboxState {
	readonly smsMessages = new Map<string, StoredSmsMessage>();

	readonly sessions = new Map<string, CcSession>();

	loginCount = 0;

	readonly ccUsers = new Map<string, CcUser>();

	nextCcUserId = 1001;

	readonly allocations = new Map<string, AllocationRecord>();

	/** Numbers not held by an active allocation, in pool order. */
	freeGreenvns: GreenvnPoolEntry[] = [];

	readonly devices = new Map<string, DeviceStatus>();

	readonly contactUploads = new Map<string, ContactUpload>();

	constructor() {
		this.reset();
	}

	reset(): void {
		this.smsMessages.clear();
		this.sessions.clear();
		this.loginCount = 0;
		this.ccUsers.clear();
		this.nextCcUserId = 1001;
		this.allocations.clear();
		this.freeGreenvns = SANDBOX_GREENVN_POOL.map((entry) => ({ ...entry }));
		this.devices.clear();
		for (const device of seededDevices()) this.devices.set(device.userId, device);
		this.contactUploads.clear();
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
		const entry = SANDBOX_GREENVN_POOL.find((e) => e.number === number);
		return entry ? { ...entry } : undefined;
	}

	liveSession(sessionId: string | undefined): CcSession | undefined {
		if (!sessionId) return undefined;
		const session = this.sessions.get(sessionId);
		return session?.live ? session : undefined;
	}
}
