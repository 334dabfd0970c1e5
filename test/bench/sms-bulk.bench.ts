/**
 * SMS bulk bench: Exotel Messaging → SMS → Send over N personalised items (dynamic bulk, 100
 * messages a request, 6 requests in flight) against a one-request-per-item baseline written the
 * way the SMS nodes that ship with n8n are (Twilio / Vonage: a loop over the items, one awaited
 * HTTP request each), both through n8n-core's real WorkflowExecute and the package's shared
 * transport `exotelRequest`, against the Exotel sandbox running in a child process with a fixed
 * simulated latency.
 *
 * Measured per run in this process: requests made (the sandbox's request log, control API), wall
 * time, CPU time per message (`process.cpuUsage()` around `runWorkflow`, divided by N; this
 * includes n8n-core's engine, parameter and expression work and the HTTP client, not the
 * sandbox), peak rss and peak heapUsed over the pre-run (post-GC) figure, output count and
 * pairing (every output's `to` is the number of the input item it is paired to).
 *
 * A CPU breakdown runs the same workflows with the sandbox at 0 ms latency: the items node
 * alone, a node with the package node's description that only reads the parameters the SMS send
 * operation reads (n8n-core's parameter and expression cost), and the package node itself.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { SMS as SMS_ENDPOINTS } from '../../nodes/ExotelMessaging/endpoints';
import { exotelRequest } from '../../nodes/shared/transport/request';
import { NodeRun } from '../../nodes/shared/transport/run';
import { breakdownLines, bulkTargets, onePerItemDescription, onePerItemNode, packageMessagingNode, pairedCell, parametersOnly, ratioLines, RUN_ROWS, runBulkBench, runsLines, runsOf, settingLines, targetLines, wallSpeedups, type BulkOptions, type BulkReport, type RunRow } from './bulk';
import { BenchFailure, int, round, type BenchSubject, type Recipient } from './common';

export type SmsBulkOptions = BulkOptions;

const SEND_PARAMETERS = {
	from: 'EXOTEL',
	to: '={{ $json.phone }}',
	body: '=Hi {{ $json.name }}, order {{ $json.orderId }} has shipped',
};

const expectedBody = (r: Recipient) => `Hi ${r.name}, order ${r.orderId} has shipped`;

function packageSmsNode(): INode {
	return packageMessagingNode('bench-exotel', { resource: 'sms', operation: 'send', ...SEND_PARAMETERS } as INodeParameters);
}

/**
 * The baseline: one request per item, awaited in turn, as n8n's Twilio and Vonage nodes do; same
 * parameters read with getNodeParameter, same shared transport, the single-message endpoint.
 */
