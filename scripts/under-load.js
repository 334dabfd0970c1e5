#!/usr/bin/env node
/**
 * Runs a command (default `npm test`) with CPU-burning processes beside it, to show the suite holds
 * on a busy machine: `npm run test:load` (two burners), `node scripts/under-load.js --burners 4 -- npm run test:system`.
 * Prints the wall time and exits with the command's code; the burners always stop.
 */
const { spawn } = require('child_process');

const args = process.argv.slice(2);
let burners = 2;
const at = args.indexOf('--burners');
if (at !== -1) {
	burners = Number(args[at + 1]);
	args.splice(at, 2);
}
if (args[0] === '--') args.shift();
const [command, ...commandArgs] = args.length ? args : ['npm', 'test'];

const burning = Array.from({ length: burners }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBurners = () => burning.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(`under-load: ${burners} CPU-burning processes beside \`${[command, ...commandArgs].join(' ')}\``);
const started = Date.now();
// The tests' timing budgets (budget(), sandbox/timing.ts) stretch by the burners' share of the CPUs.
const cores = require('os').cpus().length;
const factor = ((cores + burners) / cores).toFixed(2);
const child = spawn(command, commandArgs, { stdio: 'inherit', env: { ...process.env, TEST_TIME_FACTOR: factor } });
child.on('exit', (code, signal) => {
	const minutes = ((Date.now() - started) / 60_000).toFixed(1);
	console.log(`under-load: finished in ${minutes} min with ${burners} burners, exit ${code ?? signal}`);
	process.exit(code ?? 1);
});
