/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- starts a process for the harness to find, captures its stderr, writes a temporary install (child_process, process, setTimeout, fs, os, path); never shipped */
/**
 * What the harness says while it installs n8n (test/harness/install.ts, log.ts): the tests' stderr
 * lines by default, the caller's log when one is set (npm run dev), and, whenever that caller asks,
 * how far each long wait is: the elapsed time and what the install folder shows.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { countPackages, installProgressLine, lockedPackages, packagesRunningScripts } from '../harness/install';
import { formatElapsed, harnessLog, progressNow, setHarnessLog, withProgress } from '../harness/log';

let tmp: string;
beforeEach(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-install-progress-'));
});
afterEach(() => {
	setHarnessLog(undefined);
	jest.useRealTimers();
	fs.rmSync(tmp, { recursive: true, force: true });
});

function writePackage(dir: string): void {
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), '{}');
}

describe('where the harness says what it does', () => {
	it('the tests read it on stderr as [n8n-e2e] lines; a caller routes it elsewhere, without that prefix', () => {
		const written: string[] = [];
		const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
			written.push(String(chunk));
			return true;
		});
		try {
			harnessLog('installing n8n@2.8.4');
			const mine: string[] = [];
			setHarnessLog((text) => mine.push(`[dev] ${text}`));
			harnessLog('installing n8n@2.8.4');
			expect(mine).toEqual(['[dev] installing n8n@2.8.4']);
			setHarnessLog(undefined);
			harnessLog('again');
		} finally {
			spy.mockRestore();
		}
		expect(written).toEqual(['[n8n-e2e] installing n8n@2.8.4\n', '[n8n-e2e] again\n']);
	});

	it('elapsed time reads as seconds, then minutes and seconds', () => {
		expect([formatElapsed(0), formatElapsed(14_600), formatElapsed(60_000), formatElapsed(185_000)]).toEqual(['0 s', '15 s', '1 min 00 s', '3 min 05 s']);
	});

	it('a long wait says how far it is whenever asked, with its elapsed time, and nothing once it is over', async () => {
		jest.useFakeTimers();
		let finish!: (value: string) => void;
		expect(progressNow()).toEqual([]);
		const work = withProgress((ms) => `installing: ${formatElapsed(ms)}`, () => new Promise<string>((resolve) => (finish = resolve)));
		expect(progressNow()).toEqual(['installing: 0 s']);
		await jest.advanceTimersByTimeAsync(45_000);
		const lock = withProgress(() => 'waiting for the lock', async () => await new Promise<void>((resolve) => setTimeout(resolve, 1000)));
		expect(progressNow()).toEqual(['installing: 45 s', 'waiting for the lock']);
		await jest.advanceTimersByTimeAsync(1000);
		await lock;
		finish('done');
		await expect(work).resolves.toBe('done');
		expect(progressNow()).toEqual([]);
	});

	it('a wait that cannot describe itself is left out, and its work goes on', async () => {
		const work = withProgress(
			() => {
				throw new Error('folder gone');
			},
			async () => progressNow(),
		);
		await expect(work).resolves.toEqual([]);
	});
});

describe("what an install's progress line shows", () => {
	it('counts unpacked packages (scoped ones each; folders npm made but has not filled yet are not counted)', () => {
		const modules = path.join(tmp, 'node_modules');
		expect(countPackages(modules)).toBe(0);
		writePackage(path.join(modules, 'n8n'));
		writePackage(path.join(modules, '@n8n', 'db'));
		writePackage(path.join(modules, '@n8n', 'di'));
		fs.mkdirSync(path.join(modules, 'sqlite3'));
		fs.mkdirSync(path.join(modules, '.bin'));
		expect(countPackages(modules)).toBe(3);
	});

	it("reads how many top-level packages a lockfile installs (the newest's resolution leaves one)", () => {
		const lock = path.join(tmp, 'package-lock.json');
		expect(lockedPackages(lock)).toBeUndefined();
		fs.writeFileSync(
			lock,
			JSON.stringify({ packages: { '': {}, 'node_modules/n8n': {}, 'node_modules/@n8n/db': {}, 'node_modules/n8n/node_modules/zod': {} } }),
		);
		expect(lockedPackages(lock)).toBe(2);
	});

	it('says what npm is at: resolving, unpacking, quiet, or running named install scripts', () => {
		const line = (unpacked: number, before: number, scripts: string[] = [], expected?: number) =>
			installProgressLine('installing n8n 2.8.4', 75_000, { unpacked, before, expected, scripts });
		expect(line(0, 0)).toBe('installing n8n 2.8.4: 1 min 15 s so far; resolving and downloading the dependency tree (nothing unpacked yet)');
		expect(line(1204, 300, [], 2087)).toBe('installing n8n 2.8.4: 1 min 15 s so far; 1,204 of about 2,087 packages unpacked');
		expect(line(2087, 2087)).toBe('installing n8n 2.8.4: 1 min 15 s so far; 2,087 packages unpacked, none new since the last line (downloading, or building native modules)');
		expect(line(2087, 2087, ['sqlite3'])).toBe('installing n8n 2.8.4: 1 min 15 s so far; 2,087 packages unpacked; running the install scripts of sqlite3');
	});

	it("names the packages whose scripts a process group runs, from the processes' working folders", async () => {
		const dir = path.join(tmp, 'node_modules', '@scope', 'native');
		writePackage(dir);
		const child = spawn('sleep', ['30'], { cwd: dir, detached: true, stdio: 'ignore' });
		try {
			await new Promise<void>((resolve, reject) => {
				child.once('spawn', () => resolve());
				child.once('error', reject);
			});
			expect(packagesRunningScripts(child.pid!, tmp)).toEqual(['@scope/native']);
			expect(packagesRunningScripts(child.pid!, path.join(tmp, 'elsewhere'))).toEqual([]);
		} finally {
			process.kill(-child.pid!, 'SIGKILL');
		}
	});
});
