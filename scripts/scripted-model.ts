/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a local HTTP model server run from a command line (http, net, process); never shipped */
/**
 * A scripted OpenAI-compatible model on loopback: an AI agent's human review tried without an account
 * or a model key (`npm run dev -- --human-review`, scripts/dev.ts), and the model of the real-n8n test of
 * it (test/e2e/human-review.e2e.test.ts). The same server is the refund endpoint the gated tool of
 * examples/newest-n8n/ai-agent-human-review.json calls. It binds 127.0.0.1 and calls nothing.
 *
 *   GET  /v1/models             the model list (the OpenAI Chat Model node's dropdown, the credential's Test)
 *   POST /v1/chat/completions   Chat Completions (the OpenAI Chat Model node 1.2; 1.3 with Use Responses API off)
 *   POST /v1/responses          the Responses API (the node's 1.3 default)
 *   POST /refund?order=&amount= the refund the gated tool issues; GET /refunds lists those issued
 *
 * What it answers is a function of the conversation only (`scriptedTurn`): to a user message asking
 * for a refund it calls the refund tool (the one whose name says refund, else the first) with the
 * order id and amount the message names (ORD-1001 and 499 when it names none); once the tool's
 * result is back, it says what happened: approved and refunded, or declined by the reviewer. No
 * streaming: a request asking for it is refused, naming the option to turn off.
 *
 * Alone: `npx ts-node --transpile-only scripts/scripted-model.ts [PORT]` (default env
 * SCRIPTED_MODEL_PORT, else 4011), for an n8n of your own: an OpenAI credential with Base URL
 * http://127.0.0.1:PORT/v1 and any API key.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export const DEFAULT_SCRIPTED_MODEL_PORT = 4011;
/** The model the example names and the list offers: OpenAI's own name, so the template runs on OpenAI unchanged. */
export const SCRIPTED_MODEL_ID = 'gpt-4o-mini';
/** When the user's message names no order or amount. */
export const DEFAULT_REFUND = { orderId: 'ORD-1001', amount: 499 } as const;

/** A message of the conversation, as Chat Completions sends it (the Responses API's input is read into these). */
export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

/** A tool the model may call: its name and JSON schema. */
export interface ToolSpec {
	name: string;
	parameters?: { properties?: Record<string, unknown> };
}

export type ScriptedTurn = { kind: 'toolCall'; id: string; name: string; arguments: Record<string, unknown> } | { kind: 'text'; text: string };

export interface RefundRecord {
	order: string | null;
	amount: number | null;
	at: string;
}

/** The text of a message's content: a string, or the text parts of a list of parts. */
export function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : typeof part?.output === 'string' ? part.output : ''))
			.join('');
	}
	if (content === undefined || content === null) return '';
	return JSON.stringify(content);
}

/** The order id and amount a request names, else the defaults. */
export function refundAsked(text: string): { orderId: string; amount: number } {
	const order = /\b([A-Z]{2,}-\d+)\b/.exec(text)?.[1];
	const amount = /(?:Rs\.?|INR|₹)\s*(\d+(?:\.\d+)?)/i.exec(text)?.[1] ?? /(\d+(?:\.\d+)?)\s*(?:INR|rupees)\b/i.exec(text)?.[1];
	return { orderId: order ?? DEFAULT_REFUND.orderId, amount: amount !== undefined ? Number(amount) : DEFAULT_REFUND.amount };
}

/** The arguments of the tool call, wrapped as a human-review tool wants them when its schema says so. */
function toolArguments(tool: ToolSpec, refund: { orderId: string; amount: number }): Record<string, unknown> {
	const properties = tool.parameters?.properties ?? {};
	return 'toolParameters' in properties ? { toolParameters: refund, hitlParameters: {} } : { ...refund };
}

/** What the reviewer's answer was, read from the tool result the agent got back. */
export function reviewOutcome(toolResult: string): 'declined' | 'refunded' | 'other' {
	// n8n's words when the reviewer declines: "User rejected the tool call to <tool> (id: ...)"; with feedback "The user reviewed your planned tool call ..."
	if (/rejected the tool call|reviewed your planned tool call|declined|not approved|denied/i.test(toolResult)) return 'declined';
	if (/"refunded"\s*:\s*true/.test(toolResult)) return 'refunded';
	return 'other';
}

/**
 * The model's next turn for a conversation: a tool call or a text. Deterministic: the same
 * messages and tools give the same turn.
 */
