// The rule sets at the exact plugin versions @n8n/scan-community-package 0.32.0 pins (see eslint.config.mjs).
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base-scanner';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes-scanner';

import { scannerRules } from './eslint.config.mjs';

export default scannerRules(n8nNodesPlugin, n8nCommunityNodesPlugin);
