/**
 * RCS bulk bench: Exotel Messaging → RCS → Send Template over N personalised items (up to 100
 * messages a request, 6 requests in flight) against a bench-only baseline that sends one RCS
 * message per request (a loop over the items, one awaited HTTP request each, as n8n's Twilio /
 * Vonage nodes do for SMS), both through n8n-core's real WorkflowExecute and the package's shared
 * transport `exotelRequest` (POST /v2/accounts/{accountSid}/messages), against the Exotel sandbox
 * running in a child process with a fixed simulated latency.
 *
 * Measured as in sms-bulk.bench.ts: requests made (sandbox request log), wall time, CPU time per
 * message in this process, peak rss / heapUsed over the post-GC figure, output count and pairing
 * (every output's `to` is the number of the input item it is paired to). The sandbox's accepted
 * RCS messages are checked too: one per item, with that item's name and order id as the template
 * variables.
 *
 * The baseline costs about N × (latency + ~1.5 ms) of wall time, so it runs over the first
 * `baselineItems` items only (default 2000) and its wall time is extrapolated linearly to N
 * (wall / baselineItems × N); the report labels every extrapolated figure as such.
 *
 * A CPU breakdown runs the same workflows with the sandbox at 0 ms latency: the items node alone,
 * a node with the package node's description that only reads the parameters the RCS send
 * template operation reads (through the same parameterReader), and the package node itself.
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

import { MESSAGES } from '../../nodes/ExotelMessaging/endpoints';
import { exotelRequest } from '../../nodes/shared/transport/request';
import { NodeRun } from '../../nodes/shared/transport/run';
import { breakdownLines, bulkTargets, onePerItemDescription, onePerItemNode, packageMessagingNode, pairedCell, parametersOnly, ratioLines, RUN_ROWS, runBulkBench, runsLines, runsOf, settingLines, targetLines, wallSpeedups, type BulkConfig, type BulkOptions, type BulkRatios, type BulkReport } from './bulk';
import { BenchFailure, int, n, round, type BenchSubject, type Recipient, type RunFigures } from './common';
import type { SandboxProcess } from './sandbox-process';

export const DEFAULT_RCS_BASELINE_ITEMS = 2000;

export interface RcsBulkOptions extends BulkOptions {
	/** Items for the one-request-per-item baseline (capped at items); its wall time is extrapolated to items. */
	baselineItems: number;
}

// ---------------------------------------------------------------------------------------------
// Workflows
// ---------------------------------------------------------------------------------------------

const BOT_ID = 'acme_orders_bot';
const TEMPLATE_NAME = 'order_update';

const SEND_PARAMETERS = {
	botId: BOT_ID,
	to: '={{ $json.phone }}',
	templateName: TEMPLATE_NAME,
	templateVariables: { TemplateParam1: '={{ $json.name }}', TemplateParam2: '={{ $json.orderId }}' },
};

const expectedVariables = (r: Recipient) => ({ TemplateParam1: r.name, TemplateParam2: r.orderId });

function packageRcsNode(): INode {
	return packageMessagingNode('bench-exotel-rcs', { resource: 'rcs', operation: 'sendTemplate', ...SEND_PARAMETERS } as INodeParameters);
}

/**
 * The baseline: one RCS message per request, awaited in turn; same parameters read with
 * getNodeParameter, same shared transport and endpoint, `{ rcs: { messages: [one message] } }`.
 */
