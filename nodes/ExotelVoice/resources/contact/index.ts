import { defineResource } from '../../../shared/descriptions/resource';
import { authenticationField } from './fields';
import * as getUploadStatus from './getUploadStatus';
import * as upload from './upload';

export const contact = defineResource({ name: 'Contact', value: 'contact' }, [getUploadStatus, upload], 'upload', [
	authenticationField,
]);
