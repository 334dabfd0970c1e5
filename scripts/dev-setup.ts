/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads and writes the dev n8n's files (fs, path); never shipped */
/**
 * What `npm run dev` puts into its n8n, and what it leaves alone: the sandbox credentials and the
 * example workflows are imported only when missing (matched by id), so whatever the user changed in
 * the editor survives a restart; an example that starts from a webhook is published once, when it
 * is first imported, and never again (a user who unpublishes it keeps it that way).
 *
 * Its memory between runs is `dev-state.json` in the n8n user folder: the examples still to publish
 * (imported, then stopped before n8n was up), the sandbox origin the credentials were imported for,
 * and the scripted model's origin its credential was imported for (`--human-review`).
 */
import fs from 'fs';
import path from 'path';

import type { CredentialSpec, N8nInstance } from '../test/harness';
import { startsFromWebhook, type ExampleWorkflow } from './dev-examples';

export interface DevState {
	/** Examples imported by dev that it has not published yet. */
	pendingPublish: string[];
	/** The sandbox origin the credentials were imported with. */
	credentialsFor?: string;
	/** Whether they were imported for the sandbox's live mode (`--live`). */
	credentialsLive?: boolean;
	/** The scripted model's origin its credential was imported for (`--human-review`, scripts/dev-human-review.ts). */
	scriptedModelFor?: string;
}

export function devStateFile(userFolder: string): string {
	return path.join(userFolder, 'dev-state.json');
}

export function readDevState(file: string): DevState {
	try {
		const state = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DevState>;
		return {
			pendingPublish: Array.isArray(state.pendingPublish) ? state.pendingPublish.filter((id): id is string => typeof id === 'string') : [],
			...(typeof state.credentialsFor === 'string' ? { credentialsFor: state.credentialsFor } : {}),
			...(state.credentialsLive === true ? { credentialsLive: true } : {}),
			...(typeof state.scriptedModelFor === 'string' ? { scriptedModelFor: state.scriptedModelFor } : {}),
		};
	} catch {
		// none yet (or unreadable): nothing pending, nothing known
		return { pendingPublish: [] };
	}
}

export function writeDevState(file: string, state: DevState): void {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, `${JSON.stringify(state, null, '\t')}\n`);
}

/**
 * Imports the examples the instance does not hold yet (matched by workflow id) and leaves the others
 * alone, so renames and other edits made in the editor survive a restart. Returns what it did.
 */
export async function importMissingExamples(
	instance: Pick<N8nInstance, 'listWorkflows' | 'importWorkflows'>,
	examples: Array<{ id: string; name: string }>,
): Promise<{ imported: string[]; kept: string[] }> {
	const present = new Set((await instance.listWorkflows()).map((workflow) => workflow.id));
	const missing = examples.filter((example) => !present.has(example.id));
	if (missing.length > 0) await instance.importWorkflows(missing);
	return {
		imported: missing.map((example) => example.id),
		kept: examples.filter((example) => present.has(example.id)).map((example) => example.id),
	};
}

/** Imports the credentials the instance does not hold yet (matched by id); an edited one stays as the user left it. */
export async function importMissingCredentials(
	instance: Pick<N8nInstance, 'listCredentials' | 'importCredentials'>,
	credentials: CredentialSpec[],
): Promise<{ imported: string[]; kept: string[] }> {
	const present = new Set((await instance.listCredentials()).map((credential) => credential.id));
	const missing = credentials.filter((credential) => !present.has(credential.id));
	if (missing.length > 0) await instance.importCredentials(missing);
	return {
		imported: missing.map((credential) => credential.id),
		kept: credentials.filter((credential) => present.has(credential.id)).map((credential) => credential.id),
	};
}

export interface BeforeStart {
	credentials: { imported: string[]; kept: string[] };
	examples: { imported: string[]; kept: string[] };
	/** The examples to publish once n8n is up. */
	toPublish: string[];
	/** Things the user should know (kept credentials that point at another sandbox origin). */
	notes: string[];
	/** With `scriptedModel`: whether its credential was imported now or kept. */
	scriptedModel?: { imported: boolean };
}

/**
 * Before n8n starts (through its CLI): the missing credentials and examples. The examples just
 * imported that start from a webhook join those still to publish from an earlier run, in the state
 * file first, so a stop before n8n is up does not lose them.
 */
