/**
 * The `cms.` host rule is written once (nodes/shared/transport/hosts.ts) and used twice: by the nodes as
 * `cmsBaseUrlFrom`, and by the Exotel Bearer Token API credential's test request as an n8n
 * expression. Both must give the same configuration server for the same contact-center URL.
 */
import type { ICredentialDataDecryptedObject, INode, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ExotelBearerTokenApi } from '../../credentials/ExotelBearerTokenApi.credentials';
import { CMS_BASE_URL_EXPRESSION, CMS_HOST_PATTERN, cmsBaseUrlFrom } from '../../nodes/shared/transport/hosts';
import { baseUrlOf } from '../../nodes/shared/transport/address';

const probeType: INodeType = {
	description: {
		displayName: 'Probe',
		name: 'probe',
		group: ['transform'],
		version: 1,
		description: 'Evaluates expressions',
		defaults: { name: 'Probe' },
		inputs: [],
		outputs: [],
		properties: [],
	},
};
const nodeTypes: INodeTypes = {
	getByName: () => probeType,
	getByNameAndVersion: () => probeType,
	getKnownTypes: () => ({}),
};
const node: INode = { id: '1', name: 'Probe', type: 'probe', typeVersion: 1, position: [0, 0], parameters: {} };

/** The credential test's base URL as n8n resolves it: the expression engine with `$credentials`. */
function credentialTestBaseUrl(credentials: ICredentialDataDecryptedObject): unknown {
	const expression = new ExotelBearerTokenApi().test.request.baseURL as string;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, expression, 'internal', { $credentials: credentials }, undefined, '');
}

const DERIVED: Array<[string, string]> = [
	['https://gateway.mumbai.acme.com:8443', 'https://cms.mumbai.acme.com'],
	['https://gateway.mumbai.acme.com:8443/', 'https://cms.mumbai.acme.com'],
	['http://tenant42.sg.example.net/', 'http://cms.sg.example.net'],
	['https://gateway.mumbai.example-cc.com:8443/servicerestapi', 'https://cms.mumbai.example-cc.com'],
	['https://cc.in.exotel.com', 'https://cms.in.exotel.com'],
	['http://tenant-7.eu.deep.example.org:80', 'http://cms.eu.deep.example.org'],
];

describe('the cms. host rule', () => {
	it('is one pattern: the credential test builds its expression from it', () => {
		expect(new ExotelBearerTokenApi().test.request.baseURL).toBe(CMS_BASE_URL_EXPRESSION);
		expect(CMS_BASE_URL_EXPRESSION).toContain(`/${CMS_HOST_PATTERN.source}/`);
		expect(CMS_BASE_URL_EXPRESSION.startsWith('={{')).toBe(true);
	});

	it.each(DERIVED)('%s → %s, in the nodes and in the credential test alike', (ccBaseUrl, cms) => {
		expect(cmsBaseUrlFrom(ccBaseUrl)).toBe(cms);
		expect(baseUrlOf('cms', { ccBaseUrl })).toBe(cms);
		expect(credentialTestBaseUrl({ ccBaseUrl, cmsBaseUrl: '' })).toBe(cms);
	});

	it('takes the configuration server as given when the credential has one, in both places', () => {
		const credentials = { ccBaseUrl: 'https://gateway.mumbai.acme.com:8443', cmsBaseUrl: 'https://config.acme.com//' };
		expect(credentialTestBaseUrl(credentials)).toBe('https://config.acme.com');
		expect(baseUrlOf('cms', credentials)).toBe('https://config.acme.com');
	});

	it('refuses in the nodes a host without a leading label to replace', () => {
		for (const ccBaseUrl of ['http://127.0.0.1:4010', 'http://localhost:4010', 'https://acme.com', 'http://[::1]:8443']) {
			expect(() => cmsBaseUrlFrom(ccBaseUrl)).toThrow(/no leading label/);
		}
		expect(() => cmsBaseUrlFrom('ftp://gateway.mumbai.acme.com')).toThrow(/not http or https/);
	});
});
