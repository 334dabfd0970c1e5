/**
 * The campaign lists and their contacts as the service holds them: seeded from fixtures on first
 * use after a reset, and grown by contact uploads (handlers/contacts.ts) once their processing
 * time has passed. The list routes (lists.ts), the uploads (contacts.ts) and the campaigns
 * (campaigns.ts) all read them through here, so none of them needs another's routes.
 */
import { SANDBOX_BIG_LIST, SANDBOX_LISTS } from '../fixtures';
import { isoTimestamp, randomHex } from '../http';
import type { SandboxState } from '../state';
import { CONTACT_COLUMNS, type ContactUpload, type StoredContact } from '../stored';

const PHONE_PATTERN = /^\+[1-9]\d{7,14}$/;

/** A new list or contact sid: 32 hex, as the service's other ids. */
const newSid = () => randomHex(32);

/** Seeds lists and contacts from fixtures once per reset. */
export function ensureListsSeeded(state: SandboxState): void {
	if (state.listsSeeded) return;
	state.listsSeeded = true;
	const start = Date.now() - 30 * 86_400_000;
	let minute = 0;
	const stamp = () => isoTimestamp(new Date(start + minute++ * 60_000));
	const addContact = (sid: string, fields: StoredContact['fields']) => {
		const at = stamp();
		state.contacts.set(sid, { sid, fields: { ...fields }, dateCreated: at, dateUpdated: at });
	};
	for (const list of SANDBOX_LISTS) {
		for (const contact of list.contacts) {
			if (!state.contacts.has(contact.sid)) {
				const { sid, ...fields } = contact;
				addContact(sid, fields);
			}
		}
		const at = stamp();
		state.lists.set(list.sid, {
			sid: list.sid,
			name: list.name,
			contactSids: list.contacts.map((c) => c.sid),
			dateCreated: at,
			dateUpdated: at,
		});
	}
	const big: string[] = [];
	for (let i = 0; i < SANDBOX_BIG_LIST.size; i++) {
		const sid = `${SANDBOX_BIG_LIST.contactSidPrefix}${i + 1}`;
		addContact(sid, {
			phone_number: `${SANDBOX_BIG_LIST.phonePrefix}${String(i).padStart(5, '0')}`,
			first_name: `Subscriber ${i + 1}`,
		});
		big.push(sid);
	}
	const at = stamp();
	state.lists.set(SANDBOX_BIG_LIST.sid, { sid: SANDBOX_BIG_LIST.sid, name: SANDBOX_BIG_LIST.name, contactSids: big, dateCreated: at, dateUpdated: at });
}

/** Everything a list route needs first: the seed, and uploads that finished since the last look. */
export function prepareListState(state: SandboxState): void {
	ensureListsSeeded(state);
	settleContactUploads(state);
}

/** Phone numbers already known in the job's scope: its list's contacts, else every contact. */
function scopeOf(state: SandboxState, job: ContactUpload): Map<string, StoredContact> {
	const list = job.listId ? state.lists.get(job.listId) : undefined;
	const contacts = list
		? list.contactSids.map((sid) => state.contacts.get(sid)).filter((c): c is StoredContact => !!c)
		: [...state.contacts.values()];
	return new Map(contacts.map((contact) => [contact.fields.phone_number, contact]));
}

/**
 * Applies every job whose processing time has passed: a record with an E.164 phone_number becomes
 * a contact (successful); one without is failed; a phone already in scope (the list, else all
 * contacts, including earlier rows of the same file) is skipped with `skip`, updated (non-empty
 * cells only) with `update`, and added again as a new contact with `create_new`.
 */
export function settleContactUploads(state: SandboxState, now = Date.now()): void {
	ensureListsSeeded(state);
	for (const job of state.contactUploads.values()) {
		if (job.settled || now < job.completesAt) continue;
		job.settled = true;
		const list = job.listId ? state.lists.get(job.listId) : undefined;
		const known = scopeOf(state, job);
		let successful = 0;
		let failed = 0;
		let duplicatesSkipped = 0;
		const at = isoTimestamp();
		for (const record of job.records ?? []) {
			const phone = (record.phone_number ?? '').trim();
			if (!PHONE_PATTERN.test(phone) || record.malformed === 'true') {
				failed++;
				continue;
			}
			const fields: StoredContact['fields'] = { phone_number: phone };
			for (const column of CONTACT_COLUMNS) {
				const value = record[column]?.trim();
				if (column !== 'phone_number' && value) fields[column] = value;
			}
			const existing = known.get(phone);
			if (existing && job.duplicateAction === 'skip') {
				duplicatesSkipped++;
				continue;
			}
			if (existing && job.duplicateAction === 'update') {
				Object.assign(existing.fields, fields);
				existing.dateUpdated = at;
				if (list && !list.contactSids.includes(existing.sid)) list.contactSids.push(existing.sid);
				successful++;
				continue;
			}
			const contact: StoredContact = { sid: newSid(), fields, dateCreated: at, dateUpdated: at };
			state.contacts.set(contact.sid, contact);
			if (list) list.contactSids.push(contact.sid);
			known.set(phone, contact);
			successful++;
		}
		if (list) list.dateUpdated = at;
		job.successful = successful;
		job.failed = failed;
		job.duplicatesSkipped = duplicatesSkipped;
		job.records = undefined;
	}
}
