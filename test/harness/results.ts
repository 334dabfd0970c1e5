/**
 * Reading what a run of a real n8n produced: the output of `n8n execute --rawOutput` and the items
 * each node emitted (the same shape in saved executions of the public API).
 *
 * Facts this relies on are measured on n8n 2.8.4 (see /work/shared/notes/n8n-runtime.md
 * and the report of this harness):
 * - `n8n execute --rawOutput` prints runner lines first, then the run as pretty JSON
 *   starting with a line that is exactly `{` and ending with a line that is exactly `}`.
 *   A failed run exits 1, prints the same JSON after a first "Execution error:" line and
 *   then, after a second "Execution error:" and a "====" line, the error message.
 */

import type { ExecutionError, ExecutionStatus, IDataObject, INodeExecutionData, IRunExecutionData, ITaskData } from 'n8n-workflow';

import type { RunResult } from './process';

/** One item of a node's output: `{ json, binary?, pairedItem?, error? }`. */
export type OutputItem = INodeExecutionData;

/**
 * A run as JSON: the run `n8n execute --rawOutput` prints (an IRun, its dates as strings), or an
 * execution of the public API (`GET /api/v1/executions[/{id}]`), which adds `id` and `workflowId`.
 * `data` is n8n's IRunExecutionData (`data.resultData.runData[node]` is the node's ITaskData list).
 */
export interface RunJson {
	id?: string;
	workflowId?: string;
	status: ExecutionStatus;
	finished?: boolean;
	mode?: string;
	startedAt?: string;
	stoppedAt?: string | null;
	waitTill?: string | null;
	data?: IRunExecutionData;
}

/** An execution as the public API lists it without its data (`includeData=false`). */
export interface ListedExecution extends RunJson {
	id: string;
	workflowId: string;
}

/** An execution of the public API read with its data (`includeData=true`). */
export interface SavedExecution extends ListedExecution {
	data: IRunExecutionData;
}

/**
 * The run object printed by `n8n execute --rawOutput` (an IRun):
 * `{ data: { resultData: { runData: { [nodeName]: ITaskData[] }, lastNodeExecuted, error? },
 *   executionData, startData }, mode: 'cli', status: 'success'|'error', startedAt, stoppedAt, finished? }`.
 * Each ITaskData is `{ startTime, executionIndex, executionTime, executionStatus, source, hints,
 * data: { main: OutputItem[][] }, error? }`; `data.main[outputIndex]` is the list of items.
 */
export interface ExecuteResult {
	ok: boolean;
	/** The parsed run (also on failure, when n8n printed it). */
	result?: RunJson;
	/** On failure: the message printed after "Execution error:" (else the run's error message). */
	error?: string;
	stdout: string;
	stderr: string;
	exitCode: number | null;
	/** The signal the CLI died of, if it did. */
	signal?: NodeJS.Signals | null;
	/** Set when the CLI died of this signal after printing the finished run (`exitCode` is then null). */
	crashedOnExit?: NodeJS.Signals;
	durationMs: number;
}

/** Parses the pretty-printed JSON starting at the first line that is exactly `{`. */
export function parseRawOutput(stdout: string): RunJson | undefined {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.trimEnd() === '{');
	if (start === -1) return undefined;
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end].trimEnd() !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n')) as RunJson;
		} catch {
			// a nested `}` line at column 0 cannot occur in pretty JSON, but keep looking
		}
	}
	return undefined;
}

/**
 * The signals a native crash ends a process with: the newest n8n's CLI on Node 24 dies of SIGSEGV at
 * times as it exits (isolated-vm going down with it); V8 and native addons that fail a check abort
 * (SIGABRT) or trap (SIGTRAP, SIGILL) instead. A timeout's SIGKILL or a SIGTERM is never one.
 */
export const NATIVE_CRASH_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set<NodeJS.Signals>(['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGTRAP', 'SIGFPE']);

