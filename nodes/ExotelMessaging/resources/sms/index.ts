import { defineResource } from '../../../shared/descriptions/resource';
import * as checkDltTemplate from './checkDltTemplate';
import * as send from './send';
import * as sendAndWait from './sendAndWait';
import * as sendAndWaitForDelivery from './sendAndWaitForDelivery';
import * as sendToMany from './sendToMany';

export const sms = defineResource({ name: 'SMS', value: 'sms' }, [send, sendAndWait, sendAndWaitForDelivery, sendToMany, checkDltTemplate], 'send');
