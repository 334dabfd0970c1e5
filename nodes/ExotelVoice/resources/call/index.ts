import { defineResource } from '../../../shared/resource';
import * as connect from './connect';
import * as get from './get';
import * as getDetails from './getDetails';
import * as getMany from './getMany';

export const call = defineResource({ name: 'Call', value: 'call' }, [connect, get, getDetails, getMany], 'connect');
