import { createHmac, timingSafeEqual } from 'crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

export const SIGNATURE_HEADER = 'x-service-signature';

/** `sha256=<hex>`: the HMAC-SHA256 of the raw request bytes, keyed with the signing secret. */
export function signPayload(rawBody: Buffer | string, secret: string): string {
	return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Compares in constant time; a missing, malformed or wrong-length header is simply not valid. */
export function isValidSignature(rawBody: Buffer | string, header: unknown, secret: string): boolean {
	if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
	const expected = Buffer.from(signPayload(rawBody, secret));
	const given = Buffer.from(header.trim());
	return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Why a request was refused: its signature header was absent, or did not match the secret. */
export type SignatureRefusal = 'missing' | 'invalid';

/**
 * Whether a request fails the credential's signing secret (`secretOf`), and why. Without a secret
 * nothing is checked. With one, a request must carry a valid X-Service-Signature when it carries any
 * signature, and when it may not come unsigned. `mayComeUnsigned` is the caller's answer: true only for
 * a body wholly of a shape the service posts unsigned (`unsignedFamilyOf`, output/callbacks.ts),
 * never to a chat-app wait, so a chat-app payload, in whatever envelope, is never taken unsigned. An
 * unsigned request that may come so passes whatever the secret, and the credential (looked up and
 * decrypted by n8n on every read) is not read for it: those are the bulk of a flood of delivery reports.
 */
export async function signatureRefused(
	context: IWebhookFunctions,
	mayComeUnsigned: boolean,
	secretOf: () => Promise<string>,
): Promise<SignatureRefusal | undefined> {
	const req = context.getRequestObject() as ReturnType<IWebhookFunctions['getRequestObject']> & { rawBody?: Buffer; readRawBody?: () => Promise<void> };
	const header = req.headers[SIGNATURE_HEADER];
	if (header === undefined && mayComeUnsigned) return undefined;
	const secret = await secretOf();
	if (!secret) return undefined;
	if (header === undefined) return 'missing';
	if (!req.rawBody && req.readRawBody) await req.readRawBody();
	return isValidSignature(req.rawBody ?? Buffer.alloc(0), header, secret) ? undefined : 'invalid';
}

/** What the service is answered, and the operator told, when a callback is refused for its signature. */
export function refusalWords(refusal: SignatureRefusal): string {
	return refusal === 'missing'
		? "The X-Service-Signature header is missing. The credential's Webhook Signing Secret is set, so unsigned chat-app callbacks are refused; the live service is not known to sign its webhooks: empty the secret unless your account signs them."
		: "The X-Service-Signature header does not match the credential's Webhook Signing Secret.";
}

/**
 * Tells n8n's log why callbacks are refused, once for each trigger and reason: the service gets a
 * 401 and may retry, so a line per request would bury the log, and none would leave the operator
 * guessing why nothing arrives. The note is kept in the workflow's static data, which n8n saves
 * after a production webhook; a waiting execution's is not saved, so a wait notes each refusal.
 */
export function logRefusalOnce(context: IWebhookFunctions, refusal: SignatureRefusal): void {
	const noted = context.getWorkflowStaticData('node');
	const key = `signatureRefusal:${refusal}`;
	if (noted[key] === true) return;
	noted[key] = true;
	context.logger.warn(`Exotel: a callback to "${context.getNode().name}" was refused (401). ${refusalWords(refusal)}`, {
		workflowId: context.getWorkflow().id,
		node: context.getNode().name,
	});
}
