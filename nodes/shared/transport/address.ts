// Where a request goes and as whom: its credential, base URL and path, and the HTTP options that carry its body.
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { encodeForm } from './encoding';
import { pathOf, type ExotelBase, type ExotelCredentialType, type ExotelRequest } from './endpoint';
import { REGION_HOSTS, cmsBaseUrlFrom } from './hosts';
import type { NodeRun } from './run';
import { secretsOf } from './secrets';

export type ExotelContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

const CREDENTIAL_OF_BASE: Record<ExotelBase, ExotelCredentialType> = {
	base: 'exotelApi',
	ccm: 'exotelApi',
	integrations: 'exotelBearerTokenApi',
	cms: 'exotelBearerTokenApi',
	cc: 'exotelContactCenterApi',
	alloc: 'exotelAllocationApi',
};

/** How long one attempt may wait for an answer (an object so tests can shorten it). */
export const TIMEOUT_POLICY = {
	requestMs: 60_000,
};

/**
 * Headers the spec's authentication table asks of every request to a base, body or not. The
 * configuration lookup wants Content-Type and Accept set to application/json even on its GET;
 * elsewhere Content-Type goes only with a body (set from the body's encoding).
 */
export const HEADERS_OF_BASE: Partial<Record<ExotelBase, Record<string, string>>> = {
	cms: { Accept: 'application/json', 'Content-Type': 'application/json' },
};

/** Headers before the body's own: JSON answers asked for, except a raw-bytes download; then the base's rule. */
export function requestHeaders(request: { base: ExotelBase; binary?: boolean }): Record<string, string> {
	// A download answers audio bytes: asking it for JSON is asking for what it cannot give.
	const accept = request.binary ? '*/*' : 'application/json';
	return { Accept: accept, ...HEADERS_OF_BASE[request.base] };
}

function trimSlash(url: unknown): string {
	return String(url ?? '').trim().replace(/\/+$/, '');
}

/** Resolves `{base_url}`-style placeholders from a credential, as the spec's base table names them. */
export function baseUrlOf(base: ExotelBase, credentials: ICredentialDataDecryptedObject): string {
	const region = credentials.region as keyof typeof REGION_HOSTS | 'custom' | undefined;
	const regional = (field: 'baseUrl' | 'ccmBaseUrl') =>
		region === 'custom' || region === undefined ? trimSlash(credentials[field]) : REGION_HOSTS[region][field];
	switch (base) {
		case 'base':
			return regional('baseUrl');
		case 'ccm':
			return regional('ccmBaseUrl');
		case 'integrations':
			return trimSlash(credentials.integrationsBaseUrl);
		case 'cms':
			if (trimSlash(credentials.cmsBaseUrl)) return trimSlash(credentials.cmsBaseUrl);
			return credentials.ccBaseUrl ? cmsBaseUrlFrom(String(credentials.ccBaseUrl)) : '';
		case 'cc':
			return trimSlash(credentials.ccBaseUrl);
		case 'alloc':
			return trimSlash(credentials.allocBaseUrl);
	}
}

/** A credential, read once a run (n8n decrypts it on every read). */
export async function exotelCredentials(context: ExotelContext, run: NodeRun, credentialType: ExotelCredentialType): Promise<ICredentialDataDecryptedObject> {
	const read = async () => await context.getCredentials<ICredentialDataDecryptedObject>(credentialType);
	// A session credential changes when n8n logs in again: its secrets must be read fresh to be redacted.
	return credentialType === 'exotelContactCenterApi' ? await read() : await run.credentialsOf(credentialType, read);
}

/** A request made concrete: as whom, where, the secrets to keep out of its errors, and n8n's options to send it. */
export interface Address {
	credentialType: ExotelCredentialType;
	credentials: ICredentialDataDecryptedObject;
	baseUrl: string;
	/** The path as sent, for error messages (the base URL left out). */
	path: string;
	secrets: string[];
	options: IHttpRequestOptions;
}

export async function addressOf(context: ExotelContext, run: NodeRun, request: ExotelRequest): Promise<Address> {
	const { endpoint } = request;
	const credentialType = request.credentialType ?? CREDENTIAL_OF_BASE[endpoint.base];
	const credentials = await exotelCredentials(context, run, credentialType);
	const baseUrl = request.baseUrl ? trimSlash(request.baseUrl) : baseUrlOf(endpoint.base, credentials);
	if (!baseUrl) {
		throw new NodeOperationError(context.getNode(), `The credential has no base URL for the ${endpoint.base} API`, {
			itemIndex: request.itemIndex,
			description: `Fill in the matching base URL in the "${credentialType}" credential.`,
		});
	}
	const path = pathOf(endpoint, String(credentials.accountSid ?? ''), request.params);
	const secrets = [...secretsOf(credentials), ...(request.secrets ?? []).filter((secret) => secret.length >= 4)];
	return { credentialType, credentials, baseUrl, path, secrets, options: httpOptionsOf(request, `${baseUrl}${path}`) };
}

/** n8n's options for the request: every answer returned whole (the pacing reads its headers), the body in its encoding. */
function httpOptionsOf(request: ExotelRequest, url: string): IHttpRequestOptions {
	const headers = requestHeaders({ base: request.endpoint.base, binary: request.binary });
	const options: IHttpRequestOptions = {
		method: request.endpoint.method,
		url,
		qs: request.qs,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeout ?? TIMEOUT_POLICY.requestMs,
	};
	if (request.form) {
		headers['Content-Type'] = 'application/x-www-form-urlencoded';
		options.body = encodeForm(request.form);
	} else if (request.rawBody) {
		headers['Content-Type'] = request.rawBody.contentType;
		options.body = request.rawBody.data;
	} else if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = request.body;
		options.json = true;
	}
	if (request.binary) options.encoding = 'arraybuffer';
	return options;
}
