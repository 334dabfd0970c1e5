import { defineResource } from '../../../shared/descriptions/resource';
import * as getStatus from './getStatus';
import * as update from './update';

export const userDevice = defineResource({ name: 'User Device', value: 'userDevice' }, [getStatus, update], 'getStatus');
