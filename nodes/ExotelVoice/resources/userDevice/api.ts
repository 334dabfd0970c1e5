/** The user's devices on the integrations API, from the values of DEVICE_USER (customer, app, user). */
export function devicesPath(ids: string[]): string {
	const [customer, app, user] = ids.map(encodeURIComponent);
	return `/v2/integrations/${customer}/apps/${app}/users/${user}/devices`;
}
