/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads the example workflows (fs, path, __dirname); never shipped */
/**
 * The example workflows as `npm run dev` sees them: which start from a webhook (published on their
 * first import), and, for its banner, each one's webhook (method, path, production and test URL),
 * a ready `curl` with a sample body (for a call-flow example, the `npm run person -- call` that
 * plays a call through its flow file), and what to run next. Pure: the banner is built from the
 * example files, the origins and which workflows are active.
 */
import fs from 'fs';
import path from 'path';

import { DEFAULT_SANDBOX_PORT } from '../sandbox/cli';
import { SANDBOX_ACCOUNT } from '../sandbox/fixtures';
import { parsePersonArgs } from './person';

const REPO_ROOT = path.join(__dirname, '..');
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/**
 * The call flows the call-flow examples are called through (`npm run person -- call --flow ...`): the
 * sandbox's flow format, their applets' URLs the triggers' production URLs on `npm run dev`'s n8n.
 */
export const CALL_FLOWS_DIR = path.join(EXAMPLES_DIR, 'call-flows');
/** Where the examples' URLs expect n8n: `npm run dev`'s (scripts/dev.ts, N8N_DEV_PORT unset). */
export const DEV_N8N_ORIGIN = 'http://127.0.0.1:5678';
/**
 * Examples that need the newest n8n (2.8.4 has no human-review tools): a folder of their own, so that
 * `readExamples()` and every reader of examples/*.json (2.8.4's suites) leave them out;
 * `npm run dev -- --human-review` imports them too.
 */
export const NEWEST_EXAMPLES_DIR = path.join(EXAMPLES_DIR, 'newest-n8n');
/** examples/newest-n8n/ai-agent-human-review.json: an AI agent whose refund tool the manager approves on WhatsApp. */
export const HUMAN_REVIEW_EXAMPLE_ID = 'exoAgentReview01';

export interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	webhookId?: string;
}

export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: ExampleNode[];
	[key: string]: unknown;
}

/** The example workflows of examples/, each with its fixed id, in file order. */
export function readExamples(dir: string = EXAMPLES_DIR): ExampleWorkflow[] {
	return fs
		.readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ExampleWorkflow);
}

const WEBHOOK_NODE = 'n8n-nodes-base.webhook';
const MESSAGING = 'n8n-nodes-exotel.exotelMessaging';
const MESSAGING_TRIGGER = 'n8n-nodes-exotel.exotelMessagingTrigger';
const VOICE_TRIGGER = 'n8n-nodes-exotel.exotelVoiceTrigger';
const CALL_FLOW_TRIGGER = 'n8n-nodes-exotel.exotelCallFlowTrigger';
/** Exotel Messaging as an AI agent's human-review tool (n8n makes it from the node's send-and-wait operation). */
const MESSAGING_HITL_TOOL = 'n8n-nodes-exotel.exotelMessagingHitlTool';

/** The node an example starts from when that is a webhook: n8n's Webhook node or one of the package's triggers. */
export function webhookTrigger(example: ExampleWorkflow): ExampleNode | undefined {
	return example.nodes.find((node) => [WEBHOOK_NODE, MESSAGING_TRIGGER, VOICE_TRIGGER, CALL_FLOW_TRIGGER].includes(node.type));
}

/** Published on first import: an example that starts from a webhook answers at its production URL as imported. */
export function startsFromWebhook(example: ExampleWorkflow): boolean {
	return webhookTrigger(example) !== undefined;
}

/**
 * A body for each example's webhook: the fields its sticky note asks for (and its expressions read,
 * `bodyFieldsRead`), with numbers the sandbox treats as ordinary recipients; the send-and-wait ones
 * use the numbers `npm run person`'s own examples answer as.
 */
