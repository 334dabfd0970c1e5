/**
 * Call flows (../../shared/notes/call-flows.md): an incoming call played through a flow of applets,
 * the service's requests to the customer's URLs during the call, and what the caller heard and who
 * was dialled. calls.ts keeps the calls; player.ts plays one, applet by applet (passthru.ts,
 * connect.ts with connect-answer.ts, gather.ts, greeting.ts, sharing context.ts and json-answer.ts);
 * params.ts builds each applet's query, requests.ts sends it (budget, fallback, repeat); flow.ts and
 * input.ts check what the sandbox is given; types.ts holds the shapes.
 */
export { CALL_FLOW_LOG_LIMIT, CallFlows } from './calls';
export { MAX_DIAL_ATTEMPTS } from './connect';
export { MAX_MENU_HEARINGS } from './gather';
export { DEFAULT_BUDGET_MS, DEFAULT_CONVERSATION_SECONDS } from './input';
export { CALL_FLOW_TENANT_ID, DEFAULT_FLOW_ID, END_TIME_PLACEHOLDER } from './params';
export { MAX_APPLETS_PER_CALL } from './player';
export {
	CallFlowInputError,
	type AppletRequest,
	type CalleeBehaviour,
	type CallFlowResult,
	type CallFlowStep,
	type DialledNumber,
	type StepOutcome,
} from './types';
