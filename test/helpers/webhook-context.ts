/* eslint-disable @n8n/community-nodes/no-restricted-imports -- parses query strings as n8n does (querystring); never shipped */
/**
 * Calls a trigger node's `webhook()` / webhook lifecycle methods with a context shaped like the
 * one n8n builds for a webhook request: the request as n8n's body parser leaves it (parsed body
 * plus `rawBody`), a response object that records what the node answered, parameters,
 * credentials, static data and the node's webhook URL.
 */
import { parse as parseQuery } from 'querystring';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { exotelRequest } from '../../nodes/shared/transport/request';

export interface WebhookCall {
	method?: 'GET' | 'POST';
	/** Raw bytes as sent; parsed like n8n does by content type. */
	rawBody?: string | Buffer;
	contentType?: string;
	headers?: Record<string, string>;
	query?: IDataObject;
	parameters?: IDataObject;
	credentials?: IDataObject;
	/** The node's static data, kept between calls when the same object is given. */
	staticData?: IDataObject;
}

export interface WebhookAnswer {
	status: number;
	body: unknown;
	workflowData?: IDataObject[];
	response: IWebhookResponseData;
	/** What the node wrote to n8n's log at warn level. */
	warnings: string[];
	/**
	 * Who answered: the node itself, at once (`node`), or n8n with the node's `webhookResponse` once it
	 * held the execution (`n8n`), as n8n's webhook helpers do for responseMode onReceived.
	 */
	answeredBy: 'node' | 'n8n' | 'nobody';
	/** How many times the node read its credential (n8n looks it up and decrypts it each time). */
	credentialReads: number;
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
	if (!raw.length) return {};
	if (contentType === 'application/json') return JSON.parse(raw.toString('utf8'));
	if (contentType === 'application/x-www-form-urlencoded') return { ...parseQuery(raw.toString('utf8')) };
	if (contentType === 'text/plain') return raw.toString('utf8');
	return {};
}

const node = { id: 'trigger', name: 'Trigger', type: 'n8n-nodes-exotel.trigger', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

export async function callWebhook(nodeType: INodeType, call: WebhookCall): Promise<WebhookAnswer> {
	const raw = Buffer.isBuffer(call.rawBody) ? call.rawBody : Buffer.from(call.rawBody ?? '');
	const contentType = call.contentType ?? 'application/json';
	const headers: Record<string, string> = { 'content-type': contentType };
	for (const [key, value] of Object.entries(call.headers ?? {})) headers[key.toLowerCase()] = value;
	const req = { method: call.method ?? 'POST', headers, query: call.query ?? {}, body: parseBody(raw, contentType), rawBody: raw };
	const sent = { status: 200, body: undefined as unknown, written: false };
	const res = {
		status(code: number) {
			sent.status = code;
			return res;
		},
		type() {
			return res;
		},
		json(body: unknown) {
			sent.body = body;
			sent.written = true;
			return res;
		},
		send(body: unknown) {
			sent.body = body;
			sent.written = true;
			return res;
		},
	};
	const parameters = call.parameters ?? {};
	const staticData = call.staticData ?? {};
	const warnings: string[] = [];
	let credentialReads = 0;
	const context = {
		getRequestObject: () => req,
		getResponseObject: () => res,
		getWebhookName: () => (call.method === 'GET' ? 'setup' : 'default'),
		getNodeParameter: (name: string, fallback?: unknown) => (name in parameters ? parameters[name] : fallback),
		getCredentials: async () => {
			credentialReads++;
			return call.credentials ?? {};
		},
		getNode: () => node,
		getWorkflow: () => ({ id: 'workflow-1', active: true }),
		getWorkflowStaticData: () => staticData,
		logger: { warn: (message: string) => warnings.push(message), debug: () => undefined, info: () => undefined, error: () => undefined },
		helpers: { returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })) },
	} as unknown as IWebhookFunctions;
	const response = await nodeType.webhook!.call(context);
	const workflowData = response.workflowData?.[0]?.map((item) => item.json);
	let answeredBy: WebhookAnswer['answeredBy'] = sent.written ? 'node' : 'nobody';
	if (!response.noWebhookResponse) {
		// n8n answers itself: writing the response as well would send it twice
		if (sent.written) throw new Error('the node wrote the response and left n8n to answer too');
		if (response.webhookResponse !== undefined) {
			answeredBy = 'n8n';
			sent.status = 200;
			sent.body = response.webhookResponse;
		}
	}
	return { status: sent.status, body: sent.body, workflowData, response, warnings, answeredBy, credentialReads };
}

/**
 * A hook context (activation / deactivation) whose requests go through the real transport and
 * `httpRequestWithAuthentication`-like auth. `mode` / `activation` are what n8n 2.8 passes:
 * activation 'trigger' + init/activate/update, a test listen 'manual' + 'manual', and both
 * deactivation and the end of a test listen 'internal' + 'update' (then only the URL differs).
 */
export function hookContext(options: {
	parameters: IDataObject;
	credentials: IDataObject;
	webhookUrl: string;
	staticData: IDataObject;
	request: (requestOptions: IDataObject) => Promise<unknown>;
	mode?: WorkflowExecuteMode;
	activation?: WorkflowActivateMode;
}): IHookFunctions {
	const context = {
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => options.activation ?? 'activate',
		getNodeParameter: (name: string, fallback?: unknown) => (name in options.parameters ? options.parameters[name] : fallback),
		getCredentials: async () => options.credentials,
		getNodeWebhookUrl: () => options.webhookUrl,
		getWorkflowStaticData: () => options.staticData,
		getNode: () => node,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, requestOptions: IDataObject) => await options.request(requestOptions),
		},
	};
	return context as unknown as IHookFunctions;
}

export { exotelRequest };
