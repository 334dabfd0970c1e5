/**
 * Starts a sandbox for manual work and the real-n8n harness:
 *
 *   ts-node --transpile-only test/sandbox/cli.ts [--port N] [--latency MS] [--time-scale X] [--json]
 *
 * Port: --port, else env SANDBOX_PORT, else 4010 (0 = a random free port). Binds 127.0.0.1 only.
 * Prints the origin, the base URLs and the credential values to paste into n8n (they are fake).
 * With --json, prints one JSON line {origin, baseUrls, credentials} instead (for scripts).
 * Stops on SIGINT or SIGTERM.
 */
import { sandboxBaseUrls, sandboxCredentialData } from './fixtures';
import { ExotelSandbox } from './server';

export const DEFAULT_SANDBOX_PORT = 4010;

function argValue(args: string[], name: string): string | undefined {
	const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i < 0) return undefined;
	const arg = args[i];
	return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
}

function nonNegativeNumber(text: string | undefined, what: string): number | undefined {
	if (text === undefined) return undefined;
	const n = Number(text);
	if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw new Error(`${what} must be a non-negative number (got '${text}')`);
	return n;
}

export function parseCliOptions(args: string[], env: NodeJS.ProcessEnv = {}) {
	const portText = argValue(args, '--port') ?? env.SANDBOX_PORT;
	const port = nonNegativeNumber(portText, 'port') ?? DEFAULT_SANDBOX_PORT;
	if (!Number.isInteger(port) || port > 65535) throw new Error(`port must be an integer from 0 to 65535 (got '${portText}')`);
	return {
		port,
		latencyMs: nonNegativeNumber(argValue(args, '--latency'), 'latency'),
		timeScale: nonNegativeNumber(argValue(args, '--time-scale'), 'time scale'),
		json: args.includes('--json'),
	};
}

async function main(): Promise<void> {
	let options: ReturnType<typeof parseCliOptions>;
	try {
		options = parseCliOptions(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(2);
	}
	const sandbox = new ExotelSandbox({ port: options.port, latencyMs: options.latencyMs, timeScale: options.timeScale });
	let origin: string;
	try {
		origin = await sandbox.start();
	} catch (error) {
		process.stderr.write(`Could not start the sandbox on 127.0.0.1:${options.port}: ${(error as Error).message}\n`);
		process.exit(1);
	}

	const baseUrls = sandboxBaseUrls(origin);
	const credentials = sandboxCredentialData(origin);
	if (options.json) {
		process.stdout.write(`${JSON.stringify({ origin, baseUrls, credentials })}\n`);
	} else {
		const lines = [
			`Exotel sandbox listening on ${origin}`,
			'',
			'Base URLs:',
			...Object.entries(baseUrls).map(([name, url]) => `  ${name.padEnd(13)} ${url}`),
			'',
			'Credentials to paste into n8n (sandbox values, not secrets):',
		];
		for (const [type, data] of Object.entries(credentials)) {
			lines.push(`  ${type}:`);
			for (const [field, value] of Object.entries(data)) lines.push(`    ${field.padEnd(22)} ${JSON.stringify(value)}`);
		}
		lines.push(
			'',
			`Control API: ${origin}/__sandbox/health, /__sandbox/requests, /__sandbox/faults, /__sandbox/reset`,
			`Callbacks (loopback URLs only): ${origin}/__sandbox/callbacks, /__sandbox/chatapp-incoming, /__sandbox/rcs-incoming`,
			'Ctrl+C stops it.',
		);
		process.stdout.write(`${lines.join('\n')}\n`);
	}

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		sandbox.stop().then(
			() => {
				if (!options.json) process.stdout.write(`Sandbox stopped (${signal}).\n`);
				process.exit(0);
			},
			(error: unknown) => {
				process.stderr.write(`Error while stopping: ${(error as Error).message}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	void main();
}
