// What the send operations of every channel share: their sender and recipient fields, and how a request of messages is sent.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemOutcome } from '../shared/items/outcomes';
import type { BatchSending } from '../shared/items/sendInBatches';
import { batchesOf } from '../shared/items/sending';
import { unsentMessages, type Channel } from '../shared/output/vocabulary';
import type { FormValue } from '../shared/transport/encoding';
import type { Endpoint } from '../shared/transport/endpoint';
import { exotelRequest } from '../shared/transport/request';
import type { NodeRun } from '../shared/transport/run';

/** The sending number (or sender ID) of a send. */
export function senderField(description: string): INodeProperties {
	return {
		displayName: 'From',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+918047112233',
		description,
	};
}

/** The recipient of a send; `more` for a list of them. */
export function recipientField(description: string, more: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+919876543210',
		description,
		...more,
	};
}

/** A message as sent: the item it came from and its addressing, which its item shows whatever the answer. */
export interface SentMessage {
	itemIndex: number;
	to: unknown;
	from: unknown;
}

/** One POST of one or more messages, and how its answer gives each message its outcome. */
export interface MessageRequest {
	endpoint: Endpoint;
	/** v1 body, form-encoded. */
	form?: Record<string, FormValue>;
	/** v2 body, JSON. */
	body?: IDataObject;
	/** The messages it carries, in the order the answer lists them. */
	sent: SentMessage[];
	outcomesOf(answer: unknown): ItemOutcome[];
}

/**
 * How a send operation's requests go out (the sending of sendInBatches): each POSTed and its answer
 * read into its messages' outcomes. A request that fails as a whole gives each of its messages the
 * same failure, `unknown` where the service may have acted on it.
 */
export function messageSending(context: IExecuteFunctions, run: NodeRun, channel: Channel): BatchSending<MessageRequest> {
	return {
		send: async ({ endpoint, form, body, sent, outcomesOf }) => {
			const response = await exotelRequest(context, run, { endpoint, form, body, itemIndex: sent[0].itemIndex });
			return outcomesOf(response.body);
		},
		failed: ({ sent }, error) => unsentMessages(channel, sent, error),
	};
}

/** One item's message, and the request-level values it goes with: items with equal ones may share a request. */
export interface BatchedMessage<Message, RequestLevel> {
	itemIndex: number;
	message: Message;
	requestLevel: RequestLevel;
}

/**
 * The prepared messages as requests: messages with equal request-level values go out together, at
 * most `size` to a request, so the service's own limit is never reached.
 */
export function batchedRequests<Message, RequestLevel>(
	prepared: Array<BatchedMessage<Message, RequestLevel>>,
	size: number,
	requestOf: (batch: Array<BatchedMessage<Message, RequestLevel>>) => MessageRequest,
): MessageRequest[] {
	return batchesOf(prepared, (message) => JSON.stringify(message.requestLevel), size).map(requestOf);
}
