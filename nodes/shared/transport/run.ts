import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Endpoint } from './endpoint';
import { CategoryPacer, PACING_POLICY } from './pacing';
import { rateOf } from './rateLimits';

/** The node's Max Wait, and the setting's place as the panel of the node's version shows it (for error messages). */
export interface MaxWait {
	ms: number;
	/** Empty outside an execution: there is no setting to raise. */
	setting: string;
}

/**
 * What the requests of one node run share: one pace per category of each account, and credentials
 * read once. `route` starts one per execution of an action node and hands it to the operation,
 * which passes it to every request it makes.
 */
export class NodeRun {
	private readonly pacers = new Map<string, CategoryPacer>();

	private readonly credentials = new Map<string, Promise<ICredentialDataDecryptedObject>>();

	constructor(readonly maxWait: MaxWait) {}

	/** A run for requests made outside an execution (a dropdown, a trigger's activation): it paces alone, and nobody there should wait long. */
	static alone(): NodeRun {
		return new NodeRun({ ms: PACING_POLICY.interactiveMaxWaitMs, setting: '' });
	}

	/**
	 * The pace of the endpoint's category on the credential's account (the credential's Custom Rate
	 * Limits, else the documented default); a string is the credential's malformed entry, named.
	 */
	pacerOf(credentials: ICredentialDataDecryptedObject, endpoint: Endpoint, baseUrl: string): CategoryPacer | string {
		const rate = rateOf(credentials, endpoint.rate);
		if (typeof rate === 'string') return rate;
		const account = credentials.accountSid ? `account:${String(credentials.accountSid)}` : baseUrl;
		const key = `${account}|${endpoint.rate}`;
		let pacer = this.pacers.get(key);
		if (!pacer) {
			pacer = new CategoryPacer(rate, this.maxWait.ms);
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
