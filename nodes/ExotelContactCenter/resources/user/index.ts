import { defineResource } from '../../../shared/descriptions/resource';
import * as create from './create';
import * as remove from './delete';
import * as update from './update';

export const user = defineResource({ name: 'User', value: 'user' }, [create, update, remove]);
