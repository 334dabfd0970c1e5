/**
 * Session-based contact-center API (cc base): login, then user management with header `sessionId`.
 */
import { SANDBOX_ACCOUNT, SANDBOX_CONTACT_CENTER_ID } from '../fixtures';
import { fail, isPlainObject, json, randomHex, readJson } from '../http';
import type { CcUser } from '../state';
import type { RouteDefinition } from '../types';

/** Who the sandbox login user is. */
export const CC_LOGIN_USER = {
	userType: 'Administrator',
	userName: 'Sandbox Agent',
	contactCenterId: SANDBOX_CONTACT_CENTER_ID,
} as const;

function newSessionId(userId: string): string {
	return `${randomHex(4)}-${randomHex(8)}-ses-${userId}-${randomHex(12)}`;
}

/** forceLogin is a boolean; the strings 'true'/'false' (what some expression engines send) are read too. */
function readForceLogin(value: unknown): boolean | undefined {
	if (value === undefined || value === null) return false;
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	return undefined;
}

export const contactCenterRoutes: RouteDefinition[] = [
	{
		base: 'cc',
		method: 'POST',
		path: '/servicerestapi/session/userLogin',
		auth: 'none',
		handler: (ctx) => {
			const parsed = readJson(ctx);
			if (!parsed.ok || !isPlainObject(parsed.value)) {
				ctx.setAuth({ scheme: 'none', ok: false });
				return fail(ctx, 400, 'The login body must be a JSON object {userId, token, forceLogin, terminalInfo}');
			}
			const body = parsed.value;
			const userId = typeof body.userId === 'string' ? body.userId : undefined;
			const ok = userId === SANDBOX_ACCOUNT.ccUserId && body.token === SANDBOX_ACCOUNT.ccToken;
			ctx.setAuth({ scheme: 'none', user: userId, ok });
			if (!ok || userId === undefined) return fail(ctx, 401, 'Invalid user id or token');
			const forceLogin = readForceLogin(body.forceLogin);
			if (forceLogin === undefined) return fail(ctx, 400, 'forceLogin must be a boolean');
			if (body.terminalInfo !== undefined && typeof body.terminalInfo !== 'string') {
				return fail(ctx, 400, 'terminalInfo must be a string');
			}
			const terminalInfo = (body.terminalInfo as string | undefined) ?? '';

			const previous = [...ctx.state.sessions.values()].filter((s) => s.userId === userId).pop();
			const live = [...ctx.state.sessions.values()].some((s) => s.userId === userId && s.live);
			if (live && !forceLogin) {
				return fail(ctx, 409, `User ${userId} is already logged in; log in with forceLogin true to open another session`);
			}

			const now = Date.now();
			const sessionId = newSessionId(userId);
			ctx.state.sessions.set(sessionId, { sessionId, userId, terminalInfo, loginTime: now, live: true });
			ctx.state.loginCount++;
			return json(200, {
				userId,
				terminalInfo,
				sessionId,
				loginTime: now,
				userType: CC_LOGIN_USER.userType,
				contactCenterId: CC_LOGIN_USER.contactCenterId,
				userName: CC_LOGIN_USER.userName,
				lastLoginInfo: {
					userId,
					userName: CC_LOGIN_USER.userName,
					lastLoginTime: previous?.loginTime ?? now - 86_400_000,
					lastLogoutTime: previous ? now : now - 82_800_000,
					sessionId: previous?.sessionId ?? '',
					localIp: '127.0.0.1',
					publicIp: '127.0.0.1',
					clientType: 'WEB',
					clientVersion: '4.0',
					browserInfo: previous?.terminalInfo ?? terminalInfo,
				},
				loginProperties: { 'login.policy': 'verify.before.force.login', 'default.ready': 'false' },
				passwordStateDetail: {
					passwordValid: true,
					warnUser: false,
					shouldChangePassword: false,
					reason: '',
				},
			});
		},
	},
	{
		base: 'cc',
		method: 'POST',
		path: '/servicerestapi/cc/contactCenterUsers',
		auth: 'session',
		handler: (ctx) => {
			const parsed = readJson(ctx);
			if (!parsed.ok || !isPlainObject(parsed.value)) return fail(ctx, 400, 'The body must be a JSON object');
			const body = parsed.value;
			const missing = ['userId', 'userType', 'userName'].filter(
				(key) => typeof body[key] !== 'string' || (body[key] as string).trim() === '',
			);
			if (body.contactCenterId === undefined || body.contactCenterId === null) missing.push('contactCenterId');
			if (missing.length) return fail(ctx, 400, `Missing required field(s): ${missing.join(', ')}`);
			if (typeof body.contactCenterId !== 'number' || !Number.isInteger(body.contactCenterId)) {
				return fail(ctx, 400, 'contactCenterId must be an integer');
			}
			if (body.defaultReady !== undefined && typeof body.defaultReady !== 'boolean') {
				return fail(ctx, 400, 'defaultReady must be a boolean');
			}
			for (const key of ['systemUserType', 'userData', 'description', 'loginPolicy', 'mappingUserId']) {
				if (body[key] !== undefined && typeof body[key] !== 'string') return fail(ctx, 400, `${key} must be a string`);
			}
			const maxAllowedLogins = body.maxAllowedLogins;
			if (
				maxAllowedLogins !== undefined &&
				!(typeof maxAllowedLogins === 'string' && /^\d+$/.test(maxAllowedLogins)) &&
				!(typeof maxAllowedLogins === 'number' && Number.isInteger(maxAllowedLogins))
			) {
				return fail(ctx, 400, 'maxAllowedLogins must be a whole number (sent as a string)');
			}
			const userId = body.userId as string;
			if (ctx.state.ccUsers.has(userId)) return fail(ctx, 409, `User ${userId} already exists`);

			const user: CcUser = {
				ccUserId: ctx.state.nextCcUserId++,
				userId,
				userType: body.userType as string,
				userName: body.userName as string,
				contactCenterId: body.contactCenterId,
				systemUserType: (body.systemUserType as string | undefined) ?? (body.userType as string),
				defaultReady: (body.defaultReady as boolean | undefined) ?? false,
				userData: body.userData as string | undefined,
				description: body.description as string | undefined,
				loginPolicy: (body.loginPolicy as string | undefined) ?? 'disallow.after.limit',
				maxAllowedLogins: (maxAllowedLogins as string | number | undefined) ?? '1',
				mappingUserId: (body.mappingUserId as string | undefined) ?? null,
			};
			ctx.state.ccUsers.set(userId, user);
			return json(200, {
				ccUserId: user.ccUserId,
				userId: user.userId,
				userType: user.userType,
				skillIds: [],
				skillIIds: [],
				userName: user.userName,
				systemUserType: user.systemUserType,
				privilegePlanId: /supervisor|admin/i.test(user.userType) ? 2 : 1,
				defaultReady: user.defaultReady,
				maskedPrivileges: [],
				maxAllowedLogins: user.maxAllowedLogins,
				loginPolicy: user.loginPolicy,
				mappingUserId: user.mappingUserId,
			});
		},
	},
];
