/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- starts Redis and PostgreSQL from their binaries in temp folders (process, fs, path); never shipped */
/**
 * Redis and PostgreSQL from Debian's packages, each started on a free loopback port in a temp
 * folder for one test file and stopped by its process group afterwards (through the e2e harness's
 * `spawnServer`, whose reaper also kills them if jest dies). Nothing is left running or on disk.
 *
 * PostgreSQL refuses to run as root: as root, initdb and the server run as the `postgres`
 * user the Debian package creates (through `runuser`), in a folder owned by it.
 */
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as path from 'path';

import { freePort, makeTempDir, removeTempDir, runCommand, spawnServer } from '../harness';

export interface LoopbackService {
	port: number;
	/** The output so far. */
	log: () => string;
	stop: () => Promise<void>;
}

function findBinary(candidates: string[], packageName: string): string {
	const found = candidates.find((file) => fs.existsSync(file));
	if (!found) {
		throw new Error(
			`${path.basename(candidates[0])} not found (looked in ${candidates.join(', ')}). ` +
				`Install the Debian package: apt-get install -y ${packageName}`,
		);
	}
	return found;
}

function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root)
		? fs
				.readdirSync(root)
				.filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	return path.dirname(findBinary(versions.length ? [path.join(root, versions[0], 'bin', 'postgres')] : [`${root}/<version>/bin/postgres`], 'postgresql'));
}

const asRoot = () => process.getuid?.() === 0;

/** Runs a command, as the `postgres` user when we are root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return asRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** `redis-server` on 127.0.0.1, no persistence. */
export async function startRedis(): Promise<LoopbackService> {
	const binary = findBinary(['/usr/bin/redis-server'], 'redis-server');
	const dir = await makeTempDir('redis-');
	const port = await freePort();
	const server = await spawnServer(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		cwd: dir,
		env: process.env,
		ready: 'Ready to accept connections',
	});
	return {
		port,
		log: () => server.log(),
		stop: async () => {
			await server.stop();
			await removeTempDir(dir);
		},
	};
}

/** A throwaway PostgreSQL cluster on 127.0.0.1 with trust auth for user `postgres`. */
export async function startPostgres(): Promise<LoopbackService & { user: string; database: string }> {
	const bin = postgresBinDir();
	const dir = await makeTempDir('postgres-');
	const dataDir = path.join(dir, 'data');
	await fsp.mkdir(dataDir, { mode: 0o700 });
	if (asRoot()) await runCommand('chown', ['-R', 'postgres:postgres', dir], { cwd: dir, env: process.env, timeoutMs: 10_000 });
	const [initCommand, initArgs] = asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '--auth=trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
	const init = await runCommand(initCommand, initArgs, { cwd: dir, env: process.env, timeoutMs: 120_000 });
	if (init.code !== 0) throw new Error(`initdb failed (${init.code}):\n${init.stdout}\n${init.stderr}`);
	const port = await freePort();
	const [command, args] = asPostgres(path.join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-k',
		dir, // the unix socket stays in the temp folder
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
	]);
	const server = await spawnServer(command, args, {
		cwd: dir,
		env: process.env,
		ready: 'database system is ready to accept connections',
		stopSignal: 'SIGINT', // PostgreSQL's fast shutdown
		signalGroup: true, // behind runuser when we are root
	});
	return {
		port,
		user: 'postgres',
		database: 'postgres',
		log: () => server.log(),
		stop: async () => {
			await server.stop();
			await removeTempDir(dir);
		},
	};
}

/**
 * The environment of an n8n main in queue mode on `redis` and `postgres`, with production webhooks
 * only on its webhook processor (N8N_DISABLE_PRODUCTION_MAIN_PROCESS): the service is given the
 * processor's URL.
 */
export function queueModeEnv(redis: LoopbackService, postgres: LoopbackService & { user: string; database: string }): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
	};
}