export function scriptedTurn(messages: ChatMessage[], tools: ToolSpec[]): ScriptedTurn {
	const conversation = messages.filter((message) => message.role !== 'system' && message.role !== 'developer');
	const last = conversation[conversation.length - 1];
	const lastUser = [...conversation].reverse().find((message) => message.role === 'user');
	const asked = refundAsked(contentText(lastUser?.content));
	if (last?.role === 'tool') {
		// the call it answers names the refund asked for
		const call = conversation.flatMap((message) => message.tool_calls ?? []).find((candidate) => candidate.id === last.tool_call_id);
		let refund = asked;
		try {
			const args = JSON.parse(call?.function.arguments ?? '{}') as { toolParameters?: typeof asked } & Partial<typeof asked>;
			refund = { ...asked, ...(args.toolParameters ?? args) };
		} catch {
			// not JSON: the refund the user asked for
		}
		const result = contentText(last.content);
		switch (reviewOutcome(result)) {
			case 'declined':
				return { kind: 'text', text: `The manager declined the refund of ${refund.amount} INR on order ${refund.orderId}: nothing was refunded.` };
			case 'refunded':
				return { kind: 'text', text: `The manager approved the refund and it was issued: ${refund.amount} INR on order ${refund.orderId}.` };
			default:
				return { kind: 'text', text: `The refund tool answered: ${result}` };
		}
	}
	if (last?.role === 'user') {
		if (!/refund/i.test(contentText(last.content))) {
			return { kind: 'text', text: 'I am a scripted model: ask me for a refund, for example "Refund order ORD-1001 of Rs 499 to the customer".' };
		}
		const tool = tools.find((candidate) => /refund/i.test(candidate.name)) ?? tools[0];
		if (!tool) return { kind: 'text', text: `I would refund ${asked.amount} INR on order ${asked.orderId}, but I have no tool to do it with.` };
		const calls = conversation.filter((message) => message.tool_calls?.length).length;
		return { kind: 'toolCall', id: `call_refund_${calls + 1}`, name: tool.name, arguments: toolArguments(tool, asked) };
	}
	return { kind: 'text', text: 'Nothing more to do.' };
}

/** A model request's JSON body; each field is checked where it is read. */
type ModelRequest = Record<string, unknown>;

/** A tool as a Chat Completions request lists it. */
interface ChatCompletionsTool {
	function?: { name?: unknown; parameters?: ToolSpec['parameters'] };
}

/** A tool as a Responses API request lists it. */
interface ResponsesTool {
	type?: unknown;
	name?: unknown;
	parameters?: ToolSpec['parameters'];
}

/** An item of a Responses API request's input: a message, a function call or a function call's output. */
interface ResponsesItem {
	type?: unknown;
	role?: unknown;
	content?: unknown;
	call_id?: unknown;
	name?: unknown;
	arguments?: unknown;
	output?: unknown;
}

/** The entries of a JSON list; none when the value is not a list. */
const listOf = <T>(value: unknown): Array<T | null | undefined> => (Array.isArray(value) ? value : []);

/** A Chat Completions request's messages and tools. */
function fromChatCompletions(body: ModelRequest): { messages: ChatMessage[]; tools: ToolSpec[] } {
	const tools = listOf<ChatCompletionsTool>(body.tools).map((tool) => ({ name: String(tool?.function?.name), parameters: tool?.function?.parameters }));
	return { messages: Array.isArray(body.messages) ? body.messages : [], tools };
}

/** A Responses API request's input and tools, read as Chat Completions messages. */
export function fromResponses(body: ModelRequest): { messages: ChatMessage[]; tools: ToolSpec[] } {
	const messages: ChatMessage[] = [];
	if (typeof body.instructions === 'string') messages.push({ role: 'system', content: body.instructions });
	const input: Array<ResponsesItem | null | undefined> = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : listOf<ResponsesItem>(body.input);
	for (const item of input) {
		if (item?.type === 'function_call') {
			messages.push({ role: 'assistant', tool_calls: [{ id: String(item.call_id), type: 'function', function: { name: String(item.name), arguments: String(item.arguments ?? '{}') } }] });
		} else if (item?.type === 'function_call_output') {
			messages.push({ role: 'tool', tool_call_id: String(item.call_id), content: item.output });
		} else if (typeof item?.role === 'string') {
			messages.push({ role: item.role, content: item.content });
		}
	}
	const tools = listOf<ResponsesTool>(body.tools)
		.filter((tool): tool is ResponsesTool => tool?.type === 'function')
		.map((tool) => ({ name: String(tool.name), parameters: tool.parameters }));
	return { messages, tools };
}

const now = () => Math.floor(Date.now() / 1000);
const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

