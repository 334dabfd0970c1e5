import { defineResource } from '../../../shared/descriptions/resource';
import * as download from './download';

export const voiceLog = defineResource({ name: 'Voice Log', value: 'voiceLog' }, [download]);
