/**
 * The scripted model of `npm run dev -- --human-review` and of the human-review e2e test
 * (scripts/scripted-model.ts): its turns for the scripted conversation, the same over Chat Completions
 * and the Responses API, the model list, the refund endpoint, loopback only. Its server is started on
 * a free port of 127.0.0.1; nothing leaves the machine.
 */
import {
	DEFAULT_REFUND,
	fromResponses,
	refundAsked,
	reviewOutcome,
	ScriptedModel,
	scriptedModelPort,
	scriptedTurn,
	type ChatMessage,
	type ToolSpec,
} from '../../scripts/scripted-model';

const ASK = 'Refund order ORD-1001 of Rs 499 to the customer';
/** The gated tool as n8n gives it to the model behind a human-review tool: the tool's input under toolParameters. */
const GATED: ToolSpec = { name: 'Issue_Refund', parameters: { properties: { toolParameters: {}, hitlParameters: {} } } };
/** n8n's words to the agent when the reviewer declines. */
const DECLINED = 'User rejected the tool call to Issue_Refund (id: call_refund_1). STOP what you are doing and wait for the user to tell you how to proceed. The tool is still available if needed.';

const system: ChatMessage = { role: 'system', content: 'You handle refund requests.' };
const toolCallMessage = (args: Record<string, unknown>): ChatMessage => ({
	role: 'assistant',
	content: null,
	tool_calls: [{ id: 'call_refund_1', type: 'function', function: { name: 'Issue_Refund', arguments: JSON.stringify(args) } }],
});
const toolResult = (content: string): ChatMessage => ({ role: 'tool', tool_call_id: 'call_refund_1', content });

