import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_ALLOCATION_BASE_URL } from '../nodes/shared/transport/hosts';
import { rateLimitCredentialField } from '../nodes/shared/transport/rateLimits';

export class ExotelAllocationApi implements ICredentialType {
	name = 'exotelAllocationApi';

	displayName = 'Exotel Allocation API';

	icon: Icon = { light: 'file:../icons/exotel.svg', dark: 'file:../icons/exotel.dark.svg' };

	documentationUrl = 'https://developer.exotel.com/api/leadassist-greenvn';

	properties: INodeProperties[] = [
		{
			displayName: 'Allocation Base URL',
			name: 'allocBaseUrl',
			type: 'string',
			default: DEFAULT_ALLOCATION_BASE_URL,
			required: true,
		},
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			required: true,
			description: 'Account SID (the tenant in allocation paths)',
		},
		{
			displayName: 'User Name',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		rateLimitCredentialField(['exoPhone', 'generalGet']),
	];

	// Authorization: Basic base64(user:password), as the allocation API asks.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			auth: { username: '={{$credentials.username}}', password: '={{$credentials.password}}' },
		},
	};

	// Reading an id that cannot exist is the only read without side effects: "not found" proves
	// the credentials were accepted, an authentication answer proves they were not.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.allocBaseUrl.replace(/\\/+$/, "")}}',
			url: '=/v1/tenants/{{$credentials.accountSid}}/greenvn/n8n-credential-test',
			headers: { Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{ type: 'responseSuccessBody', properties: { key: 'code', value: 7, message: 'Authentication failed: check the user name and password' } },
			{ type: 'responseSuccessBody', properties: { key: 'code', value: 8, message: 'These credentials have no permission for allocation' } },
			{ type: 'responseSuccessBody', properties: { key: 'status', value: 401, message: 'Authentication failed: check the user name and password' } },
		],
	};
}
