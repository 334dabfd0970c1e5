/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the call-flow examples' flow files (fs, path); never shipped */
/**
 * `npm run dev`'s banner, built from the example files (scripts/dev-examples.ts): each example that
 * starts from a webhook with its method, path, production and test URL, a ready curl with a sample
 * body, and what to run next (`npm run person ...` for the send-and-wait ones; for a call-flow
 * example, the `npm run person -- call` lines that play a call through its flow file, one per branch).
 * No n8n, no network.
 */
import fs from 'fs';
import path from 'path';

import { SANDBOX_ACCOUNT } from '../../sandbox/fixtures';
import {
	bodyFieldsRead,
	callFlowFile,
	EXAMPLES_DIR,
	exampleBanner,
	exampleWebhooks,
	readExamples,
	SAMPLE_BODIES,
	SAMPLE_CALLS,
	startsFromWebhook,
} from '../../scripts/dev-examples';
import { parsePersonArgs } from '../../scripts/person';

const examples = readExamples();
const byFile = (id: string) => {
	const example = examples.find((candidate) => candidate.id === id);
	if (!example) throw new Error(`no example ${id}`);
	return example;
};
const ORIGINS = { n8n: 'http://127.0.0.1:5678', sandbox: 'http://127.0.0.1:4010' };
const hooks = exampleWebhooks(examples, ORIGINS);
const hook = (id: string) => {
	const found = hooks.find((candidate) => candidate.id === id);
	if (!found) throw new Error(`no webhook for ${id}`);
	return found;
};
/** The JSON body of a `curl ... -d '<json>'` line. */
const bodyOf = (curl: string) => JSON.parse(/-d '(.*)'$/.exec(curl)![1].replace(/'\\''/g, "'")) as Record<string, unknown>;

describe('which examples start from a webhook (published on their first import)', () => {
	it('the Webhook-node ones and those started by a trigger of the package; not the one run by hand', () => {
		expect(examples.filter(startsFromWebhook).map((example) => example.id).sort()).toEqual(
			[
				'exoApptConfirm01',
				'exoCallManager01',
				'exoCallRoute01',
				'exoCampaignRslt1',
				'exoChatAutoRpl01',
				'exoDeliveryTrk01',
				'exoMaskedNumber1',
				'exoOrderIvr01',
				'exoRcsFallback01',
				'exoRefundApprove1',
				'exotelExampleSms01',
			].sort(),
		);
		expect(startsFromWebhook(byFile('exoCampaignList1'))).toBe(false);
	});

	it('every Webhook-node example has a sample body with exactly the fields its expressions read', () => {
		const withWebhookNode = examples.filter((example) => example.nodes.some((node) => node.type === 'n8n-nodes-base.webhook'));
		expect(Object.keys(SAMPLE_BODIES).sort()).toEqual(withWebhookNode.map((example) => example.id).sort());
		for (const example of withWebhookNode) expect([example.id, Object.keys(SAMPLE_BODIES[example.id]).sort()]).toEqual([example.id, bodyFieldsRead(example)]);
	});
});

describe("each example's webhook in the banner", () => {
	it('a Webhook node: its method and path, production and test URL, and a curl posting the sample body there', () => {
		expect(hook('exotelExampleSms01')).toEqual({
			id: 'exotelExampleSms01',
			name: 'Exotel: send an SMS when a webhook arrives',
			method: 'POST',
			path: 'order-shipped',
			productionUrl: 'http://127.0.0.1:5678/webhook/order-shipped',
			testUrl: 'http://127.0.0.1:5678/webhook-test/order-shipped',
			curl: `curl -s -X POST 'http://127.0.0.1:5678/webhook/order-shipped' -H 'content-type: application/json' -d '{"orderId":"ORD-10481","name":"Asha","phone":"+919876543210"}'`,
			next: [
				'curl -s http://127.0.0.1:4010/__sandbox/messages   (what the sandbox got)',
				'its executions in the editor: http://127.0.0.1:5678/workflow/exotelExampleSms01/executions',
			],
		});
		expect(hook('exoMaskedNumber1').next[0]).toBe('curl -s http://127.0.0.1:4010/__sandbox/allocations   (what the sandbox got)');
		expect(hook('exoRcsFallback01').next[0]).toBe('curl -s http://127.0.0.1:4010/__sandbox/rcs-messages   (what the sandbox got)');
		for (const id of Object.keys(SAMPLE_BODIES)) expect(bodyOf(hook(id).curl)).toEqual(SAMPLE_BODIES[id]);
	});

	it('a send-and-wait example says what to run next: npm run person as the number the sample body asks, with both answers', () => {
		const [reply] = hook('exoRefundApprove1').next;
		expect(reply).toBe('npm run person -- reply --to +919812340001 --button approve   (taps "Approve refund"; --button decline taps "Decline")');
		const [open] = hook('exoApptConfirm01').next;
		expect(open).toBe(
			'npm run person -- open-link --to +919845012345 --match answer=approve   (opens the "Confirm" link and presses its button; --match answer=decline for "Reschedule")',
		);
		// each is a command npm run person takes, to the sandbox of the banner
		for (const line of [reply, open]) {
			const args = line.split('   (')[0].replace('npm run person -- ', '').split(' ');
			expect(parsePersonArgs(args).url.startsWith('http://127.0.0.1:4010/__sandbox/')).toBe(true);
		}
		expect(parsePersonArgs(reply.split('   (')[0].replace('npm run person -- ', '').split(' ')).body).toEqual({ to: '+919812340001', button: 'approve' });
	});

	it('on another sandbox port the person commands name it', () => {
		const moved = exampleWebhooks(examples, { ...ORIGINS, sandbox: 'http://127.0.0.1:4999' });
		expect(moved.find((h) => h.id === 'exoRefundApprove1')!.next[0]).toMatch(/^npm run person -- reply --to \+919812340001 --button approve --sandbox http:\/\/127\.0\.0\.1:4999 /);
	});

	it("a trigger of the package is fed as the service would: the sandbox's signed incoming message, a delivery report, a campaign callback", () => {
		const autoReply = hook('exoChatAutoRpl01');
		expect(autoReply).toMatchObject({ method: 'POST', path: '948ee2f2-1f1c-4433-b2b5-9fffaedd59ef/webhook' });
		expect(autoReply.testUrl).toBe('http://127.0.0.1:5678/webhook-test/948ee2f2-1f1c-4433-b2b5-9fffaedd59ef/webhook');
		expect(autoReply.curl).toMatch(/^curl -s -X POST 'http:\/\/127\.0\.0\.1:4010\/__sandbox\/chatapp-incoming' /);

		const tracking = hook('exoDeliveryTrk01');
		expect(bodyOf(tracking.curl)).toEqual({ url: tracking.productionUrl, to: '+919876543210', status: 'failed' });
		expect(tracking.next).toContain('or run "Exotel: RCS order update with SMS fallback": its sends report here');

		const campaign = hook('exoCampaignRslt1');
		expect(campaign.curl).toContain(`'${campaign.productionUrl}?callback=campaignStatus'`);
		expect(campaign.next).toContain('or run "Exotel: call campaign from a contact list": its sends report here');
	});

	it('the banner: one block per example, saying whether it is active; no internal prefix, test variable or secret', () => {
		const active = new Set(hooks.map((h) => h.id).filter((id) => id !== 'exoApptConfirm01'));
		const lines = exampleBanner(hooks, active);
		expect(lines[0]).toMatch(/^example workflows that start from a webhook/);
		expect(lines).toContain('  "Exotel: send an SMS when a webhook arrives" (active): POST /webhook/order-shipped');
		expect(lines).toContain(
			'  "Exotel: confirm an appointment by SMS" (inactive: its production URL answers 404 until you publish it in the editor): POST /webhook/appointment-booked',
		);
		// a curl each, a call through its flow file for the call-flow examples
		expect(lines.filter((line) => line.startsWith('    try:  curl ') || line.startsWith('    try:  npm run person -- call --flow examples/call-flows/'))).toHaveLength(hooks.length);
		expect(exampleBanner(hooks)).toContain('  "Exotel: send an SMS when a webhook arrives": POST /webhook/order-shipped');
		const text = lines.join('\n');
		expect(text).not.toMatch(/n8n-e2e|N8N_E2E/);
		for (const secret of [SANDBOX_ACCOUNT.apiToken, SANDBOX_ACCOUNT.webhookSigningSecret, SANDBOX_ACCOUNT.bearerToken]) expect(text).not.toContain(secret);
	});
});

describe('the call-flow examples in the banner: npm run person -- call through each one\'s flow file', () => {
	const CALL_FLOW_EXAMPLES = ['exoCallManager01', 'exoCallRoute01', 'exoOrderIvr01'];
	const ROOT = path.join(EXAMPLES_DIR, '..');
	/** The command line of a banner line (before its "   (...)"), as npm run person's arguments. */
	const argsOf = (line: string) => line.split('   (')[0].replace(/^npm run person -- /, '').split(' ');
	const readFromRoot = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

	it('every call-flow example has its flow file (naming its triggers) and sample calls', () => {
		const callFlowExamples = examples.filter((example) => example.nodes.some((node) => node.type === 'n8n-nodes-exotel.exotelCallFlowTrigger'));
		expect(callFlowExamples.map((example) => example.id).sort()).toEqual(CALL_FLOW_EXAMPLES);
		expect(Object.keys(SAMPLE_CALLS).sort()).toEqual(CALL_FLOW_EXAMPLES);
		expect(callFlowFile(byFile('exoCallRoute01'))).toBe('examples/call-flows/route-by-lookup.flow.json');
		expect(callFlowFile(byFile('exoCallManager01'))).toBe('examples/call-flows/dial-account-manager.flow.json');
		expect(callFlowFile(byFile('exoOrderIvr01'))).toBe('examples/call-flows/order-status-ivr.flow.json');
		expect(callFlowFile(byFile('exotelExampleSms01'))).toBeUndefined();
	});

	it("the Passthru example: its trigger's GET URL with the sandbox credential's secret, then a call down each branch", () => {
		const url = `5be816c2-3fa3-45a7-8589-cf0d401f131a/passthru/5be816c2-3fa3-45a7-8589-cf0d401f131a/${SANDBOX_ACCOUNT.callFlowSecret}`;
		expect(hook('exoCallRoute01')).toEqual({
			id: 'exoCallRoute01',
			name: 'Exotel: route a caller by a lookup (call flow)',
			method: 'GET',
			path: url,
			productionUrl: `http://127.0.0.1:5678/webhook/${url}`,
			testUrl: `http://127.0.0.1:5678/webhook-test/${url}`,
			curl: 'npm run person -- call --flow examples/call-flows/route-by-lookup.flow.json --from +919876543210 --to +918041234567   (a VIP: the first branch, the priority line)',
			next: [
				'npm run person -- call --flow examples/call-flows/route-by-lookup.flow.json --from +919800011122 --to +918041234567   (another caller: the second branch, the queue)',
				"the call's flow: examples/call-flows/route-by-lookup.flow.json (its applet asks this trigger; npm run person prints what the caller heard and who was dialled)",
				'its executions in the editor: http://127.0.0.1:5678/workflow/exoCallRoute01/executions',
			],
		});
	});

	it('the Connect example: the account manager, the manager not answering, a caller without one; the IVR: a known order and an unknown one', () => {
		const manager = hook('exoCallManager01');
		expect([manager.curl, ...manager.next.slice(0, 2)].map((line) => line.split('   (')[0])).toEqual([
			'npm run person -- call --flow examples/call-flows/dial-account-manager.flow.json --from +919876543210 --to +918041234567',
			'npm run person -- call --flow examples/call-flows/dial-account-manager.flow.json --from +919876543210 --to +918041234567 --callee +919812340001=no-answer',
			'npm run person -- call --flow examples/call-flows/dial-account-manager.flow.json --from +919800011122 --to +918041234567',
		]);
		const ivr = hook('exoOrderIvr01');
		expect(ivr.path).toMatch(/^1ea7e5a7-ac03-42f9-872d-5b77c592675f\/greeting\//);
		expect([ivr.curl, ivr.next[0]].map((line) => line.split('   (')[0])).toEqual([
			'npm run person -- call --flow examples/call-flows/order-status-ivr.flow.json --from +919876543210 --to +918041234567 --press 4711#',
			'npm run person -- call --flow examples/call-flows/order-status-ivr.flow.json --from +919800011122 --to +918041234567 --press 1234#',
		]);
		expect(ivr.next).toContain(
			"the call's flow: examples/call-flows/order-status-ivr.flow.json (its applets ask this workflow's 3 triggers; npm run person prints what the caller heard and who was dialled)",
		);
	});

	it('each line is a call npm run person takes: the flow file as read from the repository, the sample call', () => {
		for (const id of CALL_FLOW_EXAMPLES) {
			const found = hook(id);
			const lines = [found.curl, ...found.next.filter((line) => line.startsWith('npm run person -- call '))];
			expect(lines).toHaveLength(SAMPLE_CALLS[id].length);
			lines.forEach((line, index) => {
				const call = SAMPLE_CALLS[id][index];
				const request = parsePersonArgs(argsOf(line), {}, readFromRoot);
				expect(request.url).toBe('http://127.0.0.1:4010/__sandbox/call-flow');
				expect(request.body).toEqual({
					flow: JSON.parse(readFromRoot(callFlowFile(byFile(id))!)),
					from: call.from,
					to: '+918041234567',
					...(call.press ? { press: call.press } : {}),
					...(call.callees ? { callees: call.callees } : {}),
				});
			});
		}
	});

	it('a call-flow workflow without a flow file or sample calls is asked once, as the service asks its URL', () => {
		const own = { ...byFile('exoCallRoute01'), id: 'myCallFlow' };
		const [found] = exampleWebhooks([own], ORIGINS);
		expect(found.curl).toBe(`curl -s '${found.productionUrl}?CallSid=sample-call&CallFrom=09876543210&CallTo=08041234567&Direction=incoming'`);
		expect(found.next).toEqual(['its executions in the editor: http://127.0.0.1:5678/workflow/myCallFlow/executions']);
	});

	it('another sandbox port is named in the calls; another n8n origin gets a note, as the flow files name dev\'s', () => {
		const moved = exampleWebhooks(examples, { n8n: 'http://127.0.0.1:5999', sandbox: 'http://127.0.0.1:4999' }).find((h) => h.id === 'exoCallRoute01')!;
		expect(moved.curl).toMatch(/ --to \+918041234567 --sandbox http:\/\/127\.0\.0\.1:4999 {3}\(/);
		expect(parsePersonArgs(argsOf(moved.curl), {}, readFromRoot).url).toBe('http://127.0.0.1:4999/__sandbox/call-flow');
		expect(moved.next).toContain('the flow file\'s URLs name http://127.0.0.1:5678: for this n8n, play a copy with http://127.0.0.1:5999 in their place');
		expect(hook('exoCallRoute01').next.filter((line) => line.includes('play a copy'))).toEqual([]);
	});
});
