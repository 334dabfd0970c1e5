// The resume URLs of a waiting execution: how they are made, and whether a request came to one of them.
import { createHmac, timingSafeEqual } from 'crypto';
import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { SEND_AND_WAIT } from './fields';

/** The query parameter n8n's resume URLs carry their signature or resume token in. */
const SIGNATURE_PARAM = 'signature';
/** 0.3.0's own token (an HMAC keyed with the API token): still read so its waits resume after an upgrade. */
const LEGACY_TOKEN_PARAM = 'exotelToken';

function legacyTokenFor(apiToken: string, executionId: string, nodeId: string): string {
	return createHmac('sha256', apiToken).update(`exotel-resume:${executionId}:${nodeId}`).digest('hex').slice(0, 32);
}

/** The resume URL of this execution at this node, with `params` in its query. */
export type ResumeUrl = (params?: Record<string, string>) => string;

/** n8n's own resume URL of the execution (`$execution.resumeUrl`), with its resume token where n8n has one. */
function ownResumeUrl(context: Pick<IExecuteFunctions, 'evaluateExpression'> | IWebhookFunctions): URL | undefined {
	try {
		return new URL(String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0)));
	} catch {
		return undefined;
	}
}

/**
 * How this execution's resume URLs are made. Each carries a key n8n keeps, never one of the
 * credential's secrets, so rotating the API token or the signing secret strands no waiting execution:
 * - the sendAndWait operation: n8n's signed resume URL (an HMAC keyed with n8n's own secret; n8n
 *   refuses a request without it);
 * - the others, where n8n gives executions a resume token (2.41): n8n's own resume URL with the
 *   node's path; n8n refuses a request without the token;
 * - the others on an n8n without resume tokens (2.8): n8n's signed resume URL as well, which n8n does
 *   not check there, so the webhook does (isGenuineResumeUrl), as it does every one.
 */
export function resumeUrls(context: IExecuteFunctions): ResumeUrl {
	const node = context.getNode();
	if (context.getNodeParameter('operation', 0) === SEND_AND_WAIT) {
		// n8n 2.8 checks the signature only when asked; newer n8n (2.41) always checks a sendAndWait
		// node's resume URL and no longer has this method.
		const context28 = context as Partial<Pick<IExecuteFunctions, 'setSignatureValidationRequired'>>;
		if (typeof context28.setSignatureValidationRequired === 'function') context28.setSignatureValidationRequired();
		return (params = {}) => context.getSignedResumeUrl(params);
	}
	const own = ownResumeUrl(context);
	if (!own?.searchParams.get(SIGNATURE_PARAM)) return (params = {}) => context.getSignedResumeUrl(params);
	return (params = {}) => {
		const url = new URL(own);
		url.pathname = `${url.pathname.replace(/\/$/, '')}/${encodeURIComponent(node.id)}`;
		for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
		return url.toString();
	};
}

const sameText = (a: string | null | undefined, b: string | null | undefined) => {
	if (!a || !b) return false;
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Whether the request came to a resume URL this execution made (resumeUrls), checked against what
 * n8n keeps: n8n's signature of the URL (made again from the request's own query), or the
 * execution's resume token. A URL of 0.3.0 carries instead `exotelToken`, keyed with the credential's
 * API token (`apiToken`, read only when needed). Anything else, however it is shaped, is forged.
 */
export async function isGenuineResumeUrl(context: IWebhookFunctions, apiToken: () => Promise<string>): Promise<boolean> {
	const req = context.getRequestObject();
	const query = new URL(String(req.originalUrl ?? req.url ?? ''), 'http://localhost').searchParams;
	const given = query.get(SIGNATURE_PARAM);
	if (given) {
		const signed = Object.fromEntries([...query.entries()].filter(([key]) => key !== SIGNATURE_PARAM));
		if (sameText(given, new URL(context.getSignedResumeUrl(signed)).searchParams.get(SIGNATURE_PARAM))) return true;
		if (sameText(given, ownResumeUrl(context)?.searchParams.get(SIGNATURE_PARAM))) return true;
	}
	const legacy = query.get(LEGACY_TOKEN_PARAM);
	return Boolean(legacy) && sameText(legacy, legacyTokenFor(await apiToken(), context.getExecutionId(), context.getNode().id));
}
