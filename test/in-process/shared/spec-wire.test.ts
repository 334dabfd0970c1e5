/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads and records its golden file and watches the sandbox server (fs, path, http, process, __dirname); never shipped */
/**
 * The spec's wire, pinned: every operation of every node, run through n8n-core against the sandbox in
 * its normal mode, sends exactly the requests its recording in `spec-wire.golden.json` holds (method,
 * URL with its query, the headers the package sets, the body as text), in order. Every case was
 * recorded at commit 4edefca, the package then at version 0.5.0 but with one operation 0.5.0 did not
 * have (SMS → Check Against DLT Template, added by d213e62); `spec-wire.provenance.json` says for
 * each case where its recording came from (the release, or the commit that added the operation) and
 * any later change, and a test below holds the two files to the same cases. A change of any byte of a
 * recording is a change of what the service receives, so it fails here, named by its case, until it
 * is meant (then record again with UPDATE_SPEC_WIRE=1, review the diff and add the case's provenance;
 * never on CI, where recording would hide the change: it refuses there).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { HookContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters, INodeType, IWorkflowSettings } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { packageNode, SANDBOX_ACCOUNT, sandboxCredentials, useSandbox } from '../../helpers/exotel';
import { CsvFileNode } from '../../helpers/csv-file-node';
import { VERIFY_TOKEN } from '../../helpers/secrets';
import {
	chain,
	CredentialStore,
	hookAdditionalData,
	itemsNode,
	packageNodeType,
	packageNodeTypes,
	runWorkflow,
	type RunResult,
} from '../../helpers/n8n-core-harness';
import { SANDBOX_BIG_LIST } from '../../../sandbox/fixtures';
import { seededCallSid } from '../../../sandbox/handlers/calls';
import { declaredEndpointsOf } from '../../../sandbox/package-endpoints';

const GOLDEN_FILE = path.join(__dirname, 'spec-wire.golden.json');
/** Where each recording came from: case name → {added: commit, from: release or commit, changed?}. */
const PROVENANCE_FILE = path.join(__dirname, 'spec-wire.provenance.json');
/** The contact-center credential's login (its preAuthentication), the one request no node declares. */
const CONTACT_CENTER_LOGIN = '/servicerestapi/session/userLogin';
/** Where the sandbox keeps the recordings its voice logs link to. */
const RECORDINGS = '/__recordings/';

/**
 * Whether this run records the golden file (UPDATE_SPEC_WIRE=1). Throws on CI (CI set): there a
 * recording would only write down whatever the code sends now, so the check could not fail.
 */
function recordingRequested(env: Record<string, string | undefined>): boolean {
	if (env.UPDATE_SPEC_WIRE !== '1') return false;
	if (env.CI !== undefined && env.CI !== '') {
		throw new Error('UPDATE_SPEC_WIRE=1 refuses to run on CI (CI is set): record spec-wire.golden.json locally and review the diff');
	}
	return true;
}
const UPDATE = recordingRequested(process.env);

const SID = SANDBOX_ACCOUNT.accountSid;
const FLOW = `http://my.exotel.com/${SID}/flowml/start_voice/926`;
const FROM = '+918047112233';
const TO = '+919876543210';
/** Where resume URLs point: not loopback, so the sandbox never posts a callback into a waiting run. */
const N8N_URL = 'https://n8n.example.com/';
/** One fixed node id, so resume URLs differ only by execution and signature. */
const NODE_ID = 'spec-wire-node';

const sandbox = useSandbox();

// ---- Dates relative to today ----

// The service keeps a few months of call history and the node refuses older bounds, so the date
// filters are days before today (UTC), fixed once for the file; the recording shows them as `<day-N>`.
const TODAY = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const DAY_OFFSETS = [-3, -1, 30, 31] as const;
type DayOffset = (typeof DAY_OFFSETS)[number];
const day = (offset: DayOffset) => new Date(TODAY + offset * 86_400_000).toISOString().slice(0, 10);

// ---- What is recorded ----

interface WireRequest {
	method: string;
	/** As sent: the base's path prefix, the path and the query, undecoded. */
	url: string;
	/** Lower-cased names, sorted; without the ones the HTTP client sets (SKIPPED_HEADERS); authorization by credential, not value. */
	headers: Record<string, string>;
	/** The body as text, exactly (utf8). */
	body: string;
}

/**
 * Set by the HTTP client (n8n's axios), not by the package: not part of what the package chooses to
 * send. `x-spec-wire-seq` is this file's own marker (below).
 */
const SKIPPED_HEADERS = new Set(['content-length', 'user-agent', 'host', 'connection', 'accept-encoding', 'transfer-encoding', 'x-spec-wire-seq']);

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** Authorization is recorded as the credential it carries, never its value: which scheme and secret go to which base is wire. */
const AUTHORIZATION: Record<string, string> = {
	[basic(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken)]: 'Basic <apiKey:apiToken>',
	[`Bearer ${SANDBOX_ACCOUNT.bearerToken}`]: 'Bearer <bearerToken>',
	[basic(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword)]: 'Basic <allocUsername:allocPassword>',
};

/** The credentials' secrets, shown by name: a fixture holds no secret, yet shows which one went where. */
const SECRETS: Array<[string, string]> = [
	...(['apiToken', 'bearerToken', 'ccToken', 'allocPassword', 'webhookSigningSecret'] as const).map((name): [string, string] => [SANDBOX_ACCOUNT[name], `<secret:${name}>`]),
	// the chat app's verify token, a node parameter sent in the webhook settings
	[VERIFY_TOKEN, '<secret:verifyToken>'],
];

