/**
 * Which of the service's rate-limit categories each request of the nodes counts against, and the
 * credential's Custom Rate Limits. The sandbox models the service's side of the same table, so
 * both are read for every path the nodes build: a request the package paces as one category while
 * the service counts it as another would meet 429s the pace cannot foresee.
 */
import { ExotelAllocationApi } from '../../credentials/ExotelAllocationApi.credentials';
import { ExotelApi } from '../../credentials/ExotelApi.credentials';
import { ExotelBearerTokenApi } from '../../credentials/ExotelBearerTokenApi.credentials';
import { ExotelContactCenterApi } from '../../credentials/ExotelContactCenterApi.credentials';
import { perMinuteOf, RATE_CATEGORIES, rateCategoryOf, type RateCategory } from '../../nodes/shared/rateLimits';
import type { ExotelBase } from '../../nodes/shared/transport';
import { categoryOf as serviceCategoryOf } from '../../sandbox/rate-limit';

const SID = 'exotel_account';

/** Every request path the nodes build (as in nodes/**), and the category the service's page puts it in. */
const REQUESTS: Array<[ExotelBase, string, string, RateCategory | undefined]> = [
	['base', 'POST', '/v1/Accounts/{accountSid}/Sms/bulksend', 'bulkSms'],
	['base', 'POST', '/v1/Accounts/{accountSid}/Sms/send', 'sms'],
	['base', 'POST', '/v1/Accounts/{accountSid}/Calls/connect', 'voice'],
	['base', 'GET', '/v1/Accounts/{accountSid}/Calls/CA123.json', 'voice'],
	['base', 'GET', '/v1/Accounts/{accountSid}/Calls.json', 'voice'],
	['ccm', 'GET', '/v2/accounts/{accountSid}/calls/CA123', 'voice'],
	['base', 'GET', '/v3/accounts/{accountSid}/calls/CA123/voice-logs', 'voice'],
	['cc', 'GET', '/servicerestapi/cc/downloadVoiceLog', 'voice'],
	['base', 'POST', '/v2/accounts/{accountSid}/messages', 'chatApp'],
	['base', 'PUT', '/v2/accounts/{accountSid}/chatapp/webhook', 'chatApp'],
	['alloc', 'POST', '/v1/tenants/{accountSid}/greenvn', 'exoPhone'],
	['alloc', 'DELETE', '/v1/tenants/{accountSid}/greenvn/alloc-1', 'exoPhone'],
	['alloc', 'GET', '/v1/tenants/{accountSid}/greenvn/alloc-1', 'generalGet'],
	['base', 'POST', '/v2/accounts/{accountSid}/campaigns', 'campaign'],
	['base', 'PUT', '/v2/accounts/{accountSid}/campaigns/cmp-1', 'campaign'],
	['base', 'GET', '/v2/accounts/{accountSid}/campaigns', 'generalGet'],
	['base', 'GET', '/v2/accounts/{accountSid}/campaigns/cmp-1/call-details', 'generalGet'],
	['base', 'POST', '/v2/accounts/{accountSid}/lists', 'campaign'],
	['base', 'PUT', '/v2/accounts/{accountSid}/lists/list-1', 'campaign'],
	['base', 'DELETE', '/v2/accounts/{accountSid}/lists/list-1/contacts/c-1', 'campaign'],
	['base', 'GET', '/v2/accounts/{accountSid}/lists/list-1/contacts', 'generalGet'],
	['ccm', 'POST', '/v2/accounts/{accountSid}/contacts/upload', 'campaign'],
	['ccm', 'GET', '/v2/accounts/{accountSid}/contacts/upload/up-1', 'generalGet'],
	['ccm', 'GET', '/v2/accounts/{accountSid}/users', 'generalGet'],
	['integrations', 'PUT', '/v2/integrations/cust/apps/app/users/u-1/devices', 'userManagement'],
	['integrations', 'GET', '/v2/integrations/cust/apps/app/users/u-1/devices', 'generalGet'],
	['cc', 'POST', '/servicerestapi/cc/contactCenterUsers', 'userManagement'],
	['cc', 'PUT', '/servicerestapi/cc/contactCenterUsers/u-1', 'userManagement'],
	['cc', 'DELETE', '/servicerestapi/user/users/u-1', 'userManagement'],
	['cms', 'GET', '/configuration/hierarchyconfig/campaign', 'generalGet'],
];

describe('the rate-limit category of every request the nodes make', () => {
	test.each(REQUESTS)('%s %s %s → %s, as the service counts it', (base, method, path, category) => {
		expect(rateCategoryOf({ base, method, path })).toBe(category);
		expect(serviceCategoryOf(base, method, path.replace('{accountSid}', SID))).toBe(category);
	});

	test('every category of the page is paced somewhere, with its documented default', () => {
		expect(new Set(REQUESTS.map(([, , , category]) => category))).toEqual(new Set(Object.keys(RATE_CATEGORIES)));
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

	test.each(credentials.map((credential) => [credential.name, credential] as const))('%s: a switch, then a number per category its requests fall in, shown only when on', (_name, credential) => {
		const names = credential.properties.map((property) => property.name);
		const at = names.indexOf('customRateLimits');
		expect(at).toBeGreaterThan(0);
		const fields = credential.properties.slice(at + 1);
		expect(fields.length).toBeGreaterThan(0);
		for (const field of fields) {
			expect(field).toMatchObject({ type: 'number', typeOptions: { minValue: 1, numberPrecision: 0 }, displayOptions: { show: { customRateLimits: [true] } } });
			expect(field.displayName).toMatch(/ \(Requests per Minute\)$/);
		}
		// alphabetized, as n8n lists options
		expect(fields.map((field) => field.displayName)).toEqual([...fields.map((field) => field.displayName)].sort());
	});

	test('the SMS credential covers SMS, Bulk SMS, Voice, Chat App, Campaign and General GET', () => {
		const names = new ExotelApi().properties.map((property) => property.name);
		expect(names).toEqual(expect.arrayContaining(['rateLimitBulkSms', 'rateLimitSms', 'rateLimitVoice', 'rateLimitChatApp', 'rateLimitCampaign', 'rateLimitGeneralGet']));
	});

	test('the defaults unless Custom Rate Limits is on; then the credential’s own', () => {
		expect(perMinuteOf({ rateLimitBulkSms: 10 }, 'bulkSms')).toBe(50);
		expect(perMinuteOf({ customRateLimits: true, rateLimitBulkSms: 10 }, 'bulkSms')).toBe(10);
		expect(perMinuteOf({ customRateLimits: true }, 'campaign')).toBe(30);
		expect(perMinuteOf({ customRateLimits: true, rateLimitSms: 500 }, 'bulkSms')).toBe(50);
	});

	test.each([0, -5, 2.5, 'fast', 1_000_001])('a value of %p is refused, naming the field and the range', (value) => {
		expect(perMinuteOf({ customRateLimits: true, rateLimitCampaign: value }, 'campaign')).toBe(
			`Campaign (Requests per Minute) in the credential must be a whole number from 1 to 100,000 (got ${JSON.stringify(value)})`,
		);
	});
});
