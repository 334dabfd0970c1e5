import { defineResource } from '../../../shared/resource';
import * as sendAndWait from './sendAndWait';
import * as sendTemplate from './sendTemplate';

export const rcs = defineResource({ name: 'RCS Message', value: 'rcs' }, [sendTemplate, sendAndWait]);
