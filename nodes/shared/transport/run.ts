import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CategoryPacer, PACING_POLICY } from './pacing';

/** The node's Max Wait, and the setting's place as the panel of the node's version shows it (for error messages). */
export interface MaxWait {
	ms: number;
	setting: string;
}

/** What the requests of one node run share: one pace per category of each account, and credentials read once. */
export class NodeRun {
	private readonly pacers = new Map<string, CategoryPacer>();

	private readonly credentials = new Map<string, Promise<ICredentialDataDecryptedObject>>();

	constructor(readonly maxWait: MaxWait) {}

	/** The limit is the account's, for each category of its endpoints. */
	pacer(key: string, perMinute: number): CategoryPacer {
		let pacer = this.pacers.get(key);
		if (!pacer) {
			pacer = new CategoryPacer(perMinute, this.maxWait.ms);
			this.pacers.set(key, pacer);
		}
		return pacer;
	}

	/** n8n looks a credential up in its database and decrypts it on every read: once a run is enough. */
	credentialsOf(type: string, read: () => Promise<ICredentialDataDecryptedObject>): Promise<ICredentialDataDecryptedObject> {
		let credentials = this.credentials.get(type);
		if (!credentials) {
			credentials = read();
			this.credentials.set(type, credentials);
		}
		return credentials;
	}
}

const RUN = Symbol('exotelNodeRun');

/**
 * n8n gives a node no storage of its own for one run, and module state would be shared by every
 * execution of the process; the context n8n creates for this node run is the one object all its
 * requests share, so the run travels on it.
 */
export function startRun(context: object, maxWait: MaxWait): NodeRun {
	const existing = runOf(context);
	if (existing) return existing;
	const run = new NodeRun(maxWait);
	Object.defineProperty(context, RUN, { value: run, enumerable: false });
	return run;
}

/** The node run a request belongs to; undefined outside `execute` (dropdowns, triggers, hooks). */
export function runOf(context: object): NodeRun | undefined {
	return (context as { [RUN]?: NodeRun })[RUN];
}

/** A request made outside a run paces alone, and nobody in the editor should wait long. */
export function pacerFor(context: object, key: string, perMinute: number): CategoryPacer {
	return runOf(context)?.pacer(key, perMinute) ?? new CategoryPacer(perMinute, PACING_POLICY.interactiveMaxWaitMs);
}
