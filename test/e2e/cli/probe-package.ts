/* eslint-disable @n8n/community-nodes/no-restricted-imports -- writes a throwaway package to a temporary folder (fs, path); never shipped */
/**
 * A tiny throwaway community package (one compiled JS node + one credential),
 * written to a temp dir, to prove the harness's install path independently of
 * whether the real package builds. It is shaped like ours: an `n8n` block listing
 * `dist/...` files, `files: ["dist"]`, and `n8n-workflow` only as a peer dependency,
 * which the node `require`s (resolving to n8n's own copy at runtime).
 */
import * as fsp from 'fs/promises';
import * as path from 'path';
import { makeTempDir } from '../../harness';

export const PROBE_PACKAGE = 'n8n-nodes-e2e-probe';
export const PROBE_NODE = 'e2eProbe';
export const PROBE_NODE_TYPE = `${PROBE_PACKAGE}.${PROBE_NODE}`;
export const PROBE_CREDENTIAL = 'e2eProbeApi';

const NODE_JS = `'use strict';
const { NodeConnectionTypes, NodeOperationError } = require('n8n-workflow');

class E2eProbe {
	constructor() {
		this.description = {
			displayName: 'E2E Probe',
			name: '${PROBE_NODE}',
			group: ['transform'],
			version: 1,
			subtitle: '={{$parameter["greeting"]}}',
			description: 'Harness probe node',
			defaults: { name: 'E2E Probe' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: '${PROBE_CREDENTIAL}', required: true }],
			properties: [
				{ displayName: 'Greeting', name: 'greeting', type: 'string', default: 'hello' },
				{ displayName: 'Fail', name: 'fail', type: 'boolean', default: false },
			],
		};
	}

	async execute() {
		const items = this.getInputData();
		const credentials = await this.getCredentials('${PROBE_CREDENTIAL}');
		const out = [];
		for (let i = 0; i < items.length; i++) {
			if (this.getNodeParameter('fail', i)) {
				throw new NodeOperationError(this.getNode(), 'probe asked to fail', { itemIndex: i });
			}
			out.push({
				json: {
					...items[i].json,
					greeting: this.getNodeParameter('greeting', i),
					tokenLength: String(credentials.token).length,
				},
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

module.exports = { E2eProbe };
`;

const CREDENTIAL_JS = `'use strict';
class E2eProbeApi {
	constructor() {
		this.name = '${PROBE_CREDENTIAL}';
		this.displayName = 'E2E Probe API';
		this.properties = [
			{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' },
		];
	}
}
module.exports = { E2eProbeApi };
`;

/**
 * Writes the probe package into a new temp dir and returns that dir (pack it with
 * `packPackage(dir)`, remove it with `removeTempDir(dir)`).
 */
export async function writeProbePackage(): Promise<string> {
	const dir = await makeTempDir('probe-');
	await fsp.mkdir(path.join(dir, 'dist', 'nodes'), { recursive: true });
	await fsp.mkdir(path.join(dir, 'dist', 'credentials'), { recursive: true });
	const pkg = {
		name: PROBE_PACKAGE,
		version: '0.0.1',
		description: 'Throwaway package used by the e2e harness self-test',
		keywords: ['n8n-community-node-package'],
		license: 'MIT',
		files: ['dist'],
		n8n: {
			n8nNodesApiVersion: 1,
			strict: true,
			nodes: ['dist/nodes/E2eProbe.node.js'],
			credentials: ['dist/credentials/E2eProbeApi.credentials.js'],
		},
		peerDependencies: { 'n8n-workflow': '*' },
	};
	await fsp.writeFile(path.join(dir, 'package.json'), JSON.stringify(pkg, null, '\t'));
	await fsp.writeFile(path.join(dir, 'dist', 'nodes', 'E2eProbe.node.js'), NODE_JS);
	await fsp.writeFile(path.join(dir, 'dist', 'credentials', 'E2eProbeApi.credentials.js'), CREDENTIAL_JS);
	return dir;
}
