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