export async function importBeforeStart(
	instance: Pick<N8nInstance, 'listCredentials' | 'importCredentials' | 'listWorkflows' | 'importWorkflows' | 'userFolder'>,
	opts: {
		credentials: CredentialSpec[];
		examples: ExampleWorkflow[];
		sandboxOrigin: string;
		live?: boolean;
		/** `--human-review`: the scripted model's credential, imported with the others when missing, and the model's origin. */
		scriptedModel?: { credential: CredentialSpec; origin: string };
	},
): Promise<BeforeStart> {
	const file = devStateFile(instance.userFolder);
	const state = readDevState(file);
	const model = opts.scriptedModel;
	// one import for all: each n8n CLI call boots n8n
	const all = await importMissingCredentials(instance, model ? [...opts.credentials, model.credential] : opts.credentials);
	const isModel = (id: string) => id === model?.credential.id;
	const credentials = { imported: all.imported.filter((id) => !isModel(id)), kept: all.kept.filter((id) => !isModel(id)) };
	const notes: string[] = [];
	const live = opts.live === true;
	if (credentials.imported.length) {
		state.credentialsFor = opts.sandboxOrigin;
		if (live) state.credentialsLive = true;
		else delete state.credentialsLive;
	} else {
		if (state.credentialsFor && state.credentialsFor !== opts.sandboxOrigin) {
			notes.push(
				`the sandbox credentials were imported for the sandbox at ${state.credentialsFor} and are kept as they are; this sandbox is at ${opts.sandboxOrigin}: ` +
					'edit their base URLs in the editor, or delete them to have them imported again on the next start',
			);
		}
		if ((state.credentialsLive === true) !== live) {
			notes.push(
				live
					? 'the Exotel API credential was imported for the spec mode and is kept as it is; for live mode set its Chat App Envelope to WhatsApp, its Account Time Zone to Asia/Kolkata and empty its Webhook Signing Secret, or delete it to have it imported again'
					: 'the Exotel API credential was imported for live mode (--live) and is kept as it is; for the spec mode set its Chat App Envelope to Auto, empty its Account Time Zone and give it the sandbox signing secret, or delete it to have it imported again',
			);
		}
	}
	let scriptedModel: BeforeStart['scriptedModel'];
	if (model) {
		scriptedModel = { imported: all.imported.includes(model.credential.id) };
		if (scriptedModel.imported) state.scriptedModelFor = model.origin;
		else if (state.scriptedModelFor && state.scriptedModelFor !== model.origin) {
			notes.push(
				`the credential "${model.credential.name}" and the AI-agent example were imported for the scripted model at ${state.scriptedModelFor} and are kept as they are; ` +
					`it is at ${model.origin} now: edit the credential's Base URL and the refund tool's URL, or delete both to have them imported again`,
			);
		}
	}
	const examples = await importMissingExamples(instance, opts.examples);
	const imported = new Set(examples.imported);
	const present = new Set([...examples.imported, ...examples.kept]);
	const fresh = opts.examples.filter((example) => imported.has(example.id) && startsFromWebhook(example)).map((example) => example.id);
	state.pendingPublish = [...new Set([...state.pendingPublish.filter((id) => present.has(id)), ...fresh])];
	writeDevState(file, state);
	return { credentials, examples, toPublish: [...state.pendingPublish], notes, ...(scriptedModel ? { scriptedModel } : {}) };
}

/**
 * Once n8n is up: publishes the examples still to publish (through its public API; 2.41 publishes in
 * the background and this waits until each is live). Each leaves the list once tried: one that cannot
 * be published is reported, and the user publishes it in the editor.
 */
export async function publishAfterStart(
	instance: Pick<N8nInstance, 'publish' | 'userFolder'>,
	ids: string[],
): Promise<{ published: string[]; failed: Array<{ id: string; error: string }> }> {
	const file = devStateFile(instance.userFolder);
	const published: string[] = [];
	const failed: Array<{ id: string; error: string }> = [];
	for (const id of ids) {
		try {
			await instance.publish(id);
			published.push(id);
		} catch (error) {
			failed.push({ id, error: (error as Error).message.split('\n')[0] });
		}
		const state = readDevState(file);
		state.pendingPublish = state.pendingPublish.filter((pending) => pending !== id);
		writeDevState(file, state);
	}
	return { published, failed };
}

/** Which of `ids` are active (published) on a running instance, each as the editor reads it. */
export async function activeWorkflowIds(instance: Pick<N8nInstance, 'rest'>, ids: string[]): Promise<Set<string>> {
	const active = new Set<string>();
	for (const id of ids) {
		const res = await instance.rest<{ data?: { active?: boolean; activeVersionId?: string | null } }>('GET', `/workflows/${id}`);
		if (res.status !== 200) throw new Error(`GET /rest/workflows/${id} → ${res.status}`);
		const workflow = res.data?.data;
		// 2.8.4 says `active`; 2.41 publishes a version (`activeVersionId`) and keeps `active` beside it
		if (workflow?.active === true || workflow?.activeVersionId) active.add(id);
	}
	return active;
}
