import { defineResource } from '../../../shared/descriptions/resource';
import * as sendAndWait from './sendAndWait';
import * as sendTemplate from './sendTemplate';

export const rcs = defineResource({ name: 'RCS Message', value: 'rcs' }, [sendTemplate, sendAndWait]);
