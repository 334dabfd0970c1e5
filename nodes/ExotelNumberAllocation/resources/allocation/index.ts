import { defineResource } from '../../../shared/descriptions/resource';
import * as allocate from './allocate';
import * as deallocate from './deallocate';
import * as get from './get';

export const allocation = defineResource({ name: 'Allocation', value: 'allocation' }, [allocate, deallocate, get]);
