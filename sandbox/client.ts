/** A small HTTP client for the sandbox's own tests: form, JSON or raw bodies, the answer parsed when it is JSON. */
export interface Answer<B = unknown> {
	status: number;
	headers: Headers;
	text: string;
	/** The parsed JSON, as the caller says it is shaped (undefined when the answer is not JSON). */
	body: B;
}

export interface CallOptions {
	headers?: Record<string, string>;
	form?: Array<[string, string]>;
	json?: unknown;
	raw?: string | FormData;
}

/** An HTTP basic `Authorization` header value. */
export const basicOf = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export async function call<B = unknown>(origin: string, method: string, path: string, options: CallOptions = {}): Promise<Answer<B>> {
	const headers: Record<string, string> = { ...options.headers };
	let body: string | FormData | undefined;
	if (options.form) {
		body = new URLSearchParams(options.form).toString();
		headers['content-type'] ??= 'application/x-www-form-urlencoded';
	} else if (options.json !== undefined) {
		body = JSON.stringify(options.json);
		headers['content-type'] ??= 'application/json';
	} else if (options.raw !== undefined) {
		body = options.raw;
	}
	const res = await fetch(origin + path, { method, headers, body });
	const text = await res.text();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: res.status, headers: res.headers, text, body: parsed as B };
}
