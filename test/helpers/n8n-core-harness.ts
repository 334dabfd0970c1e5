/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- runs n8n-core in-process with its DI container and a temporary instance folder (@n8n/backend-common, @n8n/config, @n8n/di, fs, os, path, process, __dirname); never shipped */
/**
 * In-process harness: runs workflows through n8n-core's real `WorkflowExecute`, with this
 * package's node and credential types loaded from their TypeScript sources by n8n-core's own
 * `PackageDirectoryLoader` (the `dist/...js` paths of package.json `n8n` are mapped to the
 * `.ts` files next to them).
 *
 * What is real n8n code here: the execution engine (item routing, pairedItem, continueOnFail,
 * onError and the error output, retryOnFail), the node execution contexts and their helpers
 * (httpRequest, httpRequestWithAuthentication with its preAuthentication / 401 re-login path,
 * prepareBinaryData on a filesystem binary-data store), parameter defaults and expressions, the
 * package loader and the credential encryption. What is the harness's own: the credentials
 * helper (a copy of the behaviour of the n8n CLI's `CredentialsHelper`, backed by an in-memory
 * store instead of the database) and the `additionalData` that the CLI would build.
 */
import { Logger } from '@n8n/backend-common';
import { CronLoggingConfig, InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
	BinaryDataConfig,
	BinaryDataService,
	Credentials,
	DirectoryLoader,
	ErrorReporter,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	getAdditionalKeys,
	InstanceSettings,
	PackageDirectoryLoader,
	generateUrlSignature,
	prepareUrlForSigning,
	RoutingNode,
	WAITING_TOKEN_QUERY_PARAM,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import { ScheduledTaskManager } from 'n8n-core/dist/execution-engine/scheduled-task-manager';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import {
	ApplicationError,
	deepCopy,
	ICredentialsHelper,
	SEND_AND_WAIT_OPERATION,
	isExpression,
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
} from 'n8n-workflow';
import type {
	ExecutionError,
	ExecutionStatus,
	IConnections,
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	IExecuteResponsePromiseData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentials,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IRunData,
	IVersionedNodeType,
	IWebhookData,
	IWorkflowBase,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';

// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

export interface HarnessCredential {
	type: string;
	data: ICredentialDataDecryptedObject;
	/** Defaults to `type`. Nodes reference credentials as `{ [type]: { id, name } }`. */
	id?: string;
	/** Defaults to `id`. */
	name?: string;
}

export interface RunWorkflowOptions {
	/** May use the harness's own `test.items` node (see `itemsNode`). */
	nodes: INode[];
	connections: IConnections;
	/** Added to `credentialStore` (or to a new store). */
	credentials?: HarnessCredential[];
	/** Reuse the store of an earlier run, so that persisted credential data (sessions) carries over. */
	credentialStore?: CredentialStore;
	/** Name of the node to start from. Default: the one enabled node with no main input. */
	startNode?: string;
	/** Extra node types, registered under their `description.name` as is (no package prefix). */
	nodeTypes?: Array<INodeType | IVersionedNodeType>;
	/** Extra credential types, registered under their `name`. */
	credentialTypes?: ICredentialType[];
	/** Default 'manual' (what "Execute workflow" in the editor uses). */
	mode?: WorkflowExecuteMode;
	/** Merged over the defaults `{ executionOrder: 'v1' }` that n8n gives new workflows. */
	settings?: IWorkflowSettings;
	/**
	 * Nodes that have no `credentials` get every credential in the store whose type their
	 * description lists (as if picked in the editor). Default true.
	 */
	autoAssignCredentials?: boolean;
	/** Workflow-level static data (`getWorkflowStaticData`). */
	staticData?: IDataObject;
	/** The instance's base URL (resume URLs start with it). Default http://localhost:5678/. */
	baseUrl?: string;
}

/**
 * An error as n8n stores it on the run: a plain copy (`{ ...error, message, stack }`) of the
 * thrown `ExecutionBaseError` subclass, so `name` ('NodeApiError', 'NodeOperationError', ...),
 * `message`, `description`, `httpCode`, `context`, `node`, `level` are there but `instanceof`
 * does not hold.
 */
export type RunError = ExecutionError & { httpCode?: string | null };

export interface RunResult {
	/** The run as `WorkflowExecute` returns it. */
	run: IRun;
	status: ExecutionStatus;
	runData: IRunData;
	/** Workflow-level failure (`run.data.resultData.error`). */
	error?: RunError;
	/** Items a node put on one of its outputs (0 = main / success, 1 = error output with onError=continueErrorOutput). Throws if the node did not run. */
	output(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** Error recorded on a node's run (also set for nodes that continued on fail after throwing). */
	nodeError(nodeName: string, runIndex?: number): RunError | undefined;
	/** Node names in the order they finished. */
	executionOrder: string[];
	/** What nodes answered the request that started the run (`this.sendResponse`), in order. */
	responses: IExecuteResponsePromiseData[];
	/** Reads a binary property of an output item (filesystem-stored or inline). */
	binaryBuffer(item: INodeExecutionData, property?: string): Promise<Buffer>;
	credentialStore: CredentialStore;
	durationMs: number;
	/** When the run went to wait (putExecutionToWait), the date it waits till. */
	waitTill?: Date;
	/**
	 * A request to the waiting execution's resume URL, handled as n8n's WaitingWebhooks does: the
	 * signature checked when the node asked for it (sendAndWait), the node's `webhook()` called with a
	 * real n8n-core WebhookContext on the saved execution, and, when it returns items, the execution
	 * continued from that node. `answer` is what the caller got; `result` the continued run.
	 */
	resume(request: ResumeRequest): Promise<{ answer: ResumeAnswer; result?: RunResult }>;
	/** The waiting execution resumed by its Limit Wait Time, as n8n's wait tracker does. */
	timeOut(): Promise<RunResult>;
}

export interface ResumeRequest {
	/** The resume URL as the node gave it (query included). */
	url: string;
	method?: 'GET' | 'POST' | 'HEAD';
	/** Raw bytes as sent; parsed as n8n does by content type. */
	body?: string | Buffer;
	contentType?: string;
	headers?: Record<string, string>;
}

export interface ResumeAnswer {
	status: number;
	body: unknown;
	headers: Record<string, string>;
	/** Who answered a request the node took: n8n with the node's webhookResponse once it held the execution, or the node itself. */
	answeredBy?: 'node' | 'n8n';
}

// ---------------------------------------------------------------------------------------------
// Process-wide n8n-core environment (DI container, instance folder, binary data store)
// ---------------------------------------------------------------------------------------------

const HARNESS_ENCRYPTION_KEY = 'n8n-nodes-exotel-harness-dummy-encryption-key';

interface HarnessEnvironment {
	folder: string;
	binaryReady: Promise<void>;
}

let environment: HarnessEnvironment | undefined;

/** Messages n8n-core logged (kept, not printed; set N8N_HARNESS_LOG=1 to print them too). */
export const harnessLog: Array<{ level: string; message: string; meta?: unknown }> = [];

function makeSilentLogger(): Logger {
	const print = process.env.N8N_HARNESS_LOG === '1';
	const record = (level: string) => (message: string, meta?: unknown) => {
		if (harnessLog.length >= 500) harnessLog.shift();
		harnessLog.push({ level, message, meta });
		if (print) process.stdout.write(`[n8n ${level}] ${message}\n`);
	};
	const logger = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
		scoped: () => logger,
		getInternalLogger: () => {
			throw new UnexpectedError('The harness logger has no internal logger');
		},
	};
	return logger as unknown as Logger;
}

const FOLDER_PREFIX = 'n8n-nodes-exotel-harness-';

/** Removes folders left by harness processes that are gone (killed, crashed, or exited without cleanup). */
function removeStaleFolders() {
	let names: string[];
	try {
		names = readdirSync(tmpdir());
	} catch {
		return;
	}
	for (const name of names) {
		const match = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name);
		if (!match || Number(match[1]) === process.pid) continue;
		try {
			process.kill(Number(match[1]), 0);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
				rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
			}
		}
	}
}

