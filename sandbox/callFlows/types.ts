/**
 * What a call flow is (the applets of the flow builder, as the sandbox is given them), what a call
 * through one is asked to do, and what happened: the shapes the other call-flow files share.
 * `../shared/notes/call-flows.md` is the only description of the service's behaviour.
 */

/** A bad flow or call input: the control API answers 400 with its message (naming the field). */
export class CallFlowInputError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CallFlowInputError';
	}
}

// ---------------------------------------------------------------- the flow

export const APPLET_KINDS = ['passthru', 'connect', 'gather', 'greeting'] as const;

export type AppletKind = (typeof APPLET_KINDS)[number];

/** Where each transition goes: an applet's name, or 'hangup' (a transition not given also hangs up). */
export type Transitions = Partial<Record<string, string>>;

export interface PassthruApplet {
	kind: 'passthru';
	url: string;
	mode: 'sync' | 'async';
	/** A Switch Case applet after it: `{"select": "<case>"}` goes to cases[<case>]. */
	cases?: Record<string, string>;
	/** sync: first, second; async: next. */
	next: Transitions;
}

export interface ConnectApplet {
	kind: 'connect';
	url: string;
	fallbackUrl?: string;
	style: 'programmable' | 'classic';
	/** ended, noAnswer, notDialled. */
	next: Transitions;
}

export interface GatherApplet {
	kind: 'gather';
	url: string;
	fallbackUrl?: string;
	/** gathered, failed. */
	next: Transitions;
}

export interface GreetingApplet {
	kind: 'greeting';
	/** Exactly one of url (text from URL) and text (static). */
	url?: string;
	text?: string;
	/** next. */
	next: Transitions;
}

export type Applet = PassthruApplet | ConnectApplet | GatherApplet | GreetingApplet;

export interface CallFlow {
	/** flow_id of the requests. */
	id: string;
	start: string;
	applets: Record<string, Applet>;
}

// ---------------------------------------------------------------- the call

export const CALLEE_BEHAVIOURS = ['answers', 'no-answer', 'busy'] as const;

export type CalleeBehaviour = (typeof CALLEE_BEHAVIOURS)[number];

/** One incoming call to play, checked (input.ts). */
export interface CallFlowCall {
	flow: CallFlow;
	callSid: string;
	/** E.164, as given. */
	from: string;
	to: string;
	customField?: string;
	/** What the caller presses at each Gather, in order (consumed). */
	press: string[];
	/** How each callee (E.164) behaves when dialled; 'answers' when not listed. */
	callees: Record<string, CalleeBehaviour>;
	/** Real ms each URL has to answer (not scaled by timeScale). */
	budgetMs: number;
	/** Simulated seconds of a conversation with a callee who answers. */
	conversationSeconds: number;
	/** Each request is sent a second time, identically, once the first has its answer. */
	repeatEachRequest: boolean;
}

// ---------------------------------------------------------------- what happened

/** One request the service sent to an applet's URL, and what came back. */
export interface AppletRequest {
	method: 'GET' | 'HEAD';
	/** With the service's query string. */
	url: string;
	/** Exactly the headers the sandbox sets (Exotel-Version where the service sends it). */
	headers: Record<string, string>;
	/** 0 when there was no answer. */
	status: number;
	contentType: string | null;
	body: string;
	/** Real ms until the answer (or the failure). */
	ms: number;
	/**
	 * 'accepted', a Passthru's branch ('first', 'second', 'case:<x>'), or why the answer was not taken:
	 * 'timeout', 'error', 'status 500', 'invalid: <what>'; an async Passthru's 'pending' until its answer
	 * comes, then 'ignored'; 'cancelled' by reset or stop.
	 */
	outcome: string;
	/** The network error of outcome 'error' (ECONNREFUSED, ...). */
	error?: string;
	/** The second, identical request of repeatEachRequest (its answer is recorded, never used). */
	repeat?: true;
}

export type StepOutcome = 'first' | 'second' | `case:${string}` | 'dialled' | 'notDialled' | 'gathered' | 'failed' | 'spoken' | 'async';

export interface CallFlowStep {
	applet: string;
	kind: AppletKind;
	requests: AppletRequest[];
	outcome: StepOutcome;
	/** Why the applet took its failure transition (or a Passthru its second branch). */
	reason?: string;
	/** The applet the call went to next, or 'hangup'. */
	next: string;
}

export interface DialledNumber {
	/** As the URL's answer gave it. */
	number: string;
	/** The caller id the callee saw (outgoing_phone_number, else the number called). */
	callerId: string;
	result: 'completed' | 'no-answer' | 'busy';
}

export interface CallFlowResult {
	callSid: string;
	from: string;
	to: string;
	steps: CallFlowStep[];
	/** Greeting texts, Gather prompts and `audio: <url>`, in the order the caller heard them. */
	heard: string[];
	dialled: DialledNumber[];
	/** 'caller-hangup': the call was cancelled (reset, stop) or ran through too many applets (a loop). */
	ended: 'hangup' | 'caller-hangup';
}
