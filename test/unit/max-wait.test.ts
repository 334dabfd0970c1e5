/**
 * Max Wait's place in the panel, by node version. Version 2 (the default of new nodes) lists it
 * among each operation's Options, with the other settings; version 1, which every workflow saved
 * before holds, keeps its own Rate Limit collection and its saved `rateLimit.maxWaitMinutes`.
 * Visibility is decided by n8n's own NodeHelpers, as the editor and n8n-core decide it.
 */
import type { IDataObject, IExecuteFunctions, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ExotelContactCenter } from '../../nodes/ExotelContactCenter/ExotelContactCenter.node';
import { campaign as ccCampaign } from '../../nodes/ExotelContactCenter/resources/campaign';
import { user as ccUser } from '../../nodes/ExotelContactCenter/resources/user';
import { voiceLog as ccVoiceLog } from '../../nodes/ExotelContactCenter/resources/voiceLog';
import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { chatApp } from '../../nodes/ExotelMessaging/resources/chatApp';
import { rcs } from '../../nodes/ExotelMessaging/resources/rcs';
import { sms } from '../../nodes/ExotelMessaging/resources/sms';
import { ExotelNumberAllocation } from '../../nodes/ExotelNumberAllocation/ExotelNumberAllocation.node';
import { allocation } from '../../nodes/ExotelNumberAllocation/resources/allocation';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';
import { call } from '../../nodes/ExotelVoice/resources/call';
import { callFlow } from '../../nodes/ExotelVoice/resources/callFlow';
import { campaign } from '../../nodes/ExotelVoice/resources/campaign';
import { contact } from '../../nodes/ExotelVoice/resources/contact';
import { list } from '../../nodes/ExotelVoice/resources/list';
import { user } from '../../nodes/ExotelVoice/resources/user';
import { userDevice } from '../../nodes/ExotelVoice/resources/userDevice';
import { voiceLog } from '../../nodes/ExotelVoice/resources/voiceLog';
import { MAX_WAIT_OPTION, RATE_LIMIT_OPTIONS } from '../../nodes/shared/descriptions/fields';
import type { ExotelResource } from '../../nodes/shared/descriptions/resource';
import { requestOptions } from '../../nodes/shared/items/parameters';
import { maxWaitOf } from '../../nodes/shared/items/route';
import { PACING_POLICY } from '../../nodes/shared/transport/pacing';

const NODES: Array<[INodeType, ExotelResource[]]> = [
	[new ExotelMessaging(), [chatApp, rcs, sms]],
	[new ExotelVoice(), [call, callFlow, campaign, contact, list, user, userDevice, voiceLog]],
	[new ExotelContactCenter(), [ccCampaign, ccUser, ccVoiceLog]],
	[new ExotelNumberAllocation(), [allocation]],
];

const V1 = { typeVersion: 1 };
const V2 = { typeVersion: 2 };

/** Every resource and operation of a node, with the routed operation (its `maxWaitIn`). */
function operationsOf(resources: ExotelResource[]) {
	return resources.flatMap((resource) =>
		Object.entries(resource.operations).map(([operation, routed]) => ({ resource: resource.option.value, operation, routed })),
	);
}

/** The top-level parameters the panel shows for this resource and operation at this version. */
function shown(type: INodeType, values: INodeParameters, version: { typeVersion: number }): INodeProperties[] {
	return type.description.properties.filter((property) => NodeHelpers.displayParameter(values, property, version, type.description));
}

/** The collections shown whose Max Wait entry is offered at this version. */
function holdingMaxWait(properties: INodeProperties[], type: INodeType, version: { typeVersion: number }): INodeProperties[] {
	return properties.filter(
		(property) =>
			property.type === 'collection' &&
			((property.options ?? []) as INodeProperties[]).some(
				(option) => option.name === 'maxWaitMinutes' && NodeHelpers.displayParameter({}, option, version, type.description),
			),
	);
}

describe.each(NODES.map(([type, resources]) => [type.description.displayName, type, resources] as const))('%s', (_name, type, resources) => {
	const operations = operationsOf(resources);

	it('is at version 2 for new nodes and still runs version 1', () => {
		expect(type.description.version).toEqual([1, 2]);
		expect(type.description.defaultVersion).toBe(2);
		// the resources walked here are the node's
		const dropdown = type.description.properties.find((property) => property.name === 'resource')!;
		expect((dropdown.options as Array<{ value: string }>).map((option) => option.value).sort()).toEqual(resources.map((resource) => resource.option.value).sort());
		expect(operations.length).toBeGreaterThan(0);
	});

	it.each(operations.map((entry) => [`${entry.resource}: ${entry.operation}`, entry] as const))(
		'%s: version 2 offers Max Wait under Options and no Rate Limit collection; version 1 the reverse',
		(_label, { resource, operation, routed }) => {
			const values = { resource, operation };
			const latest = shown(type, values, V2);
			expect(latest.map((property) => property.name)).not.toContain('rateLimit');
			expect(latest.filter((property) => property.type === 'collection' && property.displayName === 'Rate Limit')).toEqual([]);
			if (routed.maxWaitIn === '') {
				// an operation that sends no request (SMS → Check Against DLT Template) offers no Max Wait
				expect(holdingMaxWait(latest, type, V2)).toEqual([]);
				return;
			}
			// exactly one Options collection, and Max Wait is in it
			const options = latest.filter((property) => property.type === 'collection' && property.displayName === 'Options');
			expect(options).toHaveLength(1);
			expect(holdingMaxWait(latest, type, V2)).toEqual(options);
			expect(options[0]).toMatchObject({ placeholder: 'Add Option', default: {} });
			// the Options entries stay alphabetical with it
			const names = (options[0].options as INodeProperties[]).map((option) => option.displayName);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			// and the node reads it where the panel saves it
			expect(routed.maxWaitIn).toBe(options[0].name);

			const first = shown(type, values, V1);
			expect(first.filter((property) => property.name === 'rateLimit')).toEqual([RATE_LIMIT_OPTIONS]);
			expect(holdingMaxWait(first, type, V1)).toEqual([RATE_LIMIT_OPTIONS]);
		},
	);
});