/**
 * Everything that varies from run to run, each replaced by a fixed token (applied to the URL, the
 * header values and the body alike):
 * - the multipart boundary (random per upload) → `<boundary>`;
 * - the days before/after today used in date fields → `<day-N>` / `<day+N>`;
 * - resume URLs of waiting runs: the execution id (a counter of the harness) → `<execution>`, n8n's
 *   signature of the URL (an HMAC over that id) → `<signature>`; raw and form-encoded;
 * - the contact-center session id (random per login) → `<session>`;
 * - the sandbox's origin (random port) → `<sandbox>`;
 * - the Calls.json paging cursor (`After`, the service's opaque token: it holds the date of a seeded
 *   call, and those dates move with the clock) → `<cursor>`;
 * - values the sandbox made and the case then sends back (allocation and upload ids made in setup,
 *   the sid of a placed call) → the placeholder the case names them by;
 * - the credentials' secrets → `<secret:name>` (not volatile, but kept out of the fixture).
 */
function normalise(text: string, echoed: Record<string, string>, boundary?: string): string {
	let out = text;
	if (boundary) out = out.split(boundary).join('<boundary>');
	for (const offset of DAY_OFFSETS) out = out.split(day(offset)).join(`<day${offset < 0 ? offset : `+${offset}`}>`);
	out = out
		.replace(/(\/webhook-waiting\/)\d+(\/)/g, '$1<execution>$2')
		.replace(/(%2Fwebhook-waiting%2F)\d+(%2F)/gi, '$1<execution>$2')
		.replace(/(signature=)[0-9a-f]{64}/g, '$1<signature>')
		.replace(/(signature%3D)[0-9a-f]{64}/gi, '$1<signature>')
		.replace(/([?&]After=)[A-Za-z0-9_-]+/g, '$1<cursor>')
		.split(sandbox.origin)
		.join('<sandbox>')
		.split(encodeURIComponent(sandbox.origin))
		.join('<sandbox>');
	for (const [placeholder, value] of Object.entries(echoed)) out = out.split(value).join(placeholder);
	for (const [secret, token] of SECRETS) out = out.split(secret).join(token);
	return out;
}

/** The recording link the service gives is signed with an expiry from the clock: those two values become `<expires>`, `<sig>`. */
function normaliseRecordingLink(url: string): string {
	if (!url.includes('/__recordings/')) return url;
	return url.replace(/([?&]expires=)[^&]*/, '$1<expires>').replace(/([?&]sig=)[^&]*/, '$1<sig>');
}

// The sandbox records each request's path without its base prefix and its query parsed; the URL as
// sent (undecoded, query order kept) is read off the server's request event. Each request is tagged
// with a sequence header there, which the sandbox's record then carries, so the two are paired even
// when parallel requests finish reading their bodies in another order.
const sentUrls = new Map<string, string>();
let sequence = 0;
beforeAll(() => {
	const server = (sandbox as unknown as { server: http.Server }).server;
	server.prependListener('request', (req: http.IncomingMessage) => {
		const seq = String(++sequence);
		req.headers['x-spec-wire-seq'] = seq;
		sentUrls.set(seq, req.url ?? '');
	});
});

/** The requests of the case so far, as recorded (the sandbox's control calls are never recorded). */
function recorded(echoed: Record<string, string>): WireRequest[] {
	return sandbox.requests().map((record): WireRequest => {
		const url = sentUrls.get(record.headers['x-spec-wire-seq']);
		if (url === undefined) throw new Error(`No URL seen for the request ${record.method} ${record.path}`);
		const boundary = /boundary=([^;]+)/.exec(record.headers['content-type'] ?? '')?.[1];
		const headers: Record<string, string> = {};
		for (const name of Object.keys(record.headers).sort()) {
			if (SKIPPED_HEADERS.has(name)) continue;
			const value = record.headers[name];
			if (name === 'authorization') headers[name] = AUTHORIZATION[value] ?? `${value.split(' ')[0]} <unknown credentials>`;
			else headers[name] = name === 'sessionid' ? '<session>' : normalise(value, echoed, boundary);
		}
		return {
			method: record.method,
			url: normaliseRecordingLink(normalise(url, echoed)),
			headers,
			body: normalise(record.rawBody, echoed, boundary),
		};
	});
}

// ---- The cases ----

type NodeName = 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';

interface NodeCase {
	node: NodeName;
	parameters: Record<string, unknown>;
	items?: Array<Record<string, unknown>>;
	/**
	 * Makes what the case needs, through a node run of its own or the API (not recorded), and returns the values
	 * the sandbox made that the case sends back, by the placeholder its parameters use for them.
	 */
	setup?: () => Promise<Record<string, string>>;
	/** Values the sandbox made during the run that the run itself sent back, by placeholder. */
	madeInRun?: (result: RunResult) => Record<string, string>;
	/** The items go to the node through the test's CSV File node (binary uploads). */
	csvFiles?: boolean;
	/** A send-and-wait operation: the run sends, then waits. */
	waits?: boolean;
	/** A case that sends nothing (Check Against DLT Template). */
	sendsNothing?: boolean;
	workflowSettings?: IWorkflowSettings;
}

/** What is not a workflow run of an action node (the trigger's registration). */
interface CustomCase {
	run: () => Promise<void>;
}

type WireCase = NodeCase | CustomCase;

function node(name: NodeName, parameters: Record<string, unknown>): INode {
	return { ...packageNode(name, parameters as INodeParameters), id: NODE_ID };
}