describe('the scripted conversation', () => {
	it('a user asking for a refund: a call of the gated tool with the order and amount asked for, wrapped for human review', () => {
		expect(scriptedTurn([system, { role: 'user', content: ASK }], [{ name: 'Other_Tool' }, GATED])).toEqual({
			kind: 'toolCall',
			id: 'call_refund_1',
			name: 'Issue_Refund',
			arguments: { toolParameters: { orderId: 'ORD-1001', amount: 499 }, hitlParameters: {} },
		});
		// a tool not behind human review gets its input as it is
		expect(scriptedTurn([{ role: 'user', content: 'Please refund ORD-77 for INR 1200.50' }], [{ name: 'refund' }])).toMatchObject({
			kind: 'toolCall',
			name: 'refund',
			arguments: { orderId: 'ORD-77', amount: 1200.5 },
		});
	});

	it('deterministic: the same conversation, the same turn; an order or amount not named takes the defaults', () => {
		const messages = [system, { role: 'user', content: ASK }];
		expect(scriptedTurn(messages, [GATED])).toEqual(scriptedTurn(messages, [GATED]));
		expect(refundAsked('refund my last order please')).toEqual(DEFAULT_REFUND);
		expect(refundAsked('refund 250 rupees on AB-12')).toEqual({ orderId: 'AB-12', amount: 250 });
		// a message given as parts, as the node sends some
		expect(scriptedTurn([{ role: 'user', content: [{ type: 'text', text: ASK }] }], [GATED])).toMatchObject({ kind: 'toolCall' });
	});

	it('approved: the tool ran and answered; the final text says the refund was issued', () => {
		const messages = [system, { role: 'user', content: ASK }, toolCallMessage({ toolParameters: { orderId: 'ORD-1001', amount: 499 }, hitlParameters: {} })];
		expect(scriptedTurn([...messages, toolResult('{"refunded":true,"order":"ORD-1001","amount":499}')], [GATED])).toEqual({
			kind: 'text',
			text: 'The manager approved the refund and it was issued: 499 INR on order ORD-1001.',
		});
		// the tool's result as n8n may give it, in a list
		expect(scriptedTurn([...messages, toolResult('[{"refunded": true,"order":"ORD-1001"}]')], [GATED])).toMatchObject({ text: expect.stringMatching(/^The manager approved/) });
	});

	it('declined: the final text says so, and that nothing was refunded', () => {
		const messages = [system, { role: 'user', content: ASK }, toolCallMessage({ toolParameters: { orderId: 'ORD-1001', amount: 499 }, hitlParameters: {} }), toolResult(DECLINED)];
		expect(scriptedTurn(messages, [GATED])).toEqual({ kind: 'text', text: 'The manager declined the refund of 499 INR on order ORD-1001: nothing was refunded.' });
		expect(reviewOutcome('The user reviewed your planned tool call to Issue_Refund (id: x) and provided feedback: "not this one".')).toBe('declined');
	});

	it('anything else: another tool answer is passed on; a message that asks for no refund, or no tool, gets a text', () => {
		const messages = [{ role: 'user', content: ASK }, toolCallMessage({ orderId: 'ORD-1001', amount: 499 }), toolResult('{"error":"order not found"}')];
		expect(scriptedTurn(messages, [GATED])).toEqual({ kind: 'text', text: 'The refund tool answered: {"error":"order not found"}' });
		expect(scriptedTurn([{ role: 'user', content: 'hello' }], [GATED])).toMatchObject({ kind: 'text', text: expect.stringMatching(/^I am a scripted model: ask me for a refund/) });
		expect(scriptedTurn([{ role: 'user', content: ASK }], [])).toEqual({ kind: 'text', text: 'I would refund 499 INR on order ORD-1001, but I have no tool to do it with.' });
	});

	it("the Responses API's input reads as the same conversation", () => {
		const read = fromResponses({
			instructions: 'You handle refund requests.',
			input: [
				{ type: 'message', role: 'user', content: [{ type: 'input_text', text: ASK }] },
				{ type: 'function_call', call_id: 'call_refund_1', name: 'Issue_Refund', arguments: '{"toolParameters":{"orderId":"ORD-1001","amount":499}}' },
				{ type: 'function_call_output', call_id: 'call_refund_1', output: DECLINED },
			],
			tools: [{ type: 'function', name: 'Issue_Refund', parameters: GATED.parameters }],
		});
		expect(read.tools).toEqual([GATED]);
		expect(read.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
		expect(scriptedTurn(read.messages, read.tools)).toMatchObject({ text: expect.stringMatching(/^The manager declined/) });
	});
});

describe('the server (127.0.0.1, a free port)', () => {
	const model = new ScriptedModel();
	beforeAll(() => model.start());
	afterAll(() => model.stop());

	/** What the tests read of a chat completion. */
	type ChatCompletion = { choices: Array<{ message: { tool_calls: Array<{ id: string; function: { arguments: string } }> } }> };
	/** What the tests read of a Responses API answer. */
	type ResponsesAnswer = { output: unknown[] };

	const post = async <T = unknown>(path: string, body?: unknown) => {
		const res = await fetch(`${model.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
		return { status: res.status, body: (await res.json()) as T };
	};

	it('listens on loopback only', () => {
		expect(model.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(model.server.address()).toMatchObject({ address: '127.0.0.1' });
	});

	it('GET /v1/models: the model the example names', async () => {
		const res = await fetch(`${model.origin}/v1/models`);
		expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toEqual(['gpt-4o-mini']);
	});

	it('POST /v1/chat/completions: the tool call, then the final text, as OpenAI answers', async () => {
		const tools = [{ type: 'function', function: { name: 'Issue_Refund', parameters: GATED.parameters } }];
		const first = await post<ChatCompletion>('/v1/chat/completions', { model: 'gpt-4o-mini', messages: [system, { role: 'user', content: ASK }], tools });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null } }] });
		const call = first.body.choices[0].message.tool_calls[0];
		expect(JSON.parse(call.function.arguments)).toEqual({ toolParameters: { orderId: 'ORD-1001', amount: 499 }, hitlParameters: {} });
		const second = await post<ChatCompletion>('/v1/chat/completions', {
			model: 'gpt-4o-mini',
			messages: [system, { role: 'user', content: ASK }, first.body.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"refunded":true}' }],
			tools,
		});
		expect(second.body.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'The manager approved the refund and it was issued: 499 INR on order ORD-1001.' } });
	});

	it('POST /v1/responses: the same turns as Responses API output', async () => {
		const first = await post<ResponsesAnswer>('/v1/responses', { model: 'gpt-4o-mini', input: ASK, tools: [{ type: 'function', name: 'Issue_Refund', parameters: GATED.parameters }] });
		expect(first.body).toMatchObject({ object: 'response', status: 'completed', output: [{ type: 'function_call', call_id: 'call_refund_1', name: 'Issue_Refund' }] });
		const second = await post<ResponsesAnswer>('/v1/responses', {
			input: [{ role: 'user', content: ASK }, first.body.output[0], { type: 'function_call_output', call_id: 'call_refund_1', output: DECLINED }],
		});
		expect(second.body.output).toEqual([
			expect.objectContaining({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The manager declined the refund of 499 INR on order ORD-1001: nothing was refunded.', annotations: [] }] }),
		]);
	});

	it('the refund endpoint issues and lists refunds; streaming and unknown routes are refused, naming why', async () => {
		expect(await post('/refund?order=ORD-1001&amount=499')).toEqual({ status: 200, body: { refunded: true, order: 'ORD-1001', amount: 499 } });
		expect(model.refunds).toEqual([{ order: 'ORD-1001', amount: 499, at: expect.any(String) }]);
		expect(await (await fetch(`${model.origin}/refunds`)).json()).toEqual(model.refunds);
		expect(await post('/v1/chat/completions', { stream: true, messages: [] })).toEqual({ status: 400, body: { error: expect.objectContaining({ message: expect.stringMatching(/does not stream.*Enable Streaming/) }) } });
		expect(await post('/v1/embeddings', {})).toMatchObject({ status: 404, body: { error: { message: 'not scripted: POST /v1/embeddings' } } });
	});

	it('the port: SCRIPTED_MODEL_PORT, else 4011; a taken one is refused', async () => {
		expect([scriptedModelPort({}), scriptedModelPort({ SCRIPTED_MODEL_PORT: '4999' })]).toEqual([4011, 4999]);
		expect(() => scriptedModelPort({ SCRIPTED_MODEL_PORT: 'x' })).toThrow("SCRIPTED_MODEL_PORT must be a port number (got 'x')");
		const taken = new ScriptedModel(Number(new URL(model.origin).port));
		await expect(taken.start()).rejects.toThrow(/EADDRINUSE/);
	});
});
