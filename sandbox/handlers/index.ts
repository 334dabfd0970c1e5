/**
 * Every route the sandbox serves, by handler group. A new group adds its file and one line here.
 */
import type { RouteDefinition } from '../types';
import { allocationRoutes } from './allocation';
import { campaignRoutes } from './campaigns';
import { configurationRoutes } from './configuration';
import { contactCenterRoutes } from './contactCenter';
import { contactRoutes } from './contacts';
import { integrationsRoutes } from './integrations';
import { listRoutes } from './lists';
import { messagesRoutes } from './messages';
import { smsRoutes } from './sms';
import { userRoutes } from './users';
import { voiceRoutes } from './voice';

export const allRoutes: readonly RouteDefinition[] = [
	...smsRoutes,
	...messagesRoutes,
	...voiceRoutes,
	...userRoutes,
	...contactRoutes,
	...campaignRoutes,
	...listRoutes,
	...integrationsRoutes,
	...configurationRoutes,
	...contactCenterRoutes,
	...allocationRoutes,
];
