/* eslint-disable @n8n/community-nodes/no-restricted-imports -- removes the packed tarball's folder (path); never shipped */
/**
 * What the two benches on a real n8n (sms-real-n8n, rate-limit) share: the node names, the Code
 * nodes' JavaScript (the item generator, the expert's bulk builder), the nodes and workflows built
 * from them (Webhook → Generate → Exotel node, or → Build bulk bodies → HTTP Request), and n8n's
 * set-up and teardown around the runs. Each bench passes what differs (its message text, its
 * credentials, its webhook paths and workflow names), so each keeps the workflows it always had.
 */
import * as path from 'node:path';

import { makeWorkflow, N8nInstance, packPackage, removeTempDir, webhookNode, type WorkflowNode } from '../harness';
import { SANDBOX_ACCOUNT, sandboxCredentialData } from '../../sandbox/fixtures';
import { MESSAGES_PER_REQUEST } from './common';
import type { SandboxProcess } from './sandbox-process';

export const PACKAGE = 'n8n-nodes-exotel';
export const SMS_FROM = 'EXOTEL';

// Node names, as they appear in runData.
export const WEBHOOK = 'Webhook';
export const GENERATE = 'Generate items';
export const EXOTEL = 'Exotel SMS Send';
export const BUILD_BULK = 'Build bulk bodies';
export const HTTP_BULK = 'HTTP Request bulksend';

/** The generator makes numbers +9198765 + 5 digits: at most this many distinct ones. */
export const MAX_GENERATED_ITEMS = 100_000;

/** A credential as nodes name it (and as it is imported under). */
export interface NamedCredential {
	id: string;
	name: string;
}

// ---------------------------------------------------------------------------------------------
// The Code nodes' JavaScript
// ---------------------------------------------------------------------------------------------

/**
 * The item generator: `count` from the webhook's query string, items {phone, name}, with `orderId`
 * also {orderId}. The two texts are the ones each bench has always run, to the character.
 */
export function generateJs({ orderId }: { orderId: boolean }): string {
	const phoneAndName = `phone: '+9198765' + String(i).padStart(5, '0'), name: 'Customer ' + i`;
	const loop = orderId
		? `for (let i = 0; i < count; i++) {\n  items[i] = { json: { ${phoneAndName}, orderId: 'ORD-' + (100000 + i) } };\n}`
		: `for (let i = 0; i < count; i++) items[i] = { json: { ${phoneAndName} } };`;
	return `const count = Number($input.first().json.query.count);
if (!Number.isInteger(count) || count < 1 || count > ${MAX_GENERATED_ITEMS}) throw new Error('count must be 1 to ${MAX_GENERATED_ITEMS}, got ' + count);
const items = new Array(count);
${loop}
return items;`;
}

/**
 * The expert's bulk builder: one urlencoded dynamic-bulk body per 100 items. `fields` are taken
 * from each item's json (`phone, name`), `bodyJs` makes the message's text of them.
 */
export const buildBulkJs = (fields: string, bodyJs: string) => `const items = $input.all();
const out = [];
for (let start = 0; start < items.length; start += ${MESSAGES_PER_REQUEST}) {
  const end = Math.min(start + ${MESSAGES_PER_REQUEST}, items.length);
  const parts = ['From=' + encodeURIComponent('${SMS_FROM}')];
  for (let i = start; i < end; i++) {
    const { ${fields} } = items[i].json;
    const k = i - start;
    parts.push('Messages%5B' + k + '%5D%5BTo%5D=' + encodeURIComponent(phone));
    parts.push('Messages%5B' + k + '%5D%5BBody%5D=' + encodeURIComponent(${bodyJs}));
  }
  out.push({ json: { form: parts.join('&'), messages: end - start } });
}
return out;`;

// ---------------------------------------------------------------------------------------------
// The nodes and workflows
// ---------------------------------------------------------------------------------------------

export function codeNode(name: string, jsCode: string): WorkflowNode {
	return { name, type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { mode: 'runOnceForAllItems', language: 'javaScript', jsCode } };
}

/** An HTTP Request node with its default options (no batching, no retry), Basic auth through `httpBasicAuth`. */
export function httpNode(name: string, url: string, body: Record<string, unknown>, credential: NamedCredential): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			sendBody: true,
			contentType: 'form-urlencoded',
			...body,
			options: {},
		},
		credentials: { httpBasicAuth: credential },
	};
}

/** The sandbox's SMS endpoint (`send`, `bulksend`) for its account. */
export const smsUrl = (origin: string, endpoint: string) => `${origin}/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/${endpoint}`;

