/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- sets the cache root in process.env and writes a temporary folder (process, fs, os, path); never shipped */
/**
 * The choice of n8n release for the real-n8n suites and `npm run dev` (test/harness/targets.ts): which
 * versions are candidates for "newest", in which order, and what each release is told.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import {
	compareVersions,
	devTarget,
	INSTALL_MARKER,
	newestCandidates,
	publishesAsynchronously,
	releaseEnv,
	targetName,
	webhookUrlVariable,
} from '../harness/targets';

describe('the newest release', () => {
	it('is looked for among stable releases after 2.8.4, newest first (numerically, not as text)', () => {
		const registry = ['0.236.0', '1.123.4', '2.8.4', '2.9.0', '2.10.1', '2.41.1', '2.41.3', '2.42.0-rc.1', '2.41.0', '2.9.10'];
		expect(newestCandidates(registry)).toEqual(['2.41.3', '2.41.1', '2.41.0', '2.10.1', '2.9.10', '2.9.0']);
		expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
	});

	it('gets the settings its release reads: the webhook URL variable, the module that calls out, the background publication', () => {
		expect([webhookUrlVariable('2.8.4'), webhookUrlVariable('2.41.1')]).toEqual(['WEBHOOK_URL', 'N8N_WEBHOOK_URL']);
		expect([releaseEnv('2.8.4'), releaseEnv('2.41.1')]).toEqual([{}, { N8N_DISABLED_MODULES: 'mcp-registry' }]);
		expect([publishesAsynchronously('2.8.4'), publishesAsynchronously('2.41.1')]).toEqual([false, true]);
	});
});

describe('which release a process uses', () => {
	it('reads N8N_E2E_TARGET, 2.8.4 by default, and refuses anything else by name', () => {
		expect([targetName(undefined), targetName(''), targetName('newest'), targetName('2.8.4')]).toEqual(['2.8.4', '2.8.4', 'newest', '2.8.4']);
		expect(() => targetName('2.41.1')).toThrow('N8N_E2E_TARGET is "2.41.1"; expected one of 2.8.4, newest');
	});

	it('npm run dev: the flag, then the variable, then the newest when it is installed', () => {
		const root = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-targets-'));
		const saved = process.env.N8N_E2E_CACHE_ROOT;
		process.env.N8N_E2E_CACHE_ROOT = root;
		try {
			expect(devTarget([], {})).toBe('2.8.4');
			fs.mkdirSync(path.join(root, 'n8n-newest'), { recursive: true });
			fs.writeFileSync(path.join(root, 'n8n-newest', INSTALL_MARKER), '{"version":"2.41.1"}');
			expect(devTarget([], {})).toBe('newest');
			expect(devTarget(['--n8n', '2.8.4'], { N8N_E2E_TARGET: 'newest' })).toBe('2.8.4');
			expect(devTarget(['--rate-limit', '50/15000'], { N8N_E2E_TARGET: '2.8.4' })).toBe('2.8.4');
			expect(() => devTarget(['--n8n'], {})).toThrow('--n8n needs one of 2.8.4, newest, latest');
		} finally {
			if (saved === undefined) delete process.env.N8N_E2E_CACHE_ROOT;
			else process.env.N8N_E2E_CACHE_ROOT = saved;
			fs.rmSync(root, { recursive: true, force: true });
		}
	});

	it('npm run dev: --n8n latest is --n8n newest (also --n8n=VALUE, any case); a wrong name is refused naming the flag only', () => {
		expect(devTarget(['--n8n', 'latest'], {})).toBe('newest');
		expect(devTarget(['--n8n=latest'], {})).toBe('newest');
		expect(devTarget(['--n8n', 'Latest', '--rate-limit', 'documented'], {})).toBe('newest');
		expect(devTarget(['--n8n=2.8.4'], { N8N_E2E_TARGET: 'newest' })).toBe('2.8.4');
		expect(devTarget(['--n8n', '2.8.4'], { N8N_E2E_TARGET: 'latest' })).toBe('2.8.4');
		for (const args of [['--n8n', '2.41.1'], ['--n8n=next'], ['--n8n', '--rate-limit']]) {
			let message = '';
			try {
				devTarget(args, {});
			} catch (error) {
				message = (error as Error).message;
			}
			expect(message).toMatch(/^--n8n .*2\.8\.4, newest, latest/);
			expect(message).not.toMatch(/N8N_E2E|n8n-e2e/);
		}
	});
});