export class OnePerItemRcs implements INodeType {
	description: INodeTypeDescription = onePerItemDescription({
		displayName: 'Bench: RCS One Request per Item',
		name: 'benchOnePerItemRcs',
		description: 'Sends each item as its own RCS request (bench baseline)',
		properties: [
			{ displayName: 'Bot ID', name: 'botId', type: 'string', default: '' },
			{ displayName: 'To', name: 'to', type: 'string', default: '' },
			{ displayName: 'Template Name', name: 'templateName', type: 'string', default: '' },
			{
				displayName: 'Template Variables',
				name: 'templateVariables',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Template Param 1', name: 'TemplateParam1', type: 'string', default: '' },
					{ displayName: 'Template Param 2', name: 'TemplateParam2', type: 'string', default: '' },
				],
			},
		],
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const botId = this.getNodeParameter('botId', i) as string;
			const to = this.getNodeParameter('to', i) as string;
			const templateName = this.getNodeParameter('templateName', i) as string;
			const variables = this.getNodeParameter('templateVariables', i, {}) as IDataObject;
			const message: IDataObject = {
				from: botId,
				to,
				content: { type: 'template', template: { name: templateName, variables } },
			};
			const response = await exotelRequest(this, NodeRun.alone(), {
				endpoint: MESSAGES.send,
				body: { rcs: { messages: [message] } },
				itemIndex: i,
			});
			const envelope = (response.body ?? {}) as IDataObject;
			const entry = ((((envelope.response as IDataObject | undefined)?.rcs as IDataObject | undefined)?.messages ?? []) as IDataObject[])[0] ?? {};
			const data = (entry.data ?? {}) as IDataObject;
			// The same item the package node gives (its message keys, the service's success as
			// accepted, the envelope entry under raw), so the two outputs are alike.
			const status = entry.status === 'success' ? 'accepted' : entry.status === 'failure' ? 'failed' : ((entry.status as string) ?? null);
			out.push({
				json: {
					messageSid: (data.sid as string) ?? null,
					status,
					channel: 'rcs',
					to,
					from: botId,
					code: (entry.code as number) ?? null,
					requestId: (envelope.request_id as string) ?? null,
					raw: entry,
				},
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

/** The sandbox accepted exactly one message per item, from the bot, with the item's name and order id. */
async function checkAccepted(label: string, sandbox: SandboxProcess, inputs: Recipient[]): Promise<number> {
	const accepted = await sandbox.rcsMessages();
	if (accepted.length !== inputs.length) {
		throw new BenchFailure(`${label}: the sandbox accepted ${accepted.length} RCS messages for ${inputs.length} items`);
	}
	const byPhone = new Map(inputs.map((r) => [r.phone, r]));
	const seen = new Set<string>();
	for (const message of accepted) {
		const input = byPhone.get(message.to);
		if (!input || seen.has(message.to)) throw new BenchFailure(`${label}: unexpected or duplicate accepted recipient ${message.to}`);
		seen.add(message.to);
		const want = expectedVariables(input);
		const got = message.template.variables;
		if (message.from !== BOT_ID || message.template.name !== TEMPLATE_NAME || got.TemplateParam1 !== want.TemplateParam1 || got.TemplateParam2 !== want.TemplateParam2) {
			throw new BenchFailure(`${label}: accepted message for ${message.to} is ${JSON.stringify(message).slice(0, 300)}, expected variables ${JSON.stringify(want)}`);
		}
	}
	return accepted.length;
}

/** What the shared measured run needs to know of the RCS bench. */
const RCS: BenchSubject = {
	packageNode: packageRcsNode,
	baselineNode: () => onePerItemNode('bench-one-per-item-rcs', 'benchOnePerItemRcs', { ...SEND_PARAMETERS } as INodeParameters),
	baselineType: () => new OnePerItemRcs(),
	// What the RCS send template operation reads per item, through the package's parameterReader
	// (plain values read once then cached, expressions per item).
	...parametersOnly(packageRcsNode, {
		id: 'bench-rcs-parameters-only',
		name: 'benchRcsParametersOnly',
		displayName: 'Bench: RCS Parameters Only',
		plainReads: 5,
		readPlain(read, count) {
			for (let i = 0; i < count; i++) {
				String(read('botId', i, ''));
				String(read('templateName', i, ''));
				read('statusCallback', i, '');
				read('options', i, {});
				read('smsFallback', i, false);
			}
		},
		expressionReads: 2,
		readExpressions(read, count) {
			const out: INodeExecutionData[] = [];
			for (let i = 0; i < count; i++) {
				const to = String(read('to', i, ''));
				read('templateVariables', i, {});
				out.push({ json: { to }, pairedItem: { item: i } });
			}
			return out;
		},
	}),
	checkOutput(label, position, item, input, sends) {
		if (sends && item.json.status !== 'accepted') {
			throw new BenchFailure(`${label}: output ${position} failed: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
		if (sends && (item.json.channel !== 'rcs' || typeof item.json.messageSid !== 'string' || (item.json.raw as IDataObject | undefined)?.status !== 'success')) {
			throw new BenchFailure(`${label}: output ${position} is not an accepted RCS message in the message keys: ${JSON.stringify(item.json).slice(0, 300)}`);
		}
	},
	accepted: checkAccepted,
};

// ---------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------

export interface RcsBulkReport extends BulkReport {
	bench: 'rcs-bulk';
	config: BulkConfig & {
		baselineItems: number | null;
		botId: string;
		templateName: string;
		extrapolationNote: string;
	};
	/** measured over config.baselineItems items */
	baseline: RunFigures | null;
	/** the baseline scaled linearly to config.items (wall × items / baselineItems); equal to the measured figures when baselineItems == items */
	baselineExtrapolated: {
		items: number;
		extrapolated: boolean;
		requests: number;
		wallMs: number;
		wallMsPerItem: number;
		cpuTotalMs: number;
		cpuPerMessageUs: number;
	} | null;
	ratios: BulkRatios & {
		/** extrapolated baseline wall (at N items) / package wall */
		wallSpeedup: number | null;
		wallSpeedupExtrapolated: boolean;
		/** baseline requests (extrapolated to N) / package requests */
		requestsRatio: number | null;
		cpuPerMessageRatio: number | null;
	};
}

export async function runRcsBulkBench(options: RcsBulkOptions): Promise<RcsBulkReport> {
	const runs = await runBulkBench('rcs-bulk', RCS, options, options.baselineItems);
	const { items: N, baselineItems: baselineN, baseline } = runs;
	const pkg = runs.package;
	let baselineExtrapolated: RcsBulkReport['baselineExtrapolated'] = null;
	if (baseline) {
		const scale = N / baselineN;
		baselineExtrapolated = {
			items: N,
			extrapolated: baselineN !== N,
			requests: Math.round(baseline.requests * scale),
			wallMs: round(baseline.wallMs * scale, 1),
			wallMsPerItem: round(baseline.wallMs / baselineN, 3),
			cpuTotalMs: round(baseline.cpuTotalMs * scale, 1),
			cpuPerMessageUs: baseline.cpuPerMessageUs,
		};
	}

	const extrapolated = baselineExtrapolated?.extrapolated ?? false;
	const { likeForLike, wallSpeedup, wallSpeedupEstimatedAtSameLatency } = wallSpeedups(runs, options, baselineExtrapolated ? baselineExtrapolated.wallMs : null);
	return {
		bench: 'rcs-bulk',
		config: {
			items: N,
			baselineItems: options.skipBaseline ? null : baselineN,
			latencyMs: options.latencyMs,
			baselineLatencyMs: options.skipBaseline ? null : options.baselineLatencyMs,
			botId: BOT_ID,
			templateName: TEMPLATE_NAME,
			...runs.setting,
			extrapolationNote:
				baselineN === N
					? 'the baseline ran over every item; nothing extrapolated'
					: `the baseline ran over the first ${baselineN} of ${N} items; its wall time, requests and CPU total at ${N} items are extrapolated linearly (× ${round(N / baselineN, 3)}); its CPU per message is measured`,
		},
		package: pkg,
		baseline,
		baselineExtrapolated,
		breakdown: runs.breakdown,
		ratios: {
			wallSpeedup,
			wallSpeedupExtrapolated: extrapolated,
			wallSpeedupEstimatedAtSameLatency,
			requestsRatio: baselineExtrapolated ? round(baselineExtrapolated.requests / pkg.requests, 2) : null,
			cpuPerMessageRatio: baseline ? round(baseline.cpuPerMessageUs / pkg.cpuPerMessageUs, 2) : null,
		},
		targets: bulkTargets(runs, wallSpeedup, likeForLike, extrapolated),
		totalBenchMs: runs.elapsedMs,
	};
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

export function formatRcsBulkReport(r: RcsBulkReport): string {
	const c = r.config;
	const x = r.baselineExtrapolated;
	const extrapolatedColumn = x && x.extrapolated;
	const extrapolatedTag = r.ratios.wallSpeedupExtrapolated ? ` (EXTRAPOLATED: baseline measured over ${int(c.baselineItems)} items, scaled to ${int(c.items)})` : '';
	return [
		...settingLines(
			c,
			'=== RCS bulk bench: Exotel Messaging → RCS → Send Template vs one request per item ===',
			`items ${int(c.items)} (baseline ${c.baselineItems === null ? 'skipped' : `${int(c.baselineItems)} items`})`,
			[`bot ${c.botId}, template ${c.templateName}, variables TemplateParam1 = name, TemplateParam2 = order id`],
			r.baseline ? [`baseline: ${c.extrapolationNote}.`] : [],
		),
		...runsLines(
			runsOf(r),
			[
				[...RUN_ROWS.items, `${int(x?.items)} (est.)`],
				[...RUN_ROWS.latency, int(r.baseline?.sandboxLatencyMs)],
				[...RUN_ROWS.requests, `${int(x?.requests)} (est.)`],
				['RCS messages accepted (sandbox)', (f) => int(f.acceptedMessages)],
				[...RUN_ROWS.wall, `${n(x?.wallMs)} (est.)`],
				['  wall time per item (ms)', (f) => n(f.wallMs / f.items, 3), `${n(x?.wallMsPerItem, 3)} (measured)`],
				RUN_ROWS.nodeExecution,
				[...RUN_ROWS.cpu, `${n(x?.cpuTotalMs)} (est.)`],
				[...RUN_ROWS.cpuPerMessage, `${n(x?.cpuPerMessageUs, 2)} (measured)`],
				RUN_ROWS.peakRss,
				RUN_ROWS.peakRssDelta,
				RUN_ROWS.peakHeapDelta,
				RUN_ROWS.outputs,
				['every output to = its input number', pairedCell],
				['accepted variables = item name, order id', (f) => (f.acceptedMessages === f.items ? 'yes' : 'n/a')],
			],
			extrapolatedColumn ? `one request per item, EXTRAPOLATED to ${int(x.items)}` : undefined,
		),
		...breakdownLines(r.breakdown, {
			items: `same ${int(c.items)} items`,
			parametersRun: '+ reading the send template parameters (parameterReader → getNodeParameter)',
			packageRun: '+ the package node itself (send template operation + HTTP)',
			perRead: (expression, plain) =>
				`per read: ${expression} µs for an expression parameter (to, templateVariables), ` +
				`${plain} µs for a plain one (botId, templateName, statusCallback, options, smsFallback; read once, then cached by parameterReader)`,
		}),
		...ratioLines(r, { speedupTag: extrapolatedTag, requestsTag: r.ratios.wallSpeedupExtrapolated ? ' (baseline requests extrapolated)' : '' }, [
			`CPU per message ratio (baseline / package): ${r.ratios.cpuPerMessageRatio === null ? 'n/a' : `${n(r.ratios.cpuPerMessageRatio, 2)}×`} (both measured)`,
		]),
		...targetLines(r),
	].join('\n');
}
