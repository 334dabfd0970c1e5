import type { INodeProperties } from 'n8n-workflow';

/** The Call SID field of the operations that read one call (call get and details, voice log). */
export const callSidField = (show: Record<string, string[]>): INodeProperties => ({
	displayName: 'Call SID',
	name: 'callSid',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'c9f3a1d2e4b5a6c7d8e9f0a1b2c3d4e5',
	displayOptions: { show },
});
