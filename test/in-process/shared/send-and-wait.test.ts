/**
 * The waiting operations through n8n-core: what goes on the wire (the send's callback URL is the
 * execution's resume URL), the run waiting, and each request to that URL handled as n8n's waiting
 * webhooks handle it (result.resume): what resumes the execution, with which item, and what is
 * acknowledged or refused and leaves it waiting. Limit Wait Time through n8n's own resume path
 * (result.timeOut). The same flows run on real n8n in test/e2e/send-and-wait.e2e.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

// The service's side of the signature: the sandbox's own signer (sandbox/callbacks/dispatcher.ts, the
// spec's rule: `sha256=` + hex HMAC-SHA256 of the raw bytes keyed with the signing secret), never the
// product's signPayload, so a wrong scheme in the product fails here.
import { signPayload as serviceSignature } from '../../../sandbox/callbacks';
import { formFields, runNode, SANDBOX_ACCOUNT, useSandbox } from '../../helpers/exotel';
import type { ResumeRequest, RunResult } from '../../helpers/n8n-core-harness';

const sandbox = useSandbox();

const FROM = '+918047112233';
const TO = '+919876543210';
const STRANGER = '+919811112222';
const MESSAGES_PATH = `/v2/accounts/${SANDBOX_ACCOUNT.accountSid}/messages`;
const RESUME_URL = /^http:\/\/localhost:5678\/webhook-waiting\/\d+\/exotel-node-\d+\?/;

type Parameters = Record<string, unknown>;

async function messaging(parameters: Parameters, items: Array<Record<string, unknown>> = [{}], settings: IDataObject = {}) {
	return await runNode(sandbox, 'exotelMessaging', parameters, items, { settings });
}

const approval = (more: Parameters = {}) => ({
	resource: 'chatApp',
	operation: 'sendAndWait',
	from: FROM,
	to: TO,
	message: 'Refund 1,200 INR for order 1042?',
	responseType: 'approval',
	approvalOptions: { values: { approvalType: 'double', approveLabel: 'Approve refund', disapproveLabel: 'Decline' } },
	...more,
});

/** A signed chat-app callback body, as the sandbox and the service post it. */
function chatAppCallback(url: string, entries: IDataObject[], signature?: string): ResumeRequest {
	const body = JSON.stringify({ chatapp: { messages: entries } });
	return { url, body, headers: { 'x-service-signature': signature ?? serviceSignature(body, SANDBOX_ACCOUNT.webhookSigningSecret) } };
}

/** What the node answers a request it takes and does not resume on (webhook.ts keepWaiting): 200, not resumed. */
const STILL_WAITING = { status: 200, body: { received: true, resumed: false }, headers: {}, answeredBy: 'node' };

/** The request was acknowledged (200, `resumed: false`) and the execution keeps waiting; a 401 or a 500 is not that. */
function expectStillWaiting(outcome: Awaited<ReturnType<RunResult['resume']>>) {
	expect(outcome.answer).toEqual(STILL_WAITING);
	expect(outcome.result).toBeUndefined();
}

function replyEntry(sentSid: string, from: string, typed: IDataObject): IDataObject {
	return {
		callback_type: 'icm',
		sid: 'b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6',
		from,
		to: FROM,
		timestamp: '2026-11-24T15:30:00+05:30',
		...typed,
		context: { from: FROM, id: sentSid },
		contact: { wa_id: from.slice(1), profile: { name: 'Asha Rao' } },
	};
}

const button = (payload: string, text: string) => ({ type: 'button', button: { payload, text } });

function waitingItem(result: RunResult): IDataObject {
	expect(result.status).toBe('waiting');
	const [item] = result.output('Exotel');
	return item.json;
}

function sentChatApp() {
	const [message] = sandbox.chatAppMessages();
	return { sid: message.sid, url: String(message.statusCallback), message };
}

