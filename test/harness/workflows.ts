/**
 * Workflows for a real n8n: the JSON shapes `n8n import:*` takes, a linear workflow builder and the
 * few core nodes the suites chain the package's nodes with.
 */
import * as crypto from 'crypto';

export interface CredentialSpec {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	position?: [number, number];
	id?: string;
	webhookId?: string;
	[key: string]: unknown;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

export const MANUAL_TRIGGER: WorkflowNode = {
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
};

/** n8n accepts workflow ids of 1 to 21 characters; the UI makes 16 alphanumerics. */
export function newWorkflowId(): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const bytes = crypto.randomBytes(16);
	let id = '';
	for (const b of bytes) id += alphabet[b % alphabet.length];
	return id;
}

/**
 * A linear workflow: `trigger` (default Manual Trigger; pass a webhook node for
 * webhook workflows) → chain[0] → chain[1] → … Node ids, positions and (for
 * webhook-type nodes) `webhookId`s are filled in.
 */
export function makeWorkflow(
	chain: WorkflowNode[],
	opts: { name?: string; id?: string; trigger?: WorkflowNode; settings?: Record<string, unknown> } = {},
): WorkflowJson & { id: string } {
	const nodes = [opts.trigger ?? MANUAL_TRIGGER, ...chain].map((node, index) => {
		const filled: WorkflowNode = {
			parameters: {},
			...node,
			id: node.id ?? crypto.randomUUID(),
			position: node.position ?? [index * 220, 0],
		};
		if (/webhook/i.test(node.type) && !filled.webhookId) filled.webhookId = crypto.randomUUID();
		return filled;
	});
	const names = new Set<string>();
	for (const node of nodes) {
		if (names.has(node.name)) throw new Error(`makeWorkflow: duplicate node name ${node.name}`);
		names.add(node.name);
	}
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id: opts.id ?? newWorkflowId(),
		name: opts.name ?? `e2e ${nodes.map((n) => n.name).join(' → ')}`,
		nodes,
		connections,
		settings: opts.settings ?? { executionOrder: 'v1' },
		active: false,
	};
}

/** Set node (v3.4, manual mode) producing exactly the given fields. */
export function setNode(name: string, fields: Record<string, string | number | boolean>): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			mode: 'manual',
			includeOtherFields: false,
			assignments: {
				assignments: Object.entries(fields).map(([key, value]) => ({
					id: crypto.randomUUID(),
					name: key,
					value,
					type: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string',
				})),
			},
			options: {},
		},
	};
}

/** Webhook trigger node (v2) answering with the first item of the last node. */
export function webhookNode(name: string, webhookPath: string, method = 'POST'): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		parameters: {
			httpMethod: method,
			path: webhookPath,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
	};
}
