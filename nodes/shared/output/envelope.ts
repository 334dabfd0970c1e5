import type { IDataObject, INode } from 'n8n-workflow';

import type { ItemOutcome } from '../items/outcomes';
import { objectOf } from '../rules/values';
import { codeOf, messageItem, refusedEntry, sendStatusOf, textOf, unansweredEntry, type Channel } from './vocabulary';

/** The `response` list of a v2 answer as sent (entries `{code, status, data, error_data}` or bare objects); none when it is no list. */
export function responseEntries(body: unknown): unknown[] {
	const response = objectOf(body)?.response;
	return Array.isArray(response) ? response : [];
}

/**
 * The one object of a v2 answer, whichever envelope carries it: `response: [{code, status, data}]`
 * (create), `response: {code, status, data}`, `response: <object>` or the bare object.
 */
export function dataOf(body: unknown): IDataObject {
	const root = objectOf(body) ?? {};
	const response = root.response;
	if (Array.isArray(response)) {
		const first = objectOf(response[0]) ?? {};
		return objectOf(first.data) ?? first;
	}
	const inner = objectOf(response);
	if (inner) return objectOf(inner.data) ?? inner;
	return root;
}

/** Entries of a v2 listing: `response: [object]` or `response: [{code, status, data}]`. */
export function itemsOf(body: unknown): IDataObject[] {
	return responseEntries(body).map((entry) => {
		const object = objectOf(entry) ?? {};
		return objectOf(object.data) ?? object;
	});
}

/** The object of an integrations answer, `{data: <object>}`, or the bare answer. */
export function integrationDataOf(body: unknown): IDataObject {
	return (((body ?? {}) as IDataObject).data ?? body ?? {}) as IDataObject;
}

/** A v2 status as a key: `in-progress`, `InProgress`, `IN_PROGRESS` all read as `inprogress`. */
export function statusKey(status: unknown): string {
	return String(status ?? '')
		.toLowerCase()
		.replace(/[^a-z]/g, '');
}

/**
 * Reads the per-message entries of a v2 send envelope (HTTP 202):
 * `{request_id, metadata, response: {<channel>: {messages: [{code, error_data, status, data: {sid}}]}}}`
 * (`whatsapp` for the chat app's channel on the live service)
 * and gives each item its own outcome in the package's vocabulary (the entry under `raw`); entries
 * are in the order the messages were sent.
 */
export function envelopeOutcomes(
	node: INode,
	channel: Exclude<Channel, 'sms'>,
	body: unknown,
	itemIndexes: number[],
	sent: IDataObject[],
): ItemOutcome[] {
	const envelope = (body ?? {}) as IDataObject;
	const response = (envelope.response ?? {}) as IDataObject;
	// The live service answers a chat-app send under `whatsapp`, the reference under `chatapp`.
	const entries = objectOf(response[channel]) ?? (channel === 'chatapp' ? objectOf(response.whatsapp) : undefined);
	const messages = (entries?.messages ?? []) as IDataObject[];
	return itemIndexes.map((itemIndex, position) => {
		const entry = messages[position];
		if (!entry) {
			const requestId = { requestId: textOf(envelope.request_id) };
			return unansweredEntry(node, channel, itemIndex, sent[position] ?? {}, 'The envelope had fewer entries', requestId);
		}
		const data = (entry.data ?? {}) as IDataObject;
		const errorData = objectOf(entry.error_data) ?? {};
		const status = sendStatusOf(entry.status);
		const json = messageItem(
			{
				messageSid: textOf(data.sid),
				status,
				channel,
				to: textOf(sent[position]?.to),
				from: textOf(sent[position]?.from),
				// A refused message's code is the service's refusal code (error_data.code), as an SMS's is its
				// DetailedStatusCode; the entry's own HTTP-like code stays under raw.
				code: (status === 'accepted' ? null : codeOf(errorData.code)) ?? codeOf(entry.code),
			},
			entry,
			{ requestId: textOf(envelope.request_id) },
		);
		if (json.status === 'accepted') return { itemIndex, json };
		return refusedEntry(node, itemIndex, json, {
			reason: `${String(errorData.message ?? entry.status)}${errorData.code !== undefined ? ` (code ${String(errorData.code)})` : ''}`,
			description: String(errorData.description ?? 'The service reported a failure for this message; the other messages of the request are unaffected.'),
			httpCode: String(envelope.http_code ?? 202),
		});
	});
}
