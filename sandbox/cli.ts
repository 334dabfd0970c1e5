/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox's command line (process: argv, env, exit, signals, stdout/stderr); never shipped */
/**
 * Starts a sandbox for manual work and the real-n8n harness:
 *
 *   ts-node --transpile-only sandbox/cli.ts [--port N] [--latency MS] [--time-scale X] [--json] [--state FILE] [--live]
 *                                               [--dlt-template ID=TEXT]...
 *                                               [--rate-limit LIMIT/WINDOW_MS [--retry-after]]
 *                                               [--rate-limit documented [--time-factor N] [--no-rate-limit-headers]
 *                                                 [--sms-503] [--rate-limit-category NAME=N]...]
 *
 * Port: --port, else env SANDBOX_PORT, else 4010 (0 = a random free port). Binds 127.0.0.1 only.
 * Rate limit (off by default): a sliding window, --rate-limit 50/15000, else env SANDBOX_RATE_LIMIT=50/15000;
 * --retry-after or env SANDBOX_RETRY_AFTER=1 adds Retry-After to its 429s. Or the service's documented
 * limits (per category, fixed minutes): --rate-limit documented (or SANDBOX_RATE_LIMIT=documented), with
 * --time-factor N (windows of 60/N s, Retry-After ceil(30/N) s), --no-rate-limit-headers (no X-RateLimit-*),
 * --sms-503 (an SMS breach answers 503) and --rate-limit-category NAME=N (repeatable, e.g. sms=100).
 * --dlt-template ID=TEXT (repeatable; \n for a line break) gives the sandbox a DLT content template: an SMS
 * sent with that DltTemplateId whose text does not match it fails with 23185 DLT_TEMPLATE_DOES_NOT_MATCH (dlt.ts).
 * --state FILE keeps what it sent and the calls it placed across restarts (persist.ts; npm run dev
 * uses .dev/sandbox-state.json). --live starts it in live mode: it answers as the live service's recorded
 * traffic shows rather than as the spec writes (README, "Live mode"). Bad values exit 2.
 * Prints the origin, the base URLs and the credential values to paste into n8n (they are fake).
 * With --json, prints one JSON line {origin, baseUrls, credentials, rateLimit (config or null), live} instead.
 * Stops on SIGINT or SIGTERM.
 */
import { parseDltTemplate } from './dlt';
import { sandboxBaseUrls, sandboxCredentialData } from './fixtures';
import { parseRateLimitConfig, RATE_CATEGORIES, RATE_CATEGORY_NAMES } from './rate-limit';
import { ExotelSandbox, type AnyRateLimitConfig, type DocumentedRateLimitConfig } from './server';

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

/** Every value of a flag that may repeat (`--name V` or `--name=V`); throws when one is missing. */
export function flagValues(args: string[], name: string, example: string): string[] {
	const values: string[] = [];
	args.forEach((arg, i) => {
		if (arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
		else if (arg === name) {
			const next = args[i + 1];
			if (next === undefined || next.startsWith('--')) throw new Error(`${name} needs a value, e.g. ${name} ${example}`);
			values.push(next);
		}
	});
	return values;
}

/** The documented mode's own flags; `given` names those present, for the errors without the mode. */
function documentedFlags(args: string[]): { options: Omit<DocumentedRateLimitConfig, 'mode'>; given: string[] } {
	const options: Omit<DocumentedRateLimitConfig, 'mode'> = {};
	const given: string[] = [];
	const factors = flagValues(args, '--time-factor', '60');
	if (factors.length > 0) {
		given.push('--time-factor');
		const text = factors[factors.length - 1];
		const n = Number(text);
		if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`--time-factor must be a number (got '${text}')`);
		options.timeFactor = n;
	}
	if (args.includes('--no-rate-limit-headers')) {
		given.push('--no-rate-limit-headers');
		options.headers = false;
	}
	if (args.includes('--sms-503')) {
		given.push('--sms-503');
		options.smsStatus = 503;
	}
	const categories = flagValues(args, '--rate-limit-category', 'sms=100');
	if (categories.length > 0) {
		given.push('--rate-limit-category');
		const limits: Record<string, number> = {};
		for (const text of categories) {
			const m = /^\s*([A-Za-z]+)\s*=\s*(\d+)\s*$/.exec(text);
			if (!m || !(Number(m[2]) > 0)) {
				throw new Error(`--rate-limit-category must be NAME=N with a positive integer N, e.g. sms=100 (got '${text}'; names: ${RATE_CATEGORIES.join(', ')})`);
			}
			// the last one of a name wins, as for the other flags
			limits[m[1]] = Number(m[2]);
		}
		options.limits = limits;
	}
	return { options, given };
}

