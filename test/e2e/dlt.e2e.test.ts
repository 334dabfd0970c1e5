/**
 * DLT pre-flight on a real n8n (2.8.4 and the newest) with the packed package, against a sandbox that
 * scrubs as the operators do (given the template): one workflow whose SMS Send takes DLT Template Text
 * by expression from each item. With it, the message that differs fails its item before anything is
 * sent and the others go; without it, the same message is sent, paid for, and fails its delivery
 * report with 23185 DLT_TEMPLATE_DOES_NOT_MATCH.
 */
import { SANDBOX_CREDENTIAL_IDS, sandboxCredentialData } from '../../sandbox/fixtures';
import { Receiver } from '../../sandbox/receiver';
import { ExotelSandbox } from '../../sandbox/server';
import { JEST_TIMEOUTS, makeWorkflow, N8nInstance, nodeJson, pollFor, sharedN8n, type WorkflowNode } from '../harness';

const PACKAGE = 'n8n-nodes-exotel';
const TEMPLATE_ID = '1107161234567890123';
const TEMPLATE = 'Dear {#var#}, your order {#var#} of Rs. {#var#} has shipped. - Acme';
const CUSTOMERS = [
	{ phone: '+919876543210', name: 'Asha', order: 'ORD-4721', price: 'Rs. 499' },
	{ phone: '+919876543211', name: 'Ravi', order: 'ORD-4722', price: 'Rs 1,299' },
	{ phone: '+919876543212', name: 'Meera', order: 'ORD-4723', price: 'Rs. 89' },
];

let sandbox: ExotelSandbox;
let instance: N8nInstance;
const rx = new Receiver();

beforeAll(async () => {
	await rx.start();
	sandbox = new ExotelSandbox({ timeScale: 0.01, dltTemplates: { [TEMPLATE_ID]: TEMPLATE } });
	await sandbox.start();
	instance = await sharedN8n();
	const data = sandboxCredentialData(sandbox.origin) as Record<string, Record<string, unknown>>;
	await instance.importCredentials([{ ...SANDBOX_CREDENTIAL_IDS.exotelApi, type: 'exotelApi', data: data.exotelApi }]);
}, JEST_TIMEOUTS.ensureN8n + JEST_TIMEOUTS.createInstance + JEST_TIMEOUTS.server);

afterAll(async () => {
	await instance?.dispose();
	await sandbox?.stop();
	await rx.stop();
}, JEST_TIMEOUTS.dispose);

beforeEach(() => sandbox.reset());

/** Customers → Split Out → SMS Send (each message with its template id; DLT Template Text when `checked`). */
function workflow(name: string, statusCallback: string, checked: boolean) {
	const seed: WorkflowNode = {
		name: 'Customers',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: { mode: 'raw', jsonOutput: JSON.stringify({ customers: CUSTOMERS.map((c) => ({ ...c, template: TEMPLATE })) }), options: {} },
	};
	const split: WorkflowNode = { name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'customers', options: {} } };
	const send: WorkflowNode = {
		name: 'Send SMS',
		type: `${PACKAGE}.exotelMessaging`,
		typeVersion: 2,
		onError: 'continueRegularOutput',
		parameters: {
			resource: 'sms',
			operation: 'send',
			from: 'ACMEIN',
			to: '={{ $json.phone }}',
			body: '=Dear {{ $json.name }}, your order {{ $json.order }} of {{ $json.price }} has shipped. - Acme',
			statusCallback,
			additionalFields: { dltTemplateId: TEMPLATE_ID, ...(checked ? { dltTemplateText: '={{ $json.template }}' } : {}) },
		},
		credentials: { exotelApi: SANDBOX_CREDENTIAL_IDS.exotelApi },
	};
	return makeWorkflow([seed, split, send], { name });
}

/** The delivery reports posted to `path`, once there are `n`. */
async function reports(path: string, n: number): Promise<Array<Record<string, string>>> {
	await pollFor(`${n} delivery reports at ${path}`, 30_000, async () => (rx.at(path).length >= n ? true : undefined));
	return rx.at(path).map((r) => Object.fromEntries(new URLSearchParams(r.text)));
}

test(
	'with DLT Template Text by expression, the message that differs fails before anything is sent; the others are delivered',
	async () => {
		const path = '/dlt-e2e/checked';
		const [id] = await instance.importWorkflows([workflow('DLT pre-flight e2e', rx.url(path), true)]);
		const result = await instance.executeOk(id);
		const out = nodeJson(result, 'Send SMS');
		expect(out.map((item) => [item.to ?? null, item.status ?? null, item.error ?? null])).toEqual([
			['+919876543210', 'queued', null],
			[null, null, 'Body differs from the DLT template at character 37: the template has "Rs." and the body "Rs " (item 1)'],
			['+919876543212', 'queued', null],
		]);
		// one request, without the failed message and without the template text
		const [request, ...more] = sandbox.requests({ method: 'POST' });
		expect(more).toEqual([]);
		expect(request.form!.filter(([key]) => key.endsWith('[To]')).map(([, value]) => value)).toEqual(['+919876543210', '+919876543212']);
		expect(JSON.stringify(request.form)).not.toContain('{#var#}');
		const delivered = await reports(path, 2);
		expect(delivered.map((report) => [report.To, report.Status]).sort()).toEqual([
			['+919876543210', 'sent'],
			['+919876543212', 'sent'],
		]);
	},
	JEST_TIMEOUTS.execute * 2,
);

test(
	'without it, the same message is sent and paid for, and its delivery report fails with 23185',
	async () => {
		const path = '/dlt-e2e/unchecked';
		const [id] = await instance.importWorkflows([workflow('DLT unchecked e2e', rx.url(path), false)]);
		const result = await instance.executeOk(id);
		expect(nodeJson(result, 'Send SMS').map((item) => item.status)).toEqual(['queued', 'queued', 'queued']);
		const byTo = Object.fromEntries((await reports(path, 3)).map((report) => [report.To, report]));
		expect(byTo['+919876543211']).toMatchObject({ Status: 'failed', DetailedStatus: 'DLT_TEMPLATE_DOES_NOT_MATCH', DetailedStatusCode: '23185' });
		expect(byTo['+919876543210'].Status).toBe('sent');
	},
	JEST_TIMEOUTS.execute * 2,
);