function cleanupEnvironment() {
	if (!environment) return;
	const { folder } = environment;
	environment = undefined;
	rmSync(folder, { recursive: true, force: true });
}

// Remove the temporary instance folder when the test file is done (or else when the process
// exits: outside jest, or when this module is first required inside a test, where jest refuses
// new hooks).
let cleanupRegistered = false;
if (
	typeof afterAll === 'function' &&
	typeof expect !== 'undefined' &&
	expect.getState().currentTestName === undefined
) {
	afterAll(cleanupEnvironment);
	cleanupRegistered = true;
}
if (!cleanupRegistered) process.once('exit', cleanupEnvironment);

/**
 * Sets up what n8n-core takes from its DI container: a silent Logger, InstanceSettings on a
 * temporary n8n folder with a fixed encryption key (credentials are stored encrypted, as in
 * the database), and a BinaryDataService in `filesystem` mode (n8n's default) under that folder.
 */
function ensureEnvironment(): HarnessEnvironment {
	if (environment) return environment;
	removeStaleFolders();
	const folder = mkdtempSync(path.join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));

	Container.set(Logger, makeSilentLogger());

	// Explicit values rather than N8N_* environment variables, which the test process may have.
	const instanceConfig = Object.assign(new InstanceSettingsConfig(), {
		n8nFolder: path.join(folder, '.n8n'),
		userHome: folder,
		encryptionKey: HARNESS_ENCRYPTION_KEY,
		enforceSettingsFilePermissions: false,
	});
	Container.set(InstanceSettingsConfig, instanceConfig);
	Container.get(InstanceSettings);

	const binaryConfig = Container.get(BinaryDataConfig);
	binaryConfig.mode = 'filesystem';
	binaryConfig.localStoragePath = path.join(folder, 'binary-data');
	const binaryDataService = Container.get(BinaryDataService);
	const binaryReady = binaryDataService.init();
	// Reported when awaited by runWorkflow; avoid an unhandled rejection before that.
	binaryReady.catch(() => undefined);

	// Services n8n-core creates on first use whose constructors start timers or add process
	// listeners (SSHClientsManager: a 60 s interval and an 'exit' listener per instance;
	// ScheduledTaskManager: a logging interval). Same classes, set up without those.
	const sshClientsManager = Object.create(SSHClientsManager.prototype) as SSHClientsManager;
	Object.assign(sshClientsManager, {
		config: { idleTimeout: 5 * 60 },
		logger: Container.get(Logger),
		clients: new Map(),
		clientsReversed: new WeakMap(),
	});
	Container.set(SSHClientsManager, sshClientsManager);
	const cronLogging = new CronLoggingConfig();
	cronLogging.activeInterval = 0;
	Container.set(CronLoggingConfig, cronLogging);
	Container.set(
		ScheduledTaskManager,
		new ScheduledTaskManager(
			Container.get(InstanceSettings),
			Container.get(Logger),
			cronLogging,
			Container.get(ErrorReporter),
		),
	);

	environment = { folder, binaryReady };
	return environment;
}

