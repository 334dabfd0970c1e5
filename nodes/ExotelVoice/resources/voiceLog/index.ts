import { defineResource } from '../../../shared/resource';
import * as get from './get';

export const voiceLog = defineResource({ name: 'Voice Log', value: 'voiceLog' }, [get]);