/**
 * `--rate-limit LIMIT/WINDOW_MS` (else env SANDBOX_RATE_LIMIT) and `--retry-after` (else env
 * SANDBOX_RETRY_AFTER), or `--rate-limit documented` with its own flags (documentedFlags);
 * undefined when no limit is asked for. Shared by this CLI and scripts/dev.ts.
 */
export function parseRateLimitOptions(args: string[], env: NodeJS.ProcessEnv = {}): AnyRateLimitConfig | undefined {
	const flagAt = args.indexOf('--rate-limit');
	if (flagAt >= 0 && (args[flagAt + 1] === undefined || args[flagAt + 1].startsWith('--'))) {
		throw new Error('--rate-limit needs LIMIT/WINDOW_MS, e.g. --rate-limit 50/15000, or documented');
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

	const documented = documentedFlags(args);

	if (text === undefined) {
		if (retryAfter) throw new Error('--retry-after / SANDBOX_RETRY_AFTER needs a rate limit (--rate-limit or SANDBOX_RATE_LIMIT)');
		if (documented.given.length > 0) {
			throw new Error(`${documented.given.join(', ')} needs the documented limits (--rate-limit documented or SANDBOX_RATE_LIMIT=documented)`);
		}
		return undefined;
	}
	if (text.trim().toLowerCase() === 'documented') {
		if (retryAfter) {
			throw new Error('--retry-after / SANDBOX_RETRY_AFTER is for a sliding window: the documented limits always send Retry-After');
		}
		return parseRateLimitConfig({ mode: 'documented', ...documented.options });
	}
	const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
	const [limit, windowMs] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
	if (!(Number.isSafeInteger(limit) && limit > 0 && Number.isSafeInteger(windowMs) && windowMs > 0)) {
		throw new Error(
			`${source} must be LIMIT/WINDOW_MS with positive integers, e.g. 50/15000 (got '${text}'), or documented for the service's documented limits`,
		);
	}
	if (documented.given.length > 0) {
		throw new Error(`${documented.given.join(', ')} needs the documented limits (--rate-limit documented), not a sliding window ('${text}')`);
	}
	return parseRateLimitConfig({ limit, windowMs, retryAfter });
}

/**
 * One line for logs, e.g. '50 requests per 15000 ms, with Retry-After', or "the service's documented
 * limits (Bulk SMS 50, SMS 200, … per minute; headers on; Retry-After 30 s)".
 */
export function describeRateLimit(input: AnyRateLimitConfig): string {
	if (input.mode === 'documented') {
		const config = parseRateLimitConfig(input);
		const limits = RATE_CATEGORIES.map((category) => `${RATE_CATEGORY_NAMES[category]} ${config.limits[category]}`).join(', ');
		const window = config.timeFactor === 1 ? 'minute' : `${60 / config.timeFactor} s (time factor ${config.timeFactor})`;
		const retryAfter = Math.ceil(30 / config.timeFactor);
		const sms = config.smsStatus === 503 ? '; SMS and Bulk SMS breaches answer 503' : '';
		return `the service's documented limits (${limits} per ${window}; headers ${config.headers ? 'on' : 'off'}; Retry-After ${retryAfter} s${sms})`;
	}
	const config = input;
	const bases = config.bases ? ` on ${config.bases.join(', ')}` : '';
	return `${config.limit} requests per ${config.windowMs} ms${bases}, ${config.retryAfter ? 'with' : 'without'} Retry-After`;
}

export function rateLimitBanner(config: AnyRateLimitConfig): string {
	// the documented description says what a breach answers (429, or 503 for SMS)
	return config.mode === 'documented' ? describeRateLimit(config) : `${describeRateLimit(config)} (429 beyond it)`;
}

/** The templates of `--dlt-template ID=TEXT` (repeatable), by id. */
export function parseDltTemplateOptions(args: string[]): Record<string, string> {
	return Object.fromEntries(flagValues(args, '--dlt-template', '1107161234567890123="Your OTP is {#var#}"').map(parseDltTemplate));
}

/** `--live`: live mode (a flag without a value). Shared by this CLI and scripts/dev.ts. */
export function parseLiveOption(args: string[]): boolean {
	const valued = args.find((arg) => arg.startsWith('--live='));
	if (valued) throw new Error(`--live takes no value (got '${valued}'): give --live for live mode, nothing for the spec's`);
	return args.includes('--live');
}

/** The banner line of live mode. */
export const LIVE_MODE_BANNER =
	"Live mode: ON, answering as the live service's recorded traffic shows (v1 XML without .json, India-time v1 dates, " +
	'the whatsapp envelope, no X-RateLimit-* headers, no signatures; sandbox/README.md, "Live mode")';

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
		stateFile: argValue(args, '--state'),
		dltTemplates: parseDltTemplateOptions(args),
		live: parseLiveOption(args),
	};
}

