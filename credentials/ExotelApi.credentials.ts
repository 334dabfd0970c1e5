import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseSuccessBody,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { regionUrlExpression } from '../nodes/shared/transport/hosts';
import { rateLimitCredentialField } from '../nodes/shared/transport/rateLimits';

export class ExotelApi implements ICredentialType {
	name = 'exotelApi';

	displayName = 'Exotel API';

	icon: Icon = { light: 'file:../icons/exotel.svg', dark: 'file:../icons/exotel.dark.svg' };

	documentationUrl = 'https://developer.exotel.com/docs/getting-started/api-credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'API key from the dashboard, under Developer Settings > API Settings',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'API token shown next to the API key',
		},
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			required: true,
			description: 'Account SID shown on the same page as the API key',
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'options',
			options: [
				{ name: 'Custom', value: 'custom', description: 'Enter the base URLs yourself (for example the sandbox)' },
				{ name: 'Mumbai', value: 'mumbai', description: 'api.in.exotel.com' },
				{ name: 'Singapore', value: 'singapore', description: 'api.exotel.com' },
			],
			default: 'singapore',
			description: 'Region of the account; the dashboard URL tells which one (my.in.exotel.com is Mumbai)',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'http://127.0.0.1:4010',
			required: true,
			displayOptions: { show: { region: ['custom'] } },
			description: 'Main API base URL, without a trailing slash',
		},
		{
			displayName: 'Contact-Center Management Base URL',
			name: 'ccmBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'http://127.0.0.1:4010/ccm',
			required: true,
			displayOptions: { show: { region: ['custom'] } },
			description: 'Base URL of the contact-center management API (users, call details, contact upload)',
		},
		{
			displayName: 'Chat App Envelope',
			name: 'chatAppEnvelope',
			type: 'options',
			options: [
				{ name: 'Auto', value: 'auto', description: "WhatsApp on Exotel's regional hosts, Chat App on a custom base URL" },
				{ name: 'Chat App (API Reference)', value: 'chatapp', description: 'Top-level from, to and content; webhooks under chatapp/webhook' },
				{ name: 'WhatsApp (Live Service)', value: 'whatsapp', description: 'Messages inside a whatsapp envelope; webhooks under whatsapp/webhook' },
			],
			default: 'auto',
			description:
				'How WhatsApp sends and webhook settings are wrapped. Replies and callbacks are read in either shape whatever this says.',
		},
		{
			displayName: 'Account Time Zone',
			name: 'timeZone',
			type: 'string',
			default: '',
			placeholder: 'Asia/Kolkata',
			description:
				"Time zone of the account's call dates, which the v1 API gives without a zone. Empty: India time on Exotel's regional hosts; on a custom base URL dates are sent as typed.",
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Leave empty unless your account signs its webhooks: the API reference describes an X-Service-Signature header on chat-app webhooks, but the live service is not known to send one. When set, unsigned chat-app callbacks are refused.',
		},
		rateLimitCredentialField(['bulkSms', 'campaign', 'chatApp', 'generalGet', 'sms', 'voice']),
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			auth: {
				username: '={{$credentials.apiKey}}',
				password: '={{$credentials.apiToken}}',
			},
		},
	};

	// The bulk call query with one row is the cheapest authenticated read the API has. Every answer
	// comes back to the rules (ignoreHttpStatusErrors): n8n reads rules on an error only when the error
	// carries the HTTP answer, and its own 401 does not, so a wrong token and a wrong account would
	// both get n8n's generic words. Unreachable hosts still fail with n8n's code (ENOTFOUND, ECONNREFUSED).
	test: ICredentialTestRequest = {
		request: {
			baseURL: regionUrlExpression('baseUrl'),
			url: '=/v1/Accounts/{{$credentials.accountSid}}/Calls.json',
			qs: { PageSize: 1 },
			headers: { Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			...refusedWith(
				401,
				"The service refused the API Key, API Token or Account SID (401). It gives this one answer when any of them is wrong: copy all three from the same account's API Settings page, and check Region (a dashboard on my.in.exotel.com is Mumbai).",
			),
			...refusedWith(
				403,
				"API Key and API Token were accepted, but this account may not read its call log (403): check the account's API access and KYC status in the dashboard.",
			),
			...refusedWith(404, 'No such account at this address (404): check Account SID, and Region or Base URL.'),
			...refusedWith(429, "The service is limiting this account's requests (429), so the credential could not be checked: test again in a minute."),
			...[500, 502, 503, 504].flatMap((status) =>
				refusedWith(status, `The service had a problem (${status}), so the credential could not be checked: test again later.`),
			),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'Calls',
					value: undefined,
					message:
						'The address did not answer as the Exotel API (no call list came back): check Region or Base URL. A refusal given as a page rather than an API error looks the same, so check API Key, API Token and Account SID too.',
				},
			},
		],
	};
}

/** A rule for a v1 error answer (`RestException.Status`, a number in JSON, text where a body was XML). */
function refusedWith(status: number, message: string): IAuthenticateRuleResponseSuccessBody[] {
	return [status, String(status)].map((value) => ({ type: 'responseSuccessBody', properties: { key: 'RestException.Status', value, message } }));
}
