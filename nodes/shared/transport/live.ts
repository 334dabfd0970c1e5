// Where a live account speaks otherwise than the API reference: the chat app's envelope and the zone of v1 dates.
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { CHAT_APP_WEBHOOK, type ChatAppEnvelope, type Endpoint } from './endpoint';

export type { ChatAppEnvelope } from './endpoint';

/** The live service's zone for v1 date-times (public recorded traffic: +05:30 wall clock, no zone given). */
export const LIVE_TIME_ZONE = 'Asia/Kolkata';

/** Whether the credential points at Exotel's own hosts (a region) rather than a custom base URL. */
function onExotelHosts(credentials: ICredentialDataDecryptedObject): boolean {
	return credentials.region !== undefined && credentials.region !== 'custom';
}

/** The credential's Chat App Envelope; Auto is the live one on Exotel's hosts, the API reference's elsewhere. */
export function chatAppEnvelopeOf(credentials: ICredentialDataDecryptedObject): ChatAppEnvelope {
	const chosen = credentials.chatAppEnvelope;
	if (chosen === 'chatapp' || chosen === 'whatsapp') return chosen;
	return onExotelHosts(credentials) ? 'whatsapp' : 'chatapp';
}

/** One chat-app message as a send body: top-level fields (the reference) or one entry of `whatsapp.messages` (live). */
export function chatAppSendBody(
	envelope: ChatAppEnvelope,
	message: { from: string; to: string; content: IDataObject },
	request: { status_callback?: string; custom_data?: string },
): IDataObject {
	const requestLevel: IDataObject = {};
	if (request.status_callback) requestLevel.status_callback = request.status_callback;
	if (request.custom_data) requestLevel.custom_data = request.custom_data;
	if (envelope === 'chatapp') return { ...message, ...requestLevel };
	return { ...requestLevel, whatsapp: { messages: [message] } };
}

/** The webhooks request under the envelope's own path and key. */
export function chatAppWebhookRequest(envelope: ChatAppEnvelope, webhook: IDataObject): { endpoint: Endpoint; body: IDataObject } {
	return { endpoint: CHAT_APP_WEBHOOK[envelope], body: { [envelope]: { webhook } } };
}

/**
 * The zone v1 date filters are written in: the credential's Account Time Zone, else India on
 * Exotel's hosts; undefined on a custom base URL without one (dates go as typed, as the reference
 * names no zone).
 */
export function accountTimeZoneOf(credentials: ICredentialDataDecryptedObject): string | undefined {
	const given = String(credentials.timeZone ?? '').trim();
	if (given) return given;
	return onExotelHosts(credentials) ? LIVE_TIME_ZONE : undefined;
}
