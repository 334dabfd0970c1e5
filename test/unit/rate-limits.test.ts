/**
 * Which of the service's rate-limit categories each request of the nodes counts against, and the
 * credential's Custom Rate Limits. Each node declares its requests with their category in its
 * `endpoints.ts`; the package paces by that declaration and the sandbox counts by it
 * (sandbox/package-endpoints.ts), so the two cannot disagree. What can still be wrong is the
 * declaration itself: this file holds it, request by request, against the service's page.
 */
import { ExotelAllocationApi } from '../../credentials/ExotelAllocationApi.credentials';
import { ExotelApi } from '../../credentials/ExotelApi.credentials';
import { ExotelBearerTokenApi } from '../../credentials/ExotelBearerTokenApi.credentials';
import { ExotelContactCenterApi } from '../../credentials/ExotelContactCenterApi.credentials';
import { pathOf } from '../../nodes/shared/transport/endpoint';
import { rateOf, RATE_CATEGORIES, type RateCategory } from '../../nodes/shared/transport/rateLimits';
import { declaredEndpointsOf, PACKAGE_ENDPOINTS } from '../../sandbox/package-endpoints';
import { categoryOf as serviceCategoryOf } from '../../sandbox/rate-limit';

/**
 * The service's rate-limiting page, one row per request the nodes make (shared/notes/service-facts.md):
 * a request declared in an `endpoints.ts` without its row here fails by its name.
 */
const PAGE: Record<string, RateCategory> = {
	'SMS.send': 'sms',
	'SMS.bulksend': 'bulkSms',
	'MESSAGES.send': 'chatApp',
	'CHAT_APP_WEBHOOK.chatapp': 'chatApp',
	// the live service's path for the same settings
	'CHAT_APP_WEBHOOK.whatsapp': 'chatApp',
	'CALLS.connect': 'voice',
	'CALLS.get': 'voice',
	'CALLS.getMany': 'voice',
	'CALLS.getDetails': 'voice',
	'CALLS.voiceLogs': 'voice',
	// the page lists it as POST; the spec serves it as GET: Voice either way
	'VOICE_LOGS.download': 'voice',
	'ALLOCATIONS.allocate': 'exoPhone',
	'ALLOCATIONS.deallocate': 'exoPhone',
	'ALLOCATIONS.get': 'generalGet',
	'CAMPAIGNS.create': 'campaign',
	'CAMPAIGNS.update': 'campaign',
	'CAMPAIGNS.delete': 'campaign',
	'CAMPAIGNS.get': 'generalGet',
	'CAMPAIGNS.getMany': 'generalGet',
	'CAMPAIGNS.getCallDetails': 'generalGet',
	'LISTS.bulkRename': 'campaign',
	'LISTS.rename': 'campaign',
	'LISTS.delete': 'campaign',
	'LISTS.removeContact': 'campaign',
	'LISTS.get': 'generalGet',
	'LISTS.getMany': 'generalGet',
	'LISTS.getContacts': 'generalGet',
	'CONTACT_UPLOADS.upload': 'campaign',
	'CONTACT_UPLOADS.getStatus': 'generalGet',
	'USERS.get': 'generalGet',
	'USERS.getMany': 'generalGet',
	'USER_DEVICES.update': 'userManagement',
	'USER_DEVICES.getStatus': 'generalGet',
	'CONTACT_CENTER_USERS.create': 'userManagement',
	'CONTACT_CENTER_USERS.update': 'userManagement',
	'CONTACT_CENTER_USERS.delete': 'userManagement',
	'CAMPAIGN_CONFIGURATION.getMany': 'generalGet',
};

/** A path as the service receives it: every placeholder given a value. */
const filled = (path: string) => pathOf({ base: 'base', method: 'GET', path, rate: 'generalGet' }, 'exotel_account', new Proxy({}, { get: (_t, name) => `${String(name)}-1` }));

