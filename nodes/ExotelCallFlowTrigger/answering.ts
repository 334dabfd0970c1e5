// Holding a call-flow request open until the workflow answers it, or the fallback answer goes.
import type { IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ANSWER_MARK, type CallFlowAnswer } from '../shared/callFlows/answers';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** Who gave the answer the service got. */
export type AnsweredBy = 'workflow' | 'fallback' | 'trigger';

export interface HeldAnswer extends CallFlowAnswer {
	by: AnsweredBy;
	/** Why the fallback went: the workflow was too slow, or it ended without answering. */
	reason?: 'slow' | 'noAnswer';
}

export interface HeldRequest {
	/** Answers now unless the request is answered already; false when it was. */
	answer(answer: CallFlowAnswer, by: AnsweredBy, reason?: HeldAnswer['reason']): boolean;
	/** The answer the service got, once it went. */
	readonly answered: Promise<HeldAnswer>;
}

/** One request's writes: whether its answer went, whether the one being written is the Answer operation's. */
interface Writes {
	done: boolean;
	marked: boolean;
	/** Writes `answer` as the whole response, whatever was set before. */
	write(answer: CallFlowAnswer, by: AnsweredBy, reason?: HeldAnswer['reason']): void;
	/** Lets the Answer operation's response through as n8n wrote it. */
	pass(chunk: unknown): void;
}

/**
 * Takes over the writes to `res` for one request: the first answer wins and later writes do
 * nothing. n8n writes the Answer operation's answer (it carries ANSWER_MARK) or, when the workflow
 * ends without one, an empty 200 (2.8.4) or an error (newer): those become the fallback, as does a
 * workflow slower than `budgetMs`. Nothing reaches the service before `end`, so an unmarked write is
 * still ours to replace then.
 */
export function holdRequest(res: Response, fallback: CallFlowAnswer, budgetMs: number): HeldRequest {
	let settle: (answer: HeldAnswer) => void = () => undefined;
	const answered = new Promise<HeldAnswer>((resolve) => (settle = resolve));
	const writes = guardWrites(res, settle);
	res.end = ((chunk?: unknown) => {
		if (writes.done) return res;
		if (writes.marked) writes.pass(chunk);
		else writes.write(fallback, 'fallback', 'noAnswer');
		return res;
	}) as never;
	// The service hung up first: nothing more can reach it
	res.on('close', () => {
		if (writes.done) return;
		writes.done = true;
		settle({ ...fallback, by: 'fallback', reason: 'slow' });
	});
	// not cancelled when answered (sleepWithAbort is gone from newer n8n-workflow): it then finds the request done
	void sleep(budgetMs).then(() => {
		if (!writes.done) writes.write(fallback, 'fallback', 'slow');
	});
	return {
		answer(answer, by, reason) {
			if (writes.done) return false;
			writes.write(answer, by, reason);
			return true;
		},
		answered,
	};
}

/** Replaces the header and body writers of `res` with ones that do nothing once the answer went. */
function guardWrites(res: Response, settle: (answer: HeldAnswer) => void): Writes {
	const original = {
		setHeader: res.setHeader.bind(res),
		setHeaders: res.setHeaders.bind(res),
		removeHeader: res.removeHeader.bind(res),
		end: res.end.bind(res),
	};
	const writes: Writes = {
		done: false,
		marked: false,
		write(answer, by, reason) {
			writes.done = true;
			for (const name of res.getHeaderNames()) original.removeHeader(name);
			res.statusCode = answer.status;
			original.setHeader('Content-Type', answer.contentType);
			original.setHeader('Content-Length', String(Buffer.byteLength(answer.body)));
			original.end(answer.body);
			settle({ ...answer, by, ...(reason ? { reason } : {}) });
		},
		pass(chunk) {
			writes.done = true;
			const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
			original.end(chunk as string);
			settle({ status: res.statusCode, contentType: String(res.getHeader('content-type') ?? ''), body, by: 'workflow' });
		},
	};
	// `as never`: each keeps the overloads of the method it stands in for
	res.setHeader = ((name: string, value: number | string | readonly string[]) => {
		if (name.toLowerCase() === ANSWER_MARK) writes.marked = true;
		else if (!writes.done) original.setHeader(name, value);
		return res;
	}) as never;
	// newer n8n sets a response's headers at once (Node's setHeaders, which throws once they are sent)
	res.setHeaders = ((headers: Parameters<Response['setHeaders']>[0]) => {
		if (!writes.done) original.setHeaders(headers);
		return res;
	}) as never;
	res.removeHeader = ((name: string) => {
		if (!writes.done) original.removeHeader(name);
	}) as never;
	// Written in parts only by a stream: never an answer an applet takes
	res.write = (() => true) as never;
	return writes;
}
