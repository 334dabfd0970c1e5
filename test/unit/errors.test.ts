import type { INode } from 'n8n-workflow';

import { parseServiceError, serviceApiError } from '../../nodes/shared/transport/errors';
import { redact, secretsOf } from '../../nodes/shared/transport/secrets';

const node: INode = { id: '1', name: 'Exotel', type: 'x.y', typeVersion: 1, position: [0, 0], parameters: {} };

describe('service error shapes', () => {
	it('reads every documented error body', () => {
		expect(parseServiceError({ RestException: { Status: 400, Code: 40406, Message: 'Too many recipients' } })).toEqual({
			message: 'Too many recipients',
			code: 40406,
		});
		expect(
			parseServiceError({
				http_code: 400,
				response: { code: 400, status: 'failure', error_data: { code: 1002, message: 'Bad body', description: 'missing to' } },
			}),
		).toEqual({ message: 'Bad body', code: 1002, description: 'missing to' });
		expect(
			parseServiceError({
				response: { rcs: { messages: [{ status: 'failure', error_data: { code: 5, message: 'Bot not verified', description: 'd' } }] } },
			}),
		).toEqual({ message: 'Bot not verified', code: 5, description: 'd' });
		// allocation codes become sentences a user can act on; the service's words stay as the description
		expect(parseServiceError({ success: false, status: 409, code: 18, message: 'Duplicate connection id', data: null })).toEqual({
			message: 'This connection id is already allocated: use a new connection id or deallocate the old one',
			code: 18,
			description: 'Duplicate connection id',
		});
		expect(
			parseServiceError({ statusCode: 404, status: 'NOT_FOUND', errorCode: 'CONF-1001', errorMessage: 'Object does not exist' }),
		).toEqual({ message: 'Object does not exist', code: 'CONF-1001' });
		expect(parseServiceError({ status: 'failure', message: 'userId is required' })).toEqual({
			message: 'userId is required',
			code: undefined,
		});
		expect(parseServiceError({ unrelated: true })).toBeUndefined();
	});

	it('makes a NodeApiError with the service message, code, HTTP status and no secrets', () => {
		const secrets = secretsOf({ apiKey: 'key-1', apiToken: 'tok-SECRET-123' });
		const error = serviceApiError(node, {
			statusCode: 400,
			body: { RestException: { Code: 40406, Message: 'Invalid request tok-SECRET-123' } },
			method: 'POST',
			url: '/v1/Accounts/a/Sms/send',
			itemIndex: 2,
			secrets,
		});
		expect(error.message).toBe('Invalid request *** (code 40406)');
		expect(error.httpCode).toBe('400');
		expect(error.description).toContain('HTTP 400 from POST /v1/Accounts/a/Sms/send');
		expect(JSON.stringify(error)).not.toContain('tok-SECRET-123');
	});

	it('knows every secret form, including the basic-auth header value', () => {
		const secrets = secretsOf({ apiKey: 'key-1', apiToken: 'tok-SECRET-123', webhookSigningSecret: 'sign-SECRET' });
		const header = Buffer.from('key-1:tok-SECRET-123').toString('base64');
		expect(redact(`Basic ${header} tok-SECRET-123 sign-SECRET`, secrets)).toBe('Basic *** *** ***');
		expect(redact({ nested: ['sign-SECRET'] }, secrets)).toEqual({ nested: ['***'] });
	});
});
