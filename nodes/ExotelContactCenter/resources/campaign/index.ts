import { defineResource } from '../../../shared/descriptions/resource';
import * as getMany from './getMany';

export const campaign = defineResource({ name: 'Campaign', value: 'campaign' }, [getMany]);
