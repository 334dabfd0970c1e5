/* eslint-disable @n8n/community-nodes/no-restricted-globals -- sets TEST_TIME_FACTOR in process.env (process); never shipped */
/** The tests' timing budgets: stretched on a busy machine (load per core, or TEST_TIME_FACTOR), never shrunk, capped. */
import { budget, loadFactor, pollFor } from '../harness/timeouts';

const saved = process.env.TEST_TIME_FACTOR;
afterEach(() => {
	if (saved === undefined) delete process.env.TEST_TIME_FACTOR;
	else process.env.TEST_TIME_FACTOR = saved;
});

describe('budget(): a test’s timing budget on this machine', () => {
	it('is never less than asked, and at most 8 times it', () => {
		delete process.env.TEST_TIME_FACTOR;
		expect(loadFactor()).toBeGreaterThanOrEqual(1);
		expect(budget(1000)).toBeGreaterThanOrEqual(1000);
		expect(budget(1000)).toBeLessThanOrEqual(8000);
	});

	it('follows TEST_TIME_FACTOR (npm run test:load sets it) when the load is lower, capped at 8; ignores a value that is not a number', () => {
		process.env.TEST_TIME_FACTOR = '3';
		expect(budget(1000)).toBeGreaterThanOrEqual(3000);
		process.env.TEST_TIME_FACTOR = '50';
		expect(budget(1000)).toBe(8000);
		process.env.TEST_TIME_FACTOR = 'fast';
		expect(budget(1000)).toBeGreaterThanOrEqual(1000);
	});
});

describe('pollFor(): polls until a value, within the budget, then names what it waited for', () => {
	it('returns the first value', async () => {
		let calls = 0;
		expect(await pollFor('the third call', 10_000, async () => (++calls === 3 ? 'done' : undefined), undefined, 1)).toBe('done');
		expect(calls).toBe(3);
	});

	it('gives up after its budget with the last state', async () => {
		process.env.TEST_TIME_FACTOR = '1';
		await expect(pollFor('something that never comes', 20, async () => undefined, async () => 'It is still missing.', 5)).rejects.toThrow(
			/^Waited \d+ ms for something that never comes; gave up\. It is still missing\.$/,
		);
	});
});
