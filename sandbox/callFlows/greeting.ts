/**
 * Greeting: static text is spoken with no request; text from a URL is a HEAD (the service checks the
 * content type) then a GET, with CallSid, From, To, DialWhomNumber, CustomField. Only a 200
 * `text/plain` is taken: the text spoken, or the audio files played in order when every non-empty line
 * is an http(s) URL. Anything else: the caller hears nothing and the flow goes on.
 */
import { getPlan, textPlainProblem, type AppletContext, type StepEnd } from './context';
import { greetingParams, withQuery } from './params';
import type { Judge, UrlAnswer } from './requests';
import type { GreetingApplet } from './types';

function plainProblem(answer: UrlAnswer): string | undefined {
	if (answer.status !== 200) return `status ${answer.status}`;
	return textPlainProblem(answer.mediaType, answer.contentType);
}

const headJudge: Judge<true> = (answer) => {
	const problem = plainProblem(answer);
	return problem ? { fail: problem } : { value: true };
};

/** What the caller hears of a taken answer. */
const greetingJudge: Judge<string[]> = (answer) => {
	const problem = plainProblem(answer);
	if (problem) return { fail: problem };
	const lines = answer.body
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== '');
	if (!lines.length) return { fail: 'invalid: empty text' };
	if (lines.every((line) => /^https?:\/\/\S+$/i.test(line))) return { value: lines.map((url) => `audio: ${url}`) };
	return { value: [answer.body.trim()] };
};

export async function playGreeting(applet: GreetingApplet, ctx: AppletContext): Promise<StepEnd> {
	const next = applet.next.next;
	if (applet.url === undefined) {
		ctx.heard.push(applet.text ?? '');
		return { outcome: 'spoken', next };
	}
	const url = withQuery(applet.url, greetingParams(ctx.call));
	const head = await ctx.fetcher.fetch({ method: 'HEAD', url, headers: {} }, ctx.requests, headJudge);
	if ('fail' in head) return { outcome: 'failed', reason: head.fail, next };
	const spoken = await ctx.fetcher.fetch(getPlan(url), ctx.requests, greetingJudge);
	if ('fail' in spoken) return { outcome: 'failed', reason: spoken.fail, next };
	ctx.heard.push(...spoken.value);
	return { outcome: 'spoken', next };
}
