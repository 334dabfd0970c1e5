#!/usr/bin/env node
/**
 * Runs a jest suite on every n8n release of test/harness/targets.ts: first everything on 2.8.4 (the
 * in-process, sandbox and unit tests need no n8n and run once, there), then the real-n8n tests
 * again on the newest n8n. The newest n8n and its Node are installed in the background while the
 * first run goes (a cold install takes minutes), and the second run starts once they are there.
 *
 *   node scripts/test-matrix.js [--config jest.system.config.js]
 *
 * With --config (the system stage) the two releases run side by side once the newest is installed:
 * most of that stage waits on the sandbox's rate limit, not the CPU. Their lines are prefixed with
 * the release. Exits non-zero when either run fails, after both have run; prints each run's wall time.
 */
const { spawn } = require('child_process');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const configAt = args.indexOf('--config');
const config = configAt >= 0 ? ['--config', args[configAt + 1]] : [];

const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/** Copies a child's output line by line, each line prefixed, so two runs side by side stay readable. */
function prefixLines(stream, prefix, out) {
	let rest = '';
	stream.on('data', (chunk) => {
		const lines = (rest + chunk.toString('utf8')).split('\n');
		rest = lines.pop();
		for (const line of lines) out.write(`${prefix} ${line}\n`);
	});
	stream.on('end', () => rest && out.write(`${prefix} ${rest}\n`));
}

function run(label, command, commandArgs, env, prefix) {
	const started = Date.now();
	process.stdout.write(`[test-matrix] ${label}: starting\n`);
	return new Promise((resolve) => {
		const child = spawn(command, commandArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
		if (prefix) {
			prefixLines(child.stdout, prefix, process.stdout);
			prefixLines(child.stderr, prefix, process.stderr);
		}
		child.on('exit', (code, signal) => {
			const minutes = ((Date.now() - started) / 60_000).toFixed(1);
			process.stdout.write(`[test-matrix] ${label}: ${code === 0 ? 'passed' : `failed (${code ?? signal})`} in ${minutes} min\n`);
			resolve(code === 0);
		});
	});
}

async function main() {
	// The newest n8n (and Node 24) install beside the first run; its output goes to the cache's install.log.
	const prepared = run(
		'installing the newest n8n if not cached',
		process.execPath,
		['-r', 'ts-node/register/transpile-only', '-e', "require('./test/harness').ensureN8n().then((n) => console.log(`[test-matrix] newest n8n: ${n.version} (${n.installed ? 'installed' : 'cached'})`))"],
		{ N8N_E2E_TARGET: 'newest', TS_NODE_TRANSPILE_ONLY: 'true' },
	);
	const legacy = () => run('n8n 2.8.4', process.execPath, [jest, '--runInBand', ...config], { N8N_E2E_TARGET: '2.8.4' }, config.length ? '[2.8.4]' : undefined);
	const newest = () =>
		run('newest n8n', process.execPath, [jest, '--runInBand', ...config, ...(config.length ? [] : ['test/e2e'])], { N8N_E2E_TARGET: 'newest' }, config.length ? '[newest]' : undefined);
	if (config.length) {
		// The system stage: both releases at once, the newest once it is installed.
		const [first, second] = await Promise.all([legacy(), prepared.then((ready) => (ready ? newest() : false))]);
		process.exit(first && second ? 0 : 1);
	}
	const first = await legacy();
	const second = (await prepared) ? await newest() : false;
	process.exit(first && second ? 0 : 1);
}

main();
