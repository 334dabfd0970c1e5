/**
 * A flow as the sandbox is given it (JSON), checked before any request: every applet of a known kind
 * with only its own fields, every URL on loopback (the sandbox requests nothing else), every
 * transition naming an applet or 'hangup'. A CallFlowInputError names the bad field.
 */
import { isLoopbackUrl } from '../callbacks';
import { DEFAULT_FLOW_ID } from './params';
import { APPLET_KINDS, CallFlowInputError, type Applet, type AppletKind, type CallFlow, type Transitions } from './types';

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each kind's fields, and its transitions (an object's keys; 'next' alone is a plain string). */
const FIELDS: Record<AppletKind, { fields: string[]; transitions: (applet: Obj) => string[] }> = {
	passthru: { fields: ['kind', 'url', 'mode', 'cases', 'next'], transitions: (a) => (a.mode === 'async' ? ['next'] : ['first', 'second']) },
	connect: { fields: ['kind', 'url', 'fallbackUrl', 'style', 'next'], transitions: () => ['ended', 'noAnswer', 'notDialled'] },
	gather: { fields: ['kind', 'url', 'fallbackUrl', 'next'], transitions: () => ['gathered', 'failed'] },
	greeting: { fields: ['kind', 'url', 'text', 'next'], transitions: () => ['next'] },
};

function fail(message: string): never {
	throw new CallFlowInputError(message);
}

function loopbackUrl(value: unknown, where: string): string {
	if (typeof value !== 'string' || value === '') fail(`${where} must be a URL (got ${JSON.stringify(value) ?? 'nothing'})`);
	if (!isLoopbackUrl(value)) {
		fail(`${where} must be a loopback http(s) URL (127.0.0.1, localhost, [::1]): the sandbox requests nothing else (got '${value}')`);
	}
	return value;
}

function oneOf<T extends string>(value: unknown, values: readonly T[], fallback: T, where: string): T {
	if (value === undefined) return fallback;
	if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
	return fail(`${where} must be one of ${values.join(', ')} (got ${JSON.stringify(value)})`);
}

/** `next` as an object of the kind's transitions, or (a single transition) a string. */
function transitionsOf(value: unknown, names: string[], where: string): Transitions {
	if (value === undefined) return {};
	if (names.length === 1 && names[0] === 'next') {
		if (typeof value !== 'string') fail(`${where} must be the name of the next applet or 'hangup' (got ${JSON.stringify(value)})`);
		return { next: value };
	}
	if (!isObj(value)) fail(`${where} must be an object {${names.join(', ')}} of applet names or 'hangup' (got ${JSON.stringify(value)})`);
	for (const [key, target] of Object.entries(value)) {
		if (!names.includes(key)) fail(`${where}.${key} is not a transition of this applet (its transitions: ${names.join(', ')})`);
		if (typeof target !== 'string') fail(`${where}.${key} must be an applet name or 'hangup' (got ${JSON.stringify(target)})`);
	}
	return value as Transitions;
}

function casesOf(value: unknown, where: string): Record<string, string> {
	if (!isObj(value) || !Object.keys(value).length) fail(`${where} must be an object {<case>: <applet name>} with at least one case`);
	for (const [name, target] of Object.entries(value)) {
		if (typeof target !== 'string') fail(`${where}.${name} must be an applet name or 'hangup' (got ${JSON.stringify(target)})`);
	}
	return { ...(value as Record<string, string>) };
}

function fieldsChecked(raw: Obj, kind: AppletKind, where: string): void {
	for (const key of Object.keys(raw)) {
		if (FIELDS[kind].fields.includes(key)) continue;
		const hint = key === 'fallbackUrl' ? ` (the service's ${kind} has no Fallback URL; Connect and Gather have one)` : '';
		fail(`${where}.${key} is not a field of a ${kind} applet${hint} (its fields: ${FIELDS[kind].fields.join(', ')})`);
	}
}

