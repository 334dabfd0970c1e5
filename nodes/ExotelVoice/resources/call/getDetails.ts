import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { outputOf, prepareItems, sendEach } from '../../../shared/operation';
import { exotelRequest } from '../../../shared/transport';
import { fieldsError } from '../../../shared/validation';
import { callSidField } from './fields';

const show = { resource: ['call'], operation: ['getDetails'] };

export const description: INodeProperties[] = [
	callSidField(show),
];

const text = (value: unknown) => (value === undefined || value === null || value === '' ? null : String(value));
const number = (value: unknown) => (value === undefined || value === null || value === '' ? null : Number(value));

/**
 * The management API documents two shapes of `call_details` for the same path. Both become one
 * item shape; the answer as received stays under `original`.
 */
export function normalizeCallDetails(details: IDataObject): IDataObject {
	const agentA = (details.agent_details ?? {}) as IDataObject;
	const agentB = (details.assigned_agent_details ?? {}) as IDataObject;
	const customer = (details.customer_details ?? {}) as IDataObject;
	const recording = (details.recording ?? {}) as IDataObject;
	const shapeB = details.sid !== undefined || details.state !== undefined || details.total_duration !== undefined;
	return {
		callSid: text(details.call_sid ?? details.sid),
		state: text(details.call_state ?? details.state),
		status: text(details.call_status ?? details.status),
		direction: text(details.direction),
		virtualNumber: text(details.virtual_number),
		from: text(details.from),
		to: text(details.to),
		customerNumber: text(customer.number),
		startTime: text(details.start_time),
		endTime: text(details.end_time),
		createdTime: text(details.created_time),
		updatedTime: text(details.updated_time),
		duration: number(details.duration ?? details.total_duration),
		talkTime: number(details.talk_time ?? details.total_talk_time),
		recordingUrl: text(details.recording_url ?? recording.url),
		// Shape A carries recording_url only when the call was recorded: its absence means no recording.
		recordingAvailable: recording.available !== undefined ? recording.available === true : Boolean(details.recording_url),
		customField: text(details.custom_field),
		agent: {
			userId: text(agentA.user_id ?? agentB.user_id),
			name: text(agentA.name),
			email: text(agentA.email),
			contactUri: text(agentB.contact_uri),
		},
		legsPath: text(details.legs),
		shape: shapeB ? 'B' : 'A',
		original: details,
	};
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const { prepared, failures } = prepareItems(this, items.length, (itemIndex) => {
		const callSid = String(this.getNodeParameter('callSid', itemIndex, '')).trim();
		return fieldsError(this.getNode(), itemIndex, [[callSid, { label: 'Call SID', required: true }]]) ?? { itemIndex, callSid };
	});
	const outcomes = await sendEach(prepared, async ({ itemIndex, callSid }) => {
		const response = await exotelRequest.call(this, {
			base: 'ccm',
			method: 'GET',
			path: `/v2/accounts/{accountSid}/calls/${encodeURIComponent(callSid)}`,
			itemIndex,
		});
		const body = (response.body ?? {}) as IDataObject;
		const details = ((body.response as IDataObject | undefined)?.call_details ?? {}) as IDataObject;
		return normalizeCallDetails(details);
	});
	return outputOf(this, [...failures, ...outcomes]);
}
