import { defineResource } from '../../../shared/resource';
import * as send from './send';
import * as sendToMany from './sendToMany';

export const sms = defineResource({ name: 'SMS', value: 'sms' }, [send, sendToMany]);
