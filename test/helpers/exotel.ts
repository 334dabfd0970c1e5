import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { ExotelSandbox } from '../sandbox/server';
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../sandbox/fixtures';
import type { HarnessCredential } from './n8n-core-harness';
import { packageNodeType } from './n8n-core-harness';

export { SANDBOX_ACCOUNT };

/** A sandbox started for one test file; stop it in afterAll. */
export async function startSandbox(options: ConstructorParameters<typeof ExotelSandbox>[0] = {}) {
	const sandbox = new ExotelSandbox(options);
	await sandbox.start();
	return sandbox;
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

/** A node of this package, as a workflow would hold it. */
export function packageNode(
	nodeName: string,
	parameters: INodeParameters,
	settings: Partial<Pick<INode, 'onError' | 'continueOnFail' | 'name'>> = {},
): INode {
	return {
		id: `exotel-node-${++counter}`,
		name: settings.name ?? 'Exotel',
		type: packageNodeType(nodeName),
		typeVersion: 1,
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
