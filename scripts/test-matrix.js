#!/usr/bin/env node
/**
 * Runs the suite in stages that fail fast, then prints a timing table of the stages.
 *
 *   node scripts/test-matrix.js                                  (npm test)
 *   node scripts/test-matrix.js --config jest.system.config.js  (npm run test:system)
 *
 * `npm test`: build, lint beside packing the built package once (the run's one tarball, installed once into a
 * folder every later stage, bench and n8n copies: `N8N_E2E_PACKAGE`, test/harness/install.ts), unit,
 * in-process (n8n-core), sandbox, then the real-n8n tests on n8n 2.8.4
 * and on the newest n8n (test/harness/targets.ts) side by side, each a jest run of its own with one
 * long-lived n8n (jest.e2e.config.js). The first stage that fails ends the run, so a lint error or a
 * broken unit test costs a minute, not the whole suite. Both n8n releases (and Node 24 for the newest)
 * install in the background from the very start, since a cold install takes minutes, and each
 * real-n8n stage waits for its own. Every test file must belong to a stage: one that does not fails
 * the run before any starts.
 *
 * The system stage runs in lanes side by side (SYSTEM_LANES), each lane a jest run of its own on one
 * release once that release is installed, their lines prefixed with the lane. Most of the stage waits on
 * the sandbox's windows and n8n's workers, not the CPU, so a release's files need not run one after the
 * other. The rate-limit file runs on 2.8.4 alone: its figures are the package's pacing, the same on both.
 *
 * Exits non-zero when a stage fails.
 */
const { spawn, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const configAt = args.indexOf('--config');
const config = configAt >= 0 ? ['--config', args[configAt + 1]] : [];

const jest = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/** Packs the built package once into the folder `N8N_E2E_PACKAGE` names and installs it there (sharedPackage). */
const PACK = [process.execPath, '-r', 'ts-node/register/transpile-only', '-e', "require('./test/harness').prepareSharedPackage(process.env.N8N_E2E_PACKAGE)"];
const PACKAGE_PREFIX = 'n8n-exotel-package-';

/**
 * The run's package folder, named by a hash of what is packed (dist/, package.json, README, LICENSE): `npm run
 * test:system` right after `npm test` finds the folder `npm test` packed and installed, the same bytes, and packs
 * nothing. A folder of a build older than a day is removed.
 */
function choosePackageDir() {
	const hash = crypto.createHash('sha256');
	const add = (file) => hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
	const walk = (dir) =>
		fs.readdirSync(dir, { withFileTypes: true })
			.sort((a, b) => a.name.localeCompare(b.name))
			.forEach((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : add(path.join(dir, entry.name))));
	walk(path.join(ROOT, 'dist'));
	['package.json', 'README.md', 'LICENSE'].forEach((file) => add(path.join(ROOT, file)));
	const dir = path.join(os.tmpdir(), `${PACKAGE_PREFIX}${hash.digest('hex').slice(0, 16)}`);
	const dayAgo = Date.now() - 24 * 3600_000;
	for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(PACKAGE_PREFIX))) {
		const old = path.join(os.tmpdir(), name);
		if (old !== dir && fs.statSync(old).mtimeMs < dayAgo) fs.rmSync(old, { recursive: true, force: true });
	}
	fs.mkdirSync(dir, { recursive: true });
	process.env.N8N_E2E_PACKAGE = dir;
}

/**
 * The system stage's lanes, all at once. The longest files (rate limits on 2.8.4, queue mode on the newest)
 * each have a lane; every file of test/system is in a lane of each release but the rate-limit file.
 */
const SYSTEM_LANES = [
	{ target: '2.8.4', files: ['rate-limit.test.ts'] },
	{ target: '2.8.4', files: ['editor.browser.test.ts', 'queue-mode.test.ts'] },
	{ target: 'newest', files: ['queue-mode.test.ts'] },
	{ target: 'newest', files: ['editor.browser.test.ts'] },
	// every bench once on a small size, so one that no longer runs or no longer paces is caught (its figures are
	// `npm run bench`'s); here rather than in `npm test`, whose real-n8n group is short of CPU while this stage waits
	{ target: '2.8.4', label: 'benches (small)', command: ['npm', 'run', 'bench:small'], files: [] },
];
const laneLabel = (lane) => lane.label ?? `system ${lane.target} (${lane.files.map((file) => file.replace(/\.test\.ts$/, '')).join(', ')})`;

