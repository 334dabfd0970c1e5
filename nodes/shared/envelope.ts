import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ItemOutcome } from './operation';
import { codeOf, messageItem, sendStatusOf, textOf, unansweredMessage, type Channel } from './vocabulary';

/**
 * Reads the per-message entries of a v2 send envelope (HTTP 202):
 * `{request_id, metadata, response: {<channel>: {messages: [{code, error_data, status, data: {sid}}]}}}`
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
	const messages = ((response[channel] as IDataObject | undefined)?.messages ?? []) as IDataObject[];
	return itemIndexes.map((itemIndex, position) => {
		const entry = messages[position];
		if (!entry) {
			return {
				itemIndex,
				json: { ...unansweredMessage(channel, sent[position] ?? {}), requestId: textOf(envelope.request_id) },
				error: new NodeApiError(node, {}, {
					message: 'The service answered without an entry for this message',
					description: 'The envelope had fewer entries than messages sent; the message may or may not have been accepted.',
					itemIndex,
				}),
			};
		}
		const data = (entry.data ?? {}) as IDataObject;
		const json = messageItem(
			{
				messageSid: textOf(data.sid),
				status: sendStatusOf(entry.status),
				channel,
				to: textOf(sent[position]?.to),
				from: textOf(sent[position]?.from),
				code: codeOf(entry.code),
			},
			entry,
			{ requestId: textOf(envelope.request_id) },
		);
		if (json.status === 'accepted') return { itemIndex, json };
		const errorData = (entry.error_data ?? {}) as IDataObject;
		return {
			itemIndex,
			json,
			error: new NodeApiError(node, { ...entry } as JsonObject, {
				message: `Message not accepted: ${String(errorData.message ?? entry.status)}${errorData.code !== undefined ? ` (code ${String(errorData.code)})` : ''}`,
				description: String(errorData.description ?? 'The service reported a failure for this message; the other messages of the request are unaffected.'),
				httpCode: String(envelope.http_code ?? 202),
				itemIndex,
			}),
		};
	});
}
