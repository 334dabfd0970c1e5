/**
 * No secret ever leaves a node: for every node family, success and error paths (wrong
 * credentials on every base, service 4xx, 207 / 202 partial failures, 429s past Rate Limit → Max
 * Wait and 5xx past the retry limit, connection resets, expired sessions with a failing re-login, services that echo a
 * secret back) are run through n8n-core against the sandbox, and every output item, the run's
 * error, every node's run error and the n8n-core log lines written during the run are searched
 * for each secret (and the base64 of `key:token` / `user:password`).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ExotelMessagingTrigger } from '../../nodes/ExotelMessagingTrigger/ExotelMessagingTrigger.node';
import { signPayload } from '../../nodes/shared/webhookSignature';
import { packageNode, SANDBOX_ACCOUNT, sandboxCredentials, startSandbox } from '../helpers/exotel';
import type { CredentialStore, RunResult } from '../helpers/n8n-core-harness';
import { chain, harnessLog, itemsNode, runWorkflow } from '../helpers/n8n-core-harness';
import { callWebhook } from '../helpers/webhook-context';
import { seededCallSid } from '../sandbox/handlers/voice';
import type { Fault, FaultMatch } from '../sandbox/types';
import type { ExotelSandbox } from '../sandbox/server';

const b64 = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

/** Wrong but recognisable secrets (the sandbox answers 401 to each). */
const WRONG = {
	apiToken: 'SECRET-wrong-apitoken-7f3a',
	bearer: 'SECRET-wrong-bearer-91c2',
	ccToken: 'SECRET-wrong-cctoken-33d0',
	allocPassword: 'SECRET-wrong-allocpw-5e1b',
};
const SIGNING_SECRET = 'SECRET-signing-0b7e';
const VERIFY_TOKEN = 'SECRET-verify-token-4d2a';

/** Every secret string a run must never show; session ids are added as the sandbox issues them. */
const SECRETS = new Set<string>([
	SANDBOX_ACCOUNT.apiToken,
	SANDBOX_ACCOUNT.bearerToken,
	SANDBOX_ACCOUNT.ccToken,
	SANDBOX_ACCOUNT.allocPassword,
	SANDBOX_ACCOUNT.webhookSigningSecret,
	b64(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken),
	b64(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword),
	...Object.values(WRONG),
	b64(SANDBOX_ACCOUNT.apiKey, WRONG.apiToken),
	b64(SANDBOX_ACCOUNT.allocUsername, WRONG.allocPassword),
	SIGNING_SECRET,
	VERIFY_TOKEN,
]);

let sandbox: ExotelSandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ timeScale: 0 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.reset();
	sandbox.clearFaults();
});

type Overrides = Parameters<typeof sandboxCredentials>[1];
const GOOD: Overrides = { exotelApi: { webhookSigningSecret: SIGNING_SECRET } };
const WRONG_CREDENTIALS: Overrides = {
	exotelApi: { apiToken: WRONG.apiToken, webhookSigningSecret: SIGNING_SECRET },
	exotelBearerTokenApi: { token: WRONG.bearer },
	exotelContactCenterApi: { token: WRONG.ccToken },
	exotelAllocationApi: { password: WRONG.allocPassword },
};

/** JSON of anything, circular references cut; n8n's `node` copy (the workflow's own parameters) left out. */
function dump(value: unknown): string {
	const seen = new WeakSet<object>();
	return (
		JSON.stringify(value, (key, inner: unknown) => {
			if (key === 'node' && inner && typeof inner === 'object' && 'parameters' in inner) return '[node]';
			if (inner && typeof inner === 'object') {
				if (seen.has(inner)) return '[circular]';
				seen.add(inner);
			}
			if (inner instanceof Error) return { ...inner, message: inner.message, stack: inner.stack };
			return inner;
		}) ?? ''
	);
}

function sessionIdOf(store: CredentialStore | undefined): string | undefined {
	if (!store?.has('exotelContactCenterApi')) return undefined;
	const session = store.get('exotelContactCenterApi').sessionId;
	return typeof session === 'string' && session.length >= 4 ? session : undefined;
}

