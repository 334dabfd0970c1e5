import { defineResource } from '../../../shared/descriptions/resource';
import * as send from './send';
import * as sendAndWait from './sendAndWait';
import * as sendAndWaitForDelivery from './sendAndWaitForDelivery';
import * as setWebhooks from './setWebhooks';

export const chatApp = defineResource({ name: 'Chat App Message (WhatsApp)', value: 'chatApp' }, [send, sendAndWait, sendAndWaitForDelivery, setWebhooks]);
