import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { CMS_BASE_URL_EXPRESSION, REGION_HOSTS } from '../nodes/shared/transport/hosts';
import { rateLimitCredentialField } from '../nodes/shared/transport/rateLimits';

export class ExotelBearerTokenApi implements ICredentialType {
	name = 'exotelBearerTokenApi';

	displayName = 'Exotel Bearer Token API';

	icon: Icon = { light: 'file:../icons/exotel.svg', dark: 'file:../icons/exotel.dark.svg' };

	documentationUrl = 'https://developer.exotel.com/api/create-authentication-token';

	properties: INodeProperties[] = [
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Access token, app token or configuration auth token issued by the service',
		},
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			description: 'Account SID, used in contact-upload paths',
		},
		{
			displayName: 'Configuration Server Base URL',
			name: 'cmsBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://cms.mumbai.example-cc.com',
			description:
				'Base URL of the configuration server (campaign lookup). Leave empty to derive it from the Contact-Center Base URL below. The credential test calls it.',
		},
		{
			displayName: 'Contact-Center Base URL',
			name: 'ccBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://gateway.mumbai.example-cc.com:8443',
			description:
				'Used only when the configuration server is empty: its first label is replaced by "cms" (gateway.mumbai.acme.com → cms.mumbai.acme.com)',
		},
		{
			displayName: 'Integrations Base URL',
			name: 'integrationsBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://integrations.example.com',
			description: 'Base URL of the integrations API, for user device status',
		},
		{
			displayName: 'Contact Upload Base URL',
			name: 'ccmBaseUrl',
			type: 'string',
			default: REGION_HOSTS.singapore.ccmBaseUrl,
			description: `Contact-center management API of the account region (Mumbai: ${REGION_HOSTS.mumbai.ccmBaseUrl})`,
		},
		{
			displayName: 'Contact Center ID',
			name: 'contactCenterId',
			type: 'string',
			default: '',
			description: 'Default contact center for the campaign lookup',
		},
		rateLimitCredentialField(['campaign', 'generalGet', 'userManagement']),
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.token}}' },
		},
	};

	// There is no side-effect-free read that every token can do, so the test asks the configuration
	// server and treats only authentication answers as failures.
	test: ICredentialTestRequest = {
		request: {
			// The configuration server, or the contact-center URL with its first label replaced by `cms`:
			// the same pattern as the nodes' cmsBaseUrlFrom, as an expression.
			baseURL: CMS_BASE_URL_EXPRESSION,
			url: '/configuration/hierarchyconfig/campaign',
			qs: { contactCenterId: '={{$credentials.contactCenterId || 0}}' },
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{ type: 'responseSuccessBody', properties: { key: 'statusCode', value: 401, message: 'The token is missing or invalid' } },
			{ type: 'responseSuccessBody', properties: { key: 'statusCode', value: 403, message: 'The token has no access to the configuration server' } },
		],
	};
}
