// The flat config of n8n's community-package scanner (@n8n/scan-community-package 0.32.0), at the exact plugin
// versions it pins (eslint-plugin-n8n-nodes-base 1.16.7, @n8n/eslint-plugin-community-nodes 0.29.0): the
// community-nodes recommended set, no-console, and n8n-nodes-base's community / credentials / nodes sets with the
// scanner's own off-overrides. Inline disable comments are ignored, as the scanner ignores them. `npm run lint`
// runs it on what ships, after `n8n-node lint` (eslint.config.mjs, n8n's default, on the whole tree).
import tseslint from 'typescript-eslint';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base-scanner';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes-scanner';

export default [
	{ ignores: ['dist/**', 'node_modules/**'] },
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{ files: ['package.json'], rules: { ...n8nNodesPlugin.configs.community.rules } },
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json', '**/*.ts'], languageOptions: { parser: tseslint.parser } },
];