/** Every file of test/system runs in a lane: on both releases, the rate-limit file on 2.8.4. */
function checkLanesCoverEveryFile() {
	const files = fs.readdirSync(path.join(ROOT, 'test', 'system')).filter((file) => file.endsWith('.test.ts'));
	const missing = [];
	for (const target of ['2.8.4', 'newest']) {
		const laned = SYSTEM_LANES.filter((lane) => lane.target === target).flatMap((lane) => lane.files);
		for (const file of files) if (!laned.includes(file) && !(file === 'rate-limit.test.ts' && target === 'newest')) missing.push(`${file} on ${target}`);
	}
	if (missing.length) {
		process.stderr.write(`[test-matrix] these system files are in no lane of SYSTEM_LANES, so they would never run:\n${missing.join('\n')}\n`);
		process.exit(1);
	}
}

/**
 * The stages of `npm test`, in the order they run: the quickest to fail first. Stages with the same
 * `group` run side by side: the real-n8n tests of both releases, each release's on its one long-lived
 * n8n (mostly waiting on webhooks, timers and n8n's wait tracker) beside the tests of n8n's CLI,
 * which start n8n processes of their own.
 */
const STAGES = [
	{ label: 'build', command: ['npm', 'run', 'build'] },
	// the run's one tarball, installed once: every later stage, bench and n8n copies it (test/harness/install.ts)
	{ label: 'pack', command: PACK, group: 'lint and pack' },
	{ label: 'lint', command: ['npm', 'run', 'lint'], group: 'lint and pack' },
	{ label: 'unit', folder: 'test/unit', target: '2.8.4' },
	{ label: 'in-process (n8n-core)', folder: 'test/in-process', target: '2.8.4' },
	{ label: 'sandbox', folder: 'sandbox', target: '2.8.4' },
	{ label: 'real n8n 2.8.4', folder: 'test/e2e', target: '2.8.4', config: 'jest.e2e.config.js', real: true, group: 'real n8n' },
	{ label: 'real n8n newest', folder: 'test/e2e', target: 'newest', config: 'jest.e2e.config.js', real: true, group: 'real n8n' },
	{ label: 'n8n CLI 2.8.4', folder: 'test/e2e/cli', target: '2.8.4', real: true, group: 'real n8n' },
	{ label: 'n8n CLI newest', folder: 'test/e2e/cli', target: 'newest', real: true, group: 'real n8n' },
];

/** The jest path pattern of a stage's folder: that folder under the package root and nothing else (`sandbox` alone would match any path naming it). */
const folderPattern = (folder) => `^${path.join(ROOT, folder, path.sep).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;

/** Copies a child's output line by line, each line prefixed when `prefix` is given; calls `onLine` with each. */
function copyLines(stream, out, prefix, onLine) {
	let rest = '';
	const emit = (line) => {
		onLine(line);
		out.write(prefix ? `${prefix} ${line}\n` : `${line}\n`);
	};
	stream.on('data', (chunk) => {
		const lines = (rest + chunk.toString('utf8')).split('\n');
		rest = lines.pop();
		for (const line of lines) emit(line);
	});
	stream.on('end', () => rest && emit(rest));
}

const results = [];

/** Runs one child; resolves with whether it passed. Its closing `Tests:` line goes into the table. */
function run(label, command, commandArgs, env, prefix) {
	const started = Date.now();
	process.stdout.write(`[test-matrix] ${label}: starting\n`);
	const result = { label, tests: '', minutes: '' };
	let child;
	const done = new Promise((resolve) => {
		child = spawn(command, commandArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
		const onLine = (line) => {
			const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
			if (/^Tests: \d+ passed/.test(plain)) result.tests = plain.slice('Tests: '.length);
		};
		copyLines(child.stdout, process.stdout, prefix, onLine);
		copyLines(child.stderr, process.stderr, prefix, onLine);
		child.on('exit', (code, signal) => {
			result.minutes = ((Date.now() - started) / 60_000).toFixed(1);
			result.outcome = code === 0 ? 'passed' : `failed (${code ?? signal})`;
			process.stdout.write(`[test-matrix] ${label}: ${result.outcome} in ${result.minutes} min\n`);
			results.push(result);
			resolve(code === 0);
		});
	});
	return { done, kill: () => child.kill('SIGTERM') };
}

function printTable(skipped) {
	const rows = [...results.map((r) => [r.label, r.outcome, r.minutes, r.tests || '-']), ...skipped.map((label) => [label, 'not run', '-', '-'])];
	const head = ['stage', 'outcome', 'minutes', 'tests'];
	const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
	const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
	process.stdout.write(`\n[test-matrix] stages:\n${line(head)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${rows.map(line).join('\n')}\n`);
	// The plain closing line CI reads stays the very last line: the stages' counts summed.
	const sum = [0, 0, 0];
	for (const r of results) {
		const m = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(r.tests);
		if (m) [1, 2, 3].forEach((i) => (sum[i - 1] += Number(m[i])));
	}
	process.stdout.write(`\nTests: ${sum[0]} passed, ${sum[1]} failed, ${sum[2]} skipped\n`);
}

/** Every test file jest would run belongs to a stage (a file outside them would silently never run). */
function checkStagesCoverEveryFile() {
	const listed = spawnSync(process.execPath, [jest, '--listTests'], { cwd: ROOT, encoding: 'utf8' });
	if (listed.status !== 0) throw new Error(`jest --listTests failed: ${listed.stderr}`);
	const files = listed.stdout.split('\n').filter(Boolean).map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
	const outside = files.filter((file) => !STAGES.some((stage) => stage.folder && file.startsWith(`${stage.folder}/`)));
	if (outside.length) {
		process.stderr.write(`[test-matrix] these test files belong to no stage of scripts/test-matrix.js, so they would never run:\n${outside.join('\n')}\n`);
		process.exit(1);
	}
	return files.length;
}

/** Installs a release of n8n into its cache folder unless it is there (its output goes to the cache's install.log). */
function install(target) {
	return run(
		`installing n8n ${target} if not cached`,
		process.execPath,
		['-r', 'ts-node/register/transpile-only', '-e', `require('./test/harness').ensureN8n().then((n) => console.log(\`[test-matrix] n8n ${target}: \${n.version} (\${n.installed ? 'installed' : 'cached'})\`))`],
		{ N8N_E2E_TARGET: target, TS_NODE_TRANSPILE_ONLY: 'true' },
	);
}

