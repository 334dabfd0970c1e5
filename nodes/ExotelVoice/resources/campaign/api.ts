import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { dataOf } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';

/**
 * Campaign endpoints live under `{base_url}/v2/accounts/<sid>/campaigns`. The spec shows the
 * method and path of create, list, update (PUT) and call details only; Get Campaign Details and
 * Delete Campaign are not shown, so the node uses GET and DELETE on `campaigns/<campaign_id>`.
 */
export const CAMPAIGNS_PATH = '/v2/accounts/{accountSid}/campaigns';

export const campaignPath = (campaignId: string) => `${CAMPAIGNS_PATH}/${encodeURIComponent(campaignId)}`;

/** The campaign as the service has it now, with its status and stats. */
export async function getCampaign(context: IExecuteFunctions, campaignId: string, itemIndex: number): Promise<IDataObject> {
	const response = await exotelRequest.call(context, { base: 'base', method: 'GET', path: campaignPath(campaignId), itemIndex });
	return dataOf(response.body);
}
