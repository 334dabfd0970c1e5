/**
 * Max Wait through n8n-core, in both places a workflow holds it: a version 1 node (every workflow
 * saved before version 2) in its Rate Limit collection, a version 2 node among the operation's
 * Options, whatever that collection's saved name (`options`, `additionalFields`, or the Options an
 * operation without other options gets). Each run meets 429s that do not lift: giving up within the
 * test proves the node read the short Max Wait (the default is 15 minutes), and the error names the
 * setting where that version's panel shows it. Max Wait is the node's own setting, never a field of
 * the service's request.
 */
import type { IDataObject } from 'n8n-workflow';

import { formFields, runNode, useSandbox } from '../../helpers/exotel';
import type { RecordedRequest } from '../../../sandbox/types';

const sandbox = useSandbox({ timeScale: 0.001 });

/** 0.6 s. */
const SHORT = 0.01;
const STUCK = { kind: 'status', status: 429 } as const;

const smsSend = { resource: 'sms', operation: 'send', from: 'EXOTEL', to: '+919876543210', body: 'Hello' };
const chatSend = { resource: 'chatApp', operation: 'send', from: '+918047112233', to: '+919876543210', messageType: 'text', text: 'Hi' };
const deallocate = { resource: 'allocation', operation: 'deallocate', greenvnId: 'a'.repeat(24) };
const connect = { resource: 'call', operation: 'connect', from: '+919876543210', callerId: '08047112233', url: 'http://my.exotel.com/exotelsandbox1/exoml/start_voice/24601' };

/** Whether a recorded request carries Max Wait anywhere (form, JSON or raw body). */
const carriesMaxWait = (request: RecordedRequest) => /maxWait/i.test(request.rawBody) || Object.keys(formFields(request.form)).some((key) => /maxWait/i.test(key));

interface GiveUpCase {
	name: string;
	node: 'exotelMessaging' | 'exotelNumberAllocation' | 'exotelVoice';
	version: 1 | 2;
	parameters: IDataObject;
	setting: string;
}

const GIVE_UP: GiveUpCase[] = [
	{ name: 'version 1, SMS send: Rate Limit → Max Wait', node: 'exotelMessaging', version: 1, parameters: { ...smsSend, rateLimit: { maxWaitMinutes: SHORT } }, setting: 'Rate Limit → Max Wait' },
	{ name: 'version 1, chat app send: Rate Limit → Max Wait', node: 'exotelMessaging', version: 1, parameters: { ...chatSend, rateLimit: { maxWaitMinutes: SHORT } }, setting: 'Rate Limit → Max Wait' },
	{
		name: 'version 2, SMS send: its Options (saved as additionalFields)',
		node: 'exotelMessaging',
		version: 2,
		parameters: { ...smsSend, additionalFields: { smsType: 'transactional', maxWaitMinutes: SHORT } },
		setting: 'Options → Rate Limit Max Wait',
	},
	{ name: 'version 2, chat app send: its Options', node: 'exotelMessaging', version: 2, parameters: { ...chatSend, options: { customData: 'ref-1', maxWaitMinutes: SHORT } }, setting: 'Options → Rate Limit Max Wait' },
	{
		name: 'version 2, allocation deallocate: the Options it has only for Max Wait',
		node: 'exotelNumberAllocation',
		version: 2,
		parameters: { ...deallocate, options: { maxWaitMinutes: SHORT } },
		setting: 'Options → Rate Limit Max Wait',
	},
	{
		name: 'version 2, call connect: its Options (saved as additionalFields)',
		node: 'exotelVoice',
		version: 2,
		parameters: { ...connect, additionalFields: { timeLimit: 600, maxWaitMinutes: SHORT } },
		setting: 'Options → Rate Limit Max Wait',
	},
];

describe.each(GIVE_UP.map((c) => [c.name, c] as const))('%s', (_name, c) => {
	it('gives up after the short Max Wait, naming where it is set; Max Wait is not sent', async () => {
		sandbox.injectFaults(STUCK, 50);
		const result = await runNode(sandbox, c.node, c.parameters, [{}], { settings: { typeVersion: c.version } });
		expect(result.error?.message).toMatch(/rate limit did not lift in time/);
		expect(result.error?.httpCode).toBe('429');
		expect(String(result.error?.description)).toContain(`raise ${c.setting}.`);
		const other = c.setting === 'Rate Limit → Max Wait' ? 'Options → Rate Limit Max Wait' : 'Rate Limit → Max Wait';
		expect(String(result.error?.description)).not.toContain(other);
		const refused = sandbox.requests({}).filter((request) => request.status === 429);
		expect(refused.length).toBeGreaterThan(0);
		expect(sandbox.requests({}).filter(carriesMaxWait)).toEqual([]);
		// about a second when Max Wait is read; a node that missed it would wait its 15-minute default
	}, 60_000);
});

describe('version 2 leaves Max Wait out of the requests it builds from Options', () => {
	it('contact-center user create (its Options go into the body whole)', async () => {
		const result = await runNode(
			sandbox,
			'exotelContactCenter',
			{ resource: 'user', operation: 'create', userId: 'asha.rao', userName: 'Asha Rao', userType: 'Agent', contactCenterId: 1, additionalFields: { description: 'Support', maxWaitMinutes: 5 } },
			[{}],
			{ settings: { typeVersion: 2 } },
		);
		expect(result.error).toBeUndefined();
		const [created] = sandbox.requests({ method: 'POST', pathIncludes: 'contactCenterUsers' });
		expect(created.json).toMatchObject({ userId: 'asha.rao', description: 'Support' });
		expect(created.json).not.toHaveProperty('maxWaitMinutes');
		expect(sandbox.requests({}).filter(carriesMaxWait)).toEqual([]);
	});

	it('call connect and SMS send (their Options are picked field by field)', async () => {
		const call = await runNode(sandbox, 'exotelVoice', { ...connect, additionalFields: { timeLimit: 600, maxWaitMinutes: 5 } }, [{}], { settings: { typeVersion: 2 } });
		expect(call.error).toBeUndefined();
		const [placed] = sandbox.requests({ method: 'POST', pathIncludes: '/Calls/connect' });
		expect(formFields(placed.form).TimeLimit).toEqual(['600']);
		const sms = await runNode(sandbox, 'exotelMessaging', { ...smsSend, additionalFields: { smsType: 'transactional', maxWaitMinutes: 5 } }, [{}], { settings: { typeVersion: 2 } });
		expect(sms.error).toBeUndefined();
		expect(sandbox.requests({ method: 'POST' }).length).toBeGreaterThanOrEqual(2);
		expect(sandbox.requests({}).filter(carriesMaxWait)).toEqual([]);
	});
});
