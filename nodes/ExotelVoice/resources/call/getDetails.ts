import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/descriptions/resource';
import { eachById } from '../../../shared/items/byId';
import { callItem, secondsOf, textOf } from '../../../shared/output/vocabulary';
import { exotelRequest } from '../../../shared/transport/request';
import type { NodeRun } from '../../../shared/transport/run';
import { CALLS } from '../../endpoints';
import { CALL_SID, callSidField } from '../../fields';

export const option: OperationOption = {
	name: 'Get Details',
	value: 'getDetails',
	action: 'Get call details',
	description: 'Get a call from the contact-center management API',
};

export const description: INodeProperties[] = [callSidField];

/**
 * The management API documents two shapes of `call_details` for the same path. Both become one
 * item in the package's call vocabulary; the answer as received stays under `raw`.
 */
export function normalizeCallDetails(details: IDataObject): IDataObject {
	const agentA = (details.agent_details ?? {}) as IDataObject;
	const agentB = (details.assigned_agent_details ?? {}) as IDataObject;
	const customer = (details.customer_details ?? {}) as IDataObject;
	const recording = (details.recording ?? {}) as IDataObject;
	const shapeB = details.sid !== undefined || details.state !== undefined || details.total_duration !== undefined;
	return callItem(
		{
			callSid: textOf(details.call_sid ?? details.sid),
			status: textOf(details.call_status ?? details.status),
			from: textOf(details.from),
			to: textOf(details.to),
			direction: textOf(details.direction),
			startTime: textOf(details.start_time),
			endTime: textOf(details.end_time),
			duration: secondsOf(details.duration ?? details.total_duration),
			recordingUrl: textOf(details.recording_url ?? recording.url),
		},
		details,
		{
			state: textOf(details.call_state ?? details.state),
			virtualNumber: textOf(details.virtual_number),
			customerNumber: textOf(customer.number),
			createdTime: textOf(details.created_time),
			updatedTime: textOf(details.updated_time),
			talkTime: secondsOf(details.talk_time ?? details.total_talk_time),
			// Shape A carries recording_url only when the call was recorded: its absence means no recording.
			recordingAvailable: recording.available !== undefined ? recording.available === true : Boolean(details.recording_url),
			customField: textOf(details.custom_field),
			agent: {
				userId: textOf(agentA.user_id ?? agentB.user_id),
				name: textOf(agentA.name),
				email: textOf(agentA.email),
				contactUri: textOf(agentB.contact_uri),
			},
			legsPath: textOf(details.legs),
			shape: shapeB ? 'B' : 'A',
		},
	);
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], run: NodeRun): Promise<INodeExecutionData[]> {
	return await eachById(this, items, CALL_SID, async (callSid, itemIndex) => {
		const response = await exotelRequest(this, run, { endpoint: CALLS.getDetails, params: { callSid }, itemIndex });
		const body = (response.body ?? {}) as IDataObject;
		const details = ((body.response as IDataObject | undefined)?.call_details ?? {}) as IDataObject;
		return normalizeCallDetails(details);
	});
}
