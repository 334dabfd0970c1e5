import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { ExotelSandbox } from '../../sandbox/server';
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import type { CredentialStore, HarnessCredential, RunWorkflowOptions } from './n8n-core-harness';
import { chain, itemsNode, packageNodeType, runWorkflow } from './n8n-core-harness';

export { SANDBOX_ACCOUNT };

/** A sandbox started for one test file; stop it in afterAll. */
export async function startSandbox(options: ConstructorParameters<typeof ExotelSandbox>[0] = {}) {
	const sandbox = new ExotelSandbox(options);
	await sandbox.start();
	return sandbox;
}

/**
 * One sandbox for a test file: started before its tests, reset before each, stopped after them.
 * What it returns stands for that sandbox once it has started.
 */
export function useSandbox(options: ConstructorParameters<typeof ExotelSandbox>[0] = {}): ExotelSandbox {
	let current: ExotelSandbox | undefined;
	beforeAll(async () => {
		current = await startSandbox(options);
	});
	afterAll(async () => await current?.stop());
	beforeEach(() => current?.reset());
	return new Proxy({} as ExotelSandbox, {
		get(_target, key) {
			if (!current) throw new Error('The sandbox starts in beforeAll: use it inside a test or hook');
			const value: unknown = Reflect.get(current, key, current);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
		},
	});
}

/** Credentials of every type pointing at the sandbox, with optional field overrides per type. */
export function sandboxCredentials(
	sandbox: ExotelSandbox,
	overrides: Partial<Record<string, IDataObject>> = {},
): HarnessCredential[] {
	const data = sandboxCredentialData(sandbox.origin) as unknown as Record<string, ICredentialDataDecryptedObject>;
	return Object.entries(data).map(([type, fields]) => ({
		type,
		data: { ...fields, ...(overrides[type] ?? {}) } as ICredentialDataDecryptedObject,
	}));
}

let counter = 0;

/**
 * A node of this package, as a workflow would hold it: at version 1 unless `settings` says otherwise
 * (the version of every workflow saved before the action nodes' version 2, which differs from it
 * only in where Max Wait is set).
 */
export function packageNode(
	nodeName: string,
	parameters: INodeParameters,
	settings: Partial<Pick<INode, 'onError' | 'continueOnFail' | 'name' | 'typeVersion'>> = {},
): INode {
	return {
		id: `exotel-node-${++counter}`,
		name: settings.name ?? 'Exotel',
		type: packageNodeType(nodeName),
		typeVersion: settings.typeVersion ?? 1,
		position: [200, 0],
		parameters,
		...(settings.onError ? { onError: settings.onError } : {}),
	};
}

/** The decoded form pairs of a recorded request, as an object of arrays (To[] keeps every value). */
export function formFields(pairs: Array<[string, string]> | undefined): Record<string, string[]> {
	const out: Record<string, string[]> = {};
	for (const [key, value] of pairs ?? []) (out[key] ??= []).push(value);
	return out;
}

export function basicAuthHeader(user: string, password: string): string {
	return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export interface NodeRunOptions {
	settings?: Parameters<typeof packageNode>[2];
	/** Credential fields to change, per credential type. */
	credentialOverrides?: Parameters<typeof sandboxCredentials>[1];
	/** A credential store of the test's own instead of the sandbox's credentials. */
	credentialStore?: CredentialStore;
	workflowSettings?: RunWorkflowOptions['settings'];
	/** Where resume URLs point (RunWorkflowOptions.baseUrl). */
	baseUrl?: string;
}

/** One node of this package on the given items against the sandbox (Items → Exotel), through n8n-core. */
export async function runNode(
	sandbox: ExotelSandbox,
	nodeName: string,
	parameters: Record<string, unknown>,
	items: Array<Record<string, unknown>> = [{}],
	options: NodeRunOptions = {},
) {
	return await runWorkflow({
		nodes: [itemsNode('Items', items), packageNode(nodeName, parameters as INodeParameters, options.settings)],
		connections: chain('Items', 'Exotel'),
		credentials: options.credentialStore ? undefined : sandboxCredentials(sandbox, options.credentialOverrides),
		credentialStore: options.credentialStore,
		...(options.workflowSettings ? { settings: options.workflowSettings } : {}),
		...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
	});
}

/**
 * `run(parameters, items, store, overrides)` for the Contact Center node against the sandbox: on a
 * credential store of the test's own when given (its session), else on the sandbox's credentials.
 */
export function contactCenterRunner(sandbox: ExotelSandbox) {
	return (parameters: Record<string, unknown>, items: Array<Record<string, unknown>> = [{}], store?: CredentialStore, overrides = {}) =>
		runNode(sandbox, 'exotelContactCenter', parameters, items, { credentialStore: store, credentialOverrides: overrides });
}
