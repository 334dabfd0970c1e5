/**
 * The control API under `/__sandbox/` (no auth, never recorded, never faulted), for tests that
 * drive a sandbox running in another process.
 *
 *   GET    /__sandbox/health              {ok, origin, requests, messages, pendingFaults, loginCount, liveSessions, latencyMs}
 *   GET    /__sandbox/requests            recorded requests; query base, method, pathIncludes
 *   DELETE /__sandbox/requests            clears the log
 *   POST   /__sandbox/faults              JSON {fault, count?, match?}
 *   DELETE /__sandbox/faults              drops pending faults
 *   POST   /__sandbox/sessions/expire     invalidates every contact-center session
 *   POST   /__sandbox/reset               state, log and faults
 *   GET    /__sandbox/messages            accepted SMS messages
 *   GET    /__sandbox/allocations         allocations (active and vault)
 *   GET    /__sandbox/rcs-messages        accepted RCS messages
 *   GET    /__sandbox/chatapp-messages    accepted chat-app messages
 *   GET    /__sandbox/chatapp-webhook     {webhook: <configuration or null>}
 *   POST   /__sandbox/latency             JSON {ms}
 */
import { parseFaultRequest } from './faults';
import { SANDBOX_BASE_PREFIX } from './fixtures';
import type { ExotelSandbox, RequestFilter } from './server';
import type { SandboxBase } from './types';

export interface ControlReply {
	status: number;
	json: unknown;
}

function ok(extra: Record<string, unknown> = {}): ControlReply {
	return { status: 200, json: { ok: true, ...extra } };
}

function bad(status: number, error: string): ControlReply {
	return { status, json: { ok: false, error } };
}

function parseJson(body: Buffer): { value?: unknown; error?: string } {
	const text = body.toString('utf8').trim();
	if (!text) return { value: undefined };
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { error: `body is not JSON: ${(error as Error).message}` };
	}
}

export function handleControl(
	sandbox: ExotelSandbox,
	method: string,
	path: string,
	query: URLSearchParams,
	body: Buffer,
): ControlReply {
	const route = `${method.toUpperCase()} ${path.replace(/\/+$/, '') || '/'}`;
	switch (route) {
		case 'GET /health':
			return ok({
				origin: sandbox.origin,
				requests: sandbox.requests().length,
				messages: sandbox.messages().length,
				pendingFaults: sandbox.pendingFaults,
				loginCount: sandbox.loginCount,
				liveSessions: sandbox.liveSessionCount(),
				latencyMs: sandbox.latency,
			});
		case 'GET /requests': {
			const filter: RequestFilter = {};
			const base = query.get('base');
			if (base !== null) {
				if (!(base in SANDBOX_BASE_PREFIX)) {
					return bad(400, `base must be one of ${Object.keys(SANDBOX_BASE_PREFIX).join(', ')}`);
				}
				filter.base = base as SandboxBase;
			}
			const m = query.get('method');
			if (m !== null) filter.method = m;
			const pathIncludes = query.get('pathIncludes');
			if (pathIncludes !== null) filter.pathIncludes = pathIncludes;
			return { status: 200, json: sandbox.requests(filter) };
		}
		case 'DELETE /requests':
			sandbox.clearRequests();
			return ok();
		case 'POST /faults': {
			const parsed = parseJson(body);
			if (parsed.error) return bad(400, parsed.error);
			try {
				const { fault, count, match } = parseFaultRequest(parsed.value);
				sandbox.injectFaults(fault, count, match);
				return ok({ pendingFaults: sandbox.pendingFaults });
			} catch (error) {
				return bad(400, (error as Error).message);
			}
		}
		case 'DELETE /faults':
			sandbox.clearFaults();
			return ok();
		case 'POST /sessions/expire':
			return ok({ expired: sandbox.expireSessions() });
		case 'POST /reset':
			sandbox.reset();
			return ok();
		case 'GET /messages':
			return { status: 200, json: sandbox.messages() };
		case 'GET /allocations':
			return { status: 200, json: sandbox.allocations() };
		case 'GET /rcs-messages':
			return { status: 200, json: sandbox.rcsMessages() };
		case 'GET /chatapp-messages':
			return { status: 200, json: sandbox.chatAppMessages() };
		case 'GET /chatapp-webhook':
			return { status: 200, json: { webhook: sandbox.chatAppWebhook() } };
		case 'POST /latency': {
			const parsed = parseJson(body);
			const ms = (parsed.value as { ms?: unknown } | undefined)?.ms;
			if (parsed.error || typeof ms !== 'number' || !(ms >= 0)) return bad(400, 'body must be JSON {ms: number >= 0}');
			sandbox.setLatency(ms);
			return ok({ latencyMs: ms });
		}
		default:
			return bad(404, `Unknown control endpoint: ${route}`);
	}
}
