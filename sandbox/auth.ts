/**
 * Checks the credentials a request presents against a route's policy. Recorded outcome: `scheme`
 * is what the request presented, `ok` whether the policy accepted it.
 */
import { timingSafeEqual } from 'crypto';

import { SANDBOX_ACCOUNT } from './fixtures';
import type { SandboxState } from './state';
import type { AuthOutcome, AuthPolicy, SandboxBase } from './types';

/** The policy recorded for paths no route matches. */
export const BASE_DEFAULT_POLICY: Record<SandboxBase, AuthPolicy> = {
	base: 'basic',
	ccm: 'basic',
	integrations: 'bearer',
	cms: 'bearer',
	cc: 'session',
	alloc: 'allocBasic',
};

interface Presented {
	scheme: AuthScheme;
	user?: string;
	password?: string;
	token?: string;
}
type AuthScheme = AuthOutcome['scheme'];

function same(a: string | undefined, b: string): boolean {
	if (a === undefined) return false;
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
}

/** What the Authorization header carries. */
export function presentedAuthorization(header: string | undefined): Presented {
	if (!header) return { scheme: 'none' };
	const space = header.indexOf(' ');
	const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
	const value = space < 0 ? '' : header.slice(space + 1).trim();
	if (scheme === 'basic') {
		const decoded = Buffer.from(value, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		return colon < 0
			? { scheme: 'basic', user: decoded }
			: { scheme: 'basic', user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
	}
	if (scheme === 'bearer') return { scheme: 'bearer', token: value };
	return { scheme: 'none' };
}

/** Node lower-cases header names, so `sessionId` and `SessionId` both arrive as `sessionid`. */
export function sessionIdOf(headers: Record<string, string>): string | undefined {
	const value = headers.sessionid?.trim();
	return value || undefined;
}

export function evaluateAuth(
	policy: AuthPolicy,
	headers: Record<string, string>,
	state: SandboxState,
	params: Record<string, string> = {},
	checkAccount = true,
): AuthOutcome {
	if (policy === 'session') {
		const sessionId = sessionIdOf(headers);
		if (!sessionId) return { scheme: 'none', ok: false };
		const session = state.liveSession(sessionId);
		return { scheme: 'session', user: session?.userId ?? state.sessions.get(sessionId)?.userId, ok: !!session };
	}
	const presented = presentedAuthorization(headers.authorization);
	if (policy === 'none') return { scheme: presented.scheme, user: presented.user, ok: true };
	const outcome: AuthOutcome = { scheme: presented.scheme, ok: false };
	if (presented.user !== undefined) outcome.user = presented.user;
	const accountOk = !checkAccount || params.sid === undefined || params.sid === SANDBOX_ACCOUNT.accountSid;

	if (presented.scheme === 'basic') {
		if (policy === 'allocBasic') {
			outcome.ok =
				same(presented.user, SANDBOX_ACCOUNT.allocUsername) && same(presented.password, SANDBOX_ACCOUNT.allocPassword);
		} else if (policy === 'basic' || policy === 'basicOrBearer') {
			outcome.ok = same(presented.user, SANDBOX_ACCOUNT.apiKey) && same(presented.password, SANDBOX_ACCOUNT.apiToken);
		}
	} else if (presented.scheme === 'bearer') {
		if (policy === 'bearer' || policy === 'basicOrBearer') outcome.ok = same(presented.token, SANDBOX_ACCOUNT.bearerToken);
	}
	// A path naming another account is refused like bad credentials (the key belongs to one account).
	if (outcome.ok && !accountOk) outcome.ok = false;
	return outcome;
}
