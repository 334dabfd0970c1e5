import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
} from 'n8n-workflow';
import { ExecutionBaseError } from 'n8n-workflow';

import { rateLimitCredentialField } from '../nodes/shared/transport/rateLimits';

const LOGIN_PATH = '/servicerestapi/session/userLogin';

/** n8n keeps the context of an execution error it wraps (and drops any other error's fields). */
class ContactCenterLoginError extends ExecutionBaseError {}

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
		rateLimitCredentialField(['generalGet', 'userManagement', 'voice']),
	];

	// n8n calls this when the session id is empty or a request answered 401, then stores the result.
	// A failed login throws an error without an HTTP response on it: n8n logs in again only after
	// a 401 response, so a wrong token is tried once, and the error names the login, not the request.
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const token = String(credentials.token ?? '');
		const failed = (status: number | undefined, said: string) => {
			const words = token.length >= 4 ? said.split(token).join('***') : said;
			const error = new ContactCenterLoginError(`Contact-center login failed: ${words}`);
			error.context.loginFailure = { status: status ?? null, message: words, request: `POST ${LOGIN_PATH}` };
			return error;
		};
		let answer: { statusCode: number; body: unknown };
		try {
			answer = (await this.helpers.httpRequest({
				method: 'POST',
				url: `${String(credentials.ccBaseUrl).replace(/\/+$/, '')}${LOGIN_PATH}`,
				headers: { Accept: 'application/json' },
				body: {
					userId: credentials.userId,
					token: credentials.token,
					forceLogin: credentials.forceLogin !== false,
					terminalInfo: credentials.terminalInfo || 'n8n',
				},
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as { statusCode: number; body: unknown };
		} catch (error) {
			throw failed(undefined, `the contact-center server could not be reached (${String((error as { code?: unknown }).code ?? 'connection failed')})`);
		}
		const body = (answer.body ?? {}) as { sessionId?: unknown; message?: unknown };
		if (answer.statusCode >= 400 || typeof body.sessionId !== 'string' || !body.sessionId) {
			const said = typeof body.message === 'string' && body.message ? body.message : 'no session id in the answer';
			throw failed(answer.statusCode, said);
		}
		return { sessionId: body.sessionId };
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
