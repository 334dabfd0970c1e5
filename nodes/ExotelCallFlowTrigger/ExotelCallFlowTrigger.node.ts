import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { APPLET_CONTENT_TYPES, type Applet, type CallFlowAnswer } from '../shared/callFlows/answers';
import { objectOf } from '../shared/rules/values';
import { answerNow } from '../shared/webhooks/respond';
import { URL_GIVEN_BY_HAND } from '../shared/webhooks/triggers';
import { addressAllowed, badAddressEntries, MIN_SECRET_LENGTH, secretMatches } from './access';
import { holdRequest, type HeldAnswer } from './answering';
import { fallbackAnswer, properties } from './fields';
import { earlierAnswer, rememberRequest, requestKey } from './inFlight';
import { callFlowItem } from './requests';

/**
 * One URL per trigger, `/webhook/<id>/<applet>/<id>/<secret>`: its applet's name and the secret in the path. GET is what the service sends,
 * POST what some accounts send, HEAD what the Greeting sends first: each is declared, since n8n
 * finds a webhook by its literal method. The Answer operation answers through n8n's response
 * node path, which the trigger holds (answering.ts).
 */
const CALL_FLOW_WEBHOOKS: IWebhookDescription[] = (['GET', 'HEAD', 'POST'] as const).map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'responseNode',
	// n8n puts the node's webhook id before a path with a `:` segment, but keys it without: the id again
	// in the path keeps two triggers' paths apart (2.8.4 let the later overwrite, newer refuse it)
	path: '={{$parameter["applet"]}}/{{$webhookId}}/:secret',
	isFullPath: true,
}));

/** Passthru's first branch, answered at once to an async Passthru. */
const FIRST_BRANCH: CallFlowAnswer = { status: 200, contentType: 'text/plain', body: '' };

export class ExotelCallFlowTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Exotel Call Flow Trigger',
		name: 'exotelCallFlowTrigger',
		icon: { light: 'file:../../icons/exotel.svg', dark: 'file:../../icons/exotel.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ { connect: "Connect", gather: "Gather", greeting: "Greeting", passthru: "Passthru" }[$parameter["applet"]] }}',
		description: "Starts the workflow when a call flow's applet asks its URL, and answers what the caller gets next",
		defaults: { name: 'Exotel Call Flow Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'exotelCallFlowApi', required: true, testedBy: 'callFlowSecretTest' }],
		webhooks: CALL_FLOW_WEBHOOKS,
		properties,
	};

	methods = {
		credentialTest: {
			async callFlowSecretTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
				const data = credential.data ?? {};
				const secret = String(data.secret ?? '');
				if (secret.length < MIN_SECRET_LENGTH) return { status: 'Error', message: `URL Secret must be at least ${MIN_SECRET_LENGTH} characters (it has ${secret.length})` };
				if (!/^[A-Za-z0-9._~-]+$/.test(secret)) return { status: 'Error', message: 'URL Secret may hold only letters, digits and . _ ~ - (it sits in a URL path)' };
				const bad = badAddressEntries(String(data.allowedAddresses ?? ''));
				if (bad.length) return { status: 'Error', message: `Allowed Addresses: ${bad.join(', ')} is not an IP address or an IPv4 range` };
				return { status: 'OK', message: 'The secret and addresses are usable' };
			},
		},
	};

	// The URLs are pasted into the flow builder by hand: nothing to register at the service.
	webhookMethods = URL_GIVEN_BY_HAND;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const credentials = await this.getCredentials('exotelCallFlowApi');
		if (!addressAllowed(String(credentials.allowedAddresses ?? ''), req.ip)) {
			return answerNow(this, 403, { error: "The request's address is not in the credential's Allowed Addresses" });
		}
		if (!secretMatches((this.getParamsData() as IDataObject).secret, String(credentials.secret ?? ''))) {
			return answerNow(this, 401, { error: "The URL's secret is not the credential's URL Secret" });
		}
		const applet = this.getNodeParameter('applet') as Applet;
		if (req.method === 'HEAD') {
			// the Greeting checks the content type first: the GET's headers, no body, no execution
			this.getResponseObject().status(200).type(APPLET_CONTENT_TYPES[applet]).end();
			return { noWebhookResponse: true };
		}
		const fallback = fallbackOf(this, applet);
		const asynchronous = applet === 'passthru' && this.getNodeParameter('passthruMode', 'sync') === 'async';
		const held = holdRequest(this.getResponseObject(), fallback, asynchronous ? 0 : Number(this.getNodeParameter('answerWithin', 4)) * 1000);
		const params = objectOf(req.method === 'POST' ? req.body : req.query) ?? {};
		const key = requestKey(`${this.getWorkflow().id ?? ''}/${this.getNode().id}`, params);
		const earlier = key === undefined ? undefined : earlierAnswer(key);
		if (earlier) {
			// a repeat of a request this process holds or just answered: the same answer, no second execution
			void earlier.then((answer) => held.answer(answer, answer.by));
			return { noWebhookResponse: true };
		}
		if (key !== undefined) rememberRequest(key, held.answered);
		if (asynchronous) held.answer(FIRST_BRANCH, 'trigger');
		else void held.answered.then((answer) => warnOfFallback(this, answer));
		const countryCode = String((this.getNodeParameter('options', {}) as IDataObject).countryCode ?? '91');
		return { workflowData: [this.helpers.returnJsonArray([callFlowItem(applet, params, countryCode)])] };
	}
}

/** The fallback answer; one the panel got wrong is logged and answered 503, so the service takes its own failure path. */
function fallbackOf(context: IWebhookFunctions, applet: Applet): CallFlowAnswer {
	const built = fallbackAnswer(applet, (name) => context.getNodeParameter(name, ''));
	if (!('problems' in built)) return built;
	context.logger.warn(`Exotel: the fallback of "${context.getNode().name}" cannot be sent (${built.problems.join('; ')}); a 503 goes instead`);
	return { status: 503, contentType: 'text/plain', body: '' };
}

function warnOfFallback(context: IWebhookFunctions, answer: HeldAnswer): void {
	if (answer.by !== 'fallback') return;
	const why = answer.reason === 'slow' ? 'the workflow did not answer within Answer Within' : 'the workflow ended without an Answer';
	const workflow = context.getWorkflow();
	context.logger.warn(`Exotel: "${context.getNode().name}" of workflow "${workflow.name ?? workflow.id}" gave the call its fallback answer (${answer.status}): ${why}`, {
		workflowId: workflow.id,
		node: context.getNode().name,
	});
}