async function runCase(wireCase: NodeCase, parameters: Record<string, unknown>): Promise<RunResult> {
	const items = wireCase.items ?? [{}];
	const nodes = wireCase.csvFiles
		? [itemsNode('Items', items), { id: 'csv-file', name: 'CSV File', type: 'test.csvFile', typeVersion: 1, position: [100, 0] as [number, number], parameters: {} }, node(wireCase.node, parameters)]
		: [itemsNode('Items', items), node(wireCase.node, parameters)];
	return await runWorkflow({
		nodes,
		connections: wireCase.csvFiles ? chain('Items', 'CSV File', 'Exotel') : chain('Items', 'Exotel'),
		credentials: sandboxCredentials(sandbox),
		nodeTypes: wireCase.csvFiles ? [new CsvFileNode()] : undefined,
		settings: wireCase.workflowSettings,
		baseUrl: N8N_URL,
	});
}

/** A run of a node whose output the case needs (setup): must succeed. */
async function setupRun(name: NodeName, parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}]): Promise<IDataObject> {
	const result = await runWorkflow({
		nodes: [itemsNode('Items', items), node(name, parameters)],
		connections: chain('Items', 'Exotel'),
		credentials: sandboxCredentials(sandbox),
	});
	if (result.error) throw new Error(`Setup run failed: ${result.error.message}`);
	return result.output('Exotel')[0].json;
}

/** Replaces each placeholder in the parameters (deeply) by the value setup made. */
function withValues(value: unknown, values: Record<string, string>): unknown {
	if (typeof value === 'string') return Object.entries(values).reduce((text, [placeholder, made]) => text.split(placeholder).join(made), value);
	if (Array.isArray(value)) return value.map((entry) => withValues(entry, values));
	if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withValues(entry, values)]));
	return value;
}

/**
 * The Messaging Trigger's activation as n8n runs it: a real n8n-core HookContext (credentials through
 * the harness's credentials helper, requests through n8n's own httpRequestWithAuthentication), the
 * node's checkExists then create.
 */
async function activateTrigger(): Promise<void> {
	const store = new CredentialStore(sandboxCredentials(sandbox));
	const trigger: INode = {
		id: 'spec-wire-trigger',
		name: 'Exotel Messaging Trigger',
		type: packageNodeType('exotelMessagingTrigger'),
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'spec-wire-hook',
		parameters: { registerWebhooks: true, verifyToken: VERIFY_TOKEN },
		credentials: store.nodeCredentials('exotelApi'),
	};
	const workflow = new Workflow({ id: 'spec-wire-workflow', nodes: [trigger], connections: {}, active: true, nodeTypes: packageNodeTypes(), staticData: {}, settings: { executionOrder: 'v1' } });
	const additionalData = hookAdditionalData(store, N8N_URL);
	const workflowNode = workflow.getNode(trigger.name) as INode;
	const context = new HookContext(workflow, workflowNode, additionalData, 'trigger', 'activate');
	const methods = (workflow.nodeTypes.getByNameAndVersion(trigger.type, 1) as INodeType).webhookMethods?.default;
	if (!methods) throw new Error('The Messaging Trigger has no webhook methods');
	if (await methods.checkExists.call(context)) throw new Error('checkExists said registered before anything was registered');
	if (!(await methods.create.call(context))) throw new Error('create did not register');
}

