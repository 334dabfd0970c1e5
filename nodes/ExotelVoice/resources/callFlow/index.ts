import { defineResource } from '../../../shared/descriptions/resource';
import * as answer from './answer';

export const callFlow = defineResource({ name: 'Call Flow', value: 'callFlow' }, [answer]);
