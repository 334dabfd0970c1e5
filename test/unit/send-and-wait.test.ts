import type { IDataObject, IExecuteFunctions, INode, INodeProperties, INodeType, INodeTypes } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';
import { itemParameters, parameterReader } from '../../nodes/shared/items/parameters';
import { callbackOf, repliesOf, unsignedFamilyOf } from '../../nodes/shared/output/callbacks';
import { numbersIn, sameNumber } from '../../nodes/shared/rules/values';
import { WAITING_WEBHOOKS, waitingFields } from '../../nodes/shared/sendAndWait/fields';
import { resumeUrls } from '../../nodes/shared/sendAndWait/resumeUrl';
import { choiceOf } from '../../nodes/shared/sendAndWait/webhook';

const CHOICES = [
	{ id: 'approve', title: 'Approve refund' },
	{ id: 'decline', title: 'Decline' },
];

/** The replies a wait reads in a body: the chat app's, then RCS's. */
function repliesIn(body: IDataObject) {
	const callback = callbackOf(body, 'wait');
	return [...repliesOf(callback, 'chatapp'), ...repliesOf(callback, 'rcs')];
}

describe('replies: every shape the service’s chat-app and RCS payloads use', () => {
	const entry = (typed: Record<string, unknown>, callbackType = 'icm') => ({ chatapp: { messages: [{ callback_type: callbackType, sid: 'r1', from: '+919876543210', timestamp: 't', ...typed }] } });
	it.each([
		['a template quick-reply button', { type: 'button', button: { payload: 'approve', text: 'Approve refund' } }, 'approve', 'Approve refund'],
		['an interactive reply button', { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'decline', title: 'Decline' } } }, 'decline', 'Decline'],
		['a list row', { type: 'list_reply', list_reply: { id: 'am', title: 'Morning', description: '9 to 12' } }, 'am', 'Morning'],
		['an interactive list row', { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'pm', title: 'Evening' } } }, 'pm', 'Evening'],
		['text', { type: 'text', text: { body: 'yes please' } }, null, 'yes please'],
		['RCS-like content text', { content: { type: 'text', text: 'ok' } }, null, 'ok'],
	])('%s', (_name, typed, id, text) => {
		const [answer] = repliesIn(entry(typed));
		expect(answer).toMatchObject({ id, text, number: '+919876543210', replySid: 'r1', at: 't' });
	});

	it('an RCS suggested reply or action, with its postback data', () => {
		const rcs = (response: Record<string, unknown>) => ({ rcs: { messages: [{ callback_type: 'incoming_message', sid: 's', from: '+919876543210', content: { type: 'suggested', suggested: { response } } }] } });
		expect(repliesIn(rcs({ reply: { text: 'Tomorrow', postback_data: 'slot_1' } }))[0]).toMatchObject({ id: 'slot_1', text: 'Tomorrow' });
		expect(repliesIn(rcs({ action: { text: 'Call us', postbackData: 'call' } }))[0]).toMatchObject({ id: 'call', text: 'Call us' });
	});

	it('delivery reports are not replies; the profile name is read where the chat app puts it', () => {
		expect(repliesIn(entry({ exo_status_code: 30002 }, 'dlr'))).toEqual([]);
		expect(repliesIn(entry({ type: 'text', text: { body: 'x' }, contact: { profile: { name: 'Asha' } } }))[0].name).toBe('Asha');
	});

	it('a choice by its id, else by its words (any case, trimmed), else none', () => {
		expect(choiceOf({ id: 'decline', text: 'whatever' }, CHOICES)).toEqual(CHOICES[1]);
		expect(choiceOf({ id: null, text: ' APPROVE refund ' }, CHOICES)).toEqual(CHOICES[0]);
		expect(choiceOf({ id: null, text: 'approve' }, CHOICES)).toEqual(CHOICES[0]);
		expect(choiceOf({ id: 'maybe', text: 'maybe' }, CHOICES)).toBeUndefined();
	});
});

describe('numbers', () => {
	it('compare by digits; a list splits on commas, semicolons and lines, not on the spaces inside a number', () => {
		expect(sameNumber('+91 98765-43210', '919876543210')).toBe(true);
		expect(sameNumber('', '')).toBe(false);
		expect(numbersIn('+91 98111 12222, +919822223333;\n+919833334444')).toEqual(['+91 98111 12222', '+919822223333', '+919833334444']);
		expect(numbersIn('')).toEqual([]);
	});
});