type CliOptions = ReturnType<typeof parseCliOptions>;

/** What a person starting the sandbox reads: where it listens, its base URLs, the credentials to paste. */
function banner(sandbox: ExotelSandbox, origin: string, options: CliOptions): string {
	const baseUrls = sandboxBaseUrls(origin);
	const lines = [
		`Exotel sandbox listening on ${origin}`,
		...(options.live ? [LIVE_MODE_BANNER] : []),
		...(options.rateLimit ? [`Account rate limit: ${rateLimitBanner(options.rateLimit)}`] : []),
		...(options.stateFile ? [`Records: ${sandbox.messages().length} SMS kept, since ${new Date(sandbox.records.since).toISOString()} (${sandbox.records.why})`] : []),
		'',
		'Base URLs:',
		...Object.entries(baseUrls).map(([name, url]) => `  ${name.padEnd(13)} ${url}`),
		'',
		'Credentials to paste into n8n (sandbox values, not secrets):',
	];
	for (const [type, data] of Object.entries(sandboxCredentialData(origin))) {
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
	return `${lines.join('\n')}\n`;
}

/** Stops the sandbox on SIGINT or SIGTERM, then exits. */
function stopOnSignals(sandbox: ExotelSandbox, options: CliOptions): void {
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

async function main(): Promise<void> {
	let options: CliOptions;
	try {
		options = parseCliOptions(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(2);
	}
	const { port, latencyMs, timeScale, rateLimit, stateFile, dltTemplates, live } = options;
	const sandbox = new ExotelSandbox({ port, latencyMs, timeScale, rateLimit, stateFile, dltTemplates, live });
	let origin: string;
	try {
		origin = await sandbox.start();
	} catch (error) {
		process.stderr.write(`Could not start the sandbox on 127.0.0.1:${options.port}: ${(error as Error).message}\n`);
		process.exit(1);
	}
	if (options.json) {
		const credentials = sandboxCredentialData(origin);
		process.stdout.write(`${JSON.stringify({ origin, baseUrls: sandboxBaseUrls(origin), credentials, rateLimit: options.rateLimit ?? null, live: options.live })}\n`);
	} else {
		process.stdout.write(banner(sandbox, origin, options));
	}
	stopOnSignals(sandbox, options);
}

if (require.main === module) {
	void main();
}