/** Both releases install beside the first stages (cold, they take minutes); the real-n8n stages wait for theirs. */
function installBoth() {
	const installs = { '2.8.4': install('2.8.4'), newest: install('newest') };
	return { ready: (target) => installs[target].done, kill: () => Object.values(installs).forEach((i) => i.kill()) };
}

async function main() {
	if (config.length) {
		// The system stage: its lanes at once, each once its release is installed.
		checkLanesCoverEveryFile();
		const prepared = installBoth();
		choosePackageDir();
		if (!(await run('pack', PACK[0], PACK.slice(1), { TS_NODE_TRANSPILE_ONLY: 'true' }).done)) {
			prepared.kill();
			printTable(SYSTEM_LANES.map(laneLabel));
			process.exit(1);
		}
		const lane = async (l) => {
			const files = l.files.map((file) => `/test/system/${file.replace(/\./g, '\\.')}$`);
			const prefix = l.label ? `[${l.label}]` : `[${l.target} ${l.files.map((file) => file.split('.')[0]).join('+')}]`;
			const [command, ...commandArgs] = l.command ?? [process.execPath, jest, '--runInBand', ...config, ...files];
			return (await prepared.ready(l.target)) && (await run(laneLabel(l), command, commandArgs, { N8N_E2E_TARGET: l.target }, prefix).done);
		};
		const passed = await Promise.all(SYSTEM_LANES.map(lane));
		printTable([]);
		process.exit(passed.every(Boolean) ? 0 : 1);
	}
	const files = checkStagesCoverEveryFile();
	process.stdout.write(`[test-matrix] ${files} test files in ${STAGES.length} stages\n`);
	const prepared = installBoth();
	const steps = [];
	for (const stage of STAGES) {
		const last = steps[steps.length - 1];
		if (stage.group && last && last[0].group === stage.group) last.push(stage);
		else steps.push([stage]);
	}
	let failed = false;
	const children = new Set();
	for (const [index, step] of steps.entries()) {
		if (step.some((stage) => stage.command === PACK)) choosePackageDir();
		const outcomes = await Promise.all(
			step.map(async (stage) => {
				if (stage.real && !(await prepared.ready(stage.target))) failed = true;
				if (failed) return false;
				// a real-n8n stage's files share its one n8n, one at a time; the others use every core
				const workers = stage.real ? '--runInBand' : `--maxWorkers=${os.availableParallelism()}`;
				const jestArgs = [jest, workers, ...(stage.config ? ['--config', stage.config] : []), folderPattern(stage.folder ?? '')];
				const [command, ...commandArgs] = stage.command ?? [process.execPath, ...jestArgs];
				const child = run(stage.label, command, commandArgs, { N8N_E2E_TARGET: stage.target ?? '2.8.4' }, step.length > 1 ? `[${stage.label}]` : undefined);
				children.add(child);
				const passed = await child.done;
				children.delete(child);
				if (!passed && !failed) {
					// the first stage of a step to fail ends the others: nobody waits minutes for a known result
					failed = true;
					for (const other of children) other.kill();
				}
				return passed;
			}),
		);
		if (outcomes.some((passed) => !passed)) {
			prepared.kill();
			const ran = new Set(results.map((r) => r.label));
			printTable(steps.slice(index).flat().map((s) => s.label).filter((label) => !ran.has(label)));
			process.exit(1);
		}
	}
	printTable([]);
	process.exit(0);
}

main();
