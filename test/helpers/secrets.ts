/**
 * The no-secret suite the resource files of test/in-process share: each runs its operations'
 * success and error paths (wrong credentials on every base, service 4xx, 207 / 202 partial
 * failures, 429s past Rate Limit → Max Wait and 5xx past the retry limit, connection resets,
 * expired sessions with a failing re-login, services that echo a secret back) through n8n-core
 * against a sandbox of its own, and every output item, the run's error, every node's run error and
 * the n8n-core log lines written during the run are searched for each secret (and the base64 of
 * `key:token` / `user:password`). The Messaging Trigger's own checks read SECRETS too.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { packageNode, SANDBOX_ACCOUNT, sandboxCredentials, startSandbox } from './exotel';
import type { CredentialStore, RunResult } from './n8n-core-harness';
import { chain, harnessLog, itemsNode, runWorkflow } from './n8n-core-harness';
import type { Fault, FaultMatch } from '../../sandbox/types';
import type { ExotelSandbox } from '../../sandbox/server';

export const b64 = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

/** Wrong but recognisable secrets (the sandbox answers 401 to each). */
export const WRONG = {
	apiToken: 'SECRET-dummy-wrong-apitoken-7f3a',
	bearer: 'SECRET-wrong-bearer-91c2',
	ccToken: 'SECRET-dummy-wrong-cctoken-33d0',
	allocPassword: 'SECRET-dummy-wrong-allocpw-5e1b',
};
export const SIGNING_SECRET = 'SECRET-dummy-signing-0b7e';
export const VERIFY_TOKEN = 'SECRET-dummy-verify-token-4d2a';

/** Every secret string a run must never show; session ids are added as the sandbox issues them. */
export const SECRETS = new Set<string>([
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

export type Overrides = Parameters<typeof sandboxCredentials>[1];
export const GOOD: Overrides = { exotelApi: { webhookSigningSecret: SIGNING_SECRET } };
export const WRONG_CREDENTIALS: Overrides = {
	exotelApi: { apiToken: WRONG.apiToken, webhookSigningSecret: SIGNING_SECRET },
	exotelBearerTokenApi: { token: WRONG.bearer },
	exotelContactCenterApi: { token: WRONG.ccToken },
	exotelAllocationApi: { password: WRONG.allocPassword },
};

/** JSON of anything, circular references cut; n8n's `node` copy (the workflow's own parameters) left out. */
export function dump(value: unknown): string {
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

export function sessionIdOf(store: CredentialStore | undefined): string | undefined {
	if (!store?.has('exotelContactCenterApi')) return undefined;
	const session = store.get('exotelContactCenterApi').sessionId;
	return typeof session === 'string' && session.length >= 4 ? session : undefined;
}

/** Where a secret could surface after a run, by place. */
export function surfaces(result: RunResult, logStart: number): Record<string, string> {
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

export function leaksIn(places: Record<string, string>): string[] {
	const found: string[] = [];
	for (const [place, text] of Object.entries(places)) {
		for (const secret of SECRETS) if (text.includes(secret)) found.push(`${place} shows "${secret}"`);
	}
	return found;
}

export interface SecretCase {
	name: string;
	node: 'exotelMessaging' | 'exotelVoice' | 'exotelContactCenter' | 'exotelNumberAllocation';
	parameters: Record<string, unknown>;
	items?: IDataObject[];
	credentials?: Overrides;
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	faults?: Array<[Fault, number, FaultMatch?]>;
	/** Runs first (its own surfaces are checked too) and gives the store the case's run reuses. */
	before?: (sandbox: ExotelSandbox) => Promise<CredentialStore | undefined>;
	/** Applied to the store after `before`, just before the run. */
	tamper?: (store: CredentialStore, sandbox: ExotelSandbox) => void;
	/** 'error': the run must fail (with this HTTP code when given); 'ok': it must not. */
	outcome: 'ok' | 'error' | 'any';
	httpCode?: string;
}

async function runCase(sandbox: ExotelSandbox, c: SecretCase): Promise<string[]> {
	const leaks: string[] = [];
	let store: CredentialStore | undefined;
	if (c.before) {
		store = await c.before(sandbox);
		const session = sessionIdOf(store);
		if (session) SECRETS.add(session);
		sandbox.clearRequests();
	}
	if (store && c.tamper) c.tamper(store, sandbox);
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

export const status = (code: number, body?: unknown): Fault => ({ kind: 'status', status: code, retryAfterSeconds: 0, ...(body === undefined ? {} : { body }) });
export const storm = (code: number, match: FaultMatch = {}): [Fault, number, FaultMatch] => [status(code), 6, match];
/** 429s without Retry-After outlasting Rate Limit → Max Wait (0.6 s), so the run gives up on them. */
export const limitStorm: [Fault, number, FaultMatch] = [{ kind: 'status', status: 429 }, 50, {}];
export const giveUpSoon = { rateLimit: { maxWaitMinutes: 0.01 } };
export const resetBefore: Fault = { kind: 'reset', when: 'before' };
export const resetAfter: Fault = { kind: 'reset', when: 'after' };

export const ccCreate = (userId: string) => ({ resource: 'user', operation: 'create', userId, userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1 });

/** Logs in once with good credentials (a user create) and hands back the store holding the session. */
export async function loggedIn(sandbox: ExotelSandbox): Promise<CredentialStore> {
	const first = await runWorkflow({
		nodes: [itemsNode('Items', [{}]), packageNode('exotelContactCenter', ccCreate('login.user') as INodeParameters)],
		connections: chain('Items', 'Exotel'),
		credentials: sandboxCredentials(sandbox, GOOD),
	});
	expect(first.error).toBeUndefined();
	expect(leaksIn(surfaces(first, 0))).toEqual([]);
	return first.credentialStore;
}

/** A service (or a gateway in front of it) whose error body repeats what the request carried. */
export const echo = (...values: string[]) => ({ message: `rejected request; you sent ${values.join(' and ')}`, error: { detail: values.join(' ') } });

/**
 * The no-secret tests of one resource: its cases, then those of a service that echoes a secret
 * back, on a sandbox of their own (no added latency) with faults cleared before each.
 */
export function describeNoSecrets(cases: SecretCase[], echoCases: SecretCase[] = []) {
	describe('no secret in output, errors or logs', () => {
		let sandbox: ExotelSandbox;
		beforeAll(async () => {
			sandbox = await startSandbox({ timeScale: 0 });
		});
		afterAll(async () => await sandbox.stop());
		beforeEach(() => {
			sandbox.reset();
			sandbox.clearFaults();
		});

		it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
			expect(await runCase(sandbox, c)).toEqual([]);
		});

		if (echoCases.length) {
			describe('a service that echoes a secret back', () => {
				for (const c of echoCases) {
					it(c.name, async () => {
						expect(await runCase(sandbox, c)).toEqual([]);
					});
				}
			});
		}
	});
}
