/**
 * The shapes of what the simulated service stores: one record type per resource, in the spec's
 * words where it has them. SandboxState (state.ts) keeps them; the handler groups and the callbacks
 * read and write them. It imports no handler, so that every part of the sandbox can name a record
 * without a loop back up.
 */
import type { ShortLink } from './links';

// ---------------------------------------------------------------- messages (handlers/sms.ts, handlers/messages.ts)

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
	/**
	 * Only with ShortenUrl=true: the body the handset shows, every http(s) URL of `body` replaced by
	 * a short link of the sandbox (`body` stays as sent), and those links in order of appearance.
	 */
	deliveredBody?: string;
	shortLinks?: ShortLink[];
}

export type RcsSmsType = 'transactional' | 'transactional_opt_in' | 'promotional';

/** The SMS fallback of an RCS message, as sent (spec field names). */
export interface RcsFallback {
	from: string;
	content: {
		text: string;
		sms_type: RcsSmsType;
		dlt_entity_id?: string;
		dlt_template_id?: string;
		encoding_type?: 'plain' | 'unicode';
		priority?: 'normal' | 'high';
		shorten_url?: boolean;
		shorten_url_params?: { custom_domain?: string; tracking?: boolean; click_tracking_callback_url?: string };
	};
}

/** An accepted RCS message (one `status: 'success'` entry of a send). */
export interface StoredRcsMessage {
	sid: string;
	accountSid: string;
	/** Id of the recorded request that carried it, and its position in `rcs.messages`. */
	requestId: number;
	index: number;
	/** Bot id. */
	from: string;
	to: string;
	template: { name: string; variables: Record<string, string> };
	fallback?: RcsFallback;
	/** Effective values: message level, else `rcs` channel level, else request level. */
	customData?: string;
	statusCallback?: string;
	/** ISO 8601 UTC. */
	acceptedAt: string;
}

export type ChatAppContentType =
	| 'text'
	| 'image'
	| 'audio'
	| 'video'
	| 'document'
	| 'sticker'
	| 'location'
	| 'contacts'
	| 'interactive';

/** An accepted chat-app message. */
export interface StoredChatAppMessage {
	sid: string;
	accountSid: string;
	requestId: number;
	from: string;
	to: string;
	contentType: ChatAppContentType;
	/** `interactive.type` (`button` or `list`) for interactive messages. */
	interactiveType?: 'button' | 'list';
	/** The `content` object as sent. */
	content: Record<string, unknown>;
	statusCallback?: string;
	customData?: string;
	acceptedAt: string;
}

/** The chat-app webhook configuration as stored (spec field names; absent optional fields are left out). */
export interface ChatAppWebhookConfig {
	incoming_message_url: string;
	status_callback_url?: string;
	verify_token?: string;
}

// ---------------------------------------------------------------- contact center (handlers/contactCenter.ts)

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

// ---------------------------------------------------------------- number allocation (handlers/allocation.ts)

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

// ---------------------------------------------------------------- devices (handlers/integrations.ts)

export interface DeviceStatus {
	userId: string;
	phone: { enabled: boolean; number: string };
	sip: { enabled: boolean; username: string; registered: boolean; lastSeen: string };
	updatedAt?: string;
}

// ---------------------------------------------------------------- contact lists and uploads (handlers/lists.ts, handlers/contacts.ts)

/** Columns of a contact, as the contact upload CSV names them. */
export const CONTACT_COLUMNS = [
	'phone_number',
	'first_name',
	'last_name',
	'email',
	'company',
	'tag',
	'custom_field_1',
] as const;

export type ContactColumn = (typeof CONTACT_COLUMNS)[number];

export interface StoredContact {
	sid: string;
	fields: Partial<Record<ContactColumn, string>> & { phone_number: string };
	dateCreated: string;
	dateUpdated: string;
}

export interface StoredList {
	sid: string;
	name: string;
	/** Contact sids, in the order they joined. */
	contactSids: string[];
	dateCreated: string;
	dateUpdated: string;
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
	/** Name of the uploaded file part, when it had one. */
	fileName?: string;
	/** The CSV rows by column, kept until the job completes and they become contacts. */
	records?: Array<Record<string, string | undefined>>;
	/** Whether the records were applied (contacts created, counts set). */
	settled?: boolean;
}

// ---------------------------------------------------------------- management API users (handlers/users.ts)

export interface CcmDevice {
	id: number;
	name: string;
	/** E.164 */
	contact_uri: string;
	type: 'tel';
	available: boolean;
	verified: boolean;
	status: 'free' | 'busy';
}

