import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Answers the request now (the service wants a quick 200) and tells n8n not to answer again. */
export function answerNow(context: IWebhookFunctions, status: number, body: IDataObject | string): IWebhookResponseData {
	const res = context.getResponseObject();
	if (typeof body === 'string') res.status(status).type('text/plain').send(body);
	else res.status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * Starts the workflow with the items left after filtering, and leaves the 200 to n8n, which sends it
 * once it holds the execution (as for its own Webhook node): an answer sent before that would tell
 * the service a callback is taken that n8n may still drop when it falls behind, and the service does
 * not send an answered callback again. With nothing left to start, the answer goes at once.
 */
export function startWith(context: IWebhookFunctions, received: number, items: IDataObject[]): IWebhookResponseData {
	const answer = { received, accepted: items.length };
	if (items.length === 0) return answerNow(context, 200, answer);
	return { workflowData: [context.helpers.returnJsonArray(items)], webhookResponse: answer };
}

/**
 * Form bodies arrive flat (`Legs[0][Status]=completed`); this rebuilds the arrays and objects the
 * bracket keys describe, keeping every other key as it is.
 */
export function nestBracketKeys(body: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(key);
		if (!match) {
			out[key] = value;
			continue;
		}
		const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
		let node: IDataObject | IDataObject[] = out;
		path.forEach((segment, index) => {
			const last = index === path.length - 1;
			const nextIsIndex = !last && /^\d*$/.test(path[index + 1]);
			const container = node as Record<string, unknown>;
			const name = segment === '' && Array.isArray(node) ? String(node.length) : segment;
			if (last) container[name] = value;
			else {
				container[name] ??= nextIsIndex ? [] : {};
				node = container[name] as IDataObject;
			}
		});
	}
	return out;
}
