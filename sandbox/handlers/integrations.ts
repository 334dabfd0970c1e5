/**
 * Integrations API (integrations base, bearer token): read and toggle a user's phone and SIP devices.
 * Device state is kept per user id; any customer and app id is accepted. The users are `user-1`
 * (seeded in state.ts) and every user of the management API (handlers/users.ts), whose state is
 * made on first use: the phone is their first device, SIP `<first>.<last><n>.sandbox`, both enabled,
 * SIP registered for odd user numbers only.
 */
import { fail, isoTimestamp, isPlainObject, json, readJson } from '../http';
import type { DeviceStatus } from '../stored';
import type { RequestContext, RouteDefinition } from '../types';
import { ccmUsersOf } from './users';

const DEVICES_PATH = '/v2/integrations/:customerId/apps/:appId/users/:userId/devices';

function readView(device: DeviceStatus) {
	return {
		user_id: device.userId,
		devices: {
			phone: { enabled: device.phone.enabled, number: device.phone.number },
			sip: {
				enabled: device.sip.enabled,
				username: device.sip.username,
				registered: device.sip.enabled && device.sip.registered,
				last_seen: device.sip.lastSeen,
			},
		},
	};
}

/** The device state of a user, or undefined when the user does not exist. */
function deviceOf(ctx: RequestContext): DeviceStatus | undefined {
	const userId = ctx.params.userId;
	const known = ctx.state.devices.get(userId);
	if (known) return known;
	const user = ccmUsersOf(ctx.state).get(userId);
	if (!user) return undefined;
	const n = Number(userId.replace(/^user-/, ''));
	const device: DeviceStatus = {
		userId,
		phone: { enabled: true, number: user.devices[0].contact_uri },
		sip: {
			enabled: true,
			username: `${user.first_name}.${user.last_name}${n}.sandbox`.toLowerCase(),
			registered: n % 2 === 1,
			lastSeen: user.last_login,
		},
	};
	ctx.state.devices.set(userId, device);
	return device;
}

export const integrationsRoutes: RouteDefinition[] = [
	{
		base: 'integrations',
		method: 'GET',
		path: DEVICES_PATH,
		auth: 'bearer',
		handler: (ctx) => {
			const device = deviceOf(ctx);
			if (!device) return fail(ctx, 404, `User ${ctx.params.userId} does not exist`, { code: 'USER_NOT_FOUND' });
			return json(200, { success: true, data: readView(device) });
		},
	},
	{
		base: 'integrations',
		method: 'PUT',
		path: DEVICES_PATH,
		auth: 'bearer',
		handler: (ctx) => {
			const device = deviceOf(ctx);
			if (!device) return fail(ctx, 404, `User ${ctx.params.userId} does not exist`, { code: 'USER_NOT_FOUND' });
			const parsed = readJson(ctx);
			if (!parsed.ok || !isPlainObject(parsed.value)) return fail(ctx, 400, 'The body must be a JSON object {phone?, sip?}');
			const body = parsed.value;
			for (const key of ['phone', 'sip']) {
				if (body[key] !== undefined && typeof body[key] !== 'boolean') return fail(ctx, 400, `${key} must be a boolean`);
			}
			if (body.phone === undefined && body.sip === undefined) return fail(ctx, 400, 'Give phone, sip or both');
			const phone = (body.phone as boolean | undefined) ?? device.phone.enabled;
			const sip = (body.sip as boolean | undefined) ?? device.sip.enabled;
			if (!phone && !sip) {
				return fail(ctx, 400, 'At least one device must stay enabled (phone and sip cannot both be false)', {
					code: 'ALL_DEVICES_DISABLED',
				});
			}
			device.phone.enabled = phone;
			device.sip.enabled = sip;
			device.updatedAt = isoTimestamp();
			return json(200, {
				success: true,
				data: {
					user_id: device.userId,
					devices: {
						phone: { enabled: device.phone.enabled, number: device.phone.number },
						sip: { enabled: device.sip.enabled, username: device.sip.username },
					},
					updated_at: device.updatedAt,
				},
			});
		},
	},
];
