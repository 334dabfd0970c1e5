// Mirrors the flat config of n8n's community-package scanner (@n8n/scan-community-package):
// @n8n/eslint-plugin-community-nodes (recommended), no-console, and eslint-plugin-n8n-nodes-base's
// community / credentials / nodes rule sets with the scanner's own off-overrides. Inline
// disable comments are ignored, as the scanner ignores them.
//
// Two sets of plugin versions: the newest (the default config) and the exact ones the newest
// scanner pins (eslint.scanner.config.mjs: eslint-plugin-n8n-nodes-base 1.16.7,
// @n8n/eslint-plugin-community-nodes 0.29.0); `npm run lint` runs both.
import tsParser from '@typescript-eslint/parser';
import n8nNodesPluginNewest from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin as communityPluginNewest } from '@n8n/eslint-plugin-community-nodes';

export const scannerRules = (n8nNodesPlugin, n8nCommunityNodesPlugin) => [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'scripts/**', 'coverage/**'] },
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
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
];

export default scannerRules(n8nNodesPluginNewest, communityPluginNewest);
