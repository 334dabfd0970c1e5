/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- runs the sandbox in a child process and drives it over HTTP (process, timers, __dirname, path, http, child_process); never shipped */
/**
 * The Exotel sandbox in a child process, driven through its control API, so that benches measure
 * only this process's CPU (the node, n8n-core, the HTTP client) and not the simulated service's.
 *
 * Started as `node -r ts-node/register/transpile-only sandbox/cli.ts --port 0 --latency MS --json`
 * (127.0.0.1 only), with `--rate-limit documented [--time-factor N] [--no-rate-limit-headers]
 * [--rate-limit-category NAME=N]...` when a bench asks for the service's documented limits; the first
 * stdout line is `{origin, baseUrls, credentials, rateLimit}`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { HarnessCredential } from '../helpers/n8n-core-harness';
import type { StoredRcsMessage, StoredSmsMessage } from '../../sandbox/stored';
import type { AnyRateLimitConfig, RateCategory, RateLimitStats, RecordedRequest } from '../../sandbox/types';

const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(PACKAGE_ROOT, 'sandbox', 'cli.ts');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

export interface SandboxHealth {
	ok: boolean;
	origin: string;
	requests: number;
	messages: number;
	pendingFaults: number;
	latencyMs: number;
}

/** The sandbox's documented rate-limit mode, as CLI flags (sandbox/README.md, Documented limits). */
export interface DocumentedLimitsOptions {
	/** windows of 60 s / timeFactor (default 1: the service's one-minute windows) */
	timeFactor?: number;
	/** X-RateLimit-* headers on every answer in a category (default true) */
	headers?: boolean;
	/** requests per window by category, overriding the documented ones (`--rate-limit-category NAME=N`) */
	limits?: Partial<Record<RateCategory, number>>;
}

/** The CLI flags of the documented mode. */
export function documentedLimitsArgs(options: DocumentedLimitsOptions): string[] {
	const args = ['--rate-limit', 'documented'];
	if (options.timeFactor !== undefined) args.push('--time-factor', String(options.timeFactor));
	if (options.headers === false) args.push('--no-rate-limit-headers');
	for (const [category, limit] of Object.entries(options.limits ?? {})) args.push('--rate-limit-category', `${category}=${limit}`);
	return args;
}

export interface RequestQuery {
	base?: string;
	method?: string;
	pathIncludes?: string;
}

/** Every child started here, killed on exit whatever happens. */
const children = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook() {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once('exit', () => {
		for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
	});
}

export class SandboxProcess {
	private constructor(
		private readonly child: ChildProcess,
		readonly origin: string,
		private readonly credentialData: Record<string, ICredentialDataDecryptedObject>,
		private stderr: () => string,
	) {}

	/** pid of the child, for the report. */
	get pid(): number | undefined {
		return this.child.pid;
	}

