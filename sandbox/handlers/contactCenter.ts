/**
 * Session-based contact-center API (cc base): login, then user management with header `sessionId`.
 */
import { SANDBOX_ACCOUNT, SANDBOX_CONTACT_CENTER_ID } from '../fixtures';
import { fail, isPlainObject, json, randomHex, readJson } from '../http';
import type { CcUser } from '../stored';
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
	...userUpdateRoutes(),
	{
		base: 'cc',
		method: 'DELETE',
		path: '/servicerestapi/user/users/:userId',
		auth: 'session',
		handler: (ctx) => {
			const { userId } = ctx.params;
			if (!ctx.state.ccUsers.has(userId)) return fail(ctx, 404, `User ${userId} does not exist`);
			ctx.state.ccUsers.delete(userId);
			return json(200, { status: 'success', message: 'User deleted successfully', userId });
		},
	},
	{
		base: 'cc',
		method: 'GET',
		path: '/servicerestapi/cc/downloadVoiceLog',
		auth: 'session',
		handler: (ctx) => {
			const query = ctx.request.query;
			const one = (name: string) => (Array.isArray(query[name]) ? (query[name] as string[])[0] : (query[name] as string | undefined));
			const campaignId = one('campaignId');
			const crtObjectId = one('crtObjectId');
			const targetFormat = one('targetFormat');
			const filters = one('filters');
			const missing = [['campaignId', campaignId], ['crtObjectId', crtObjectId], ['targetFormat', targetFormat], ['filters', filters]]
				.filter(([, value]) => !value)
				.map(([name]) => name);
			if (missing.length) return fail(ctx, 400, `Missing query parameter(s): ${missing.join(', ')}`);
			if (!/^\d+$/.test(String(campaignId))) return fail(ctx, 400, 'campaignId must be an integer');
			let callId: unknown;
			try {
				callId = (JSON.parse(String(filters)) as Record<string, unknown>).callId;
			} catch {
				return fail(ctx, 400, 'filters must be a URL-encoded JSON object carrying callId');
			}
			if (!callId) return fail(ctx, 400, 'filters must carry callId');
			// Sandbox rule: a crtObjectId starting with "missing" has no file (404).
			if (String(crtObjectId).startsWith('missing')) {
				return fail(ctx, 404, `No voice log for crtObjectId ${crtObjectId} in campaign ${campaignId}`);
			}
			const format = String(targetFormat).toLowerCase();
			const contentType = format === 'wav' ? 'audio/wav' : 'audio/mpeg';
			return {
				status: 200,
				body: voiceLogBytes(`${campaignId}/${crtObjectId}/${String(callId)}`, format),
				contentType,
				headers: { 'Content-Disposition': `attachment; filename="${String(callId)}.${format === 'wav' ? 'wav' : 'mp3'}"` },
			};
		},
	},
];

/**
 * The spec documents the update both as PUT .../contactCenterUsers/<userId> (heading) and as
 * PUT .../contactCenterUsers with userId in the body (example): the sandbox serves both.
 */
function userUpdateRoutes(): RouteDefinition[] {
	const update = (pathUserId: string | undefined) => (ctx: Parameters<RouteDefinition['handler']>[0]) => {
		const parsed = readJson(ctx);
		if (!parsed.ok || !isPlainObject(parsed.value)) return fail(ctx, 400, 'The body must be a JSON object');
		const body = parsed.value;
		const userId = pathUserId ?? (typeof body.userId === 'string' ? body.userId : undefined);
		if (!userId) return fail(ctx, 400, 'userId is required');
		if (pathUserId && body.userId !== undefined && body.userId !== pathUserId) {
			return fail(ctx, 400, 'userId in the body does not match the path');
		}
		const user = ctx.state.ccUsers.get(userId);
		if (!user) return fail(ctx, 404, `User ${userId} does not exist`);
		if (body.contactCenterId !== undefined && !Number.isInteger(body.contactCenterId)) return fail(ctx, 400, 'contactCenterId must be an integer');
		if (body.maxAllowedLogins !== undefined && !Number.isInteger(body.maxAllowedLogins)) return fail(ctx, 400, 'maxAllowedLogins must be an integer');
		if (body.defaultReady !== undefined && typeof body.defaultReady !== 'boolean') return fail(ctx, 400, 'defaultReady must be a boolean');
		const updatable = ['userType', 'userName', 'systemUserType', 'defaultReady', 'userData', 'contactCenterId', 'loginPolicy', 'maxAllowedLogins', 'mappingUserId'];
		const updatedFields = updatable.filter((key) => body[key] !== undefined);
		Object.assign(user, Object.fromEntries(updatedFields.map((key) => [key, body[key]])));
		return json(200, { status: 'success', message: 'User updated successfully', userId, contactCenterId: user.contactCenterId, updatedFields });
	};
	return [
		{ base: 'cc', method: 'PUT', path: '/servicerestapi/cc/contactCenterUsers/:userId', auth: 'session', handler: (ctx) => update(ctx.params.userId)(ctx) },
		{ base: 'cc', method: 'PUT', path: '/servicerestapi/cc/contactCenterUsers', auth: 'session', handler: (ctx) => update(undefined)(ctx) },
	];
}

/** Deterministic bytes that start like the format they claim (an ID3 tag or a RIFF header). */
export function voiceLogBytes(seed: string, format: string): Buffer {
	const header = format === 'wav' ? Buffer.from('RIFF\x24\x08\x00\x00WAVEfmt ', 'latin1') : Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1');
	const payload = Buffer.alloc(2048);
	for (let i = 0; i < payload.length; i++) payload[i] = (seed.charCodeAt(i % seed.length) * 31 + i) & 0xff;
	return Buffer.concat([header, payload]);
}
