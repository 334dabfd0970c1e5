/**
 * `npm run dev`'s banner, built from the example files (scripts/dev-examples.ts): each example that
 * starts from a webhook with its method, path, production and test URL, a ready curl with a sample
 * body, and what to run next (`npm run person ...` for the send-and-wait ones). No n8n, no network.
 */
import { SANDBOX_ACCOUNT } from '../../sandbox/fixtures';
import { bodyFieldsRead, exampleBanner, exampleWebhooks, readExamples, SAMPLE_BODIES, startsFromWebhook } from '../../scripts/dev-examples';
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
			['exoApptConfirm01', 'exoCampaignRslt1', 'exoChatAutoRpl01', 'exoDeliveryTrk01', 'exoMaskedNumber1', 'exoRcsFallback01', 'exoRefundApprove1', 'exotelExampleSms01'].sort(),
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
		expect(lines.filter((line) => line.startsWith('    try:  curl '))).toHaveLength(hooks.length);
		expect(exampleBanner(hooks)).toContain('  "Exotel: send an SMS when a webhook arrives": POST /webhook/order-shipped');
		const text = lines.join('\n');
		expect(text).not.toMatch(/n8n-e2e|N8N_E2E/);
		for (const secret of [SANDBOX_ACCOUNT.apiToken, SANDBOX_ACCOUNT.webhookSigningSecret, SANDBOX_ACCOUNT.bearerToken]) expect(text).not.toContain(secret);
	});
});