/** Where a secret could surface after a run, by place. */
function surfaces(result: RunResult, logStart: number): Record<string, string> {
	const places: Record<string, string> = {};
	for (const [nodeName, runs] of Object.entries(result.runData)) {
		runs.forEach((run, runIndex) => {
			(run.data?.main ?? []).forEach((items, outputIndex) => {
				places[`output ${nodeName}[${runIndex}].${outputIndex}`] = dump(items?.map((item) => ({ json: item.json, binary: item.binary })));
			});
			if (run.error) {
				places[`node error ${nodeName}: message`] = String(run.error.message);
				places[`node error ${nodeName}: description`] = String(run.error.description ?? '');
				places[`node error ${nodeName}: whole`] = dump(run.error);
			}
		});
	}
	if (result.error) {
		places['result.error.message'] = String(result.error.message);
		places['result.error.description'] = String(result.error.description ?? '');
		places['result.error (whole)'] = dump(result.error);
	}
	places['harnessLog'] = harnessLog.slice(logStart).map((line) => `${line.level} ${line.message} ${dump(line.meta)}`).join('\n');
	return places;
}

function leaksIn(places: Record<string, string>): string[] {
	const found: string[] = [];
	for (const [place, text] of Object.entries(places)) {
		for (const secret of SECRETS) if (text.includes(secret)) found.push(`${place} shows "${secret}"`);
	}
	return found;
}

interface Case {
	name: string;
	node: 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';
	parameters: Record<string, unknown>;
	items?: IDataObject[];
	credentials?: Overrides;
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	faults?: Array<[Fault, number, FaultMatch?]>;
	/** Runs first (its own surfaces are checked too) and gives the store the case's run reuses. */
	before?: () => Promise<CredentialStore | undefined>;
	/** Applied to the store after `before`, just before the run. */
	tamper?: (store: CredentialStore) => void;
	/** 'error': the run must fail (with this HTTP code when given); 'ok': it must not. */
	outcome: 'ok' | 'error' | 'any';
	httpCode?: string;
}

async function runCase(c: Case): Promise<string[]> {
	const leaks: string[] = [];
	let store: CredentialStore | undefined;
	if (c.before) {
		store = await c.before();
		const session = sessionIdOf(store);
		if (session) SECRETS.add(session);
		sandbox.clearRequests();
	}
	if (store && c.tamper) c.tamper(store);
	for (const [fault, count, match] of c.faults ?? []) sandbox.injectFaults(fault, count, match ?? {});
	harnessLog.length = 0;
	const result = await runWorkflow({
		nodes: [itemsNode('Items', c.items ?? [{}]), packageNode(c.node, c.parameters as INodeParameters, { onError: c.onError })],
		connections: chain('Items', 'Exotel'),
		credentials: store ? undefined : sandboxCredentials(sandbox, c.credentials ?? GOOD),
		credentialStore: store,
	});
	const session = sessionIdOf(result.credentialStore);
	if (session) SECRETS.add(session);
	if (c.outcome === 'error') {
		expect(result.error ?? Object.values(result.runData).find((runs) => runs.some((r) => r.error))).toBeDefined();
		if (c.httpCode) expect(result.error?.httpCode).toBe(c.httpCode);
	}
	if (c.outcome === 'ok') expect(result.error).toBeUndefined();
	leaks.push(...leaksIn(surfaces(result, 0)));
	return leaks;
}

const status = (code: number, body?: unknown): Fault => ({ kind: 'status', status: code, retryAfterSeconds: 0, ...(body === undefined ? {} : { body }) });
const storm = (code: number, match: FaultMatch = {}): [Fault, number, FaultMatch] => [status(code), 6, match];
/** 429s without Retry-After outlasting Rate Limit → Max Wait (0.6 s), so the run gives up on them. */
const limitStorm: [Fault, number, FaultMatch] = [{ kind: 'status', status: 429 }, 50, {}];
const giveUpSoon = { rateLimit: { maxWaitMinutes: 0.01 } };
const resetBefore: Fault = { kind: 'reset', when: 'before' };
const resetAfter: Fault = { kind: 'reset', when: 'after' };