const sms = (parameters: Record<string, unknown>) => ({ resource: 'sms', ...parameters });
const rcs = (parameters: Record<string, unknown>) => ({ resource: 'rcs', ...parameters });
const chatApp = (parameters: Record<string, unknown>) => ({ resource: 'chatApp', from: FROM, to: TO, ...parameters });
const call = (parameters: Record<string, unknown>) => ({ resource: 'call', ...parameters });
const campaign = (parameters: Record<string, unknown>) => ({ resource: 'campaign', ...parameters });
const list = (parameters: Record<string, unknown>) => ({ resource: 'list', ...parameters });
const device = (parameters: Record<string, unknown>) => ({ resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1', ...parameters });
const ccUser = (parameters: Record<string, unknown>) => ({ resource: 'user', ...parameters });
const allocation = (parameters: Record<string, unknown>) => ({ resource: 'allocation', ...parameters });

const customers = [
	{ phone: '+919876543210', name: 'Asha', order: 'ORD-1042' },
	{ phone: '+919876543211', name: 'Ravi', order: 'ORD-1043' },
	{ phone: '+919876543212', name: 'Meera', order: 'ORD-1044' },
];
const smsSend = { operation: 'send', from: 'ACMEIN', to: '={{ $json.phone }}' };
const SMS_OPTIONS = {
	customField: 'order-batch-7',
	dltEntityId: '1101456789012345678',
	dltTemplateId: '1107161234567890123',
	encodingType: 'unicode',
	priority: 'high',
	smsType: 'transactional',
	shortenUrl: true,
	shortenUrlHeader: 'ACMEIN',
	shortenUrlTracking: true,
	clickTrackingCallbackUrl: 'https://n8n.example.com/webhook/clicks',
};
const APPROVAL = { values: { approvalType: 'double', approveLabel: 'Approve', disapproveLabel: 'Decline' } };
const CC_USER = { operation: 'create', userId: 'asha.rao', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 };
const ALLOCATE = { operation: 'allocate', connectionId: 'order-10482', apartyNumbers: '+919876543210, +919876543211', bpartyNumbers: '+919812345678', usage: 'twoway' };
const RECORDED_CALL = '<recorded-call-sid>';

/** A completed, recorded seeded call (the seeds are fixed; which call it is stays the sandbox's business). */
async function recordedCall(): Promise<Record<string, string>> {
	const res = await fetch(`${sandbox.origin}/v1/Accounts/${SID}/Calls.json?Status=completed&PageSize=100`, {
		headers: { authorization: basic(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken) },
	});
	const calls = ((await res.json()) as { Calls: Array<{ Sid: string; RecordingUrl: string | null }> }).Calls;
	return { [RECORDED_CALL]: calls.find((c) => c.RecordingUrl)!.Sid };
}

const CASES: Array<[string, WireCase]> = [
	// ---- Messaging → SMS ----
	['Messaging → SMS → Send: one item (static bulk of one)', { node: 'exotelMessaging', parameters: sms({ ...smsSend, body: 'Your order ORD-1042 has shipped.' }), items: customers.slice(0, 1) }],
	['Messaging → SMS → Send: several items, one text (static bulk, To[])', { node: 'exotelMessaging', parameters: sms({ ...smsSend, body: 'Our store opens at 10:00 tomorrow.', additionalFields: { dltEntityId: '1101456789012345678' } }), items: customers }],
	[
		'Messaging → SMS → Send: different texts with options (dynamic bulk)',
		{
			node: 'exotelMessaging',
			parameters: sms({
				...smsSend,
				body: '=Hello {{ $json.name }}, your order {{ $json.order }} has shipped: https://acme.example/track/{{ $json.order }}',
				statusCallback: 'https://n8n.example.com/webhook/exotel-messaging',
				additionalFields: SMS_OPTIONS,
			}),
			items: customers,
		},
	],
	['Messaging → SMS → Send: per-item sender and emoji (dynamic bulk)', { node: 'exotelMessaging', parameters: sms({ ...smsSend, from: '={{ $json.sender }}', body: 'Your OTP is 4821 🔐' }), items: [{ phone: TO, sender: 'ACMEIN' }, { phone: '+919876543211', sender: 'ACMEHQ' }] }],
	['Messaging → SMS → Send to Many (static bulk)', { node: 'exotelMessaging', parameters: sms({ operation: 'sendToMany', from: 'ACMEIN', recipients: '+919876543210, +919876543211\n+919876543212', body: 'Flash sale today only.', additionalFields: { dltEntityId: '1101456789012345678', shortenUrl: true } }) }],
	[
		'Messaging → SMS → Send to Many with a status callback (dynamic bulk)',
		{ node: 'exotelMessaging', parameters: sms({ operation: 'sendToMany', from: 'ACMEIN', recipients: '+919876543210,+919876543211', body: 'Flash sale today only.', statusCallback: 'https://n8n.example.com/webhook/exotel-messaging', additionalFields: { customField: 'sale-3', smsType: 'promotional' } }) },
	],
	['Messaging → SMS → Check Against DLT Template (sends nothing)', { node: 'exotelMessaging', parameters: sms({ operation: 'checkDltTemplate', body: 'Your OTP is 4821', dltTemplateText: 'Your OTP is {#var#}' }), sendsNothing: true }],
	[
		'Messaging → SMS → Send and Wait for Approval (the send)',
		{ node: 'exotelMessaging', parameters: sms({ operation: 'sendAndWait', from: 'ACMEHQ', to: TO, message: 'Confirm your appointment on Tue 10:30?', approvalOptions: APPROVAL, options: { dltEntityId: '1101456789012345678', dltTemplateId: '1107161234567890123' } }), waits: true },
	],
	['Messaging → SMS → Send and Wait for Delivery (the send)', { node: 'exotelMessaging', parameters: sms({ operation: 'sendAndWaitForDelivery', from: 'ACMEHQ', to: TO, body: 'Your OTP is 482913' }), waits: true }],

	// ---- Messaging → RCS ----
	[
		'Messaging → RCS → Send Template with SMS fallback and options',
		{
			node: 'exotelMessaging',
			parameters: rcs({
				operation: 'sendTemplate',
				botId: 'acme_orders_bot',
				to: '={{ $json.phone }}',
				templateName: 'order_update',
				templateVariables: { TemplateParam1: '={{ $json.name }}', TemplateParam2: '={{ $json.order }}' },
				statusCallback: 'https://n8n.example.com/webhook/exotel-messaging',
				smsFallback: true,
				fallbackFrom: 'ACMEIN',
				fallbackText: '=Hello {{ $json.name }}, order {{ $json.order }} shipped: https://acme.example/t',
				fallbackSmsType: 'transactional',
				fallbackOptions: { dltEntityId: '1101456789012345678', dltTemplateId: '1107161234567890123', shortenUrl: true, tracking: true, clickTrackingCallbackUrl: 'https://n8n.example.com/webhook/clicks', customDomain: 'acme.link', encodingType: 'plain', priority: 'normal' },
				options: { customData: 'msg-data', channelCustomData: 'channel-data', channelStatusCallback: 'https://n8n.example.com/webhook/rcs', requestCustomData: 'request-data', requestStatusCallback: 'https://n8n.example.com/webhook/request' },
			}),
			items: customers,
		},
	],
	['Messaging → RCS → Send Template, minimal', { node: 'exotelMessaging', parameters: rcs({ operation: 'sendTemplate', botId: 'acme_bot', to: TO, templateName: 'otp_code' }) }],
	['Messaging → RCS → Send Template and Wait for Reply (the send)', { node: 'exotelMessaging', parameters: rcs({ operation: 'sendAndWait', botId: 'acme_orders_bot', to: TO, templateName: 'delivery_slot', templateVariables: { TemplateParam1: 'Asha' } }), waits: true }],

	// ---- Messaging → Chat App ----
	['Messaging → Chat App → Send: text', { node: 'exotelMessaging', parameters: chatApp({ operation: 'send', messageType: 'text', text: 'Your order shipped: https://acme.example/t/1042', previewUrl: true, statusCallback: 'https://n8n.example.com/webhook/exotel-messaging', options: { customData: 'order-1042' } }) }],
	[
		'Messaging → Chat App → Send: interactive reply buttons',
		{
			node: 'exotelMessaging',
			parameters: chatApp({
				operation: 'send',
				messageType: 'button',
				headerType: 'text',
				headerText: 'Order 1042',
				bodyText: 'Deliver tomorrow between 10 and 12?',
				footerText: 'Acme Stores',
				buttons: { button: [{ id: 'yes', title: 'Yes' }, { id: 'later', title: 'Another slot' }] },
			}),
		},
	],
	[
		'Messaging → Chat App → Send: interactive list',
		{
			node: 'exotelMessaging',
			parameters: chatApp({
				operation: 'send',
				messageType: 'list',
				headerType: 'image',
				headerMediaUrl: 'https://acme.example/img/slots.jpg',
				bodyText: 'Pick a delivery slot',
				listButton: 'Choose a slot',
				rows: {
					row: [
						{ id: 'mon-am', title: 'Monday morning', description: '9 to 12', sectionTitle: 'Monday' },
						{ id: 'mon-pm', title: 'Monday evening', sectionTitle: 'Monday' },
						{ id: 'tue-am', title: 'Tuesday morning', sectionTitle: 'Tuesday' },
					],
				},
			}),
		},
	],
	['Messaging → Chat App → Send: document', { node: 'exotelMessaging', parameters: chatApp({ operation: 'send', messageType: 'document', mediaUrl: 'https://acme.example/files/invoice-1042.pdf', caption: 'Your invoice', filename: 'invoice-1042.pdf' }) }],
	['Messaging → Chat App → Send: image', { node: 'exotelMessaging', parameters: chatApp({ operation: 'send', messageType: 'image', mediaUrl: 'https://acme.example/img/product.jpg', caption: 'New arrival' }) }],
	['Messaging → Chat App → Send: audio', { node: 'exotelMessaging', parameters: chatApp({ operation: 'send', messageType: 'audio', mediaUrl: 'https://acme.example/audio/note.ogg' }) }],
	['Messaging → Chat App → Send: location', { node: 'exotelMessaging', parameters: chatApp({ operation: 'send', messageType: 'location', latitude: 12.971599, longitude: 77.594566, locationName: 'Acme Store', locationAddress: 'MG Road, Bengaluru' }) }],
	[
		'Messaging → Chat App → Send: contacts',
		{
			node: 'exotelMessaging',
			parameters: chatApp({
				operation: 'send',
				messageType: 'contacts',
				contacts: { contact: [{ firstName: 'Asha', lastName: 'Rao', phone: '+919812345678', email: 'asha@acme.example', company: 'Acme', title: 'Support lead' }, { formattedName: 'Acme Helpdesk', phone: '+918047112233', phoneType: 'WORK' }] },
			}),
		},
	],
	[
		'Messaging → Chat App → Send: JSON content mode',
		{ node: 'exotelMessaging', parameters: chatApp({ operation: 'send', contentMode: 'json', contentJson: '{"type":"text","text":{"body":"Hello from JSON","preview_url":false}}' }) },
	],
	['Messaging → Chat App → Send and Wait for Response (the send)', { node: 'exotelMessaging', parameters: chatApp({ operation: 'sendAndWait', message: 'Refund 1,200 INR for order 1042?', responseType: 'approval', approvalOptions: APPROVAL }), waits: true }],
	['Messaging → Chat App → Send and Wait for Delivery (the send)', { node: 'exotelMessaging', parameters: chatApp({ operation: 'sendAndWaitForDelivery', messageType: 'text', text: 'Your order shipped' }), waits: true }],
	[
		'Messaging → Chat App → Set Webhooks',
		{ node: 'exotelMessaging', parameters: { resource: 'chatApp', operation: 'setWebhooks', incomingMessageUrl: 'https://n8n.example.com/webhook/abc/webhook', statusCallbackUrl: 'https://n8n.example.com/webhook/abc/status', verifyToken: VERIFY_TOKEN } },
	],
	['Messaging Trigger → activation registers the chat-app webhooks', { run: activateTrigger }],

	// ---- Voice → Call ----
	[
		'Voice → Call → Connect to Flow with status callback and events',
		{
			node: 'exotelVoice',
			parameters: call({
				operation: 'connect',
				from: '+91 98765-43210',
				callerId: FROM,
				url: FLOW,
				statusCallback: 'https://n8n.example.com/webhook/exotel-voice',
				additionalFields: { callType: 'trans', timeLimit: 600, timeOut: 25, statusCallbackEvents: ['answered', 'terminal'], customField: 'order-7' },
			}),
		},
	],
	['Voice → Call → Connect to Flow, minimal', { node: 'exotelVoice', parameters: call({ operation: 'connect', from: TO, callerId: FROM, url: FLOW }) }],
	[
		'Voice → Call → Connect and Wait for Call End (the connect, then the check that the call has not ended already)',
		{
			node: 'exotelVoice',
			parameters: call({ operation: 'connectAndWait', from: TO, callerId: FROM, url: FLOW, additionalFields: { timeLimit: 300, customField: 'order-8' } }),
			waits: true,
			madeInRun: (result) => ({ '<placed-call-sid>': String(result.output('Exotel')[0].json.callSid) }),
		},
	],
	['Voice → Call → Get (with leg details)', { node: 'exotelVoice', parameters: call({ operation: 'get', callSid: seededCallSid(0) }) }],
	['Voice → Call → Get (without leg details)', { node: 'exotelVoice', parameters: call({ operation: 'get', callSid: seededCallSid(1), details: false }) }],
	['Voice → Call → Get Details', { node: 'exotelVoice', parameters: call({ operation: 'getDetails', callSid: seededCallSid(2) }) }],
	[
		'Voice → Call → Get Many with filters',
		{
			node: 'exotelVoice',
			parameters: call({
				operation: 'getMany',
				limit: 5,
				filters: { status: 'completed', direction: 'inbound', from: '+919876500001, +919876500002', phoneNumber: FROM, durationMin: 10, durationMax: 600, priceMin: 0.5, priceMax: 20, oldestFirst: false, pageSize: 20, recordingUrlValidity: 30 },
			}),
		},
	],
	// The workflow's time zone is set, so that a date without zone means the same whatever the machine's.
	[
		'Voice → Call → Get Many, created between two dates without zone',
		{ node: 'exotelVoice', parameters: call({ operation: 'getMany', limit: 5, filters: { dateCreatedFrom: `${day(-3)}T10:00:00`, dateCreatedTo: `${day(-1)}T18:30:00` } }), workflowSettings: { timezone: 'Asia/Kolkata' } },
	],
	[
		'Voice → Call → Get Many, created between two dates with an offset',
		{ node: 'exotelVoice', parameters: call({ operation: 'getMany', limit: 5, filters: { dateCreatedFrom: `${day(-3)}T10:00:00+05:30`, dateCreatedTo: `${day(-1)}T18:30:00+05:30` } }), workflowSettings: { timezone: 'Asia/Kolkata' } },
	],
	['Voice → Call → Get Many, Return All (paged by cursor)', { node: 'exotelVoice', parameters: call({ operation: 'getMany', returnAll: true, filters: { pageSize: 100 } }) }],

	// ---- Voice → Campaign ----
	[
		'Voice → Campaign → Create from numbers, every field',
		{
			node: 'exotelVoice',
			parameters: campaign({
				operation: 'create',
				recipientSource: 'numbers',
				from: '+91 98450 00001,\n+919845000002 ; +91-98450-00097',
				callerId: FROM,
				additionalFields: {
					name: 'Renewal reminders',
					flowType: 'ivr',
					url: `http://my.exotel.com/${SID}/exoml/start_voice/926`,
					readViaText: 'Hello @@first_name',
					type: 'trans',
					callDuplicateNumbers: true,
					retries: { settings: { numberOfRetries: 2, intervalMins: 15, mechanism: 'Exponential', onStatus: ['busy', 'failed'] } },
					sendAt: `${day(30)}T10:00:00+05:30`,
					endAt: `${day(31)}T18:30:00`,
					statusCallback: 'https://n8n.example.com/webhook/voice?callback=campaignStatus',
					callStatusCallback: 'https://n8n.example.com/webhook/voice?callback=campaignCallStatus',
					callScheduleCallback: 'https://n8n.example.com/webhook/voice?callback=campaignCallSchedule',
					mode: 'custom',
					throttle: 20,
					customField: 'batch-7',
					repeatMenuAttempts: 2,
				},
			}),
			workflowSettings: { timezone: 'Asia/Kolkata' },
		},
	],
	['Voice → Campaign → Create from lists', { node: 'exotelVoice', parameters: campaign({ operation: 'create', recipientSource: 'lists', lists: 'list-1, list-2', callerId: FROM }) }],
	['Voice → Campaign → Create dynamic', { node: 'exotelVoice', parameters: campaign({ operation: 'create', campaignType: 'dynamic', recipientSource: 'lists', lists: 'list-1', callerId: FROM }) }],
	['Voice → Campaign → Get', { node: 'exotelVoice', parameters: campaign({ operation: 'get', campaignId: 'cmp-inprogress' }) }],
	['Voice → Campaign → Get Many with filters', { node: 'exotelVoice', parameters: campaign({ operation: 'getMany', limit: 2, filters: { name: 'e', status: ['Created', 'InProgress', 'Paused'], sortBy: 'name:asc', type: 'static' } }) }],
	['Voice → Campaign → Get Many, Return All', { node: 'exotelVoice', parameters: campaign({ operation: 'getMany', returnAll: true }) }],
	['Voice → Campaign → Get Call Details', { node: 'exotelVoice', parameters: campaign({ operation: 'getCallDetails', campaignId: 'cmp-inprogress', limit: 5, filters: { status: 'completed', sortBy: 'date_created:asc' } }) }],
	['Voice → Campaign → Delete', { node: 'exotelVoice', parameters: campaign({ operation: 'delete', campaignId: 'cmp-archived' }) }],
	['Voice → Campaign → Pause', { node: 'exotelVoice', parameters: campaign({ operation: 'pause', campaignId: 'cmp-inprogress' }) }],
	['Voice → Campaign → Resume', { node: 'exotelVoice', parameters: campaign({ operation: 'resume', campaignId: 'cmp-paused' }) }],
	['Voice → Campaign → Complete', { node: 'exotelVoice', parameters: campaign({ operation: 'complete', campaignId: 'cmp-paused' }) }],
	['Voice → Campaign → Archive', { node: 'exotelVoice', parameters: campaign({ operation: 'archive', campaignId: 'cmp-completed' }) }],
	[
		'Voice → Campaign → Update before send time',
		{
			node: 'exotelVoice',
			parameters: campaign({
				operation: 'update',
				campaignId: 'cmp-created',
				updateFields: { name: 'Diwali offers v2', from: '+919845000001\n+919845000002', retries: { settings: { numberOfRetries: 1, intervalMins: 30, mechanism: 'Linear', onStatus: ['no-answer'] } }, sendAt: `${day(30)}T09:00:00+05:30` },
			}),
			workflowSettings: { timezone: 'Asia/Kolkata' },
		},
	],
	[
		'Voice → Campaign → Update callbacks after send time',
		{
			node: 'exotelVoice',
			parameters: campaign({
				operation: 'update',
				campaignId: 'cmp-inprogress',
				updateFields: { statusCallback: 'https://n8n.example.com/hook?callback=campaignStatus', callStatusCallback: 'https://n8n.example.com/hook?callback=campaignCallStatus', callScheduleCallback: 'https://n8n.example.com/hook?callback=campaignCallSchedule' },
			}),
		},
	],

	// ---- Voice → Contact ----
	[
		'Voice → Contact → Upload built from input items',
		{
			node: 'exotelVoice',
			parameters: { resource: 'contact', operation: 'upload', source: 'items', listId: 'list-3', duplicateAction: 'update' },
			items: [
				{ phone_number: '+91 98111 00001', first_name: 'Asha', last_name: 'Rao', email: 'asha@acme.example', tag: 'gold' },
				{ phone_number: '+919811100002', first_name: 'Ravi, Jr.', last_name: 'Kumar', company: 'The "Best" Co' },
				{ phone_number: '+919811100003', first_name: 'Meera', custom_field_1: 'line one\nline two' },
			],
		},
	],
	[
		'Voice → Contact → Upload a CSV file with the bearer token',
		{ node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'binary', authentication: 'bearerToken', listId: 'list-3' }, items: [{ csv: 'phone_number,first_name\n+919811100001,Asha\n' }], csvFiles: true },
	],
	[
		'Voice → Contact → Get Upload Status',
		{
			node: 'exotelVoice',
			parameters: { resource: 'contact', operation: 'getUploadStatus', uploadId: '<upload_id>' },
			setup: async () => {
				const upload = await setupRun('exotelVoice', { resource: 'contact', operation: 'upload', source: 'items', listId: 'list-3' }, [{ phone_number: '+919811100001' }]);
				return { '<upload_id>': String(upload.upload_id) };
			},
		},
	],

	// ---- Voice → List ----
	['Voice → List → Get', { node: 'exotelVoice', parameters: list({ operation: 'get', listSid: 'list-1' }) }],
	['Voice → List → Get Many with filters', { node: 'exotelVoice', parameters: list({ operation: 'getMany', limit: 10, filters: { name: 'e', sortBy: 'name:desc' } }) }],
	['Voice → List → Rename', { node: 'exotelVoice', parameters: list({ operation: 'rename', listSid: 'list-1', name: 'Bengaluru VIP customers' }) }],
	[
		'Voice → List → Bulk Rename',
		{
			node: 'exotelVoice',
			parameters: list({ operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }),
			items: [
				{ sid: 'list-1', name: 'Bangalore' },
				{ sid: 'list-2', name: 'Mumbai' },
				{ sid: 'list-3', name: 'Spare' },
			],
		},
	],
	['Voice → List → Delete', { node: 'exotelVoice', parameters: list({ operation: 'delete', listSid: 'list-3' }) }],
	['Voice → List → Get Contacts', { node: 'exotelVoice', parameters: list({ operation: 'getContacts', listSid: 'list-1', limit: 2 }) }],
	['Voice → List → Get Contacts, Return All (paged)', { node: 'exotelVoice', parameters: list({ operation: 'getContacts', listSid: SANDBOX_BIG_LIST.sid, returnAll: true }) }],
	['Voice → List → Remove Contact', { node: 'exotelVoice', parameters: list({ operation: 'removeContact', listSid: 'list-1', contactSid: 'contact-1' }) }],

	// ---- Voice → User, User Device, Voice Log ----
	['Voice → User → Get', { node: 'exotelVoice', parameters: { resource: 'user', operation: 'get', userId: 'user-8' } }],
	['Voice → User → Get Many with extra fields', { node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany', limit: 20, filters: { fields: ['devices', 'last_login'] } } }],
	['Voice → User → Get Many by email', { node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany', filters: { email: 'nobody@acme.example' } } }],
	['Voice → User → Get Many, Return All (paged)', { node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany', returnAll: true, filters: { fields: ['devices', 'active_call', 'last_login'] } } }],
	['Voice → User Device → Get Status', { node: 'exotelVoice', parameters: device({ operation: 'getStatus' }) }],
	['Voice → User Device → Update', { node: 'exotelVoice', parameters: device({ operation: 'update', sip: 'disable' }) }],
	['Voice → Voice Log → Get', { node: 'exotelVoice', parameters: { resource: 'voiceLog', operation: 'get', callSid: RECORDED_CALL }, setup: recordedCall }],
	['Voice → Voice Log → Get and download (wav, dual)', { node: 'exotelVoice', parameters: { resource: 'voiceLog', operation: 'get', callSid: RECORDED_CALL, format: 'wav', channel: 'dual', download: true }, setup: recordedCall }],

	// ---- Contact Center ----
	['Contact Center → Campaign → Get Many', { node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 1 } }],
	[
		'Contact Center → User → Create (login, then create)',
		{
			node: 'exotelContactCenter',
			parameters: ccUser({
				...CC_USER,
				additionalFields: { systemUserType: 'Agent', defaultReady: true, userData: 'night shift', description: 'Support team', loginPolicy: 'verify.before.force.login', maxAllowedLogins: 2, mappingUserId: 'crm-77' },
			}),
		},
	],
	[
		'Contact Center → User → Update',
		{
			node: 'exotelContactCenter',
			parameters: ccUser({ operation: 'update', userId: 'asha.rao', additionalFields: { userName: 'Asha R.', maxAllowedLogins: 3, defaultReady: false } }),
			setup: async () => {
				await setupRun('exotelContactCenter', ccUser(CC_USER));
				return {};
			},
		},
	],
	[
		'Contact Center → User → Delete',
		{
			node: 'exotelContactCenter',
			parameters: ccUser({ operation: 'delete', userId: 'asha.rao' }),
			setup: async () => {
				await setupRun('exotelContactCenter', ccUser(CC_USER));
				return {};
			},
		},
	],
	['Contact Center → Voice Log → Download', { node: 'exotelContactCenter', parameters: { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' } }],

	// ---- Number Allocation ----
	[
		'Number Allocation → Allocate, every field',
		{
			node: 'exotelNumberAllocation',
			parameters: allocation({ ...ALLOCATE, additionalFields: { apartyPins: '4821, 7730', bpartyPins: '5190', strictness: false, region: 'KA', type: 'landline', pinCode: '560001', duration: '2d', flowId: 'flow-12' } }),
		},
	],
	[
		'Number Allocation → Get',
		{
			node: 'exotelNumberAllocation',
			parameters: allocation({ operation: 'get', greenvnId: '<greenvn_id>' }),
			setup: async () => ({ '<greenvn_id>': String((await setupRun('exotelNumberAllocation', allocation(ALLOCATE))).greenvn_id) }),
		},
	],
	[
		'Number Allocation → Deallocate',
		{
			node: 'exotelNumberAllocation',
			parameters: allocation({ operation: 'deallocate', greenvnId: '<greenvn_id>' }),
			setup: async () => ({ '<greenvn_id>': String((await setupRun('exotelNumberAllocation', allocation(ALLOCATE))).greenvn_id) }),
		},
	],
];

// ---- The test ----

type Golden = Record<string, WireRequest[]>;
const golden: Golden = existsSync(GOLDEN_FILE) ? (JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Golden) : {};
interface Provenance {
	/** the commit that first added the case's recording */
	added: string;
	/** what it was recorded from: "0.5.0", or the commit that added the operation after it */
	from: string;
	/** a later change of the recording, by commit and why */
	changed?: string;
}
const provenance = JSON.parse(readFileSync(PROVENANCE_FILE, 'utf8')) as Record<string, Provenance>;
const written: Golden = {};

afterAll(() => {
	if (!UPDATE) return;
	// Every case of the table, in its order; a case this run did not reach (a -t filter) keeps its recording.
	const out: Golden = {};
	for (const [name] of CASES) {
		const requests = written[name] ?? golden[name];
		if (requests) out[name] = requests;
	}
	writeFileSync(GOLDEN_FILE, `${JSON.stringify(out, null, '\t')}\n`);
});

describe('the spec wire: every operation sends what its recording holds (0.5.0, or where its provenance says)', () => {
	it.each(CASES)('%s', async (name, wireCase) => {
		let values: Record<string, string> = {};
		if ('run' in wireCase) {
			sandbox.clearRequests();
			await wireCase.run();
		} else {
			if (wireCase.setup) values = await wireCase.setup();
			sandbox.clearRequests();
			const result = await runCase(wireCase, withValues(wireCase.parameters, values) as Record<string, unknown>);
			// Only a run that went as it should counts: a refused or failed send is not the operation's wire.
			expect(result.error?.message).toBeUndefined();
			expect(result.nodeError('Exotel')?.message).toBeUndefined();
			expect(result.status).toBe(wireCase.waits ? 'waiting' : 'success');
			if (wireCase.madeInRun) values = { ...values, ...wireCase.madeInRun(result) };
		}
		const actual = recorded(values);
		if ('sendsNothing' in wireCase && wireCase.sendsNothing) expect(actual).toEqual([]);
		else expect(actual.length).toBeGreaterThan(0);
		expect(sandbox.requests().filter((r) => r.status < 200 || r.status > 299).map((r) => `${r.status} ${r.method} ${r.path}`)).toEqual([]);
		// Every request is one its node declares (an `endpoints.ts`), so it is paced and counted in the
		// category declared there; but the contact-center login (the credential's) and a recording
		// fetched by the URL an answer gave (the service's storage, not its API).
		const undeclared = sandbox
			.requests()
			.filter((r) => !(r.base === 'cc' && r.path === CONTACT_CENTER_LOGIN) && !r.path.startsWith(RECORDINGS))
			.filter((r) => declaredEndpointsOf(r.base, r.method, r.path).length !== 1);
		expect(undeclared.map((r) => `${r.method} ${r.base} ${r.path}`)).toEqual([]);

		if (UPDATE) {
			written[name] = actual;
			return;
		}
		if (!(name in golden)) throw new Error(`"${name}" has no recording in spec-wire.golden.json: record it with UPDATE_SPEC_WIRE=1 and add its provenance to spec-wire.provenance.json`);
		expect(actual).toEqual(golden[name]);
	});

	it('every recorded case is still in the table (none dropped silently)', () => {
		if (UPDATE) return;
		const names = new Set(CASES.map(([name]) => name));
		expect(Object.keys(golden).filter((name) => !names.has(name))).toEqual([]);
	});

	it('every recorded case says where it came from, and every provenance entry is a recorded case', () => {
		const recordedNames = Object.keys(golden);
		expect(recordedNames.length).toBeGreaterThan(0);
		expect(recordedNames.filter((name) => !(name in provenance))).toEqual([]);
		expect(Object.keys(provenance).filter((name) => !(name in golden))).toEqual([]);
		const malformed = Object.entries(provenance).filter(
			([, p]) => !/^[0-9a-f]{7,40}$/.test(p.added) || !/^(0\.5\.0|[0-9a-f]{7,40} \(.+\))$/.test(p.from) || (p.changed !== undefined && !/^[0-9a-f]{7,40} \(.+\)$/.test(p.changed)),
		);
		expect(malformed.map(([name]) => name)).toEqual([]);
	});
});

describe('UPDATE_SPEC_WIRE', () => {
	it('refuses to record on CI, before anything is written', () => {
		expect(() => recordingRequested({ UPDATE_SPEC_WIRE: '1', CI: 'true' })).toThrow('UPDATE_SPEC_WIRE=1 refuses to run on CI (CI is set)');
		expect(() => recordingRequested({ UPDATE_SPEC_WIRE: '1', CI: '1' })).toThrow(/refuses to run on CI/);
		expect(recordingRequested({ UPDATE_SPEC_WIRE: '1' })).toBe(true);
		expect(recordingRequested({ UPDATE_SPEC_WIRE: '1', CI: '' })).toBe(true);
		expect(recordingRequested({ CI: 'true' })).toBe(false);
		expect(recordingRequested({})).toBe(false);
	});
});
