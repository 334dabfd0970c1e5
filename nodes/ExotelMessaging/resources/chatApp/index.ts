import { defineResource } from '../../../shared/resource';
import * as send from './send';
import * as setWebhooks from './setWebhooks';

export const chatApp = defineResource({ name: 'Chat App Message (WhatsApp)', value: 'chatApp' }, [send, setWebhooks]);