describe('the waiting operations in the panel', () => {
	it('declare n8n’s resume webhooks (GET and POST on the node id, restartWebhook) on Messaging and Voice', () => {
		for (const node of [new ExotelMessaging(), new ExotelVoice()]) {
			expect(node.description.webhooks).toBe(WAITING_WEBHOOKS);
			expect(typeof node.webhook).toBe('function');
		}
		expect(WAITING_WEBHOOKS.map(({ httpMethod, path, restartWebhook, isFullPath }) => ({ httpMethod, path, restartWebhook, isFullPath }))).toEqual([
			{ httpMethod: 'GET', path: '={{ $nodeId }}', restartWebhook: true, isFullPath: true },
			{ httpMethod: 'POST', path: '={{ $nodeId }}', restartWebhook: true, isFullPath: true },
		]);
	});

	it('use the operation value n8n treats as send-and-wait where a person answers, and chat app first (the human-review tool’s resource)', () => {
		const operations = new ExotelMessaging().description.properties.filter((p) => p.name === 'operation');
		const withSendAndWait = operations.filter((p) => (p.options as Array<{ value: string }>).some((o) => o.value === 'sendAndWait'));
		expect(withSendAndWait.map((p) => p.displayOptions?.show?.resource)).toEqual([['chatApp'], ['rcs'], ['sms']]);
		const voiceOperations = new ExotelVoice().description.properties.filter((p) => p.name === 'operation').flatMap((p) => p.options as Array<{ value: string }>);
		expect(voiceOperations.map((o) => o.value)).toContain('connectAndWait');
		expect(voiceOperations.map((o) => o.value)).not.toContain('sendAndWait');
	});

	it('a waiting twin keeps the send’s fields but the Status Callback URL, and adds to its options', () => {
		const fields: INodeProperties[] = [
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Status Callback URL', name: 'statusCallback', type: 'string', default: '' },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [{ displayName: 'Zeta', name: 'zeta', type: 'string', default: '' }, { displayName: 'Drop', name: 'drop', type: 'string', default: '' }] },
		];
		const twin = waitingFields(fields, [{ displayName: 'Alpha', name: 'alpha', type: 'string', default: '' }], ['drop']);
		expect(twin.map((f) => f.name)).toEqual(['to', 'options']);
		expect((twin[1].options as INodeProperties[]).map((o) => o.name)).toEqual(['alpha', 'zeta']);
	});
});

describe('resume URLs on every n8n release: keyed with what n8n keeps, never with a credential secret', () => {
	function context(operation: string, options: { withValidation: boolean; resumeUrl: string }) {
		const calls: string[] = [];
		/** Every expression the node had n8n evaluate, checked after the call (an expect in here may never run). */
		const expressions: string[] = [];
		const ctx: Record<string, unknown> = {
			getNode: () => ({ id: 'node-7', name: 'Exotel', parameters: {} }),
			getCredentials: async () => {
				calls.push('credentials');
				return { apiToken: 'token' };
			},
			getExecutionId: () => '42',
			getNodeParameter: () => operation,
			getSignedResumeUrl: (params: Record<string, string>) => {
				const url = new URL('http://n8n.local/webhook-waiting/42/node-7');
				for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
				url.searchParams.set('signature', `sig(${url.search})`);
				return url.toString();
			},
			evaluateExpression: (expression: string) => {
				expressions.push(expression);
				return options.resumeUrl;
			},
		};
		if (options.withValidation) ctx.setSignatureValidationRequired = () => calls.push('validate');
		return { ctx: ctx as never, calls, expressions };
	}
	const RESUME_URL_EXPRESSION = '{{ $execution.resumeUrl }}';
	const N8N_28 = { withValidation: true, resumeUrl: 'http://n8n.local/webhook-waiting/42' };
	const N8N_241 = { withValidation: false, resumeUrl: 'http://n8n.local/webhook-waiting/42?signature=resume-token' };

	it('sendAndWait: n8n’s signed URL; asks 2.8 to check it, and works where the method is gone (2.41)', () => {
		const old = context('sendAndWait', N8N_28);
		expect(resumeUrls(old.ctx)({ answer: 'approve' })).toBe('http://n8n.local/webhook-waiting/42/node-7?answer=approve&signature=sig%28%3Fanswer%3Dapprove%29');
		expect(old.calls).toEqual(['validate']);
		const newest = context('sendAndWait', N8N_241);
		expect(resumeUrls(newest.ctx)()).toBe('http://n8n.local/webhook-waiting/42/node-7?signature=sig%28%29');
		expect(newest.calls).toEqual([]);
		// n8n's signed URL needs no look at $execution.resumeUrl; if one is made, it is that expression only
		for (const { expressions } of [old, newest]) expect(expressions.filter((expression) => expression !== RESUME_URL_EXPRESSION)).toEqual([]);
	});

	it('other waits on 2.41: n8n’s resume URL, its resume token kept, with the node’s path; no credential read', () => {
		const { ctx, calls, expressions } = context('connectAndWait', N8N_241);
		expect(resumeUrls(ctx)()).toBe('http://n8n.local/webhook-waiting/42/node-7?signature=resume-token');
		expect(calls).toEqual([]);
		expect(expressions).toEqual([RESUME_URL_EXPRESSION]);
	});

	it('other waits on 2.8 (no resume token): n8n’s signed URL, which the webhook checks itself', () => {
		const { ctx, calls, expressions } = context('sendAndWaitForDelivery', N8N_28);
		expect(resumeUrls(ctx)()).toBe('http://n8n.local/webhook-waiting/42/node-7?signature=sig%28%29');
		expect(calls).toEqual([]);
		// it looked at n8n's own resume URL (to learn that this n8n has no resume token), and only at that
		expect(expressions).toEqual([RESUME_URL_EXPRESSION]);
	});
});