/** The HTTP Request node of the hand-built bulk: POST Sms/bulksend with the body Build bulk bodies made. */
export const bulkHttpNode = (origin: string, credential: NamedCredential) =>
	httpNode(HTTP_BULK, smsUrl(origin, 'bulksend'), { specifyBody: 'string', body: '={{ $json.form }}' }, credential);

/** Exotel Messaging SMS → Send to each item's phone, `body` the message's expression; `extra` (such as onError) last. */
export function exotelSmsNode(credential: NamedCredential, body: string, extra: Partial<WorkflowNode> = {}): WorkflowNode {
	return {
		name: EXOTEL,
		type: `${PACKAGE}.exotelMessaging`,
		typeVersion: 1,
		parameters: {
			resource: 'sms',
			operation: 'send',
			from: SMS_FROM,
			to: '={{ $json.phone }}',
			body,
		},
		credentials: { exotelApi: credential },
		...extra,
	};
}

/** A bench's workflow, started by its Webhook at `webhookPath` (see `execute`). */
export interface KeyedWorkflow<K extends string> {
	key: K;
	id: string;
	webhookPath: string;
	json: ReturnType<typeof makeWorkflow>;
}

/**
 * Makes a bench's workflows: Webhook (POST at `<pathPrefix>-<key>`, answering no data once the run is
 * over) → `chain`, named `<namePrefix>: <title>`.
 */
export function webhookWorkflowMaker<K extends string>(pathPrefix: string, namePrefix: string) {
	return (key: K, title: string, chain: WorkflowNode[]): KeyedWorkflow<K> => {
		const webhookPath = `${pathPrefix}-${key.toLowerCase()}`;
		const trigger = { ...webhookNode(WEBHOOK, webhookPath, 'POST') };
		trigger.parameters = { ...trigger.parameters, responseData: 'noData' };
		const json = makeWorkflow(chain, { name: `${namePrefix}: ${title}`, trigger });
		return { key, id: json.id, webhookPath, json };
	};
}

// ---------------------------------------------------------------------------------------------
// n8n around the runs
// ---------------------------------------------------------------------------------------------

export interface RealN8nSetup {
	/** the bench's name, at the head of its log lines */
	bench: string;
	/** the sandbox child, already started; stopped at the end */
	sandbox: SandboxProcess;
	log: (line: string) => void;
	exotelCredential: NamedCredential;
	/** fields added to the sandbox's Exotel credential data (such as Custom Rate Limits) */
	exotelData?: Record<string, unknown>;
	/** more Exotel API credentials: the sandbox account's, with these fields over it */
	moreExotelCredentials?: Array<{ credential: NamedCredential; data: Record<string, unknown> }>;
	/** the HTTP Request nodes' Basic auth: the sandbox account's API key and token */
	basicCredential: NamedCredential;
	/** imported and published in this order */
	workflows: Array<KeyedWorkflow<string>>;
}

/**
 * npm pack, a fresh n8n user folder with the tarball installed, `n8n start`, an owner and an API key,
 * the two credentials and the workflows imported and published through its API; then `run`. After it,
 * whatever happened: n8n disposed of, the tarball's folder removed, the sandbox stopped.
 */
export async function withRealN8n<T>(setup: RealN8nSetup, run: (instance: N8nInstance, apiKey: string) => Promise<T>): Promise<T> {
	const { bench, sandbox, log } = setup;
	let instance: N8nInstance | undefined;
	let tarball: string | undefined;
	try {
		log(`${bench}: npm pack, and a fresh n8n user folder with the tarball installed (n8n installed first if needed)...`);
		tarball = await packPackage();
		instance = await N8nInstance.create({ tarball });
		// started first, so the credentials and workflows go in through its API, not an n8n CLI boot each
		log(`${bench}: n8n start...`);
		await instance.start();
		const { apiKey } = await instance.setupOwnerAndApiKey();
		await instance.importCredentials([
			{ ...setup.exotelCredential, type: 'exotelApi', data: { ...sandboxCredentialData(sandbox.origin).exotelApi, ...setup.exotelData } },
			{ ...setup.basicCredential, type: 'httpBasicAuth', data: { user: SANDBOX_ACCOUNT.apiKey, password: SANDBOX_ACCOUNT.apiToken } },
			...(setup.moreExotelCredentials ?? []).map(({ credential, data }) => ({ ...credential, type: 'exotelApi', data: { ...sandboxCredentialData(sandbox.origin).exotelApi, ...data } })),
		]);
		await instance.importWorkflows(setup.workflows.map((w) => w.json));
		for (const w of setup.workflows) await instance.publish(w.id);
		return await run(instance, apiKey);
	} finally {
		await instance?.dispose();
		if (tarball) await removeTempDir(path.dirname(tarball));
		await sandbox.stop();
	}
}
