import { defineResource } from '../../../shared/descriptions/resource';
import * as get from './get';

export const voiceLog = defineResource({ name: 'Voice Log', value: 'voiceLog' }, [get]);