	/**
	 * `documentedLimits`: the service's documented rate limits (counted per category in fixed windows,
	 * 429 past them); off (nothing counted) when absent.
	 */
	static async start(options: { latencyMs?: number; documentedLimits?: DocumentedLimitsOptions } = {}): Promise<SandboxProcess> {
		installExitHook();
		const args = ['-r', require.resolve('ts-node/register/transpile-only'), CLI, '--port', '0', '--json'];
		if (options.latencyMs !== undefined) args.push('--latency', String(options.latencyMs));
		if (options.documentedLimits) args.push(...documentedLimitsArgs(options.documentedLimits));
		const child = spawn(process.execPath, args, {
			cwd: PACKAGE_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			// a rate limit exported for `npm run dev` must not throttle a bench (the flags above say what it has)
			env: { ...process.env, SANDBOX_RATE_LIMIT: '', SANDBOX_RETRY_AFTER: '', TS_NODE_TRANSPILE_ONLY: 'true' },
		});
		children.add(child);
		child.once('exit', () => children.delete(child));

		let stderr = '';
		child.stderr!.setEncoding('utf8');
		child.stderr!.on('data', (chunk: string) => {
			stderr = (stderr + chunk).slice(-4000);
		});

		const line = await new Promise<string>((resolve, reject) => {
			let buffered = '';
			const timer = setTimeout(() => fail(new Error(`The sandbox did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
			const onData = (chunk: string) => {
				buffered += chunk;
				const newline = buffered.indexOf('\n');
				if (newline >= 0) {
					cleanup();
					resolve(buffered.slice(0, newline));
				}
			};
			const onExit = (code: number | null, signal: string | null) =>
				fail(new Error(`The sandbox exited before it started (code ${code}, signal ${signal}): ${stderr.trim()}`));
			const onError = (error: Error) => fail(error);
			function cleanup() {
				clearTimeout(timer);
				child.stdout!.off('data', onData);
				child.off('exit', onExit);
				child.off('error', onError);
			}
			function fail(error: Error) {
				cleanup();
				if (child.exitCode === null) child.kill('SIGKILL');
				reject(error);
			}
			child.stdout!.setEncoding('utf8');
			child.stdout!.on('data', onData);
			child.once('exit', onExit);
			child.once('error', onError);
		});
		// Keep draining stdout (it prints a line on stop) so the pipe never fills.
		child.stdout!.resume();

		const info = JSON.parse(line) as { origin: string; credentials: Record<string, ICredentialDataDecryptedObject> };
		const sandbox = new SandboxProcess(child, info.origin, info.credentials, () => stderr);
		const health = await sandbox.health();
		if (!health.ok) throw new Error(`The sandbox at ${info.origin} is not healthy`);
		return sandbox;
	}

	/** Credentials of every type pointing at this sandbox, as the harness takes them. */
	credentials(): HarnessCredential[] {
		return Object.entries(this.credentialData).map(([type, data]) => ({ type, data: { ...data } }));
	}

	async health(): Promise<SandboxHealth> {
		return (await this.control('GET', '/health')) as SandboxHealth;
	}

	async requests(query: RequestQuery = {}): Promise<RecordedRequest[]> {
		const search = new URLSearchParams(query as Record<string, string>).toString();
		return (await this.control('GET', `/requests${search ? `?${search}` : ''}`)) as RecordedRequest[];
	}

	/** SMS messages the sandbox accepted since the last reset (both endpoints), in acceptance order. */
	async smsMessages(): Promise<StoredSmsMessage[]> {
		return (await this.control('GET', '/messages')) as StoredSmsMessage[];
	}

	/** RCS messages the sandbox accepted since the last reset, in acceptance order. */
	async rcsMessages(): Promise<StoredRcsMessage[]> {
		return (await this.control('GET', '/rcs-messages')) as StoredRcsMessage[];
	}

	async reset(): Promise<void> {
		await this.control('POST', '/reset');
	}

	async setLatency(ms: number): Promise<void> {
		await this.control('POST', '/latency', { ms });
	}

	/** The account rate limit now (null when off), with its counters. */
	async rateLimit(): Promise<{ rateLimit: AnyRateLimitConfig | null } & RateLimitStats> {
		return (await this.control('GET', '/rate-limit')) as { rateLimit: AnyRateLimitConfig | null } & RateLimitStats;
	}

	/** Sets the account rate limit (a new empty window, zero counters), e.g. `{mode: 'documented', headers: false}`; null turns it off. */
	async setRateLimit(config: AnyRateLimitConfig | null): Promise<void> {
		if (config === null) await this.control('DELETE', '/rate-limit');
		else await this.control('POST', '/rate-limit', config);
	}

	/** SIGTERM (the CLI closes its server and exits), SIGKILL if it has not exited within 5 s. */
	async stop(): Promise<void> {
		const child = this.child;
		if (child.exitCode !== null || child.signalCode !== null) return;
		await new Promise<void>((resolve) => {
			const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
			child.once('exit', () => {
				clearTimeout(timer);
				resolve();
			});
			child.kill('SIGTERM');
		});
		child.stdout?.destroy();
		child.stderr?.destroy();
	}

	/** One control call on a fresh connection (no keep-alive socket left behind). */
	private control(method: string, urlPath: string, body?: unknown): Promise<unknown> {
		const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
		return new Promise((resolve, reject) => {
			const req = http.request(
				`${this.origin}/__sandbox${urlPath}`,
				{
					method,
					agent: false,
					headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
				},
				(res) => {
					const chunks: Buffer[] = [];
					res.on('data', (chunk: Buffer) => chunks.push(chunk));
					res.on('end', () => {
						const text = Buffer.concat(chunks).toString('utf8');
						if ((res.statusCode ?? 0) >= 400) {
							reject(new Error(`Sandbox control ${method} ${urlPath} answered ${res.statusCode}: ${text.slice(0, 300)}`));
							return;
						}
						try {
							resolve(JSON.parse(text));
						} catch (error) {
							reject(error);
						}
					});
					res.on('error', reject);
				},
			);
			req.on('error', (error) => reject(new Error(`Sandbox control ${method} ${urlPath}: ${error.message}. ${this.stderr().trim()}`)));
			req.end(payload);
		});
	}
}
