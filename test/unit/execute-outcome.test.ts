/**
 * Reading one `n8n execute --rawOutput` (test/harness/results.ts): what the real-n8n suites take as
 * a run's outcome, including the newest n8n dying of SIGSEGV as its CLI exits.
 */
import { executeOutcome } from '../harness/results';
import type { RunResult } from '../harness/process';

const RUNNER_LINES = 'n8n Task Broker ready on 127.0.0.1, port 38067\nLegacy aes-256-cbc encryption key not found; falling back to instance key\n';

function printedRun(status: 'success' | 'error', error?: string): string {
	const run = {
		data: {
			resultData: {
				runData: { Probe: [{ data: { main: [[{ json: { n: 1 } }]] } }] },
				lastNodeExecuted: 'Probe',
				...(error ? { error: { message: error } } : {}),
			},
		},
		mode: 'cli',
		startedAt: '2026-11-24T20:24:38.918Z',
		stoppedAt: '2026-11-24T20:24:38.938Z',
		status,
		finished: status === 'success',
	};
	return JSON.stringify(run, null, 2);
}

function cliRun(stdout: string, code: number | null, signal: NodeJS.Signals | null = null, stderr = ''): RunResult {
	return { code, signal, stdout, stderr, timedOut: false, durationMs: 5000 };
}

describe('n8n execute, read', () => {
	it('a run that exits 0 with its run printed is ok, with its items', () => {
		const outcome = executeOutcome(cliRun(`${RUNNER_LINES}${printedRun('success')}\n`, 0), 60_000);
		expect(outcome).toMatchObject({ ok: true, exitCode: 0 });
		expect(outcome.crashedOnExit).toBeUndefined();
		expect(outcome.result?.data?.resultData.runData.Probe[0].data?.main[0]).toEqual([{ json: { n: 1 } }]);
	});

	it('a SIGSEGV after the finished run was printed: the run is the outcome, and the crash is named', () => {
		const outcome = executeOutcome(cliRun(`${RUNNER_LINES}${printedRun('success')}\n`, null, 'SIGSEGV'), 60_000);
		expect(outcome).toMatchObject({ ok: true, exitCode: null, crashedOnExit: 'SIGSEGV' });
		expect(outcome.result?.status).toBe('success');
	});

	it('a failed run followed by a SIGSEGV is still the failed run, with its message', () => {
		const stdout = `${RUNNER_LINES}Execution error:\n${printedRun('error', 'probe asked to fail')}\n`;
		const outcome = executeOutcome(cliRun(stdout, null, 'SIGSEGV'), 60_000);
		expect(outcome).toMatchObject({ ok: false, crashedOnExit: 'SIGSEGV', error: 'probe asked to fail' });
	});

	it('a failed run printed as n8n 2.41 prints it (no `finished`, its status error) followed by a SIGSEGV is the failed run', () => {
		const run = JSON.parse(printedRun('error', 'probe asked to fail')) as Record<string, unknown>;
		delete run.finished;
		const stdout = `${RUNNER_LINES}${JSON.stringify(run, null, 2)}\nError executing workflow. See log messages for details.\n\nExecution error:\n====================================\nprobe asked to fail\n`;
		const outcome = executeOutcome(cliRun(stdout, null, 'SIGSEGV'), 60_000);
		expect(outcome).toMatchObject({ ok: false, exitCode: null, crashedOnExit: 'SIGSEGV', error: 'probe asked to fail' });
		// a run still going when the process died is no finished run
		const going = { ...run, status: 'running' };
		expect(executeOutcome(cliRun(`${RUNNER_LINES}${JSON.stringify(going, null, 2)}\n`, null, 'SIGSEGV'), 60_000).crashedOnExit).toBeUndefined();
	});

	it.each(['SIGABRT', 'SIGTRAP', 'SIGILL', 'SIGBUS'] as const)('a %s after the finished run was printed is a native crash on exit too', (signal) => {
		const stdout = `${RUNNER_LINES}Execution error:\n${printedRun('error', 'probe asked to fail')}\n`;
		expect(executeOutcome(cliRun(stdout, null, signal), 60_000)).toMatchObject({ ok: false, exitCode: null, signal, crashedOnExit: signal, error: 'probe asked to fail' });
	});

	it('a SIGKILL or SIGTERM after the printed run is no crash on exit: it names the signal', () => {
		for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
			const outcome = executeOutcome(cliRun(`${RUNNER_LINES}${printedRun('success')}\n`, null, signal), 60_000);
			expect(outcome).toMatchObject({ ok: false, exitCode: null, signal, error: `n8n execute exited null (${signal})` });
			expect(outcome.crashedOnExit).toBeUndefined();
		}
	});

	it('a SIGSEGV before the run was printed is a failure that names the signal', () => {
		const outcome = executeOutcome(cliRun(RUNNER_LINES, null, 'SIGSEGV'), 60_000);
		expect(outcome).toMatchObject({ ok: false, exitCode: null, error: 'n8n execute exited null (SIGSEGV)' });
		expect(outcome.crashedOnExit).toBeUndefined();
	});

	it('a half-printed run (cut off by the crash) is not taken for a finished one', () => {
		const half = printedRun('success').split('\n').slice(0, 8).join('\n');
		const outcome = executeOutcome(cliRun(`${RUNNER_LINES}${half}\n`, null, 'SIGSEGV'), 60_000);
		expect(outcome).toMatchObject({ ok: false, error: 'n8n execute exited null (SIGSEGV)' });
	});

	it('another signal is never read as a finished run', () => {
		const outcome = executeOutcome(cliRun(`${RUNNER_LINES}${printedRun('success')}\n`, null, 'SIGKILL'), 60_000);
		expect(outcome).toMatchObject({ ok: false, error: 'n8n execute exited null (SIGKILL)' });
	});

	it('a run that timed out says so', () => {
		const outcome = executeOutcome({ ...cliRun(RUNNER_LINES, null, 'SIGKILL'), timedOut: true }, 60_000);
		expect(outcome).toMatchObject({ ok: false, error: 'n8n execute timed out after 60000 ms' });
	});
});
