/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a step that takes long (setTimeout); never shipped */
/**
 * `npm run dev`'s log (scripts/dev-log.ts): no silent minute. While a step runs, a quiet of 14 s
 * brings a line saying how far it is (the harness's long waits, e.g. n8n's install, else the step
 * and its elapsed time), so a line comes at least every 15 s. Fake timers: no real waiting.
 */
import { createDevLog } from '../../scripts/dev-log';

afterEach(() => jest.useRealTimers());

/** The seconds (from the start) at which each line was written, and the lines. */
function recorder() {
	const start = Date.now();
	const lines: Array<{ at: number; text: string }> = [];
	return { lines, write: (text: string) => lines.push({ at: Math.round((Date.now() - start) / 1000), text: text.trimEnd() }) };
}

describe('npm run dev: a line at least every 15 s while it works', () => {
	it("a long step reports the harness's progress when it is quiet, and never more than 15 s apart", async () => {
		jest.useFakeTimers();
		const { lines, write } = recorder();
		let installed = 0;
		const log = createDevLog(write, { progress: () => [`installing n8n 2.8.4: ${(installed += 100)} packages unpacked`] });
		let finish!: () => void;
		const step = log.step('installing n8n 2.8.4', () => new Promise<void>((resolve) => (finish = resolve)));
		await jest.advanceTimersByTimeAsync(20_000);
		log.line('installing n8n@2.8.4 into ~/.cache/n8n-nodes-exotel/n8n-2.8.4'); // the harness said something itself
		await jest.advanceTimersByTimeAsync(100_000);
		finish();
		await step;
		expect(lines.slice(0, 3)).toEqual([
			{ at: 0, text: '[dev] installing n8n 2.8.4...' },
			{ at: 14, text: '[dev] installing n8n 2.8.4: 100 packages unpacked' },
			{ at: 20, text: '[dev] installing n8n@2.8.4 into ~/.cache/n8n-nodes-exotel/n8n-2.8.4' },
		]);
		expect(lines[3]).toEqual({ at: 34, text: '[dev] installing n8n 2.8.4: 200 packages unpacked' });
		expect(lines[lines.length - 1].text).toBe('[dev] installing n8n 2.8.4: done in 120.0 s');
		const gaps = lines.slice(1).map((line, i) => line.at - lines[i].at);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(15);
	});

	it('without progress to report, it names the step and how long it has run', async () => {
		jest.useFakeTimers();
		const { lines, write } = recorder();
		const log = createDevLog(write, { progress: () => [] });
		const step = log.step('starting n8n', () => new Promise<void>((resolve) => setTimeout(resolve, 30_000)));
		await jest.advanceTimersByTimeAsync(30_000);
		await step;
		expect(lines.map((line) => line.text)).toEqual([
			'[dev] starting n8n...',
			'[dev] starting n8n: 14 s so far',
			'[dev] starting n8n: 28 s so far',
			'[dev] starting n8n: done in 30.0 s',
		]);
	});

	it('says nothing of its own between steps (the banner, then quiet until something happens)', async () => {
		jest.useFakeTimers();
		const { lines, write } = recorder();
		const log = createDevLog(write, { progress: () => ['never'] });
		await log.step('packing the package', async () => undefined);
		log.line('n8n 2.8.4 is ready: http://127.0.0.1:5678');
		await jest.advanceTimersByTimeAsync(120_000);
		expect(lines.map((line) => line.text)).toEqual(['[dev] packing the package...', '[dev] packing the package: done in 0.0 s', '[dev] n8n 2.8.4 is ready: http://127.0.0.1:5678']);
	});

	it('a failed step says nothing more and lets the error through', async () => {
		const { lines, write } = recorder();
		const log = createDevLog(write, { progress: () => [] });
		await expect(log.step('building the package', () => Promise.reject(new Error('tsc failed')))).rejects.toThrow('tsc failed');
		expect(lines.map((line) => line.text)).toEqual(['[dev] building the package...']);
	});
});