/** A turn as a Chat Completions answer. */
export function chatCompletion(turn: ScriptedTurn, model: string, id: string): Record<string, unknown> {
	const message =
		turn.kind === 'toolCall'
			? { role: 'assistant', content: null, tool_calls: [{ id: turn.id, type: 'function', function: { name: turn.name, arguments: JSON.stringify(turn.arguments) } }] }
			: { role: 'assistant', content: turn.text };
	return {
		id: `chatcmpl-${id}`,
		object: 'chat.completion',
		created: now(),
		model,
		choices: [{ index: 0, message, finish_reason: turn.kind === 'toolCall' ? 'tool_calls' : 'stop' }],
		usage: USAGE,
	};
}

/** A turn as a Responses API answer. */
export function response(turn: ScriptedTurn, model: string, id: string): Record<string, unknown> {
	const output =
		turn.kind === 'toolCall'
			? [{ type: 'function_call', id: `fc_${id}`, call_id: turn.id, name: turn.name, arguments: JSON.stringify(turn.arguments), status: 'completed' }]
			: [{ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text, annotations: [] }] }];
	return {
		id: `resp_${id}`,
		object: 'response',
		created_at: now(),
		model,
		status: 'completed',
		output,
		usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 },
	};
}

/** The scripted model and the refund endpoint: one loopback server. */
export class ScriptedModel {
	readonly server = http.createServer((req, res) => void this.handle(req, res));
	origin = '';
	/** The refunds the gated tool issued, oldest first. */
	readonly refunds: RefundRecord[] = [];
	/** Each model request: the conversation and the tools it was given, and the turn answered. */
	readonly calls: Array<{ api: 'chat' | 'responses'; messages: ChatMessage[]; tools: ToolSpec[]; turn: ScriptedTurn }> = [];

	constructor(private readonly port = 0) {}

	/** Listens on 127.0.0.1 (port 0: any free one); rejects when the port is taken. */
	async start(): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.port, '127.0.0.1', () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		if (!this.server.listening) return;
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		this.server.closeAllConnections();
		await closed;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const json = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		const error = (status: number, message: string) => json(status, { error: { message, type: 'invalid_request_error' } });
		const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
		if (route === 'GET /refunds') return json(200, this.refunds);
		if (url.pathname === '/refund' && (req.method === 'POST' || req.method === 'GET')) {
			const amount = url.searchParams.get('amount');
			const record: RefundRecord = { order: url.searchParams.get('order'), amount: amount === null ? null : Number(amount), at: new Date().toISOString() };
			this.refunds.push(record);
			return json(200, { refunded: true, order: record.order, amount: record.amount });
		}
		if (route === 'GET /v1/models') {
			return json(200, { object: 'list', data: [{ id: SCRIPTED_MODEL_ID, object: 'model', created: 0, owned_by: 'scripted (loopback)' }] });
		}
		const api = route === 'POST /v1/chat/completions' ? 'chat' : route === 'POST /v1/responses' ? 'responses' : undefined;
		if (!api) return error(404, `not scripted: ${req.method} ${url.pathname}`);
		let body: ModelRequest;
		try {
			body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
		} catch {
			return error(400, 'the body is not JSON');
		}
		if (body.stream === true) {
			return error(400, 'the scripted model does not stream: turn streaming off (the AI Agent node, Options → Enable Streaming)');
		}
		const { messages, tools } = api === 'chat' ? fromChatCompletions(body) : fromResponses(body);
		const turn = scriptedTurn(messages, tools);
		this.calls.push({ api, messages, tools, turn });
		const model = typeof body.model === 'string' ? body.model : SCRIPTED_MODEL_ID;
		const id = String(this.calls.length);
		return json(200, api === 'chat' ? chatCompletion(turn, model, id) : response(turn, model, id));
	}
}

/** The port the script and `npm run dev` use: env SCRIPTED_MODEL_PORT, else 4011. */
export function scriptedModelPort(env: NodeJS.ProcessEnv = {}): number {
	const text = env.SCRIPTED_MODEL_PORT?.trim();
	if (!text) return DEFAULT_SCRIPTED_MODEL_PORT;
	const port = Number(text);
	if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`SCRIPTED_MODEL_PORT must be a port number (got '${text}')`);
	return port;
}

// run alone; imported, it starts nothing
if (require.main === module) {
	const model = new ScriptedModel(process.argv[2] ? Number(process.argv[2]) : scriptedModelPort(process.env));
	model.start().then(
		() => {
			process.stdout.write(`scripted model on ${model.origin}/v1 (any API key), refund endpoint ${model.origin}/refund; Ctrl-C stops it\n`);
			const stop = () => void model.stop().then(() => process.exit(0));
			process.on('SIGINT', stop);
			process.on('SIGTERM', stop);
		},
		(error: Error) => {
			process.stderr.write(`[scripted-model] ${error.message}\n`);
			process.exit(1);
		},
	);
}
