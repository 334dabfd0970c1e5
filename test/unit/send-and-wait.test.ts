import type { INodeProperties } from 'n8n-workflow';

import { numbersIn, resumeUrls, sameNumber, WAITING_WEBHOOKS, waitingFields } from '../../nodes/shared/sendAndWait';
import { repliesIn } from '../../nodes/shared/messagingCallbacks';
import { choiceOf } from '../../nodes/shared/waitingWebhook';
import { ExotelMessaging } from '../../nodes/ExotelMessaging/ExotelMessaging.node';
import { ExotelVoice } from '../../nodes/ExotelVoice/ExotelVoice.node';

const CHOICES = [
	{ id: 'approve', title: 'Approve refund' },
	{ id: 'decline', title: 'Decline' },
];

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

describe('resume URLs on every n8n release', () => {
	function context(operation: string, withValidation: boolean) {
		const calls: string[] = [];
		const ctx: Record<string, unknown> = {
			getNode: () => ({ id: 'node-7', name: 'Exotel', parameters: {} }),
			getCredentials: async () => ({ apiToken: 'token' }),
			getExecutionId: () => '42',
			getNodeParameter: () => operation,
			getSignedResumeUrl: (params: Record<string, string>) => `http://n8n.local/webhook-waiting/42/node-7?${new URLSearchParams(params).toString()}&signature=s`,
			getWorkflowDataProxy: () => ({ $execution: { resumeUrl: 'http://n8n.local/webhook-waiting/42?signature=resume-token' } }),
		};
		if (withValidation) ctx.setSignatureValidationRequired = () => calls.push('validate');
		return { ctx: ctx as never, calls };
	}

	it('sendAndWait: n8n’s signed URL; asks 2.8 to check it, and works where the method is gone (2.41)', async () => {
		const old = context('sendAndWait', true);
		expect((await resumeUrls(old.ctx))({ answer: 'approve' })).toMatch(/^http:\/\/n8n\.local\/webhook-waiting\/42\/node-7\?answer=approve&exotelToken=[0-9a-f]{32}&signature=s$/);
		expect(old.calls).toEqual(['validate']);
		const newest = context('sendAndWait', false);
		expect((await resumeUrls(newest.ctx))()).toMatch(/node-7\?exotelToken=/);
	});

	it('other waits: n8n’s resume URL (its resume token kept) with the node’s path and our token', async () => {
		const { ctx, calls } = context('connectAndWait', true);
		const url = new URL((await resumeUrls(ctx))());
		expect(url.pathname).toBe('/webhook-waiting/42/node-7');
		expect(url.searchParams.get('signature')).toBe('resume-token');
		expect(url.searchParams.get('exotelToken')).toMatch(/^[0-9a-f]{32}$/);
		expect(calls).toEqual([]);
	});
});
