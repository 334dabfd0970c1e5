/** Users live on the contact-center management API: `{ccm_base_url}/v2/accounts/<sid>/users`, wrapped as `response: [{code, status, data: User}]`. */
export const USERS_PATH = '/v2/accounts/{accountSid}/users';

export const userPath = (userId: string) => `${USERS_PATH}/${encodeURIComponent(userId)}`;