describe('the rate-limit category of every request the nodes make', () => {
	test.each(PACKAGE_ENDPOINTS.map(({ name, endpoint }) => [name, endpoint] as const))('%s is declared in the category the service counts it in', (name, endpoint) => {
		expect({ [name]: endpoint.rate }).toEqual({ [name]: PAGE[name] });
	});

	test('every row of the page is a request some node declares', () => {
		expect(Object.keys(PAGE).sort()).toEqual(PACKAGE_ENDPOINTS.map(({ name }) => name).sort());
	});

	// No check that the sandbox counts a request in its declared category: the sandbox counts by these same
	// declarations, so that could not fail once the request matches its declaration alone. PAGE, the service's page
	// written by hand, is the only oracle of the category.
	test.each(PACKAGE_ENDPOINTS.map(({ name, endpoint }) => [name, endpoint] as const))('%s: its request as received matches its declaration alone', (name, endpoint) => {
		expect(declaredEndpointsOf(endpoint.base, endpoint.method, filled(endpoint.path)).map((declared) => declared.name)).toEqual([name]);
	});

	test('a request no node declares: any other read is General GET, any other write not counted (the contact-center login)', () => {
		expect(serviceCategoryOf('base', 'GET', '/v1/Accounts/exotel_account/Sms/Messages/sms-1.json')).toBe('generalGet');
		expect(serviceCategoryOf('cc', 'POST', '/login')).toBeUndefined();
	});

	test('every category of the page is paced somewhere, with its documented default', () => {
		expect(new Set(PACKAGE_ENDPOINTS.map(({ endpoint }) => endpoint.rate))).toEqual(new Set(Object.keys(RATE_CATEGORIES)));
		expect(Object.fromEntries(Object.entries(RATE_CATEGORIES).map(([category, { perMinute }]) => [category, perMinute]))).toEqual({
			bulkSms: 50,
			sms: 200,
			voice: 200,
			chatApp: 200,
			exoPhone: 50,
			campaign: 30,
			userManagement: 50,
			generalGet: 300,
		});
	});
});

describe('Custom Rate Limits in the credentials', () => {
	const credentials = [new ExotelApi(), new ExotelBearerTokenApi(), new ExotelContactCenterApi(), new ExotelAllocationApi()];

	test.each(credentials.map((credential) => [credential.name, credential] as const))('%s: one optional text, last, no display condition, listing its categories with their defaults', (_name, credential) => {
		const field = credential.properties[credential.properties.length - 1];
		expect(field).toMatchObject({ displayName: 'Custom Rate Limits', name: 'rateLimits', type: 'string', default: '' });
		// n8n's public API makes a field shown by a switch required when the switch is missing from a payload
		expect(field.displayOptions).toBeUndefined();
		expect(field.required).toBeUndefined();
		expect(field.description).toMatch(/^Only for accounts whose limits differ from the service's defaults .*Defaults: .+\.$/);
	});

	test('the SMS credential lists SMS, Bulk SMS, Voice, Chat App, Campaign and General GET, alphabetized', () => {
		const field = new ExotelApi().properties.find((property) => property.name === 'rateLimits');
		expect(field?.description).toContain('Defaults: Bulk SMS 50, Campaign 30, Chat App 200, General GET 300, SMS 200, Voice 200.');
	});

	test('the defaults unless the credential sets its own, written as a user would', () => {
		expect(rateOf({}, 'bulkSms')).toBe(50);
		expect(rateOf({ rateLimits: '' }, 'campaign')).toBe(30);
		expect(rateOf({ rateLimits: 'Bulk SMS=10' }, 'bulkSms')).toBe(10);
		expect(rateOf({ rateLimits: 'Bulk SMS=10' }, 'sms')).toBe(200);
		expect(rateOf({ rateLimits: ' bulkSms = 10 ;  general_get: 600\nCampaign=5 ' }, 'generalGet')).toBe(600);
		expect(rateOf({ rateLimits: 'bulk-sms=10, USER MANAGEMENT=7' }, 'userManagement')).toBe(7);
	});

	test('a window in seconds for an account that counts in other windows', () => {
		expect(rateOf({ rateLimits: 'Voice=20/10s' }, 'voice')).toEqual({ limit: 20, windowMs: 10_000 });
		expect(rateOf({ rateLimits: 'Bulk SMS = 50 / 5 S, Campaign=30' }, 'bulkSms')).toEqual({ limit: 50, windowMs: 5_000 });
		expect(rateOf({ rateLimits: 'Voice=20/10s' }, 'sms')).toBe(200);
	});

	test.each([
		['Bulk SMS=0', 'Bulk SMS must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "0")'],
		['Campaign=2.5', 'Campaign must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "2.5")'],
		['Voice=fast', 'Voice must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "fast")'],
		['SMS=', 'SMS must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "")'],
		['ExoPhone=1000001', 'ExoPhone must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "1000001")'],
		['Voice=20/0s', 'Voice must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "20/0s")'],
		['Voice=20/10', 'Voice must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "20/10")'],
		['Voice=20/3601s', 'Voice must be a whole number of requests a minute from 1 to 100,000, or per window of 1 to 3,600 seconds as in 20/10s (got "20/3601s")'],
		['Bulk=20', '"Bulk=20" is not a category and a number'],
		['Campaign 20', '"Campaign 20" is not a category and a number'],
		['constructor=5', '"constructor=5" is not a category and a number'],
	])('%p is refused, naming the entry and the range', (text, message) => {
		expect(rateOf({ rateLimits: `Voice=100, ${text}` }, 'voice')).toEqual(expect.stringContaining(`Custom Rate Limits in the credential: ${message}`));
	});
});
