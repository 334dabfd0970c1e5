/** Regional hosts from the service's public material; every credential also takes a custom URL. */
export const REGION_HOSTS = {
	singapore: { baseUrl: 'https://api.exotel.com', ccmBaseUrl: 'https://ccm-api.exotel.com' },
	mumbai: { baseUrl: 'https://api.in.exotel.com', ccmBaseUrl: 'https://ccm-api.in.exotel.com' },
} as const;

export type ExotelRegion = keyof typeof REGION_HOSTS | 'custom';

export const DEFAULT_ALLOCATION_BASE_URL = 'https://leadassist.exotel.in';

/**
 * The same region choice as an n8n expression, for places that only take expressions
 * (a credential's `test` request).
 */
export function regionUrlExpression(field: 'baseUrl' | 'ccmBaseUrl'): string {
	const { singapore, mumbai } = REGION_HOSTS;
	return (
		`={{ $credentials.region === 'custom' ? $credentials.${field}.replace(/\\/+$/, '') : ` +
		`$credentials.region === 'mumbai' ? '${mumbai[field]}' : '${singapore[field]}' }}`
	);
}

/**
 * `{cms_base_url}` from `{cc_base_url}`: the contact-center domain with its leading label (gateway,
 * tenant) replaced by `cms`, the rest of the host unchanged. The port belongs to the contact-center
 * server, so it is dropped, and so is any path. Groups: the scheme, the host after its first label.
 * The one statement of the rule: `cmsBaseUrlFrom` applies it in the nodes and
 * `CMS_BASE_URL_EXPRESSION` in the credential test, which only takes expressions.
 */
export const CMS_HOST_PATTERN = /^(https?:\/\/)[^./]+\.([^:/]+).*$/;
export const CMS_HOST_REPLACEMENT = '$1cms.$2';

/** `cmsBaseUrlFrom` as an n8n expression: the credential's own configuration server, else the derived one. */
export const CMS_BASE_URL_EXPRESSION =
	'={{ $credentials.cmsBaseUrl ? $credentials.cmsBaseUrl.replace(/\\/+$/, "") : ' +
	`$credentials.ccBaseUrl.replace(/${CMS_HOST_PATTERN.source}/, "${CMS_HOST_REPLACEMENT}") }}`;

/**
 * The configuration server of a contact-center base URL (`CMS_HOST_PATTERN`). The URL is parsed
 * first, so a host without a leading label to replace (an IP address, `localhost`, `acme.com`) is
 * refused rather than rewritten into nonsense, and case and credentials in the URL are normalised.
 */
export function cmsBaseUrlFrom(ccBaseUrl: string): string {
	const url = new URL(ccBaseUrl);
	const labels = url.hostname.split('.');
	if (labels.length < 3 || /^[\d.]+$/.test(url.hostname) || url.hostname.includes(':')) {
		throw new Error(`"${url.hostname}" has no leading label to replace with "cms"`);
	}
	const origin = `${url.protocol}//${url.host}`;
	if (!CMS_HOST_PATTERN.test(origin)) {
		throw new Error(`"${url.protocol}" is not http or https: no configuration server to derive`);
	}
	return origin.replace(CMS_HOST_PATTERN, CMS_HOST_REPLACEMENT);
}
