/**
 * Integrations API (integrations base): read and toggle a user's phone and SIP devices.
 * Device state is kept per user id; any customer and app id is accepted.
 */
import { fail, isoTimestamp, isPlainObject, json, readJson } from '../http';
import type { DeviceStatus } from '../state';
import type { RouteDefinition } from '../types';

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

export const integrationsRoutes: RouteDefinition[] = [
	{
		base: 'integrations',
		method: 'GET',
		path: DEVICES_PATH,
		auth: 'bearer',
		handler: (ctx) => {
			const device = ctx.state.devices.get(ctx.params.userId);
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
			const device = ctx.state.devices.get(ctx.params.userId);
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
