import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Answers the request now (the service wants a quick 200) and tells n8n not to answer again. */
export function answerNow(context: IWebhookFunctions, status: number, body: IDataObject | string): IWebhookResponseData {
	const res = context.getResponseObject();
	if (typeof body === 'string') res.status(status).type('text/plain').send(body);
	else res.status(status).json(body);
	return { noWebhookResponse: true };
}

/** Acknowledges with 200 and starts the workflow with the items, if any are left after filtering. */
export function startWith(context: IWebhookFunctions, received: number, items: IDataObject[]): IWebhookResponseData {
	answerNow(context, 200, { received, accepted: items.length });
	if (items.length === 0) return { noWebhookResponse: true };
	return { noWebhookResponse: true, workflowData: [context.helpers.returnJsonArray(items)] };
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
