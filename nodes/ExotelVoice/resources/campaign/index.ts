import { defineResource } from '../../../shared/descriptions/resource';
import * as archive from './archive';
import * as complete from './complete';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getCallDetails from './getCallDetails';
import * as getMany from './getMany';
import * as pause from './pause';
import * as resume from './resume';
import * as update from './update';

export const campaign = defineResource(
	{ name: 'Campaign', value: 'campaign' },
	[archive, complete, create, del, get, getCallDetails, getMany, pause, resume, update],
	'create',
);
