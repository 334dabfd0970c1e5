/**
 * Starts a sandbox for manual work and the real-n8n harness:
 *
 *   ts-node --transpile-only sandbox/cli.ts [--port N] [--latency MS] [--time-scale X] [--json]
 *                                               [--rate-limit LIMIT/WINDOW_MS [--retry-after]]
 *
 * Port: --port, else env SANDBOX_PORT, else 4010 (0 = a random free port). Binds 127.0.0.1 only.
 * Rate limit (off by default): --rate-limit 50/15000, else env SANDBOX_RATE_LIMIT=50/15000;
 * --retry-after or env SANDBOX_RETRY_AFTER=1 adds Retry-After to its 429s. Bad values exit 2.
 * Prints the origin, the base URLs and the credential values to paste into n8n (they are fake).
 * With --json, prints one JSON line {origin, baseUrls, credentials, rateLimit (config or null)} instead.
 * Stops on SIGINT or SIGTERM.
 */
import { sandboxBaseUrls, sandboxCredentialData } from './fixtures';
import { parseRateLimitConfig } from './rate-limit';
import { ExotelSandbox } from './server';
import type { RateLimitConfig } from './server';

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

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['', '0', 'false', 'no', 'off'];

/**
 * `--rate-limit LIMIT/WINDOW_MS` (else env SANDBOX_RATE_LIMIT) and `--retry-after` (else env
 * SANDBOX_RETRY_AFTER); undefined when no limit is asked for. Shared by this CLI and scripts/dev.ts.
 */
export function parseRateLimitOptions(args: string[], env: NodeJS.ProcessEnv = {}): RateLimitConfig | undefined {
	const flagAt = args.indexOf('--rate-limit');
	if (flagAt >= 0 && (args[flagAt + 1] === undefined || args[flagAt + 1].startsWith('--'))) {
		throw new Error('--rate-limit needs LIMIT/WINDOW_MS, e.g. --rate-limit 50/15000');
	}
	const fromFlag = argValue(args, '--rate-limit');
	// an empty variable counts as unset (a shell that exports SANDBOX_RATE_LIMIT= means "none")
	const text = fromFlag ?? (env.SANDBOX_RATE_LIMIT?.trim() || undefined);
	const source = fromFlag !== undefined ? '--rate-limit' : 'SANDBOX_RATE_LIMIT';

	const retryEnv = env.SANDBOX_RETRY_AFTER?.trim().toLowerCase();
	if (retryEnv !== undefined && !TRUE_WORDS.includes(retryEnv) && !FALSE_WORDS.includes(retryEnv)) {
		throw new Error(`SANDBOX_RETRY_AFTER must be 1 or 0 (got '${env.SANDBOX_RETRY_AFTER}')`);
	}
	const retryAfter = args.includes('--retry-after') || (retryEnv !== undefined && TRUE_WORDS.includes(retryEnv));

	if (text === undefined) {
		if (retryAfter) throw new Error('--retry-after / SANDBOX_RETRY_AFTER needs a rate limit (--rate-limit or SANDBOX_RATE_LIMIT)');
		return undefined;
	}
	const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
	const [limit, windowMs] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
	if (!(Number.isSafeInteger(limit) && limit > 0 && Number.isSafeInteger(windowMs) && windowMs > 0)) {
		throw new Error(`${source} must be LIMIT/WINDOW_MS with positive integers, e.g. 50/15000 (got '${text}')`);
	}
	return parseRateLimitConfig({ limit, windowMs, retryAfter });
}

/** One line for logs, e.g. '50 requests per 15000 ms, with Retry-After'. */
export function describeRateLimit(config: RateLimitConfig): string {
	const bases = config.bases ? ` on ${config.bases.join(', ')}` : '';
	return `${config.limit} requests per ${config.windowMs} ms${bases}, ${config.retryAfter ? 'with' : 'without'} Retry-After`;
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
		rateLimit: parseRateLimitOptions(args, env),
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
	const sandbox = new ExotelSandbox({
		port: options.port,
		latencyMs: options.latencyMs,
		timeScale: options.timeScale,
		rateLimit: options.rateLimit,
	});
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
		process.stdout.write(`${JSON.stringify({ origin, baseUrls, credentials, rateLimit: options.rateLimit ?? null })}\n`);
	} else {
		const lines = [
			`Exotel sandbox listening on ${origin}`,
			...(options.rateLimit ? [`Account rate limit: ${describeRateLimit(options.rateLimit)} (429 beyond it)`] : []),
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
			`Control API: ${origin}/__sandbox/health, /__sandbox/requests, /__sandbox/faults, /__sandbox/rate-limit, /__sandbox/reset`,
			`Callbacks (loopback URLs only): ${origin}/__sandbox/callbacks, /__sandbox/chatapp-incoming, /__sandbox/rcs-incoming`,
			`Acting as the person: ${origin}/__sandbox/reply, /__sandbox/open-link, /__sandbox/end-call`,
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
