import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { dataOf } from '../../../shared/output/envelope';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CAMPAIGNS } from '../../endpoints';

/** The campaign as the service has it now, with its status and stats. */
export async function getCampaign(context: IExecuteFunctions, run: NodeRun, campaignId: string, itemIndex: number): Promise<IDataObject> {
	const response = await exotelRequest(context, run, { endpoint: CAMPAIGNS.get, params: { campaignId }, itemIndex });
	return dataOf(response.body);
}