// ---------------------------------------------------------------------------------------------
// Loading this package's nodes and credentials from the TypeScript sources
// ---------------------------------------------------------------------------------------------

const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

/** n8n-core's own package loader, reading `nodes/X.node.ts` where package.json says `dist/nodes/X.node.js`. */
class SourcePackageLoader extends PackageDirectoryLoader {
	protected override resolvePath(file: string): string {
		const normalized = file.replace(/\\/g, '/').replace(/^\.\//, '');
		if (normalized.startsWith('dist/')) {
			const source = normalized.slice('dist/'.length).replace(/\.js$/, '.ts');
			return path.resolve(this.directory, source);
		}
		return super.resolvePath(file);
	}
}

interface LoadedPackage {
	packageName: string;
	/** Full type name (`n8n-nodes-exotel.exotelMessaging`) to node type. */
	nodes: Map<string, INodeType | IVersionedNodeType>;
	credentials: Map<string, ICredentialType>;
	/** Credential type name to the types it extends. */
	extendsOf: Map<string, string[]>;
	/** Files listed in package.json that could not be loaded. */
	loadErrors: Array<{ file: string; error: Error }>;
}

let loadedPackage: LoadedPackage | undefined;

function readPackageName(): string {
	const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
		name: string;
	};
	return pkg.name;
}

function loadPackage(): LoadedPackage {
	if (loadedPackage) return loadedPackage;
	ensureEnvironment();
	const loader = new SourcePackageLoader(PACKAGE_ROOT);
	const { n8n, version } = loader.packageJson;
	const loadErrors: LoadedPackage['loadErrors'] = [];
	// As PackageDirectoryLoader.loadAll does, but file by file so that one broken or missing
	// file does not hide the others (the loader itself is all-or-nothing).
	for (const file of n8n?.nodes ?? []) {
		try {
			loader.loadNodeFromFile(file, version);
		} catch (error) {
			loadErrors.push({ file, error: error as Error });
		}
	}
	for (const file of n8n?.credentials ?? []) {
		try {
			loader.loadCredentialFromFile(file);
		} catch (error) {
			loadErrors.push({ file, error: error as Error });
		}
	}
	try {
		(loader as unknown as { inferSupportedNodes(): void }).inferSupportedNodes();
	} catch (error) {
		loadErrors.push({ file: '(inferSupportedNodes)', error: error as Error });
	}

	const nodes = new Map<string, INodeType | IVersionedNodeType>();
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		nodes.set(`${loader.packageName}.${name}`, type);
	}
	const credentials = new Map<string, ICredentialType>();
	const extendsOf = new Map<string, string[]>();
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
		credentials.set(name, type);
		extendsOf.set(name, loader.known.credentials[name]?.extends ?? type.extends ?? []);
	}
	loadedPackage = { packageName: loader.packageName, nodes, credentials, extendsOf, loadErrors };
	return loadedPackage;
}

function describeLoadErrors(pkg: LoadedPackage): string {
	if (pkg.loadErrors.length === 0) return '';
	return (
		' Files of the package that failed to load: ' +
		pkg.loadErrors.map(({ file, error }) => `${file}: ${error.message}`).join('; ')
	);
}

// ---------------------------------------------------------------------------------------------
// Node types
// ---------------------------------------------------------------------------------------------

export const ITEMS_NODE_TYPE = 'test.items';