const sms = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '={{ $json.phone }}', body: 'Hello' };
const smsItems = [{ phone: '+919876543210' }, { phone: '0123456' }, { phone: '+919876543212' }];
const sendToMany = { resource: 'sms', operation: 'sendToMany', from: 'ACMEIN', body: 'Sale', recipients: '+919876543210, 0123456' };
const rcs = { resource: 'rcs', operation: 'sendTemplate', botId: 'acme_bot', to: '+919876543210', templateName: 'order_update' };
const chat = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '+919876543210', messageType: 'text', text: 'Hi' };
const setWebhooks = {
	resource: 'chatApp',
	operation: 'setWebhooks',
	incomingMessageUrl: 'https://n8n.example.com/webhook/in',
	statusCallbackUrl: 'https://n8n.example.com/webhook/status',
	verifyToken: VERIFY_TOKEN,
};
const FLOW = `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`;
const connect = { resource: 'call', operation: 'connect', from: '+919876543210', callerId: '+918047112233', url: FLOW };
const device = { resource: 'userDevice', customerId: 'cust-7', appId: 'app-3', userId: 'user-1' };
const ccCreate = (userId: string) => ({ resource: 'user', operation: 'create', userId, userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 });
const voiceLogDownload = { resource: 'voiceLog', operation: 'download', campaignId: 12, crtObjectId: 'crt-9f2', callId: 'call-4471', targetFormat: 'mp3' };
const allocate = (connectionId: string) => ({
	resource: 'allocation',
	operation: 'allocate',
	connectionId,
	apartyNumbers: '+919876543210',
	bpartyNumbers: '+919812345678',
	usage: 'twoway',
});

/** Logs in once with good credentials (a user create) and hands back the store holding the session. */
async function loggedIn(): Promise<CredentialStore> {
	const first = await runWorkflow({
		nodes: [itemsNode('Items', [{}]), packageNode('exotelContactCenter', ccCreate('login.user') as INodeParameters)],
		connections: chain('Items', 'Exotel'),
		credentials: sandboxCredentials(sandbox, GOOD),
	});
	expect(first.error).toBeUndefined();
	expect(leaksIn(surfaces(first, 0))).toEqual([]);
	return first.credentialStore;
}

