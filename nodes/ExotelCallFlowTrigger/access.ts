// Who may ask a call-flow URL: the service cannot sign these requests, so the secret rides in the URL's path.
import { createHash, timingSafeEqual } from 'crypto';

/** The shortest secret the credential takes: a URL path is the only key these requests carry. */
export const MIN_SECRET_LENGTH = 16;

/** Whether `given` (the URL's `:secret` segment) is the credential's secret; compared in constant time. */
export function secretMatches(given: unknown, secret: string): boolean {
	if (typeof given !== 'string' || secret.length < MIN_SECRET_LENGTH) return false;
	// digests are of one length whatever was given, so the comparison leaks nothing of it
	const digest = (text: string) => createHash('sha256').update(text).digest();
	return timingSafeEqual(digest(given), digest(secret));
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^(?=.*:)[0-9a-f:.]{2,45}$/i;

/** 4 for an IPv4 address, 6 for an IPv6 one (loosely: hex groups and colons), else 0. */
function isIP(text: string): 0 | 4 | 6 {
	if (IPV4.test(text)) return 4;
	return IPV6.test(text) ? 6 : 0;
}

/** IPv4 in IPv6 (`::ffff:10.0.0.1`, as Node gives it on a dual-stack socket) as the IPv4 it is. */
function plainAddress(address: string): string {
	return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}

function ipv4Number(address: string): number {
	return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

/** `10.0.0.0/8` holds `10.1.2.3`; an address without a range holds only itself. */
function holds(entry: string, address: string): boolean {
	const [base, bits] = entry.split('/');
	if (bits === undefined) return plainAddress(base) === address;
	const size = Number(bits);
	if (isIP(base) !== 4 || isIP(address) !== 4 || !Number.isInteger(size) || size < 0 || size > 32) return false;
	const mask = size === 0 ? 0 : (0xffffffff << (32 - size)) >>> 0;
	return ((ipv4Number(base) & mask) >>> 0) === ((ipv4Number(address) & mask) >>> 0);
}

/** The entries of Allowed Addresses that are neither an IP address nor an IPv4 range. */
export function badAddressEntries(list: string): string[] {
	return addressEntries(list).filter((entry) => {
		const [base, bits] = entry.split('/');
		if (bits === undefined) return isIP(base) === 0;
		return isIP(base) !== 4 || !/^\d{1,2}$/.test(bits) || Number(bits) > 32;
	});
}

function addressEntries(list: string): string[] {
	return list
		.split(/[\s,]+/)
		.map((entry) => entry.trim())
		.filter(Boolean);
}

/** Whether the request's source address is allowed: any when the list is empty. */
export function addressAllowed(list: string, source: string | undefined): boolean {
	const entries = addressEntries(list);
	if (entries.length === 0) return true;
	if (!source) return false;
	const address = plainAddress(source);
	return entries.some((entry) => holds(entry, address));
}
