/**
 * The sandbox's callbacks: the dispatcher (dispatcher.ts, its face and its timers and requests;
 * series.ts and campaign-queue.ts, when each callback goes; delivery.ts, signing, posting and the
 * retries on the spec's schedule; log.ts, the attempt log) and what each channel's
 * callbacks carry (sms.ts: status and click; rcs.ts: dlr and incoming; chat-app.ts: status and
 * incoming; voice.ts: call status; person.ts: a person's reply, the SMS link a person opens, ending
 * a call; browser.ts: opening that link as a person or a preview bot), sharing types.ts and payload.ts.
 * NodeWork (work.ts) is the network the call flows (../callFlows) request through as well.
 */
export { CallbackDispatcher, type DispatcherOptions } from './dispatcher';
export { isLoopbackUrl, signPayload } from './delivery';
export { NodeWork, type ExchangeResult } from './work';
export { CALLBACK_LOG_LIMIT } from './log';
export {
	CALLBACK_TIMING,
	CallbackInputError,
	type CallbackAttempt,
	type CallbackFilter,
	type CallbackKind,
	type CallbackOutcome,
	type FailingWebhook,
} from './types';
export { isoWithOffset } from './payload';
export { SMS_TERMINAL, smsUnitsOf } from './sms';
export { RCS_INCOMING_TYPES, RCS_STATUS, type RcsIncomingType } from './rcs';
export { CHATAPP_INCOMING_TYPES, CHATAPP_STATUS_CODES, type ChatAppIncomingType } from './chat-app';
export type { CallStatusReport } from './voice';
export { endCallInput, END_CALL_STATUSES, REPLY_ANSWERS, sameNumber, type EndCallStatus, type OpenLinkPlan } from './person';
export {
	BOT_USER_AGENT,
	MAX_REDIRECTS,
	PERSON_USER_AGENT,
	findPostForm,
	type OpenedPage,
	type OpenLinkResult,
} from './browser';
