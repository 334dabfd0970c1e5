/**
 * Every route the sandbox serves, by handler group. A new group adds its file and one line here.
 */
import type { RouteDefinition } from '../types';
import { allocationRoutes } from './allocation';
import { callConnectRoutes } from './callConnect';
import { callDetailsRoutes } from './callDetails';
import { callQueryRoutes } from './callQuery';
import { campaignRoutes } from './campaigns';
import { configurationRoutes } from './configuration';
import { contactCenterRoutes } from './contactCenter';
import { contactRoutes } from './contacts';
import { integrationsRoutes } from './integrations';
import { listRoutes } from './lists';
import { messagesRoutes } from './messages';
import { smsRoutes } from './sms';
import { userRoutes } from './users';
import { voiceLogRoutes } from './voiceLogs';

export const allRoutes: readonly RouteDefinition[] = [
	...smsRoutes,
	...messagesRoutes,
	// the voice routes, in the order they were written: connect, the v1 queries, ccm details, voice logs
	...callConnectRoutes,
	...callQueryRoutes,
	...callDetailsRoutes,
	...voiceLogRoutes,
	...userRoutes,
	...contactRoutes,
	...campaignRoutes,
	...listRoutes,
	...integrationsRoutes,
	...configurationRoutes,
	...contactCenterRoutes,
	...allocationRoutes,
];
