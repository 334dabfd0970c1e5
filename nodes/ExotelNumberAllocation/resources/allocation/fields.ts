// The GreenVN ID field of the operations on one allocation.
import type { INodeProperties } from 'n8n-workflow';

export const GREENVN_ID: INodeProperties = {
	displayName: 'GreenVN ID',
	name: 'greenvnId',
	type: 'string',
	required: true,
	default: '',
	description: 'The greenvn_id the allocation returned',
};
