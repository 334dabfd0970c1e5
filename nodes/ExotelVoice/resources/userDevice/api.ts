/** The user's devices path parameters (USER_DEVICES), from the values of DEVICE_USER (customer, app, user). */
export function deviceUserParams(ids: string[]): Record<string, string> {
	const [customer, app, user] = ids;
	return { customer, app, user };
}