const CASES: Case[] = [
	// ---- Messaging: SMS ----
	{ name: 'SMS send: success', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], outcome: 'ok' },
	{ name: 'SMS send: wrong API token (401)', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'SMS send: 207 partial failure, stop', node: 'exotelMessaging', parameters: sms, items: smsItems, outcome: 'error' },
	{ name: 'SMS send: 207 partial failure, continue', node: 'exotelMessaging', parameters: sms, items: smsItems, onError: 'continueRegularOutput', outcome: 'ok' },
	{ name: 'SMS send: 207 partial failure, error output', node: 'exotelMessaging', parameters: sms, items: smsItems, onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'SMS send: 429s past Rate Limit → Max Wait', node: 'exotelMessaging', parameters: { ...sms, ...giveUpSoon }, items: [{ phone: '+919876543210' }], faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'SMS send: 503 past the retry limit', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], faults: [storm(503)], outcome: 'error', httpCode: '503' },
	{ name: 'SMS send: connection reset before', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], faults: [[resetBefore, 6]], outcome: 'error' },
	{ name: 'SMS send: connection reset after (delivery unknown), continue', node: 'exotelMessaging', parameters: sms, items: [{ phone: '+919876543210' }], faults: [[resetAfter, 1]], onError: 'continueRegularOutput', outcome: 'any' },
	{ name: 'SMS send to many: success', node: 'exotelMessaging', parameters: { ...sendToMany, recipients: '+919876543210' }, outcome: 'ok' },
	{ name: 'SMS send to many: 207, error output', node: 'exotelMessaging', parameters: sendToMany, onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'SMS send to many: wrong API token (401)', node: 'exotelMessaging', parameters: sendToMany, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	// ---- Messaging: RCS ----
	{ name: 'RCS: success', node: 'exotelMessaging', parameters: rcs, outcome: 'ok' },
	{ name: 'RCS: 202 with a failed entry (template not approved)', node: 'exotelMessaging', parameters: { ...rcs, templateName: 'not_approved' }, outcome: 'error' },
	{ name: 'RCS: 202 with a failed entry, error output', node: 'exotelMessaging', parameters: { ...rcs, templateName: 'not_approved' }, onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'RCS: wrong API token (401)', node: 'exotelMessaging', parameters: rcs, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'RCS: 500 past the retry limit', node: 'exotelMessaging', parameters: rcs, faults: [storm(500)], outcome: 'error', httpCode: '500' },
	// ---- Messaging: chat app ----
	{ name: 'Chat app: success', node: 'exotelMessaging', parameters: chat, outcome: 'ok' },
	{ name: 'Chat app: 202 failed entry (not on the chat app)', node: 'exotelMessaging', parameters: { ...chat, to: '+919800000000' }, outcome: 'error' },
	{ name: 'Chat app: wrong API token (401)', node: 'exotelMessaging', parameters: chat, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Chat app: 429s past Rate Limit → Max Wait', node: 'exotelMessaging', parameters: { ...chat, ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'Chat app: reset after, continue', node: 'exotelMessaging', parameters: chat, faults: [[resetAfter, 1]], onError: 'continueRegularOutput', outcome: 'any' },
	{ name: 'Set Webhooks with a verify token: success', node: 'exotelMessaging', parameters: setWebhooks, outcome: 'ok' },
	{ name: 'Set Webhooks: wrong API token (401)', node: 'exotelMessaging', parameters: setWebhooks, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Set Webhooks: 503 past the retry limit', node: 'exotelMessaging', parameters: setWebhooks, faults: [storm(503)], outcome: 'error' },
	{ name: 'Set Webhooks: reset before, continue', node: 'exotelMessaging', parameters: setWebhooks, faults: [[resetBefore, 6]], onError: 'continueRegularOutput', outcome: 'any' },
	// ---- Voice: calls ----
	{ name: 'Call connect: success', node: 'exotelVoice', parameters: connect, outcome: 'ok' },
	{ name: 'Call connect: wrong API token (401)', node: 'exotelVoice', parameters: connect, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Call connect: service 400 (flow of another account)', node: 'exotelVoice', parameters: { ...connect, url: 'http://my.exotel.com/otheraccount/exoml/start_voice/1' }, outcome: 'error', httpCode: '400' },
	{ name: 'Call connect: reset before', node: 'exotelVoice', parameters: connect, faults: [[resetBefore, 6]], outcome: 'error' },
	{ name: 'Call connect: reset after', node: 'exotelVoice', parameters: connect, faults: [[resetAfter, 1]], outcome: 'error' },
	{ name: 'Call get: 404, continue', node: 'exotelVoice', parameters: { resource: 'call', operation: 'get', callSid: 'f'.repeat(32) }, onError: 'continueRegularOutput', outcome: 'ok' },
	{ name: 'Call get many: 429s past Rate Limit → Max Wait', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getMany', limit: 5, ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'Call get many: reset before on every attempt', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getMany', limit: 5 }, faults: [[resetBefore, 6]], outcome: 'error' },
	{ name: 'Call get details: success', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getDetails', callSid: seededCallSid(1) }, outcome: 'ok' },
	{ name: 'Call get details: wrong API token (401, ccm base)', node: 'exotelVoice', parameters: { resource: 'call', operation: 'getDetails', callSid: seededCallSid(1) }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	// ---- Voice: campaigns, lists, users, contacts, voice logs ----
	{ name: 'Campaign create: service 400 (unknown list)', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'create', recipientSource: 'lists', lists: 'list-404', callerId: '+918047112233' }, outcome: 'error', httpCode: '400' },
	{ name: 'Campaign get: 404', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'get', campaignId: 'cmp-nope' }, outcome: 'error', httpCode: '404' },
	{ name: 'Campaign pause: refused transition', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'pause', campaignId: 'cmp-completed' }, outcome: 'error' },
	{ name: 'Campaign get many: wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'getMany' }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Campaign get many: success', node: 'exotelVoice', parameters: { resource: 'campaign', operation: 'getMany', returnAll: true }, outcome: 'ok' },
	{ name: 'List bulk rename: 207 partial, error output', node: 'exotelVoice', parameters: { resource: 'list', operation: 'bulkRename', listSid: '={{ $json.sid }}', name: '={{ $json.name }}' }, items: [{ sid: 'list-1', name: 'A' }, { sid: 'list-404', name: 'B' }], onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'List rename: duplicate name (400)', node: 'exotelVoice', parameters: { resource: 'list', operation: 'rename', listSid: 'list-1', name: 'Mumbai leads' }, outcome: 'error', httpCode: '400' },
	{ name: 'List get: 404', node: 'exotelVoice', parameters: { resource: 'list', operation: 'get', listSid: 'list-404' }, outcome: 'error', httpCode: '404' },
	{ name: 'User get: 404', node: 'exotelVoice', parameters: { resource: 'user', operation: 'get', userId: 'user-999' }, outcome: 'error', httpCode: '404' },
	{ name: 'User get many: wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany' }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'User get many: 502 past the retry limit', node: 'exotelVoice', parameters: { resource: 'user', operation: 'getMany' }, faults: [storm(502)], outcome: 'error', httpCode: '502' },
	{ name: 'Contact upload (items): success', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items' }, items: [{ phone_number: '+919811100001' }], outcome: 'ok' },
	{ name: 'Contact upload (items): wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items' }, items: [{ phone_number: '+919811100001' }], credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Contact upload (bearer): wrong bearer token (401)', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items', authentication: 'bearerToken' }, items: [{ phone_number: '+919811100001' }], credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'Contact upload (bearer): unknown list (400)', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'upload', source: 'items', authentication: 'bearerToken', listId: 'list-404' }, items: [{ phone_number: '+919811100001' }], outcome: 'error', httpCode: '400' },
	{ name: 'Contact upload status: 404', node: 'exotelVoice', parameters: { resource: 'contact', operation: 'getUploadStatus', uploadId: 'upl_missing' }, outcome: 'error' },
	{ name: 'Voice log get: download success', node: 'exotelVoice', parameters: { resource: 'voiceLog', operation: 'get', callSid: seededCallSid(0), download: true }, outcome: 'any' },
	{ name: 'Voice log get: wrong API token (401)', node: 'exotelVoice', parameters: { resource: 'voiceLog', operation: 'get', callSid: seededCallSid(0) }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	// ---- Voice: user device (bearer, integrations base) ----
	{ name: 'User device get: success', node: 'exotelVoice', parameters: { ...device, operation: 'getStatus' }, outcome: 'ok' },
	{ name: 'User device get: wrong bearer token (401)', node: 'exotelVoice', parameters: { ...device, operation: 'getStatus' }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'User device update: unknown user (404)', node: 'exotelVoice', parameters: { ...device, userId: 'user-404', operation: 'update', sip: 'enable' }, outcome: 'error', httpCode: '404' },
	{ name: 'User device update: 429s past Rate Limit → Max Wait', node: 'exotelVoice', parameters: { ...device, operation: 'update', sip: 'enable', ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	// ---- Contact center (session, cc base; bearer on cms) ----
	{ name: 'CC create user: success (session issued)', node: 'exotelContactCenter', parameters: ccCreate('asha.rao'), outcome: 'ok' },
	{ name: 'CC create user: wrong login token (401)', node: 'exotelContactCenter', parameters: ccCreate('asha.rao'), credentials: WRONG_CREDENTIALS, outcome: 'error' },
	{ name: 'CC create user: duplicate (409)', node: 'exotelContactCenter', parameters: ccCreate('login.user'), before: loggedIn, outcome: 'error', httpCode: '409' },
	{ name: 'CC delete user: 404', node: 'exotelContactCenter', parameters: { resource: 'user', operation: 'delete', userId: 'nobody' }, before: loggedIn, outcome: 'error', httpCode: '404' },
	{
		name: 'CC update user: expired session, re-login with a wrong token',
		node: 'exotelContactCenter',
		parameters: { resource: 'user', operation: 'update', userId: 'login.user', additionalFields: { userName: 'New' } },
		before: loggedIn,
		tamper: (store) => {
			store.patch('exotelContactCenterApi', { token: WRONG.ccToken });
			sandbox.expireSessions();
		},
		outcome: 'error',
	},
	{ name: 'CC voice log download: success', node: 'exotelContactCenter', parameters: voiceLogDownload, before: loggedIn, outcome: 'ok' },
	{
		name: 'CC voice log download: expired session, re-login works',
		node: 'exotelContactCenter',
		parameters: voiceLogDownload,
		before: loggedIn,
		tamper: () => sandbox.expireSessions(),
		outcome: 'ok',
	},
	{ name: 'CC voice log download: 500 past the retry limit', node: 'exotelContactCenter', parameters: voiceLogDownload, before: loggedIn, faults: [storm(500, { base: 'cc', pathIncludes: 'downloadVoiceLog' })], outcome: 'error' },
	{ name: 'CC voice log download: reset before', node: 'exotelContactCenter', parameters: voiceLogDownload, before: loggedIn, faults: [[resetBefore, 6, { base: 'cc', pathIncludes: 'downloadVoiceLog' }]], outcome: 'error' },
	{ name: 'CC campaign get many (cms): success', node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 1 }, outcome: 'ok' },
	{ name: 'CC campaign get many (cms): wrong bearer token (401)', node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 1 }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'CC campaign get many (cms): CONF-1001 (404)', node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 99 }, outcome: 'error', httpCode: '404' },
	// ---- Number allocation ----
	{ name: 'Allocate: success', node: 'exotelNumberAllocation', parameters: allocate('order-1'), outcome: 'ok' },
	{ name: 'Allocate: wrong password (401)', node: 'exotelNumberAllocation', parameters: allocate('order-1'), credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{
		name: 'Allocate: duplicate connection id (409)',
		node: 'exotelNumberAllocation',
		parameters: allocate('order-dup'),
		before: async () => {
			const first = await runWorkflow({
				nodes: [itemsNode('Items', [{}]), packageNode('exotelNumberAllocation', allocate('order-dup') as INodeParameters)],
				connections: chain('Items', 'Exotel'),
				credentials: sandboxCredentials(sandbox, GOOD),
			});
			expect(leaksIn(surfaces(first, 0))).toEqual([]);
			return first.credentialStore;
		},
		outcome: 'error',
		httpCode: '409',
	},
	{ name: 'Allocate: empty pool (code 4), error output', node: 'exotelNumberAllocation', parameters: allocate('={{ $json.id }}'), items: Array.from({ length: 6 }, (_, i) => ({ id: `o-${i}` })), onError: 'continueErrorOutput', outcome: 'ok' },
	{ name: 'Allocation get: unknown id (400 code 1)', node: 'exotelNumberAllocation', parameters: { resource: 'allocation', operation: 'get', greenvnId: 'nope' }, outcome: 'error', httpCode: '400' },
	{ name: 'Allocation deallocate: 429s past Rate Limit → Max Wait', node: 'exotelNumberAllocation', parameters: { resource: 'allocation', operation: 'deallocate', greenvnId: 'a'.repeat(24), ...giveUpSoon }, faults: [limitStorm], outcome: 'error', httpCode: '429' },
	{ name: 'Allocate: 500 past the retry limit', node: 'exotelNumberAllocation', parameters: allocate('order-5xx'), faults: [storm(500)], outcome: 'error', httpCode: '500' },
	{ name: 'Allocate: reset before', node: 'exotelNumberAllocation', parameters: allocate('order-reset'), faults: [[resetBefore, 6]], outcome: 'error' },
];

