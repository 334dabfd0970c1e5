/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- starts the stage's shared n8n and writes its state file (process, fs, os, path); never shipped */
/**
 * The real-n8n stage's one long-lived n8n per release. jest's globalSetup (jest.e2e.config.js)
 * installs the packed package once, starts `n8n start` once with the owner and an API key, and
 * writes what a test file needs to reach it into a state file that `N8N_E2E_SHARED` names; every
 * test file then attaches to it (`sharedN8n`), imports its credentials and workflows through the
 * REST API and runs them there. The teardown stops whichever server the state file names (a test
 * that restarts n8n writes the new one back) and removes the folders.
 *
 * Run outside that config (one file with plain jest), `sharedN8n` starts an n8n of the file's own.
 */
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as os from 'os';
import * as path from 'path';

import { N8nInstance, type SharedInstanceState } from './instance';
import { packPackage } from './install';
import { adoptServer, makeTempDir, removeTempDir } from './process';

const STATE_VARIABLE = 'N8N_E2E_SHARED';

/** The stage's n8n for a test file: attached when the stage started one, else the file's own, started. */
export async function sharedN8n(): Promise<N8nInstance> {
	const stateFile = process.env[STATE_VARIABLE];
	if (stateFile && fs.existsSync(stateFile)) return await N8nInstance.attach(stateFile);
	return await startWithPackage();
}

/** jest globalSetup: one n8n for the whole stage. */
export async function startStage(): Promise<void> {
	const began = Date.now();
	const instance = await startWithPackage();
	const stateFile = path.join(os.tmpdir(), `n8n-exotel-stage-${process.pid}-${Date.now()}.json`);
	await fsp.writeFile(stateFile, JSON.stringify(instance.sharedState()));
	process.env[STATE_VARIABLE] = stateFile;
	process.stdout.write(`\n[n8n-e2e] the stage's n8n ${instance.n8n.version} is up at ${instance.baseUrl} in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
}

/** A fresh n8n with this package installed as users get it, a folder it may write files in, running, with an owner and API key. */
async function startWithPackage(): Promise<N8nInstance> {
	const tarball = await packPackage();
	const filesDir = await makeTempDir('files-');
	const instance = await N8nInstance.create({ tarball, env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir } });
	instance.filesDir = filesDir;
	await removeTempDir(path.dirname(tarball));
	await instance.start();
	await instance.setupOwnerAndApiKey();
	return instance;
}

/** jest globalTeardown: stops the server the state file names and removes the stage's folders. */
export async function stopStage(): Promise<void> {
	const stateFile = process.env[STATE_VARIABLE];
	if (!stateFile || !fs.existsSync(stateFile)) return;
	const state = JSON.parse(await fsp.readFile(stateFile, 'utf8')) as SharedInstanceState;
	await adoptServer(state.pid, state.logFile).stop();
	if (process.env.N8N_E2E_KEEP_TMP === '1') {
		process.stderr.write(`[n8n-e2e] keeping ${state.userFolder} (N8N_E2E_KEEP_TMP=1)\n`);
	} else {
		await removeTempDir(state.userFolder);
		await removeTempDir(state.filesDir);
	}
	await fsp.rm(stateFile, { force: true });
}
