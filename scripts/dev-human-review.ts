/**
 * `npm run dev -- --human-review`: an AI agent's human review, tried without an account or a model
 * key. It needs the newest n8n (2.8.4 makes no human-review tools), so the flag starts the newest and
 * refuses `--n8n 2.8.4`. Beside the sandbox, dev then starts the scripted model (scripts/scripted-model.ts,
 * 127.0.0.1, port env SCRIPTED_MODEL_PORT or 4011), imports an OpenAI credential pointing at it and
 * the examples of examples/newest-n8n/ (the AI agent whose refund tool the manager approves on WhatsApp),
 * published like the others. Pure, but for reading the example files.
 */
import type { CredentialSpec } from '../test/harness';
import { devTarget, type N8nTargetName } from '../test/harness/targets';
import { NEWEST_EXAMPLES_DIR, readExamples, type ExampleWorkflow } from './dev-examples';
import { DEFAULT_SCRIPTED_MODEL_PORT } from './scripted-model';

export const HUMAN_REVIEW_FLAG = '--human-review';

/** The credential the example's model node names (its id and name), imported pointing at the scripted model. */
export const SCRIPTED_MODEL_CREDENTIAL = { id: 'exoScriptedModel', name: 'Scripted model (npm run dev)' } as const;

/** The origin the example files name for the scripted model (its refund endpoint). */
export const EXAMPLE_MODEL_ORIGIN = `http://127.0.0.1:${DEFAULT_SCRIPTED_MODEL_PORT}`;

export interface DevChoice {
	target: N8nTargetName;
	humanReview: boolean;
}

/**
 * The n8n `npm run dev` starts and whether human review is asked for. With `--human-review` the
 * newest, whatever N8N_E2E_TARGET says (the flag asks for it); `--n8n 2.8.4` beside it is refused,
 * naming why. Without it, as `devTarget`.
 */
export function devChoice(args: string[], env: NodeJS.ProcessEnv): DevChoice {
	const valued = args.find((arg) => arg.startsWith(`${HUMAN_REVIEW_FLAG}=`));
	if (valued) throw new Error(`${HUMAN_REVIEW_FLAG} takes no value (got '${valued}')`);
	if (!args.includes(HUMAN_REVIEW_FLAG)) return { target: devTarget(args, env), humanReview: false };
	const given = args.some((arg) => arg === '--n8n' || arg.startsWith('--n8n=')) ? devTarget(args, {}) : 'newest';
	if (given !== 'newest') {
		throw new Error(
			`${HUMAN_REVIEW_FLAG} needs the newest n8n: n8n ${given} makes no human-review tools for an AI agent (2.41 does). ` +
				`Drop --n8n ${given} (${HUMAN_REVIEW_FLAG} starts the newest) or give --n8n newest`,
		);
	}
	return { target: 'newest', humanReview: true };
}

/** The OpenAI credential of the example's model node, pointing at the scripted model (any key will do). */
export function scriptedModelCredential(origin: string): CredentialSpec {
	return { ...SCRIPTED_MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-scripted-model-any-key-will-do', url: `${origin}/v1` } };
}

/** The examples of examples/newest-n8n/, their scripted-model origin moved to `origin` (another SCRIPTED_MODEL_PORT). */
export function humanReviewExamples(origin: string, dir: string = NEWEST_EXAMPLES_DIR): ExampleWorkflow[] {
	return readExamples(dir).map((example) => JSON.parse(JSON.stringify(example).split(EXAMPLE_MODEL_ORIGIN).join(origin)) as ExampleWorkflow);
}

/** The banner's lines about the scripted model. */
export function humanReviewBanner(origin: string): string[] {
	return [
		`human review by an AI agent (${HUMAN_REVIEW_FLAG}): the scripted model answers on ${origin}/v1 (credential "${SCRIPTED_MODEL_CREDENTIAL.name}", loopback only, no key)`,
		`  asked for a refund it calls the refund tool; the manager's WhatsApp approval gates it; the refund endpoint is ${origin}/refund`,
	];
}

/** Why a start without the flag, on a user folder an earlier `--human-review` start set up, runs no scripted model. */
export function humanReviewNote(scriptedModelFor: string | undefined, humanReview: boolean): string[] {
	if (humanReview || !scriptedModelFor) return [];
	return [
		`an earlier ${HUMAN_REVIEW_FLAG} start imported the AI-agent example here; its scripted model (${scriptedModelFor}) runs only with \`npm run dev -- ${HUMAN_REVIEW_FLAG}\`, so that example fails until then`,
	];
}
