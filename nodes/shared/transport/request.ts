// The one place that talks to the service: a request's story from its endpoint to its answer or error.
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { addressOf, type ExotelContext } from './address';
import type { ExotelRequest } from './endpoint';
import { exchange, type ExotelResponse } from './exchange';
import { failureOf, limitDidNotLift, loginFailed } from './outcome';
import { retryDelayOf } from './retry';
import type { NodeRun } from './run';
import { throttleReading } from './throttle';

export type { ExotelContext } from './address';
export type { ExotelBase, ExotelCredentialType, ExotelRequest } from './endpoint';
export type { ExotelResponse } from './exchange';


/**
 * Sends the request as the credential of its base, in its turn of the account's pace: a refusal
 * for the limit waits and goes again (the service did not act on it), a 5xx without the service's
 * reason or a lost connection that duplicates nothing is tried again with backoff, and every
 * failure becomes a NodeApiError with the service's own words, secrets removed.
 */
export async function exotelRequest<T = unknown>(context: ExotelContext, run: NodeRun, request: ExotelRequest): Promise<ExotelResponse<T>> {
	const node = context.getNode();
	const address = await addressOf(context, run, request);
	const pacer = run.pacerOf(address.credentials, request.endpoint, address.baseUrl);
	if (typeof pacer === 'string') {
		const description = `Nothing was sent: fix the value in the "${address.credentialType}" credential, or turn Custom Rate Limits off for the service's defaults.`;
		throw new NodeOperationError(node, pacer, { itemIndex: request.itemIndex, description });
	}
	for (let attempt = 1; ; attempt++) {
		const paced = await pacer.attempt(
			async () => await exchange(context, address.credentialType, address.options, request.binary),
			(met) => met.response && throttleReading(met.response, request.endpoint.rate),
		);
		if (!paced.sent) throw limitDidNotLift(node, run, request, address, paced.givenUp);
		const { met, givenUp } = paced;
		if (givenUp !== undefined) throw limitDidNotLift(node, run, request, address, givenUp, met.response);
		if (met.loginFailure) throw loginFailed(node, request, address, met.loginFailure);
		if (paced.throttled) {
			// Refused for the limit, so not acted on: sending it again duplicates nothing and counts no attempt.
			attempt--;
			continue;
		}
		const delay = retryDelayOf(met, request, attempt);
		if (delay !== undefined) {
			await sleep(delay);
			continue;
		}
		if (met.response && met.response.statusCode < 400) return met.response as ExotelResponse<T>;
		throw failureOf(node, request, address, met, attempt);
	}
}

/**
 * Every item of an offset/limit listing (v2 campaigns, lists, users, call details): pages of
 * `pageSize` until `limit` items or a short page. `itemsOf` picks the items out of one answer.
 */
export async function exotelRequestAllItems(
	context: ExotelContext,
	run: NodeRun,
	request: ExotelRequest,
	options: { pageSize: number; limit?: number; itemsOf: (body: unknown) => IDataObject[] },
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	let offset = Number(request.qs?.offset ?? 0);
	for (;;) {
		const wanted = options.limit === undefined ? options.pageSize : Math.min(options.pageSize, options.limit - items.length);
		const response = await exotelRequest(context, run, { ...request, qs: { ...request.qs, offset, limit: wanted } });
		const page = options.itemsOf(response.body);
		items.push(...page);
		offset += page.length;
		if (page.length < wanted || (options.limit !== undefined && items.length >= options.limit)) return items;
	}
}