export const SAMPLE_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
	exoMaskedNumber1: { orderId: 'ORD-10483', customerPhone: '+919876543210', driverPhone: '+919812345678' },
	exoRefundApprove1: { orderId: 'ORD-10490', amount: 1200, customerName: 'Asha Rao', managerPhone: '+919812340001' },
	exoApptConfirm01: { patientName: 'Ravi', slot: 'Mon 2 Dec, 10:30', phone: '+919845012345' },
	exoRcsFallback01: { orderId: 'ORD-10482', name: 'Ravi', phone: '+919876543211' },
	exotelExampleSms01: { orderId: 'ORD-10481', name: 'Asha', phone: '+919876543210' },
};

/** The same for the examples of examples/newest-n8n/ (imported by `--human-review` only). */
export const NEWEST_SAMPLE_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
	[HUMAN_REVIEW_EXAMPLE_ID]: { request: 'Refund order ORD-1001 of Rs 499 to the customer' },
};

/** The fields of the webhook's body an example's expressions read (`$json.body.x`, `$('Node').item.json.body.x`). */
export function bodyFieldsRead(example: ExampleWorkflow): string[] {
	const text = JSON.stringify(example.nodes.map((node) => node.parameters));
	return [...new Set([...text.matchAll(/json\.body\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]))].sort();
}

/** The ExoPhone the sample calls come in on (the Connect example shows it to its callees too). */
export const SAMPLE_CALL_TO = '+918041234567';

/** One call to play through a call-flow example: the caller, what they key at each Gather, how callees behave, what they get. */
export interface SampleCall {
	from: string;
	press?: string[];
	callees?: Record<string, 'answers' | 'no-answer' | 'busy'>;
	/** What the caller gets, for the banner. */
	gets: string;
}

/**
 * Calls for each call-flow example, its first the one the banner offers first: each branch of the
 * workflow, with callers its lookups know (+919876543210) and do not know (+919800011122).
 */
export const SAMPLE_CALLS: Readonly<Record<string, readonly SampleCall[]>> = {
	exoCallRoute01: [
		{ from: '+919876543210', gets: 'a VIP: the first branch, the priority line' },
		{ from: '+919800011122', gets: 'another caller: the second branch, the queue' },
	],
	exoCallManager01: [
		{ from: '+919876543210', gets: 'a customer: dialled to their account manager' },
		{ from: '+919876543210', callees: { '+919812340001': 'no-answer' }, gets: 'their account manager does not answer: the team line next' },
		{ from: '+919800011122', gets: 'a caller without an account manager: the team line' },
	],
	exoOrderIvr01: [
		{ from: '+919876543210', press: ['4711#'], gets: 'greeted with their latest order, keys order 4711: shipped' },
		{ from: '+919800011122', press: ['1234#'], gets: 'an unknown caller keys an order there is none of: unknown' },
	],
};

/**
 * The flow file (repository-relative, e.g. `examples/call-flows/route-by-lookup.flow.json`) whose
 * applets ask an example's call-flow triggers: the one naming its first trigger's webhook id.
 */
export function callFlowFile(example: ExampleWorkflow, dir: string = CALL_FLOWS_DIR): string | undefined {
	const trigger = example.nodes.find((node) => node.type === CALL_FLOW_TRIGGER && node.webhookId);
	if (!trigger || !fs.existsSync(dir)) return undefined;
	const file = fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.find((name) => fs.readFileSync(path.join(dir, name), 'utf8').includes(`/webhook/${trigger.webhookId}/`));
	return file && path.relative(REPO_ROOT, path.join(dir, file)).split(path.sep).join('/');
}

export interface Origins {
	/** n8n's base URL, e.g. http://127.0.0.1:5678 */
	n8n: string;
	/** the sandbox's origin, e.g. http://127.0.0.1:4010 */
	sandbox: string;
}