describe('unsignedFamilyOf: a body counts as a family the service posts unsigned only when wholly that family', () => {
	const SMS = { SmsSid: 'sid-1', To: '+919876543210', Status: 'sent', DetailedStatusCode: '20005' };
	const CALL = { CallSid: 'call-1', Status: 'completed', EventType: 'terminal', Legs: [{ Status: 'completed', OnCallDuration: '12' }] };
	const RCS = { rcs: { messages: [{ callback_type: 'dlr', sid: 'r-1' }] } };
	const CHAT = { chatapp: { messages: [{ callback_type: 'icm', sid: 'c-1' }] } };

	it.each([
		['an SMS status callback', SMS, 'sms'],
		['a v1 call status callback with its legs', CALL, 'call'],
		['an RCS callback', RCS, 'rcs'],
		['an RCS callback with the SMS fallback', { ...RCS, sms: { messages: [] } }, 'rcs'],
		['a chat-app callback', CHAT, undefined],
		['a chat-app incoming message', { event: 'incoming_message', message: { from: '+91' } }, undefined],
		['an RCS callback carrying a chat-app payload beside it', { ...RCS, ...CHAT }, undefined],
		['an SMS form carrying a chat-app payload (bracket keys nested)', { ...SMS, ...CHAT }, undefined],
		['a call form carrying a chat-app payload', { ...CALL, ...CHAT }, undefined],
		['a call form whose legs hide an object', { ...CALL, Legs: [{ Status: 'completed', chatapp: {} }] }, undefined],
		['the call management shape', { call_sid: 'call-1', event_type: 'terminal' }, undefined],
		['an empty body', {}, undefined],
	])('%s', (_what, body, family) => {
		expect(unsignedFamilyOf(body as never)).toBe(family);
	});
});

describe('the plain send run with given parameters (a waiting operation\'s resume URL), not a Proxy over the context', () => {
	/** A context whose only parameter reads `$json.url`, the kind the fast path evaluates without n8n. */
	const context = (reads: string[]) =>
		({
			getNode: () => ({ parameters: { statusCallback: '={{ $json.url }}', from: '+918047112233' } }),
			getInputData: () => [{ json: { url: 'https://example.com/from-item' } }],
			getNodeParameter: (name: string) => {
				reads.push(name);
				return name === 'from' ? '+918047112233' : 'read from n8n';
			},
		}) as unknown as IExecuteFunctions;

	it('a given value wins over the fast path and over n8n, for every reader', () => {
		const reads: string[] = [];
		const given = { statusCallback: 'https://n8n.example.com/webhook-waiting/7/node' };
		expect(parameterReader(context(reads))('statusCallback', 0)).toBe('https://example.com/from-item');
		expect(parameterReader(context(reads), given)('statusCallback', 0)).toBe(given.statusCallback);
		expect(itemParameters(context(reads), 0, given)('statusCallback')).toBe(given.statusCallback);
		expect(itemParameters(context(reads), 0)('statusCallback')).toBe('read from n8n');
		// names not given are read as before
		expect(parameterReader(context(reads), given)('from', 0)).toBe('+918047112233');
		expect(reads).toEqual(['statusCallback', 'from']);
	});
});

describe('the editor\'s tooltip on a waiting node, as n8n\'s send-and-wait nodes have it', () => {
	/** The tooltip as n8n's expression engine evaluates it over the node's parameters. */
	const tooltip = (type: INodeType, parameters: Record<string, string>) => {
		const node: INode = { id: '1', name: 'Waiting', type: type.description.name, typeVersion: 2, position: [0, 0], parameters };
		const nodeTypes: INodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		return workflow.expression.getSimpleParameterValue(node, type.description.waitingNodeTooltip!, 'internal', {});
	};

	it('says what each waiting operation waits for, and nothing for the others', () => {
		const messaging = new ExotelMessaging();
		expect(tooltip(messaging, { resource: 'sms', operation: 'sendAndWait' })).toBe("Execution will continue after the person's answer");
		expect(tooltip(messaging, { resource: 'chatApp', operation: 'sendAndWaitForDelivery' })).toBe("Execution will continue when the message's final status arrives");
		expect(tooltip(messaging, { resource: 'sms', operation: 'send' })).toBe('');
		const voice = new ExotelVoice();
		expect(tooltip(voice, { resource: 'call', operation: 'connectAndWait' })).toBe('Execution will continue when the call ends');
		expect(tooltip(voice, { resource: 'call', operation: 'connect' })).toBe('');
	});
});