/** A service (or a gateway in front of it) whose error body repeats what the request carried. */
const echo = (...values: string[]) => ({ message: `rejected request; you sent ${values.join(' and ')}`, error: { detail: values.join(' ') } });
const ECHO_CASES: Case[] = [
	{
		name: 'API token and basic header echoed in a 400 (SMS)',
		node: 'exotelMessaging',
		parameters: sms,
		items: [{ phone: '+919876543210' }],
		faults: [[status(400, echo(SANDBOX_ACCOUNT.apiToken, `Basic ${b64(SANDBOX_ACCOUNT.apiKey, SANDBOX_ACCOUNT.apiToken)}`)), 1]],
		outcome: 'error',
		httpCode: '400',
	},
	{
		name: 'bearer token echoed in a 403 (user device)',
		node: 'exotelVoice',
		parameters: { ...device, operation: 'getStatus' },
		faults: [[status(403, echo(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`)), 1]],
		outcome: 'error',
		httpCode: '403',
	},
	{
		name: 'allocation password and basic header echoed in a 400',
		node: 'exotelNumberAllocation',
		parameters: allocate('order-echo'),
		faults: [[status(400, echo(SANDBOX_ACCOUNT.allocPassword, b64(SANDBOX_ACCOUNT.allocUsername, SANDBOX_ACCOUNT.allocPassword))), 1]],
		outcome: 'error',
		httpCode: '400',
	},
	{
		name: 'session id echoed in a 400 (contact center)',
		node: 'exotelContactCenter',
		parameters: { resource: 'user', operation: 'delete', userId: 'nobody' },
		before: loggedIn,
		tamper: (store) => {
			const session = sessionIdOf(store)!;
			sandbox.injectFaults(status(400, { status: 'failure', message: `bad session ${session}` }), 1, { base: 'cc' });
		},
		outcome: 'error',
		httpCode: '400',
	},
	{
		name: 'verify token echoed in a 400 (Set Webhooks)',
		node: 'exotelMessaging',
		parameters: setWebhooks,
		faults: [[status(400, echo(`verify_token=${VERIFY_TOKEN}`)), 1]],
		outcome: 'error',
		httpCode: '400',
	},
];

describe('no secret in output, errors or logs', () => {
	describe.each(['exotelMessaging', 'exotelVoice', 'exotelContactCenter', 'exotelNumberAllocation'])('%s', (node) => {
		const cases = CASES.filter((c) => c.node === node);
		it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
			expect(await runCase(c)).toEqual([]);
		});
	});

	describe('a service that echoes a secret back', () => {
		for (const c of ECHO_CASES) {
			it(c.name, async () => {
				expect(await runCase(c)).toEqual([]);
			});
		}
	});
});

describe('Messaging Trigger: no secret in what it answers or emits', () => {
	const trigger = new ExotelMessagingTrigger();
	const body = JSON.stringify({
		event: 'incoming_message',
		timestamp: '2026-11-22T10:15:00+05:30',
		account_sid: SANDBOX_ACCOUNT.accountSid,
		message: { id: 'wamid.1', from: '+919876543210', to: '+918047112233', timestamp: '2026-11-22T10:14:59+05:30', type: 'text', text: { body: 'hi' } },
		contact: { wa_id: '919876543210', profile: { name: 'Asha Rao' } },
	});
	const credentials = { ...sandboxCredentials({ origin: 'http://127.0.0.1:1' } as ExotelSandbox, GOOD)[0].data };
	const post = (signature: string | null) =>
		callWebhook(trigger, {
			rawBody: body,
			headers: signature === null ? {} : { 'X-Service-Signature': signature },
			parameters: { events: ['chatAppIncoming', 'chatAppStatus', 'rcsDeliveryReport', 'rcsIncoming', 'smsClick', 'smsStatus', 'unknown'], statuses: [], verifyToken: VERIFY_TOKEN },
			credentials,
		});
	const good = signPayload(body, SIGNING_SECRET);

	it.each([
		['a valid signature', good, 200],
		['a forged signature', signPayload(body, 'another-secret'), 401],
		['a missing signature', null, 401],
		['a malformed signature', 'sha256=zz', 401],
	])('%s', async (_name, signature, expected) => {
		const answer = await post(signature);
		expect(answer.status).toBe(expected);
		const text = dump({ body: answer.body, workflowData: answer.workflowData, response: answer.response });
		for (const secret of SECRETS) expect(text).not.toContain(secret);
		// Nor the signature the secret would give: that would let anyone replay this body.
		if (expected !== 200) expect(text).not.toContain(good.slice('sha256='.length));
	});

	it.each([
		['a wrong verify token', { 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '42' }, 403],
		['no verify token', { 'hub.challenge': '42' }, 403],
		['the right verify token', { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '42' }, 200],
	])('handshake with %s', async (_name, query, expected) => {
		const answer = await callWebhook(trigger, { method: 'GET', query, parameters: { verifyToken: VERIFY_TOKEN }, credentials });
		expect(answer.status).toBe(expected);
		expect(dump({ body: answer.body, workflowData: answer.workflowData })).not.toContain(VERIFY_TOKEN);
	});
});
