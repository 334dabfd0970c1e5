/**
 * Passthru (call-flows.md): sync, the call waits and branches on the status (200 first, anything else
 * answered second); with a Switch Case after it, a 200 `text/plain` `{"select": "<case>"}` picks the
 * case. Async: the request goes and the call goes on at once; its answer is recorded, never read.
 */
import { getPlan, textPlainProblem, type AppletContext, type StepEnd } from './context';
import { flowParams, withQuery } from './params';
import type { Judge } from './requests';
import type { PassthruApplet } from './types';

type Branch = { branch: 'first' | 'second' } | { branch: 'case'; name: string };

/** The case a Switch Case answer selects: exactly `{"select": "<string>"}`. */
function selected(body: string): string | { invalid: string } {
	let value: unknown;
	try {
		value = JSON.parse(body);
	} catch {
		return { invalid: 'invalid: body is not {"select": "<case>"} (not JSON)' };
	}
	const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
	const select = (value as { select?: unknown } | null)?.select;
	if (keys.length !== 1 || typeof select !== 'string') return { invalid: `invalid: body is not {"select": "<case>"} (got ${body.slice(0, 100)})` };
	return select;
}

function passthruJudge(cases: Record<string, string> | undefined): Judge<Branch> {
	return (answer) => {
		if (answer.status !== 200) return { value: { branch: 'second' }, label: 'second', reason: `status ${answer.status}` };
		if (!cases) return { value: { branch: 'first' }, label: 'first' };
		const wrongType = textPlainProblem(answer.mediaType, answer.contentType);
		if (wrongType) return { fail: wrongType };
		const name = selected(answer.body);
		if (typeof name !== 'string') return { fail: name.invalid };
		if (!Object.prototype.hasOwnProperty.call(cases, name)) {
			return { fail: `invalid: unknown case '${name}' (cases: ${Object.keys(cases).join(', ')})` };
		}
		return { value: { branch: 'case', name }, label: `case:${name}` };
	};
}

export async function playPassthru(applet: PassthruApplet, ctx: AppletContext): Promise<StepEnd> {
	const plan = getPlan(withQuery(applet.url, flowParams(ctx.call)));
	if (applet.mode === 'async') {
		ctx.fetcher.detach(plan, ctx.requests);
		return { outcome: 'async', next: applet.next.next };
	}
	const verdict = await ctx.fetcher.fetch(plan, ctx.requests, passthruJudge(applet.cases));
	if ('fail' in verdict) return { outcome: 'second', reason: verdict.fail, next: applet.next.second };
	const taken = verdict.value;
	if (taken.branch === 'case') return { outcome: `case:${taken.name}`, next: applet.cases?.[taken.name] };
	const end: StepEnd = { outcome: taken.branch, next: applet.next[taken.branch] };
	if (verdict.reason !== undefined) end.reason = verdict.reason;
	return end;
}
