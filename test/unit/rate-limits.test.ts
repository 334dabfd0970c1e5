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
import { perMinuteOf, RATE_CATEGORIES, rateCategoryOf, type RateCategory } from '../../nodes/shared/transport/rateLimits';
import type { ExotelBase } from '../../nodes/shared/transport/request';
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
	// the live service's path for the same settings
	['base', 'PUT', '/v2/accounts/{accountSid}/whatsapp/webhook', 'chatApp'],
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
		expect(perMinuteOf({}, 'bulkSms')).toBe(50);
		expect(perMinuteOf({ rateLimits: '' }, 'campaign')).toBe(30);
		expect(perMinuteOf({ rateLimits: 'Bulk SMS=10' }, 'bulkSms')).toBe(10);
		expect(perMinuteOf({ rateLimits: 'Bulk SMS=10' }, 'sms')).toBe(200);
		expect(perMinuteOf({ rateLimits: ' bulkSms = 10 ;  general_get: 600\nCampaign=5 ' }, 'generalGet')).toBe(600);
		expect(perMinuteOf({ rateLimits: 'bulk-sms=10, USER MANAGEMENT=7' }, 'userManagement')).toBe(7);
		expect(perMinuteOf({ rateLimits: 'SMS=500' }, undefined)).toBe(200);
	});

	test.each([
		['Bulk SMS=0', 'Bulk SMS must be a whole number of requests a minute from 1 to 100,000 (got "0")'],
		['Campaign=2.5', 'Campaign must be a whole number of requests a minute from 1 to 100,000 (got "2.5")'],
		['Voice=fast', 'Voice must be a whole number of requests a minute from 1 to 100,000 (got "fast")'],
		['SMS=', 'SMS must be a whole number of requests a minute from 1 to 100,000 (got "")'],
		['ExoPhone=1000001', 'ExoPhone must be a whole number of requests a minute from 1 to 100,000 (got "1000001")'],
		['Bulk=20', '"Bulk=20" is not a category and a number'],
		['Campaign 20', '"Campaign 20" is not a category and a number'],
		['constructor=5', '"constructor=5" is not a category and a number'],
	])('%p is refused, naming the entry and the range', (text, message) => {
		expect(perMinuteOf({ rateLimits: `Voice=100, ${text}` }, 'voice')).toEqual(expect.stringContaining(`Custom Rate Limits in the credential: ${message}`));
	});
});
