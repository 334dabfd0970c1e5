/** What an applet plays with (the call, its options, the network, what was heard and dialled) and how it ends. */
import type { CallState } from './params';
import type { UrlFetcher } from './requests';
import type { AppletRequest, CalleeBehaviour, DialledNumber, StepOutcome } from './types';

export interface AppletContext {
	/** Read by every request; the applets update it (digits, dial, the simulated clock). */
	call: CallState;
	/** What the caller has still to press, one entry per time a Gather listens (consumed). */
	press: string[];
	callees: Record<string, CalleeBehaviour>;
	conversationSeconds: number;
	fetcher: UrlFetcher;
	/** The step's requests (an async Passthru's answer is written into its record later). */
	requests: AppletRequest[];
	heard: string[];
	dialled: DialledNumber[];
}

/** How an applet ended: its outcome, why (failures), and the transition's target (undefined: hang up). */
export interface StepEnd {
	outcome: StepOutcome;
	reason?: string;
	next?: string;
}

/** The request plan of a GET to `url` (with its query) and the headers the service sets. */
export function getPlan(url: string, headers: Record<string, string> = {}): { method: 'GET'; url: string; headers: Record<string, string> } {
	return { method: 'GET', url, headers };
}

/** Programmable Connect and Gather requests carry it; the classic Connect and the rest do not. */
export const EXOTEL_VERSION_HEADER = { 'Exotel-Version': '1.0' } as const;

/** A `text/plain` answer (parameters like `; charset=utf-8` allowed), else why not. */
export function textPlainProblem(mediaType: string | undefined, contentType: string | null): string | undefined {
	return mediaType === 'text/plain' ? undefined : `invalid: content type ${contentType ?? '(none)'}, not text/plain`;
}
