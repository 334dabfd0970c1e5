// What the send operations of every channel share: their sender and recipient fields, and how they send.
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';

import type { ItemOutcome } from '../shared/items/outcomes';
import { parameterReader, type GivenParameters, type ParameterReader } from '../shared/items/parameters';
import { sendInBatches } from '../shared/items/sendInBatches';
import { batchesOf } from '../shared/items/sending';
import { unsentMessages, type Channel } from '../shared/output/vocabulary';
import type { FormValue } from '../shared/transport/encoding';
import { exotelRequest } from '../shared/transport/request';

/** The v2 send endpoint of RCS and chat-app messages. */
export const V2_MESSAGES_PATH = '/v2/accounts/{accountSid}/messages';

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
	path: string;
	/** v1 body, form-encoded. */
	form?: Record<string, FormValue>;
	/** v2 body, JSON. */
	body?: IDataObject;
	/** The messages it carries, in the order the answer lists them. */
	sent: SentMessage[];
	outcomesOf(answer: unknown): ItemOutcome[];
}

/**
 * A send operation's run (see sendInBatches): the prepared messages made into requests, each
 * POSTed and its answer read into its messages' outcomes. A request that fails as a whole gives
 * each of its messages the same failure, `unknown` where the service may have acted on it.
 */
export async function sendMessages<Prepared>(
	context: IExecuteFunctions,
	channel: Channel,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => Prepared | NodeOperationError,
	requestsOf: (prepared: Prepared[]) => MessageRequest[],
): Promise<INodeExecutionData[]> {
	return await sendInBatches(context, items, prepare, requestsOf, {
		send: async ({ path, form, body, sent, outcomesOf }) => {
			const response = await exotelRequest.call(context, { base: 'base', method: 'POST', path, form, body, itemIndex: sent[0].itemIndex });
			return outcomesOf(response.body);
		},
		failed: ({ sent }, error) => unsentMessages(channel, sent, error),
	});
}

/** One item's message, and the request-level values it goes with: items with equal ones may share a request. */
export interface BatchedMessage<Message, RequestLevel> {
	itemIndex: number;
	message: Message;
	requestLevel: RequestLevel;
}

/**
 * One message per item, batched: messages with equal request-level values go out together, at
 * most `size` to a request, so the service's own limit is never reached. `given` parameters are
 * not read from the node (a waiting operation's resume URL).
 */
export async function sendBatched<Message, RequestLevel>(
	context: IExecuteFunctions,
	channel: Channel,
	items: INodeExecutionData[],
	size: number,
	prepare: (node: INode, param: ParameterReader, itemIndex: number) => BatchedMessage<Message, RequestLevel> | NodeOperationError,
	requestOf: (node: INode, batch: Array<BatchedMessage<Message, RequestLevel>>) => MessageRequest,
	given: GivenParameters = {},
): Promise<INodeExecutionData[]> {
	const node = context.getNode();
	const param = parameterReader(context, given);
	return await sendMessages(
		context,
		channel,
		items,
		(itemIndex) => prepare(node, param, itemIndex),
		(prepared) => batchesOf(prepared, (message) => JSON.stringify(message.requestLevel), size).map((batch) => requestOf(node, batch)),
	);
}