/** Harness-only node: ignores its input and emits the JSON items in its `items` parameter. */
class TestItemsNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: ITEMS_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits fixed items (test harness only)',
		defaults: { name: 'Test Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		properties: [
			{
				displayName: 'Items (JSON)',
				name: 'items',
				type: 'json',
				default: '[]',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

const itemsNodeType = new TestItemsNode();

let nodeCounter = 0;

/** A node of the harness-only `test.items` type that emits the given JSON items. */
export function itemsNode(name: string, items: Array<IDataObject | Record<string, unknown>>): INode {
	return {
		id: `harness-node-${++nodeCounter}`,
		name,
		type: ITEMS_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(items) },
	};
}

/** Mirrors the CLI's `shouldAssignExecuteMethod`: declarative nodes run through RoutingNode. */
function shouldAssignExecuteMethod(nodeType: INodeType): boolean {
	const isDeclarativeNode = nodeType?.description?.requestDefaults !== undefined;
	return (
		!nodeType.execute &&
		!nodeType.poll &&
		!nodeType.trigger &&
		(!nodeType.webhook || isDeclarativeNode) &&
		(!nodeType.methods || isDeclarativeNode)
	);
}

const preparedExtras = new WeakSet<INodeType>();

class HarnessNodeTypes implements INodeTypes {
	private readonly extras = new Map<string, INodeType | IVersionedNodeType>();

	constructor(extras: Array<INodeType | IVersionedNodeType> = []) {
		this.extras.set(ITEMS_NODE_TYPE, itemsNodeType);
		for (const type of extras) {
			// What the loader does to every node it loads (adds the declarative `requestOptions`); once per type.
			if (!('nodeVersions' in type) && !preparedExtras.has(type)) {
				DirectoryLoader.applyDeclarativeNodeOptionParameters(type);
				preparedExtras.add(type);
			}
			this.extras.set(type.description.name, type);
		}
	}

	private lookup(nodeType: string): INodeType | IVersionedNodeType {
		const extra = this.extras.get(nodeType);
		if (extra) return extra;
		const pkg = loadPackage();
		const loaded = pkg.nodes.get(nodeType);
		if (loaded) return loaded;
		throw new UnexpectedError(
			`Unknown node type "${nodeType}". Package nodes are named "${pkg.packageName}.<description.name>" ` +
				`(known: ${[...pkg.nodes.keys(), ...this.extras.keys()].join(', ')}).` +
				describeLoadErrors(pkg),
		);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.lookup(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const versioned = NodeHelpers.getVersionedNodeType(this.lookup(nodeType), version);
		if (shouldAssignExecuteMethod(versioned)) {
			versioned.execute = async function (this: IExecuteFunctions) {
				const context = this as unknown as ConstructorParameters<typeof RoutingNode>[0];
				const routingNode = new RoutingNode(context, versioned);
				const data = await routingNode.runNode();
				return data ?? [];
			};
		}
		return versioned;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** The package's node types (from package.json `n8n.nodes`, TypeScript sources) plus `test.items`. */
export function packageNodeTypes(extras: Array<INodeType | IVersionedNodeType> = []): INodeTypes {
	return new HarnessNodeTypes(extras);
}

/** Full type name of one of this package's nodes, e.g. `n8n-nodes-exotel.exotelMessaging`. */
export function packageNodeType(name: string): string {
	return `${loadedPackage?.packageName ?? readPackageName()}.${name}`;
}

// ---------------------------------------------------------------------------------------------
// Credential types
// ---------------------------------------------------------------------------------------------

class HarnessCredentialTypes implements ICredentialTypes {
	private readonly extras = new Map<string, ICredentialType>();

	constructor(extras: ICredentialType[] = []) {
		for (const type of extras) this.extras.set(type.name, type);
	}

	private find(type: string): ICredentialType | undefined {
		return this.extras.get(type) ?? loadPackage().credentials.get(type);
	}

	recognizes(type: string): boolean {
		return this.find(type) !== undefined;
	}

	getByName(type: string): ICredentialType {
		const found = this.find(type);
		if (!found) {
			const pkg = loadPackage();
			throw new UnexpectedError(
				`Unknown credential type "${type}" (known: ${[...pkg.credentials.keys(), ...this.extras.keys()].join(', ')}).` +
					describeLoadErrors(pkg),
			);
		}
		return found;
	}

	getSupportedNodes(type: string): string[] {
		return this.find(type)?.supportedNodes ?? [];
	}

	getParentTypes(typeName: string): string[] {
		const extra = this.extras.get(typeName);
		const direct = extra ? (extra.extends ?? []) : (loadPackage().extendsOf.get(typeName) ?? []);
		const all = [...direct];
		for (const parent of direct) all.push(...this.getParentTypes(parent));
		return all;
	}
}

/** The package's credential types (package.json `n8n.credentials`, TypeScript sources). */
export function packageCredentialTypes(extras: ICredentialType[] = []): ICredentialTypes {
	return new HarnessCredentialTypes(extras);
}

// ---------------------------------------------------------------------------------------------
// Credential store (stands in for the credentials table)
// ---------------------------------------------------------------------------------------------

interface StoredCredential {
	id: string;
	name: string;
	type: string;
	/** Encrypted with the instance key, as in the database. */
	data: string;
}

function encryptedData(credentials: Credentials): string {
	const { data } = credentials.getDataToSave();
	if (data === undefined) throw new UnexpectedError('Credential has no data to save');
	return data;
}

/** Error the CLI throws for a missing credential (`CredentialNotFoundError`). */
class CredentialNotFoundError extends UserError {
	constructor(credentialId: string, credentialType: string) {
		super(`Credential with ID "${credentialId}" does not exist for type "${credentialType}".`);
	}
}

export class CredentialStore {
	private readonly entries = new Map<string, StoredCredential>();

	private readonly preAuthCalls = new Map<string, number>();

	private readonly updates = new Map<string, number>();

	constructor(credentials: HarnessCredential[] = []) {
		ensureEnvironment();
		for (const credential of credentials) this.add(credential);
	}

	/** Adds (or replaces) a credential; returns how nodes reference it. */
	add(credential: HarnessCredential): INodeCredentialsDetails {
		const id = credential.id ?? credential.type;
		const name = credential.name ?? id;
		const entity = new Credentials({ id, name }, credential.type);
		entity.setData(credential.data);
		this.entries.set(id, { id, name, type: credential.type, data: encryptedData(entity) });
		return { id, name };
	}

	has(idOrType: string): boolean {
		return this.resolve(idOrType) !== undefined;
	}

	/** Credential types present. */
	types(): string[] {
		return [...new Set([...this.entries.values()].map((entry) => entry.type))];
	}

	/** `{ [type]: { id, name } }` for a node's `credentials`, for every credential of the given types. */
	nodeCredentials(...types: string[]): INodeCredentials {
		const out: INodeCredentials = {};
		for (const entry of this.entries.values()) {
			if (types.includes(entry.type) && !out[entry.type]) {
				out[entry.type] = { id: entry.id, name: entry.name };
			}
		}
		return out;
	}

	/** The data as persisted (decrypted; without defaults), e.g. to read a refreshed session id. */
	get(idOrType: string): ICredentialDataDecryptedObject {
		const entry = this.require(idOrType);
		return this.decrypt(entry);
	}

	/** Overwrites the persisted data (like saving the credential in the editor). */
	set(idOrType: string, data: ICredentialDataDecryptedObject): void {
		const entry = this.require(idOrType);
		this.writeData(entry, data);
	}

	/** Merges into the persisted data. */
	patch(idOrType: string, data: ICredentialDataDecryptedObject): void {
		const entry = this.require(idOrType);
		this.writeData(entry, { ...this.decrypt(entry), ...data });
	}

	/** How often a credential type's `preAuthentication` actually ran (all credentials when no argument). */
	preAuthenticationCalls(idOrType?: string): number {
		return this.count(this.preAuthCalls, idOrType);
	}

	/** How often `updateCredentials` / `updateCredentialsOauthTokenData` persisted new data. */
	updateCalls(idOrType?: string): number {
		return this.count(this.updates, idOrType);
	}

	// ---- used by the credentials helper ----

	/** As the CLI's `getCredentialsEntity`: by id, checking the type. */
	entity(nodeCredential: INodeCredentialsDetails, type: string): StoredCredential {
		if (!nodeCredential.id) {
			throw new UnexpectedError('Found credential with no ID.', {
				extra: { credentialName: nodeCredential.name },
				tags: { credentialType: type },
			});
		}
		const entry = this.entries.get(nodeCredential.id);
		if (!entry || entry.type !== type) throw new CredentialNotFoundError(nodeCredential.id, type);
		return entry;
	}

	/** As the repository update in the CLI's `updateCredentials`. */
	saveEncrypted(id: string, type: string, data: string): void {
		const entry = this.entries.get(id);
		if (!entry || entry.type !== type) throw new CredentialNotFoundError(id, type);
		entry.data = data;
		this.updates.set(id, (this.updates.get(id) ?? 0) + 1);
	}

	recordPreAuthentication(id: string): void {
		this.preAuthCalls.set(id, (this.preAuthCalls.get(id) ?? 0) + 1);
	}

	private count(counts: Map<string, number>, idOrType?: string): number {
		if (idOrType === undefined) return [...counts.values()].reduce((a, b) => a + b, 0);
		const entry = this.require(idOrType);
		return counts.get(entry.id) ?? 0;
	}

	private resolve(idOrType: string): StoredCredential | undefined {
		const byId = this.entries.get(idOrType);
		if (byId) return byId;
		const byType = [...this.entries.values()].filter((entry) => entry.type === idOrType);
		if (byType.length > 1) {
			throw new UnexpectedError(
				`Several credentials of type "${idOrType}" (${byType.map((e) => e.id).join(', ')}): use the id`,
			);
		}
		return byType[0];
	}

	private require(idOrType: string): StoredCredential {
		const entry = this.resolve(idOrType);
		if (!entry) throw new UnexpectedError(`No credential "${idOrType}" in the harness store`);
		return entry;
	}

	private decrypt(entry: StoredCredential): ICredentialDataDecryptedObject {
		return new Credentials({ id: entry.id, name: entry.name }, entry.type, entry.data).getData();
	}

	private writeData(entry: StoredCredential, data: ICredentialDataDecryptedObject): void {
		const credentials = new Credentials({ id: entry.id, name: entry.name }, entry.type);
		credentials.setData(data);
		entry.data = encryptedData(credentials);
	}
}

// ---------------------------------------------------------------------------------------------
// Credentials helper: the CLI's CredentialsHelper (n8n 2.8.4 packages/cli/src/credentials-helper.ts)
// minus the database, credential overwrites, external secrets and dynamic credentials.
// ---------------------------------------------------------------------------------------------

const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

const mockNodeTypes: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: (nodeType: string, version?: number) => {
		if (nodeType !== 'mock') throw new UnexpectedError('Unknown node type', { tags: { nodeType } });
		return NodeHelpers.getVersionedNodeType(
			{ description: { properties: [] } } as unknown as INodeType,
			version,
		);
	},
};

/**
 * The credential data with the expressions of the node's context resolved, or the error resolving them,
 * its message marked as the CLI marks it.
 */
function resolveCredentialExpressions(
	decryptedData: ICredentialDataDecryptedObject,
	values: ICredentialsExpressionResolveValues,
	mode: WorkflowExecuteMode,
	additionalKeys: IWorkflowDataProxyAdditionalKeys,
	executeData?: IExecuteData,
): { data: ICredentialDataDecryptedObject } | { error: Error } {
	try {
		const data = values.workflow.expression.getParameterValue(
			decryptedData as INodeParameters,
			values.runExecutionData,
			values.runIndex,
			values.itemIndex,
			values.node.name,
			values.connectionInputData,
			mode,
			additionalKeys,
			executeData,
			false,
			decryptedData,
		) as ICredentialDataDecryptedObject;
		return { data };
	} catch (e) {
		(e as Error).message += ' [Error resolving credentials]';
		return { error: e as Error };
	}
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialTypes: ICredentialTypes,
		private readonly store: CredentialStore,
	) {
		super();
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions & IDataObject;
		const credentialType = this.credentialTypes.getByName(typeName);
		if (credentialType.authenticate) {
			if (typeof credentialType.authenticate === 'function') {
				return await credentialType.authenticate(credentials, requestOptions);
			}
			if (typeof credentialType.authenticate === 'object') {
				const { authenticate } = credentialType;
				if (requestOptions.headers === undefined) requestOptions.headers = {};
				if (authenticate.type === 'generic') {
					for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
						for (const [key, value] of Object.entries(outerValue as IDataObject)) {
							const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
							const valueResolved = this.resolveValue(
								value as string,
								{ $credentials: credentials },
								workflow,
								node,
							);
							if (!requestOptions[outerKey]) requestOptions[outerKey] = {};
							(requestOptions[outerKey] as IDataObject)[keyResolved] = valueResolved;
						}
					}
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;

		// The credential test ("Test" in the credential modal) runs through a temporary NoOp node.
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';

		if (typeof credentialType.preAuthentication === 'function') {
			if (
				credentials[expirableProperty.name] === '' ||
				credentialsExpired ||
				isTestingCredentials
			) {
				const nodeCredential = node.credentials?.[credentialType.name];
				if (nodeCredential?.id) this.store.recordPreAuthentication(nodeCredential.id);
				const output = await credentialType.preAuthentication.call(helpers, credentials);
				if (output[expirableProperty.name] === undefined) return undefined;
				if (node.credentials) {
					await this.updateCredentials(
						node.credentials[credentialType.name],
						credentialType.name,
						Object.assign(credentials, output),
					);
					return Object.assign(credentials, output);
				}
			}
		}
		return undefined;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IDataObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) return '';
		return returnValue.toString();
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
	}

	async getCredentials(nodeCredential: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const entity = this.store.entity(nodeCredential, type);
		return new Credentials({ id: entity.id, name: entity.name }, entity.type, entity.data);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialTypeData = this.credentialTypes.getByName(type);
		if (credentialTypeData === undefined) {
			throw new UnexpectedError('Unknown credential type', { tags: { credentialType: type } });
		}
		if (credentialTypeData.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialTypeData.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialTypeData.properties;
		}
		const combineProperties: INodeProperties[] = [];
		for (const credentialsTypeName of credentialTypeData.extends) {
			NodeHelpers.mergeNodeProperties(
				combineProperties,
				this.getCredentialsProperties(credentialsTypeName),
			);
		}
		NodeHelpers.mergeNodeProperties(combineProperties, credentialTypeData.properties);
		return combineProperties;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentials = await this.getCredentials(nodeCredentials, type);
		const decryptedDataOriginal = credentials.getData();
		if (raw === true) return decryptedDataOriginal;
		return this.applyDefaults(
			additionalData,
			decryptedDataOriginal,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	private applyDefaults(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const credentialsProperties = this.getCredentialsProperties(type);
		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			decryptedDataOriginal as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}
		if (
			decryptedData.allowedHttpRequestDomains === undefined &&
			decryptedDataOriginal.allowedHttpRequestDomains !== undefined
		) {
			decryptedData.allowedHttpRequestDomains = decryptedDataOriginal.allowedHttpRequestDomains;
		}
		if (decryptedData.allowedDomains === undefined && decryptedDataOriginal.allowedDomains !== undefined) {
			decryptedData.allowedDomains = decryptedDataOriginal.allowedDomains;
		}
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { secretsEnabled: false });
		if (expressionResolveValues) {
			const resolved = resolveCredentialExpressions(decryptedData, expressionResolveValues, mode, additionalKeys, executeData);
			if ('error' in resolved) throw resolved.error;
			decryptedData = resolved.data;
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decryptedData = workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		}
		return decryptedData;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credentials = (await this.getCredentials(nodeCredentials, type)) as Credentials;
		credentials.setData(data);
		this.store.saveEncrypted(String(nodeCredentials.id), type, encryptedData(credentials));
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credentials = (await this.getCredentials(nodeCredentials, type)) as Credentials;
		credentials.updateData({ oauthTokenData: data.oauthTokenData });
		this.store.saveEncrypted(String(nodeCredentials.id), type, encryptedData(credentials));
	}
}

// ---------------------------------------------------------------------------------------------
// Running a workflow
// ---------------------------------------------------------------------------------------------

let executionCounter = 0;

const DEFAULT_BASE_URL = 'http://localhost:5678/';

function pickStartNode(workflow: Workflow, requested?: string): INode {
	if (requested) {
		const node = workflow.getNode(requested);
		if (!node) throw new UnexpectedError(`Start node "${requested}" is not in the workflow`);
		return node;
	}
	const roots = Object.values(workflow.nodes).filter(
		(node) => !node.disabled && !workflow.connectionsByDestinationNode[node.name]?.main?.some((c) => c?.length),
	);
	if (roots.length !== 1) {
		throw new UnexpectedError(
			`Cannot pick the start node: ${roots.length} nodes without inputs (${roots.map((n) => n.name).join(', ')}); pass startNode`,
		);
	}
	return roots[0];
}

function assignCredentials(nodes: INode[], nodeTypes: INodeTypes, store: CredentialStore): INode[] {
	const available = store.types();
	if (available.length === 0) return nodes;
	return nodes.map((node) => {
		if (node.credentials) return node;
		const { description } = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const wanted = (description.credentials ?? [])
			.map((credential) => credential.name)
			.filter((name) => available.includes(name));
		if (wanted.length === 0) return node;
		return { ...node, credentials: store.nodeCredentials(...wanted) };
	});
}

export async function runWorkflow(opts: RunWorkflowOptions): Promise<RunResult> {
	const started = Date.now();
	const env = ensureEnvironment();
	await env.binaryReady;

	const nodeTypes = new HarnessNodeTypes(opts.nodeTypes);
	const credentialTypes = new HarnessCredentialTypes(opts.credentialTypes);
	const credentialStore = opts.credentialStore ?? new CredentialStore();
	for (const credential of opts.credentials ?? []) credentialStore.add(credential);

	// Nodes are copied: the engine and Workflow mutate them (parameters get their defaults).
	let nodes = JSON.parse(JSON.stringify(opts.nodes)) as INode[];
	if (opts.autoAssignCredentials !== false) nodes = assignCredentials(nodes, nodeTypes, credentialStore);

	const executionId = String(++executionCounter);
	const workflowId = `harness-workflow-${executionId}`;
	const settings: IWorkflowSettings = { executionOrder: 'v1', ...opts.settings };
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness workflow',
		nodes,
		connections: opts.connections,
		active: false,
		nodeTypes,
		staticData: opts.staticData,
		settings,
	});
	const startNode = pickStartNode(workflow, opts.startNode);
	const mode = opts.mode ?? 'manual';

	const workflowData = {
		id: workflowId,
		name: workflow.name,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: opts.connections,
		settings,
	} as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName: string) => {
		executionOrder.push(nodeName);
	});
	// what a node answers the webhook request that started the run (this.sendResponse), as n8n's hook receives it
	const responses: IExecuteResponsePromiseData[] = [];
	hooks.addHandler('sendResponse', (response: IExecuteResponsePromiseData) => {
		responses.push(response);
	});

	const BASE_URL = opts.baseUrl ?? DEFAULT_BASE_URL;
	const additionalData: IWorkflowExecuteAdditionalData = {
		credentialsHelper: new HarnessCredentialsHelper(credentialTypes, credentialStore),
		executeWorkflow: async () => {
			throw new ApplicationError('Sub-workflow execution is not supported by the in-process harness');
		},
		getRunExecutionData: async () => undefined,
		executionId,
		currentNodeExecutionIndex: 0,
		...n8nUrls(BASE_URL),
		variables: {},
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new ApplicationError('Task runners are not available in the in-process harness');
		},
		hooks,
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
		workflowSettings: settings,
	};

	const workflowExecute = new WorkflowExecute(additionalData, mode);
	let run: IRun;
	try {
		run = await workflowExecute.run({ workflow, startNode });
	} catch (error) {
		// Thrown before the run starts, e.g. WorkflowHasIssuesError for a missing required parameter.
		const e = error as ExecutionError;
		run = {
			data: {
				version: 1,
				resultData: { runData: {}, error: { ...e, message: e.message, stack: e.stack } },
			},
			mode,
			startedAt: new Date(started),
			stoppedAt: new Date(),
			storedAt: 'db',
			status: 'error',
		} as IRun;
	}

	const resultOf = (run: IRun): RunResult => {
		const runData = run.data.resultData.runData;
		const taskOf = (nodeName: string, runIndex: number) => {
			const task = runData[nodeName]?.[runIndex];
			if (!task) {
				const why = run.data.resultData.error ? ` The workflow failed: ${run.data.resultData.error.message}` : '';
				throw new UnexpectedError(`Node "${nodeName}" has no run ${runIndex} (ran: ${Object.keys(runData).join(', ') || 'none'}).${why}`);
			}
			return task;
		};
		return {
			run,
			status: run.status,
			runData,
			error: run.data.resultData.error as RunError | undefined,
			output(nodeName: string, outputIndex = 0, runIndex = 0) {
				return taskOf(nodeName, runIndex).data?.main?.[outputIndex] ?? [];
			},
			nodeError(nodeName: string, runIndex = 0) {
				return taskOf(nodeName, runIndex).error as RunError | undefined;
			},
			executionOrder,
			responses,
			async binaryBuffer(item: INodeExecutionData, property = 'data') {
				const binary = item.binary?.[property];
				if (!binary) throw new UnexpectedError(`Item has no binary property "${property}"`);
				return await Container.get(BinaryDataService).getAsBuffer(binary);
			},
			credentialStore,
			durationMs: Date.now() - started,
			waitTill: run.data.waitTill ?? undefined,
			resume: async (request) => await resumeWaiting(run, request),
			timeOut: async () => resultOf(await new WorkflowExecute(additionalData, mode, deepCopy(run.data)).processRunExecutionData(workflow)),
		};
	};

	/**
	 * What n8n's WaitingWebhooks + WebhookHelpers.executeWebhook do with a request to a waiting execution:
	 * a model of them (n8n-cli is not loaded in process), its signature made with n8n-core's own
	 * generateUrlSignature; real n8n's answers are checked in test/e2e/send-and-wait.e2e.test.ts.
	 */
	const resumeWaiting = async (waiting: IRun, request: ResumeRequest): Promise<{ answer: ResumeAnswer; result?: RunResult }> => {
		const data = deepCopy(waiting.data);
		if (!data.waitTill) throw new UnexpectedError('The run is not waiting');
		const url = new URL(request.url);
		const answer: ResumeAnswer = { status: 200, body: undefined, headers: {} };
		const lastNodeExecuted = data.resultData.lastNodeExecuted as string;
		const node = workflow.getNode(lastNodeExecuted) as INode;
		if (data.validateSignature && node.parameters.operation === SEND_AND_WAIT_OPERATION) {
			const given = url.searchParams.get(WAITING_TOKEN_QUERY_PARAM) ?? '';
			const unsigned = new URL(url);
			unsigned.searchParams.delete(WAITING_TOKEN_QUERY_PARAM);
			const expected = generateUrlSignature(prepareUrlForSigning(unsigned), Container.get(InstanceSettings).hmacSignatureSecret);
			if (given !== expected) return { answer: { status: 401, body: { error: 'Invalid token' }, headers: {} } };
		}
		const suffix = url.pathname.split('/').pop();
		if (suffix !== node.id) return { answer: { status: 404, body: { message: 'no waiting webhook at this path' }, headers: {} } };
		data.executionData!.nodeExecutionStack[0].node.disabled = true;
		data.waitTill = undefined;
		data.resultData.runData[lastNodeExecuted].pop();

		const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body ?? '');
		const contentType = request.contentType ?? (raw.length ? 'application/json' : undefined);
		const headers: Record<string, string> = { host: url.host, ...(contentType ? { 'content-type': contentType } : {}) };
		for (const [key, value] of Object.entries(request.headers ?? {})) headers[key.toLowerCase()] = value;
		let body: unknown = {};
		if (raw.length && contentType?.startsWith('application/json')) body = JSON.parse(raw.toString('utf8'));
		else if (raw.length && contentType?.startsWith('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
		const method = request.method ?? 'POST';
		const req = { method, url: url.pathname + url.search, headers, query: Object.fromEntries(url.searchParams), body, rawBody: raw, params: {} };
		const res = {
			status(code: number) {
				answer.status = code;
				return res;
			},
			setHeader(name: string, value: string) {
				answer.headers[name.toLowerCase()] = value;
				return res;
			},
			type(value: string) {
				answer.headers['content-type'] = value;
				return res;
			},
			json(value: unknown) {
				answer.body = value;
				return res;
			},
			send(value: unknown) {
				answer.body = Buffer.isBuffer(value) ? value.toString('utf8') : value;
				return res;
			},
			end() {
				return res;
			},
		};
		const description = (workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType).description;
		// n8n's server (Express) routes a HEAD to the GET handlers: a link preview's HEAD gets what a GET gets
		// (measured on real n8n, send-and-wait.e2e.test.ts), the node seeing method HEAD
		const routed = method === 'HEAD' ? 'GET' : method;
		const webhookDescription = (description.webhooks ?? []).find((hook) => hook.httpMethod === routed && hook.restartWebhook === true);
		if (!webhookDescription) return { answer: { status: 404, body: { message: `no waiting ${method} webhook` }, headers: {} } };
		const webhookData = { httpMethod: method, node: node.name, path: node.id, webhookDescription, workflowId: workflow.id } as unknown as IWebhookData;
		const webhookAdditionalData = { ...additionalData, httpRequest: req, httpResponse: res, executionId } as unknown as IWorkflowExecuteAdditionalData;
		const context = new WebhookContext(workflow, node, webhookAdditionalData, mode, webhookData, [], data);
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
		const response = await nodeType.webhook!.call(context);
		if (!response.noWebhookResponse && response.webhookResponse !== undefined) {
			answer.body = response.webhookResponse;
			answer.answeredBy = 'n8n';
		} else answer.answeredBy = 'node';
		if (!response.workflowData) return { answer };
		data.executionData!.nodeExecutionStack[0].data.main = response.workflowData;
		const continued = await new WorkflowExecute(additionalData, mode, data).processRunExecutionData(workflow);
		return { answer, result: resultOf(continued) };
	};

	return resultOf(run);
}

