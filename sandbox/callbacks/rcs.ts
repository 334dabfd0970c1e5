/**
 * RCS callbacks: the delivery reports (dlr) of an accepted RCS message by the recipient's
 * reachability (sent, delivered, seen; a failure; or a failure with the SMS fallback's report),
 * and an incoming RCS message on demand. Unsigned.
 */
import { rcsReachabilityOf, SANDBOX_CHATAPP_CUSTOMER, SANDBOX_RCS_BOT_ID } from '../fixtures';
import type { StoredRcsMessage } from '../stored';
import { hex, inputObject, isObj, isoWithOffset, jsonPost, latest, optString, overlay, payloadOption, signatureOption, type Obj } from './payload';
import { SMS_TERMINAL, smsUnitsOf } from './sms';
import { CALLBACK_TIMING, CallbackInputError, type DeliveryRequest, type PayloadContext, type ScheduledReport } from './types';

export const RCS_STATUS = {
	sent: { code: 40001, name: 'EX_MESSAGE_SENT', description: 'Message sent to the user' },
	delivered: { code: 40002, name: 'EX_MESSAGE_DELIVERED', description: 'Message delivered to the user' },
	seen: { code: 40003, name: 'EX_MESSAGE_SEEN', description: 'Message seen by the user' },
	failed: { code: 40004, name: 'EX_SYSTEM_ERROR', description: 'Delivery failed: the recipient is not RCS capable' },
} as const;

export const RCS_INCOMING_TYPES = ['text', 'file', 'location', 'suggested', 'error'] as const;

export type RcsIncomingType = (typeof RCS_INCOMING_TYPES)[number];

function rcsContentDefault(type: RcsIncomingType): unknown {
	const id = hex(12);
	switch (type) {
		case 'text':
			return 'Hello from the sandbox';
		case 'file':
			return {
				url: `https://media.sandbox.invalid/rcs/${id}.jpg`,
				name: 'photo.jpg',
				type: 'image/jpeg',
				size: 48213,
				thumbnail_url: `https://media.sandbox.invalid/rcs/${id}-thumb.jpg`,
				thumbnail_type: 'image/jpeg',
				thumbnail_size: 2048,
			};
		case 'location':
			return { latitude: 12.9716, longitude: 77.5946 };
		case 'suggested':
			return { response: { reply: { text: 'Yes', postback_data: 'CONFIRM_YES' } } };
		case 'error':
			return { code: 'UNSUPPORTED_CONTENT', message: 'The user sent content the bot cannot receive' };
	}
}

function rcsEntry(m: StoredRcsMessage, status: { code: number; name: string; description: string }): Obj {
	const entry: Obj = {
		callback_type: 'dlr',
		sid: m.sid,
		to: m.to,
		exo_status_code: status.code,
		exo_detailed_status: status.name,
		description: status.description,
		timestamp: isoWithOffset(),
	};
	if (m.customData !== undefined) entry.custom_data = m.customData;
	return entry;
}

/** The delivery reports of accepted RCS messages (those without a status_callback have none). */
export function rcsDlrReports(messages: readonly StoredRcsMessage[]): ScheduledReport[] {
	const reports: ScheduledReport[] = [];
	for (const m of messages) {
		const url = m.statusCallback;
		if (!url) continue;
		const report = (delayMs: number, body: () => unknown) =>
			reports.push({
				delayMs,
				make: () => jsonPost(url, 'rcs-dlr', body(), false, { messageSid: m.sid }),
			});
		const reach = rcsReachabilityOf(m.to);
		if (reach === 'capable') {
			report(CALLBACK_TIMING.sentMs, () => ({ rcs: { messages: [rcsEntry(m, RCS_STATUS.sent)] } }));
			report(CALLBACK_TIMING.deliveredMs, () => ({ rcs: { messages: [rcsEntry(m, RCS_STATUS.delivered)] } }));
			report(CALLBACK_TIMING.seenMs, () => ({ rcs: { messages: [rcsEntry(m, RCS_STATUS.seen)] } }));
		} else if (!m.fallback) {
			report(CALLBACK_TIMING.deliveredMs, () => ({ rcs: { messages: [rcsEntry(m, RCS_STATUS.failed)] } }));
		} else {
			const fallback = m.fallback;
			const triggered = reach === 'not-capable';
			const smsSid = hex(32);
			const channelSid = hex(32);
			report(CALLBACK_TIMING.deliveredMs, () => {
				const sms = triggered ? SMS_TERMINAL.sent : SMS_TERMINAL.fallbackNotTriggered;
				const smsEntry: Obj = {
					callback_type: 'dlr',
					sid: smsSid,
					channel_sid: triggered ? channelSid : null,
					to: m.to,
					exo_status_code: sms.code,
					exo_detailed_status: sms.name,
					description: triggered ? 'SMS fallback delivered to the handset' : sms.description,
					sms_units: triggered ? smsUnitsOf(fallback.content.text, fallback.content.encoding_type) : null,
					timestamp: isoWithOffset(),
				};
				if (m.customData !== undefined) smsEntry.custom_data = m.customData;
				const failure = {
					...RCS_STATUS.failed,
					description: triggered
						? 'Delivery failed: the recipient is not RCS capable; the SMS fallback was triggered'
						: 'Delivery failed: the recipient is not RCS capable; the SMS fallback could not be triggered',
				};
				return { rcs: { messages: [rcsEntry(m, failure)] }, sms: { messages: [smsEntry] } };
			});
		}
	}
	return reports;
}

/**
 * An RCS incoming message (unsigned). Input: `{url?, type? ('text'), from?, to?, sid?, timestamp?,
 * <type>? (the content field: a string for text, an object otherwise, merged over the default),
 * content? (the complete content object), payload?, signature?}`. `url` defaults to the
 * status_callback of the latest RCS message sent to `from` (a reply goes there, per the spec).
 */
export function rcsIncomingRequest(raw: unknown, ctx: PayloadContext): DeliveryRequest {
	const input = inputObject(raw);
	const from = optString(input, 'from') ?? SANDBOX_CHATAPP_CUSTOMER;
	const replyTo = latest(ctx.state.rcsMessages.values(), (m) => m.to === from && !!m.statusCallback);
	const url = optString(input, 'url') ?? replyTo?.statusCallback;
	if (!url) {
		throw new CallbackInputError(
			'url is required (the sandbox has no default RCS URL, and no RCS message with a status_callback was sent to from)',
		);
	}
	const signature = signatureOption(input);
	const custom = payloadOption(input);
	if (custom) {
		return { url, kind: 'rcs-incoming', ...custom, contentType: 'application/json', signByDefault: false, signature };
	}
	let content: unknown;
	if (input.content !== undefined) {
		if (!isObj(input.content)) throw new CallbackInputError('content must be an object');
		content = input.content;
	} else {
		const type = input.type ?? 'text';
		if (typeof type !== 'string' || !(RCS_INCOMING_TYPES as readonly string[]).includes(type)) {
			throw new CallbackInputError(`type must be one of: ${RCS_INCOMING_TYPES.join(', ')} (or give content or payload)`);
		}
		content = { type, [type]: overlay(rcsContentDefault(type as RcsIncomingType), input[type]) };
	}
	const entry = {
		callback_type: 'incoming_message',
		sid: optString(input, 'sid') ?? hex(32),
		from,
		to: optString(input, 'to') ?? replyTo?.from ?? SANDBOX_RCS_BOT_ID,
		timestamp: optString(input, 'timestamp') ?? isoWithOffset(),
		content,
	};
	return jsonPost(url, 'rcs-incoming', { rcs: { messages: [entry] } }, false, { signature });
}
