import { defineResource } from '../../../shared/resource';
import * as getMany from './getMany';

export const campaign = defineResource({ name: 'Campaign', value: 'campaign' }, [getMany]);