describe('the Max Wait entry', () => {
	const [legacy] = RATE_LIMIT_OPTIONS.options as INodeProperties[];

	it('keeps its saved name, default, description and limits in both places', () => {
		for (const field of [legacy, MAX_WAIT_OPTION]) {
			expect(field).toMatchObject({
				name: 'maxWaitMinutes',
				type: 'number',
				default: PACING_POLICY.defaultMaxWaitMs / 60_000,
				typeOptions: { minValue: 0, numberPrecision: 2 },
			});
		}
		expect(MAX_WAIT_OPTION.description).toBe(legacy.description);
		expect(legacy.displayName).toBe('Max Wait (Minutes)');
		// among the other options it says what it waits for
		expect(MAX_WAIT_OPTION.displayName).toBe('Rate Limit Max Wait (Minutes)');
	});

	it('is offered in Options from version 2 only', () => {
		const description = new ExotelMessaging().description;
		expect(NodeHelpers.displayParameter({}, MAX_WAIT_OPTION, V1, description)).toBe(false);
		expect(NodeHelpers.displayParameter({}, MAX_WAIT_OPTION, V2, description)).toBe(true);
		expect(NodeHelpers.displayParameter({}, MAX_WAIT_OPTION, { typeVersion: 3 }, description)).toBe(true);
	});
});

describe('saved workflows keep their Max Wait (n8n-core resolves parameters with NodeHelpers.getNodeParameters)', () => {
	const type = new ExotelMessaging();
	const resolve = (parameters: INodeParameters, version: { typeVersion: number }) =>
		NodeHelpers.getNodeParameters(type.description.properties, parameters, false, false, version, type.description) as IDataObject;
	const chatSend = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '+919876543210' };

	it('version 1 keeps rateLimit.maxWaitMinutes', () => {
		expect(resolve({ ...chatSend, rateLimit: { maxWaitMinutes: 3 } }, V1).rateLimit).toEqual({ maxWaitMinutes: 3 });
	});

	it('version 2 keeps it in the operation’s Options, beside the other options', () => {
		expect(resolve({ ...chatSend, options: { customData: 'ref-1', maxWaitMinutes: 3 } }, V2).options).toEqual({ customData: 'ref-1', maxWaitMinutes: 3 });
		const smsSend = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '+919876543210', body: 'Hi' };
		expect(resolve({ ...smsSend, additionalFields: { maxWaitMinutes: 3 } }, V2).additionalFields).toEqual({ maxWaitMinutes: 3 });
	});

	it('the two places do not mix: each version drops what its panel does not show', () => {
		expect(resolve({ ...chatSend, rateLimit: { maxWaitMinutes: 3 } }, V2).rateLimit).toBeUndefined();
		expect(resolve({ ...chatSend, options: { customData: 'ref-1', maxWaitMinutes: 3 } }, V1).options).toEqual({ customData: 'ref-1' });
	});
});

describe('maxWaitOf', () => {
	const context = (typeVersion: number, parameters: IDataObject) =>
		({
			getNode: () => ({ typeVersion }),
			getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) => parameters[name] ?? fallback,
		}) as unknown as IExecuteFunctions;

	it('version 1 reads Rate Limit and names it so', () => {
		expect(maxWaitOf(context(1, { rateLimit: { maxWaitMinutes: 3 } }), 'options')).toEqual({ ms: 180_000, setting: 'Rate Limit → Max Wait' });
		// an Options value is not version 1's
		expect(maxWaitOf(context(1, { options: { maxWaitMinutes: 3 } }), 'options')).toEqual({ ms: PACING_POLICY.defaultMaxWaitMs, setting: 'Rate Limit → Max Wait' });
	});

	it('version 2 reads the operation’s Options, under its saved name, and names it so', () => {
		expect(maxWaitOf(context(2, { options: { maxWaitMinutes: 0.5 } }), 'options')).toEqual({ ms: 30_000, setting: 'Options → Rate Limit Max Wait' });
		expect(maxWaitOf(context(2, { additionalFields: { maxWaitMinutes: 2 } }), 'additionalFields').ms).toBe(120_000);
		// Rate Limit is not version 2's
		expect(maxWaitOf(context(2, { rateLimit: { maxWaitMinutes: 3 } }), 'options').ms).toBe(PACING_POLICY.defaultMaxWaitMs);
	});

	it('0 gives up at the first refusal; a value that is no duration falls back to the default', () => {
		expect(maxWaitOf(context(2, { options: { maxWaitMinutes: 0 } }), 'options').ms).toBe(0);
		expect(maxWaitOf(context(2, { options: { maxWaitMinutes: -1 } }), 'options').ms).toBe(PACING_POLICY.defaultMaxWaitMs);
		expect(maxWaitOf(context(2, { options: { maxWaitMinutes: 'soon' } }), 'options').ms).toBe(PACING_POLICY.defaultMaxWaitMs);
		expect(maxWaitOf(context(2, {}), 'options').ms).toBe(PACING_POLICY.defaultMaxWaitMs);
	});

	it('requestOptions leaves Max Wait out of what goes to the service', () => {
		expect(requestOptions({ description: 'Support', maxWaitMinutes: 5 })).toEqual({ description: 'Support' });
		expect(requestOptions({})).toEqual({});
	});
});