/** One applet, checked and with its defaults (mode sync, style programmable). */
function appletOf(raw: unknown, where: string): Applet {
	if (!isObj(raw)) fail(`${where} must be an object with a kind (${APPLET_KINDS.join(', ')})`);
	const kind = oneOf(raw.kind ?? '', APPLET_KINDS, 'passthru', `${where}.kind`);
	fieldsChecked(raw, kind, where);
	const next = transitionsOf(raw.next, FIELDS[kind].transitions(raw), `${where}.next`);
	if (kind === 'greeting') {
		if ((raw.url === undefined) === (raw.text === undefined)) fail(`${where} needs exactly one of url (text from a URL) and text (static)`);
		if (raw.text !== undefined && typeof raw.text !== 'string') fail(`${where}.text must be a string`);
		return raw.url === undefined ? { kind, text: raw.text as string, next } : { kind, url: loopbackUrl(raw.url, `${where}.url`), next };
	}
	const url = loopbackUrl(raw.url, `${where}.url`);
	if (kind === 'passthru') {
		const mode = oneOf(raw.mode, ['sync', 'async'] as const, 'sync', `${where}.mode`);
		if (raw.cases !== undefined && mode === 'async') fail(`${where}.cases needs mode sync: an async Passthru's answer is never read`);
		return raw.cases === undefined ? { kind, url, mode, next } : { kind, url, mode, cases: casesOf(raw.cases, `${where}.cases`), next };
	}
	const fallbackUrl = raw.fallbackUrl === undefined ? undefined : loopbackUrl(raw.fallbackUrl, `${where}.fallbackUrl`);
	const withFallback = fallbackUrl === undefined ? {} : { fallbackUrl };
	if (kind === 'gather') return { kind, url, ...withFallback, next };
	return { kind, url, ...withFallback, style: oneOf(raw.style, ['programmable', 'classic'] as const, 'programmable', `${where}.style`), next };
}

/** Every transition (and case) names an applet of the flow or 'hangup'. */
function targetsChecked(applets: Record<string, Applet>): void {
	const names = Object.keys(applets);
	for (const [name, applet] of Object.entries(applets)) {
		const targets: Array<[string, string | undefined]> = Object.entries(applet.next).map(([key, target]) => [`next.${key}`, target]);
		if (applet.kind === 'passthru' && applet.cases) targets.push(...Object.entries(applet.cases).map(([key, target]): [string, string] => [`cases.${key}`, target]));
		for (const [path, target] of targets) {
			if (target === undefined || target === 'hangup' || names.includes(target)) continue;
			fail(`flow.applets.${name}.${path} names no applet: '${target}' (applets: ${names.join(', ')}; or 'hangup')`);
		}
	}
}

/** `{id?, start, applets: {<name>: <applet>}}`, checked. */
export function parseFlow(raw: unknown): CallFlow {
	if (!isObj(raw)) fail('flow must be an object {start, applets}');
	for (const key of Object.keys(raw)) if (!['id', 'start', 'applets'].includes(key)) fail(`flow.${key} is not a field of a flow (its fields: id, start, applets)`);
	if (!isObj(raw.applets) || !Object.keys(raw.applets).length) fail('flow.applets must be an object {<name>: <applet>} with at least one applet');
	const applets: Record<string, Applet> = Object.fromEntries(
		Object.entries(raw.applets).map(([name, applet]) => {
			if (name === 'hangup') fail("flow.applets.hangup: 'hangup' ends the call and cannot name an applet");
			return [name, appletOf(applet, `flow.applets.${name}`)];
		}),
	);
	if (typeof raw.start !== 'string' || !Object.prototype.hasOwnProperty.call(applets, raw.start)) {
		fail(`flow.start must name an applet (applets: ${Object.keys(applets).join(', ')}; got ${JSON.stringify(raw.start) ?? 'nothing'})`);
	}
	targetsChecked(applets);
	const id = raw.id === undefined ? DEFAULT_FLOW_ID : raw.id;
	if (typeof id !== 'string' && typeof id !== 'number') fail('flow.id must be a string or a number (flow_id of the requests)');
	return { id: String(id), start: raw.start, applets };
}
