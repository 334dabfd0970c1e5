import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';

export class ExotelContactCenterApi implements ICredentialType {
	name = 'exotelContactCenterApi';

	displayName = 'Exotel Contact Center API';

	icon: Icon = { light: 'file:../icons/exotel.svg', dark: 'file:../icons/exotel.dark.svg' };

	documentationUrl = 'https://developer.exotel.com/docs/contact-center-v4/api-reference/login';

	properties: INodeProperties[] = [
		{
			displayName: 'Contact-Center Base URL',
			name: 'ccBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://cc.example.com:8443',
			description: 'Protocol, host and port of the contact-center server',
		},
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			required: true,
			description: 'Login ID of the contact-center user',
		},
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Password or access key of the user',
		},
		{
			displayName: 'Terminal Info',
			name: 'terminalInfo',
			type: 'string',
			default: 'n8n',
			description: 'How this client describes itself in the login (terminal, browser or device)',
		},
		{
			displayName: 'Force Login',
			name: 'forceLogin',
			type: 'boolean',
			default: true,
			description: 'Whether to log in even when the user already has a session elsewhere',
		},
		{
			displayName: 'Session ID',
			name: 'sessionId',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
	];

	// n8n calls this when the session id is empty or a request answered 401, then stores the result.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const login = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${String(credentials.ccBaseUrl).replace(/\/+$/, '')}/servicerestapi/session/userLogin`,
			headers: { Accept: 'application/json' },
			body: {
				userId: credentials.userId,
				token: credentials.token,
				forceLogin: credentials.forceLogin !== false,
				terminalInfo: credentials.terminalInfo || 'n8n',
			},
			json: true,
		})) as { sessionId?: string };
		return { sessionId: login.sessionId ?? '' };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { sessionId: '={{$credentials.sessionId}}' },
		},
	};

	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			baseURL: '={{$credentials.ccBaseUrl.replace(/\\/+$/, "")}}',
			url: '/servicerestapi/session/userLogin',
			body: {
				userId: '={{$credentials.userId}}',
				token: '={{$credentials.token}}',
				forceLogin: '={{$credentials.forceLogin !== false}}',
				terminalInfo: '={{$credentials.terminalInfo || "n8n"}}',
			},
			json: true,
		},
	};
}
