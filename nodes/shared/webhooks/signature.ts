import { createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

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

/** The callback families the service posts unsigned (the spec signs chat-app webhooks only). */
export type UnsignedFamily = 'sms' | 'rcs' | 'call';

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const isRecord = (value: unknown): value is IDataObject => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * Which unsigned family a body is wholly made of, or undefined when it is anything else (a chat-app
 * payload, a mix, an unknown shape). A body (its bracket keys nested) counts only when nothing but
 * that family's fields is in it, so no chat-app payload can ride along in another envelope:
 * - `rcs`: only `rcs` (and the fallback's `sms`) objects at the top;
 * - `sms`: an SMS status or click callback, `SmsSid` and flat fields only;
 * - `call`: a v1 call status callback, `CallSid` and flat fields, its `Legs` a list of flat objects.
 */
export function unsignedFamilyOf(body: IDataObject): UnsignedFamily | undefined {
	const keys = Object.keys(body);
	if (keys.length > 0 && isRecord(body.rcs) && keys.every((key) => (key === 'rcs' || key === 'sms') && isRecord(body[key]))) return 'rcs';
	if (body.SmsSid !== undefined && keys.every((key) => isScalar(body[key]))) return 'sms';
	const flatLeg = (leg: unknown) => isRecord(leg) && Object.values(leg).every(isScalar);
	if (
		body.CallSid !== undefined &&
		keys.every((key) => isScalar(body[key]) || (key === 'Legs' && Array.isArray(body.Legs) && body.Legs.every(flatLeg)))
	) {
		return 'call';
	}
	return undefined;
}

/** Why a request was refused: its signature header was absent, or did not match the secret. */
export type SignatureRefusal = 'missing' | 'invalid';

/**
 * Whether a request fails the credential's signing secret (`secretOf`), and why. Without a secret
 * nothing is checked. With one, a request must carry a valid X-Service-Signature when it carries any
 * signature, when `always` (a chat-app wait: only signed callbacks reach it), or when its body is not
 * wholly one of the unsigned families (`body`, bracket keys nested): so a chat-app payload, in
 * whatever envelope, is never taken unsigned. An unsigned body of an unsigned family passes whatever
 * the secret, so the credential (looked up and decrypted by n8n on every read) is not read for it:
 * those are the bulk of a flood of delivery reports.
 */
export async function signatureRefused(
	context: IWebhookFunctions,
	body: IDataObject,
	secretOf: () => Promise<string>,
	always = false,
): Promise<SignatureRefusal | undefined> {
	const req = context.getRequestObject() as ReturnType<IWebhookFunctions['getRequestObject']> & { rawBody?: Buffer; readRawBody?: () => Promise<void> };
	const header = req.headers[SIGNATURE_HEADER];
	if (header === undefined && !always && unsignedFamilyOf(body) !== undefined) return undefined;
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