/** A user of the management API, spec field names (User (management API v2)). */
export interface CcmUser {
	id: string;
	first_name: string;
	last_name: string;
	email: string;
	email_verified: boolean;
	role: string;
	active_call: Record<string, unknown> | null;
	last_login: string;
	date_created: string;
	date_updated: string;
	devices: CcmDevice[];
}

// ---------------------------------------------------------------- calls (handlers/calls.ts and the call routes beside it)

export type V1CallStatus = 'in-progress' | 'completed' | 'failed' | 'busy' | 'no-answer';
export type CallOutcome = Exclude<V1CallStatus, 'in-progress'>;
export type CallDirection = 'inbound' | 'outbound-dial' | 'outbound-api';

export interface StoredCallLeg {
	status: CallOutcome;
	/** Simulated seconds this leg was on the call. */
	onCallDuration: number;
	answeredBy: 'Human' | 'Machine' | 'NotSure' | 'NA';
}

export interface StoredCall {
	sid: string;
	accountSid: string;
	parentCallSid: string | null;
	from: string;
	/** null for a call connected to a flow. */
	to: string | null;
	/** The virtual number used. */
	phoneNumberSid: string;
	direction: CallDirection;
	/** ms epoch of creation; StartTime is the same moment. */
	createdAt: number;
	/** What the call ends as. */
	outcome: CallOutcome;
	/** Simulated seconds from the start: answered (null when never), ended (= Duration). */
	answeredAfter: number | null;
	endedAfter: number;
	/** Real ms epoch from which the call reads as ended (timeScale applied; 0 for seeded calls). */
	endsAt: number;
	/** Decimal string of the final price. */
	price: string;
	recording: boolean;
	answeredBy: 'Human' | 'Machine' | 'NotSure' | null;
	legs: StoredCallLeg[];
	/** Whether the first leg is the agent (outbound calls of an agent), for the management API statuses. */
	agentFirst: boolean;
	/** Management API user handling the call, when there is one. */
	agentUserId?: string;
	customField?: string;
	/** What Calls/connect was given (placed calls only). */
	connect?: {
		callerId: string;
		url: string;
		callType?: string;
		timeLimit?: number;
		timeOut?: number;
		statusCallback?: string;
		statusCallbackEvents: Array<'answered' | 'terminal'>;
	};
}

// ---------------------------------------------------------------- campaigns (handlers/campaigns.ts)

export type CampaignStatus = 'Created' | 'InProgress' | 'Paused' | 'Completed' | 'Archived';

export type CallStatus = 'completed' | 'failed' | 'busy' | 'no-answer';

export interface CampaignRetries {
	number_of_retries: number;
	interval_mins?: number;
	mechanism?: 'Linear' | 'Exponential';
	on_status?: string[];
}

/** Campaign parameters as the service holds them (spec names). */
export interface CampaignParams {
	name: string;
	type: 'trans';
	caller_id: string;
	campaign_type: 'static' | 'dynamic';
	from?: string;
	lists?: string[];
	flow_type?: 'ivr' | 'greeting';
	url?: string;
	read_via_text?: string;
	call_duplicate_numbers: boolean;
	retries?: CampaignRetries;
	schedule?: { send_at?: string; end_at?: string };
	status_callback?: string;
	call_status_callback?: string;
	call_schedule_callback?: string;
	mode: 'auto' | 'custom';
	throttle?: number;
	custom_field?: string;
	repeat_menu_attempts: number;
}

export interface CampaignCallRecord {
	number: string;
	name: string | null;
	duration: number;
	date_created: string;
	status: CallStatus;
	digit: string | null;
	recording_url: string | null;
	start_time: string;
	end_time: string;
	caller_id: string;
	direction: 'Outgoing';
	call_sid: string;
	/** Sorting key (virtual ms epoch); not answered. */
	at: number;
}

export interface StoredCampaign {
	id: string;
	params: CampaignParams;
	status: CampaignStatus;
	createdMs: number;
	dateCreated: string;
	dateUpdated: string;
	/** Who is called, resolved from `from` or the lists' contacts when the parameters are set. */
	recipients: Array<{ number: string; name: string | null }>;
	/** Recipients called so far. */
	placed: number;
	/** Recipients whose last attempt answered, or not. */
	answered: number;
	unanswered: number;
	/** Recipients never called because the campaign was completed early (the spec: "marked failed"). */
	cancelled: number;
	calls: CampaignCallRecord[];
	/** Virtual ms epoch of the next call while InProgress. */
	nextCallAt: number | null;
}
