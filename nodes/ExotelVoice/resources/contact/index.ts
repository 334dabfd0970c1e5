import type { INodeProperties } from 'n8n-workflow';

import type { ExotelOperation } from '../../../shared/operation';
import * as getUploadStatus from './getUploadStatus';
import { authenticationField } from './shared';
import * as upload from './upload';

export const operations: Record<string, ExotelOperation> = { getUploadStatus, upload };

export const description: INodeProperties[] = [
	authenticationField,
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Get Upload Status',
				value: 'getUploadStatus',
				action: 'Get the status of a contact upload',
				description: 'Processing, or completed with counts of successful, failed and skipped records',
			},
			{
				name: 'Upload',
				value: 'upload',
				action: 'Upload contacts',
				description: 'Upload contacts from a CSV file or from input items, optionally into a list',
			},
		],
		default: 'upload',
	},
	...upload.description,
	...getUploadStatus.description,
];
