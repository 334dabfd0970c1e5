// Check Against DLT Template: each message matched against its template, nothing sent, so a list can
// be tested before a campaign.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/fields';
import type { OperationOption } from '../../../shared/descriptions/resource';
import { parameterReader } from '../../../shared/items/parameters';
import { requestPerItem } from '../../../shared/items/requestPerItem';
import { LIMITS } from '../../../shared/rules/limits';
import { characterCount, fieldsError } from '../../../shared/rules/validation';
import { dltProblem, dltTemplates, dltTemplateTextField, matchTemplate } from '../../dlt';
import { bodyField } from './fields';

export const option: OperationOption = {
	name: 'Check Against DLT Template',
	value: 'checkDltTemplate',
	action: 'Check an SMS against its DLT template',
	description: 'Check each message against its DLT template without sending anything: whether it matches, its variables, the first difference',
};

/** It sends no request: no Max Wait among its Options. */
export const paced = false;

export const description: INodeProperties[] = [
	bodyField('The message text as it would be sent'),
	dltTemplateTextField({
		required: true,
		description: 'The content template as registered on the DLT platform, with {#var#} for each variable (at most 30 characters each)',
	}),
	optionsCollection([
		{
			displayName: 'Shorten URL',
			name: 'shortenUrl',
			type: 'boolean',
			default: false,
			description: 'Whether the messages will go out with Shorten URL: a link in a variable then counts as the short link the service makes',
		},
	]),
];

/** One item out per item in: `matches`, the variables' values, and the first difference (null when it matches). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const param = parameterReader(this);
	const templates = dltTemplates();
	return await requestPerItem(
		this,
		items,
		(itemIndex) => {
			const body = String(param('body', itemIndex, ''));
			const text = String(param('dltTemplateText', itemIndex, ''));
			const shortened = (param('options', itemIndex, {}) as IDataObject).shortenUrl === true;
			const invalid = fieldsError(node, itemIndex, [
				[body, { label: 'Body', required: true, maxLength: LIMITS.sms.bodyLength }],
				[text.trim(), { label: 'DLT Template Text', required: true }],
			]);
			return invalid ?? { itemIndex, body, text, shortened };
		},
		async ({ body, text, shortened }) => {
			const template = templates(text);
			const match = matchTemplate(template, body, shortened);
			if (match.matches) return { matches: true, variables: match.variables, difference: null };
			const { difference } = match;
			return {
				matches: false,
				variables: match.variables,
				difference: {
					message: dltProblem(match, template, body, 'Body'),
					character: difference.kind === 'text' ? characterCount(body.slice(0, difference.bodyIndex)) + 1 : null,
					variable: difference.kind === 'variableLength' ? difference.variable : null,
					length: difference.kind === 'variableLength' ? difference.length : null,
				},
			};
		},
	);
}
