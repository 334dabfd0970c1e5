import { defineResource } from '../../../shared/descriptions/resource';
import * as connect from './connect';
import * as connectAndWait from './connectAndWait';
import * as get from './get';
import * as getDetails from './getDetails';
import * as getMany from './getMany';

export const call = defineResource({ name: 'Call', value: 'call' }, [connect, connectAndWait, get, getDetails, getMany], 'connect');
