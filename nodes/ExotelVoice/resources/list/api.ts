/** Lists live under `{base_url}/v2/accounts/<sid>/lists`. */
export const LISTS_PATH = '/v2/accounts/{accountSid}/lists';

export const listPath = (listSid: string) => `${LISTS_PATH}/${encodeURIComponent(listSid)}`;