/** The addresses n8n-core builds webhook, resume and form URLs from, on one base URL (ending in `/`). */
function n8nUrls(baseUrl: string) {
	return {
		restApiUrl: `${baseUrl}rest`,
		instanceBaseUrl: baseUrl,
		formWaitingBaseUrl: `${baseUrl}form-waiting`,
		webhookBaseUrl: `${baseUrl}webhook`,
		webhookWaitingBaseUrl: `${baseUrl}webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}webhook-test`,
	};
}

/**
 * What a trigger's webhook methods (checkExists, create, delete) run with in a HookContext: the
 * harness's credentials (requests go through n8n-core's httpRequestWithAuthentication) and n8n's
 * addresses on `baseUrl`, from which n8n-core builds the trigger's production and test URLs.
 */
export function hookAdditionalData(store: CredentialStore, baseUrl: string): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new HarnessCredentialsHelper(packageCredentialTypes(), store),
		...n8nUrls(baseUrl),
		variables: {},
		executionId: undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

// ---------------------------------------------------------------------------------------------
// Small builders
// ---------------------------------------------------------------------------------------------

/** Connections for a straight line of nodes, main output 0 to main input 0. */
export function chain(...nodeNames: string[]): IConnections {
	return edges(...nodeNames.slice(1).map((to, i) => [nodeNames[i], to] as [string, string]));
}

/** Connections from `[from, to, fromOutputIndex?, toInputIndex?]` edges. */
export function edges(...list: Array<[string, string, number?, number?]>): IConnections {
	const connections: IConnections = {};
	for (const [from, to, outputIndex = 0, inputIndex = 0] of list) {
		const main = (connections[from] ??= { main: [] }).main;
		while (main.length <= outputIndex) main.push([]);
		(main[outputIndex] ??= []).push({ node: to, type: 'main', index: inputIndex });
	}
	return connections;
}