export class OnePerItemSms implements INodeType {
	description: INodeTypeDescription = onePerItemDescription({
		displayName: 'Bench: SMS One Request per Item',
		name: 'benchOnePerItemSms',
		description: 'Sends each item as its own request (bench baseline)',
		properties: [
			{ displayName: 'From', name: 'from', type: 'string', default: '' },
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'string', default: '' },
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const from = this.getNodeParameter('from', i) as string;
			const to = this.getNodeParameter('to', i) as string;
			const body = this.getNodeParameter('body', i) as string;
			const response = await exotelRequest(this, NodeRun.alone(), {
				endpoint: SMS_ENDPOINTS.send,
				form: { From: from, To: to, Body: body },
				itemIndex: i,
			});
			// The service answers one SMSMessage (the sandbox: a list of one, as for static bulk).
			const answer = Array.isArray(response.body) ? (response.body[0] as IDataObject) : (response.body as IDataObject);
			const message = (answer?.SMSMessage ?? answer) as IDataObject;
			// The same item the package node gives (its message keys, the SMSMessage under raw), so the
			// two outputs are alike.
			const status = String(message?.Status ?? '').toLowerCase();
			out.push({
				json: {
					messageSid: (message?.Sid as string) ?? null,
					status: status.startsWith('fail') ? 'failed' : status || null,
					channel: 'sms',
					to: (message?.To as string) ?? null,
					from,
					code: (message?.DetailedStatusCode as number) ?? null,
					raw: message,
				},
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

/** What the shared measured run needs to know of the SMS bench. */
const SMS: BenchSubject = {
	packageNode: packageSmsNode,
	baselineNode: () => onePerItemNode('bench-one-per-item', 'benchOnePerItemSms', { ...SEND_PARAMETERS }),
	baselineType: () => new OnePerItemSms(),
	// What the SMS send operation reads per item: the plain values first (from, additionalFields
	// twice, statusCallback), then the two expressions (to, body). Through the package's own reader:
	// plain values once, simple $json templates from the item.
	...parametersOnly(packageSmsNode, {
		id: 'bench-parameters-only',
		name: 'benchParametersOnly',
		displayName: 'Bench: Parameters Only',
		plainReads: 4,
		readPlain(read, count) {
			for (let i = 0; i < count; i++) {
				String(read('from', i, ''));
				read('additionalFields', i, {});
				read('additionalFields', i, {});
				read('statusCallback', i, '');
			}
		},
		expressionReads: 2,
		readExpressions(read, count) {
			const out: INodeExecutionData[] = [];
			for (let i = 0; i < count; i++) {
				const to = String(read('to', i, ''));
				String(read('body', i, ''));
				out.push({ json: { to }, pairedItem: { item: i } });
			}
			return out;
		},
	}),
	checkOutput(label, position, item, input, sends) {
		if (item.json.status === 'failed') {
			throw new BenchFailure(`${label}: output ${position} failed: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
		if (sends) {
			const raw = (item.json.raw ?? {}) as IDataObject;
			if (item.json.channel !== 'sms' || typeof item.json.messageSid !== 'string' || item.json.messageSid !== raw.Sid) {
				throw new BenchFailure(`${label}: output ${position} is not a sent SMS in the message keys: ${JSON.stringify(item.json).slice(0, 300)}`);
			}
			if (raw.Body !== expectedBody(input)) {
				throw new BenchFailure(`${label}: output ${position} has raw.Body ${JSON.stringify(raw.Body)}, expected ${JSON.stringify(expectedBody(input))}`);
			}
		}
	},
	async accepted(label, sandbox, inputs) {
		const { messages } = await sandbox.health();
		if (messages !== inputs.length) throw new BenchFailure(`${label}: the sandbox accepted ${messages} messages for ${inputs.length} items`);
		return messages;
	},
};

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

export interface SmsBulkReport extends BulkReport {
	bench: 'sms-bulk';
}

export async function runSmsBulkBench(options: SmsBulkOptions): Promise<SmsBulkReport> {
	const runs = await runBulkBench('sms-bulk', SMS, options);
	const { baseline } = runs;
	const { likeForLike, wallSpeedup, wallSpeedupEstimatedAtSameLatency } = wallSpeedups(runs, options, baseline ? baseline.wallMs : null);
	return {
		bench: 'sms-bulk',
		config: {
			items: runs.items,
			latencyMs: options.latencyMs,
			baselineLatencyMs: options.skipBaseline ? null : options.baselineLatencyMs,
			...runs.setting,
		},
		package: runs.package,
		baseline,
		breakdown: runs.breakdown,
		ratios: {
			wallSpeedup,
			wallSpeedupEstimatedAtSameLatency,
			requestsRatio: baseline ? round(baseline.requests / runs.package.requests, 2) : null,
		},
		targets: bulkTargets(runs, wallSpeedup, likeForLike),
		totalBenchMs: runs.elapsedMs,
	};
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

const ROWS: RunRow[] = [
	RUN_ROWS.items,
	RUN_ROWS.latency,
	RUN_ROWS.requests,
	['messages accepted (sandbox)', (f) => int(f.acceptedMessages)],
	RUN_ROWS.wall,
	RUN_ROWS.nodeExecution,
	RUN_ROWS.cpu,
	RUN_ROWS.cpuPerMessage,
	RUN_ROWS.peakRss,
	RUN_ROWS.peakRssDelta,
	RUN_ROWS.peakHeapDelta,
	RUN_ROWS.outputs,
	['every output To = its input number', pairedCell],
];

export function formatSmsBulkReport(r: SmsBulkReport): string {
	const c = r.config;
	return [
		...settingLines(c, '=== SMS bulk bench: Exotel Messaging → SMS → Send vs one request per item ===', `items ${int(c.items)}`),
		...runsLines(runsOf(r), ROWS),
		...breakdownLines(r.breakdown, {
			items: 'same items',
			parametersRun: '+ reading the send parameters (parameterReader: $json templates from the item)',
			packageRun: '+ the package node itself (send operation + HTTP)',
			perRead: (expression, plain) =>
				`one parameter read: ${expression} µs for an expression (to, body), ${plain} µs for a plain value (from, additionalFields, statusCallback)`,
		}),
		...ratioLines(r),
		...targetLines(r),
	].join('\n');
}
