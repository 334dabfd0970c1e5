import { defineResource } from '../../../shared/descriptions/resource';
import * as get from './get';
import * as getMany from './getMany';

export const user = defineResource({ name: 'User', value: 'user' }, [get, getMany], 'getMany');