/** The statuses of a run that has ended (n8n's ExecutionStatus). */
const FINISHED_STATUSES: ReadonlySet<unknown> = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * What one `n8n execute --rawOutput` came to. When the CLI died of SIGSEGV after printing the
 * finished run (the newest n8n on Node 24 does at times as it exits), that run is the outcome and
 * `crashedOnExit` says so; a crash before the run was printed is a failure.
 */
export function executeOutcome(r: RunResult, timeoutMs: number): ExecuteResult {
	const all = `${r.stdout}\n${r.stderr}`;
	const result = parseRawOutput(r.stdout) ?? parseRawOutput(r.stderr);
	// n8n 2.41 prints `finished` for a successful run only: a failed one ends with its status
	const printedFinishedRun =
		typeof result?.stoppedAt === 'string' && (typeof result?.finished === 'boolean' || FINISHED_STATUSES.has(result?.status));
	const crashedOnExit = r.signal && NATIVE_CRASH_SIGNALS.has(r.signal) && printedFinishedRun ? r.signal : undefined;
	const base = { result, stdout: r.stdout, stderr: r.stderr, exitCode: r.code, signal: r.signal, durationMs: r.durationMs, ...(crashedOnExit ? { crashedOnExit } : {}) };
	if (r.timedOut) return { ...base, ok: false, error: `n8n execute timed out after ${timeoutMs} ms` };
	const runError = result?.data?.resultData?.error;
	if ((r.code === 0 || crashedOnExit) && result && !runError && result.status !== 'error') return { ...base, ok: true };
	const error =
		parseExecutionError(all) ??
		(runError?.message as string | undefined) ??
		(r.code === 0 ? 'n8n execute printed no run data' : `n8n execute exited ${r.code}${r.signal ? ` (${r.signal})` : ''}`);
	return { ...base, ok: false, error };
}

/** The error message after the LAST "Execution error:" line (and its "====" rule). */
export function parseExecutionError(text: string): string | undefined {
	const lines = text.split('\n');
	let index = -1;
	for (let i = 0; i < lines.length; i++) if (lines[i].includes('Execution error:')) index = i;
	if (index === -1) return undefined;
	const rest = lines.slice(index + 1).filter((l) => !/^=+$/.test(l.trim()));
	const first = rest.findIndex((l) => l.trim() !== '');
	if (first === -1) return undefined;
	// A JSON dump (first "Execution error:" block) is not a message.
	if (rest[first].trim() === '{') return undefined;
	return rest[first].trim();
}

/** `runData[node][runIndex]` (ITaskData) or undefined. */
export function nodeRun(result: RunJson | undefined, nodeName: string, runIndex = 0): ITaskData | undefined {
	return result?.data?.resultData?.runData?.[nodeName]?.[runIndex];
}

/** Items that `nodeName` emitted: `runData[node][runIndex].data.main[outputIndex]`. */
export function nodeOutput(result: RunJson | undefined, nodeName: string, opts: { runIndex?: number; outputIndex?: number } = {}): OutputItem[] {
	const run = nodeRun(result, nodeName, opts.runIndex ?? 0);
	if (!run) {
		const ran = Object.keys(result?.data?.resultData?.runData ?? {});
		throw new Error(`Node "${nodeName}" did not run (nodes that ran: ${JSON.stringify(ran)})`);
	}
	return run.data?.main?.[opts.outputIndex ?? 0] ?? [];
}

/** Just the `json` of each output item of `nodeName`. */
export function nodeJson(result: RunJson | undefined, nodeName: string, opts: { runIndex?: number; outputIndex?: number } = {}): IDataObject[] {
	return nodeOutput(result, nodeName, opts).map((item) => item.json);
}

/** The error a node's run recorded (`runData[node][runIndex].error`), if any. */
export function nodeError(result: RunJson | undefined, nodeName: string, runIndex = 0): ExecutionError | undefined {
	return nodeRun(result, nodeName, runIndex)?.error;
}
