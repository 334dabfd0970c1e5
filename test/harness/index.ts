/**
 * Harness that runs the package inside a REAL n8n, installed the way users install
 * community packages, on either release of targets.ts (2.8.4 on Node 20, or the newest
 * installable n8n on Node 24; env `N8N_E2E_TARGET`):
 *
 *   1. n8n itself is installed once into a cache folder per release (see `ensureN8n`).
 *   2. The package is `npm pack`ed (see `packPackage`).
 *   3. Each `N8nInstance` gets its own temporary user folder, where the tarball is
 *      installed with `npm install --omit=peer` into `<userFolder>/.n8n/nodes`,
 *      exactly where n8n's community-packages module looks for it. Node types are
 *      then named `<package-name>.<nodeName>`, as users see them.
 *
 * One file a concern; importers use this index (`from '../harness'`):
 *
 *   targets.ts    which release: 2.8.4 or the newest, its cache folder, what differs between them
 *   install.ts    n8n into its cache folder (lock, marker, Node 24, newest resolution, progress); `npm pack`
 *   log.ts        where the harness's lines go: the tests' stderr (`[n8n-e2e] `) or npm run dev's log
 *   process.ts    child processes and temp folders that never outlive the run (process groups,
 *                 reaper), one-shot commands, long-running servers, ports, child environment
 *   workflows.ts  workflow JSON and builders (linear chains, Set, Webhook)
 *   results.ts    parsing `n8n execute --rawOutput`, a node's items in a run
 *   instance.ts   `N8nInstance`: one isolated n8n, its CLI, processes and REST client
 *   stage.ts      the real-n8n stage's one long-lived n8n (jest globalSetup) and `sharedN8n`
 *   timeouts.ts   every bound the harness waits by, and the jest timeouts that fit them
 */
export { budget, JEST_TIMEOUTS, loadFactor, pollFor, TIMEOUTS } from './timeouts';
export { formatElapsed, harnessLog, progressNow, setHarnessLog, withProgress, type HarnessLog } from './log';
export {
	DEFAULT_CACHE_DIR,
	ensureN8n,
	ensureNode,
	INSTALL_SIZE,
	N8N_TARGET,
	N8N_VERSION,
	n8nCacheDir,
	nodeEnv,
	packPackage,
	prepareSharedPackage,
	REPO_ROOT,
	SHARED_PACKAGE_VARIABLE,
	sharedPackage,
	type EnsureN8nResult,
} from './install';
export {
	freePort,
	killGroup,
	makeTempDir,
	npmEnv,
	pidAlive,
	processGroupAlive,
	removeTempDir,
	runCommand,
	spawnServer,
	trackGroup,
	untrackGroup,
	type RunResult,
	type ServerProcess,
	type SpawnServerOptions,
} from './process';
export {
	makeWorkflow,
	MANUAL_TRIGGER,
	newWorkflowId,
	setNode,
	webhookNode,
	type CredentialSpec,
	type WorkflowJson,
	type WorkflowNode,
} from './workflows';
export {
	nodeError,
	nodeJson,
	nodeOutput,
	nodeRun,
	executeOutcome,
	parseExecutionError,
	parseRawOutput,
	type ExecuteResult,
	type ListedExecution,
	type OutputItem,
	type RunJson,
	type SavedExecution,
} from './results';
export { E2E_ENCRYPTION_KEY, N8nInstance, type CreateInstanceOptions, type N8nProcess, type PublicWorkflow, type SharedInstanceState } from './instance';
export { sharedN8n } from './stage';
export {
	cacheRoot,
	compareVersions,
	devTarget,
	isInstalled,
	LEGACY_N8N_VERSION,
	N8N_TARGETS,
	NEWEST_NODE_MAJOR,
	targetName,
	type N8nTargetName,
} from './targets';
