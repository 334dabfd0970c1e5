/**
 * Gather (dynamic URL): GET with the call's parameters and `Exotel-Version: 1.0`, the Fallback URL
 * next; a 200 `application/json` menu. The caller hears the prompt and presses the next entry of the
 * call's `press` list; nothing pressed, the prompt is heard again `repeat_menu` times before the
 * Gather fails. The digits go with the next applets' requests (`digits="1234"`), never back here.
 */
import { EXOTEL_VERSION_HEADER, getPlan, type AppletContext, type StepEnd } from './context';
import { integerField, isObject, jsonAnswer, objectField, oneOfField, stringField, urlField, type FieldCheck } from './json-answer';
import { flowParams, withQuery } from './params';
import type { Judge } from './requests';
import type { GatherApplet } from './types';

/** Hearings of the menu a call sits through at most, whatever repeat_menu asks (no caller waits longer). */
export const MAX_MENU_HEARINGS = 20;

export const FINISH_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#', ''] as const;

const promptField: FieldCheck = (value, name) => {
	const problem = objectField({ text: stringField, audio_url: urlField })(value, name);
	if (problem) return problem;
	const given = Object.keys(value as object);
	return given.length === 1 ? undefined : `${name} must have exactly one of text, audio_url (got ${given.join(', ') || 'neither'})`;
};

const GATHER_ANSWER = objectField(
	{
		gather_prompt: promptField,
		max_input_digits: integerField(1, 255),
		finish_on_key: oneOfField(FINISH_KEYS),
		input_timeout: integerField(1),
		repeat_menu: integerField(0),
		repeat_gather_prompt: promptField,
	},
	['gather_prompt'],
);

interface Menu {
	prompt: string;
	repeatPrompt: string;
	maxDigits: number;
	finishOnKey: string;
	repeatMenu: number;
}

/** What the caller hears of a prompt. */
function heardOf(prompt: unknown): string {
	const { text, audio_url: audio } = prompt as { text?: string; audio_url?: string };
	return text ?? `audio: ${audio ?? ''}`;
}

const gatherJudge: Judge<Menu> = (answer) => {
	const read = jsonAnswer(answer, GATHER_ANSWER);
	if ('fail' in read) return read;
	const menu = read.value;
	const prompt = heardOf(menu.gather_prompt);
	return {
		value: {
			prompt,
			repeatPrompt: isObject(menu.repeat_gather_prompt) ? heardOf(menu.repeat_gather_prompt) : prompt,
			maxDigits: (menu.max_input_digits as number | undefined) ?? 255,
			finishOnKey: (menu.finish_on_key as string | undefined) ?? '#',
			repeatMenu: (menu.repeat_menu as number | undefined) ?? 0,
		},
	};
};

/** The digits one entry of `press` gives: up to the finish key (not included), at most max_input_digits. */
function digitsOf(entry: string | undefined, menu: Menu): string {
	let digits = entry ?? '';
	const end = menu.finishOnKey === '' ? -1 : digits.indexOf(menu.finishOnKey);
	if (end >= 0) digits = digits.slice(0, end);
	return digits.slice(0, menu.maxDigits);
}

export async function playGather(applet: GatherApplet, ctx: AppletContext): Promise<StepEnd> {
	const plan = (url: string) => getPlan(withQuery(url, flowParams(ctx.call)), { ...EXOTEL_VERSION_HEADER });
	const verdict = await ctx.fetcher.fetchFirst([applet.url, applet.fallbackUrl], plan, ctx.requests, gatherJudge);
	if ('fail' in verdict) return { outcome: 'failed', reason: verdict.fail, next: applet.next.failed };
	const menu = verdict.value;
	const hearings = Math.min(1 + menu.repeatMenu, MAX_MENU_HEARINGS);
	for (let hearing = 0; hearing < hearings; hearing++) {
		ctx.heard.push(hearing === 0 ? menu.prompt : menu.repeatPrompt);
		const digits = digitsOf(ctx.press.shift(), menu);
		if (digits !== '') {
			ctx.call.digits = digits;
			return { outcome: 'gathered', next: applet.next.gathered };
		}
	}
	ctx.call.digits = '';
	return { outcome: 'failed', reason: 'no input', next: applet.next.failed };
}