describe('Chat App → Send and Wait for Response', () => {
	describe('as an AI agent\'s human-review tool: the approval shows the tool\'s input', () => {
		/** n8n's default message of its human-review tools (n8n 2.41: filterHitlToolProperties). */
		const HITL_DEFAULT = '=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';
		/** The item n8n gives the tool node: the tool's name and the parameters the agent chose. */
		const toolCall = (toolParameters: unknown) => [{ tool: 'Issue_Refund', toolParameters, toolCallId: 'call_1' }];
		const bodyText = () => ((sentChatApp().message.content as IDataObject).interactive as { body: { text: string } }).body.text;

		it('each parameter on its own line, nested values as compact JSON (not [object Object])', async () => {
			const result = await messaging(approval({ message: HITL_DEFAULT }), toolCall({ orderId: 'ORD-1001', amount: 499, refund: { to: 'card', partial: false } }));
			expect(waitingItem(result)).toMatchObject({ waitingFor: 'reply' });
			expect(bodyText()).toBe('The agent wants to run this tool: Issue_Refund\n\nInput:\norderId: ORD-1001\namount: 499\nrefund: {"to":"card","partial":false}');
		});

		it('a long input is shortened with a marker to fit the chat app\'s 1,024 characters, never refused', async () => {
			const note = 'x'.repeat(3000);
			const result = await messaging(approval({ message: HITL_DEFAULT }), toolCall({ orderId: 'ORD-1001', note }));
			expect(waitingItem(result)).toMatchObject({ waitingFor: 'reply' });
			const text = bodyText();
			expect(Array.from(text).length).toBeLessThanOrEqual(1024);
			expect(text).toMatch(/^The agent wants to run this tool: Issue_Refund\n\nInput:\norderId: ORD-1001\n/);
			expect(text).toMatch(/… \(\d+ more characters of the input not shown\)$/);
		});

		it('the user\'s own wording is kept, the input written into it where it embeds {{ $tool.parameters }}', async () => {
			await messaging(approval({ message: '=Refund for {{ $tool.parameters.orderId }}?\n{{ $tool.parameters }}\n(agent: {{ $tool.name }})' }), toolCall({ orderId: 'ORD-7', amount: '1,200 INR' }));
			expect(bodyText()).toBe('Refund for ORD-7?\norderId: ORD-7\namount: 1,200 INR\n(agent: Issue_Refund)');
			sandbox.reset();
			// no whole {{ $tool.parameters }}: the message is the user's, as n8n evaluates it
			await messaging(approval({ message: '=Refund {{ $tool.parameters.amount }} on {{ $tool.parameters.orderId }}?' }), toolCall({ orderId: 'ORD-7', amount: '1,200 INR' }));
			expect(bodyText()).toBe('Refund 1,200 INR on ORD-7?');
			sandbox.reset();
			// braces in the input cannot end the expression early
			await messaging(approval({ message: HITL_DEFAULT }), toolCall({ filter: { a: { b: '}}' } } }));
			expect(bodyText()).toBe('The agent wants to run this tool: Issue_Refund\n\nInput:\nfilter: {"a":{"b":"}}"}}');
		});
	});

	it('sends reply buttons with the signed resume URL as status_callback and waits', async () => {
		const result = await messaging(approval());
		const [request] = sandbox.requests({ method: 'POST' });
		expect(request).toMatchObject({ path: MESSAGES_PATH, contentType: 'application/json', status: 202 });
		const body = request.json as IDataObject;
		expect(body).toEqual({
			from: FROM,
			to: TO,
			content: {
				recipient_type: 'individual',
				type: 'interactive',
				interactive: {
					type: 'button',
					body: { text: 'Refund 1,200 INR for order 1042?' },
					action: {
						buttons: [
							{ type: 'reply', reply: { id: 'approve', title: 'Approve refund' } },
							{ type: 'reply', reply: { id: 'decline', title: 'Decline' } },
						],
					},
				},
			},
			status_callback: expect.stringMatching(RESUME_URL),
		});
		const url = new URL(String(body.status_callback));
		expect([...url.searchParams.keys()]).toEqual(['signature']);
		expect(result.run.data.validateSignature).toBe(true);
		const waiting = waitingItem(result);
		expect(waiting).toMatchObject({ messageSid: sentChatApp().sid, status: 'accepted', channel: 'chatapp', to: TO, from: FROM, waitingFor: 'reply', waitTill: null });
		expect(JSON.stringify(waiting)).not.toContain(SANDBOX_ACCOUNT.apiToken);
	});

	it('resumes on the recipient tapping Approve, with what, by whom and when', async () => {
		const result = await messaging(approval());
		const { sid, url } = sentChatApp();
		const { answer, result: resumed } = await result.resume(chatAppCallback(url, [replyEntry(sid, TO, button('approve', 'Approve refund'))]));
		// n8n answers once it holds the resumed execution, not the node before it
		expect(answer).toMatchObject({ status: 200, body: { received: true, resumed: true }, answeredBy: 'n8n' });
		expect(resumed?.status).toBe('success');
		const [item] = resumed!.output('Exotel');
		expect(item.json).toEqual({
			messageSid: sid,
			status: 'answered',
			channel: 'chatapp',
			to: TO,
			from: FROM,
			code: null,
			timedOut: false,
			waitingFor: 'reply',
			resumedBy: 'callback',
			approved: true,
			answer: 'approve',
			answerText: 'Approve refund',
			answeredBy: { number: TO, name: 'Asha Rao' },
			answeredAt: '2026-11-24T15:30:00+05:30',
			replySid: 'b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6',
			question: {
				responseType: 'approval',
				text: 'Refund 1,200 INR for order 1042?',
				choices: [
					{ id: 'approve', title: 'Approve refund' },
					{ id: 'decline', title: 'Decline' },
				],
				approvers: [],
			},
			raw: replyEntry(sid, TO, button('approve', 'Approve refund')),
		});
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('Decline gives approved: false; a typed label counts as that button', async () => {
		const declined = await messaging(approval());
		let sent = sentChatApp();
		const first = await declined.resume(chatAppCallback(sent.url, [replyEntry(sent.sid, TO, button('decline', 'Decline'))]));
		expect(first.result!.output('Exotel')[0].json).toMatchObject({ approved: false, answer: 'decline', answerText: 'Decline' });

		sandbox.reset();
		const typed = await messaging(approval());
		sent = sentChatApp();
		const second = await typed.resume(chatAppCallback(sent.url, [replyEntry(sent.sid, TO, { type: 'text', text: { body: ' approve REFUND ' } })]));
		expect(second.result!.output('Exotel')[0].json).toMatchObject({ approved: true, answer: 'approve' });
	});

	it('a delivery report, a stranger, an answer that is no choice: 200 and still waiting', async () => {
		const result = await messaging(approval());
		const { sid, url } = sentChatApp();
		const cases = [
			[{ callback_type: 'dlr', sid, to: TO, exo_status_code: 30002, exo_detailed_status: 'EX_MESSAGE_DELIVERED' }],
			[replyEntry(sid, STRANGER, button('approve', 'Approve refund'))],
			[replyEntry(sid, TO, { type: 'text', text: { body: 'who is this?' } })],
		];
		for (const entries of cases) {
			expectStillWaiting(await result.resume(chatAppCallback(url, entries)));
		}
	});

	it('refuses with 401, resuming nothing: a forged n8n signature, none, a wrong X-Service-Signature', async () => {
		const result = await messaging(approval());
		const { sid, url } = sentChatApp();
		const entries = [replyEntry(sid, TO, button('approve', 'Approve refund'))];
		const forged = url.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`);
		const unsignedUrl = new URL(url);
		unsignedUrl.searchParams.delete('signature');
		const refused = [
			chatAppCallback(forged, entries),
			chatAppCallback(unsignedUrl.toString(), entries),
			chatAppCallback(url, entries, 'sha256=bad'),
			chatAppCallback(url, entries, serviceSignature('{}', SANDBOX_ACCOUNT.webhookSigningSecret)),
		];
		for (const request of refused) {
			const { answer, result: resumed } = await result.resume(request);
			expect(answer.status).toBe(401);
			expect(resumed).toBeUndefined();
		}
	});

	it('Approver Numbers: only those numbers count, the recipient no longer does', async () => {
		const result = await messaging(approval({ options: { approvers: '+91 98111 12222, +919822223333' } }));
		const { sid, url } = sentChatApp();
		expectStillWaiting(await result.resume(chatAppCallback(url, [replyEntry(sid, TO, button('approve', 'Approve refund'))])));
		const { result: resumed } = await result.resume(chatAppCallback(url, [replyEntry(sid, STRANGER, button('approve', 'Approve refund'))]));
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ approved: true, answeredBy: { number: STRANGER, name: 'Asha Rao' }, question: { approvers: ['+919811112222', '+919822223333'] } });
	});

	it('Choice as a list: rows sent, a row picked', async () => {
		const result = await messaging(
			approval({
				responseType: 'choice',
				message: 'When should we deliver?',
				choiceStyle: 'list',
				listButton: 'Pick a slot',
				choices: { choice: [{ id: 'am', title: 'Morning', description: '9 to 12' }, { title: 'Evening' }] },
				options: { headerText: 'Delivery', footerText: 'Acme' },
			}),
		);
		const { sid, url, message } = sentChatApp();
		expect(message.content).toEqual({
			recipient_type: 'individual',
			type: 'interactive',
			interactive: {
				type: 'list',
				header: { type: 'text', text: 'Delivery' },
				body: { text: 'When should we deliver?' },
				footer: { text: 'Acme' },
				action: { button: 'Pick a slot', sections: [{ rows: [{ id: 'am', title: 'Morning', description: '9 to 12' }, { id: 'Evening', title: 'Evening' }] }] },
			},
		});
		const { result: resumed } = await result.resume(chatAppCallback(url, [replyEntry(sid, TO, { type: 'list_reply', list_reply: { id: 'Evening', title: 'Evening' } })]));
		const json = resumed!.output('Exotel')[0].json;
		expect(json).toMatchObject({ answer: 'Evening', answerText: 'Evening', status: 'answered' });
		expect(json).not.toHaveProperty('approved');
	});

	it('Free Text: a text message, resumed by any text', async () => {
		const result = await messaging(approval({ responseType: 'freeText', message: 'Why do you want to cancel?' }));
		const { sid, url, message } = sentChatApp();
		expect(message.content).toEqual({ recipient_type: 'individual', type: 'text', text: { body: 'Why do you want to cancel?' } });
		const { result: resumed } = await result.resume(chatAppCallback(url, [replyEntry(sid, TO, { type: 'text', text: { body: 'Ordered twice by mistake' } })]));
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ answer: 'Ordered twice by mistake', answerText: 'Ordered twice by mistake' });
	});

	it('Limit Wait Time: n8n resumes the timed-out node with timedOut: true and the same keys', async () => {
		const result = await messaging(approval({ options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' } } } }));
		const waitTill = result.waitTill!.getTime();
		expect(Math.abs(waitTill - (Date.now() + 2 * 3600e3))).toBeLessThan(60e3);
		expect(waitingItem(result).waitTill).toBe(new Date(waitTill).toISOString());
		const timedOut = await result.timeOut();
		expect(timedOut.status).toBe('success');
		expect(timedOut.output('Exotel')[0].json).toEqual({
			messageSid: sentChatApp().sid,
			status: 'timedOut',
			channel: 'chatapp',
			to: TO,
			from: FROM,
			code: null,
			timedOut: true,
			waitingFor: 'reply',
			resumedBy: 'timeout',
			approved: null,
			answer: null,
			answerText: null,
			answeredBy: null,
			answeredAt: null,
			replySid: null,
			question: expect.objectContaining({ responseType: 'approval' }),
			raw: null,
		});
	});

	it('refuses before sending: more than one item, a choice without choices, a bad approver, an unreadable date', async () => {
		const cases: Array<[Parameters, Array<Record<string, unknown>>, RegExp]> = [
			[approval(), [{}, {}], /waits for one message and got 2 input items/],
			[approval({ responseType: 'choice' }), [{}], /Choices: add at least one choice/],
			[approval({ responseType: 'choice', choices: { choice: [1, 2, 3, 4].map((n) => ({ title: `Slot ${n}` })) } }), [{}], /Choices: 4 given; at most 3 reply buttons \(a list takes up to 10\) \(item 0\)/],
			[approval({ responseType: 'choice', choiceStyle: 'list', choices: { choice: Array.from({ length: 11 }, (_, n) => ({ title: `Slot ${n}` })) } }), [{}], /Choices: 11 given; at most 10 rows in a list/],
			[approval({ responseType: 'choice', choices: { choice: [{ title: 'A title longer than twenty' }] } }), [{}], /Button 1 title is 26 characters; the limit is 20/],
			[approval({ options: { approvers: '+91 98111, 12' } }), [{}], /Approver Numbers/],
			[approval({ options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: 'soon' } } } }), [{}], /Max Date and Time is not a date/],
		];
		for (const [parameters, items, message] of cases) {
			const result = await messaging(parameters, items);
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(message);
		}
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('a refused send does not wait: an error, or with Continue the failed item', async () => {
		const failed = await messaging(approval({ to: '+919800000000' }));
		expect(failed.status).toBe('error');
		expect(failed.error?.message).toMatch(/Message not accepted/);
		const continued = await messaging(approval({ to: '+919800000000' }), [{}], { onError: 'continueRegularOutput' });
		expect(continued.status).toBe('success');
		expect(continued.output('Exotel')[0].json).toMatchObject({ status: 'failed', error: expect.stringMatching(/Message not accepted/) });
	});
});

describe('RCS → Send Template and Wait for Reply', () => {
	it('puts the resume URL on the message and resumes on the suggestion chosen', async () => {
		const result = await messaging({ resource: 'rcs', operation: 'sendAndWait', botId: 'acme_orders_bot', to: TO, templateName: 'delivery_slot', templateVariables: { TemplateParam1: 'Asha' } });
		const [request] = sandbox.requests({ method: 'POST' });
		const body = request.json as { rcs: { messages: IDataObject[] } };
		expect(body).toEqual({
			rcs: {
				messages: [
					{
						from: 'acme_orders_bot',
						to: TO,
						content: { type: 'template', template: { name: 'delivery_slot', variables: { TemplateParam1: 'Asha' } } },
						status_callback: expect.stringMatching(RESUME_URL),
					},
				],
			},
		});
		const [sent] = sandbox.rcsMessages();
		const reply = {
			callback_type: 'incoming_message',
			sid: 'c0ffee0000000000000000000000000a',
			from: TO,
			to: 'acme_orders_bot',
			timestamp: '2026-11-24T15:31:00+05:30',
			content: { type: 'suggested', suggested: { response: { reply: { text: 'Tomorrow 10 AM', postback_data: 'slot_tomorrow_10' } } } },
		};
		const dlr = { callback_type: 'dlr', sid: sent.sid, to: TO, exo_status_code: 40002, exo_detailed_status: 'EX_MESSAGE_DELIVERED' };
		const url = String(body.rcs.messages[0].status_callback);
		expectStillWaiting(await result.resume({ url, body: JSON.stringify({ rcs: { messages: [dlr] } }) }));
		const { result: resumed } = await result.resume({ url, body: JSON.stringify({ rcs: { messages: [reply] } }) });
		expect(resumed!.output('Exotel')[0].json).toMatchObject({
			messageSid: sent.sid,
			status: 'answered',
			channel: 'rcs',
			to: TO,
			from: 'acme_orders_bot',
			answer: 'slot_tomorrow_10',
			answerText: 'Tomorrow 10 AM',
			answeredBy: { number: TO, name: null },
			replySid: 'c0ffee0000000000000000000000000a',
			raw: reply,
		});
	});
});

describe('SMS → Send and Wait for Approval', () => {
	const smsApproval = (more: Parameters = {}) => ({
		resource: 'sms',
		operation: 'sendAndWait',
		from: 'ACMEHQ',
		to: TO,
		message: 'Confirm your appointment on Tue 10:30?',
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Confirm', disapproveLabel: 'Reschedule' } },
		options: { dltEntityId: '1101456789012345678', dltTemplateId: '1107161234567890123' },
		...more,
	});

	async function sent() {
		const result = await messaging(smsApproval());
		const [request] = sandbox.requests({ method: 'POST' });
		const form = formFields(request.form);
		const links = [...form['Messages[0][Body]'][0].matchAll(/(Confirm|Reschedule): (\S+)/g)].map((match) => match[2]);
		return { result, request, form, links };
	}

	it('sends one SMS with a signed link per answer, shortened by the service, and no status callback', async () => {
		const { result, request, form, links } = await sent();
		expect(request).toMatchObject({ path: `/v1/Accounts/${SANDBOX_ACCOUNT.accountSid}/Sms/bulksend`, contentType: 'application/x-www-form-urlencoded' });
		expect(Object.keys(form).sort()).toEqual(['DltEntityId', 'From', 'Messages[0][Body]', 'Messages[0][DltTemplateId]', 'Messages[0][To]', 'ShortenUrl'].sort());
		expect(form.ShortenUrl).toEqual(['true']);
		expect(form['Messages[0][Body]'][0]).toMatch(/^Confirm your appointment on Tue 10:30\?\n\nConfirm: http:\/\/localhost:5678\/webhook-waiting\/\S+\nReschedule: \S+$/);
		expect(links.map((link) => new URL(link).searchParams.get('answer'))).toEqual(['approve', 'decline']);
		expect(waitingItem(result)).toMatchObject({ channel: 'sms', to: TO, from: 'ACMEHQ', waitingFor: 'approvalLink' });
	});

	it('checks the SMS, links included, against DLT Template Text before sending: the long resume links count as the short links the service makes', async () => {
		const options = { dltTemplateId: '1107161234567890123', dltTemplateText: 'Confirm your appointment on {#var#}?\n\nConfirm: {#var#}\nReschedule: {#var#}' };
		const result = await messaging(smsApproval({ options }));
		expect(result.error).toBeUndefined();
		expect(waitingItem(result)).toMatchObject({ channel: 'sms', waitingFor: 'approvalLink' });
		expect(sandbox.requests({ method: 'POST' })).toHaveLength(1);
		// a template without the link lines: refused, nothing sent, nothing waiting
		sandbox.reset();
		const refused = await messaging(smsApproval({ options: { ...options, dltTemplateText: 'Confirm your appointment on {#var#}?' } }));
		expect(refused.error?.message).toBe('Body differs from the DLT template at character 39: the template ends and the body goes on with "\\n\\nConfirm: http://lo" (item 0)');
		expect(sandbox.requests()).toHaveLength(0);
	});

	it('opening a link shows a page and answers nothing; pressing its button resumes', async () => {
		const { result, links } = await sent();
		for (const method of ['GET', 'GET'] as const) {
			const { answer, result: resumed } = await result.resume({ url: links[0], method, headers: { 'user-agent': 'WhatsApp/2.23.20 link preview' } });
			expect(answer.status).toBe(200);
			expect(answer.headers['content-type']).toMatch(/^text\/html/);
			// the question is the title; the one button is the link's own label, with no word of ours before it
			expect(String(answer.body)).toContain('<title>Confirm your appointment on Tue 10:30?</title>');
			expect(String(answer.body)).toMatch(/<form method="post" action="">.*name="answer" value="approve".*<button type="submit" name="confirm" value="1">Confirm<\/button>/s);
			expect(String(answer.body)).not.toContain('Confirm: Confirm');
			expect(resumed).toBeUndefined();
		}
		const { answer, result: resumed } = await result.resume({ url: links[0], method: 'POST', contentType: 'application/x-www-form-urlencoded', body: 'answer=approve&confirm=1' });
		expect(String(answer.body)).toContain('<title>Answer recorded: Confirm</title>');
		expect(String(answer.body)).toMatch(/Your answer: <strong>Confirm<\/strong>/);
		expect(resumed!.output('Exotel')[0].json).toMatchObject({
			status: 'answered',
			channel: 'sms',
			approved: true,
			answer: 'approve',
			answerText: 'Confirm',
			answeredBy: { number: TO, name: null },
			waitingFor: 'approvalLink',
		});
	});

	it('the decline link declines; a link whose answer was changed is refused', async () => {
		const { result, links } = await sent();
		const changed = links[0].replace('answer=approve', 'answer=decline');
		expect((await result.resume({ url: changed, method: 'POST', contentType: 'application/x-www-form-urlencoded', body: 'answer=decline' })).answer.status).toBe(401);
		const { result: resumed } = await result.resume({ url: links[1], method: 'POST', contentType: 'application/x-www-form-urlencoded', body: 'answer=decline' });
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ approved: false, answer: 'decline', answerText: 'Reschedule' });
	});
});

describe('Send and Wait for Delivery', () => {
	it('SMS: StatusCallback is the resume URL; another message’s report waits, its own resumes', async () => {
		const result = await messaging({ resource: 'sms', operation: 'sendAndWaitForDelivery', from: 'ACMEHQ', to: TO, body: 'Your OTP is 482913' });
		const form = formFields(sandbox.requests({ method: 'POST' })[0].form);
		const url = form.StatusCallback[0];
		// n8n 2.8 has no resume token and does not check this URL: its signature is checked by the node.
		expect(url).toMatch(/^http:\/\/localhost:5678\/webhook-waiting\/\d+\/exotel-node-\d+\?signature=[0-9a-f]{64}$/);
		expect(result.run.data.validateSignature).toBeFalsy();
		const [message] = sandbox.messages();
		const report = (sid: string) => `SmsSid=${sid}&To=${encodeURIComponent(TO)}&Status=sent&SmsUnits=1&DetailedStatus=DELIVERED_TO_HANDSET&DetailedStatusCode=20005&DateSent=2026-11-24+10%3A00%3A05`;
		const contentType = 'application/x-www-form-urlencoded';
		expectStillWaiting(await result.resume({ url, contentType, body: report('someothersid') }));
		expect((await result.resume({ url: url.replace(/signature=\w+/, `signature=${'0'.repeat(64)}`), contentType, body: report(String(message.sid)) })).answer.status).toBe(401);
		const { result: resumed } = await result.resume({ url, contentType, body: report(String(message.sid)) });
		expect(resumed!.output('Exotel')[0].json).toMatchObject({
			messageSid: message.sid,
			status: 'delivered',
			channel: 'sms',
			to: TO,
			from: 'ACMEHQ',
			code: 20005,
			timedOut: false,
			waitingFor: 'delivery',
			resumedBy: 'callback',
			timestamp: '2026-11-24 10:00:05',
			raw: expect.objectContaining({ SmsSid: message.sid, DetailedStatus: 'DELIVERED_TO_HANDSET' }),
		});
	});

	it('chat app: sent keeps waiting, delivered resumes', async () => {
		const result = await messaging({ resource: 'chatApp', operation: 'sendAndWaitForDelivery', from: FROM, to: TO, messageType: 'text', text: 'Your order shipped' });
		const { sid, url } = sentChatApp();
		const dlr = (code: number, status: string) => ({ callback_type: 'dlr', sid, to: TO, exo_status_code: code, exo_detailed_status: status, timestamp: '2026-11-24T15:30:02+05:30' });
		expectStillWaiting(await result.resume(chatAppCallback(url, [dlr(30001, 'EX_MESSAGE_SENT')])));
		const { result: resumed } = await result.resume(chatAppCallback(url, [dlr(30002, 'EX_MESSAGE_DELIVERED')]));
		expect(resumed!.output('Exotel')[0].json).toMatchObject({ messageSid: sid, status: 'delivered', channel: 'chatapp', code: 30002, timedOut: false, timestamp: '2026-11-24T15:30:02+05:30' });
	});
});

describe('Voice → Call → Connect and Wait for Call End', () => {
	it('asks for the terminal event at the resume URL; answered waits, terminal resumes with legs and recording', async () => {
		const result = await runNode(sandbox, 'exotelVoice', {
			resource: 'call',
			operation: 'connectAndWait',
			from: TO,
			callerId: '+918047112233',
			url: `http://my.exotel.com/${SANDBOX_ACCOUNT.accountSid}/exoml/start_voice/926`,
		});
		const form = formFields(sandbox.requests({ method: 'POST' })[0].form);
		expect(form['StatusCallbackEvents[]']).toEqual(['terminal']);
		const url = form.StatusCallback[0];
		expect(url).toMatch(/\/webhook-waiting\/\d+\/exotel-node-\d+\?signature=[0-9a-f]{64}$/);
		const callSid = String(waitingItem(result).callSid);
		const event = (type: string, status: string) =>
			new URLSearchParams({
				CallSid: callSid,
				Status: status,
				EventType: type,
				From: TO,
				To: '',
				Direction: 'outbound-api',
				StartTime: '2026-11-24 10:00:00',
				EndTime: type === 'terminal' ? '2026-11-24 10:00:35' : '',
				ConversationDuration: type === 'terminal' ? '30' : '0',
				...(type === 'terminal' ? { RecordingUrl: 'https://recordings.example/1.mp3' } : {}),
				'Legs[0][OnCallDuration]': '35',
				'Legs[0][Status]': type === 'terminal' ? 'completed' : 'in-progress',
				'Legs[0][AnsweredBy]': 'NA',
			}).toString();
		const contentType = 'application/x-www-form-urlencoded';
		expectStillWaiting(await result.resume({ url, contentType, body: event('answered', 'in-progress') }));
		const { result: resumed } = await result.resume({ url, contentType, body: event('terminal', 'completed') });
		expect(resumed!.output('Exotel')[0].json).toMatchObject({
			callSid,
			status: 'completed',
			from: TO,
			recordingUrl: 'https://recordings.example/1.mp3',
			duration: 35,
			eventType: 'terminal',
			conversationDuration: 30,
			answeredBy: ['NA'],
			legs: [{ OnCallDuration: 35, Status: 'completed', AnsweredBy: 'NA' }],
			timedOut: false,
			waitingFor: 'callEnd',
			resumedBy: 'callback',
		});
	});
});
