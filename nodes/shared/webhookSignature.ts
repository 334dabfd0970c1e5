import { createHmac, timingSafeEqual } from 'crypto';

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