export interface ExampleWebhook {
	id: string;
	name: string;
	method: string;
	/** the path after /webhook/ */
	path: string;
	productionUrl: string;
	testUrl: string;
	/** A ready command that makes the workflow run. */
	curl: string;
	/** What to run or look at next. */
	next: string[];
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlPost(url: string, body: unknown): string {
	return `curl -s -X POST ${quote(url)} -H 'content-type: application/json' -d ${quote(JSON.stringify(body))}`;
}

/** The sample body's value of the field an expression like `={{ $json.body.phone }}` reads. */
function sampleValue(expression: unknown, body: Record<string, unknown> | undefined): string | undefined {
	const field = typeof expression === 'string' ? /json\.body\.([A-Za-z_][A-Za-z0-9_]*)/.exec(expression)?.[1] : undefined;
	const value = field && body ? body[field] : undefined;
	return value === undefined ? undefined : String(value);
}

/** The choices of a send-and-wait approval: `approve`, and `decline` unless it is a single button, with their labels. */
function approvalChoices(node: ExampleNode): Array<{ id: string; label: string }> {
	const values = ((node.parameters.approvalOptions as { values?: Record<string, unknown> } | undefined)?.values ?? {}) as Record<string, unknown>;
	const choices = [{ id: 'approve', label: String(values.approveLabel ?? 'Approve') }];
	if (values.approvalType !== 'single') choices.push({ id: 'decline', label: String(values.disapproveLabel ?? 'Decline') });
	return choices;
}

/**
 * An `npm run person` command line, with the sandbox flag when the sandbox is not on the default
 * port; checked to be one npm run person takes (a --flow file read from the repository's root, where
 * npm runs it).
 */
function personCommand(args: string[], sandbox: string): string {
	const port = new URL(sandbox).port;
	const all = [...args, ...(port === String(DEFAULT_SANDBOX_PORT) ? [] : ['--sandbox', sandbox])];
	parsePersonArgs(all, {}, (file) => fs.readFileSync(path.resolve(REPO_ROOT, file), 'utf8'));
	return `npm run person -- ${all.map((arg) => (/[\s'"{}]/.test(arg) ? quote(arg) : arg)).join(' ')}`;
}

/** The `npm run person` command that answers a send-and-wait node as its person (the sandbox flag when not the default port). */
function personSteps(node: ExampleNode, body: Record<string, unknown> | undefined, sandbox: string): string[] {
	const literal = typeof node.parameters.to === 'string' && !node.parameters.to.startsWith('=') ? node.parameters.to : undefined;
	const to = sampleValue(node.parameters.to, body) ?? literal ?? 'NUMBER';
	const command = (args: string[]) => personCommand(args, sandbox);
	const [approve, decline] = approvalChoices(node);
	const other = (text: string) => (decline ? `; ${text}` : '');
	// the human-review tool asks on the chat app (the first resource with a send-and-wait operation)
	switch (node.type === MESSAGING_HITL_TOOL ? (node.parameters.resource ?? 'chatApp') : node.parameters.resource) {
		case 'chatApp':
			return [
				`${command(['reply', '--to', to, '--button', approve.id])}   (taps "${approve.label}"${other(`--button ${decline?.id} taps "${decline?.label}"`)})`,
			];
		case 'sms':
			return [
				`${command(['open-link', '--to', to, '--match', `answer=${approve.id}`])}   (opens the "${approve.label}" link and presses its button${other(`--match answer=${decline?.id} for "${decline?.label}"`)})`,
			];
		case 'rcs':
			return [`${command(['reply', '--to', to, '--suggestion', JSON.stringify({ reply: { text: approve.label, postback_data: approve.id } })])}   (taps "${approve.label}")`];
		default:
			return [];
	}
}

/** The `npm run person -- call` that plays a sample call through a call-flow example's flow file, with what the caller gets. */
function callCommand(flowFile: string, call: SampleCall, sandbox: string): string {
	const args = ['call', '--flow', flowFile, '--from', call.from, '--to', SAMPLE_CALL_TO];
	for (const keys of call.press ?? []) args.push('--press', keys);
	for (const [number, behaviour] of Object.entries(call.callees ?? {})) args.push('--callee', `${number}=${behaviour}`);
	return `${personCommand(args, sandbox)}   (${call.gets})`;
}

/** What an example's run leaves in the sandbox, to look at after the curl. */
function sandboxRecords(example: ExampleWorkflow, sandbox: string): string[] {
	const lists = new Set<string>();
	for (const node of example.nodes) {
		if (node.type === MESSAGING) {
			const resource = node.parameters.resource;
			lists.add(resource === 'rcs' ? 'rcs-messages' : resource === 'chatApp' ? 'chatapp-messages' : 'messages');
		} else if (node.type === 'n8n-nodes-exotel.exotelNumberAllocation') lists.add('allocations');
	}
	return [...lists].map((list) => `curl -s ${sandbox}/__sandbox/${list}   (what the sandbox got)`);
}

/**
 * The scripted model's refund endpoint (scripts/scripted-model.ts) that a tool of the example calls:
 * its list of the refunds issued, to look at after the person answered.
 */
function refundsIssued(example: ExampleWorkflow): string[] {
	for (const node of example.nodes) {
		const origin = typeof node.parameters.url === 'string' ? /^=?(http:\/\/127\.0\.0\.1:\d+)\/refund\?/.exec(node.parameters.url)?.[1] : undefined;
		if (origin) return [`curl -s ${origin}/refunds   (the refunds the gated tool issued: one after an approval, none after a decline)`];
	}
	return [];
}

/** The examples whose node parameters name `url` (e.g. a send whose status callback is another example's trigger). */
function examplesPointingAt(examples: ExampleWorkflow[], url: string, self: ExampleWorkflow): ExampleWorkflow[] {
	return examples.filter((example) => example !== self && JSON.stringify(example.nodes.map((node) => node.parameters)).includes(url));
}

/**
 * Each example that starts from a webhook: its URLs, a ready curl and what to run next. A Webhook
 * node is called with its sample body; a trigger of the package is fed as the service would: the
 * sandbox posts a signed incoming message, or a delivery report, or the trigger gets a campaign callback.
 */
export function exampleWebhooks(examples: ExampleWorkflow[], origins: Origins): ExampleWebhook[] {
	const found: ExampleWebhook[] = [];
	for (const example of examples) {
		const trigger = webhookTrigger(example);
		if (!trigger) continue;
		if (trigger.type === CALL_FLOW_TRIGGER) {
			found.push(callFlowWebhook(example, trigger, origins));
			continue;
		}
		const isWebhookNode = trigger.type === WEBHOOK_NODE;
		const webhookPath = isWebhookNode ? String(trigger.parameters.path ?? '').replace(/^\/+/, '') : `${trigger.webhookId}/webhook`;
		const method = isWebhookNode ? String(trigger.parameters.httpMethod ?? 'GET') : 'POST';
		const productionUrl = `${origins.n8n}/webhook/${webhookPath}`;
		const testUrl = `${origins.n8n}/webhook-test/${webhookPath}`;
		const body = SAMPLE_BODIES[example.id] ?? NEWEST_SAMPLE_BODIES[example.id];
		const next: string[] = [];
		let curl: string;
		if (isWebhookNode) {
			curl = method === 'GET' ? `curl -s ${quote(productionUrl)}` : curlPost(productionUrl, body ?? {});
			const waiting = example.nodes.filter((node) => (node.type === MESSAGING && node.parameters.operation === 'sendAndWait') || node.type === MESSAGING_HITL_TOOL);
			for (const node of waiting) next.push(...personSteps(node, body, origins.sandbox));
			next.push(...refundsIssued(example));
			if (!waiting.length) next.push(...sandboxRecords(example, origins.sandbox));
		} else {
			const events = (trigger.parameters.events as string[] | undefined) ?? [];
			if (trigger.type === VOICE_TRIGGER) {
				curl = curlPost(`${productionUrl}?callback=campaignStatus`, { campaign_sid: 'sample-campaign', name: 'Delivery feedback survey', status: 'Completed' });
			} else if (events.includes('chatAppIncoming')) {
				// signed by the sandbox and posted to the URL the trigger registered when it was published
				curl = curlPost(`${origins.sandbox}/__sandbox/chatapp-incoming`, { from: '+919812345678', type: 'text', text: 'Hi, where is my order?' });
				next.push(`curl -s ${origins.sandbox}/__sandbox/chatapp-messages   (the auto-reply the sandbox got)`);
			} else {
				curl = curlPost(`${origins.sandbox}/__sandbox/sms-callback`, { url: productionUrl, to: '+919876543210', status: 'failed' });
			}
			for (const feeder of examplesPointingAt(examples, productionUrl, example)) {
				next.push(`or run "${feeder.name}": its sends report here`);
			}
		}
		next.push(`its executions in the editor: ${origins.n8n}/workflow/${example.id}/executions`);
		found.push({ id: example.id, name: example.name, method, path: webhookPath, productionUrl, testUrl, curl, next });
	}
	return found;
}

/**
 * A call-flow example: its (first) trigger's URLs, the GET the service sends, with the sandbox
 * credential's secret in place of `:secret`; the sample calls through its flow file, each an
 * `npm run person -- call` (the sandbox asks its triggers as the service would while the caller waits).
 */
function callFlowWebhook(example: ExampleWorkflow, trigger: ExampleNode, origins: Origins): ExampleWebhook {
	const applet = String(trigger.parameters.applet ?? 'passthru');
	const webhookPath = `${trigger.webhookId}/${applet}/${trigger.webhookId}/${SANDBOX_ACCOUNT.callFlowSecret}`;
	const productionUrl = `${origins.n8n}/webhook/${webhookPath}`;
	const testUrl = `${origins.n8n}/webhook-test/${webhookPath}`;
	const flowFile = callFlowFile(example);
	const calls = SAMPLE_CALLS[example.id] ?? [];
	const next: string[] = [];
	let curl: string;
	if (flowFile && calls.length) {
		const [first, ...others] = calls.map((call) => callCommand(flowFile, call, origins.sandbox));
		curl = first;
		next.push(...others);
		const triggers = example.nodes.filter((node) => node.type === CALL_FLOW_TRIGGER).length;
		next.push(`the call's flow: ${flowFile} (${triggers > 1 ? `its applets ask this workflow's ${triggers} triggers` : 'its applet asks this trigger'}; npm run person prints what the caller heard and who was dialled)`);
		if (origins.n8n !== DEV_N8N_ORIGIN) next.push(`the flow file's URLs name ${DEV_N8N_ORIGIN}: for this n8n, play a copy with ${origins.n8n} in their place`);
	} else {
		// no flow to call it through: asked once as the service asks (a GET with the call's parameters)
		curl = `curl -s ${quote(`${productionUrl}?CallSid=sample-call&CallFrom=09876543210&CallTo=08041234567&Direction=incoming`)}`;
	}
	next.push(`its executions in the editor: ${origins.n8n}/workflow/${example.id}/executions`);
	return { id: example.id, name: example.name, method: 'GET', path: webhookPath, productionUrl, testUrl, curl, next };
}

/**
 * The banner's example section. `active`: the ids of the workflows that are active now (undefined:
 * not known), so an inactive one says why its production URL answers 404.
 */
export function exampleBanner(webhooks: ExampleWebhook[], active?: ReadonlySet<string>): string[] {
	if (!webhooks.length) return [];
	const lines = [
		'example workflows that start from a webhook (production URL: while the workflow is active; test URL: while the editor listens for a test event):',
	];
	for (const hook of webhooks) {
		const state = !active ? '' : active.has(hook.id) ? ' (active)' : ' (inactive: its production URL answers 404 until you publish it in the editor)';
		lines.push(`  "${hook.name}"${state}: ${hook.method} /webhook/${hook.path}`);
		lines.push(`    production ${hook.productionUrl}`);
		lines.push(`    test       ${hook.testUrl}`);
		lines.push(`    try:  ${hook.curl}`);
		for (const step of hook.next) lines.push(`    then: ${step}`);
	}
	return lines;
}
