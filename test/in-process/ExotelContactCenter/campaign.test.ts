import { cmsBaseUrlFrom } from '../../../nodes/shared/transport/hosts';
import { describeBadInput, refused, type RefusedCase } from '../../helpers/bad-input';
import { contactCenterRunner, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import { describeNoSecrets, WRONG_CREDENTIALS, type SecretCase } from '../../helpers/secrets';

const sandbox = useSandbox();
const run = contactCenterRunner(sandbox);

describe('Exotel Contact Center → Campaign → Get Many (configuration lookup)', () => {
	it('GETs the hierarchy campaigns with a bearer token and contactCenterId', async () => {
		const result = await run({ resource: 'campaign', operation: 'getMany', contactCenterId: 1 });
		expect(result.error).toBeUndefined();
		const [request] = sandbox.requests();
		expect(request).toMatchObject({ base: 'cms', method: 'GET', path: '/configuration/hierarchyconfig/campaign', query: { contactCenterId: '1' } });
		expect(request.headers.authorization).toBe(`Bearer ${SANDBOX_ACCOUNT.bearerToken}`);
		const out = result.output('Exotel');
		expect(out.length).toBe(2);
		expect(out[0].json).toEqual(expect.objectContaining({ campaignContextId: expect.any(Number), contactCenterId: 1 }));
	});

	it('surfaces CONF-1001 for an unknown contact center', async () => {
		const result = await run({ resource: 'campaign', operation: 'getMany', contactCenterId: 99 });
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/\(code CONF-1001\)$/);
	});

	it('derives the configuration server from the contact-center domain', () => {
		expect(cmsBaseUrlFrom('https://gateway.mumbai.acme.com:8443')).toBe('https://cms.mumbai.acme.com');
		expect(cmsBaseUrlFrom('http://tenant42.sg.example.net/')).toBe('http://cms.sg.example.net');
		expect(() => cmsBaseUrlFrom('http://127.0.0.1:4010')).toThrow(/no leading label|leading label/);
	});
});

// ---- Bad input: refused before sending; with On Error: Continue, only the bad item is marked ----

const REFUSED: RefusedCase[] = [
	refused('contact-center campaigns fractional contact center ID', 'exotelContactCenter', { resource: 'campaign', operation: 'getMany', contactCenterId: 1.5 }, 'Contact Center ID must be a whole number (got 1.5)'),
];

describeBadInput(REFUSED);

// ---- No secret in output, errors or logs ----

const SECRET_CASES: SecretCase[] = [
	{ name: 'CC campaign get many (cms): success', node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 1 }, outcome: 'ok' },
	{ name: 'CC campaign get many (cms): wrong bearer token (401)', node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 1 }, credentials: WRONG_CREDENTIALS, outcome: 'error', httpCode: '401' },
	{ name: 'CC campaign get many (cms): CONF-1001 (404)', node: 'exotelContactCenter', parameters: { resource: 'campaign', operation: 'getMany', contactCenterId: 99 }, outcome: 'error', httpCode: '404' },
];

describeNoSecrets(SECRET_CASES);
